#!/usr/bin/env bash
# The main job: installs what is missing (Debian packages; run as root or
# with sudo), builds the release preset and opens the window. Where there
# is no display it says so and runs the quick headless benchmark instead,
# with the simulation flags given (the window's own flags are left out,
# and named). Arguments go to `particles` (see `particles --help`), e.g.
#   bash run.sh --entities 200000 --threads 4
set -euo pipefail
cd "$(dirname "$0")"
bash .ci/install-deps
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" >/dev/null
particles=$PWD/build/release/src/app/particles # absolute: messages quote it to copy

# The window's flags, each taking a value: those the bench takes too, and
# the window's own. A flag may be shortened to a prefix naming only one.
shared="entities inner-parallelism storage threads seed fixed-limit kernel loops world frames repeat trace trace-frames"
window_only="screenshot vsync assets draw size zoom center color timeline timeline-report"

# The full name of flag NAME (without --), or nothing if none or several.
resolve() {
    local f hit=
    for f in $shared $window_only; do
        [ "$f" = "$1" ] && { echo "$f"; return; }
        case $f in "$1"*) [ -z "$hit" ] && hit=$f || hit=-;; esac
    done
    if [ "$hit" != - ]; then echo "$hit"; fi
}

# headless REASON ARGS...: the quick benchmark (50 000 particles, inner
# parallelism off and on, fixed and dynamic storage, 1 repeat) with the
# simulation flags of ARGS in place of those defaults.
headless() {
    local reason=$1 args=() dropped=() given=" " arg name value
    shift
    [ "${1:-}" != run ] || shift
    while [ $# -gt 0 ]; do
        arg=$1
        shift
        name=
        if [[ $arg == --?* ]]; then
            name=${arg#--}
            name=$(resolve "${name%%=*}")
        fi
        if [ -z "$name" ]; then # unknown here: the bench names it
            args+=("$arg")
            continue
        fi
        value=
        if [[ $arg != *=* ]] && [ $# -gt 0 ]; then value=$1; shift; fi
        if [[ " $window_only " == *" $name "* ]]; then
            dropped+=("$arg${value:+ $value}")
        else
            args+=("$arg" ${value:+"$value"})
            given+="$name "
        fi
    done
    [[ $given == *" entities "* ]] || args+=(--entities 50000)
    [[ $given == *" inner-parallelism "* ]] || args+=(--inner-parallelism off,on)
    [[ $given == *" storage "* ]] || args+=(--storage fixed,dynamic)
    [[ $given == *" repeat "* ]] || args+=(--repeat 1)
    echo "run.sh: $reason: running the headless benchmark instead: particles bench ${args[*]}${dropped:+ (left out, for the window only: ${dropped[*]})}"
    echo "run.sh: to see the window without a display, take a picture of it: xvfb-run -a -s '-screen 0 1600x1000x24' $particles --frames 300 --screenshot /tmp/particles.png"
    rm -f "${err:-}"
    exec "$particles" bench "${args[@]}"
}

case "${1:-}" in
bench | -h | --help | help | --version) exec "$particles" "$@" ;;
esac
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    headless "no display (DISPLAY and WAYLAND_DISPLAY are unset)" "$@"
fi
# A display is named but may not answer: the window says so on stderr
# (shown as it comes) and exits 1; then the benchmark runs instead.
err=$(mktemp)
trap 'rm -f "$err"' EXIT
rc=0
"$particles" "$@" 2> >(tee "$err" >&2) || rc=$?
wait
if [ "$rc" -eq 1 ] && grep -q "no display" "$err"; then
    headless "the display does not answer" "$@"
fi
exit "$rc"
