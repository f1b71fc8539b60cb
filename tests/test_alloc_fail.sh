#!/usr/bin/env bash
# test_alloc_fail.sh - `particles bench` with each of its allocations made
# to fail in turn (a build with tests/fault_alloc.c's wrappers).
#
#   bash tests/test_alloc_fail.sh path/to/particles_fault
#
# For every k from 1 to the number of allocations of a small run with CSV,
# JSON and a trace: exit 1 or 2 (never a crash: under the asan preset a
# leak or a memory error ends the process otherwise), one line on stderr
# that says memory ran out, the old CSV, JSON and trace untouched and no
# temporary left;
# or, where the code does without that allocation or retries it (the
# ecs's ordering hint and refresh scratch), exit 0 with both files written
# and the same hashes as the run without failures.
# Also: --print-dag allocates no entity storage (its largest allocation);
# --compare of two JSON files with allocations failing in turn (about 100
# of them, spread over all; most are the JSON reader's) says that memory
# ran out (not that the JSON is not valid).
set -u

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH_TO_PARTICLES_FAULT" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/particles-alloc.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2

failed=0
run=(bench --entities 100 --frames 3 --repeat 1 --threads 1 --inner-parallelism on
    --storage dynamic --layout soa --quiet --csv out.csv --json out.json --trace out.trace --trace-frames 2:3
    --cpu-probe 1)

PARTICLES_ALLOC_REPORT=$tmp/report "$bin" "${run[@]}" 2>err
rc=$?
read -r n largest live <report
if [ $rc -ne 0 ] || [ "${n:-0}" -lt 10 ]; then
    echo "FAIL the run without failures: exit $rc, ${n:-?} allocations: $(head -c 300 err)"
    exit 1
fi
echo "ok   the run without failures: $n allocations (largest $largest bytes)"
hashes() { # the columns hash_frame100 .. final_hash, found by name
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "hash_frame100") c = i; next }
        { print $c $(c + 1) $(c + 2) $(c + 3) }' "$1"
}
clean=$(hashes out.csv)

bad_k=0
absorbed=0
for k in $(seq 1 "$n"); do
    echo oldcsv >out.csv && echo oldjson >out.json && echo oldtrace >out.trace
    PARTICLES_FAIL_ALLOC=$k "$bin" "${run[@]}" >out 2>err
    rc=$?
    why=
    if [ $rc -eq 0 ]; then
        absorbed=$((absorbed + 1))
        if [ -s err ] || [ "$(head -c 6 out.csv)" != count, ] || [ "$(head -c 1 out.json)" != "{" ] ||
            [ "$(head -c 1 out.trace)" != "{" ]; then
            why="exit 0 but the files are not written: $(head -c 100 err)"
        elif [ "$(hashes out.csv)" != "$clean" ]; then
            why="exit 0 but the hashes differ from the run without failures"
        fi
    elif [ $rc -ne 1 ] && [ $rc -ne 2 ]; then
        why="exit $rc"
    elif [ "$(wc -l <err)" -ne 1 ] || ! grep -qiE 'out of memory|NOMEM|cannot allocate|could not start' err; then
        why="stderr is not one line saying memory ran out"
    elif [ "$(cat out.csv)" != oldcsv ] || [ "$(cat out.json)" != oldjson ] ||
        [ "$(cat out.trace)" != oldtrace ]; then
        why="an old file was replaced"
    elif [ "$(ls -A | tr '\n' ' ')" != "err out out.csv out.json out.trace report " ]; then
        why="files now: $(ls -A | tr '\n' ' ')"
    elif [ -s out ]; then
        why="stdout: $(head -c 100 out)"
    fi
    if [ -n "$why" ]; then
        bad_k=$((bad_k + 1))
        failed=1
        [ $bad_k -le 10 ] && echo "FAIL allocation $k of $n: $why: $(head -c 300 err | tr '\n' ' ')"
    fi
done
[ $bad_k -eq 0 ] && echo "ok   each of the $n allocations failing in turn: a clear error, nothing replaced or left ($absorbed absorbed)"

[ $bad_k -gt 10 ] && echo "FAIL ... and $((bad_k - 10)) more allocations"

"$bin" "${run[@]}" 2>err && cp out.json base.json
cmp=(bench --baseline base.json --compare base.json)
PARTICLES_ALLOC_REPORT=$tmp/report "$bin" "${cmp[@]}" >out 2>err
rc=$?
read -r n largest live <report
bad_k=0
for k in $(seq 1 $((${n:-0} / 100 + 1)) "${n:-0}"); do
    PARTICLES_FAIL_ALLOC=$k "$bin" "${cmp[@]}" >out 2>err
    rc=$?
    # Exit 0: an allocation the comparison does without (its ties).
    if [ $rc -ne 0 ] && { [ $rc -gt 2 ] || [ "$(wc -l <err)" -ne 1 ] || ! grep -q 'out of memory' err; }; then
        bad_k=$((bad_k + 1))
        [ $bad_k -le 5 ] && echo "FAIL --compare, allocation $k of $n: exit $rc: $(head -c 200 err)"
    fi
done
if [ "${n:-0}" -gt 10 ] && [ $bad_k -eq 0 ]; then
    echo "ok   --compare with 1 in $((n / 100 + 1)) of its $n allocations failing in turn: out of memory said"
else
    echo "FAIL --compare: ${n:-?} allocations, $bad_k without a clear out of memory"
    failed=1
fi

PARTICLES_ALLOC_REPORT=$tmp/report "$bin" bench --print-dag >out 2>err
rc=$?
read -r n largest live <report
if [ $rc -eq 0 ] && grep -q '^digraph' out && [ "$largest" -lt 1048576 ]; then
    echo "ok   --print-dag: largest allocation $largest bytes (no entity storage)"
else
    echo "FAIL --print-dag: exit $rc, largest allocation $largest bytes"
    failed=1
fi
exit $failed
