#!/usr/bin/env bash
# The window's frame rate and its split, measured with the summary line of
# `particles --frames N --rate max` (a step per drawn frame): 50 000 and
# 200 000 particles x point sprites and instanced quads, vsync off, REPEAT
# runs each (default 3), medians per column. Runs under xvfb-run (Mesa's
# software GL) when there is no display.
#   bench/window.sh BINARY [REPEAT] > window.txt
set -euo pipefail
bin=$1
repeat=${2:-3}
run=("$bin")
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    run=(xvfb-run -a -s "-screen 0 1600x1000x24 -noreset" "$bin")
fi
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

echo "# particles window, thesis workload, 1440x900, vsync off, 2 threads; $(date -u +%Y-%m-%d)"
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) CPUs"
echo "# medians of $repeat runs; ms per frame; render = prepare (batches + HUD) + upload + draw (incl. swap)"
printf '%-9s %-7s %7s %8s %8s %8s %8s %8s\n' particles draw frames fps step prepare upload draw
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
for n in 50000 200000; do
    frames=$((n >= 200000 ? 100 : 150))
    for draw in points quads; do
        : >"$raw"
        for ((r = 0; r < repeat; r++)); do
            "${run[@]}" --entities "$n" --frames "$frames" --vsync off --draw "$draw" --threads 2 \
                --rate max | sed -nE '1s/[^0-9.]+/ /gp' >>"$raw"
        done
        # fields: frames fps step render prepare upload draw
        col() { awk -v c="$1" '{print $c}' "$raw" | median; }
        printf '%-9s %-7s %7s %8s %8s %8s %8s %8s\n' "$n" "$draw" "$frames" "$(col 2)" "$(col 3)" \
            "$(col 5)" "$(col 6)" "$(col 7)"
    done
done
