#!/usr/bin/env bash
# test_outputs.sh - the files `particles bench` writes, and its signals.
#
#   bash tests/test_outputs.sh path/to/particles
#
# Each case is one rule of the output module (out.h): planted links at predictable
# temporary names, a user's own FILE.tmp, FIFO, device, '-' and
# /proc/self/fd/1 targets, a symlinked target (dangling too), one file
# named by two flags, a read-only target's mode, a 255-byte name, another
# user's file in a sticky directory (root only), a chart that fails after
# the runs (fake gnuplot), one cut short, one on a full disk (ulimit -f),
# one named with a line break, gnuplot's lookup, SIGINT/SIGTERM/SIGHUP during
# a long run, one target that cannot be replaced when the others were, a
# reader that goes away (| head -c 10), a closed or full standard output.
# Synchronisation is on files, with bounded loops.
# Prints one line per case and exits 1 if any case failed.
set -u

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH_TO_PARTICLES" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/particles-out.XXXXXX") || exit 2
cleanup() {
    [ -n "${pid:-}" ] && kill -KILL "$pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
pid=
export TMPDIR=$tmp/tmpdir # anything the program leaves in TMPDIR shows up
mkdir "$TMPDIR"
cd "$tmp" || exit 2

failed=0
cases=0
ok() { cases=$((cases + 1)); echo "ok   $1"; }
fail() { cases=$((cases + 1)); failed=$((failed + 1)); echo "FAIL $1: $2"; }
# check NAME REASON...: ok when no reason is given.
check() {
    local name=$1
    shift
    local why=()
    for r in "$@"; do [ -n "$r" ] && why+=("$r"); done
    if [ ${#why[@]} -eq 0 ]; then ok "$name"; else local IFS=';'; fail "$name" "${why[*]}"; fi
}

tiny=(bench --entities 300 --frames 5 --repeat 1 --threads 2 --inner-parallelism on --layout soa
    --storage dynamic --quiet)

# Files under $tmp (hidden ones too) but the scratch ones: to spot a
# temporary left behind or a file nobody named.
listing() { (cd "$tmp" && find . -path ./tmpdir -prune -o -path ./w -prune -o -print | sort); }
csv_rows() { awk -F, 'NR == 1 && $1 == "count" { h = 1; next } h && NF > 10 { n++ } END { print n + 0 }' "$1"; }
valid_json() { python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null; }
mode_of() { stat -c %a "$1"; }
leftover_temps() { (cd "$1" && ls -A | grep -E '^\.[^.].*\.[A-Za-z0-9]{6}$|\.tmp$' | grep -v '^keep' | tr '\n' ' '); }
empty_tmpdir() { [ -z "$(ls -A "$TMPDIR")" ] || echo "left in TMPDIR: $(ls -A "$TMPDIR")"; }

# ---- planted links at every predictable temporary name ----------------------
rm -rf w && mkdir w && cd w || exit 2
echo victim >victim && echo victim2 >victim2
ln -s victim out.csv.tmp && ln -s victim2 out.json.tmp && ln -s victim .out.csv.tmp
"$bin" "${tiny[@]}" --csv out.csv --json out.json >../o 2>../e
rc=$?
check "planted links at out.csv.tmp, out.json.tmp, .out.csv.tmp: nothing else changes" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -c 200 ../e)")" \
    "$([ "$(cat victim)" = victim ] && [ "$(cat victim2)" = victim2 ] || echo 'a victim changed')" \
    "$([ -L out.csv.tmp ] && [ -L out.json.tmp ] && [ -L .out.csv.tmp ] || echo 'a planted link was removed')" \
    "$([ "$(csv_rows out.csv)" = 1 ] && valid_json out.json || echo 'out.csv/out.json not written')" \
    "$([ "$(ls -A | wc -l)" -eq 7 ] || echo "files now: $(ls -A | tr '\n' ' ')")"
cd "$tmp" || exit 2

# The user's own FILE.tmp is theirs; and it may itself be an output.
rm -rf w && mkdir w && cd w || exit 2
echo mine >out.csv.tmp
"$bin" "${tiny[@]}" --csv out.csv >../o 2>../e
r1=$?
"$bin" "${tiny[@]}" --json j --csv j.tmp >../o 2>../e
r2=$?
check "a user's own out.csv.tmp is kept; --json j --csv j.tmp writes both" \
    "$([ $r1 -eq 0 ] && [ $r2 -eq 0 ] || echo "exit $r1/$r2: $(head -c 200 ../e)")" \
    "$([ "$(cat out.csv.tmp)" = mine ] || echo 'out.csv.tmp was touched')" \
    "$(valid_json j && [ "$(csv_rows j.tmp)" = 1 ] || echo 'j or j.tmp lost')"
cd "$tmp" || exit 2

# ---- targets that are not regular files -------------------------------------
rm -rf w && mkdir w && cd w || exit 2
mkfifo fifo.csv
timeout 60 cat fifo.csv >got.csv &
reader=$!
"$bin" "${tiny[@]}" --csv fifo.csv --json out.json >../o 2>../e
rc=$?
# A reader still blocked after the run means nothing opened the FIFO: end it.
[ -p fifo.csv ] && [ $rc -ne 0 ] && exec 3<>fifo.csv && exec 3>&-
wait $reader
check "FIFO target: written in place, the reader gets the whole CSV" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -c 200 ../e)")" \
    "$([ -p fifo.csv ] || echo 'fifo.csv is no longer a FIFO')" \
    "$([ "$(csv_rows got.csv)" = 1 ] && [ "$(tail -c 1 got.csv | od -An -tx1 | tr -d ' ')" = 0a ] || echo "reader got: $(head -c 100 got.csv)")"
cd "$tmp" || exit 2

rm -rf w && mkdir w && cd w || exit 2
ln -s /dev/null null.csv
"$bin" "${tiny[@]}" --csv null.csv >../o 2>../e
rc=$?
check "a device through a link: written in place, the link kept" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -c 200 ../e)")" \
    "$([ -L null.csv ] && [ -c null.csv ] || echo 'null.csv was replaced')" \
    "$([ -c /dev/null ] || echo '/dev/null is no longer a device')"
