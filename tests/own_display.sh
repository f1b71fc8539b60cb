#!/usr/bin/env bash
# own_display.sh CMD [ARGS...] - runs CMD on an X server of its own: a
# fresh Xvfb (Mesa's software OpenGL draws there) on the first free display
# number, which Xvfb itself picks and reports once it accepts clients
# (-displayfd), stopped when CMD ends. CMD's exit status is this script's.
#
# The window tests run in parallel under ctest: on one shared display a key
# or a pointer event meant for one test's window can reach another's (the
# server hands a closed window's id to the next client), so each gets its
# own. Without Xvfb, CMD runs on the display it was given.
set -u
if ! command -v Xvfb >/dev/null; then
    exec "$@"
fi
exec {fd}< <(exec Xvfb -displayfd 1 -screen 0 1600x1000x24 -nolisten tcp -noreset 2>/dev/null)
xvfb=$!
if ! read -r -t 60 -u "$fd" number || [ -z "$number" ]; then
    echo "own_display.sh: Xvfb did not start" >&2
    kill "$xvfb" 2>/dev/null
    exit 1
fi
DISPLAY=":$number" "$@"
rc=$?
kill "$xvfb" 2>/dev/null
exec {fd}<&-
exit $rc
