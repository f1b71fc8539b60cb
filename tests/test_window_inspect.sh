#!/usr/bin/env bash
# test_window_inspect.sh - the inspector, end to end in a real window
# (Xvfb): a world of one particle, paused, found in a screenshot (png_probe
# spot), then right clicks and drags sent with xdotool; the selection read
# from the lines the window prints, the panel and the ring from
# screenshots.
#
#   bash tests/test_window_inspect.sh path/to/particles path/to/png_probe
#
# - a right drag that starts on the particle selects nothing;
# - a right click on it selects it: its line, the panel top right (over
#   the letterbox bar, empty before) and the ring around it;
# - steps while selected keep the selection (no line, the panel stays);
# - a right click on empty space clears it, and the panel goes;
# - selected again, R (a new wave kills it): "died", and the panel goes;
# - the new wave's particle selected, two steps spraying 200 particles
#   each onto it: its contacts are ringed (the rings go with a click on
#   the bar, outside the world, which clears the selection);
# - a tiny circle is selected by a click within 6 pixels of its centre.
# Waits are bounded polls on a condition (a window, a line, a file).
set -u

. "$(dirname "$0")/window_util.sh"
window_args "$@"
window_tmp inspect

# The world's background (gfx.c), the panel's text and the ring's colour
# (window_hud.c, window_inspect.c).
BG=0C0E14 TEXT=EBEEF5 RING=FF50DC CONTACT=50DCFF
# A 40 x 60 world in a 1600 x 1000 window: a box about 590 pixels wide in
# the middle, bars left and right; the panel lies over the right bar.
WORLD="500 50 1100 950" PANEL="1150 0 1600 330"

shots() { ls "$1" | grep '^particles-.*\.png$'; }
# shot DIR N: presses S and waits for the N-th screenshot; prints the path
# of the new one (names of one second sort out of press order).
shot() {
    shots "$1" >"$tmp/had"
    xdotool key --window "$wid" s
    wait_shots "$pid" "$1" "$2" && echo "$1/$(shots "$1" | grep -vxF -f "$tmp/had" | head -1)"
}
# lines_after N PATTERN: polls for up to 10 s for a line matching PATTERN
# after the first N lines of the output.
lines_after() {
    for _ in $(seq 100); do
        tail -n +$(($1 + 1)) "$out" | grep -q "$2" && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}
count() { wc -l <"$out"; }

d=$tmp/run
start_in "$d" --size 1600x1000 --world 40x60 --entities 1 --vsync off --timeline off \
    --trails off --threads 2
if [ -z "$wid" ]; then
    fail "inspector" "no window appeared: $(head -c 300 "$err")"
    finish test_window_inspect
    exit
fi
# Paused, then one step: a world shows its particles from its first step on.
xdotool key --window "$wid" space n
before=$(shot "$d" 1)
read -r n x y < <("$probe" "$before" spot $BG $WORLD)
if [ -z "$before" ] || [ "${n:-0}" -lt 20 ]; then
    fail "inspector" "the particle was not found in the first screenshot ${before:-none} (${n:-no} pixels): $(head -c 300 "$err")"
    finish test_window_inspect
    exit
fi

# A right drag from the particle: a pan, no selection.
xdotool mousemove --window "$wid" "$x" "$y" mousedown 3 mousemove --window "$wid" \
    $((x + 60)) $((y + 40)) mouseup 3
xdotool mousemove --window "$wid" "$x" "$y" click 3
if ! lines_after 0 '^inspector: entity'; then
    fail "right click selects" "no selection line: $(head -c 300 "$out") $(head -c 300 "$err")"
elif [ "$(count)" -ne 1 ]; then
    fail "right drag" "the drag before the click printed too: $(cat "$out")"
else
    ok "right drag selects nothing; the right click after it selects: $(head -1 "$out")"
fi

after=$(shot "$d" 2)
p0=$("$probe" "$before" $TEXT $PANEL)
p1=$("$probe" "$after" $TEXT $PANEL)
r0=$("$probe" "$before" $RING $((x - 80)) $((y - 80)) $((x + 80)) $((y + 80)))
r1=$("$probe" "$after" $RING $((x - 80)) $((y - 80)) $((x + 80)) $((y + 80)))
if [ "$p0" -ne 0 ] || [ "$p1" -lt 300 ] || [ "$r0" -ne 0 ] || [ "$r1" -lt 40 ]; then
    fail "panel and ring" "panel text pixels $p0 before, $p1 selected; ring pixels $r0, $r1"
else
    ok "panel and ring: $p1 text pixels in the panel, $r1 ring pixels around the particle"