cd "$tmp" || exit 2

rm -rf w && mkdir w && cd w || exit 2
"$bin" "${tiny[@]}" --csv - --json - >../o 2>../e0
r0=$?
"$bin" "${tiny[@]}" --csv - --json out.json >out.csv 2>../e
r1=$?
ln -s /proc/self/fd/1 mystdout # what /dev/stdout is
"$bin" "${tiny[@]}" --json mystdout >std.json 2>../e
r2=$?
check "'-' and a link to /proc/self/fd/1 are standard output" \
    "$([ $r0 -eq 2 ] && grep -q 'same file' ../e0 || echo "--csv - --json -: exit $r0, not 2 naming the same file")" \
    "$([ $r1 -eq 0 ] && [ $r2 -eq 0 ] || echo "exit $r1/$r2: $(head -c 200 ../e)")" \
    "$([ "$(csv_rows out.csv)" = 1 ] && valid_json out.json || echo 'stdout is not the CSV')" \
    "$([ -e ./- ] && echo "a file named '-' was created")" \
    "$(valid_json std.json || echo 'stdout is not the JSON')" \
    "$([ -L mystdout ] || echo 'the link to /proc/self/fd/1 was replaced')"
cd "$tmp" || exit 2

# ---- symbolic links, modes ---------------------------------------------------
rm -rf w && mkdir -p w/real && cd w || exit 2
echo old >real/data.csv && chmod 640 real/data.csv
ln -s real/data.csv link.csv
ln -s real/new.json dangling.json
"$bin" "${tiny[@]}" --csv link.csv --json dangling.json >../o 2>../e
rc=$?
check "a symlinked target: the link stays, the file it names is replaced, mode kept" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -c 200 ../e)")" \
    "$([ -L link.csv ] && [ "$(readlink link.csv)" = real/data.csv ] || echo 'link.csv is no longer the link')" \
    "$([ "$(csv_rows real/data.csv)" = 1 ] || echo 'real/data.csv not replaced')" \
    "$([ "$(mode_of real/data.csv)" = 640 ] || echo "mode $(mode_of real/data.csv), not 640")" \
    "$([ -L dangling.json ] && valid_json real/new.json || echo 'the dangling link did not get its file')" \
    "$(t=$(leftover_temps real); [ -z "$t" ] || echo "left: $t")"
