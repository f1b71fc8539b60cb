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
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "run.sh: no display (DISPLAY and WAYLAND_DISPLAY are unset): running the quick headless benchmark instead; for the window use a desktop or: xvfb-run -a -s '-screen 0 1600x1000x24' bash run.sh"
    exec bash bench/run.sh
fi
exec build/release/src/app/particles "$@"
