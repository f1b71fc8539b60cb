# window_key.sh - sourced by the window tests: a key pressed in the window
# of a running `particles`.
#
# window_key PID KEY: waits (a bounded poll, up to 10 s) for the window of
# process PID named particles, sends it KEY and prints its id; prints
# nothing where no window appeared or PID ended first. --all: xdotool's
# search ORs its conditions by default, so without it any window named
# particles (another test's, running beside this one on the shared
# display) would match and take the key.
window_key() {
    local pid=$1 key=$2 wid=""
    for _ in $(seq 100); do
        wid=$(xdotool search --all --pid "$pid" --name '^particles$' 2>/dev/null | head -1)
        [ -n "$wid" ] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    [ -n "$wid" ] && xdotool key --window "$wid" "$key"
    echo "$wid"
}