cd "$tmp" || exit 2

rm -rf w && mkdir w && cd w || exit 2
echo old >ro.csv && chmod 444 ro.csv
"$bin" "${tiny[@]}" --csv ro.csv >../o 2>../e
rc=$?
if [ "$(id -u)" -eq 0 ]; then
    # root may write it, as a shell redirection would: the mode stays.
    check "a read-only target (root): replaced, still mode 444" \
        "$([ $rc -eq 0 ] || echo "exit $rc: $(head -c 200 ../e)")" \
        "$([ "$(mode_of ro.csv)" = 444 ] || echo "mode $(mode_of ro.csv), not 444")" \
        "$([ "$(csv_rows ro.csv)" = 1 ] || echo 'not replaced')"
else
    check "a read-only target: refused before the run, untouched" \
        "$([ $rc -eq 2 ] && grep -q -- '--csv ro.csv' ../e || echo "exit $rc: $(head -c 200 ../e)")" \
        "$([ "$(cat ro.csv)" = old ] || echo 'ro.csv changed')"
fi
cd "$tmp" || exit 2

# ---- one file, two spellings -------------------------------------------------
rm -rf w && mkdir w && cd w || exit 2
echo old >a.csv && ln a.csv hard.csv && ln -s a.csv soft.csv
same_why=()
for pair in "s.csv ./s.csv" "a.csv hard.csv" "a.csv soft.csv" "s.csv ../w/s.csv"; do
    set -- $pair
    "$bin" "${tiny[@]}" --csv "$1" --json "$2" >../o 2>../e
    rc=$?
    if [ $rc -ne 2 ] || [ "$(wc -l <../e)" -ne 1 ] || ! grep -q 'same file' ../e; then
        same_why+=("--csv $1 --json $2: exit $rc: $(head -c 150 ../e)")
    fi
done
check "one file through two spellings is refused before anything runs" "${same_why[@]}" \
    "$([ "$(cat a.csv)" = old ] || echo 'a.csv changed')" \
    "$([ "$(ls -A | tr '\n' ' ')" = "a.csv hard.csv soft.csv " ] || echo "files now: $(ls -A | tr '\n' ' ')")"
cd "$tmp" || exit 2

# ---- names as long as a directory takes ---------------------------------------
# 255 bytes (NAME_MAX): the temporary beside it and the replaced file kept
# during the commit must still be names the directory takes.
rm -rf w && mkdir w && cd w || exit 2
long_name=$(printf 'a%.0s' $(seq 1 251)).csv
long_why=()
for pass in new replace; do
    "$bin" "${tiny[@]}" --csv "$long_name" >../o 2>../e
    rc=$?
    [ $rc -eq 0 ] && [ "$(csv_rows "$long_name")" = 1 ] ||
        long_why+=("$pass: exit $rc: $(head -c 200 ../e)")
done
check "a --csv name of 255 bytes: written, then replaced" "${long_why[@]}" \
    "$([ "$(ls -A | tr '\n' ' ')" = "$long_name " ] || echo "files now: $(ls -A | tr '\n' ' ')")"
cd "$tmp" || exit 2

