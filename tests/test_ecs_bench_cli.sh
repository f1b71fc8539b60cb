#!/usr/bin/env bash
# test_ecs_bench_cli.sh - ecs_bench's options and its --csv file.
#
#   bash tests/test_ecs_bench_cli.sh path/to/ecs_bench
#
# A flag given twice is refused, a mistyped one names the nearest, counts
# take the forms the particles program takes (2k, 1_0); --csv checks its file before measuring,
# writes it whole at the end, and a signal during the run leaves the old
# file as it was and no temporary. Synchronisation is on files, with
# bounded loops. Prints one line per case; exits 1 if any failed.
set -u

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH_TO_ECS_BENCH" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ecs-bench-cli.XXXXXX") || exit 2
pid=
cleanup() {
    [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 2

failed=0
cases=0
check() { # NAME REASON...: ok when every reason is empty
    local name=$1 why=""
    shift
    for r in "$@"; do [ -n "$r" ] && why="$why${why:+; }$r"; done
    cases=$((cases + 1))
    if [ -z "$why" ]; then echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name: $why"; fi
}

"$bin" --entities 10 --entities 20 --repeat 1 >o 2>e
rc=$?
check "a flag given twice: exit 2 naming it" \
    "$([ $rc -eq 2 ] && grep -q -- '--entities is given twice' e || echo "exit $rc: $(head -c 200 e)")" \
    "$([ "$(wc -l <e)" -eq 1 ] || echo 'not one line')"

"$bin" --entites 2000 --repeat 1 >o 2>e
rc=$?
check "a mistyped flag: exit 2 naming the nearest" \
    "$([ $rc -eq 2 ] && grep -q -- "unknown option '--entites': did you mean --entities?" e || echo "exit $rc: $(head -c 200 e)")" \
    "$([ "$(wc -l <e)" -eq 1 ] || echo 'not one line')" "$([ -s o ] && echo 'it measured anyway')"

"$bin" --entities 2k --repeat 1_0 --threads 1 --seed 7 >o 2>e
rc=$?
check "counts as people type them: 2k entities, 1_0 repeats" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -c 200 e)")" \
    "$(grep -q 'N=2000 entities, threads=1, repeats=10' o || echo "header: $(head -n 1 o)")"

for bad in 1.5k5 50,000 1.2345k -1; do
    "$bin" --entities "$bad" --repeat 1 >o 2>e
    rc=$?
    check "--entities $bad: refused in one line naming the flag" \
        "$([ $rc -eq 2 ] && grep -q -- "--entities: '$bad'" e || echo "exit $rc: $(head -c 200 e)")" \
        "$([ "$(wc -l <e)" -eq 1 ] || echo 'not one line')"
done

"$bin" --repeat 1 --csv missing/x.csv >o 2>e
rc=$?
check "--csv in a missing directory: exit 2 before measuring" \
    "$([ $rc -eq 2 ] && grep -q -- '--csv missing/x.csv' e || echo "exit $rc: $(head -c 200 e)")" \
    "$([ -s o ] && echo 'it measured anyway')"

echo old >e.csv
"$bin" --entities 2000 --repeat 2 --csv e.csv >o 2>e
rc=$?
check "--csv: the file replaced whole, one row per measurement and repetition" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -c 200 e)")" \
    "$(head -1 e.csv | grep -q '^measurement,repeat,ms' || echo "header: $(head -c 60 e.csv)")" \
    "$([ "$(grep -c ',1,' e.csv)" -ge 2 ] || echo 'fewer rows than measurements')" \
    "$(grep -q '^"context create, 2000-system chain",1,' e.csv || echo 'no start-up row')" \
    "$([ "$(ls -A | tr '\n' ' ')" = "e e.csv o " ] || echo "files now: $(ls -A | tr '\n' ' ')")"

echo old >e.csv
"$bin" --entities 1000000 --repeat 1000 --csv e.csv >o 2>e &
pid=$!
for _ in $(seq 1 400); do # the temporary exists once --csv was checked
    [ "$(ls -A | grep -c '^\.e\.csv\.')" -ge 1 ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.05
done
staged=$(ls -A | grep -c '^\.e\.csv\.')
kill -INT $pid
wait $pid
rc=$?
pid=
check "SIGINT during the run: exit 130, the old file kept, no temporary" \
    "$([ "$staged" -ge 1 ] || echo 'the temporary never appeared')" \
    "$([ $rc -eq 130 ] || echo "exit $rc")" \
    "$([ "$(cat e.csv)" = old ] || echo "e.csv now: $(head -c 60 e.csv)")" \
    "$([ "$(ls -A | tr '\n' ' ')" = "e e.csv o " ] || echo "files now: $(ls -A | tr '\n' ' ')")"

echo "$((cases - failed)) of $cases cases passed"
[ "$failed" -eq 0 ]
