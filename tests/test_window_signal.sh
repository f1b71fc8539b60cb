#!/usr/bin/env bash
# test_window_signal.sh - a stop signal while --screenshot is being saved.
#
#   bash tests/test_window_signal.sh path/to/particles_raise_in_save ASSETS_DIR
#
# The program given is particles built with tests/raise_in_save.c, which
# raises PARTICLES_TEST_SIGNAL from inside the save, after the PNG is
# written to its temporary and before it is put in place. For SIGTERM,
# SIGINT and SIGHUP the run must exit 128+N, keep the old screenshot byte
# for byte and leave no temporary behind. Without the signal the same
# build replaces it (the seam itself works). A shader that is a FIFO whose
# writer writes nothing keeps the start waiting: SIGTERM then stops the
# program with 143 and nothing on stderr. Prints one line per case.
set -u
. "$(dirname "$0")/fifo_util.sh"

if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -d "$2/shaders" ]; then
    echo "usage: $0 PATH_TO_PARTICLES_RAISE_IN_SAVE ASSETS_DIR" >&2
    exit 2
fi
bin=$1
if [ -z "${DISPLAY:-}" ]; then
    echo "FAIL no DISPLAY: run this under xvfb-run"
    exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/particles-signal.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0
small=(--entities 2000 --size 320x200 --vsync off --frames 2 --assets "$2")

for pair in TERM:15 INT:2 HUP:1; do
    name=${pair%%:*}
    num=${pair##*:}
    echo old >"$tmp/shot.png"
    PARTICLES_TEST_SIGNAL=$num "$bin" "${small[@]}" --screenshot "$tmp/shot.png" \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    left=$(ls -A "$tmp" | grep -v -x -e shot.png -e out -e err | tr '\n' ' ')
    if [ $rc -ne $((128 + num)) ] || ! printf 'old\n' | cmp -s - "$tmp/shot.png" || [ -n "$left" ]; then
        echo "FAIL SIG$name during the save: exit $rc (want $((128 + num))), shot.png starts" \
            "'$(head -c 4 "$tmp/shot.png" | tr -dc '[:print:]')', left behind: '$left', stderr: $(head -c 300 "$tmp/err")"
        failed=$((failed + 1))
    else
        echo "ok   SIG$name during the save: exit $rc, old screenshot kept, no temporary"
    fi
done

echo old >"$tmp/shot.png"
"$bin" "${small[@]}" --screenshot "$tmp/shot.png" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ] || [ "$(head -c 4 "$tmp/shot.png" | tail -c 3)" != PNG ]; then
    echo "FAIL no signal: exit $rc, shot.png starts '$(head -c 4 "$tmp/shot.png" | tr -dc '[:print:]')'"
    failed=$((failed + 1))
else
    echo "ok   no signal: exit 0, the screenshot replaced"
fi
# The assets with one shader a FIFO, held open read-write by this shell so
# that no open waits; the program's own fd on it says it is reading.
mkdir "$tmp/assets" && cp -r "$2/shaders" "$2/assets" "$tmp/assets/"
rm "$tmp/assets/shaders/particles.frag" && mkfifo "$tmp/assets/shaders/particles.frag"
exec 3<>"$tmp/assets/shaders/particles.frag"
"$bin" --entities 2000 --size 320x200 --vsync off --frames 2 --assets "$tmp/assets" \
    >"$tmp/out" 2>"$tmp/err" 3<&- &
term_when_open $! '-> .*/particles.frag$'
exec 3>&-
if [ $rc -ne 143 ] || [ -s "$tmp/err" ]; then
    echo "FAIL SIGTERM while a FIFO shader is read: exit $rc (want 143), stderr: $(head -c 300 "$tmp/err")"
    failed=$((failed + 1))
else
    echo "ok   SIGTERM while a FIFO shader is read: exit 143, nothing printed"
fi
[ $failed -eq 0 ]
