#!/usr/bin/env bash
# test_window_settings.sh - the settings panel end to end: a window (Xvfb,
# driven by xdotool) opens it with P; changes gravity with Right and Left;
# picks the wave size with Down, Down, Up and raises it with Shift+Right
# twice (the second, past --fixed-limit, refused, the notice saying why);
# starts a new wave; raises radius min with Shift+Right past radius max
# (the last press refused, the notice saying why); clicks life max's + and speed max's - (no spray);
# and records it all. The recording holds the changes as "param" lines,
# and the bench replays it with every hash matching, on other threads and
# inner parallelism too; the run's --save-state file holds the changed
# values and loads. The panel is on the screenshots while open (its
# title's and picked row's colours in its corner) and gone once closed.
#
#   bash tests/test_window_settings.sh path/to/particles path/to/png_probe
set -u
. "$(dirname "$0")/window_util.sh"
window_args "$@"

window_tmp settings
rec=$tmp/run.rec

need_xdotool "settings panel"

# keys_then_shot N KEYS...: presses the keys, then S, waits for the
# screenshot (a frame stepped and drawn after the keys) and moves it to
# $tmp/shotN.png.
keys_then_shot() {
    local n=$1
    shift
    xdotool key --window "$wid" "$@" s && wait_shots "$pid" "$d" 1 &&
        mv "$d"/particles-*.png "$tmp/shot$n.png"
}

# ---- a run recorded ---------------------------------------------------------
# 1200 x 750: the panel (470 px at the right edge) beside the figures.
# Trails off: the panel's pixels are counted against the particles'.
d=$tmp/run
start_in "$d" --entities 3000 --fixed-limit 13500 --vsync off --threads 2 --size 1200x750 \
    --rate 25 --trails off --record "$rec" --save-state "$tmp/end.state"
if [ -n "$wid" ]; then
    # Rows 15 px apart from y 52; the + of each at x 956-978, the - at 928-950.
    keys_then_shot 1 p &&
        keys_then_shot 2 Right Right Left &&
        keys_then_shot 3 Down Down Up shift+Right shift+Right &&
        keys_then_shot 4 r Down shift+Right shift+Right shift+Right shift+Right shift+Right &&
        xdotool mousemove --window "$wid" 967 134 click 1 mousemove --window "$wid" 939 104 \
            click 1 && keys_then_shot 5 &&
        keys_then_shot 6 p
    window_quit "$pid" >/dev/null
fi
wait_gone "$pid" || kill "$pid"
wait "$pid"
rc=$?
frames=$(awk '$1 == "frame"' "$rec" 2>/dev/null | wc -l)
params=$(grep '^param ' "$rec" 2>/dev/null | tr '\n' '|')
if [ -z "$wid" ] || [ $rc -ne 0 ]; then
    fail "record the changes" "window ${wid:-none}, exit $rc, stderr: $(head -c 300 "$err")"
elif [ "$params" = "$(printf 'param %s|' "acceleration 0 1.10000002" "acceleration 0 1.20000005" \
    "acceleration 0 1.10000002" "particles 13000" "radius 1 2.5" "radius 1.5 2.5" \
    "radius 2 2.5" "radius 2.5 2.5" "life 5 26" "speed 2.5")" ] &&
    ! grep -q '^spray ' "$rec" && head -1 "$rec" | grep -qx 'particles-recording 2' &&
    [ "$(grep -e '^param particles' -e '^wave$' "$rec" | tr '\n' ' ')" = "param particles 13000 wave " ]; then
    ok "record the changes: $frames frames, $params a wave after the wave size, no spray"
else
    fail "record the changes" "$frames frames; $(grep -v '^frame' "$rec" | tr '\n' '|' | head -c 600)"
fi

