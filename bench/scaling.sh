#!/usr/bin/env bash
# Strong scaling of the particle simulation over thread counts, from the
# repository root after a release build:
#   bench/scaling.sh PARTICLES OUT_DIR
# runs `particles bench` with IP on and fixed storage at the thread counts
# 1, 2, 4, ... up to the online CPUs, plus their number (interleaved, every
# repeat of every count), and writes to OUT_DIR:
#   scaling.txt          the bench's full text output (tables, scaling tables)
#   scaling.csv          its CSV, one row per run
#   scaling.json         its JSON
#   scaling.png          speedup against threads, with the ideal line
#   scaling-COUNT.csv    per particle count, header threads,ms and one row per
#                        thread count: ms = the median over the repeats of the
#                        total ms per run (create with spawning + every frame)
# The environment may change the defaults (for a quick look or a test):
#   SCALING_ENTITIES   counts, comma-separated (default 50000,200000)
#   SCALING_THREADS    thread counts (default: as above)
#   SCALING_FRAMES     frames per run, 0 = until every particle died (default 0)
#   SCALING_REPEAT     repeats (default 3)
set -euo pipefail
particles=$1
out=$2
mkdir -p "$out"

# 1, 2, 4, ... up to n, and n itself (at most 256, the bench's limit).
thread_counts() {
    local n=$1 t=1 list=""
    [ "$n" -le 256 ] || n=256
    while [ "$t" -lt "$n" ]; do
        list+="$t,"
        t=$((t * 2))
    done
    echo "${list}$n"
}

threads=${SCALING_THREADS:-$(thread_counts "$(nproc)")}
entities=${SCALING_ENTITIES:-50000,200000}
"$particles" bench --entities "$entities" --threads "$threads" --inner-parallelism on \
    --storage fixed --layout soa --frames "${SCALING_FRAMES:-0}" --repeat "${SCALING_REPEAT:-3}" \
    --csv "$out/scaling.csv" --json "$out/scaling.json" --chart "$out/scaling.png" |
    tee "$out/scaling.txt"

# scaling-COUNT.csv from the bench's CSV: its columns found by name.
bash "$(dirname "$0")/scaling_csv.sh" "$out/scaling.csv" "$out"
