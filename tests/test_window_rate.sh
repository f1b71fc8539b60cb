#!/usr/bin/env bash
# test_window_rate.sh - the window's simulation rate end to end (Xvfb):
#   - --rate 25 --frames 40: 40 steps, and the wall time the program
#     reports allows no more than the rate (steps <= 1 + 25 x seconds)
#     and at least half of it (steps and drops cover half the seconds);
#   - --rate max: one step per drawn frame (steps = frames drawn);
#   - paused (Space), N runs exactly one step: the W key's snapshots name
#     frames A and A+1, and the recording ends at frame A+1;
#   - a run recorded at 1000 steps/s, several steps per drawn frame,
#     with sprays, a new wave and collision off, replays bit for bit in
#     the bench and in a window at --rate max and --rate 7.
#
#   bash tests/test_window_rate.sh path/to/particles path/to/png_probe
set -u
. "$(dirname "$0")/window_util.sh"
window_args "$@"

window_tmp rate
small=(--entities 2000 --vsync off --threads 2 --size 320x200)

# rate_line: the summary's second line, as "RATE STEPS SECONDS DRAWN DROPPED".
rate_line() {
    sed -nE 's/^rate (max|[0-9.]+ steps\/s): ([0-9]+) steps in ([0-9.]+) s, [0-9.]+ steps\/s, ([0-9]+) frames drawn, ([0-9]+) steps dropped$/\1 \2 \3 \4 \5/p' "$out" |
        sed 's/ steps\/s//'
}

# ---- the rate holds ---------------------------------------------------------
"$bin" "${small[@]}" --rate 25 --frames 40 >"$out" 2>"$err"
rc=$?
read -r rate steps secs drawn dropped <<<"$(rate_line)"
if [ $rc -eq 0 ] && [ "${rate:-}" = 25 ] && [ "${steps:-}" = 40 ] && grep -q '^frames 40, ' "$out" &&
    awk -v s="$steps" -v d="$dropped" -v w="$secs" \
        'BEGIN { exit !(s <= 1 + 25 * w + 0.001 && s + d >= 0.5 * 25 * w) }'; then
    ok "--rate 25 --frames 40: $steps steps in $secs s ($dropped dropped, $drawn frames drawn)"
else
    fail "--rate 25 --frames 40" "exit $rc, stdout: $(head -c 400 "$out"), stderr: $(head -c 300 "$err")"
fi

"$bin" "${small[@]}" --rate max --frames 30 >"$out" 2>"$err"
rc=$?
read -r rate steps secs drawn dropped <<<"$(rate_line)"
if [ $rc -eq 0 ] && [ "${rate:-}" = max ] && [ "${steps:-}" = 30 ] && [ "${drawn:-}" = 30 ] &&
    [ "$dropped" = 0 ]; then
    ok "--rate max --frames 30: one step per drawn frame ($steps steps, $drawn frames)"
else
    fail "--rate max --frames 30" "exit $rc, stdout: $(head -c 400 "$out"), stderr: $(head -c 300 "$err")"
fi

need_xdotool "the simulation rate"

# ---- paused, N steps once ------------------------------------------------------
# wait_state DIR FRAME: polls for up to 30 s for the W key's snapshot of
# FRAME, pressing W each time (a W read before N's step finds the snapshot
# of the frame before, which it does not replace).
wait_state() {
    for _ in $(seq 300); do
        [ -e "$1/particles-frame$2.state" ] && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        xdotool key --window "$wid" w 2>/dev/null
        sleep 0.1
    done
    return 1
}
d=$tmp/pause
start_in "$d" "${small[@]}" --rate 25 --record "$tmp/pause.rec"
a=
if [ -n "$wid" ]; then
    xdotool key --window "$wid" space w
    for _ in $(seq 300); do
        a=$(ls "$d" | sed -nE 's/^particles-frame([0-9]+)\.state$/\1/p' | head -1)
        [ -n "$a" ] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    [ -n "$a" ] && xdotool key --window "$wid" n && wait_state "$d" $((a + 1))
    window_quit "$pid" >/dev/null
