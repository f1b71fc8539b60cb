#!/usr/bin/env bash
# The main job: installs what is missing (Debian packages; run as root or
# with sudo), builds the release preset and opens the window. Where there
# is no display it says so and runs the quick headless benchmark instead,
# `particles bench --window-args ARGS`, with the simulation flags given
# (the bench leaves out the window's own flags, and names them).
# Arguments go to `particles` (see `particles --help`), e.g.
#   bash run.sh --entities 200000 --threads 4
set -euo pipefail
cd "$(dirname "$0")"
bash .ci/install-deps
cmake --preset release >/dev/null
# The build's progress ("[ 45%] Building C object ...") where there is
# something to build: the first build takes minutes; a build with nothing
# to do says nothing. Compiler messages go to stderr as they come.
cmake --build --preset release -j "$(nproc)" |
    awk '/Building|Linking/ { if (!n++) print "run.sh: building build/release:"; print; fflush() }'
particles=$PWD/build/release/src/app/particles # absolute: messages quote it to copy

# headless REASON ARGS...: the quick benchmark with the window's command
# line ARGS: the bench takes its simulation flags and leaves out (and
# names) the window's own (see `particles bench --help`, --window-args).
headless() {
    local reason=$1
    shift
    [ "${1:-}" != run ] || shift
    echo "run.sh: $reason: running the headless benchmark instead: particles bench --window-args $*"
    echo "run.sh: to see the window without a display, take a picture of it: xvfb-run -a -s '-screen 0 1600x1000x24' $particles --frames 300 --screenshot /tmp/particles.png"
    rm -f "${err:-}"
    exec "$particles" bench --window-args "$@"
}

case "${1:-}" in
bench | -h | --help | help | --version) exec "$particles" "$@" ;;
esac
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    headless "no display (DISPLAY and WAYLAND_DISPLAY are unset)" "$@"
fi
# A display is named but may not answer: the window says so on stderr
# (shown as it comes) and exits 1; then the benchmark runs instead.
err=$(mktemp)
trap 'rm -f "$err"' EXIT
rc=0
"$particles" "$@" 2> >(tee "$err" >&2) || rc=$?
wait
if [ "$rc" -eq 1 ] && grep -q "no display" "$err"; then
    headless "the display does not answer" "$@"
fi
exit "$rc"
