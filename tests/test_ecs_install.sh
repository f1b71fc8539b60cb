#!/usr/bin/env bash
# test_ecs_install.sh - the ecs as a library: `cmake --install` into a
# temporary prefix gives libecs.a, ecs.h and ecs.pc; the documented example
# (the C block under "The ECS in one example", taken from docs/ecs.md
# itself so the page cannot rot) builds against that copy through
# pkg-config alone and prints what the page says it prints.
#
#   bash tests/test_ecs_install.sh BUILD_DIR docs/ecs.md C_COMPILER
set -u
if [ $# -ne 3 ] || [ ! -d "$1" ] || [ ! -f "$2" ]; then
    echo "usage: $0 BUILD_DIR DOC.md C_COMPILER" >&2
    exit 2
fi
build=$1 doc=$2 cc=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ecs-install.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0 total=0
check() {
    total=$((total + 1))
    if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; failed=$((failed + 1)); fi
}

cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1
check "cmake --install succeeds" '[ $? -eq 0 ]'
check "libecs.a, ecs.h and ecs.pc installed" \
    '[ -f "$tmp/prefix/lib/libecs.a" ] && [ -f "$tmp/prefix/include/ecs.h" ] &&
     [ -f "$tmp/prefix/lib/pkgconfig/ecs.pc" ]'

# The first ```c block after the heading, without its fences.
awk '/^## The ECS in one example/ {s = 1; next}
     s == 1 && /^```c$/ {s = 2; next}
     s == 2 && /^```$/ {exit}
     s == 2 {print}' "$doc" >"$tmp/example.c"
check "the page has the example ($(wc -l <"$tmp/example.c") lines)" '[ -s "$tmp/example.c" ] && grep -q "int main" "$tmp/example.c"'
# What it prints: the comment closing its printf (not fprintf) line, e.g. /* 13.00 18.00 */.
expected=$(sed -n 's|.*[^f]printf(.*/\* *\(.*[^ ]\) *\*/ *$|\1|p' "$tmp/example.c" | head -n 1)
check "the page states the expected output ('$expected')" '[ -n "$expected" ]'

export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs --static ecs 2>"$tmp/pc.err")
check "pkg-config finds ecs in the prefix ($flags)" \
    '[ -n "$flags" ] && [ "$(pkg-config --variable=libdir ecs)" -ef "$tmp/prefix/lib" ]'
# The example only: no include path or library from the source or build tree.
(cd "$tmp" && $cc -std=c11 -O2 example.c $flags -o example) >"$tmp/cc.log" 2>&1
rc=$?
check "the example builds against the installed copy (exit $rc: $(head -c 300 "$tmp/cc.log"))" '[ $rc -eq 0 ]'
out=$("$tmp/example" 2>&1)
rc=$?
check "the example runs and prints '$expected' (exit $rc, printed '$out')" \
    '[ $rc -eq 0 ] && [ "$out" = "$expected" ]'
echo "$((total - failed)) passed, $failed failed"
[ $failed -eq 0 ]
