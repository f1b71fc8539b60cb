#!/usr/bin/env bash
# test_trace.sh - --trace FILE.json and --trace-frames A:B, in one mode:
#
#   bash tests/test_trace.sh path/to/particles bench
#   bash tests/test_trace.sh path/to/particles window   (needs a DISPLAY: Xvfb)
#
# bench:
#   - a run over two IP values and two storages with two repeats writes a
#     Chrome trace that trace_check.py accepts against the program's own
#     DAG (--print-dag): one process per configuration of the first repeat,
#     named as the --json of the same run names its runs, frames A..B only,
#     no overlap on any worker, every dependency edge in order, event counts
#     as the steps reported;
#   - the default frames are 1:5;
#   - --trace - writes the trace alone on standard output;
#   - a run that ends (every particle died) before frame A says so in one
#     note and still writes a valid trace with its process and no events;
#   - an existing file is replaced whole by a run, and left as it was by
#     bad input;
#   - bad values of --trace-frames and --trace, and --trace-frames without
#     --trace or past --frames, exit 2 with one line naming the flag, before
#     any run;
#   - the checker itself rejects a trace with an edge out of order or two
#     events overlapping on one worker.
# window (a real window):
#   - a run of --frames 8 traces steps 3..6 into a trace that trace_check.py
#     accepts, replacing the old file; the --frames summary is still the
#     only line on standard output;
#   - the default frames are 1:5 (IP off, dynamic storage);
#   - a window closed (Esc) before step A says so in one note and still
#     writes a valid trace with its process and no events;
#   - SIGTERM while it runs: exit 143, the old trace kept, no temporary;
#   - --trace - (standard output holds the summary), --trace naming the
#     --screenshot's file, --trace-frames without --trace, past --frames or
#     with B < A exit 2 with one line, the old file kept.
set -u
if [ $# -ne 2 ] || [ ! -x "$1" ] || { [ "$2" != bench ] && [ "$2" != window ]; }; then
    echo "usage: $0 PATH_TO_PARTICLES bench|window" >&2
    exit 2
fi
bin=$1
mode=$2
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=window_util.sh
. "$here/window_util.sh"
if [ "$mode" = window ] && [ -z "${DISPLAY:-}" ]; then
    echo "FAIL no DISPLAY: run this under xvfb-run (tests/run.sh does)"
    exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/particles-trace.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0

check() { # NAME CONDITION-RESULT(0/1) DETAIL
    if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1: $3"; failed=1; fi
}

"$bin" bench --print-dag >"$tmp/dag.dot" 2>"$tmp/err"
check "--print-dag" $? "$(cat "$tmp/err")"

# A run of "${base[@]}" ARGS that writes FILE: exit 0, and trace_check.py
# accepts FILE for FRAMES, COUNT particles and the one process LABEL.
traced() { # NAME FILE FRAMES COUNT LABEL ARGS...
    local name=$1 file=$2 frames=$3 count=$4 label=$5
    shift 5
    "${base[@]}" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    python3 "$here/trace_check.py" "$file" "$tmp/dag.dot" "$frames" "$count" "$label" \
        >"$tmp/check"
    check "$name" $(( rc != 0 || $? != 0 )) "exit $rc: $(cat "$tmp/err" "$tmp/check")"
}

# Bad input: "${base[@]}" ARGS exits 2 with one line on stderr containing
# WANT, writes nothing on stdout and leaves $tmp/keep.png as it was.
echo old >"$tmp/keep.png"
bad() { # NAME WANT ARGS...
    local name=$1 want=$2
    shift 2
    "${base[@]}" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$? kept=0
    [ "$(cat "$tmp/keep.png")" = old ] || kept=1
    check "refused: $name" \
        $(( rc != 2 || kept != 0 || $(wc -l <"$tmp/err") != 1 || $(wc -c <"$tmp/out") != 0 ||
            $(grep -cF -- "$want" "$tmp/err") != 1 )) \
        "exit $rc: $(cat "$tmp/err" "$tmp/out")"
}

# A run that ended (exit RC) before frame A: stderr is the one NOTE line
# (an extended regex), FILE a valid trace with the one process LABEL and
# no events.
ended_early() { # NAME RC FILE LABEL NOTE
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
names = [e["args"]["name"] for e in d["traceEvents"] if e["name"] == "process_name"]
assert names == [sys.argv[2]], names
assert not [e for e in d["traceEvents"] if e["ph"] == "X"], "events"' "$3" "$4" 2>"$tmp/check"
    check "$1" $(( $2 != 0 || $? != 0 || $(wc -l <"$tmp/err") != 1 ||
                   $(grep -cE "$5" "$tmp/err") != 1 )) "exit $2: $(cat "$tmp/err" "$tmp/check")"
}

# The labels the trace must give its processes, from a --json of the same
# run: its first repeat's runs, in order.
labels_of() { # JSON
    python3 -c '
import json, sys
for r in json.load(open(sys.argv[1]))["runs"]:
    if r["repeat"] == 1:
        t = r["threads"]
        print("%d particles, IP %s, %s, %s, %d thread%s" % (r["count"], r["inner_parallelism"],
              r["storage"], r["layout"], t, "" if t == 1 else "s"))' "$1"
}

# The checker catches what it is there to catch: an edge out of order, two
# events overlapping on one worker, in copies of a good trace.
check_the_checker() { # TRACE LABELS...
    local good=$1
    shift
    python3 - "$good" "$tmp/edge.json" "$tmp/overlap.json" <<'PY'
import json, sys
def load():
    d = json.load(open(sys.argv[1]))
    return d, d["traceEvents"]
def first(ev, name):
    return next(e for e in ev if e["name"] == name and e["ph"] == "X" and e["args"]["frame"] == 3)
d, ev = load()
first(ev, "collision")["ts"] = first(ev, "spatial_partition")["ts"]
json.dump(d, open(sys.argv[2], "w"))
d, ev = load()
a = first(ev, "acceleration")
b = next(e for e in ev if e["ph"] == "X" and e["pid"] == a["pid"] and e["tid"] == a["tid"]
         and float(e["ts"]) > float(a["ts"]))
b["ts"] = a["ts"]
json.dump(d, open(sys.argv[3], "w"))
PY
    python3 "$here/trace_check.py" "$tmp/edge.json" "$tmp/dag.dot" 2:5 20000 "$@" >"$tmp/check"
    check "the checker rejects an edge out of order" \
        $(( $? == 0 || $(grep -c 'collision starts at' "$tmp/check") == 0 )) "$(cat "$tmp/check")"
    python3 "$here/trace_check.py" "$tmp/overlap.json" "$tmp/dag.dot" 2:5 20000 "$@" >"$tmp/check"
    check "the checker rejects two events overlapping on one worker" \
        $(( $? == 0 || $(grep -c '^FAIL overlap on pid' "$tmp/check") == 0 )) "$(cat "$tmp/check")"
}

run_bench() {
    base=("$bin" bench --threads 2 --cpu-probe 0 --layout soa)
    # Four configurations, two repeats: the first repeat of each traced.
    "$bin" bench --entities 20000 --inner-parallelism on,off --storage fixed,dynamic --threads 3 \
        --layout soa \
        --repeat 2 --frames 6 --cpu-probe 0 --quiet --trace-frames 2:5 --trace "$tmp/t.json" \
        --json "$tmp/j.json" 2>"$tmp/err"
    local rc=$?
    check "a traced run" $(( rc != 0 || $(wc -c <"$tmp/err") != 0 )) "exit $rc: $(cat "$tmp/err")"
    local labels
    mapfile -t labels < <(labels_of "$tmp/j.json")
    python3 "$here/trace_check.py" "$tmp/t.json" "$tmp/dag.dot" 2:5 20000 "${labels[@]}" \
        >"$tmp/check"
    rc=$?
    check "frames 2:5 of 4 configurations: the trace checks out (${#labels[@]} processes)" \
        $(( rc != 0 || ${#labels[@]} != 4 )) "$(cat "$tmp/check")"
    python3 -c '
import json, sys
t, j = (json.load(open(p)) for p in sys.argv[1:3])
steps = [e for e in t["traceEvents"] if e["ph"] == "X" and e["cat"] == "step"]
assert steps and all(list(e["args"]["systems"]) == j["systems"] for e in steps), "systems differ"
' "$tmp/t.json" "$tmp/j.json" 2>"$tmp/check"
    check "every step names the systems the --json names, in order" $? "$(tail -1 "$tmp/check")"
    check_the_checker "$tmp/t.json" "${labels[@]}"

    echo old >"$tmp/d.json"
    traced "default frames 1:5, the old file replaced" "$tmp/d.json" 1:5 3000 \
        "3000 particles, IP on, fixed, soa, 2 threads" --entities 3000 --inner-parallelism on \
        --storage fixed --frames 7 --repeat 1 --quiet --trace "$tmp/d.json"
    traced "--trace - writes the trace on standard output" "$tmp/out" 3:3 3000 \
        "3000 particles, IP off, dynamic, soa, 2 threads" --entities 3000 --inner-parallelism off \
        --storage dynamic --frames 3 --repeat 1 --trace - --trace-frames 3:3

    # A run that ends before frame A: one note (the second repeat is not
    # traced), a valid file with its process and no events.
    "${base[@]}" --entities 100 --inner-parallelism on --storage fixed --repeat 2 --quiet \
        --trace "$tmp/early.json" --trace-frames 5000:5001 2>"$tmp/err"
    ended_early "a run that ends before frame A: one note, a trace with no frames" $? \
        "$tmp/early.json" "100 particles, IP on, fixed, soa, 2 threads" \
        '^particles bench: note: --trace: 100 particles, IP on, fixed, soa, 2 threads ended after frame [0-9]+, before frame 5000 of --trace-frames 5000:5001: none of its frames traced$'

    base+=(--entities 3000 --frames 20 --repeat 1 --quiet)
    local k=(--trace "$tmp/keep.png")
    bad "A = 0" "--trace-frames: '0:5': frames count from 1 (the first step); A >= 1" \
        "${k[@]}" --trace-frames 0:5
    bad "B < A" "--trace-frames: '5:3': B (3) is below A (5)" "${k[@]}" --trace-frames 5:3
    bad "not numbers" "--trace-frames: 'a:b' is not A:B" "${k[@]}" --trace-frames a:b
    bad "one number" "--trace-frames: '7' is not A:B" "${k[@]}" --trace-frames 7
    bad "a suffix" "--trace-frames: '1:5x' is not A:B" "${k[@]}" --trace-frames 1:5x
    bad "B missing" "--trace-frames: '1:' is not A:B" "${k[@]}" --trace-frames 1:
    bad "a sign" "--trace-frames: '-1:5' is not A:B" "${k[@]}" --trace-frames=-1:5
    bad "past 32 bits" "--trace-frames: '1:4294967296' is not A:B" "${k[@]}" \
        --trace-frames 1:4294967296
    bad "101 frames" "--trace-frames: '1:101' is 101 frames; at most 100" "${k[@]}" \
        --trace-frames 1:101
    bad "--trace-frames without --trace" "--trace-frames 2:3 needs --trace FILE.json" \
        --trace-frames 2:3
    bad "frames past --frames" "--trace-frames 21:22: --frames 20 ends every run before frame 21" \
        "${k[@]}" --trace-frames 21:22
    bad "the last frame past --frames" \
        "--trace-frames 5:30: --frames 20 ends every run before frame 30" "${k[@]}" --trace-frames 5:30
    bad "an empty file name" "--trace: the file name is empty" --trace ""
    bad "a missing directory" "--trace $tmp/no/dir/t.json: its directory cannot be used" \
        --trace "$tmp/no/dir/t.json"
    bad "the file of --json too" "--json $tmp/keep.png and --trace $tmp/keep.png name the same file" \
        "${k[@]}" --json "$tmp/keep.png"
    base=("$bin" bench)
    bad "--print-dag with --trace" "--trace does not apply" --print-dag "${k[@]}"
}

run_window() {
    base=("$bin" --entities 5000 --vsync off --size 320x200)
    local summary='^frames [0-9]+, mean fps [0-9.]+, mean step [0-9.]+ ms, mean render'
    echo old >"$tmp/t.json"
    traced "frames 3:6: the trace checks out, the old file replaced" "$tmp/t.json" 3:6 5000 \
        "window: 5000 particles a wave, IP on, fixed, 3 threads at start" \
        --threads 3 --frames 8 --trace "$tmp/t.json" --trace-frames 3:6
    check "the summary alone on stdout, nothing on stderr" \
        $(( $(wc -l <"$tmp/out") != 2 || $(grep -cE "$summary" "$tmp/out") != 1 ||
            $(grep -cE '^rate 25 steps/s: 8 steps in ' "$tmp/out") != 1 ||
            $(wc -c <"$tmp/err") != 0 )) "$(cat "$tmp/out" "$tmp/err")"
    traced "default frames 1:5" "$tmp/d.json" 1:5 5000 \
        "window: 5000 particles a wave, IP off, dynamic, 2 threads at start" \
        --threads 2 --inner-parallelism off --storage dynamic --frames 6 --trace "$tmp/d.json"

    # Esc before step A: exit 0, one note, a valid file with the run's
    # process and no frames (xdotool presses the key: window_util.sh).
    local pid wid rc
    "${base[@]}" --threads 2 --trace "$tmp/esc.json" --trace-frames 100000:100001 \
        >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    wid=$(window_quit "$pid")
    kill "$pid" 2>/dev/null
    wait "$pid"
    rc=$?
    [ -n "$wid" ] || check "Esc before step A" 1 "no window appeared: $(cat "$tmp/err")"
    ended_early "Esc before step A: one note, a trace with no frames" $rc "$tmp/esc.json" \
        "window: 5000 particles a wave, IP on, fixed, 2 threads at start" \
        '^particles: note: --trace: window: 5000 particles a wave, IP on, fixed, 2 threads at start ended after frame [0-9]+, before frame 100000 of --trace-frames 100000:100001: none of its frames traced$'

    # SIGTERM while the window runs: exit 143, the old trace kept, no
    # temporary left. The temporary exists once the target was checked,
    # before the window opens: wait for it (bounded), then signal.
    echo old >"$tmp/sig.json"
    "${base[@]}" --trace "$tmp/sig.json" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    for _ in $(seq 400); do
        ls -A "$tmp" | grep -q '^\.sig\.json\.' && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    kill -TERM "$pid"
    for _ in $(seq 400); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    wait "$pid"
    rc=$?
    local kept=0
    [ "$(cat "$tmp/sig.json")" = old ] || kept=1
    check "SIGTERM: exit 143, the old trace kept, no temporary" \
        $(( rc != 143 || kept != 0 || $(ls -A "$tmp" | grep -c '^\.sig') != 0 )) \
        "exit $rc, files: $(ls -A "$tmp" | tr '\n' ' ')"

    bad "--trace -" "--trace: '-' (standard output) is not allowed here" --frames 3 --trace -
    bad "--trace and --screenshot one file" \
        "--trace $tmp/keep.png and --screenshot $tmp/keep.png name the same file" \
        --frames 3 --trace "$tmp/keep.png" --screenshot "$tmp/keep.png"
    bad "--trace-frames without --trace" "--trace-frames 2:3 needs --trace FILE.json" \
        --frames 3 --trace-frames 2:3
    bad "frames past --frames" "--trace-frames 4:5: --frames 3 ends every run before frame 4" \
        --frames 3 --trace "$tmp/keep.png" --trace-frames 4:5
    bad "the last frame past --frames" "--trace-frames 2:5: --frames 3 ends every run before frame 5" \
        --frames 3 --trace "$tmp/keep.png" --trace-frames 2:5
    bad "B < A" "--trace-frames: '2:1': B (1) is below A (2)" --frames 3 \
        --trace "$tmp/keep.png" --trace-frames 2:1
}

"run_$mode"
exit $failed
