#!/usr/bin/env bash
# The main job for now: installs what is missing, builds the release preset
# and runs the ECS micro-benchmark. Extra arguments go to ecs_bench
# (try --help), e.g. bench/run.sh --entities 200000 --threads 2.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-deps
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
exec build/release/bench/ecs_bench "$@"
