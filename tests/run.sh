#!/usr/bin/env bash
# The whole test suite: installs what is missing, then builds and runs every
# test in the debug preset (assertions on) and under AddressSanitizer+UBSan,
# all but the three contract tests (tests/CMakeLists.txt's label) under
# ThreadSanitizer and with clang (optimised, warnings as errors), the ECS
# unit tests once more with the portable wait (ECS_WAIT_FALLBACK: mutexes and
# condition variables instead of the futex), the fast ones under valgrind's
# memcheck, a cross build for Linux aarch64 with its tests under
# qemu-aarch64, `particles` alone built for s390x (big-endian) and i686
# (32-bit x86) under qemu and statically on musl, and for Windows with
# mingw-w64, with the ECS's and the simulation's tests, under wine: the
# state hashes of each of these five must equal x86-64's.
# Exits non-zero on the first failure. Usage: tests/run.sh [preset...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-deps
jobs=$(nproc)
presets=("$@")
((${#presets[@]})) || presets=(debug asan tsan clang fallback aarch64 s390x i686 musl windows)
# The builds on another processor, C library or system, whose hashes are
# compared with x86-64's below; s390x, i686 and musl build `particles`
# alone, no tests.
others=(aarch64 s390x i686 musl windows)
export WINEDEBUG=-all # wine's own messages (a missing 32-bit wine) off
ran=0
for preset in "${presets[@]}"; do
    echo "=== preset: $preset ($((SECONDS / 60)) min $((SECONDS % 60)) s in)"
    case $preset in
    aarch64 | s390x | i686) bash .ci/install-cross "$preset" ;;
    musl) bash .ci/install-musl ;;
    windows) bash .ci/install-mingw ;;
    esac
    cmake --preset "$preset" >/dev/null
    cmake --build --preset "$preset" -j "$jobs"
    case $preset in s390x | i686 | musl) continue ;; esac
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
# The same runs on x86-64 (the debug build: assertions on, unoptimised)
# and on each other build (optimised; under qemu, or wine for Windows, but
# for musl) give the same hashes: aarch64 at 1, 2 and 4 threads; the others
# at 2 threads (qemu-s390x runs several times slower than the others;
# thread counts never change the state: every native preset and aarch64
# check it).
built_debug=0
for other in "${others[@]}"; do
    [[ " ${presets[*]} " == *" $other "* ]] || continue
    if ((!built_debug)); then
        cmake --preset debug >/dev/null
        cmake --build --preset debug --target particles -j "$jobs"
        built_debug=1
    fi
    echo "=== state hashes: x86-64 against $other ($((SECONDS / 60)) min $((SECONDS % 60)) s in)"
    bin=build/$other/src/app/emulated/particles threads=2
    [ "$other" != musl ] || bin=build/musl/src/app/particles
    [ "$other" != aarch64 ] || threads=1,2,4
    bash tests/cross_hashes.sh build/debug/src/app/particles "$bin" "$threads"
    ran=$((ran + 1))
done
echo "presets ${presets[*]}: every test run passed"
echo "tests: $ran passed, 0 failed"
