#!/usr/bin/env bash
# test_repo_words.sh - the repository is documentation and code, not a
# record of how it was made: no tracked text file names a work period
# (its name, "stop 3"), a ticket number, a date of work,
# a helper agent, or tells of a noisy hour on the machine. Prints every
# offending file:line and fails; the git history keeps that story.
#
#   bash tests/test_repo_words.sh [REPO_ROOT]    (default: this checkout)
#
# It reads `git ls-files` (working-tree contents of the tracked files), so
# it needs a git checkout; CI always runs in one. This file is skipped: it
# holds the patterns. The two words most likely to be written by mistake
# are split here (a bracket in a pattern, a join in an example), so that
# this file does not carry them whole either.
set -u
root=${1:-"$(dirname "$0")/.."}
self=tests/test_repo_words.sh

if ! command -v git >/dev/null 2>&1; then
    echo "test_repo_words: git is not installed; this check reads the tracked files through git ls-files" >&2
    exit 1
fi
if ! top=$(git -C "$root" rev-parse --show-toplevel 2>/dev/null); then
    echo "test_repo_words: '$root' is not a git checkout; this check reads the tracked files through git ls-files" >&2
    exit 1
fi

# Extended regular expressions, matched case-insensitively, each with a
# line it must find (the self-check below).
patterns=(
    '\b[i]ssues? ?#?[0-9]'                  # a number after the word
    '\b[s]essions?\b'                       # a work period's word
    '\bwork ?periods?\b'
    '\bstop [0-9]'                          # stop 3: a work period's name
    '\bsprints?\b'
    '\bmilestones?\b'
    '\btickets?\b'
    '\bhelpers?\b'                          # the agents that made a change
    '\b(TODO|FIXME)\b'                      # notes of unfinished work
    '\b20[0-9]{2}-[01][0-9]-[0-3][0-9]\b'   # dates of work
    '\b(quiet|slow|noisy|fast) (stretch|phase|hour)s?\b'
)
examples=(
    'taken with iss''ue 9'"'"'s engine'
    'measured in this sess''ion'
    'the last work period'
    'done in stop 3'
    'the second sprint'
    'milestone reached'
    'see ticket 12'
    'another helper changes it'
    '/* TODO: later */'
    'ran on 2026-11-24'
    'it ran in a quiet stretch'
)
# Lines that use a word in another sense, as "PATH:LINE:TEXT" regular
# expressions (case-insensitive). Keep this list short and explicit.
allowed=(
    ':[0-9]+:.*small helpers'                   # helper functions
    ':[0-9]+:.*helpers over a whole sim'        # helper functions
    ':[0-9]+:.*helpers for a mode'              # helper functions
    ':[0-9]+:.*a helper program'                # gnuplot, run by the bench
    '^bench/results/[^/:]+/[^/:]+\.txt:[0-9]+:# ' # a result's header: when it ran
)

join() { local IFS='|'; echo "$*"; }
any=$(join "${patterns[@]}")
skip=$(join "${allowed[@]}")

# Self-check: every pattern finds its example, and the allow-list hides
# none of them, so the scan below cannot pass by matching nothing.
bad=0
for i in "${!patterns[@]}"; do
    line="README.md:1:${examples[$i]}"
    if ! printf '%s\n' "$line" | grep -qiE -e "${patterns[$i]}"; then
        echo "test_repo_words: pattern '${patterns[$i]}' misses its example '${examples[$i]}'" >&2
        bad=1
    elif printf '%s\n' "$line" | grep -qiE -e "$skip"; then
        echo "test_repo_words: the allow-list hides the example '${examples[$i]}'" >&2
        bad=1
    fi
done
[ $bad -eq 0 ] || exit 1

files=$(git -C "$top" ls-files | wc -l)
if [ "$files" -eq 0 ] || ! git -C "$top" ls-files --error-unmatch README.md >/dev/null 2>&1; then
    echo "test_repo_words: git ls-files lists no README.md in '$top': not this project's checkout" >&2
    exit 1
fi

# -I: text files only; every tracked file but this one.
hits=$(git -C "$top" grep -nIiE -e "$any" -- . ":(exclude)$self" | grep -viE -e "$skip")
if [ -n "$hits" ]; then
    printf '%s\n' "$hits"
    echo "test_repo_words: $(printf '%s\n' "$hits" | wc -l) line(s) in tracked files name the development process (work periods, issue numbers, dates of work); say what the code does instead" >&2
    exit 1
fi
echo "test_repo_words: $files tracked files, none names the development process"
