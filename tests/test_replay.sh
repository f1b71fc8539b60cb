#!/usr/bin/env bash
# test_replay.sh - `particles bench --replay` without a window: a recording
# written here (a header, sprays, a wave, a system off), each frame's hash
# taken from the replay's own line naming the first frame that differs,
# until every hash matched on 1 thread; the same file then replays on 4
# threads, inner parallelism off, the other layout and dynamic storage;
# a recording of no frame replays; a recording that is a FIFO whose writer
# writes nothing is left at SIGTERM (exit 143). Prints one line per case.
#
#   bash tests/test_replay.sh path/to/particles
set -u
. "$(dirname "$0")/fifo_util.sh"
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH_TO_PARTICLES" >&2
    exit 2
fi
bin=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/particles-replay.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0
ok() { echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1: $2"; }

header='particles-recording 1
world 400 300
radius 0.5 2.5
speed 3
acceleration 0 1
life 5 25
dt 0.0399999991
alpha-per-life 10
seed 7
particles 1500
storage fixed 4000
threads 1
inner-parallelism on
layout soa
kernel scalar
loops scalar'
# The inputs before each frame, a line per frame ("|" between inputs).
inputs=('spray 100 100 200' '' 'system collision off|spray 395.5 2.25 50' 'wave' ''
    'system collision on|workers 2|inner-parallelism off' '')
hashes=()

# write FILE: the header, the inputs, the frames with the hashes known
# (0000000000000000 past them) and the end line with its cksum.
write() {
    local i
    {
        echo "$header"
        for i in "${!inputs[@]}"; do
            [ -n "${inputs[$i]}" ] && echo "${inputs[$i]}" | tr '|' '\n'
            echo "frame $((i + 1)) ${hashes[$i]:-0000000000000000}"
        done
    } >"$1.body"
    { cat "$1.body"; echo "end ${#inputs[@]} $(cksum <"$1.body" | cut -d' ' -f1)"; } >"$1"
}

# Each replay names the first frame whose hash is not yet known.
for i in "${!inputs[@]}"; do
    write "$tmp/r.rec"
    line=$("$bin" bench --replay "$tmp/r.rec" --threads 1 2>&1)
    want="^particles bench: replay: frame $((i + 1)): state hash ([0-9a-f]{16}), recorded 0{16}$"
    if ! [[ $line =~ $want ]]; then
        fail "frame $((i + 1)) named" "said: $line"
        break
    fi
    hashes[$i]=${BASH_REMATCH[1]}
done
write "$tmp/r.rec"
line=$("$bin" bench --replay "$tmp/r.rec" --threads 1 2>&1)
[ "$line" = "replay: ${#inputs[@]} frames, every hash matched" ] &&
    ok "each frame named in turn, then: $line" || fail "replay on 1 thread" "said: $line"
distinct=$(printf '%s\n' "${hashes[@]}" | sort -u | wc -l)
[ "$distinct" -eq "${#inputs[@]}" ] && ok "$distinct distinct hashes" ||
    fail "distinct hashes" "$distinct of ${#inputs[@]}: ${hashes[*]}"

for args in "--threads 4" "--threads 3 --inner-parallelism off" \
    "--threads 2 --layout thesis --storage dynamic"; do
    # shellcheck disable=SC2086
    line=$("$bin" bench --replay "$tmp/r.rec" $args 2>&1)
    [ "$line" = "replay: ${#inputs[@]} frames, every hash matched" ] && ok "$args: $line" ||
        fail "$args" "said: $line"
done

# An input the recording did not have (a spray after frame 4's wave):
# frame 4 is named.
sed 's/^wave$/wave\nspray 50 50 10/' "$tmp/r.rec" | head -n -1 >"$tmp/s.body"
{ cat "$tmp/s.body"; echo "end ${#inputs[@]} $(cksum <"$tmp/s.body" | cut -d' ' -f1)"; } >"$tmp/s.rec"
line=$("$bin" bench --replay "$tmp/s.rec" 2>&1)
rc=$?
[ $rc -eq 1 ] && [[ $line =~ ^particles\ bench:\ replay:\ frame\ 4:\ state\ hash ]] &&
    ok "an input more: exit 1, $line" || fail "an input more" "exit $rc, said: $line"

# No frame: nothing to check, and it says so.
inputs=()
write "$tmp/none.rec"
line=$("$bin" bench --replay "$tmp/none.rec" 2>&1)
[ "$line" = "replay: 0 frames, every hash matched" ] && ok "no frame: $line" ||
    fail "no frame" "said: $line"

# A recording that is a FIFO whose writer writes nothing: SIGTERM ends the wait.
mkdir "$tmp/outs"
stopped_on_fifo "SIGTERM while --replay waits on a FIFO: exit 143, nothing printed" \
    "$tmp/r.fifo" "$tmp/outs" "$bin" bench --replay "$tmp/r.fifo" --threads 1

echo "$failed failed"
[ $failed -eq 0 ]
