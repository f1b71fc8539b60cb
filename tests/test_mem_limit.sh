#!/usr/bin/env bash
# test_mem_limit.sh - a world too big for the memory this process may take
# is refused before it is made, with one line and exit status 2, instead
# of being killed when the memory runs out: inside a memory cgroup of
# 3 GiB (v2 where the unified hierarchy has the memory controller, else
# v1; needs root: skipped, exit 77, where no cgroup can be made) and
# under `ulimit -v` (RLIMIT_AS). A small world runs under either limit.
#
#   bash tests/test_mem_limit.sh path/to/particles [SANITIZERS]
#
# SANITIZERS (the build's, if any): the address and thread sanitizers
# reserve far more address space than any ulimit -v allows, so that case
# is left out under either.
set -u
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH_TO_PARTICLES [SANITIZERS]" >&2
    exit 2
fi
bin=$1
sanitizers=${2:-}
failed=0
ok() { echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1: $2"; }

run_opts=(--frames 3 --repeat 1 --storage dynamic --layout soa --inner-parallelism on
          --threads 2 --cpu-probe 0 --quiet)
size='[0-9.]+ [GM]iB'

# refused NAME LIMIT_RE ARGS...: exit 2 (not killed: 137), stderr exactly
# one line naming the world, its need and the limit LIMIT_RE.
refused() {
    local name=$1 limit=$2
    shift 2
    local err rc lines
    err=$("$bin" bench "$@" "${run_opts[@]}" 2>&1 >/dev/null)
    rc=$?
    lines=$(printf '%s\n' "$err" | wc -l)
    if [ "$rc" -ne 2 ]; then
        fail "$name" "exit $rc (137: killed), want 2; stderr: $err"
    elif [ "$lines" -ne 1 ] || ! printf '%s\n' "$err" | grep -Eq \
        "^particles bench: --entities [0-9]+ with --world [0-9]+x[0-9]+ needs about $size; the memory limit of this process \($limit: $size, $size free\) leaves too little$"; then
        fail "$name" "stderr is not the one line: $err"
    else
        ok "$name: $err"
    fi
}

# runs NAME ARGS...: a small world runs to its end.
runs() {
    local name=$1
    shift
    local err
    if err=$("$bin" bench "$@" "${run_opts[@]}" 2>&1 >/dev/null); then
        ok "$name"
    else
        fail "$name" "exit $?: $err"
    fi
}

big=(--entities 100000000 --world 41000x41000)
small=(--entities 20000)

# ---- ulimit -v -----------------------------------------------------------
if [[ "$sanitizers" == *address* || "$sanitizers" == *thread* ]]; then
    echo "skip ulimit -v: the sanitizer's shadow memory needs more address space"
else
    # 1 GiB of address space: 10 000 000 particles need more.
    ( failed=0
      ulimit -v 1048576
      refused "ulimit -v: refused" "RLIMIT_AS" --entities 10000000 --world 41000x41000
      runs "ulimit -v: a small world runs" "${small[@]}"
      exit "$failed" )
    failed=$((failed + $?))
fi

# ---- a memory cgroup -----------------------------------------------------
# The mount point of the hierarchy of type $1 (cgroup2, or cgroup with the
# option $2), from /proc/self/mountinfo (its fifth field; after " - ",
# the type and the options).
mount_of() {
    awk -v type="$1" -v opt="$2" '{
        for (i = 7; i <= NF && $i != "-"; i++) {}
        if ($(i + 1) != type) next
        if (opt != "" && ("," $(i + 3) ",") !~ ("," opt ",")) next
        print $5; exit }' /proc/self/mountinfo
}
cg=
limit=$((3 << 30))
if [ "$(id -u)" -eq 0 ]; then
    v2=$(mount_of cgroup2 "")
    v1=$(mount_of cgroup memory)
    if [ -n "$v2" ] && grep -qw memory "$v2/cgroup.controllers" 2>/dev/null &&
        mkdir "$v2/particles-test.$$" 2>/dev/null; then
        if [ -e "$v2/particles-test.$$/memory.max" ] &&
            echo "$limit" >"$v2/particles-test.$$/memory.max" 2>/dev/null; then
            cg=$v2/particles-test.$$
        else
            rmdir "$v2/particles-test.$$"
        fi
    fi
    if [ -z "$cg" ] && [ -n "$v1" ] && mkdir "$v1/particles-test.$$" 2>/dev/null; then
        if echo "$limit" >"$v1/particles-test.$$/memory.limit_in_bytes" 2>/dev/null; then
            cg=$v1/particles-test.$$
        else
            rmdir "$v1/particles-test.$$"
        fi
    fi
    [ -n "$cg" ] && trap 'rmdir "$cg"' EXIT
fi
if [ -z "$cg" ]; then
    if [ "$(id -u)" -ne 0 ]; then why="not root"; else why="no memory cgroup could be made here"; fi
    echo "skip the cgroup cases: $why"
    [ "$failed" -eq 0 ] && exit 77
    exit 1
fi
echo "cgroup $cg, limit 3 GiB"
( failed=0
  echo "$BASHPID" >"$cg/cgroup.procs" || exit 1
  refused "cgroup: refused" "cgroup /[^:]*particles-test\.$$" "${big[@]}"
  runs "cgroup: a small world runs" "${small[@]}"
  exit "$failed" )
failed=$((failed + $?))

[ "$failed" -eq 0 ] || { echo "$failed case(s) failed"; exit 1; }
echo "all cases passed"