# ---- another user's file in a sticky directory ---------------------------------
# Not replaceable there (nor would a link to it be removable): refused
# before any run, nothing left. Needs root, to run as another user.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
    rm -rf w && mkdir -m 1777 w && cd w || exit 2
    chmod 755 "$tmp"
    echo old >out.csv && chmod 666 out.csv
    setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$bin" "${tiny[@]}" \
        --csv out.csv >../o 2>../e
    rc=$?
    check "another user's file in a sticky directory: exit 2 naming --csv, nothing left" \
        "$([ $rc -eq 2 ] || echo "exit $rc, not 2")" \
        "$([ "$(wc -l <../e)" -eq 1 ] && grep -q -- '--csv out.csv: belongs to another user' ../e ||
            echo "stderr: $(head -c 200 ../e)")" \
        "$([ "$(cat out.csv)" = old ] || echo 'out.csv changed')" \
        "$([ "$(ls -A | tr '\n' ' ')" = "out.csv " ] || echo "files now: $(ls -A | tr '\n' ' ')")"
    chmod 700 "$tmp"
    cd "$tmp" || exit 2
fi

# ---- the chart ---------------------------------------------------------------
rm -rf w && mkdir -p w/fake w/fake2/gnuplot && cd w || exit 2
printf '#!/bin/sh\ncat >/dev/null\necho "fake gnuplot: cannot draw" >&2\nexit 1\n' >fake/gnuplot
chmod +x fake/gnuplot
echo oldcsv >out.csv && echo oldchart >c.png
PATH=$PWD/fake2:$PWD/fake "$bin" "${tiny[@]}" --csv out.csv --json out.json --chart c.png \
    >../o 2>../e
rc=$?
check "a chart failing after the runs: CSV and JSON written, chart kept, exit 3" \
    "$([ $rc -eq 3 ] || echo "exit $rc, not 3: $(head -c 300 ../e)")" \
    "$([ "$(csv_rows out.csv)" = 1 ] && valid_json out.json || echo 'CSV/JSON not written')" \
    "$([ "$(cat c.png)" = oldchart ] || echo 'c.png changed')" \
    "$(grep -q -- '--chart' ../e || echo 'stderr does not name --chart')" \
    "$(t=$(leftover_temps .); [ -z "$t" ] || echo "left: $t")" "$(empty_tmpdir)"
"$bin" --help >/dev/null
PATH= "$bin" "${tiny[@]}" --chart c.png >../o 2>../e
r1=$?
PATH=$PWD/fake2 "$bin" "${tiny[@]}" --chart c.png >../o 2>../e
r2=$?
check "gnuplot looked up as it is run: empty PATH, a directory named gnuplot" \
    "$([ $r1 -eq 2 ] && [ $r2 -eq 2 ] || echo "exit $r1/$r2, not 2")" \
    "$(grep -q 'gnuplot' ../e || echo 'stderr does not name gnuplot')"
# A gnuplot that exits 0 having written a cut-off image: the file stays.
mkdir fake3 && printf '#!/bin/sh\ncat >/dev/null\nprintf "\\211PNG\\r\\n\\032\\n"\nexit 0\n' >fake3/gnuplot
chmod +x fake3/gnuplot
PATH=$PWD/fake3:$PATH "$bin" "${tiny[@]}" --chart c.png >../o 2>../e
rc=$?
check "a chart gnuplot cut short (exit 0, no IEND chunk): exit 3, the old file kept" \
    "$([ $rc -eq 3 ] || echo "exit $rc, not 3: $(head -c 300 ../e)")" \
    "$([ "$(cat c.png)" = oldchart ] || echo 'c.png changed')" \
    "$(grep -q 'incomplete PNG' ../e || echo "stderr does not say incomplete: $(head -c 200 ../e)")" \
    "$(t=$(leftover_temps .); [ -z "$t" ] || echo "left: $t")"
# A name holding a line break is refused: pasted into gnuplot's script it
# would name another file (.victim) as the output and run what follows.
echo victim >.victim
"$bin" "${tiny[@]}" --chart ".victim
c.png" >../o 2>../e
rc=$?
check "a chart name with a line break: exit 2, one line naming --chart, no file touched" \
    "$([ $rc -eq 2 ] || echo "exit $rc, not 2")" \
    "$([ "$(wc -l <../e)" -eq 1 ] && grep -q -- '--chart' ../e || echo "stderr: $(head -c 200 ../e)")" \
    "$([ "$(cat .victim)" = victim ] && [ "$(cat c.png)" = oldchart ] || echo 'a file changed')"
