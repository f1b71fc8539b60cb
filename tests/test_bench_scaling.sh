#!/usr/bin/env bash
# test_bench_scaling.sh - `particles bench` over several thread counts:
#   - --threads 1,2: the CSV has one row per thread count for every
#     (count, IP, storage); each scaling table's totals are the CSV's,
#     its speedup is T(1)/T(n) and its efficiency speedup/threads (within
#     the rounding of the printed figures: totals to 0.1 ms, so a ratio of
#     two small totals moves by up to 0.05 ms over each), the achieved parallelism at
#     most the threads, the available at least 1, the busy share a
#     percentage; the per-system table starts at 1.00x;
#   - the JSON lists the thread counts and gives each run its threads; it
#     compared with itself (--compare) gives one line per configuration,
#     with its threads;
#   - --weak: the second thread count runs twice the particles in a world
#     sqrt(2) times as wide and high; the table says weak scaling and its
#     efficiency is T(1)/T(2);
#   - bench/scaling_csv.sh turns the bench's CSV into scaling-COUNT.csv:
#     header threads,ms, one row per thread count, ms the median total;
#     bench/scaling.sh, run tiny, writes those files, the chart and the text.
# No timing is asserted: which thread count is faster depends on the machine.
#
#   bash tests/test_bench_scaling.sh path/to/particles
set -u
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH_TO_PARTICLES" >&2
    exit 2
fi
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/particles-scaling.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0

check() { # NAME CONDITION-RESULT(0/1) DETAIL
    if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1: $3"; failed=1; fi
}
# NAME WHY: passes when WHY, the list of what is wrong, is empty.
check_none() { check "$1" "$([ -z "$2" ] && echo 0 || echo 1)" "$2"; }

"$bin" bench --threads 1,2 --entities 3000 --frames 20 --repeat 1 --cpu-probe 0 --layout soa \
    --csv "$tmp/s.csv" --json "$tmp/s.json" >"$tmp/out" 2>"$tmp/err"
check "bench --threads 1,2 runs" $? "$(cat "$tmp/err")"

# Rows per (count, IP, storage, threads): one each, 4 configurations x 2.
why=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { k = $col["count"] "," $col["inner_parallelism"] "," $col["storage"]
      rows[k "," $col["threads"]]++; groups[k] = 1 }
    END {
        for (g in groups) { n++; for (t = 1; t <= 2; t++) if (rows[g "," t] != 1)
            print g " at " t " threads: " rows[g "," t] + 0 " rows" }
        if (n != 4) print n + 0 " configurations, not 4"
    }' "$tmp/s.csv")
check_none "the CSV: one row per thread count of each configuration" "$why"

