#!/usr/bin/env bash
# cross_hashes.sh - two builds of `particles` (in CI x86-64's and one for
# another processor under qemu, or on musl) give the same state hashes for
# the same runs.
#
#   bash tests/cross_hashes.sh REFERENCE OTHER [THREADS]
#
# Each is a path that runs `particles` (OTHER may be a script that runs it
# under an emulator). For a few seeds and worlds, both run the same bench
# at THREADS (a --threads list, 1,2,4 unless given), inner parallelism on and off, fixed and dynamic
# storage, soa and thesis layout; every run's frame count and hashes (after frame 100, at the
# frame when half the particles died, after the last frame) must be the
# same in both. Prints one line per case with its hashes; exits 1 on a difference or a
# failed run, 2 on bad usage.
set -u
threads=${3:-1,2,4}
if [ $# -lt 2 ] || [ $# -gt 3 ] || [ ! -x "$1" ] || [ ! -x "$2" ] || [[ ! $threads =~ ^[0-9]+(,[0-9]+)*$ ]]; then
    echo "usage: $0 REFERENCE_PARTICLES OTHER_PARTICLES [THREADS, e.g. 1,2,4]" >&2
    exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/particles-cross.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# Seed, particles, world: a sparse run in the default world, dense ones in
# small worlds (many contacts, particles pushed against the walls).
cases=("1 3000 1440x900" "987654 3000 240x160" "42 1500 120x90")
runs_per_case=$((8 * ($(tr -cd , <<<"$threads" | wc -c) + 1))) # 2 IP x 2 storage x 2 layouts x threads
common=(--threads "$threads" --inner-parallelism both --storage both --repeat 1 --frames 110
        --cpu-probe 0 --quiet --csv -)

# The columns that must agree: the configuration, frames and hashes (not
# the timings), in the CSV's own order, named by its header.
hashes() {
    awk -F, 'NR == 1 {
                 for (i = 1; i <= NF; i++)
                     if ($i ~ /^(count|inner_parallelism|storage|layout|threads|seed|frames|hash_frame[0-9]+|half_dead_frame|hash_half_dead|final_hash|world_w|world_h)$/)
                         keep[++n] = i
             }
             { line = $keep[1]; for (j = 2; j <= n; j++) line = line "," $keep[j]; print line }' "$1"
}

failed=0
firsts=()
for c in "${cases[@]}"; do
    read -r seed count world <<<"$c"
    args=(bench --seed "$seed" --entities "$count" --world "$world" "${common[@]}")
    for side in ref other; do
        bin=$1; [ $side = ref ] || bin=$2
        if ! "$bin" "${args[@]}" >"$tmp/$side.csv" 2>"$tmp/$side.err"; then
            echo "FAIL $side run (seed $seed, $count particles, world $world): $(head -c 300 "$tmp/$side.err")"
            failed=1
            continue 2
        fi
        hashes "$tmp/$side.csv" >"$tmp/$side.keys"
    done
    rows=$(($(wc -l <"$tmp/ref.keys") - 1))
    alive=$(awk -F, 'NR > 1 && length($8) == 16 && $8 ~ /^[0-9a-f]+$/' "$tmp/ref.keys" | wc -l)
    if [ "$rows" -ne $runs_per_case ] || [ "$alive" -ne $runs_per_case ]; then
        echo "FAIL seed $seed, world $world: $rows runs, $alive with a hash at frame 100, want $runs_per_case"
        failed=1
    elif ! diff -u "$tmp/ref.keys" "$tmp/other.keys" >"$tmp/diff"; then
        echo "FAIL seed $seed, $count particles, world $world: the hashes differ (- $1, + $2):"
        cat "$tmp/diff"
        failed=1
    else
        echo "ok   seed $seed, $count particles, world $world: $rows runs agree on" \
             "$(awk -F, 'NR > 1 {print "frame 100 " $8 ", frame " $7 " " $11}' "$tmp/ref.keys" | sort -u | paste -sd';')"
    fi
    firsts+=("$(awk -F, 'NR == 2 {print $8}' "$tmp/ref.keys")")
done
# Different seeds and worlds give different states: a hash that ignored the
# particles would make every comparison above agree.
if [ "$(printf '%s\n' "${firsts[@]}" | sort -u | wc -l)" -ne ${#cases[@]} ]; then
    echo "FAIL the cases share a hash at frame 100: ${firsts[*]}"
    failed=1
fi
exit $failed
