#!/usr/bin/env bash
# test_cli.sh - the command-line contract of `particles`.
#
#   bash tests/test_cli.sh path/to/particles
#
# Bad input: exit status 2, exactly one non-empty line on stderr naming the
# flag (or the mode) in question, nothing on stdout, no output file and no
# FILE.tmp left behind. Good input: --help, --version, --print-dag, a tiny
# real run with --csv/--json (and --chart when gnuplot is installed).
# The window mode (`particles`, `particles run`) is checked only where it
# exits before opening a window (bad input, --help); its cases are skipped
# when the binary was built without it (`particles --help` lists no `run`).
# Prints one line per case and exits 1 if any case failed.
set -u

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH_TO_PARTICLES" >&2
    exit 2
fi
bin=$1

tmp=$(mktemp -d "${TMPDIR:-/tmp}/particles-cli.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# The chart's gnuplot files go to $TMPDIR: keep them in $tmp too, so that a
# leftover shows up in the checks below.
export TMPDIR=$tmp
mkdir "$tmp/nobin" "$tmp/dir.png"

failed=0
cases=0
skipped=0
out=$tmp/stdout
err=$tmp/stderr
rc=0

ok() {
    cases=$((cases + 1))
    echo "ok   $1"
}

fail() {
    cases=$((cases + 1))
    failed=$((failed + 1))
    echo "FAIL $1: $2"
}

skip() {
    skipped=$((skipped + 1))
    echo "skip $1: $2"
}

# Runs the binary with the given arguments, stdout/stderr to $out/$err;
# with $bin_path set, the binary (only) runs with PATH=$bin_path. With
# $no_display set it runs with no display and a time limit, so that a
# window case that wrongly got past its checks fails instead of opening a
# window or hanging.
bin_path=
no_display=
run() {
    if [ -n "$bin_path" ]; then
        PATH=$bin_path "$bin" "$@" >"$out" 2>"$err"
    elif [ -n "$no_display" ]; then
        env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER timeout 30 "$bin" "$@" >"$out" 2>"$err"
    else
        "$bin" "$@" >"$out" 2>"$err"
    fi
    rc=$?
}

# Whether this binary has the window mode: its --help lists the mode `run`.
has_window=
if "$bin" --help 2>/dev/null | grep -qE '^  run '; then has_window=1; fi

# The first 300 bytes of a file, newlines shown as \n, for messages.
show() {
    head -c 300 "$1" | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n/\\n/g'
}

# Names of files under $tmp that a failed run must not have left behind.
leftovers() {
    (cd "$tmp" && ls -d out.csv out.json out.png out.svg out.jpg ./*.tmp particles-chart-* \
        2>/dev/null | tr '\n' ' ')
}

# bad NAME NEEDLE ARGS...: the run must be rejected as bad input, stderr
# being one line that contains NEEDLE.
bad() {
    local name=$1 needle=$2
    shift 2
    rm -f "$tmp"/out.* "$tmp"/*.tmp
    run "$@"
    local why=()
    [ "$rc" -eq 2 ] || why+=("exit status $rc, not 2")
    if [ -s "$out" ]; then why+=("stdout not empty: '$(show "$out")'"); fi
    local lines last line
    lines=$(wc -l <"$err")
    last=$(tail -c 1 "$err" | od -An -tx1 | tr -d ' \n')
    line=$(head -n 1 "$err")
    if [ "$lines" -ne 1 ] || [ "$last" != "0a" ] || [ -z "$line" ] || [[ $line == *$'\r'* ]]; then
        why+=("stderr is not exactly one non-empty line: '$(show "$err")'")
    elif [[ $line != *"$needle"* ]]; then
        why+=("stderr does not name '$needle': '$line'")
    fi
    local left
    left=$(leftovers)
    [ -z "$left" ] || why+=("left behind: $left")
    if [ ${#why[@]} -eq 0 ]; then
        ok "$name ($line)"
    else
        local IFS=';'
        fail "$name" "${why[*]}"
    fi
}

files=(--csv "$tmp/out.csv" --json "$tmp/out.json")

# ---- bad input -------------------------------------------------------------

if [ -n "$has_window" ]; then
    skip "no mode" "opens the window in this build"
else
    bad "no mode (no window mode built)" "window mode"
    bad "run (no window mode built)" "window mode" run --frames 1
    bad "--frames 1 (no mode, no window mode built)" "window mode" --frames 1
fi
bad "--version extra" "extra" --version extra
bad "--help extra" "extra" --help extra
bad "unknown mode" "frobnicate" frobnicate
bad "empty mode" "mode" ""
bad "bench --bogus" "--bogus" bench --bogus "${files[@]}"
# A value with control characters is shown escaped, on one line.
bad "bench --entities with a line break" "'100\\n'" bench --entities $'100\n' "${files[@]}"
bad "bench --entities with an escape code" "'1\\x1b[2J'" bench --entities $'1\e[2J' "${files[@]}"
bad "bench --csv with a line break" "--csv" bench --entities 300 --frames 1 --csv "$tmp"/$'out\n.csv'
bad "bench stray argument" "stray" bench "${files[@]}" stray
bad "bench -x" "'-x'" bench -x "${files[@]}"
bad "bench --quiet=yes" "--quiet" bench --quiet=yes "${files[@]}"
bad "bench --s 1 (ambiguous)" "--s" bench --s 1 "${files[@]}"
# The flag last: otherwise getopt takes the next word as its value.
bad "--entities without value" "--entities" bench "${files[@]}" --entities
bad "--csv without value" "--csv" bench --json "$tmp/out.json" --csv
bad "--entities abc" "--entities" bench --entities abc "${files[@]}"
bad "--entities 12x" "--entities" bench --entities 12x "${files[@]}"
bad "--entities 0" "--entities" bench --entities 0 "${files[@]}"
bad "--entities -5" "--entities" bench --entities -5 "${files[@]}"
bad "--entities +5" "--entities" bench --entities +5 "${files[@]}"
bad "--entities ' 5'" "--entities" bench --entities " 5" "${files[@]}"
bad "--entities 50000,,100000" "--entities" bench --entities 50000,,100000 "${files[@]}"
bad "--entities 5000, (trailing comma)" "--entities" bench --entities 5000, "${files[@]}"
bad "--entities 99999999999999999999" "--entities" \
    bench --entities 99999999999999999999 "${files[@]}"
bad "--entities ''" "--entities" bench --entities "" "${files[@]}"
bad "--entities 5000,5000 (duplicate)" "--entities" bench --entities 5000,5000 "${files[@]}"
bad "--entities 500000 --storage fixed" "--entities" \
    bench --entities 500000 --storage fixed "${files[@]}"
bad "--fixed-limit 1000 --entities 2000" "--entities" \
    bench --fixed-limit 1000 --entities 2000 "${files[@]}"
bad "--fixed-limit 0" "--fixed-limit" bench --fixed-limit 0 "${files[@]}"
bad "--inner-parallelism maybe" "--inner-parallelism" \
    bench --inner-parallelism maybe "${files[@]}"
bad "--inner-parallelism on,on (duplicate)" "--inner-parallelism" \
    bench --inner-parallelism on,on "${files[@]}"
bad "--storage elastic" "--storage" bench --storage elastic "${files[@]}"
bad "--layout bogus" "--layout: 'bogus' is not one of soa, thesis" bench --layout bogus "${files[@]}"
bad "--layout soa,soa (duplicate)" "--layout: 'soa' is listed twice" bench --layout soa,soa "${files[@]}"
bad "--systems bogus names the systems" \
    "--systems: 'bogus' is not a system; give some of acceleration, velocity, keep_in_bounds, spatial_partition, collision, solve_contacts, render, life, fade" \
    bench --systems collision,bogus "${files[@]}"
bad "--systems collision,collision (duplicate)" "--systems: 'collision' is listed twice" \
    bench --systems collision,render,collision "${files[@]}"
bad "--systems collision,,render (an empty item)" "--systems: empty item in 'collision,,render'" \
    bench --systems collision,,render "${files[@]}"
bad "--systems '' (empty)" "--systems: empty item in ''" bench --systems "" "${files[@]}"
bad "--systems without life and --frames (runs that would not end)" \
    "--systems without life: no particle dies" bench --systems collision "${files[@]}"
bad "--storage fixed,fixed (duplicate)" "--storage" bench --storage fixed,fixed "${files[@]}"
bad "--threads 0" "--threads" bench --threads 0 "${files[@]}"
bad "--kernel sse" "--kernel" bench --kernel sse "${files[@]}"
bad "--kernel scalar,avx2 (one value)" "--kernel" bench --kernel scalar,avx2 "${files[@]}"
bad "--loops sse" "--loops" bench --loops sse "${files[@]}"
# A kernel this machine lacks, where there is one (all three on AVX-512).
for k in avx512 avx2; do
    if ! grep -qw "${k/avx512/avx512f}" /proc/cpuinfo 2>/dev/null; then
        bad "--kernel $k (not on this CPU)" "--kernel" bench --kernel $k "${files[@]}"
        bad "--loops $k (not on this CPU)" "--loops" bench --loops $k "${files[@]}"
    fi
done
bad "--storage fixed,dynamic,fixed names the twice-listed item" "'fixed' is listed twice" \
    bench --storage fixed,dynamic,fixed "${files[@]}"
bad "--inner-parallelism both,on: 'both' alone" "given alone" \
    bench --inner-parallelism both,on "${files[@]}"
bad "--world 0x900" "--world" bench --world 0x900 "${files[@]}"
bad "--world 1440" "--world" bench --world 1440 "${files[@]}"
bad "--world 1440x900x2" "--world" bench --world 1440x900x2 "${files[@]}"
bad "--world 4x4 (the largest circle does not fit)" "--world" bench --world 4x4 "${files[@]}"
bad "--world 200000x900 (too wide)" "from 5 to 100000" bench --world 200000x900 "${files[@]}"
bad "--world 4294967296x5 (past 32 bits: still the range)" "from 5 to 100000" \
    bench --world 4294967296x5 "${files[@]}"
bad "--world 41400x41400 (too many grid cells)" "square units" bench --world 41400x41400 "${files[@]}"
# The density rule (sim_max_particles): the circles may cover at most 4
# times the world's area; past it a step would run out of memory.
bad "--world 5x5 --entities 100000 (too dense)" \
    "--entities 100000 with --world 5x5: the world is too dense for that many particles" \
    bench --world 5x5 --entities 100000 "${files[@]}"
bad "--entities 5000000 in the default world (too dense)" "at most 638755" \
    bench --entities 5000000 --storage dynamic "${files[@]}"
bad "--entities 1000,640000 (one count too dense)" "--entities 640000 with --world 1440x900" \
    bench --entities 1000,640000 --storage dynamic "${files[@]}"
bad "--threads abc" "--threads" bench --threads abc "${files[@]}"
# --threads: a list, ranges LOW..HIGH, or both mixed; each count 1..256,
# none twice, at most 32 in all.
bad "--threads 1,2,2 (duplicate)" "--threads: '2' is listed twice" \
    bench --threads 1,2,2 "${files[@]}"
bad "--threads 1..4,3 (3 in the range and listed)" "--threads: '3' is listed twice" \
    bench --threads 1..4,3 "${files[@]}"
bad "--threads 4..2 (downwards)" "'4..2' runs downwards" bench --threads 4..2 "${files[@]}"
bad "--threads 0..2 (0 out of range)" "--threads: '0' is out of range: a whole number from 1 to 256" \
    bench --threads 0..2 "${files[@]}"
bad "--threads 1..257" "--threads: '257' is out of range" bench --threads 1..257 "${files[@]}"
bad "--threads 1..33 (more than 32)" "--threads: '1..33' has 33 items, more than 32" \
    bench --threads 1..33 "${files[@]}"
bad "--threads ..4 (no low end)" "--threads: '..4' is not a range LOW..HIGH" \
    bench --threads ..4 "${files[@]}"
bad "--threads 1...4" "--threads: '1...4' is not a range LOW..HIGH" \
    bench --threads 1...4 "${files[@]}"
bad "--threads 1..2..3" "--threads: '1..2..3' is not a range LOW..HIGH" \
    bench --threads 1..2..3 "${files[@]}"
bad "--threads 1,,2 (empty item)" "--threads: empty item" bench --threads 1,,2 "${files[@]}"
# --weak scales the world with several thread counts, and the scaled
# worlds must be ones the simulation takes.
bad "--weak with one thread count" "--weak grows the world with the thread count" \
    bench --weak --threads 2 "${files[@]}"
bad "--weak past the fixed limit" "--weak: --entities 100000 at --threads 8: 800000 particles exceed the fixed storage limit" \
    bench --weak --threads 1,8 --entities 100000 --storage fixed "${files[@]}"
bad "--weak past the world's largest side" "--weak: --entities 1000 at --threads 256: the world" \
    bench --weak --threads 1,256 --entities 1000 --world 10000x10000 --storage dynamic "${files[@]}"
bad "--weak with --baseline" "--weak with --baseline" \
    bench --weak --threads 1,2 --baseline "$tmp/none.json" "${files[@]}"
bad "--repeat 0" "--repeat" bench --repeat 0 "${files[@]}"
bad "--cpu-probe 5001" "--cpu-probe" bench --cpu-probe 5001 "${files[@]}"
bad "--cpu-probe -1" "--cpu-probe" bench --cpu-probe -1 "${files[@]}"
bad "--cpu-probe 1s" "--cpu-probe" bench --cpu-probe 1s "${files[@]}"
bad "--frames -1: says negative" "--frames: '-1' is negative" bench --frames -1 "${files[@]}"
bad "--seed x" "--seed" bench --seed x "${files[@]}"
bad "--chart out.jpg" "--chart" bench --chart "$tmp/out.jpg" "${files[@]}"
bad "--csv and --json the same file" "--csv" \
    bench --csv "$tmp/out.csv" --json "$tmp/out.csv"
bad "--csv ''" "--csv" bench --csv "" --json "$tmp/out.json"
bad "--csv in a nonexistent directory" "--csv" \
    bench --entities 1000 --frames 1 --repeat 1 --quiet \
    --csv /nonexistent-dir/x.csv --json "$tmp/out.json"
# --csv is staged (out.csv.tmp created) before --json fails: the .tmp must go.
bad "--json in a nonexistent directory" "--json" \
    bench --entities 1000 --frames 1 --repeat 1 --quiet \
    --csv "$tmp/out.csv" --json /nonexistent-dir/x.json
bad "--csv names a directory" "--csv" \
    bench --entities 1000 --frames 1 --repeat 1 --quiet --csv "$tmp/nobin" --json "$tmp/out.json"
# Flags: a missing value never swallows the next flag, a flag
# that takes a value is given once, errors name what was typed, --print-dag
# takes no run option, the seed stays in the generator's distinct range.
quick=(--entities 1000 --frames 1 --repeat 1 --threads 2)
bad "--csv --quiet (the value is missing, not '--quiet')" "--csv" \
    bench "${quick[@]}" --json "$tmp/out.json" --csv --quiet
[ -e "$tmp/--quiet" ] && fail "--csv --quiet" "a file named --quiet was written"
bad "--frames --quiet (the value is missing)" "--frames" \
    bench --entities 1000 --repeat 1 --frames --quiet "${files[@]}"
bad "--csv twice" "--csv" bench "${quick[@]}" --csv "$tmp/out.csv" --csv "$tmp/out.json"
bad "--entities twice" "--entities" bench "${quick[@]}" --entities 2000 "${files[@]}"
bad "-xy names -x in -xy" "'-x' in '-xy'" bench -xy "${files[@]}"
bad "--s 1 names the candidates" "--seed" bench --s 1 "${files[@]}"
bad "--qui=1 (abbreviated, takes no value)" "--qui takes no value" bench "${quick[@]}" --qui=1
bad "--print-dag --csv" "--csv does not apply" bench --print-dag --csv "$tmp/out.csv"
bad "--print-dag --entities" "--entities does not apply" bench --print-dag --entities 5
bad "--seed 2147483647 (beyond the generator's range)" "--seed" \
    bench "${quick[@]}" --seed 2147483647 "${files[@]}"

# gnuplot looked up on a PATH without it.
bin_path=$tmp/nobin
bad "--chart without gnuplot on PATH" "--chart" \
    bench --entities 1000 --frames 1 --repeat 1 --quiet --chart "$tmp/out.png" "${files[@]}"
bin_path=

# ---- bad input to the window mode: refused before any window opens ---------

# wbad NAME NEEDLE ARGS...: bad, without a display, or skipped in a build
# without the window mode.
wbad() {
    if [ -z "$has_window" ]; then
        skip "$1" "built without the window mode"
        return
    fi
    no_display=1
    bad "$@"
    no_display=
}

wbad "run --entities 0" "--entities" run --entities 0
wbad "run --entities 1,2 (one value)" "--entities" run --entities 1,2
wbad "run --entities abc" "--entities" run --entities abc
wbad "run --entities 500000 (fixed, over the default limit)" "--entities" run --entities 500000
wbad "run --fixed-limit 1000 --entities 2000" "--entities" \
    run --fixed-limit 1000 --entities 2000
wbad "run --threads 0" "--threads" run --threads 0
wbad "run --threads 1,2 (one value)" "--threads: '1,2' is not a single value" run --threads 1,2
wbad "run --threads 1..4 (one value)" "--threads: '1..4' is not a single value" run --threads 1..4
wbad "run --weak (a bench flag)" "--weak is a flag of particles bench" run --weak
wbad "run --inner-parallelism both: for the bench" "give on or off" run --inner-parallelism both
wbad "run --inner-parallelism on,off (one value)" "--inner-parallelism" \
    run --inner-parallelism on,off
wbad "run --storage x" "--storage" run --storage x
wbad "run --layout bogus" "--layout: 'bogus' is not one of soa, thesis" run --layout bogus
wbad "run --layout both: for the bench" "give thesis or soa" run --layout both
wbad "run --systems (a bench flag)" "--systems is a flag of particles bench" run --systems collision
wbad "run --seed -1" "--seed" run --seed -1
wbad "run --frames -1" "--frames" run --frames -1
wbad "run --screenshot x.jpg" "--screenshot" run --screenshot x.jpg
wbad "run --vsync maybe" "--vsync" run --vsync maybe
wbad "run --draw lines" "--draw" run --draw lines
wbad "run --size 10x10" "--size" run --size 10x10
wbad "run --size abc" "--size" run --size abc
wbad "run --size 1440x" "--size" run --size 1440x
wbad "run --color red" "--color" run --color red
wbad "run --rate 0" "--rate: '0' is not a whole number of steps per second from 1 to 1000, or max" \
    run --rate 0
wbad "run --rate 1001" "--rate: '1001' is not a whole number of steps per second from 1 to 1000, or max" \
    run --rate 1001
wbad "run --rate fast" "--rate: 'fast'" run --rate fast
wbad "run --rate 2.5 (whole steps per second)" "--rate: '2.5'" run --rate 2.5
wbad "run --rate without value" "--rate" run --rate
wbad "bench --rate 25 (the window's)" "--rate is a flag of particles, not of particles bench" \
    bench --rate 25
wbad "run --zoom 0.5" "--zoom" run --zoom 0.5
wbad "run --zoom nan" "--zoom" run --zoom nan
wbad "run --center 10" "--center" run --center 10
wbad "run --zoom 0x1p3 (hexadecimal)" "--zoom: '0x1p3' is not a number" run --zoom 0x1p3
wbad "run --zoom 64.000001 (not rounded down to 64)" "--zoom: '64.000001'" run --zoom 64.000001
wbad "run --center 0x10,5 (hexadecimal)" "--center: '0x10,5'" run --center 0x10,5
wbad "run --center 2000,10 (outside the world)" "outside the world" run --center 2000,10
wbad "run --center 1440.5,900 (echoed as given)" "--center: 1440.5,900 is outside the world" \
    run --center 1440.5,900
wbad "run --center 50,50 --world 40x40 (outside that world)" "outside the world" \
    run --world 40x40 --entities 10 --center 50,50
wbad "run --assets ''" "--assets" run --assets ""
wbad "run --assets naming a missing directory: refused before a window" "--assets" \
    run --assets /nonexistent-dir
wbad "run --assets naming a file" "--assets" run --assets "$0"
wbad "run --kernel fast" "--kernel" run --kernel fast
wbad "run --world 10x" "--world" run --world 10x
wbad "run --world 5x5 --entities 13 (too dense)" "the world is too dense for that many particles" \
    run --world 5x5 --entities 13
wbad "run --bogus" "--bogus" run --bogus
wbad "run stray argument" "stray" run stray
wbad "run --frames without value" "--frames" run --frames
wbad "run --screenshot twice" "--screenshot" run --screenshot a.png --screenshot b.png
wbad "run --frames --vsync off (the value is missing)" "--frames" run --frames --vsync off
wbad "run --seed 2147483647" "--seed" run --seed 2147483647
wbad "run --screenshot naming a directory: refused before a window" "--screenshot" \
    run --screenshot "$tmp/dir.png"
wbad "run --screenshot in a missing directory: refused before a window" "--screenshot" \
    run --screenshot /nonexistent-dir/x.png
wbad "--entities 0 (no mode: the window)" "--entities" --entities 0
wbad "--frames 10 stray (no mode: the window)" "stray" --frames 10 stray

# A slip of the keyboard: the nearest flag or mode is named.
bad "bench --entites: suggests --entities" "'--entites': did you mean --entities?" \
    bench --entites 1000 "${files[@]}"
bad "bench --fraems=5: suggests --frames" "'--fraems': did you mean --frames?" \
    bench --fraems=5 "${files[@]}"
bad "bench --inner-paralelism: suggests --inner-parallelism" "did you mean --inner-parallelism?" \
    bench --inner-paralelism on "${files[@]}"
bad "bench --vsync: the window's flag, named so" \
    "--vsync is a flag of particles, not of particles bench (see particles --help)" \
    bench --vsync off "${files[@]}"
bad "bench --qwerty: nothing near it" "unknown option '--qwerty' (see" \
    bench --qwerty off "${files[@]}"
wbad "run --csv: the bench's flag, named so" \
    "--csv is a flag of particles bench, not of particles run (see particles bench --help)" \
    run --csv "$tmp/out.csv"
bad "bnech: suggests the mode bench" "unknown mode 'bnech': did you mean bench?" bnech
wbad "run --entites: suggests --entities" "did you mean --entities?" run --entites 1000
wbad "run --vsnyc: suggests --vsync" "did you mean --vsync?" run --vsnyc off
# --window-args: the window's command line, headless (run.sh without a
# display); it comes first, and the window's values are still checked
# where the bench takes the flag.
bad "bench --window-args not first" "--window-args comes first" \
    bench --entities 1000 --window-args
bad "bench --window-args --vsync (its value missing)" "--vsync needs a value" \
    bench --window-args --vsync
bad "bench --window-args --entities 0" "--entities" bench --window-args --entities 0
# --baseline and --compare: refused where they would do nothing.
bad "bench --compare without --baseline" "--compare $tmp/x.json needs --baseline" \
    bench --compare "$tmp/x.json"
bad "bench --compare with a run flag" "--compare compares two files and runs nothing: --entities" \
    bench --baseline "$tmp/x.json" --compare "$tmp/x.json" --entities 1000
bad "bench --baseline --quiet" "which --quiet leaves out" \
    bench --baseline "$tmp/x.json" --quiet "${files[@]}"
bad "bench --print-dag --baseline" "--baseline does not apply" \
    bench --print-dag --baseline "$tmp/x.json"
# Counts in the forms people type; the rest refused naming the forms.
bad "--entities 50,000: a comma is no thousands separator" "write the count as 50000 or 50_000" \
    bench --entities 50,000 "${files[@]}"
bad "--entities 1,000,000" "write the count as 1000000 or 1_000_000" \
    bench --entities 1,000,000 "${files[@]}"
wbad "run --entities 50,000" "write the count as 50000 or 50_000" run --entities 50,000
# "100,200" may be meant as the list of particles bench: the line says so.
wbad "run --entities 100,200" "(and a list of counts is for particles bench); write the count as \
100200 or 100_200" run --entities 100,200
bad "--entities 1.2345k: not a whole number" "'1.2345k' is not a whole number" \
    bench --entities 1.2345k "${files[@]}"
bad "--threads 1.5: not a whole number" "--threads: '1.5' is not a whole number" \
    bench --threads 1.5 "${files[@]}"
bad "--entities 2m: the forms named" "a k, M or G suffix (200k, 1.5M) or a power of ten (2e5)" \
    bench --entities 2m "${files[@]}"
bad "--entities 2G: out of range" "'2G' is out of range" bench --entities 2G "${files[@]}"
bad "--frames 1e30: out of range" "'1e30' is out of range" bench --frames 1e30 "${files[@]}"
bad "--seed 18446744073709551617 (past 64 bits)" "is out of range" \
    bench --seed 18446744073709551617 "${files[@]}"

# ---- good input ------------------------------------------------------------

# good NAME ARGS...: exit 0 and nothing on stderr; stdout kept in $out.
good() {
    local name=$1
    shift
    run "$@"
    good_why=()
    [ "$rc" -eq 0 ] || good_why+=("exit status $rc, not 0")
    if [ -s "$err" ]; then good_why+=("stderr not empty: '$(show "$err")'"); fi
}

report() {
    if [ ${#good_why[@]} -eq 0 ]; then
        ok "$1"
    else
        local IFS=';'
        fail "$1" "${good_why[*]}"
    fi
}

for h in --help -h help; do
    good "particles $h" "$h"
    for word in "usage: particles" bench --help --version; do
        grep -qF -e "$word" "$out" || good_why+=("stdout does not mention '$word'")
    done
    report "particles $h"
done

window_words=("usage: particles [run]" --entities --inner-parallelism --storage --layout --threads
    --seed --fixed-limit --kernel --world --frames --screenshot --vsync --assets --draw --size --help
    --color --zoom --center --rate
    Controls "show/hide" "toggle inner parallelism" "+ / -" Space "one frame while paused" "[ / ]"
    "new wave" "grid cell" "next colouring" "mouse wheel" "right or middle drag" "Z or Home"
    "left mouse button" particles-YYYYmmdd-HHMMSS.png Esc
    "summary line" "Exit status" "particles bench" SDL_VIDEODRIVER=offscreen)
if [ -n "$has_window" ]; then
    no_display=1
    for args in "--help" "run --help" "run -h" "--entities 1000 --help"; do
        # shellcheck disable=SC2086 # the words are the arguments
        good "particles $args" $args
        for word in "${window_words[@]}"; do
            grep -qF -e "$word" "$out" || good_why+=("stdout does not mention '$word'")
        done
        report "particles $args (the window's options and controls)"
    done
    # Every key of docs/window.md's controls table (the backquoted words of
    # its first column) has a row of the Controls in --help: a word of the
    # row's key column (its first 21 characters after the indent).
    doc=$(dirname "$0")/../docs/window.md
    good "particles --help names every key of docs/window.md" --help
    keys=$(sed -n '/^## Controls/,/^## /p' "$doc" | awk -F'|' '/^\| `/ { print $2 }' |
        grep -o '`[^`]*`' | tr -d '`' | sort -u)
    column=$(sed -n '/^Controls:/,/^$/p' "$out" | grep -E '^  [^ ]' | cut -c3-23)
    [ "$(echo "$keys" | wc -w)" -ge 20 ] || good_why+=("only $(echo "$keys" | wc -w) keys read from $doc")
    for k in $keys; do
        printf '%s\n' "$column" | grep -qE -- "(^|[^[:alnum:]])$(printf '%s' "$k" | sed 's/[][+.*^$\\/-]/\\&/g')([^[:alnum:]]|$)" ||
            good_why+=("no row of --help's Controls for the key '$k'")
    done
    report "particles --help names every key of docs/window.md"
    no_display=
else
    skip "particles run --help" "built without the window mode"
fi

all_options=(--entities --inner-parallelism --storage --layout --threads --repeat --seed --frames
    --fixed-limit --kernel --world --csv --json --chart --quiet --cpu-probe --print-dag --weak
    --systems --help)
for h in --help -h; do
    good "particles bench $h" bench "$h"
    for opt in "${all_options[@]}"; do
        grep -qF -e "$opt" "$out" || good_why+=("stdout does not mention $opt")
    done
    report "particles bench $h"
done

# --help and --version on a full or closed standard output: an error, not 0.
for words in "--help" "--version" "bench --help" "run --help"; do
    [ "$words" = "run --help" ] && [ -z "$has_window" ] && continue
    if [ -w /dev/full ]; then
        # shellcheck disable=SC2086 # the words are split on purpose
        "$bin" $words >/dev/full 2>"$err"
        r=$?
        if [ $r -eq 1 ] && grep -q 'writing standard output failed' "$err"; then
            ok "particles $words >/dev/full: exit 1"
        else
            fail "particles $words >/dev/full" "exit $r: '$(show "$err")'"
        fi
    fi
    # shellcheck disable=SC2086
    "$bin" $words >&- 2>"$err"
    r=$?
    if [ $r -eq 2 ] && grep -q 'standard output is closed' "$err"; then
        ok "particles $words >&-: exit 2"
    else
        fail "particles $words >&-" "exit $r: '$(show "$err")'"
    fi
done

good "particles --version" --version
grep -qE '^particles [^ ]+$' "$out" || good_why+=("stdout is '$(show "$out")', not 'particles VERSION'")
[ "$(wc -l <"$out")" -eq 1 ] || good_why+=("stdout is not one line")
report "particles --version"

# The dot text of src/ecs/inspect.c: nodes 'sN [label="NAME\n...', edges
# '  sA -> sB;'.
good "bench --print-dag" bench --print-dag
node() {
    sed -n "s/^  s\([0-9][0-9]*\) \[label=\"$1\\\\n.*/\1/p" "$out"
}
grep -q '^digraph ' "$out" || good_why+=("stdout does not start a digraph")
[ "$(tail -n 1 "$out")" = "}" ] || good_why+=("the digraph is not closed")
for edge in fade:render life:fade acceleration:velocity; do
    from=$(node "${edge%%:*}")
    to=$(node "${edge##*:}")
    if [ -z "$from" ] || [ -z "$to" ]; then
        good_why+=("no node labelled ${edge%%:*} or ${edge##*:}")
    elif ! grep -qxF "  s$from -> s$to;" "$out"; then
        good_why+=("no edge ${edge%%:*} (s$from) -> ${edge##*:} (s$to)")
    fi
done
report "bench --print-dag (fade -> render, life -> fade)"

# --kernel, --loops and --world: the bench names them; every kernel and
# loop level ends on the same state (the last column of the per-system
# table is the final hash).
hashes=
for k in scalar auto; do
    good "bench --kernel $k --loops $k --world 720x450" bench --entities 20000 --frames 20 \
        --repeat 1 --inner-parallelism on --storage fixed --layout soa --kernel $k --loops $k \
        --world 720x450
    grep -qE "collision kernel: (scalar|avx2|avx512) \| loops: (scalar|avx2|avx512) \| world 720x450" "$out" ||
        good_why+=("stdout does not name the kernel, the loops and the world")
    grep -qxF "cpu speed against the fastest CPU (1.00), each CPU timed 200 ms at once in two loops: chain = dependent multiply-adds, sweep = loads and stores over 256 KiB:" "$out" ||
        good_why+=("stdout lacks the cpu speed heading")
    for when in "before the runs" "after repeat 1"; do
        grep -qE "^  $when: +chain( cpu[0-9]+ [01][.][0-9][0-9])+ \| sweep( cpu[0-9]+ [01][.][0-9][0-9])+ \| fastest [0-9]+ M steps/s, [0-9.]+ GB/s$" "$out" ||
            good_why+=("stdout lacks the cpu speeds $when")
    done
    # The machine check: one WARNING line where the probes found the CPUs
    # unequal or the machine busy, none otherwise; no goal lines.
    warn=$(grep -c '^WARNING: ' "$out")
    [ "$warn" -le 1 ] || good_why+=("$warn warning lines")
    [ "$warn" -eq 0 ] || grep -qE '^WARNING: the (CPUs were unequal|machine was busy) .* during the runs: this run.s timings and their ratios are unreliable; rerun on a quiet machine$' "$out" ||
        good_why+=("the warning line is '$(grep '^WARNING' "$out")'")
    ! grep -qE 'PASS|MISS|goals' "$out" || good_why+=("the developers' goals are printed")
    [ "$k" != scalar ] || grep -qF "collision kernel: scalar | loops: scalar" "$out" ||
        good_why+=("--kernel scalar --loops scalar not named scalar")
    hashes="$hashes $(awk '$1 == 20000 && $2 == "on" { print $NF }' "$out")"
    report "bench --kernel $k --world 720x450"
done
good_why=()
set -- $hashes
if [ $# -ne 2 ] || [ "$1" != "$2" ]; then good_why+=("final hashes differ: '$hashes'"); fi
report "bench: kernels scalar and auto end on the same hash"

# A unique prefix of a long flag is that flag (--help says so).
rm -f "$tmp"/p.*
good "bench --ent 3000 --fr 5 (prefixes)" bench --ent 3000 --fr 5 --repea 1 --inner on --stor fixed \
    --lay soa --qui --csv "$tmp/p.csv"
rows=$(awk -F, 'NR > 1 && $1 == 3000' "$tmp/p.csv" 2>/dev/null | wc -l)
[ "$rows" -eq 1 ] || good_why+=("want one row for 3000 particles in p.csv, got $rows")
report "bench: unique prefixes taken as their flags"

# --threads 1..2,4: the counts 1, 2 and 4, each a configuration, in the
# order given, every repeat of each.
rm -f "$tmp"/t.*
good "bench --threads 1..2,4" bench --threads 1..2,4 --entities 300 --frames 2 --repeat 2 \
    --inner on --storage fixed --layout thesis --quiet --csv "$tmp/t.csv"
got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "threads") c = i; next }
    { printf "%s%s", sep, $c; sep = "," }' "$tmp/t.csv" 2>/dev/null)
[ "$got" = "1,2,4,1,2,4" ] || good_why+=("want threads 1,2,4,1,2,4 in t.csv's rows, got '$got'")
report "bench: --threads 1..2,4 runs 1, 2 and 4 threads, interleaved"

# A tiny real run: 2 counts x 2 IP x 2 storage x 2 layouts x 2 repeats =
# 32 runs (both layouts by default), one final hash per count.
rm -f "$tmp"/a.* "$tmp"/*.tmp
good "bench tiny run" bench --entities 5000,6000 --frames 30 --repeat 2 --threads 2 --quiet \
    --csv "$tmp/a.csv" --json "$tmp/a.json"
if [ -s "$out" ]; then good_why+=("--quiet but stdout has '$(show "$out")'"); fi
report "bench tiny run: exit 0, --quiet prints nothing"

good_why=()
if [ ! -s "$tmp/a.csv" ]; then
    good_why+=("no a.csv")
else
    # Columns found by name in the header.
    csv_why=$(awk -F, '
        NR == 1 {
            for (i = 1; i <= NF; i++) col[$i] = i
            split("count inner_parallelism storage layout systems repeat frames final_hash hash_frame100 half_dead_frame hash_half_dead", want, " ")
            for (k in want) if (!(want[k] in col)) { print "no column " want[k]; bad = 1 }
            if (bad) exit
            next
        }
        {
            if (NF != fields && NR > 2) print "row " NR - 1 " has " NF " fields, row 1 " fields
            if (NR == 2) fields = NF
            rows++
            c = $col["count"]
            key = c "," $col["inner_parallelism"] "," $col["storage"] "," $col["layout"] "," $col["repeat"]
            if (key in seen) print "configuration " key " twice"
            seen[key] = 1
            ip[$col["inner_parallelism"]] = 1
            st[$col["storage"]] = 1
            lay[$col["layout"]] = 1
            if ($col["systems"] != "all") print "row " NR - 1 ": systems " $col["systems"] ", not all"
            if ($col["frames"] != 30) print "row " NR - 1 ": frames " $col["frames"] ", not 30"
            if (!(c in hash)) hash[c] = $col["final_hash"]
            else if (hash[c] != $col["final_hash"])
                print "count " c ": hash " $col["final_hash"] " differs from " hash[c]
            if ($col["final_hash"] !~ /^[0-9a-f]+$/) print "row " NR - 1 ": hash is \"" $col["final_hash"] "\""
        }
        END {
            if (bad) exit
            if (rows != 32) print rows " rows, not 32"
            if (!("5000" in hash) || !("6000" in hash)) print "counts are not 5000 and 6000"
            if (!("on" in ip) || !("off" in ip)) print "inner_parallelism is not on and off"
            if (!("fixed" in st) || !("dynamic" in st)) print "storage is not fixed and dynamic"
            if (!("soa" in lay) || !("thesis" in lay)) print "layout is not soa and thesis"
        }' "$tmp/a.csv" | head -n 5 | paste -sd ';')
    [ -z "$csv_why" ] || good_why+=("$csv_why")
fi
report "bench tiny run: CSV header + 32 rows (both layouts), one hash per count, frames 30"

good_why=()
if ! command -v python3 >/dev/null 2>&1; then
    good_why+=("python3 not found: cannot check the JSON")
elif ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/a.json" 2>"$tmp/py.err"; then
    good_why+=("a.json is not valid JSON: $(tail -n 1 "$tmp/py.err")")
else
    runs=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["runs"]))' \
        "$tmp/a.json" 2>&1)
    [ "$runs" = 32 ] || good_why+=("runs: $runs, not 32")
fi
report "bench tiny run: JSON valid with 32 runs"

# --cpu-probe (default on): every CPU the bench may use, before the runs
# and after each of the 2 repeats ("after" is the last), each speed of
# both loops in (0, 1] and the fastest at 1.
good_why=()
cpus=$(python3 -c 'import os; print(" ".join(map(str, sorted(os.sched_getaffinity(0))[:64])))')
speed_why=$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["machine"]["cpu_speed"]
want = [int(x) for x in sys.argv[2].split()]
assert c["probe_ms"] == 200, c
assert len(c["after_each_repeat"]) == 2, c
assert c["after"] == c["after_each_repeat"][-1], c
for p in [c["before"]] + c["after_each_repeat"]:
    assert p["fastest_steps_per_s"] > 0 and p["fastest_sweep_bytes_per_s"] > 0, p
    s = p["cpus"]
    assert [x["cpu"] for x in s] == want, (s, want)
    for k in ("speed", "sweep_speed"):
        assert all(0 < x[k] <= 1 for x in s), (k, s)
        assert max(x[k] for x in s) == 1, (k, s)
' "$tmp/a.json" "$cpus" 2>&1 | tail -n 1)
[ -z "$speed_why" ] || good_why+=("cpu_speed: $speed_why")
report "bench tiny run: JSON cpu_speed before and after each repeat for CPUs $cpus"

# More than 8 repeats: the probe before the runs, then only the slowest
# probe after a repeat (if any CPU read below 1.00) and the last one.
good "bench --repeat 9 --cpu-probe 5" bench --entities 300 --frames 2 --repeat 9 --threads 2 \
    --inner-parallelism on --storage fixed --cpu-probe 5
n=$(grep -cE "^  after repeat [0-9]+: " "$out")
grep -qE "^  before the runs: " "$out" || good_why+=("no probe before the runs")
grep -qE "^  after repeat 9: " "$out" || good_why+=("no probe after repeat 9")
[ "$n" -ge 1 ] && [ "$n" -le 2 ] || good_why+=("$n probes after repeats listed, want 1 or 2")
report "bench --repeat 9: the probes listed are before, the slowest and the last"

good "bench --cpu-probe 0" bench --entities 300 --frames 3 --repeat 1 --threads 2 \
    --inner-parallelism on --storage fixed --cpu-probe 0 --json "$tmp/np.json"
grep -q "^machine: " "$out" || good_why+=("no header on stdout")
! grep -q "cpu speed" "$out" || good_why+=("stdout has '$(grep "cpu speed" "$out" | head -n 1)'")
python3 -c 'import json,sys; assert "cpu_speed" not in json.load(open(sys.argv[1]))["machine"]' \
    "$tmp/np.json" 2>/dev/null || good_why+=("np.json has a cpu_speed")
report "bench --cpu-probe 0: no speeds printed or written"

good_why=()
left=$(cd "$tmp" && ls -d ./*.tmp particles-chart-* 2>/dev/null | tr '\n' ' ')
[ -z "$left" ] || good_why+=("left behind: $left")
report "bench tiny run: no *.tmp left"

# Counts as people type them: 2k, 1.5e3, 2_500, and 1e1 frames.
good "bench --entities 2k,1.5e3,2_500 --frames 1e1" bench --entities 2k,1.5e3,2_500 \
    --frames 1e1 --repeat 1 --threads 2 --inner-parallelism on --storage fixed --layout soa --quiet \
    --csv "$tmp/n.csv"
rows=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "frames") f = i; next }
    { print $1 ":" $f }' "$tmp/n.csv" 2>/dev/null | paste -sd ' ')
[ "$rows" = "2000:10 1500:10 2500:10" ] || good_why+=("counts:frames rows '$rows'")
report "bench --entities 2k,1.5e3,2_500 --frames 1e1: 2000, 1500, 2500 particles, 10 frames"

# --window-args: the window's own flags (a prefix, =, or the value apart)
# left out and named in one line on stderr; the simulation's flags kept,
# the quick benchmark's defaults (one count, IP off and on, 1 repeat) for
# the rest.
run bench --window-args --vsync off --entities 300 --siz=800x600 --frames 3 --threads 2 \
    --storage fixed --screenshot x.png --quiet --csv "$tmp/w.csv"
good_why=()
[ "$rc" -eq 0 ] || good_why+=("exit status $rc, not 0")
[ "$(cat "$err")" = "particles bench: left out, for the window only: --vsync off --siz=800x600 --screenshot x.png" ] ||
    good_why+=("stderr is '$(show "$err")'")
rows=$(awk -F, 'NR > 1 { print $1 "," $2 "," $3 "," $4 }' "$tmp/w.csv" 2>/dev/null | sort | paste -sd ' ')
[ "$rows" = "300,off,fixed,soa 300,off,fixed,thesis 300,on,fixed,soa 300,on,fixed,thesis" ] ||
    good_why+=("runs: '$rows'")
report "bench --window-args: the window's flags left out and named, the rest run once"

# "both" in the bench's lists, as its --help offers.
good "bench --inner-parallelism both --storage both --layout both" bench --inner-parallelism both \
    --storage both --layout both --entities 300 --frames 3 --repeat 1 --threads 2 --quiet \
    --csv "$tmp/b.csv"
rows=$(awk -F, 'NR > 1 { print $2 "," $3 "," $4 }' "$tmp/b.csv" 2>/dev/null | sort | paste -sd ' ')
[ "$rows" = "off,dynamic,soa off,dynamic,thesis off,fixed,soa off,fixed,thesis on,dynamic,soa on,dynamic,thesis on,fixed,soa on,fixed,thesis" ] ||
    good_why+=("configurations: '$rows'")
report "bench --inner-parallelism both --storage both --layout both: the eight configurations"

# The layouts store the components apart or interleaved: the same state.
# Past frame 100 with particles alive, soa and thesis agree on every hash,
# the tables compare them (Table 3) and the determinism check covers both.
good "bench --layout soa,thesis --frames 110" bench --layout soa,thesis --entities 3000 \
    --frames 110 --repeat 1 --threads 2 --inner-parallelism on --storage fixed,dynamic \
    --cpu-probe 0 --csv "$tmp/l.csv" --json "$tmp/l.json"
hashes=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { print $c["layout"] " " $c["hash_frame100"] " " $c["final_hash"] }' "$tmp/l.csv" 2>/dev/null)
[ "$(echo "$hashes" | awk '{ print $1 }' | sort | paste -sd ' ')" = "soa soa thesis thesis" ] ||
    good_why+=("layouts in l.csv: '$hashes'")
[ "$(echo "$hashes" | awk 'length($2) == 16 { print $2 " " $3 }' | sort -u | wc -l)" -eq 1 ] ||
    good_why+=("the hashes differ across layouts (or are missing): '$hashes'")
grep -q '^Table 3. Layout: ' "$out" || good_why+=("no Table 3")
[ "$(grep -cE '^ +3000  on   (fixed|dynamic) .* \| +[0-9.]+ +[0-9.]+ +[-+][0-9.]+ %$' "$out")" -eq 2 ] ||
    good_why+=("Table 3 lacks a row per storage: '$(grep -A4 '^Table 3' "$out" | tr '\n' '|')'")
grep -q '^determinism: OK: .* its 4 run(s) (every IP, storage, layout,' "$out" ||
    good_why+=("the determinism line is '$(grep '^determinism' "$out")'")
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
assert d["options"]["layout"] == ["soa", "thesis"], d["options"]
assert sorted(r["layout"] for r in d["runs"]) == ["soa", "soa", "thesis", "thesis"]
assert sorted(r["layout"] for r in d["summary"]) == ["soa", "soa", "thesis", "thesis"]' \
    "$tmp/l.json" 2>/dev/null || good_why+=("l.json lacks the layouts")
report "bench --layout soa,thesis: the same hashes in both layouts, Table 3, the JSON's layout"

# --systems: only the systems listed run; the others take no time.
good "bench --systems collision" bench --systems collision --entities 3000 --frames 20 \
    --repeat 1 --threads 2 --inner-parallelism on --storage fixed --layout soa --cpu-probe 0 \
    --csv "$tmp/s.csv" --json "$tmp/s.json"
grep -qxF "systems: collision (the others disabled from the first frame: --systems)" "$out" ||
    good_why+=("no systems line under the header")
head=$(grep -A1 '^Per system' "$out" | tail -n 1)
[[ $head == *" collision "* ]] && [[ $head != *velocity* ]] && [[ $head != *render* ]] ||
    good_why+=("the per-system table's head is '$head'")
sys_why=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { if ($c["systems"] != "collision") print "systems " $c["systems"]
      if (!($c["ms_collision"] > 0)) print "ms_collision " $c["ms_collision"]
      split("acceleration velocity keep_in_bounds spatial_partition solve_contacts render life fade", o, " ")
      for (k in o) if ($c["ms_" o[k]] != 0) print "ms_" o[k] " " $c["ms_" o[k]] }
    END { if (NR != 2) print NR - 1 " rows" }' "$tmp/s.csv" 2>&1 | paste -sd ';')
[ -z "$sys_why" ] || good_why+=("s.csv: $sys_why")
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
assert d["options"]["systems"] == ["collision"], d["options"]
ms = d["runs"][0]["systems_ms"]
assert ms["collision"] > 0 and all(v == 0 for k, v in ms.items() if k != "collision"), ms' \
    "$tmp/s.json" 2>/dev/null || good_why+=("s.json: systems not [\"collision\"] or other systems timed")
report "bench --systems collision: the systems line, the CSV/JSON systems field, only collision timed"

good "bench --help documents the seed range and the exit statuses" bench --help
for word in 2147483646 "chart failed (CSV and JSON were written)" "128+N" "half of them have died"; do
    grep -qF -e "$word" "$out" || good_why+=("--help does not say '$word'")
done
report "bench --help: seed range, chart status, signals, the determinism check"

# The determinism check means something: runs to the end leave nothing
# alive, so their final hash is the same for every count; the hashes the
# check compares (frame 100, half dead) differ by count and seed and are
# present in every row.
det_why=()
for seed in 1 2; do
    "$bin" bench --entities 200,300 --repeat 1 --threads 2 --quiet --seed $seed \
        --csv "$tmp/d$seed.csv" --json "$tmp/d$seed.json" >"$out" 2>"$err" ||
        det_why+=("seed $seed: exit $? $(show "$err")")
done
col() { awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
    { print $c }' "$1" | sort -u | paste -sd ' '; }
if [ ${#det_why[@]} -eq 0 ]; then
    [ "$(col "$tmp/d1.csv" final_hash | wc -w)" -eq 1 ] ||
        det_why+=("final hashes differ by count: the premise changed")
    for c in hash_frame100 hash_half_dead half_dead_frame; do
        v1=$(col "$tmp/d1.csv" $c)
        [ -n "$v1" ] && [ "$(echo "$v1" | wc -w)" -eq 2 ] || det_why+=("$c: '$v1', not one per count")
        [ "$c" = half_dead_frame ] || [ "$v1" != "$(col "$tmp/d2.csv" $c)" ] ||
            det_why+=("$c is the same for seeds 1 and 2")
    done
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"]
assert all(x["hash_half_dead"] and x["hash_frame100"] for x in r), r' "$tmp/d1.json" 2>/dev/null ||
        det_why+=("the JSON runs lack hash_half_dead or hash_frame100")
fi
good_why=("${det_why[@]}")
report "bench determinism: checked on hashes with particles alive, per seed and count"

if command -v gnuplot >/dev/null 2>&1; then
    for ext in png svg; do
        f=$tmp/c.$ext
        rm -f "$f"
        good "bench --chart c.$ext" bench --entities 2000,3000 --inner-parallelism on \
            --storage dynamic --frames 10 --repeat 2 --threads 2 --quiet --chart "$f"
        if [ ! -s "$f" ]; then
            good_why+=("c.$ext missing or empty")
        elif [ $ext = png ]; then
            sig=$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')
            [ "$sig" = 89504e470d0a1a0a ] || good_why+=("c.png starts with $sig, not the PNG signature")
        else
            grep -q '<svg' "$f" || good_why+=("c.svg does not contain <svg")
        fi
        left=$(cd "$tmp" && ls -d ./*.tmp particles-chart-* 2>/dev/null | tr '\n' ' ')
        [ -z "$left" ] || good_why+=("left behind: $left")
        report "bench --chart c.$ext"
    done
else
    echo "skip bench --chart: gnuplot is not installed"
fi

echo "$((cases - failed)) of $cases cases passed, $skipped skipped"
[ "$failed" -eq 0 ]