if command -v gnuplot >/dev/null 2>&1; then
    # A file size limit stands in for a full disk: writes past 8 KiB fail
    # (SIGXFSZ ignored, so they return EFBIG); the image is larger.
    (trap '' XFSZ; ulimit -f 8; exec "$bin" "${tiny[@]}" --chart c.png) >../o 2>../e
    rc=$?
    check "a chart on a full disk: exit 3, one line naming --chart, the old file kept" \
        "$([ $rc -eq 3 ] || echo "exit $rc, not 3: $(head -c 300 ../e)")" \
        "$([ "$(cat c.png)" = oldchart ] || echo "c.png changed ($(wc -c <c.png) bytes)")" \
        "$(grep -q -- '--chart c.png: writing failed' ../e || echo "stderr: $(head -c 200 ../e)")" \
        "$(t=$(leftover_temps .); [ -z "$t" ] || echo "left: $t")"
    TMPDIR=$tmp/none "$bin" "${tiny[@]}" --chart c.svg >../o 2>../e
    rc=$?
    check "a chart with TMPDIR missing" \
        "$([ $rc -eq 0 ] || echo "exit $rc: $(head -c 200 ../e)")" \
        "$(grep -q '<svg' c.svg || echo 'c.svg is not an SVG')"
fi
cd "$tmp" || exit 2

# ---- signals during a long run -----------------------------------------------
long=(bench --entities 20000 --repeat 1000 --layout soa --threads 2 --inner-parallelism on --storage dynamic
    --quiet)
for sig in TERM INT HUP; do
    rm -rf w && mkdir w && cd w || exit 2
    echo oldcsv >out.csv && echo oldjson >out.json
    "$bin" "${long[@]}" --csv out.csv --json out.json >../o 2>../e &
    pid=$!
    # The temporaries exist once every target was checked, before the
    # first run: wait for them (bounded), then signal.
    for _ in $(seq 1 400); do
        [ "$(ls -A | grep -c '^\.out\.')" -ge 2 ] && break
        kill -0 $pid 2>/dev/null || break
        sleep 0.05
    done
    staged=$(ls -A | grep -c '^\.out\.')
    kill -"$sig" $pid
    # It stops at the next frame: give it a bounded time to go.
    for _ in $(seq 1 600); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done
    if kill -0 $pid 2>/dev/null; then kill -KILL $pid; fi
    wait $pid
    rc=$?
    pid=
    want=$((128 + $(kill -l "$sig")))
    check "SIG$sig during a long run: exit $want, no temporary, old files intact" \
        "$([ "$staged" -ge 2 ] || echo 'the temporaries never appeared')" \
        "$([ $rc -eq $want ] || echo "exit $rc, not $want")" \
        "$([ "$(cat out.csv)" = oldcsv ] && [ "$(cat out.json)" = oldjson ] || echo 'an old file changed')" \
        "$([ "$(ls -A | tr '\n' ' ')" = "out.csv out.json " ] || echo "files now: $(ls -A | tr '\n' ' ')")"
    cd "$tmp" || exit 2
done

# ---- one output that cannot be put in place: the others keep their content ---
rm -rf w && mkdir w && cd w || exit 2
echo oldcsv >out.csv && echo oldjson >out.json
"$bin" bench --entities 20000 --repeat 20 --layout soa --frames 60 --threads 2 --inner-parallelism on \
    --storage dynamic --quiet --csv out.csv --json out.json >../o 2>../e &
