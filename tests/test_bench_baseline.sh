#!/usr/bin/env bash
# test_bench_baseline.sh - `particles bench --baseline FILE.json`:
#   - a run's JSON compared with itself (--compare) says "no significant
#     change" for every configuration;
#   - the same runs with every total 100 times longer (a copy of the JSON)
#     say "slower", and the other way round "faster": every run of one side
#     beats every run of the other, p = 2/252 = 0.008 (0.012 by the normal
#     approximation when two runs of one side tie at the JSON's microsecond
#     precision);
#   - a live run of 200 frames against a baseline of 1 frame names the
#     frames in a note and gives one comparison line per configuration (its
#     verdicts are not asserted: on a shared machine a single stalled
#     1-frame run can make the two sides overlap; the verdicts themselves
#     are checked above on fixed numbers);
#   - 1 run against 1 says it is too few to tell;
#   - a file that cannot be read, is not JSON, is JSON but not the bench's,
#     is a --weak run's, or shares no configuration with the run is refused
#     before any run: exit 2, one line naming the file; so is an output
#     (--csv, --json, --trace) naming the baseline's file, which is kept;
#   - a stop signal while a FIFO given as --baseline or --compare keeps the
#     reader waiting stops the program as any run stops: 128 + N, silent.
#
#   bash tests/test_bench_baseline.sh path/to/particles
set -u
. "$(dirname "$0")/fifo_util.sh"
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH_TO_PARTICLES" >&2
    exit 2
fi
bin=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/particles-baseline.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0

check() { # NAME CONDITION-RESULT(0/1) DETAIL
    if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1: $3"; failed=1; fi
}

run=(bench --entities 2000 --inner-parallelism on,off --storage fixed --layout soa --threads 2 --repeat 5
     --cpu-probe 0)
"$bin" "${run[@]}" --frames 1 --quiet --json "$tmp/base.json" 2>"$tmp/err"
check "baseline run" $? "$(cat "$tmp/err")"

# The same JSON on both sides: every configuration unchanged.
"$bin" bench --baseline "$tmp/base.json" --compare "$tmp/base.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
n=$(grep -c 'no significant change (p = 1.000, 5 vs 5 runs)$' "$tmp/out")
check "a run against its own JSON: no significant change" \
    $(( rc != 0 || n != 2 || $(grep -cE 'faster|slower' "$tmp/out") != 0 || $(wc -l <"$tmp/err") != 0 )) \
    "exit $rc, $n lines: $(cat "$tmp/out" "$tmp/err")"

# The same runs, every total 100 times longer: slower; and the reverse.
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    r["total_ms"] *= 100
json.dump(d, open(sys.argv[2], "w"))' "$tmp/base.json" "$tmp/slow.json"
verdicts() { # WORD FILE: configuration lines with WORD at p = 0.008 or 0.012
    grep -cE "^ +2000  IP (on |off)  fixed    soa     median .* $1 \(p = 0\.0(08|12), 5 vs 5 runs\)\$" "$2"
}
"$bin" bench --baseline "$tmp/base.json" --compare "$tmp/slow.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "every total 100 times longer: slower" $(( rc != 0 || $(verdicts slower "$tmp/out") != 2 )) \
    "exit $rc: $(cat "$tmp/out" "$tmp/err")"
"$bin" bench --baseline "$tmp/slow.json" --compare "$tmp/base.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "every total 100 times shorter: faster" $(( rc != 0 || $(verdicts faster "$tmp/out") != 2 )) \
    "exit $rc: $(cat "$tmp/out" "$tmp/err")"

# A live run of 200 frames against the 1-frame baseline.
"$bin" "${run[@]}" --frames 200 --baseline "$tmp/base.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
note=$(grep -c '^note: the baseline ran with frames 1, this run with frames 200' "$tmp/out")
lines=$(grep -cE '^ +2000  IP (on |off)  fixed    soa     median .*(faster|slower|no significant change) \(p = [0-9.]+, 5 vs 5 runs\) *$' "$tmp/out")
check "200 frames against 1: a note on the frames, one line per configuration" \
    $(( rc != 0 || lines != 2 || note != 1 )) \
    "exit $rc: $(grep -A4 '^against' "$tmp/out") $(cat "$tmp/err")"

# One run against one: too few to ever tell.
"$bin" bench --entities 2000 --inner-parallelism on --storage fixed --layout soa --threads 2 --repeat 1 \
    --frames 10 --cpu-probe 0 --json "$tmp/one.json" --quiet 2>"$tmp/err"
"$bin" bench --baseline "$tmp/one.json" --compare "$tmp/one.json" >"$tmp/out" 2>&1
grep -q 'too few runs to tell a change from noise (1 vs 1: no result could reach p < 0.05; against 1 baseline run at least 40 are needed: --repeat 40)$' "$tmp/out"
check "1 run against 1: too few" $? "$(cat "$tmp/out")"

