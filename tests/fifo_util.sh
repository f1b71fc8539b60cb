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

# stopped_on_fifo NAME FIFO DIR CMD...: runs CMD, which reads FIFO, while
# a writer (this shell, read-write, so that no open waits) holds FIFO open
# and writes nothing; SIGTERM once CMD holds it open. CMD must exit 143
# with nothing on stderr, and DIR (where its outputs go) keep the same
# files with the same content: no temporary left, nothing replaced. CMD
# starts with SIGTERM ignored, so that only its own handler (stop.h) ends
# it: the default action would end it with 143 too, leaving its stop
# untested. Reports through the caller's ok and fail.
stopped_on_fifo() {
    local name=$1 fifo=$2 dir=$3 before after err
    shift 3
    err=$(mktemp)
    before=$(cd "$dir" && ls -A && find . -type f -exec cksum {} + | sort)
    mkfifo "$fifo"
    exec 3<>"$fifo"
    (trap '' TERM && exec "$@") >/dev/null 2>"$err" 3<&- &
    term_when_open $! "-> $fifo\$"
    exec 3>&-
    rm -f "$fifo"
    after=$(cd "$dir" && ls -A && find . -type f -exec cksum {} + | sort)
    if [ "$rc" -ne 143 ] || [ -s "$err" ] || [ "$before" != "$after" ]; then
        fail "$name" "exit $rc (want 143), stderr '$(head -c 200 "$err")', outputs before '$before', after '$after'"
    else
        ok "$name"
    fi
    rm -f "$err"
}
