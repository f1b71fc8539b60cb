#!/usr/bin/env bash
# test_bench_probe_absent.sh - the bench where its CPU probe cannot pin a
# thread to one CPU (built with BENCH_PROBE_FORCE_ABSENT, as off Linux):
#
#   bash tests/test_bench_probe_absent.sh path/to/particles_probe_absent
#
#   - a run asked to probe prints one line under the header saying the
#     probe is not available on this system, and no speeds nor warning;
#   - its JSON has "cpu_speed": null and "cpu_check": null;
#   - --cpu-probe 0 prints no cpu speed line at all and no cpu_speed.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL $1: $2"; failures=$((failures + 1)); }

run=(bench --entities 300 --frames 3 --repeat 1 --threads 1 --inner-parallelism off
     --storage fixed)
"$bin" "${run[@]}" --cpu-probe 10 --json "$tmp/r.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || fail "probe absent run" "exit $rc: $(cat "$tmp/err")"
want="cpu speed: not available on this system (it cannot pin a thread to one CPU)"
[ "$(grep -c '^cpu speed' "$tmp/out")" -eq 1 ] && grep -qxF "$want" "$tmp/out" ||
    fail "probe absent line" "want the one line '$want': $(head -5 "$tmp/out")"
grep -qE 'chain cpu|WARNING' "$tmp/out" && fail "probe absent figures" "$(grep -E 'chain|WARNING' "$tmp/out")"
python3 - "$tmp/r.json" <<'PY' || fail "probe absent JSON" "cpu_speed or cpu_check not null"
import json, sys
m = json.load(open(sys.argv[1]))["machine"]
sys.exit(0 if "cpu_speed" in m and m["cpu_speed"] is None and m.get("cpu_check", 0) is None else 1)
PY

"$bin" "${run[@]}" --cpu-probe 0 --json "$tmp/r0.json" >"$tmp/out" 2>"$tmp/err" ||
    fail "no probe run" "$(cat "$tmp/err")"
grep -q '^cpu speed' "$tmp/out" && fail "no probe line" "$(grep '^cpu speed' "$tmp/out")"
grep -q '"cpu_speed"' "$tmp/r0.json" && fail "no probe JSON" "cpu_speed written with --cpu-probe 0"

if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "probe absent: all passed"
