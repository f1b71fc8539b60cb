#!/usr/bin/env bash
# test_window_trails.sh - motion trails end to end, in a real window (Xvfb),
# read back from screenshots.
#
#   bash tests/test_window_trails.sh path/to/particles path/to/png_probe
#
# The same step drawn with --trails on and off (one step per drawn frame,
# --rate max, so that every step is drawn): on, the particles moved leave
# pixels lit where the frame alone has background, more of them than a
# tenth of the frame's lit pixels and dimmer than the particles; the frame's
# own particles stay lit. At 1x, where a particle moves a tenth of a pixel
# a step, the trails still light three quarters as many pixels again as
# the frame's particles (the streaks last longer there). A colouring
# (speed) shows on top of them. Off draws the frame alone: two runs of it at
# different rates, the same step, give the same picture. A bad --trails
# value is refused in one line. Prints one line per case, exits 1 if any
# failed.
set -u
. "$(dirname "$0")/window_util.sh"
window_args "$@"

window_tmp trails
# The particles' area, clear of the HUD's panel and the timeline, zoomed so
# that a step moves a particle several pixels.
area=(760 300 1400 680)
run=(--entities 20000 --vsync off --frames 40 --timeline off)
background=0c0e14

shot() { # NAME ARGS...
    local name=$1
    shift
    "$bin" "${run[@]}" "$@" --screenshot "$tmp/$name.png" >/dev/null 2>"$err" ||
        echo "exit $? for $*: $(head -c 300 "$err")" >&2
}

"$bin" --trails sometimes --frames 1 >/dev/null 2>"$err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q -- "--trails: 'sometimes'" "$err"; then
    ok "--trails sometimes: exit 2, one line naming the flag and the value"
else
    fail "--trails sometimes" "exit $rc, stderr: $(head -c 300 "$err")"
fi

shot on --rate max --trails on --zoom 4
shot off --rate max --trails off --zoom 4
shot off25 --rate 25 --trails off --zoom 4
read -r extra lit kept extra_mean lit_mean < <("$probe" "$tmp/on.png" trails "$tmp/off.png" \
    "$background" "${area[@]}")
echo "     trails: ${extra:-?} pixels more than the frame's ${lit:-?} (${kept:-?} of those kept)," \
    "brightness ${extra_mean:-?} against ${lit_mean:-?}"
if [ "${lit:-0}" -gt 1000 ] && [ "${extra:-0}" -gt $((lit / 10)) ]; then
    ok "trails on: the moved particles leave pixels lit where the frame alone has background"
else
    fail "trails on" "$extra extra lit pixels for the frame's $lit"
fi
if [ "${extra:-0}" -gt 0 ] && [ "${extra_mean:-0}" -lt $((lit_mean * 2 / 3)) ]; then
    ok "trails on: the trail is dimmer than the particles"
else
    fail "trails dimmer" "trail brightness $extra_mean, particles $lit_mean"
fi
if [ "${lit:-0}" -gt 1000 ] && [ "${kept:-0}" -ge $((lit * 99 / 100)) ]; then
    ok "trails on: the frame's own particles are drawn over the trails"
else
    fail "trails on, particles kept" "$kept of $lit lit"
fi
shot on1x --rate max --trails on --zoom 1
shot off1x --rate max --trails off --zoom 1
read -r extra lit _ < <("$probe" "$tmp/on1x.png" trails "$tmp/off1x.png" "$background" "${area[@]}")
if [ "${lit:-0}" -gt 1000 ] && [ "${extra:-0}" -gt $((lit * 3 / 4)) ]; then
    ok "trails on at 1x: $extra pixels lit beside the frame's $lit"
else
    fail "trails on at 1x" "$extra extra lit pixels for the frame's $lit"
fi
# A colouring on top of the trails: the speed ramp (blue to red) leaves
# streaks of its own colours, no purple, where the thesis's colours hold many.
shot speed --rate max --trails on --zoom 4 --color speed
read -r _ sp_sat sp_purple < <("$probe" "$tmp/speed.png" hues "${area[@]}")
read -r _ th_sat th_purple < <("$probe" "$tmp/on.png" hues "${area[@]}")
if [ "${th_purple:-0}" -gt 1000 ] && [ "${sp_sat:-0}" -gt 10000 ] &&
    [ "${sp_purple:-1}" -lt $((sp_sat / 200)) ]; then
    ok "trails on, coloured by speed: $sp_purple of $sp_sat coloured pixels purple (thesis $th_purple)"
else
    fail "trails on, coloured by speed" "purple ${sp_purple:-?} of ${sp_sat:-?}, thesis ${th_purple:-?}"
fi
read -r same_extra same_lit same_kept _ < <("$probe" "$tmp/off25.png" trails "$tmp/off.png" \
    "$background" "${area[@]}")
if [ "${same_lit:-0}" -gt 1000 ] && [ "${same_extra:-1}" -eq 0 ] && [ "${same_kept:-0}" -eq "$same_lit" ]; then
    ok "trails off: the frame alone, the same at --rate 25 as at --rate max"
else
    fail "trails off" "$same_extra extra, $same_kept of $same_lit lit kept"
fi
finish test_window_trails
