#!/usr/bin/env bash
# test_diff.sh - --hashes, --hashes-systems and `particles diff`.
#
#   bash tests/test_diff.sh path/to/particles [window]
#
# Runs of one seed with other thread counts, inner parallelism, storage
# and layout are "identical" (exit 0); a file with one hash changed names
# that frame (exit 1), and with the systems' hashes the first system that
# differs there; runs of another seed, and files that are not whole or
# not hashes files, are refused with one line naming the file (exit 2).
# --hashes in the bench needs one run: more is one line naming the flag.
# A file that is a FIFO whose writer writes nothing is left at SIGTERM
# (exit 143, nothing printed).
# With "window" (on a display): the window's --hashes file of 15 frames,
# systems included, is identical to the bench's of the same run.
# Prints one line per case and exits 1 if any case failed.
set -u
. "$(dirname "$0")/fifo_util.sh"

if [ $# -lt 1 ] || [ $# -gt 2 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH_TO_PARTICLES [window]" >&2
    exit 2
fi
bin=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/particles-diff.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0
out=$tmp/stdout
err=$tmp/stderr

ok() { echo "ok   $1"; }
fail() {
    failed=$((failed + 1))
    echo "FAIL $1: $2"
}

# One run of 3000 particles for 25 frames: bench ARGS... --hashes FILE.
one_run() {
    local file=$1
    shift
    "$bin" bench --entities 3000 --repeat 1 --frames 25 --quiet --hashes "$file" "$@" \
        >"$out" 2>"$err"
}

# diff A B: the exit status want_rc, and the text expected (a grep
# pattern) on stdout, or for exit 2 as the one line on stderr, which names
# FILE; nothing on the other stream.
diff_case() {
    local name=$1 want_rc=$2 pattern=$3 a=$4 b=$5 file=${6:-}
    "$bin" diff "$a" "$b" >"$out" 2>"$err"
    local rc=$? said=$out quiet=$err
    [ "$want_rc" -eq 2 ] && said=$err quiet=$out
    if [ $rc -ne "$want_rc" ]; then
        fail "$name" "exit $rc, not $want_rc: $(cat "$out" "$err")"
    elif [ -n "$file" ] && { [ "$(wc -l <"$err")" -ne 1 ] || ! grep -q -- "^particles diff: $file: " "$err"; }; then
        fail "$name" "stderr is not one line naming $file: $(cat "$err")"
    elif ! grep -q -- "$pattern" "$said"; then
        fail "$name" "output lacks '$pattern': $(cat "$said")"
    elif [ -s "$quiet" ]; then
        fail "$name" "unexpected output: $(cat "$quiet")"
    else
        ok "$name"
    fi
}
expect_diff() { diff_case "$@"; }
# A refused pair: name, the file named, the pattern, A, B.
expect_refused() { diff_case "$1" 2 "$3" "$4" "$5" "$2"; }

if [ "${2:-}" = window ]; then
    "$bin" --entities 3000 --frames 15 --vsync off --threads 3 --hashes "$tmp/w.txt" \
        --hashes-systems >"$out" 2>"$err" || fail "window run" "$(cat "$err")"
    "$bin" bench --entities 3000 --repeat 1 --frames 15 --quiet --inner-parallelism off \
        --storage dynamic --layout thesis --threads 1 --hashes "$tmp/b.txt" --hashes-systems \
        >"$out" 2>"$err" || fail "bench run" "$(cat "$err")"
    if head -1 "$tmp/w.txt" | grep -q '^particles-hashes 1 mode=window seed=0 entities=3000 '; then
        ok "the window's file"
    else
        fail "the window's file" "$(head -1 "$tmp/w.txt")"
    fi
    expect_diff "window and bench: identical" 0 "^identical (15 frames, each system's writes too)$" \
        "$tmp/w.txt" "$tmp/b.txt"
    "$bin" --entities 3000 --frames 5 --hashes "$tmp/w.png" --screenshot "$tmp/w.png" \
        >"$out" 2>"$err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q -- '--hashes' "$err"; then
        ok "the window: --hashes and --screenshot one file"
    else
        fail "the window: --hashes and --screenshot one file" "exit $rc: $(cat "$err")"
    fi
    [ $failed -eq 0 ] || { echo "$failed case(s) failed"; exit 1; }
    exit 0
fi

a=$tmp/a.txt b=$tmp/b.txt sa=$tmp/sa.txt sb=$tmp/sb.txt seed=$tmp/seed.txt
one_run "$a" --threads 1 --inner-parallelism off --storage fixed --layout soa ||
    fail "run a" "$(cat "$err")"
one_run "$b" --threads 4 --inner-parallelism on --storage dynamic --layout thesis ||
    fail "run b" "$(cat "$err")"
one_run "$sa" --threads 1 --inner-parallelism on --storage fixed --layout thesis --hashes-systems ||
    fail "run sa" "$(cat "$err")"
one_run "$sb" --threads 3 --inner-parallelism off --storage dynamic --layout soa --hashes-systems ||
    fail "run sb" "$(cat "$err")"
one_run "$seed" --threads 1 --inner-parallelism on --storage fixed --layout soa --seed 99 ||
    fail "run seed" "$(cat "$err")"

# The format: a header, the columns, frames 0..25, the end line.
if head -1 "$a" | grep -q '^particles-hashes 1 mode=bench seed=0 entities=3000 world=1440x900 systems=all threads=1 ' &&
    [ "$(sed -n 2p "$a")" = "frame state" ] && [ "$(sed -n 3p "$a" | cut -d' ' -f1)" = 0 ] &&
    [ "$(tail -1 "$a")" = "end 25" ] && [ "$(wc -l <"$a")" -eq 29 ] &&
    [ "$(sed -n 2p "$sa" | wc -w)" -eq 11 ] && grep -q '^0 [0-9a-f]\{16\}\( -\)\{9\}$' "$sa"; then
    ok "the file's lines"
else
    fail "the file's lines" "$(head -3 "$a"; head -3 "$sa")"
fi

expect_diff "other threads, IP, storage, layout: identical" 0 '^identical (25 frames)$' "$a" "$b"
expect_diff "a file against itself" 0 '^identical (25 frames)$' "$a" "$a"
expect_diff "systems' hashes, other threads: identical" 0 \
    "^identical (25 frames, each system's writes too)$" "$sa" "$sb"
expect_diff "with and without the systems' hashes: the states compared" 0 '^identical (25 frames)$' \
    "$a" "$sb"

# A changed hash: that frame named (not an earlier one), exit 1.
awk '$1 == "12" { $2 = "0123456789abcdef" } { print }' "$b" >"$tmp/p.txt"
expect_diff "a changed state hash: its frame" 1 '^differ from frame 12: state ' "$a" "$tmp/p.txt"
if grep -q -- "--hashes-systems" "$out"; then ok "without the systems: says how to name one";
else fail "without the systems: says how to name one" "$(cat "$out")"; fi
# A changed collision hash at frame 7 (and the state after it): collision named.
awk '$1 == "7" { $2 = "00000000000000aa"; $7 = "00000000000000bb" } { print }' "$sb" >"$tmp/ps.txt"
expect_diff "a changed system hash: its frame" 1 '^differ from frame 7: ' "$sa" "$tmp/ps.txt"
if grep -q '^first system: collision ' "$out"; then ok "the first system named: collision";
else fail "the first system named: collision" "$(cat "$out")"; fi
# The state alone changed: no system to blame.
awk '$1 == "3" { $2 = "00000000000000aa" } { print }' "$sb" >"$tmp/pst.txt"
expect_diff "the state alone changed" 1 '^every system wrote the same at frame 3' "$sa" "$tmp/pst.txt"
# Frame 0: the spawned state.
awk '$1 == "0" { $2 = "00000000000000aa" } { print }' "$b" >"$tmp/p0.txt"
expect_diff "frame 0 changed" 1 '^differ from frame 0 (the spawned state' "$a" "$tmp/p0.txt"
# A run cut at frame 20 and ended: the length differs.
awk '$1 == "end" { print "end 20"; exit } $1 != "frame" && $1 + 0 > 20 && $1 != "particles-hashes" { next } { print }' \
    "$b" >"$tmp/short.txt"
expect_diff "a shorter run" 1 \
    "^differ in length: $tmp/a.txt holds frames 0 to 25, $tmp/short.txt frames 0 to 20 (frames 0 to 20 agree)$" \
    "$a" "$tmp/short.txt"
# A run resumed from a snapshot of frame 10 (other threads and layout): the
# frames both hold, 10 to 25, compared; the later start named.
"$bin" bench --entities 3000 --repeat 1 --frames 10 --quiet --inner-parallelism off --storage fixed \
    --layout soa --threads 1 --cpu-probe 0 --save-state "$tmp/s.state" >"$out" 2>"$err" ||
    fail "run to the snapshot" "$(cat "$err")"
"$bin" bench --load-state "$tmp/s.state" --repeat 1 --frames 15 --quiet --inner-parallelism on \
    --storage dynamic --layout thesis --threads 2 --cpu-probe 0 --hashes "$tmp/r.txt" >"$out" \
    2>"$err" || fail "resumed run" "$(cat "$err")"
expect_diff "a resumed run against the whole one" 0 \
    "^identical (15 frames): frames 10 to 25, where $tmp/r.txt starts$" "$a" "$tmp/r.txt"
awk '$1 == "17" { $2 = "00000000000000aa" } { print }' "$tmp/r.txt" >"$tmp/pr.txt"
expect_diff "a resumed run with a changed hash: its frame" 1 '^differ from frame 17: ' "$a" "$tmp/pr.txt"

# Refused, exit 2: another seed, files cut short or damaged.
expect_refused "another seed" "$seed" 'seed=99 where .* has seed=0' "$a" "$seed"
head -c -1 "$b" >"$tmp/nonl.txt"
expect_refused "no final end of line" "$tmp/nonl.txt" 'cut short (no end of line)' "$a" "$tmp/nonl.txt"
head -n 20 "$b" >"$tmp/cut.txt"
expect_refused "cut at a line's end" "$tmp/cut.txt" 'cut short: no end line after frame 17' "$a" "$tmp/cut.txt"
sed '10d' "$b" >"$tmp/gap.txt"
expect_refused "a frame missing" "$tmp/gap.txt" 'line 10: frame .8. where frame 7 comes next' "$a" "$tmp/gap.txt"
sed '5s/ [0-9a-f]*$/ 12345/' "$b" >"$tmp/short_hash.txt"
expect_refused "a short hash" "$tmp/short_hash.txt" 'line 5: state hash .12345. is not 16' "$a" "$tmp/short_hash.txt"
: >"$tmp/empty.txt"
expect_refused "an empty file" "$tmp/empty.txt" 'empty: not a hashes file' "$a" "$tmp/empty.txt"
printf 'frame,hash\n1,2\n' >"$tmp/csv.txt"
expect_refused "not a hashes file" "$tmp/csv.txt" 'line 1: not a hashes file' "$tmp/csv.txt" "$a"
sed '1s/^particles-hashes 1 /particles-hashes 2 /' "$b" >"$tmp/v2.txt"
expect_refused "another version" "$tmp/v2.txt" "format version '2'" "$a" "$tmp/v2.txt"
sed '1s/ seed=0//' "$b" >"$tmp/noseed.txt"
expect_refused "no seed" "$tmp/noseed.txt" 'no seed=' "$a" "$tmp/noseed.txt"
expect_refused "a missing file" "$tmp/none.txt" 'cannot be read' "$a" "$tmp/none.txt"

# The command line of diff and of --hashes: one line, exit 2.
cmd_refused() {
    local name=$1 pattern=$2
    shift 2
    "$bin" "$@" >"$out" 2>"$err"
    local rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q -- "$pattern" "$err" && [ ! -s "$out" ]; then
        ok "$name"
    else
        fail "$name" "exit $rc: $(cat "$out" "$err")"
    fi
}
cmd_refused "diff with one file" 'give two files' diff "$a"
cmd_refused "diff with an option" "unknown option '--frames'" diff --frames "$a" "$b"
cmd_refused "--hashes with the default lists" '^particles bench: --hashes .*: the hashes of one run: --entities has 3 values by default; give one$' \
    bench --hashes "$tmp/x.txt"
cmd_refused "--hashes with two storages" '--storage has 2 values; give one' \
    bench --entities 10 --inner-parallelism on --storage fixed,dynamic --hashes "$tmp/x.txt"
cmd_refused "--hashes with repeats" '--repeat is 3 by default; give --repeat 1' \
    bench --entities 10 --inner-parallelism on --storage fixed --layout soa --threads 1 --hashes "$tmp/x.txt"
cmd_refused "--hashes-systems alone" '--hashes-systems .*give --hashes FILE' \
    bench --entities 10 --inner-parallelism on --storage fixed --layout soa --repeat 1 --hashes-systems
if [ -e "$tmp/x.txt" ]; then fail "refused runs write nothing" "x.txt exists"; else ok "refused runs write nothing"; fi

"$bin" diff --help >"$out" 2>"$err"
if [ $? -eq 0 ] && grep -q '^usage: particles diff A B' "$out"; then ok "diff --help";
else fail "diff --help" "$(cat "$out" "$err")"; fi

# A FIFO as B whose writer writes nothing: SIGTERM ends the wait.
mkdir "$tmp/outs"
stopped_on_fifo "SIGTERM while B is a FIFO without data: exit 143, nothing printed" \
    "$tmp/b.fifo" "$tmp/outs" "$bin" diff "$a" "$tmp/b.fifo"

[ $failed -eq 0 ] || { echo "$failed case(s) failed"; exit 1; }
