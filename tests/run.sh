#!/usr/bin/env bash
# The whole test suite: installs what is missing, then builds and runs every
# test in the debug preset (assertions on), under AddressSanitizer+UBSan,
# under ThreadSanitizer, with clang (optimised, warnings as errors), the ECS
# unit tests once more with the portable wait (ECS_WAIT_FALLBACK: mutexes and
# condition variables instead of the futex), the fast ones under valgrind's
# memcheck, and a cross build for Linux aarch64 under qemu-aarch64 whose
# state hashes must equal x86-64's.
# Exits non-zero on the first failure. Usage: tests/run.sh [preset...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-deps
jobs=$(nproc)
presets=("$@")
((${#presets[@]})) || presets=(debug asan tsan clang fallback aarch64)
ran=0
for preset in "${presets[@]}"; do
    echo "=== preset: $preset"
    [ "$preset" != aarch64 ] || bash .ci/install-aarch64
    cmake --preset "$preset" >/dev/null
    cmake --build --preset "$preset" -j "$jobs"
    # The render and window tests need a display: a virtual one (Xvfb with
    # Mesa's software OpenGL) for the whole ctest run. -noreset: by default
    # Xvfb resets whenever its last client leaves, and a test connecting
    # during that reset fails to reach it (with tests running in parallel,
    # one may connect just as another leaves).
    xvfb-run -a -s "-screen 0 1600x1000x24 -noreset" ctest --preset "$preset" -j "$jobs"
    ran=$((ran + $(ctest --preset "$preset" -N | sed -n 's/^Total Tests: //p')))
done
if [[ " ${presets[*]} " == *" debug "* ]]; then
    # valgrind runs threads one at a time: the heavy threaded tests are left
    # to the sanitizer runs, the rest are re-checked for memory errors.
    for t in test_sparse_set test_sorted_set test_entities test_validation test_systems \
             test_deferred test_split test_balance test_refresh_callbacks test_lifecycle test_bulk test_misuse \
             test_adapters test_storage test_query test_claim test_bench_probe; do
        echo "=== valgrind memcheck: $t"
        valgrind -q --error-exitcode=1 --leak-check=full \
            --errors-for-leak-kinds=definite,indirect "build/debug/tests/$t"
        ran=$((ran + 1))
    done
    echo "=== valgrind memcheck: particles bench (a tiny run, two workers)"
    valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        build/debug/src/app/particles bench --entities 3000 --frames 20 --repeat 1 \
        --threads 2 --quiet
    ran=$((ran + 1))
fi
if [[ " ${presets[*]} " == *" aarch64 "* ]]; then
    # The same runs on x86-64 (the debug build: assertions on, unoptimised)
    # and aarch64 (optimised, under qemu-aarch64) give the same hashes.
    echo "=== state hashes: x86-64 against aarch64"
    cmake --preset debug >/dev/null
    cmake --build --preset debug --target particles -j "$jobs"
    bash tests/cross_hashes.sh build/debug/src/app/particles build/aarch64/tests/emulated/particles
    ran=$((ran + 1))
fi
echo "presets ${presets[*]}: every test run passed"
echo "tests: $ran passed, 0 failed"