pid=$!
for _ in $(seq 1 400); do # staged (bounded), then out.json becomes a directory
    [ "$(ls -A | grep -c '^\.out\.')" -ge 2 ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.05
done
staged=$(ls -A | grep -c '^\.out\.')
rm out.json && mkdir out.json
wait $pid
rc=$?
pid=
check "--json's target turned into a directory mid-run: exit 1, out.csv keeps its old content" \
    "$([ "$staged" -ge 2 ] || echo 'the temporaries never appeared')" \
    "$([ $rc -eq 1 ] && grep -q -- '--json out.json: cannot put it in place' ../e || echo "exit $rc: $(head -c 200 ../e)")" \
    "$([ "$(cat out.csv)" = oldcsv ] || echo "out.csv now: $(head -c 60 out.csv)")" \
    "$([ "$(ls -A | tr '\n' ' ')" = "out.csv out.json " ] || echo "files now: $(ls -A | tr '\n' ' ')")"
cd "$tmp" || exit 2

# ---- standard output ---------------------------------------------------------
rm -rf w && mkdir w && cd w || exit 2
# 32 counts x 4 configurations: a JSON of ~170 KiB, more than a pipe
# holds, so the writer meets the closed pipe whatever the timing.
counts=$(seq -s, 100 131)
"$bin" bench --entities "$counts" --frames 2 --repeat 1 --layout soa --threads 1 --fixed-limit 200 \
    --quiet --json - --csv out.csv 2>../e | head -c 10 >head.out
rc=${PIPESTATUS[0]}
check "--json - | head -c 10: an orderly stop, the other files written" \
    "$([ $rc -eq 141 ] || echo "exit $rc, not 141")" \
    "$([ "$(head -c 1 head.out)" = '{' ] && [ "$(wc -c <head.out)" -eq 10 ] || echo "head got '$(cat head.out)'")" \
    "$([ -s ../e ] && echo "stderr: $(head -c 200 ../e)")" \
    "$([ "$(csv_rows out.csv)" = 128 ] || echo 'out.csv not written')" \
    "$([ "$(ls -A | tr '\n' ' ')" = "head.out out.csv " ] || echo "files now: $(ls -A | tr '\n' ' ')")"
"$bin" bench --entities 300 --frames 5 --repeat 1 --layout soa --threads 2 --csv out.csv 2>../e | head -c 10 >head.out
rc=${PIPESTATUS[0]}
check "bench tables | head -c 10: exit 0 or 141, files written, no message" \
    "$([ $rc -eq 0 ] || [ $rc -eq 141 ] || echo "exit $rc")" \
    "$([ "$(wc -c <head.out)" -eq 10 ] || echo 'head did not get 10 bytes')" \
    "$([ -s ../e ] && echo "stderr: $(head -c 200 ../e)")" \
    "$([ "$(csv_rows out.csv)" = 4 ] || echo 'out.csv not written')"
cd "$tmp" || exit 2

rm -rf w && mkdir w && cd w || exit 2
"$bin" bench --entities 300 --frames 5 --repeat 1 --layout soa --threads 2 --csv out.csv >&- 2>../e
r1=$?
"$bin" "${tiny[@]}" --csv out2.csv >&- 2>../e2
r2=$?
check "stdout closed (>&-): an error before any run; with --quiet the files are right" \
    "$([ $r1 -eq 2 ] && grep -q 'standard output is closed' ../e || echo "exit $r1: $(head -c 200 ../e)")" \
    "$([ -e out.csv ] && echo 'out.csv written although the run was refused')" \
    "$([ $r2 -eq 0 ] && [ "$(csv_rows out2.csv)" = 1 ] || echo "--quiet: exit $r2, out2.csv: $(head -c 80 out2.csv 2>/dev/null)")"
if [ -w /dev/full ]; then
    "$bin" bench --entities 300 --frames 5 --repeat 1 --layout soa --threads 2 --csv out3.csv >/dev/full 2>../e
    rc=$?
    check "stdout full (/dev/full): exit 1 naming standard output" \
        "$([ $rc -eq 1 ] && grep -q 'standard output' ../e || echo "exit $rc: $(head -c 200 ../e)")"
fi
cd "$tmp" || exit 2

echo "$((cases - failed)) of $cases cases passed"
[ "$failed" -eq 0 ]
