#!/usr/bin/env bash
# The main job: installs what is missing (Debian packages; run as root or
# with sudo), builds the release preset and opens the window. Where there
# is no display it says so in one line and runs the quick headless
# benchmark instead. Arguments go to `particles` (see `particles --help`),
# e.g. bash run.sh --entities 200000 --threads 4
set -euo pipefail
cd "$(dirname "$0")"
bash .ci/install-deps
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" >/dev/null
bench() {
    echo "run.sh: $1: running the quick headless benchmark instead; for the window use a desktop or: xvfb-run -a -s '-screen 0 1600x1000x24' bash run.sh"
    rm -f "${err:-}"
    exec bash bench/run.sh
}
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    bench "no display (DISPLAY and WAYLAND_DISPLAY are unset)"
fi
# A display is named but may not answer: the window says so on stderr
# (shown as it comes) and exits 1; then the benchmark runs instead.
err=$(mktemp)
trap 'rm -f "$err"' EXIT
rc=0
build/release/src/app/particles "$@" 2> >(tee "$err" >&2) || rc=$?
wait
if [ "$rc" -eq 1 ] && grep -q "no display" "$err"; then
    bench "the display does not answer"
fi
exit "$rc"
