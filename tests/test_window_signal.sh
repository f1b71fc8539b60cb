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
# build replaces it (the seam itself works). A shader, the font, a
# --load-state or a --replay that is a FIFO whose writer writes nothing
# keeps the start waiting: SIGTERM then stops the program with 143,
# nothing on stderr and the old screenshot kept; so does a SIGTERM raised
# just before the wait for a FIFO shader's data begins. Prints one line
# per case.
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
ok() { echo "ok   $1"; }
fail() {
    failed=$((failed + 1))
    echo "FAIL $1: $2"
}
# Each input the window reads whole a FIFO whose writer writes nothing:
# SIGTERM ends the wait; the staged screenshot is discarded, the old kept.
mkdir "$tmp/assets" "$tmp/outs" && cp -r "$2/shaders" "$2/assets" "$tmp/assets/"
echo old >"$tmp/outs/shot.png"
fifo_run=("$bin" --size 320x200 --vsync off --screenshot "$tmp/outs/shot.png"
          --assets "$tmp/assets")
for file in shaders/particles.frag assets/DejaVuSans.ttf; do
    mv "$tmp/assets/$file" "$tmp/kept"
    stopped_on_fifo "SIGTERM while a FIFO $file is read: exit 143, nothing printed" \
        "$tmp/assets/$file" "$tmp/outs" "${fifo_run[@]}" --entities 2000 --frames 2
    mv "$tmp/kept" "$tmp/assets/$file"
done
stopped_on_fifo "SIGTERM while a FIFO --load-state is read: exit 143, nothing printed" \
    "$tmp/snap.fifo" "$tmp/outs" "${fifo_run[@]}" --frames 2 --load-state "$tmp/snap.fifo"
stopped_on_fifo "SIGTERM while a FIFO --replay is read: exit 143, nothing printed" \
    "$tmp/rec.fifo" "$tmp/outs" "${fifo_run[@]}" --replay "$tmp/rec.fifo"

# A stop signal that comes just before the wait for a FIFO shader's data
# (raised by the seam, the writer never writing) ends the reading: the
# wait never starts. A hang is ended by timeout's SIGKILL (exit 137).
mv "$tmp/assets/shaders/particles.vert" "$tmp/kept" && mkfifo "$tmp/assets/shaders/particles.vert"
exec 3<>"$tmp/assets/shaders/particles.vert"
PARTICLES_TEST_SIGNAL_READ=15 timeout -s KILL 60 "${fifo_run[@]}" --entities 2000 --frames 2 >/dev/null 2>"$tmp/err" 3<&-
rc=$?
exec 3>&-
if [ $rc -ne 143 ] || [ -s "$tmp/err" ] || ! printf 'old\n' | cmp -s - "$tmp/outs/shot.png"; then
    fail "SIGTERM just before a FIFO shader is waited for" "exit $rc (want 143), stderr: $(head -c 300 "$tmp/err")"
else
    ok "SIGTERM just before a FIFO shader is waited for: exit 143, nothing printed"
fi
[ $failed -eq 0 ]
