#!/usr/bin/env bash
# test_record.sh - recordings end to end: a window (Xvfb, driven by
# xdotool) records a run with sprays, a new wave and a system switched
# off; the bench replays it with every hash matching, on other threads,
# inner parallelism, layout, storage and levels too; the window replays it;
# a recording with one frame's hash changed (its checksum made to agree)
# fails naming that frame; damaged, truncated, foreign and later-version
# files are refused in one line, version 1 still read; a "param" line the
# world would refuse is refused as the file loads, naming the line, the
# value and what is allowed; the window's --replay
# refuses --frames, --entities, --world, --fixed-limit and --load-state;
# SIGINT puts the recording in place, a SIGKILL leaves the old file.
#
#   bash tests/test_record.sh path/to/particles path/to/png_probe
set -u
. "$(dirname "$0")/window_util.sh"
window_args "$@"

window_tmp record
rec=$tmp/run.rec

need_xdotool "recordings"

# keys_then_shot DIR N XDOTOOL_ARGS...: runs the xdotool command, then
# presses S and waits for the Nth screenshot: a frame stepped after it.
keys_then_shot() {
    local dir=$1 n=$2
    shift 2
    xdotool "$@" key --window "$wid" s && wait_shots "$pid" "$dir" "$n"
}

# ---- a run recorded ---------------------------------------------------------
# Each S below waits for its screenshot: that frame's step saw the keys or
# the button pressed with it.
d=$tmp/run x=620 y=380
start_in "$d" --entities 3000 --vsync off --threads 2 --size 800x500 --rate 25 --record "$rec"
if [ -n "$wid" ]; then
    xdotool mousemove --window "$wid" $x $y key --window "$wid" s && wait_shots "$pid" "$d" 1 &&
        keys_then_shot "$d" 2 mousedown --window "$wid" 1 &&
        keys_then_shot "$d" 3 mousemove --window "$wid" $((x + 40)) $((y - 30)) &&
        keys_then_shot "$d" 4 mouseup --window "$wid" 1 &&
        keys_then_shot "$d" 5 key --window "$wid" r &&
        keys_then_shot "$d" 6 key --window "$wid" 5 &&
        keys_then_shot "$d" 7 key --window "$wid" i
    window_quit "$pid" >/dev/null
fi
wait_gone "$pid" || kill "$pid"
wait "$pid"
rc=$?
frames=$(awk '$1 == "frame"' "$rec" 2>/dev/null | wc -l)
sprays=$(grep -c '^spray ' "$rec" 2>/dev/null)
if [ -z "$wid" ] || [ $rc -ne 0 ]; then
    fail "record a run" "window ${wid:-none}, exit $rc, stderr: $(head -c 300 "$err")"
elif [ "${sprays:-0}" -ge 2 ] && grep -q '^wave$' "$rec" &&
    grep -q '^system collision off$' "$rec" && grep -q '^inner-parallelism off$' "$rec" &&
    [ "$frames" -ge 6 ] && tail -1 "$rec" | grep -qE "^end $frames [0-9]+$" &&
    [ "$(tail -1 "$rec" | cut -d' ' -f3)" = "$(head -n -1 "$rec" | cksum | cut -d' ' -f1)" ]; then
    ok "record a run: $frames frames, $sprays sprays, a wave, collision off, IP off, cksum agrees"
else
    fail "record a run" "$frames frames, ${sprays:-0} sprays; $(grep -v -e '^frame' -e '^spray' "$rec" | tr '\n' '|' | head -c 600)"
fi

# ---- replayed headless ----------------------------------------------------------
# replays NAME WANT_RC PATTERN FILE ARGS...: `bench --replay FILE ARGS`
# exits WANT_RC and its output (stdout then stderr) matches PATTERN, in one
# line.
replays() {
    local name=$1 want=$2 pattern=$3 file=$4
    shift 4
    "$bin" bench --replay "$file" "$@" >"$out" 2>"$err"
    local rc=$?
    local said
    said=$(cat "$out" "$err")
    if [ $rc -eq "$want" ] && [ "$(printf '%s\n' "$said" | wc -l)" -eq 1 ] &&
        printf '%s\n' "$said" | grep -qE -- "$pattern"; then
        ok "$name: exit $rc, $said"
    else
        fail "$name" "exit $rc (want $want), said: $(printf '%s' "$said" | head -c 300)"
    fi
}

matched="^replay: $frames frames, every hash matched$"
replays "bench --replay" 0 "$matched" "$rec"
replays "bench --replay --threads 1 --inner-parallelism off" 0 "$matched" "$rec" \
    --threads 1 --inner-parallelism off
