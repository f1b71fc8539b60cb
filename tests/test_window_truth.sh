#!/usr/bin/env bash
# test_window_truth.sh - what the window tells, end to end in a real window
# (Xvfb), read back from screenshots (png_probe) and --timeline-report.
#
#   bash tests/test_window_truth.sh path/to/particles path/to/png_probe
#
# - four presses of S in quick succession: four files, each a whole PNG;
# - paused for 2.5 s: the chart's bars (the movement chain's blue pixels in
#   the figures' panel) are those shown just after the pause, not gone;
# - the report names the GL renderer (llvmpipe under Xvfb);
# - a 700 x 400 window with the timeline on draws its "no room" line at
#   the bottom right.
# Waits are bounded polls on a condition (a window, a file, the process
# gone); the one fixed wait is the pause under test. Prints one line per
# case.
set -u

. "$(dirname "$0")/window_util.sh"
window_args "$@"
window_tmp truth

# The S key's screenshots in DIR, oldest name first.
shots() { ls "$1" | grep '^particles-.*\.png$'; }

# --- S: a file per press ---------------------------------------------------
d=$tmp/presses
start_in "$d" --entities 20000 --vsync off --timeline off
if [ -z "$wid" ]; then
    fail "S per press" "no window appeared: $(head -c 300 "$err")"
else
    # One shot first: the window draws frames and takes keys.
    xdotool key --window "$wid" s
    if ! wait_shots "$pid" "$d" 1; then
        fail "S per press" "the first screenshot did not come: $(head -c 300 "$err")"
    else
        xdotool key --window "$wid" s s s s
        wait_shots "$pid" "$d" 5
        window_quit "$pid" >/dev/null
        wait "$pid"
        pid=""
        n=$(shots "$d" | wc -l)
        bad=""
        for f in $(shots "$d"); do
            "$probe" "$d/$f" >/dev/null 2>&1 || bad="$bad $f"
        done
        if [ "$n" -ne 5 ] || [ -n "$bad" ]; then
            fail "S per press" "1 + 4 presses gave $n files ($(shots "$d" | tr '\n' ' '))${bad:+, not PNG:$bad}"
        else
            ok "S per press: 1 + 4 presses, 5 whole PNG files"
        fi
    fi
fi
[ -n "$pid" ] && { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=""; }

# --- pause keeps the figures, the report names the renderer ----------------
# The chart's bars of the movement chain (90 160 255) in the figures'
# panel, top left; speed colours the particles far from that blue.
blue() { "$probe" "$1" 5AA0FF 0 0 700 300; }
d=$tmp/pause
rep=$tmp/report.txt
start_in "$d" --entities 20000 --vsync off --timeline on --color speed --timeline-report "$rep"
if [ -z "$wid" ]; then
    fail "pause keeps figures" "no window appeared: $(head -c 300 "$err")"
else
    xdotool key --window "$wid" s
    wait_shots "$pid" "$d" 1
    # The HUD's figures cover a whole second of running time: run that
    # long, then pause and take A at once and B after the pause under test.
    sleep 1.5
    xdotool key --window "$wid" space s
    wait_shots "$pid" "$d" 2
    sleep 2.5
    xdotool key --window "$wid" s
    wait_shots "$pid" "$d" 3
    # F writes the report (frozen); it names the renderer.
    xdotool key --window "$wid" f
    for _ in $(seq 300); do
        grep -q '^frozen yes' "$rep" 2>/dev/null && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    window_quit "$pid" >/dev/null
    wait "$pid"
    pid=""
    a=$(shots "$d" | sed -n 2p)
    b=$(shots "$d" | sed -n 3p)
    if [ -z "$a" ] || [ -z "$b" ]; then
        fail "pause keeps figures" "screenshots missing: $(shots "$d" | tr '\n' ' ') $(head -c 300 "$err")"
    else
        ba=$(blue "$d/$a")
        bb=$(blue "$d/$b")
        # The key's swatch alone is under 100 pixels: the bars are there.
        if [ "$ba" -lt 300 ] || [ "$ba" != "$bb" ]; then
            fail "pause keeps figures" "chart blue pixels $ba just after the pause, $bb 2.5 s later"
        else
            ok "pause keeps figures: the chart's bars the same after 2.5 s paused ($ba pixels)"
        fi
    fi
    gl=$(sed -n 's/^gl_renderer //p' "$rep" 2>/dev/null)
    if [ -n "$gl" ] && [ "$gl" != unknown ]; then
        ok "the report names the GL renderer: $gl"
    else
        fail "GL renderer" "no gl_renderer line in the report: $(head -3 "$rep" 2>/dev/null)"
    fi
fi
[ -n "$pid" ] && { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=""; }

# --- no room: the line is drawn ---------------------------------------------
png=$tmp/small.png
"$bin" --size 700x400 --timeline on --color speed --frames 5 --vsync off \
    --screenshot "$png" --timeline-report "$tmp/small.txt" >"$out" 2>"$err"
rc=$?
dim=$([ "$rc" -eq 0 ] && "$probe" "$png" 969EAF 350 360 700 400)
if [ "$rc" -ne 0 ] || [ "${dim:-0}" -lt 100 ] || ! grep -qx "blocks 0" "$tmp/small.txt" ||
    ! grep -qx "strip none" "$tmp/small.txt"; then
    fail "no room line" "exit $rc, ${dim:-no} dim pixels at the bottom right: $(head -c 300 "$err")"
else
    ok "no room line: drawn at the bottom right of a 700x400 window ($dim dim pixels), no blocks or strip in the report"
fi

finish test_window_truth
