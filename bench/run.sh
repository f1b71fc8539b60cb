#!/usr/bin/env bash
# Builds the release preset (installing what is missing), then runs a
# benchmark. Usage:
#   bench/run.sh [ARGS...]        quick: particles bench on 50 000 particles,
#                                 inner parallelism on/off, fixed/dynamic, 1 repeat
#                                 (a few seconds); ARGS replace those defaults
#   bench/run.sh full [MACHINE]   the thesis matrix (50k/100k/200k x IP on/off x
#                                 fixed/dynamic, 5 repeats, 2 threads) written to
#                                 bench/results/MACHINE/ (default: dev-2core-epyc)
#   bench/run.sh ecs [ARGS...]    the ECS micro-benchmark (ecs_bench --help)
#   bench/run.sh engine [MACHINE] 1-thread 200 000 and constant-density scaling
#                                 to 1 000 000 particles, written to
#                                 bench/results/MACHINE/engine.txt (bench/engine.sh)
#   bench/run.sh window [MACHINE] the window's fps and its split at 50 000 and
#                                 200 000 particles, points and quads (under
#                                 xvfb-run without a display), written to
#                                 bench/results/MACHINE/window.txt
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-deps
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" >/dev/null
particles=build/release/src/app/particles
case "${1:-}" in
ecs)
    shift
    exec build/release/bench/ecs_bench "$@"
    ;;
engine)
    bash bench/engine.sh "$particles" "bench/results/${2:-dev-2core-epyc}"
    ;;
window)
    out="bench/results/${2:-dev-2core-epyc}"
    mkdir -p "$out"
    bash bench/window.sh "$particles" 5 | tee "$out/window.txt"
    ;;
full)
    out="bench/results/${2:-dev-2core-epyc}"
    mkdir -p "$out"
    "$particles" bench --entities 50000,100000,200000 --inner-parallelism off,on \
        --storage fixed,dynamic --threads 2 --repeat 5 --seed 0 \
        --csv "$out/particles.csv" --json "$out/particles.json" \
        --chart "$out/particles.png" | tee "$out/particles.txt"
    ;;
"")
    exec "$particles" bench --entities 50000 --inner-parallelism off,on \
        --storage fixed,dynamic --repeat 1
    ;;
*)
    exec "$particles" bench "$@"
    ;;
esac
