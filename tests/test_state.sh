#!/usr/bin/env bash
# test_state.sh - snapshots from the command line (--save-state,
# --load-state) in the bench:
#   - a run saved after 30 frames and resumed for 20 more, under other
#     threads, inner parallelism, storage and layout, ends on the final
#     hash of an unbroken 50-frame run; saving over the file it loaded
#     works;
#   - a truncated, damaged, foreign, empty, missing or directory file, a
#     snapshot with a flag whose value it holds, and --save-state with more
#     than one run: exit 2, one line on stderr naming the file or flag,
#     nothing on stdout, no file written.
#   - a --load-state that is a FIFO whose writer writes nothing (the
#     bench's, the window's): SIGTERM stops the wait, exit 143, no output
#     touched.
#   - the window's --center is checked against the snapshot's world, not
#     the default one: inside it the view starts there, outside it exit 2.
#
#   bash tests/test_state.sh path/to/particles
set -u
. "$(dirname "$0")/fifo_util.sh"

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH_TO_PARTICLES" >&2
    exit 2
fi
bin=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/particles-state.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0

ok() { echo "ok   $1"; }
fail() {
    failed=$((failed + 1))
    echo "FAIL $1: $2"
}

one=(--entities 20000 --repeat 1 --quiet --csv -)
# The final_hash column of a one-run CSV on stdin.
final_hash() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "final_hash") c = i }
             NR == 2 { print $c }'
}

want=$("$bin" bench "${one[@]}" --threads 1 --inner-parallelism on --storage fixed \
       --layout soa --frames 50 | final_hash)
"$bin" bench "${one[@]}" --threads 1 --inner-parallelism on --storage fixed --layout soa \
    --frames 30 --save-state "$tmp/s.state" >/dev/null
for conf in "2 off dynamic thesis" "3 on fixed thesis" "4 on dynamic soa"; do
    set -- $conf
    got=$("$bin" bench --repeat 1 --quiet --csv - --threads "$1" --inner-parallelism "$2" \
          --storage "$3" --layout "$4" --frames 20 --load-state "$tmp/s.state" | final_hash)
    if [ -n "$want" ] && [ "$got" = "$want" ]; then
        ok "resumed on $conf: final hash $got"
    else
        fail "resumed on $conf" "final hash '$got', an unbroken run '$want'"
    fi
done

# Resume 10 frames, saving over the loaded file, then 10 more: the same end.
cp "$tmp/s.state" "$tmp/r.state"
"$bin" bench --repeat 1 --quiet --csv - --threads 2 --inner-parallelism on --storage fixed \
    --layout soa --frames 10 --load-state "$tmp/r.state" --save-state "$tmp/r.state" >/dev/null
got=$("$bin" bench --repeat 1 --quiet --csv - --threads 1 --inner-parallelism off \
      --storage dynamic --layout soa --frames 10 --load-state "$tmp/r.state" | final_hash)
if [ "$got" = "$want" ]; then
    ok "saved over the loaded file and resumed again"
else
    fail "saved over the loaded file" "final hash '$got', an unbroken run '$want'"
fi

# The window writes the same bytes as the bench after the same frames, and
# resumes from a snapshot as the bench does (where it is built and a
# display is there).
if "$bin" --help 2>/dev/null | grep -qE '^  run ' && [ -n "${DISPLAY:-}" ]; then
    small=(--entities 5000 --inner-parallelism on --storage fixed --layout soa --threads 1)
    "$bin" bench "${small[@]}" --repeat 1 --quiet --csv /dev/null --frames 20 \
        --save-state "$tmp/b20.state"
    "$bin" "${small[@]}" --vsync off --frames 20 --save-state "$tmp/w20.state" >/dev/null 2>&1
    "$bin" bench --repeat 1 --quiet --csv /dev/null --threads 1 --inner-parallelism off \
        --storage dynamic --layout thesis --frames 10 \
        --load-state "$tmp/b20.state" --save-state "$tmp/b30.state"
    "$bin" --threads 2 --storage dynamic --layout thesis --vsync off --frames 10 \
        --load-state "$tmp/w20.state" --save-state "$tmp/w30.state" >/dev/null 2>&1
    if cmp -s "$tmp/b20.state" "$tmp/w20.state" && cmp -s "$tmp/b30.state" "$tmp/w30.state"; then
        ok "the window saves and resumes as the bench, byte for byte"
    else
        fail "the window's snapshots" "differ from the bench's: $(ls -l "$tmp"/[bw][23]0.state)"
    fi
    # --center within the snapshot's world (2000x1200), outside the
    # default one (1440x900): the view starts there.
    "$bin" bench "${small[@]}" --world 2000x1200 --repeat 1 --quiet --csv /dev/null --frames 1 \
        --save-state "$tmp/wide.state"
    "$bin" --vsync off --frames 1 --load-state "$tmp/wide.state" --center 1900,1100 \
        --screenshot "$tmp/wide.png" >/dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 0 ] && [ -s "$tmp/wide.png" ] && [ ! -s "$tmp/err" ]; then
        ok "--center checked against the snapshot's world: 1900,1100 in 2000x1200"
    else
        fail "--center in the snapshot's world" "exit $rc: $(head -c 300 "$tmp/err")"
    fi
    mkdir "$tmp/wouts" && echo old >"$tmp/wouts/shot.png"
    stopped_on_fifo "SIGTERM while the window's --load-state waits on a FIFO: exit 143, no output touched" \
        "$tmp/wsnap.fifo" "$tmp/wouts" "$bin" --vsync off --frames 2 \
        --load-state "$tmp/wsnap.fifo" --screenshot "$tmp/wouts/shot.png"