replays "bench --replay --threads 4 --layout thesis --storage dynamic --kernel scalar --loops scalar" \
    0 "$matched" "$rec" --threads 4 --layout thesis --storage dynamic --kernel scalar --loops scalar

# ---- replayed in the window -------------------------------------------------------
"$bin" --replay "$rec" --vsync off --threads 3 --size 320x200 >"$out" 2>"$err"
rc=$?
if [ $rc -eq 0 ] && grep -qE "$matched" "$out"; then
    ok "window --replay: exit 0, $(cat "$out")"
else
    fail "window --replay" "exit $rc, stdout: $(head -c 200 "$out"), stderr: $(head -c 300 "$err")"
fi

# ---- a recording that differs ----------------------------------------------------
# with_end FILE: FILE's lines but the last, and an end line whose checksum
# agrees with them (a recording made elsewhere, not a damaged one).
with_end() {
    head -n -1 "$1"
    printf 'end %s %s\n' "$frames" "$(head -n -1 "$1" | cksum | cut -d' ' -f1)"
}
k=$((frames / 2))
awk -v k="$k" '$1 == "frame" && $2 == k { $3 = "0123456789abcdef" } { print }' "$rec" >"$tmp/edited"
with_end "$tmp/edited" >"$tmp/other.rec"
replays "one hash changed, checksum agreeing" 1 \
    "^particles bench: replay: frame $k: state hash [0-9a-f]{16}, recorded 0123456789abcdef$" \
    "$tmp/other.rec"
cp "$tmp/edited" "$tmp/damaged.rec"
replays "one hash changed, checksum not" 2 "--replay .*damaged.rec: line [0-9]+: damaged: " \
    "$tmp/damaged.rec"

# ---- files refused ----------------------------------------------------------------
{ head -n 30 "$rec"; sed -n 31p "$rec" | head -c 7; } >"$tmp/cut.rec" # 7 bytes of line 31
replays "truncated mid-line" 2 "--replay .*cut.rec: line 31: truncated" "$tmp/cut.rec"
head -n -1 "$rec" >"$tmp/noend.rec"
replays "truncated at a line" 2 "--replay .*noend.rec: truncated: no end line" "$tmp/noend.rec"
replays "a foreign file" 2 "--replay .*: line 1: not a recording" "$bin"
sed '1s/ [0-9]*$/ 9/' "$rec" >"$tmp/v9.rec"
replays "a later version" 2 "--replay .*v9.rec: line 1: a recording of version 9; this build reads versions 1 to 2" "$tmp/v9.rec"
# Version 1, before "param" lines, still reads; a "param" line in it does not.
sed '1s/ 2$/ 1/' "$rec" >"$tmp/edited"
with_end "$tmp/edited" >"$tmp/v1.rec"
replays "version 1" 0 "$matched" "$tmp/v1.rec"
awk '$1 == "frame" && !done { print "param speed 4"; done = 1 } { print }' "$tmp/edited" >"$tmp/v1p"
with_end "$tmp/v1p" >"$tmp/v1p.rec"
replays "a param line in version 1" 2 "--replay .*v1p.rec: line [0-9]+: not an input of version 1" \
    "$tmp/v1p.rec"
replays "a missing file" 2 "--replay .*nothere.rec: cannot be read" "$tmp/nothere.rec"
# A "param" line the world would refuse is refused as the file loads, before
# anything runs, in one line naming it and what is allowed: checked as the
# world checks it, on the parameters and wave size the lines above leave.
# refuses_param NAME ALLOWED LINES...: LINES put before frame k.
refuses_param() {
    local name=$1 allowed=$2
    shift 2
    local at
    at=$(awk -v k="$k" '$1 == "frame" && $2 == k { print NR; exit }' "$rec")
    printf '%s\n' "$@" >"$tmp/param.lines"
    awk -v k="$k" -v f="$tmp/param.lines" \
        '$1 == "frame" && $2 == k { while ((getline l < f) > 0) print l } { print }' \
        "$rec" >"$tmp/param"
    with_end "$tmp/param" >"$tmp/param.rec"
    replays "$name" 2 "^particles bench: --replay .*param.rec: line $((at + $# - 1)): ${!#}: $allowed\$" \
        "$tmp/param.rec"
}
refuses_param "param speed -1" "speed -1 .*\(speed >= 0\)" "param speed -1"
refuses_param "param particles 0" "wave size 0: must be 1 to 400000 \(the fixed storage's limit\)" \
    "param particles 0"
