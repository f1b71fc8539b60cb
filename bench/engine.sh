#!/usr/bin/env bash
# The engine's figures beyond the thesis matrix, from the repository root
# after a release build:
#   bench/engine.sh PARTICLES OUT_DIR
# writes OUT_DIR/engine.txt and OUT_DIR/engine-*.csv:
#   - 1 thread, 200 000 particles, inner parallelism on, fixed storage, 5 repeats;
#   - constant density: 50 000 to 1 000 000 particles on 2 threads, each in
#     a world scaled to the density of 200 000 in the thesis's 1440x900,
#     3 rounds over all counts; cost per particle-frame (total ms / (particles x frames),
#     medians) and peak memory.
set -euo pipefail
particles=$1
out=$2
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Median of the column named $2 of CSV $1 over the rows whose count is $3.
median() {
    awk -F, -v name="$2" -v n="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) col = i; next }
        $1 == n { print $col }' "$1" | sort -g |
        awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

{
    echo "# engine.sh: $(date -u +%Y-%m-%d), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs"
    echo
    echo "## 1 thread, 200 000 particles, IP on, fixed storage, 5 repeats"
    # Not --quiet: the header's CPU speeds (printed after the runs, like
    # the tables, so the timings are the same) are kept with the figure.
    "$particles" bench --entities 200000 --inner-parallelism on --storage fixed --layout soa --threads 1 \
        --repeat 5 --csv "$tmp/t1.csv" > "$tmp/t1.txt"
    sed -n '/^cpu speed/,/^$/p' "$tmp/t1.txt" || true
    cp "$tmp/t1.csv" "$out/engine-1thread.csv"
    m=$(median "$tmp/t1.csv" total_ms 200000)
    awk -v m="$m" 'BEGIN { printf "median total %.1f ms\n", m }'
    echo
    echo "## constant density (the density of 200 000 in 1440x900), 2 threads, IP on, fixed, 3 rounds (medians)"
    printf '%9s  %-10s  %12s  %12s  %10s  %12s\n' particles world "median ms" "ns/particle-frame" "vs 50 000" "peak MiB"
    specs="50000:720x450 100000:1018x636 200000:1440x900 500000:2277x1423 1000000:3220x2012"
    # Round by round, every count once per round: the machine's drift over
    # minutes then spreads over all counts instead of the last ones.
    : > "$tmp/all.csv"
    for round in 1 2 3; do
        for spec in $specs; do
            n=${spec%%:*}
            "$particles" bench --entities "$n" --world "${spec#*:}" --fixed-limit "$n" \
                --inner-parallelism on --storage fixed --layout soa --threads 2 --repeat 1 --quiet \
                --csv "$tmp/d.csv"
            if [ -s "$tmp/all.csv" ]; then tail -n +2 "$tmp/d.csv" >> "$tmp/all.csv"
            else cp "$tmp/d.csv" "$tmp/all.csv"; fi
        done
    done
    cp "$tmp/all.csv" "$out/engine-density.csv"
    base=""
    for spec in $specs; do
        n=${spec%%:*}
        world=${spec#*:}
        ms=$(median "$tmp/all.csv" total_ms "$n")
        frames=$(median "$tmp/all.csv" frames "$n")
        rss=$(awk -F, -v n="$n" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "peak_rss_mib") c = i; next }
                  $1 == n && $c > m { m = $c } END { print m }' "$tmp/all.csv")
        ns=$(awk -v ms="$ms" -v n="$n" -v f="$frames" 'BEGIN { printf "%.2f", ms * 1e6 / (n * f) }')
        [ -n "$base" ] || base=$ns
        awk -v n="$n" -v w="$world" -v ms="$ms" -v ns="$ns" -v b="$base" -v rss="$rss" \
            'BEGIN { printf "%9d  %-10s  %12.1f  %12.2f  %9.2fx  %12.1f\n", n, w, ms, ns, ns / b, rss }'
    done
    echo "(vs 50 000: the cost per particle-frame against that of 50 000; 1.00x where the time grows with the particles alone)"
} | tee "$out/engine.txt"