# The scaling tables against the CSV and against their own arithmetic.
why=$(awk -v csv="$tmp/s.csv" '
    BEGIN {
        FS = ","
        while ((getline line < csv) > 0) {
            split(line, f, ",")
            if (!hdr) { for (i = 1; i in f; i++) col[f[i]] = i; hdr = 1; continue }
            total[f[col["count"]] " " f[col["inner_parallelism"]] " " f[col["storage"]] " " \
                  f[col["threads"]]] = f[col["total_ms"]]
        }
        FS = " "
    }
    function near(a, b, tol) { return a - b <= tol && b - a <= tol }
    /^Scaling: / { key = $2 " " $5 " " $6; sub(/,$/, "", key); gsub(/,/, "", key)
                   tables++; rows = 0; t1 = 0; in_points = 1; next }
    in_points && $1 == "threads" { next }
    in_points && $1 ~ /^[0-9]+$/ && NF == 9 {
        threads = $1; ms = $3; speedup = $4; sub(/x$/, "", speedup); eff = $5
        avail = $6; ach = $7; busy = $8
        rows++
        if (threads == 1) t1 = ms
        want = total[key " " threads]
        if (want == "" || !near(ms, want, 0.051)) print key " " threads ": total " ms " vs CSV " want
        if (t1 == 0) print key ": no 1-thread row first"
        else if (!near(speedup, t1 / ms, 0.006 + t1 / ms * (0.051 / t1 + 0.051 / ms)))
            print key " " threads ": speedup " speedup " vs " t1 "/" ms
        if (!near(eff, speedup / threads, 0.006)) print key " " threads ": efficiency " eff " vs speedup/threads"
        if (ach + 0 > threads + 0) print key " " threads ": achieved " ach " > threads"
        if (ach + 0 <= 0) print key " " threads ": achieved " ach " not above 0"
        if (avail + 0 < 1) print key " " threads ": available " avail " < 1"
        if (busy + 0 < 0 || busy + 0 > 100) print key " " threads ": busy " busy " %"
        next
    }
    in_points && /^per system/ { in_points = 0; if (rows != 2) print key ": " rows " rows, not 2"
                                 systems = 1; next }
    systems && $1 == "system" { next }
    systems && NF == 5 && $3 ~ /x$/ { if ($3 != "1.00x") print key " " $1 ": base speedup " $3
                                      sys_rows++; next }
    systems { systems = 0 }
    END { if (tables != 4) print tables + 0 " scaling tables, not 4"
          if (sys_rows != 4 * 9) print sys_rows + 0 " per-system rows, not 36" }' "$tmp/out")
check_none "scaling tables: totals from the CSV, speedup T1/Tn, efficiency speedup/threads, parallelism in range" \
    "$why"

grep -q '^Table 1. Inner parallelism (IP) at 2 threads' "$tmp/out" &&
    grep -q 'achieved off .* on .* | busy off .* on ' "$tmp/out"
check "Table 1 per thread count, with achieved parallelism and busy share" $? \
    "$(grep -A12 '^Table 1' "$tmp/out" | head -30)"

# The JSON: thread counts in the options, per run, and --compare by threads.
grep -q '"threads": \[1, 2\], "weak": false' "$tmp/s.json" &&
    [ "$(grep -c '"threads": 2, "particles": 3000' "$tmp/s.json")" -eq 8 ]
check "the JSON: threads [1, 2] in the options, 2 in four runs and four summaries" $? \
    "$(head -c 600 "$tmp/s.json")"
"$bin" bench --baseline "$tmp/s.json" --compare "$tmp/s.json" >"$tmp/cmp" 2>"$tmp/err"
rc=$?
lines=$(grep -cE '^ +3000  IP (on|off) +(fixed|dynamic) +soa +[12] threads  median' "$tmp/cmp")
check "--compare of a two-thread-count JSON: one line per configuration and thread count" \
    $(( rc != 0 || lines != 8 )) "exit $rc, $lines lines: $(cat "$tmp/cmp" "$tmp/err")"

# --weak: particles and world grow with the threads.
"$bin" bench --weak --threads 1,2 --entities 2000 --frames 10 --repeat 1 --cpu-probe 0 --layout soa \
    --inner-parallelism on --storage fixed --csv "$tmp/w.csv" >"$tmp/wout" 2>"$tmp/err"
check "bench --weak runs" $? "$(cat "$tmp/err")"
got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { printf "%s %s %sx%s;", $col["threads"], $col["particles"], $col["world_w"], $col["world_h"] }' \
    "$tmp/w.csv")
[ "$got" = "1 2000 1440x900;2 4000 2036x1273;" ]
check "--weak: 2000 particles in 1440x900 at 1 thread, 4000 in 2036x1273 at 2" $? "got '$got'"
why=$(awk '/^Weak scaling: 2000 particles per base thread count/ { on = 1; next }
    on && $1 ~ /^[0-9]+$/ && NF == 9 { if ($1 == 1) t1 = $3
        else { tol = 0.006 + t1 / $3 * (0.051 / t1 + 0.051 / $3)
               if (($5 - t1 / $3) > tol || (t1 / $3 - $5) > tol) print "efficiency " $5 " vs " t1 "/" $3 }
        n++ }
    END { if (n != 2) print n + 0 " rows" }' "$tmp/wout")
check_none "--weak: the table says weak scaling, efficiency T1/Tn" "$why"

# scaling_csv.sh on a CSV of known totals: medians per count and threads.
{
    echo "count,inner_parallelism,storage,threads,repeat,total_ms"
    echo "100,on,fixed,1,1,30.0"; echo "100,on,fixed,2,1,20.0"; echo "200,on,fixed,1,1,90.0"
    echo "100,on,fixed,1,2,10.0"; echo "100,on,fixed,2,2,18.0"; echo "200,on,fixed,1,2,70.0"
    echo "100,on,fixed,1,3,20.0"; echo "100,on,fixed,2,3,40.0"; echo "200,on,fixed,1,3,80.0"
} >"$tmp/known.csv"
mkdir "$tmp/known"
bash "$here/../bench/scaling_csv.sh" "$tmp/known.csv" "$tmp/known" 2>"$tmp/err"
got=$(tr '\n' ';' <"$tmp/known/scaling-100.csv" 2>/dev/null)
got2=$(tr '\n' ';' <"$tmp/known/scaling-200.csv" 2>/dev/null)
[ "$got" = "threads,ms;1,20.000;2,20.000;" ] && [ "$got2" = "threads,ms;1,80.000;" ]
check "scaling_csv.sh: threads,ms with the median total per thread count" $? \
    "got '$got' and '$got2' $(cat "$tmp/err")"

# bench/scaling.sh at a tiny size: its files, one row per thread count.
SCALING_ENTITIES=1500 SCALING_THREADS=1,2 SCALING_FRAMES=5 SCALING_REPEAT=1 \
    bash "$here/../bench/scaling.sh" "$bin" "$tmp/sc" >/dev/null 2>"$tmp/err"
rc=$?
rows=$(tail -n +2 "$tmp/sc/scaling-1500.csv" 2>/dev/null | cut -d, -f1 | tr '\n' ' ')
check "bench/scaling.sh: scaling-1500.csv (threads 1 and 2), text and JSON" \
    $(( rc != 0 || ${#rows} == 0 )) "exit $rc, rows '$rows': $(cat "$tmp/err")"
[ "$rows" = "1 2 " ] && [ "$(head -n 1 "$tmp/sc/scaling-1500.csv")" = "threads,ms" ] &&
    grep -q '^Scaling: 1500 particles' "$tmp/sc/scaling.txt" && [ -s "$tmp/sc/scaling.json" ]
check "bench/scaling.sh: header threads,ms and rows 1, 2; the scaling table in scaling.txt" $? \
    "rows '$rows'"
if command -v gnuplot >/dev/null 2>&1; then
    [ -s "$tmp/sc/scaling.png" ]
    check "bench/scaling.sh: the chart scaling.png" $? "no chart"
fi

exit $failed
