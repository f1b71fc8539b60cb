#!/usr/bin/env bash
# Splits a `particles bench --csv` file by particle count into
# Box2D-style tables:
#   bench/scaling_csv.sh BENCH_CSV OUT_DIR
# writes OUT_DIR/scaling-COUNT.csv for each count in BENCH_CSV: the header
# threads,ms, then one row per thread count in the order the runs first
# came, ms = the median of total_ms over that count's runs at those
# threads (every inner parallelism and storage value the CSV holds; the
# scaling run holds one of each).
set -euo pipefail
csv=$1
out=$2
awk -F, -v out="$out" '
    # Sorts v[1..n] ascending (insertion sort: a handful of repeats).
    function sort(v, n,    i, j, x) {
        for (i = 2; i <= n; i++) {
            x = v[i]
            for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]
            v[j + 1] = x
        }
    }
    NR == 1 {
        for (i = 1; i <= NF; i++) col[$i] = i
        if (!("count" in col) || !("threads" in col) || !("total_ms" in col)) {
            print "scaling_csv.sh: " FILENAME " has no count, threads or total_ms column" > "/dev/stderr"
            failed = 1
            exit 2
        }
        next
    }
    {
        c = $col["count"]; t = $col["threads"]
        if (!(c in seen_count)) { seen_count[c] = 1; counts[++count_n] = c }
        if (!((c, t) in n)) { order[c, ++thread_n[c]] = t }
        ms[c, t, ++n[c, t]] = $col["total_ms"] + 0
    }
    END {
        if (failed) exit 2
        for (i = 1; i <= count_n; i++) {
            c = counts[i]
            file = out "/scaling-" c ".csv"
            print "threads,ms" > file
            for (k = 1; k <= thread_n[c]; k++) {
                t = order[c, k]
                m = n[c, t]
                delete v
                for (j = 1; j <= m; j++) v[j] = ms[c, t, j]
                sort(v, m)
                med = m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
                printf "%s,%.3f\n", t, med > file
            }
            close(file)
        }
    }' "$csv"
