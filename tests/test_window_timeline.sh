#!/usr/bin/env bash
# test_window_timeline.sh - the timeline panel end to end, in a real window
# (Xvfb), read back through --timeline-report and the screenshot.
#
#   bash tests/test_window_timeline.sh path/to/particles path/to/png_probe
#
# - --frames with --timeline-report: the panel drew a block for every span
#   of the step's records (subtasks and finish callbacks), and the report
#   lists each of them; --timeline off, or a window too small, draws none;
#   two workers on one CPU (taskset): the report finds the machine busy;
# - live: F freezes the panel (the report says so); Left three times
#   shows the step three before it, and a click on the strip's bar ten
#   steps before the newest shows that step (the report's step, its
#   place in the step history, its wake-up delays and the machine's
#   line); the pointer moved by xdotool onto a block's centre brings up a tooltip naming that block's
#   span and system (the report says which), and the screenshot taken at
#   Esc shows the tooltip's box where the report places it;
# - bad values of --timeline and --timeline-report: exit 2, one line.
# Waits are bounded polls on a condition (a window, a line in the report,
# the process gone), never a fixed sleep. Prints one line per case.
set -u

. "$(dirname "$0")/window_util.sh"
window_args "$@"
window_tmp timeline
rep=$tmp/report.txt

small=(--entities 20000 --vsync off --threads 2)

# A field of the report: the words after the key on its line.
field() { sed -n "s/^$1 //p" "$rep" | head -1; }

# wait_for KEY PATTERN: polls the report (30 s at most) until KEY's field
# matches the shell pattern; false if it never does or the window went.
wait_for() {
    for _ in $(seq 300); do
        [ -s "$rep" ] && case $(field "$1") in $2) return 0 ;; esac
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

# The history's fields: COUNT of N steps FIRST..NEWEST back BACK kib K.
history_newest() { field history | sed -n 's/^[0-9]* of [0-9]* steps [0-9]*\.\.\([0-9]*\) .*/\1/p'; }

# frozen_with_history: the panel frozen (F) with at least 12 steps in its
# history. While it holds fewer, F follows the steps again (the history
# starts over), and a second later F freezes once more: polled until the
# report (rewritten while frozen only) holds enough, 30 tries at most.
frozen_with_history() {
    local last count
    for _ in $(seq 30); do
        count=$(field history | cut -d' ' -f1)
        [ "$(field frozen)" = yes ] && [ "${count:-0}" -ge 12 ] && return 0
        last=$(field step)
        xdotool key --window "$wid" f
        sleep 1
        xdotool key --window "$wid" f
        for _ in $(seq 50); do
            [ "$(field step)" != "$last" ] && break
            kill -0 "$pid" 2>/dev/null || return 1
            sleep 0.1
        done
    done
    return 1
}

# The step history, the wake-up delays and the machine's line of a frozen
# panel: Left three times, then a click on the bar ten steps back.
check_picks() {
    local newest frozen_at strip_x strip_y strip_w strip_h bx by workers
    if ! frozen_with_history; then
        fail "step history" "fewer than 12 steps held: history '$(field history)'"
        return 1
    fi
    frozen_at=$(field step)
    newest=$(history_newest)
    if [ -z "$newest" ] || [ "$newest" != "$frozen_at" ]; then
        fail "step history" "frozen at '$frozen_at', history '$(field history)'"
        return 1
    fi
    case $(field history) in
    [0-9]*" of 300 steps "*" kib "[1-9]*) ok "step history: $(field history)" ;;
    *) fail "step history" "'$(field history)'" ;;
    esac
    xdotool key --window "$wid" Left Left Left
    if wait_for history "* back 3 *" && [ "$(field step)" = $((newest - 3)) ]; then
        ok "Left x3: step $(field step) shown, 3 before the newest ($(field history))"
    else
        fail "Left x3" "step '$(field step)', history '$(field history)' (newest $newest)"
    fi
    read -r strip_x strip_y strip_w strip_h < <(field strip | awk '{ print $2, $4, $6, $8 }')
    # Bar `back` is the (300 - 1 - back)-th of 300 across the strip.
    bx=$(awk -v x="$strip_x" -v w="$strip_w" 'BEGIN { printf "%d", x + (300 - 1 - 10 + 0.5) * w / 300 }')
    by=$(awk -v y="$strip_y" -v h="$strip_h" 'BEGIN { printf "%d", y + h / 2 }')
    xdotool windowraise "$wid"
    xdotool mousemove --window "$wid" "$bx" "$by" click 1
    if wait_for history "* back 10 *" && [ "$(field step)" = $((newest - 10)) ] &&
        [ "$(field frozen)" = yes ]; then
        ok "a click on the bar 10 back: step $(field step) shown, frozen"
    else
        fail "click on a bar" "at $bx,$by (strip '$(field strip)'): step '$(field step)', history '$(field history)'"
    fi
    # A wake-up delay per worker (a number or -), of it the time asleep,
    # and the machine's verdict.
    workers=$(field workers)
    if [ "$(field wake_us | wc -w)" = "$workers" ] && [ "$(field wake_asleep_us | wc -w)" = "$workers" ] &&
        [ "$(field wake_woken_us | wc -w)" = "$workers" ] &&
        field wake_us | grep -Eq '^([0-9]+\.[0-9]|-)( ([0-9]+\.[0-9]|-))*$' &&
        field machine | grep -Eq '^(ran [01]\.[0-9]{3} (quiet|busy .*: Machine busy: workers ran [0-9]+% of their awake time))$'; then
        ok "step $(field step): wake_us $(field wake_us), machine $(field machine | cut -c1-40)"
    else
        fail "wake-up delays" "workers $workers, wake_us '$(field wake_us)', asleep '$(field wake_asleep_us)', machine '$(field machine)'"
    fi
}

