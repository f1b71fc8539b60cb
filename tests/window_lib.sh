# window_lib.sh - what the window's end-to-end tests share; sourced.
#
# window_args "$@": checks the two arguments (the particles executable and
# png_probe), sets bin and probe, and needs a display; exits 2 (usage) or
# 1 (no DISPLAY) otherwise.
# window_find PID: prints the id of PID's visible window named
# "particles", polling (bounded, 15 s) until it appears or PID is gone.

window_args() {
    if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
        echo "usage: $0 PATH_TO_PARTICLES PATH_TO_PNG_PROBE" >&2
        exit 2
    fi
    bin=$1
    probe=$2
    if [ -z "${DISPLAY:-}" ]; then
        echo "FAIL no DISPLAY: run this under xvfb-run (tests/run.sh does)"
        exit 1
    fi
}

# --all: xdotool's search ORs its conditions by default, so without it any
# window named particles (another test's, on the shared display) matched.
window_find() {
    local wid=""
    for _ in $(seq 150); do
        wid=$(xdotool search --all --onlyvisible --pid "$1" --name '^particles$' 2>/dev/null | head -1)
        [ -n "$wid" ] && break
        kill -0 "$1" 2>/dev/null || break
        sleep 0.1
    done
    echo "$wid"
}