refuses_param "param particles 4000000" "wave size 4000000: must be 1 to 400000 .*" \
    "param particles 4000000"
refuses_param "param radius 0.5 3" "radius max 3: stays 2\.5, as the world was made .*" \
    "param radius 0.5 3"
refuses_param "param life 0 1" "life range \[0, 1\]: need 0 < min <= max" "param life 0 1"
# On the lines above: a wave size the default radii allow, then a radius
# min under which that wave would be past the density rule; and the other
# way round.
refuses_param "param particles then param radius" \
    "radius min 2\.5: the wave of 300000 particles would be past the [0-9]+ .*" \
    "param particles 300000" "param radius 2.5 2.5"
refuses_param "param radius then param particles" \
    "wave size 300000: must be 1 to [0-9]+ \(the density rule at radii \[2\.5, 2\.5\] .*\)" \
    "param radius 2.5 2.5" "param particles 300000"
# The waves are judged on the storage the replay runs on: a wave size past
# fixed storage's limit loads on --storage dynamic, and a recording made
# on dynamic storage is refused as it loads on --storage fixed.
last=$(awk '$1 == "frame" { f = $2 } END { print f }' "$rec")
awk -v k="$last" '$1 == "frame" && $2 == k { print "param particles 500000" } { print }' \
    "$rec" >"$tmp/big"
with_end "$tmp/big" >"$tmp/big.rec"
replays "a wave past the fixed limit, --storage dynamic" 0 "$matched" "$tmp/big.rec" \
    --storage dynamic
sed 's/^storage fixed [0-9]*$/storage dynamic 0/' "$tmp/big" >"$tmp/bigdyn"
with_end "$tmp/bigdyn" >"$tmp/bigdyn.rec"
replays "a dynamic recording's big wave, --storage fixed" 2 \
    "--replay .*bigdyn.rec: line [0-9]+: param particles 500000: wave size 500000: must be 1 to 400000 \(the fixed storage's limit\)$" \
    "$tmp/bigdyn.rec" --storage fixed
replays "--seed with --replay" 2 "--replay .*: --seed comes from the recording" "$rec" --seed 4
# The window's --replay refuses what docs/window.md lists, before it opens,
# naming the flag given (a world too small for the default count, or a
# limit under it, is the flag's fault, not the count's).
for flags in "--frames 5" "--entities 10" "--world 2000x1000" "--fixed-limit 60000" \
    "--world 200x100" "--fixed-limit 5000" "--load-state $tmp/any.state"; do
    "$bin" --replay "$rec" $flags >"$out" 2>"$err"
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q -- "--replay .*${flags%% *}" "$err" &&
        ok "window --replay with $flags: exit 2, one line" ||
        fail "window --replay with $flags" "exit $rc, stderr: $(head -c 300 "$err")"
done
"$bin" --replay "$rec" --record "$tmp/again.rec" >"$out" 2>"$err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q -- "--record .* with --replay" "$err" &&
    [ ! -e "$tmp/again.rec" ] && ok "--record with --replay: exit 2, one line" ||
    fail "--record with --replay" "exit $rc, stderr: $(head -c 300 "$err")"

# ---- stopped by a signal ------------------------------------------------------------
# SIGINT: the frames stepped are put in place, and replay. SIGKILL: the old
# file stays.
d=$tmp/int
echo old >"$tmp/int.rec"
start_in "$d" --entities 2000 --vsync off --size 320x200 --record "$tmp/int.rec"
shot_taken "$pid" "$d"
kill -INT "$pid"
wait "$pid"
rc=$?
if [ $rc -eq 130 ] && "$bin" bench --replay "$tmp/int.rec" >"$out" 2>"$err" &&
    grep -qE '^replay: [1-9][0-9]* frames, every hash matched$' "$out"; then
    ok "SIGINT: exit 130, the recording put in place and replayed: $(cat "$out")"
else
    fail "SIGINT" "exit $rc, replay: $(cat "$out" "$err" | head -c 300)"
fi
d=$tmp/kill
echo old >"$tmp/kill.rec"
start_in "$d" --entities 2000 --vsync off --size 320x200 --record "$tmp/kill.rec"
shot_taken "$pid" "$d"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
if printf 'old\n' | cmp -s - "$tmp/kill.rec" && [ -n "$wid" ]; then
    ok "SIGKILL: the old file kept"
else
    fail "SIGKILL" "window ${wid:-none}; the file starts '$(head -c 20 "$tmp/kill.rec")'"
fi

finish "recordings"
