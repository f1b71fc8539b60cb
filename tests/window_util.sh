# window_util.sh - what the window's end-to-end tests share (sourced).

# window_args "$@": checks the two arguments (the particles executable and
# png_probe), sets bin (absolute: runs change directory) and probe, and
# needs a display; exits 2 (usage) or 1 (no DISPLAY) otherwise.
window_args() {
    if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
        echo "usage: $0 PATH_TO_PARTICLES PATH_TO_PNG_PROBE" >&2
        exit 2
    fi
    bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
    probe=$2
    if [ -z "${DISPLAY:-}" ]; then
        echo "FAIL no DISPLAY: run this under xvfb-run (tests/run.sh does)"
        exit 1
    fi
}

# window_tmp NAME: a scratch directory for the test in tmp, with out and
# err for a run's standard output and error; at exit a window still
# running (pid) is ended and the directory removed, unless KEEP=1 keeps
# it (and the screenshots in it) for a look.
window_tmp() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/particles-$1.XXXXXX") || exit 2
    out=$tmp/stdout
    err=$tmp/stderr
    pid=""
    trap window_tmp_end EXIT
}
window_tmp_end() {
    [ -z "${pid:-}" ] || kill "$pid" 2>/dev/null
    [ -n "${KEEP:-}" ] || rm -rf "$tmp"
}

# need_xdotool SUITE: fails the suite and exits where xdotool (the keys
# and the mouse) is missing.
need_xdotool() {
    command -v xdotool >/dev/null && return 0
    fail "$1" "xdotool is not installed (.ci/install-deps installs it)"
    finish "$1"
    exit
}

# Cases: ok NAME, fail NAME WHY, one line each; finish SUITE prints the
# counts and fails if any case did.
failed=0
cases=0
ok() { cases=$((cases + 1)); echo "ok   $1"; }
fail() { cases=$((cases + 1)); failed=$((failed + 1)); echo "FAIL $1: $2"; }
finish() {
    echo "$1: $((cases - failed)) of $cases cases passed"
    echo "$((cases - failed)) passed, $failed failed"
    [ $failed -eq 0 ]
}

# window_of PID: prints the visible X window named particles of process
# PID, polled for up to 15 s; nothing if none appeared or the process ended. --all:
# xdotool's search ORs its conditions by default, so without it any window
# named particles (the install test's, running beside this one on the
# shared display) matched.
window_of() {
    local wid=""
    for _ in $(seq 150); do
        wid=$(xdotool search --all --onlyvisible --pid "$1" --name '^particles$' 2>/dev/null | head -1)
        [ -n "$wid" ] && break
        kill -0 "$1" 2>/dev/null || break
        sleep 0.1
    done
    echo "$wid"
}

# window_quit PID: presses Escape in the window of process PID until the
# process ends (a key sent while the window is still being set up can be
# lost), for up to 10 s, and prints the window's id; nothing where no
# window appeared. The caller still waits for PID (its exit status).
# Each press after the first looks the window up by PID again, in the same
# xdotool call as the key: the X server hands a closed window's id to the
# next client that connects, so a press sent to the remembered id after
# PID's window closed could end another test's window on the shared display.
window_quit() {
    local wid
    wid=$(window_of "$1")
    if [ -n "$wid" ]; then
        xdotool key --window "$wid" Escape 2>/dev/null
        for _ in $(seq 10); do
            for _ in $(seq 10); do
                kill -0 "$1" 2>/dev/null || break 2
                sleep 0.1
            done
            xdotool search --all --onlyvisible --pid "$1" --name '^particles$' \
                key --window %1 Escape 2>/dev/null
        done
        # A press that closed the window can leave xdotool without its
        # release (an error on the window gone): the server then holds
        # Escape down and repeats it to the next window focused, which
        # quits at once. Released here, whatever happened.
        xdotool keyup Escape 2>/dev/null
    fi
    echo "$wid"
}

# wait_gone PID: polls for up to 10 s for the process to end; false if it
# still runs.
wait_gone() {
    for _ in $(seq 100); do
        kill -0 "$1" 2>/dev/null || return 0
        sleep 0.1
    done
    return 1
}

# wait_shots PID DIR N: polls for up to 60 s until DIR holds N screenshots
# of the S key (particles-*.png, each renamed into place whole); false if
# they did not come or the process ended.
wait_shots() {
    for _ in $(seq 600); do
        [ "$(ls "$2" | grep -c '^particles-.*\.png$')" -ge "$3" ] && return 0
        kill -0 "$1" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

# shot_taken PID DIR: presses S in the window of process PID until DIR
# holds a screenshot (a frame stepped and drawn), for up to 60 s; false if
# none came or the process ended. The window is looked up by PID at each
# press, in the same xdotool call as the key: an id found while the window
# was still being set up may already be gone.
shot_taken() {
    for _ in $(seq 30); do
        xdotool search --all --onlyvisible --pid "$1" --name '^particles$' \
            key --window %1 s 2>/dev/null
        for _ in $(seq 20); do
            ls "$2" 2>/dev/null | grep -q '^particles-.*\.png$' && return 0
            kill -0 "$1" 2>/dev/null || return 1
            sleep 0.1
        done
    done
    return 1
}

# start_in DIR ARGS...: $bin in the background with DIR, made here, as its
# working directory (the S key's screenshots land there), its output in
# $out and $err; sets pid, and wid to its X window (empty if none appeared).
start_in() {
    local dir=$1
    shift
    mkdir "$dir"
    (cd "$dir" && exec "$bin" "$@") >"$out" 2>"$err" &
    pid=$!
    wid=$(window_of "$pid")
}