fi
wait_gone "$pid" || kill "$pid"
wait "$pid"
rc=$?
last=$(awk '$1 == "frame" { f = $2 } END { print f }' "$tmp/pause.rec" 2>/dev/null)
states=$(ls "$d" 2>/dev/null | grep -c '^particles-frame')
if [ -n "$wid" ] && [ $rc -eq 0 ] && [ -n "$a" ] && [ "$last" = $((a + 1)) ] && [ "$states" -eq 2 ]; then
    ok "paused at frame $a, N: one step, the recording ends at frame $last"
else
    fail "paused, N" "window ${wid:-none}, exit $rc, paused at ${a:-?}, last frame ${last:-none}, $states snapshots ($(ls "$d" | tr '\n' ' ')), stderr: $(head -c 300 "$err")"
fi

# ---- recorded with several steps a frame, replayed at other rates -----------------
d=$tmp/fast
rec=$tmp/fast.rec
start_in "$d" "${small[@]}" --rate 1000 --frames 100000 --record "$rec"
if [ -n "$wid" ]; then
    # Each S waits for its screenshot: that frame's steps saw the keys or
    # the button pressed with it.
    xdotool mousemove --window "$wid" 160 100 key --window "$wid" s && wait_shots "$pid" "$d" 1 &&
        xdotool mousedown --window "$wid" 1 key --window "$wid" s && wait_shots "$pid" "$d" 2 &&
        xdotool mouseup --window "$wid" 1 key --window "$wid" r 5 s && wait_shots "$pid" "$d" 3
    window_quit "$pid" >/dev/null
fi
wait_gone "$pid" || kill "$pid"
wait "$pid"
rc=$?
read -r rate steps secs drawn dropped <<<"$(rate_line)"
frames=$(awk '$1 == "frame"' "$rec" 2>/dev/null | wc -l)
if [ -n "$wid" ] && [ $rc -eq 0 ] && [ "${rate:-}" = 1000 ] && [ "${steps:-0}" -gt "${drawn:-0}" ] &&
    [ "$frames" = "$steps" ] && grep -q '^spray ' "$rec" && grep -q '^wave$' "$rec" &&
    grep -q '^system collision off$' "$rec"; then
    ok "recorded at 1000 steps/s: $steps steps in $drawn drawn frames, sprays, a wave, collision off"
else
    fail "recorded at 1000 steps/s" "window ${wid:-none}, exit $rc, $frames frames recorded, stdout: $(head -c 400 "$out"), stderr: $(head -c 300 "$err")"
fi
matched="^replay: $frames frames, every hash matched$"
"$bin" bench --replay "$rec" --threads 1 >"$out" 2>"$err"
rc=$?
if [ $rc -eq 0 ] && grep -qE "$matched" "$out"; then
    ok "bench --replay: $(cat "$out")"
else
    fail "bench --replay" "exit $rc, stdout: $(head -c 200 "$out"), stderr: $(head -c 300 "$err")"
fi
for r in max 7; do
    "$bin" --replay "$rec" --vsync off --threads 3 --size 320x200 --rate $r >"$out" 2>"$err" &
    pid=$!
    if [ $r = 7 ]; then # 7 steps a second: a few seconds in, quit; the frames so far matched
        wid=$(window_of "$pid")
        [ -n "$wid" ] && xdotool key --window "$wid" bracketright
        window_quit "$pid" >/dev/null
    fi
    for _ in $(seq 1200); do # up to 120 s: the replay draws every frame
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill "$pid" 2>/dev/null
    wait "$pid"
    rc=$?
    if [ $r = max ] && [ $rc -eq 0 ] && grep -qE "$matched" "$out"; then
        ok "window --replay --rate max: $(cat "$out")"
    elif [ $r = 7 ] && [ $rc -eq 0 ] && [ ! -s "$err" ] &&
        grep -qE "^replay: stopped after [0-9]+ of $frames frames, every hash so far matched$" "$out"; then
        ok "window --replay --rate 7, then ], quit early: $(cat "$out")"
    else
        fail "window --replay --rate $r" "exit $rc, stdout: $(head -c 200 "$out"), stderr: $(head -c 300 "$err")"
    fi
done

finish "the simulation rate"
