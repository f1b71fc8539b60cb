# fifo_util.sh - stopping a program while it waits on a FIFO (sourced).

# term_when_open PID PATTERN: once process PID holds open a file whose
# /proc link matches PATTERN (or has ended), sends it SIGTERM, waits for
# it to end (SIGKILL after 10 s: a hang), and sets rc to its exit status.
# The waits poll the process's state, never a fixed time.
term_when_open() {
    local pid=$1 pattern=$2
    for _ in $(seq 1 400); do
        ls -l "/proc/$pid/fd" 2>/dev/null | grep -q -- "$pattern" && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 1 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid"
    rc=$?
}