# The report's block count against its spans and its block lines.
check_counts() {
    local name=$1 spans blocks lines
    spans=$(field spans | cut -d' ' -f1)
    blocks=$(field blocks)
    lines=$(grep -c '^block ' "$rep")
    if [ -z "$spans" ] || [ "$spans" -lt 9 ] || [ "$blocks" != "$spans" ] || [ "$lines" != "$spans" ]; then
        fail "$name" "spans '${spans}', blocks drawn '${blocks}', block lines $lines"
        return 1
    fi
    ok "$name: $blocks blocks drawn for $spans spans ($(field spans))"
}

# ---- unattended runs ----------------------------------------------------------
"$bin" "${small[@]}" --frames 20 --timeline-report "$rep" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ] || [ ! -s "$rep" ] || [ "$(field shown)" != yes ]; then
    fail "--frames 20 with the panel" "exit $rc, shown '$(field shown)': $(head -c 300 "$tmp/err")"
else
    check_counts "--frames 20 with the panel"
fi

"$bin" "${small[@]}" --frames 5 --timeline off --timeline-report "$rep" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ] || [ "$(field shown)" != no ] || [ "$(field blocks)" != 0 ] ||
    grep -q '^block ' "$rep"; then
    fail "--timeline off" "exit $rc, shown '$(field shown)', blocks '$(field blocks)'"
else
    ok "--timeline off: no blocks drawn, the report still has the step ($(field spans | cut -d' ' -f1) spans)"
fi

"$bin" "${small[@]}" --frames 5 --size 640x400 --timeline-report "$rep" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ] || [ "$(field shown)" != no ] || [ "$(field blocks)" != 0 ]; then
    fail "640x400 window" "exit $rc, shown '$(field shown)', blocks '$(field blocks)'"
else
    ok "640x400 window: the panel is off by default there"
fi

# Two workers on one CPU (taskset): each gets about half of its awake time
# on it, and the report's machine line says the machine was busy.
if ! command -v taskset >/dev/null; then
    fail "two workers on one CPU" "taskset is not installed (util-linux)"
else
    taskset -c 0 "$bin" "${small[@]}" --frames 15 --timeline-report "$rep" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    case $(field machine) in
    "ran 0."*" busy "*"workers 2 "*": Machine busy: workers ran "*"% of their awake time")
        ok "two workers on one CPU: machine $(field machine | cut -d: -f1)" ;;
    *) fail "two workers on one CPU" "exit $rc, machine '$(field machine)', cpu_us '$(field cpu_us)'" ;;
    esac
fi

# ---- live: freeze, hover, screenshot -------------------------------------------
if ! command -v xdotool >/dev/null; then
    fail "hover" "xdotool is not installed (.ci/install-deps installs it)"