fi

# Steps keep the selection: no line, the panel still there.
xdotool key --window "$wid" n n n
stepped=$(shot "$d" 3)
p2=$("$probe" "$stepped" $TEXT $PANEL)
if [ "$(count)" -ne 1 ] || [ "$p2" -lt 300 ]; then
    fail "follows" "after 3 steps: $(tail -1 "$out"), panel text pixels $p2"
else
    ok "the selection stays over 3 steps ($p2 panel text pixels)"
fi

# Empty space: the world's corner far from the particle.
ex=$((x < 800 ? 1080 : 520)) ey=$((y < 500 ? 930 : 70))
xdotool mousemove --window "$wid" "$ex" "$ey" click 3
cleared=""
lines_after 1 '^inspector: cleared$' && cleared=$(shot "$d" 4)
if [ -z "$cleared" ] || [ "$("$probe" "$cleared" $TEXT $PANEL)" -ne 0 ]; then
    fail "empty space clears" "$(tail -1 "$out"); screenshot ${cleared:-none}"
else
    ok "a right click on empty space clears the selection and the panel"
fi

# Selected again, then R: the wave's kill ends it.
xdotool mousemove --window "$wid" "$x" "$y" click 3
lines_after 2 '^inspector: entity' && xdotool key --window "$wid" r
died=""
lines_after 3 '^inspector: entity .* died$' && died=$(shot "$d" 5)
if [ -z "$died" ] || [ "$("$probe" "$died" $TEXT $PANEL)" -ne 0 ]; then
    fail "death ends it" "$(tail -2 "$out" | tr '\n' ' '); screenshot ${died:-none}"
else
    ok "a new wave kills it: $(tail -1 "$out"), the panel gone"
fi

# The new wave's particle, drawn once a step ran, selected and sprayed on
# over two steps (a spray per step while the left button is held): its
# contacts are ringed; a click on the bar (outside the world) clears the
# selection, and the rings go.
xdotool key --window "$wid" n
wave=$(shot "$d" 6)
read -r n x y < <("$probe" "$wave" spot $BG $WORLD)
xdotool mousemove --window "$wid" "$x" "$y" click 3
sprayed="" bare=""
if lines_after 4 '^inspector: entity'; then
    xdotool mousedown --window "$wid" 1 key --window "$wid" n n mouseup --window "$wid" 1
    sprayed=$(shot "$d" 7)
    xdotool mousemove --window "$wid" 200 500 click 3
    lines_after 5 '^inspector: cleared$' && bare=$(shot "$d" 8)
fi
if [ -z "$bare" ]; then
    fail "contact rings" "$(tail -2 "$out" | tr '\n' ' '); screenshots ${sprayed:-none} ${bare:-none}"
else
    c1=$("$probe" "$sprayed" $CONTACT $WORLD)
    c0=$("$probe" "$bare" $CONTACT $WORLD)
    if [ "$c1" -lt $((c0 + 40)) ]; then
        fail "contact rings" "contact colour pixels $c1 selected, $c0 cleared"
    else
        ok "contact rings: $((c1 - c0)) pixels of them among 400 sprayed particles"
    fi
fi

window_quit "$pid" >/dev/null
wait "$pid"
pid=""

# A 300 x 600 world: 1.6 pixels a unit, every circle at most about 4
# pixels across its radius, in a box about 490 pixels wide. A click 5 pixels right of the centre is in no
# circle but within the reach of 6; 12 pixels is beyond it.
d=$tmp/reach
: >"$out"
start_in "$d" --size 1600x1000 --world 300x600 --entities 1 --vsync off --timeline off \
    --trails off --threads 2
read -r n x y < <(xdotool key --window "$wid" space n &&
    "$probe" "$(shot "$d" 1)" spot $BG 540 50 1060 950)
if [ "${n:-0}" -lt 1 ]; then
    fail "reach" "the particle was not found: $(head -c 300 "$err")"
else
    xdotool mousemove --window "$wid" $((x + 12)) "$y" click 3 mousemove --window "$wid" \
        $((x + 5)) "$y" click 3
    if ! lines_after 0 '^inspector: entity'; then
        fail "reach" "5 pixels from its centre selected nothing: $(head -c 300 "$err")"
    elif [ "$(count)" -ne 1 ]; then
        fail "reach" "12 pixels from it printed: $(cat "$out")"
    else
        ok "reach: selected 5 pixels from its centre, not 12: $(head -1 "$out")"
    fi
fi
window_quit "$pid" >/dev/null
wait "$pid"
pid=""
finish test_window_inspect