# Refused before any run: one line on stderr naming the file, exit 2.
refused() { # NAME NEEDLE FILE [ENTITIES [ARGS...]]
    local name=$1 needle=$2 file=$3 entities=${4:-2000}
    shift 3
    shift $(($# > 0))
    "$bin" bench --entities "$entities" --inner-parallelism on,off --storage fixed --layout soa --threads 2 \
        --repeat 5 --frames 10 --baseline "$file" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$? line
    line=$(cat "$tmp/err")
    check "refused: $name" $(( rc != 2 || $(wc -l <"$tmp/err") != 1 || $(wc -c <"$tmp/out") != 0 )) \
        "exit $rc, stderr '$line', stdout $(wc -c <"$tmp/out") bytes"
    [[ $line == *"--baseline $file: $needle"* ]] || { echo "FAIL refused: $name: '$line'"; failed=1; }
}
printf '{"runs": [' >"$tmp/cut.json"
echo '{"machine": {}, "runs": []}' >"$tmp/other.json"
mkdir "$tmp/dir.json"
refused "a missing file" "cannot be read: No such file" "$tmp/missing.json"
refused "a directory" "cannot be read" "$tmp/dir.json"
refused "a cut JSON" "not a JSON written by particles bench --json: not valid JSON (line 1)" \
    "$tmp/cut.json"
printf '{\n  "runs":\n  [1,,2]}\n' >"$tmp/bad3.json"
refused "a JSON broken on its third line" \
    "not a JSON written by particles bench --json: not valid JSON (line 3)" "$tmp/bad3.json"
printf '{"runs": []} {}' >"$tmp/two.json"
refused "two JSON values" "not a JSON written by particles bench --json: not valid JSON" \
    "$tmp/two.json"
refused "another JSON" "not a JSON written by particles bench --json: it has no" "$tmp/other.json"
refused "a CSV" "not a JSON written by particles bench --json" "$tmp/err"
refused "no configuration in common" "none of its configurations" "$tmp/base.json" 3000
# Numbers no run writes: an infinite or zero total ms would print "-nan" or
# a change of +0.0 %; a negative world side is no side a world has.
sed -E 's/"total_ms": [0-9.]+/"total_ms": 1e999/' "$tmp/base.json" >"$tmp/inf.json"
notours="not a JSON written by particles bench --json"
tiny_ms="$notours: a run lacks count, inner_parallelism, storage, threads or total_ms (a number \
of ms from 0.001 to 1e12)"
refused "an infinite total_ms" "$tiny_ms" "$tmp/inf.json"
sed -E 's/"total_ms": [0-9.]+/"total_ms": 0/' "$tmp/base.json" >"$tmp/zero.json"
refused "a total_ms of 0" "$tiny_ms" "$tmp/zero.json"
# Below the JSON's thousandths: the change in percent would run to hundreds
# of digits or +inf.
sed -E 's/"total_ms": [0-9.]+/"total_ms": 1e-300/' "$tmp/base.json" >"$tmp/tiny.json"
refused "a total_ms of 1e-300" "$tiny_ms" "$tmp/tiny.json"
# Control characters in a name read from the file are printed escaped.
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["options"]["kernel"] = "\x1b[31mred"
json.dump(d, open(sys.argv[2], "w"))' "$tmp/base.json" "$tmp/escape.json"
"$bin" bench --baseline "$tmp/escape.json" --compare "$tmp/base.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a kernel name with an escape code is printed escaped" \
    $(( rc != 0 || $(grep -c $'\x1b' "$tmp/out") != 0 || $(grep -cF 'kernel \x1b[31mred' "$tmp/out") != 1 )) \
    "exit $rc: $(head -c 300 "$tmp/out" | od -c | head -5)"
sed -E 's/"world": \[[0-9]+,/"world": [-1,/' "$tmp/base.json" >"$tmp/world.json"
refused "a negative world side" "$notours: its \"options\" lack threads, frames, seed, kernel or world" \
    "$tmp/world.json"
refused "with --json - (no tables)" "the comparison is printed with the tables" \
    "$tmp/base.json" 2000 --json -
sed -E 's/"weak": false/"weak": true/' "$tmp/base.json" >"$tmp/weak.json"
refused "a --weak run's JSON" "a --weak run (its particles and world grow with the threads), \
which --baseline and --compare do not take" "$tmp/weak.json"

# An output naming the baseline's file: refused before any run, the
# baseline untouched.
cp "$tmp/base.json" "$tmp/keep.json"
for out in --csv --json --trace; do
    "$bin" bench --entities 2000 --inner-parallelism on,off --storage fixed --layout soa --threads 2 --repeat 5 \
        --frames 10 --baseline "$tmp/keep.json" "$out" "$tmp/keep.json" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "refused: $out naming the baseline's file" \
        $(( rc != 2 || $(wc -l <"$tmp/err") != 1 )) "exit $rc: $(cat "$tmp/err")"
    grep -q -- "^particles bench: $out $tmp/keep.json and --baseline $tmp/keep.json name the same file$" \
        "$tmp/err" && cmp -s "$tmp/keep.json" "$tmp/base.json" ||
        { echo "FAIL refused: $out naming the baseline's file: '$(cat "$tmp/err")'"; failed=1; }
done

# A FIFO whose writer (this shell, read-write so that no open waits) writes
# nothing: the program waits on it until SIGTERM, then exits 143 silently.
# The signal is sent once the program holds the FIFO open (its fd list).
mkfifo "$tmp/fifo"
exec 3<>"$tmp/fifo"
for args in "bench --baseline $tmp/fifo --compare $tmp/base.json" \
            "bench --baseline $tmp/base.json --compare $tmp/fifo" \
            "${run[*]} --frames 1 --baseline $tmp/fifo"; do
    # shellcheck disable=SC2086 # the words of one case
    "$bin" $args >"$tmp/out" 2>"$tmp/err" 3<&- &
    term_when_open $! "-> $tmp/fifo"
    check "SIGTERM while waiting on a FIFO ($args): exit 143, nothing printed" \
        $(( rc != 143 || $(wc -c <"$tmp/err") != 0 )) "exit $rc: $(head -c 200 "$tmp/err")"
done
exec 3>&-

exit $failed