else
    rm -f "$rep"
    "$bin" "${small[@]}" --size 1440x900 --timeline-report "$rep" --screenshot "$tmp/tl.png" \
        >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    wid=$(window_of "$pid")
    [ -n "$wid" ] && xdotool key --window "$wid" f
    frozen=no
    for _ in $(seq 300); do
        [ -n "$wid" ] || break
        [ -s "$rep" ] && frozen=$(field frozen)
        [ "$frozen" = yes ] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if [ "$frozen" != yes ]; then
        fail "F freezes" "window '$wid', report: $(head -c 300 "$rep" 2>/dev/null), stderr: $(head -c 300 "$tmp/err")"
    else
        ok "F freezes the panel: the report says frozen at step $(field step)"
        check_counts "frozen step"
        check_picks
        # The widest block, and the pointer onto its centre.
        read -r span system x y w h < <(awk '$1 == "block" {
                for (i = 3; i < NF; i += 2) v[$i] = $(i + 1)
                if (v["w"] + 0 > best) { best = v["w"] + 0; line = v["span"] " " v["system"] " " v["x"] " " v["y"] " " v["w"] " " v["h"] }
            } END { print line }' "$rep")
        cx=$(awk -v x="$x" -v w="$w" 'BEGIN { printf "%d", x + w / 2 }')
        cy=$(awk -v y="$y" -v h="$h" 'BEGIN { printf "%d", y + h / 2 }')
        # Raised and moved again every second: another test's window on the
        # shared display may lie over this one and take the pointer.
        tip=""
        for i in $(seq 150); do
            if [ $((i % 10)) -eq 1 ]; then
                xdotool windowraise "$wid"
                xdotool mousemove --window "$wid" "$cx" "$cy"
            fi
            tip=$(sed -n 's/^tooltip //p' "$rep")
            case $tip in "span $span "*) break ;; esac
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        case $tip in
        "span $span "*": $system, pass "*) ok "hover: the tooltip names span $span, $system (${w} px wide block)" ;;
        *) fail "hover" "pointer at $cx,$cy on span $span ($system): tooltip '$tip'" ;;
        esac
        window_quit "$pid" >/dev/null
    fi
    wait_gone "$pid" || { kill "$pid"; fail "Esc quits" "still running 10 s after Esc"; }
    wait "$pid"
    rc=$?
    pid=""
    # The tooltip's box, as the report places it, in the screenshot: its
    # light background (faf4d6) covers most of it (the rest is its text).
    read -r tx ty tw th < <(sed -n 's/^tooltip span [0-9]* x \([0-9]*\) y \([0-9]*\) w \([0-9]*\) h \([0-9]*\):.*/\1 \2 \3 \4/p' "$rep")
    if [ $rc -ne 0 ] || [ ! -s "$tmp/tl.png" ] || [ -z "${tw:-}" ]; then
        fail "tooltip on screen" "exit $rc, screenshot $(ls -l "$tmp/tl.png" 2>&1), tooltip box '${tx:-} ${ty:-} ${tw:-} ${th:-}'"
    else
        lit=$("$probe" "$tmp/tl.png" faf4d6 "$tx" "$ty" $((tx + tw)) $((ty + th)))
        area=$((tw * th))
        if [ $((lit * 2)) -lt "$area" ]; then
            fail "tooltip on screen" "$lit of $area pixels of the box are its background"
        else
            ok "tooltip on screen: $lit of $area pixels of its box in its background color"
        fi
    fi
fi

# ---- bad input -------------------------------------------------------------------
"$bin" --timeline maybe >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- '--timeline' "$tmp/err" &&
    ok "--timeline maybe: exit 2, one line" ||
    fail "--timeline maybe" "exit $rc: $(cat "$tmp/err")"
"$bin" --timeline-report "$tmp/no/such/dir/r.txt" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- '--timeline-report' "$tmp/err" &&
    ok "--timeline-report in a missing directory: exit 2, one line" ||
    fail "--timeline-report in a missing directory" "exit $rc: $(cat "$tmp/err")"

# The file of another output: refused before the window opens, the file
# untouched.
for other in --screenshot --trace; do
    echo keep >"$tmp/same.png"
    "$bin" --frames 1 --timeline-report "$tmp/same.png" "$other" "$tmp/same.png" \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ "$(cat "$tmp/same.png")" = keep ] &&
        grep -q -- "--timeline-report $tmp/same.png and $other $tmp/same.png name the same file" \
            "$tmp/err" &&
        ok "--timeline-report and $other on one file: exit 2, one line" ||
        fail "--timeline-report and $other on one file" "exit $rc: $(cat "$tmp/err")"
done

# /dev/stdout where standard output is a file (the --frames summary's):
# refused like '-', the file left to the summary alone.
for flag in --timeline-report --trace; do
    "$bin" --frames 1 "$flag" /dev/stdout >"$tmp/stdout.txt" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/stdout.txt" ] &&
        grep -q -- "$flag /dev/stdout: is where standard output goes" "$tmp/err" &&
        ok "$flag /dev/stdout: exit 2, one line" ||
        fail "$flag /dev/stdout" "exit $rc: $(cat "$tmp/err"), stdout $(wc -c <"$tmp/stdout.txt") bytes"
done

finish timeline
