#!/usr/bin/env bash
# Builds the release preset (installing what is missing), then runs a
# benchmark. Usage:
#   bench/run.sh [ARGS...]     quick: particles bench on 50 000 particles,
#                              inner parallelism on/off, fixed/dynamic, soa/thesis
#                              layout, 1 repeat
#                              (a few seconds); ARGS replace those defaults
#   bench/run.sh full [DIR]    the thesis matrix (50k/100k/200k x IP on/off x
#                              fixed/dynamic x soa/thesis, 5 repeats, 2 threads) written to
#                              DIR/particles.{txt,csv,json,png}
#   bench/run.sh ecs [ARGS...] the ECS micro-benchmark (ecs_bench --help)
#   bench/run.sh engine [DIR]  1-thread 200 000 and constant-density scaling
#                              to 1 000 000 particles, written to
#                              DIR/engine.txt and DIR/engine-*.csv (bench/engine.sh)
#   bench/run.sh scaling [DIR] strong scaling over 1, 2, 4, ... threads up to
#                              the online CPUs (and their number), 50 000 and
#                              200 000 particles, IP on, fixed storage, soa, 3
#                              repeats, written to DIR/scaling.{txt,csv,json,png}
#                              and DIR/scaling-COUNT.csv (threads,ms; ms = the
#                              median total ms per run) (bench/scaling.sh)
#   bench/run.sh window [DIR]  the window's fps and its split at 50 000 and
#                              200 000 particles, points and quads (under
#                              xvfb-run without a display), written to
#                              DIR/window.txt
# DIR defaults to bench/results/<this host's name>. A directory holding
# files under version control (the committed results of a machine) is
# refused: name a new one, and copy the results over by hand if meant.
set -euo pipefail
cd "$(dirname "$0")/.."

# The results directory: $1, or this host's; refused if git tracks files in it.
results_dir() {
    local dir=${1:-bench/results/$(hostname -s 2>/dev/null || hostname)}
    if command -v git >/dev/null 2>&1 && [ -n "$(git ls-files -- "$dir" 2>/dev/null | head -n 1)" ]; then
        echo "bench/run.sh: $dir holds committed results (git ls-files lists them): name another directory, e.g. bash bench/run.sh ${mode:-full} /tmp/my-results" >&2
        exit 2
    fi
    mkdir -p "$dir"
    echo "$dir"
}

mode=${1:-}
case "$mode" in
full | engine | scaling | window) out=$(results_dir "${2:-}") ;;
esac
bash .ci/install-deps
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" >/dev/null
particles=build/release/src/app/particles
case "$mode" in
ecs)
    shift
    exec build/release/bench/ecs_bench "$@"
    ;;
engine)
    bash bench/engine.sh "$particles" "$out"
    ;;
scaling)
    bash bench/scaling.sh "$particles" "$out"
    ;;
window)
    bash bench/window.sh "$particles" 5 | tee "$out/window.txt"
    ;;
full)
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
