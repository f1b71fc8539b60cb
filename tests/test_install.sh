#!/usr/bin/env bash
# test_install.sh - `cmake --install` gives a working window mode: the
# binary under bin/ finds its shaders and font under share/particles with
# no --assets, from any working directory.
#
#   bash tests/test_install.sh path/to/build-dir
set -u
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
if [ -z "${DISPLAY:-}" ]; then
    echo "FAIL no DISPLAY: run this under xvfb-run (tests/run.sh does)"
    exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/particles-install.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; failed=$((failed + 1)); fi; }

cmake --install "$1" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1
check "cmake --install succeeds" '[ $? -eq 0 ]'
check "binary, shaders and font installed" \
    '[ -x "$tmp/prefix/bin/particles" ] && [ -f "$tmp/prefix/share/particles/shaders/particles.frag" ] &&
     [ -f "$tmp/prefix/share/particles/assets/DejaVuSans.ttf" ]'
mkdir "$tmp/elsewhere"
(cd "$tmp/elsewhere" && "$tmp/prefix/bin/particles" --entities 2000 --frames 3 --vsync off \
    --screenshot shot.png >"$tmp/out" 2>"$tmp/err")
rc=$?
check "installed window runs from another directory (exit $rc: $(head -c 200 "$tmp/err"))" \
    '[ $rc -eq 0 ] && grep -q "^frames 3," "$tmp/out" && [ -s "$tmp/elsewhere/shot.png" ]'
echo "$((3 - failed)) passed, $failed failed"
[ $failed -eq 0 ]