# ---- replayed headless --------------------------------------------------------
for args in "" "--threads 1 --inner-parallelism off" "--threads 4 --storage dynamic"; do
    # shellcheck disable=SC2086 # the arguments split at spaces
    "$bin" bench --replay "$rec" $args >"$out" 2>"$err"
    rc=$?
    if [ $rc -eq 0 ] && grep -qx "replay: $frames frames, every hash matched" "$out"; then
        ok "bench --replay $args: $(cat "$out")"
    else
        fail "bench --replay $args" "exit $rc, $(cat "$out" "$err" | head -c 300)"
    fi
done

# ---- kept by the snapshot -------------------------------------------------------
# --save-state's file holds the changed values (docs/determinism.md,
# "Snapshots": the parameters from byte 12 in sim_params order, f32 each;
# the wave size at 60, u32), and loads.
f32s=$(od -An -v -tf4 -j12 -N44 "$tmp/end.state" 2>/dev/null | tr -s ' \n' ' ')
wave=$(od -An -tu4 -j60 -N4 "$tmp/end.state" 2>/dev/null | tr -d ' ')
"$bin" bench --load-state "$tmp/end.state" --frames 3 >"$out" 2>"$err"
rc=$?
# world_w world_h radius_min radius_max speed_max acc.x acc.y life_min life_max
if [ $rc -eq 0 ] && [ "$wave" = 13000 ] &&
    printf '%s\n' "$f32s" | grep -qE '^ ?1440 900 2.5 2.5 2.5 0 1.1 5 26 '; then
    ok "kept by the snapshot: parameters$f32s, wave size $wave; it loads"
else
    fail "kept by the snapshot" "parameters$f32s, wave size ${wave:-none}; load exit $rc: $(head -c 300 "$err")"
fi

# ---- the panel drawn ------------------------------------------------------------
# Its corner: the title and values (the HUD's text colour), and the picked
# row's marker and name (orange) in the names' column; particles of either
# colour are few and small.
corner="730 12 1188 170" names="725 50 830 145"
# shellcheck disable=SC2086 # the corner splits at spaces
text() { "$probe" "$tmp/shot$1.png" EBEEF5 $corner; }
# shellcheck disable=SC2086
picked() { "$probe" "$tmp/shot$1.png" FFC450 $names; }
open_text=$(text 1) open_picked=$(picked 3) closed_text=$(text 6) closed_picked=$(picked 6)
if [ "${open_text:-0}" -gt $((5 * ${closed_text:-0} + 300)) ] &&
    [ "${open_picked:-0}" -gt $((3 * ${closed_picked:-0} + 30)) ]; then
    ok "panel drawn while open: $open_text text and $open_picked picked-row pixels, closed $closed_text and $closed_picked"
else
    fail "panel drawn" "open: ${open_text:-none} text, ${open_picked:-none} picked; closed: ${closed_text:-none}, ${closed_picked:-none}"
fi

# ---- the refusals told ------------------------------------------------------------
# The notice line (bottom left, orange) after a refused press reaches
# past x 300 ("wave size 23 000 refused: wave size 23000: must be 1 to
# 13500 (the fixed storage's limit)", "radius min 3 refused: radius
# range [3, 2.5]: need 0 < min <= max"); after the clicks it is short
# ("speed max 2.5: next spray or wave").
wave_refused=$("$probe" "$tmp/shot3.png" FFC450 300 705 450 725)
refused=$("$probe" "$tmp/shot4.png" FFC450 300 705 450 725)
told=$("$probe" "$tmp/shot5.png" FFC450 300 705 450 725)
if [ "${refused:-0}" -gt $((3 * ${told:-0} + 50)) ] &&
    [ "${wave_refused:-0}" -gt $((3 * ${told:-0} + 50)) ]; then
    ok "the refusals told: $wave_refused and $refused orange pixels along the notice line, $told after a change"
else
    fail "the refusals told" "${wave_refused:-none} and ${refused:-none} orange pixels after the refusals, ${told:-none} after a change"
fi

finish "settings panel"