else
    echo "skip the window's snapshots: no window in this build, or no display"
fi

# Exit 2, one line on stderr naming $name, nothing on stdout.
refused() {
    local what=$1 name=$2
    shift 2
    "$bin" bench --repeat 1 --quiet --csv - --frames 2 "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$? lines
    lines=$(wc -l <"$tmp/err")
    if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$tmp/out" ] &&
        grep -qF -- "$name" "$tmp/err"; then
        ok "$what: $(cat "$tmp/err")"
    else
        fail "$what" "exit $rc, $lines lines on stderr, stdout $(wc -c <"$tmp/out") bytes: $(head -c 300 "$tmp/err")"
    fi
}

# --load-state from a FIFO whose writer writes nothing: SIGTERM ends the
# wait; the staged --csv and --save-state are discarded, the old CSV kept.
mkdir "$tmp/outs" && echo old >"$tmp/outs/out.csv"
stopped_on_fifo "SIGTERM while --load-state waits on a FIFO: exit 143, no output touched" \
    "$tmp/snap.fifo" "$tmp/outs" "$bin" bench --repeat 1 --quiet --frames 5 --threads 1 \
    --inner-parallelism on --storage fixed --layout soa --csv "$tmp/outs/out.csv" \
    --save-state "$tmp/outs/next.state" --load-state "$tmp/snap.fifo"

# The window's --center is checked against the snapshot's world (400x300),
# not the default one (1440x900), before any window opens.
if "$bin" --help 2>/dev/null | grep -qE '^  run '; then
    "$bin" bench --entities 2000 --world 400x300 --threads 1 --inner-parallelism on \
        --storage fixed --layout soa --repeat 1 --quiet --csv /dev/null --frames 1 \
        --save-state "$tmp/small.state"
    "$bin" --frames 1 --load-state "$tmp/small.state" --center 1000,100 >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = \
        "particles: --center: 1000,100 is outside the world (0..400, 0..300)" ]; then
        ok "--center outside the snapshot's world refused: $(cat "$tmp/err")"
    else
        fail "--center outside the snapshot's world" "exit $rc: $(head -c 300 "$tmp/err")"
    fi
fi

size=$(wc -c <"$tmp/s.state")
head -c $((size - 1)) "$tmp/s.state" >"$tmp/cut.state"
refused "truncated" "cut.state: truncated" --load-state "$tmp/cut.state"
cp "$tmp/s.state" "$tmp/flip.state"
printf '\x55' | dd of="$tmp/flip.state" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
refused "damaged" "flip.state: damaged" --load-state "$tmp/flip.state"
echo 'x,y' >"$tmp/foreign.state"
refused "foreign" "foreign.state: not a particles snapshot" --load-state "$tmp/foreign.state"
: >"$tmp/empty.state"
refused "empty" "empty.state: truncated" --load-state "$tmp/empty.state"
refused "missing" "missing.state" --load-state "$tmp/missing.state"
refused "a directory" "--load-state $tmp" --load-state "$tmp"
refused "--seed with a snapshot" "--seed" --load-state "$tmp/s.state" --seed 4
refused "--save-state over two counts" "--save-state" --entities 100,200 --storage fixed \
    --inner-parallelism on --layout soa --threads 1 --save-state "$tmp/two.state"
refused "--save-state over both storages" "--storage" --entities 100 --inner-parallelism on \
    --layout soa --threads 1 --save-state "$tmp/two.state"
if [ -e "$tmp/two.state" ]; then fail "refused --save-state" "wrote two.state"; fi

[ "$failed" -eq 0 ] || { echo "$failed case(s) failed"; exit 1; }
echo "all passed"
