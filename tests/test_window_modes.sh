#!/usr/bin/env bash
# test_window_modes.sh - the window's camera and colouring modes end to end,
# in a real window (Xvfb), read back from screenshots.
#
#   bash tests/test_window_modes.sh path/to/particles path/to/png_probe
#
# Wheel clicks zoom about the pointer: on a paused scene, the picture after
# the zoom is the one before magnified about the pointer (not about the
# window's centre); --zoom starts zoomed. --color worker shows one colour
# per worker that ran a render subtask (one with one worker or with inner
# parallelism off, more with as many workers as processors), speed is a blue-to-red ramp
# with none of the thesis's purples, cell shows the grid's many colours,
# and bad --color and --zoom values are refused in one line. A spray on a
# zoomed view lands under the pointer, Z shows the whole world again, and
# + at the most workers says why, key 5 switches collision off with
# the run going on, and --layout thesis runs and draws the particles. Prints one line per case, exits 1 if any failed.
set -u

. "$(dirname "$0")/window_util.sh"
window_args "$@"

window_tmp modes

# The particles' area: right of the HUD's panel, above the hint line.
area=(700 0 1440 860)
# Trails off: the colourings' hues are counted on the particles alone.
small=(--entities 20000 --vsync off --frames 10 --trails off)

shot() { # NAME ARGS...: a screenshot of the 10th frame
    local name=$1
    shift
    "$bin" "${small[@]}" "$@" --screenshot "$tmp/$name.png" >"$out" 2>"$err" ||
        echo "exit $? for $*: $(head -c 300 "$err")" >&2
}

# ---- --color ---------------------------------------------------------------
"$bin" --color purple --frames 1 >"$out" 2>"$err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q -- "--color: 'purple'" "$err" &&
    grep -q "thesis, speed, worker, cell" "$err" && [ ! -s "$out" ]; then
    ok "--color purple: exit 2, one line naming the flag, the value and the words"
else
    fail "--color purple" "exit $rc, stderr: $(head -c 300 "$err")"
fi
"$bin" --zoom 65 --frames 1 >"$out" 2>"$err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q -- "--zoom: '65'" "$err" &&
    ok "--zoom 65: exit 2, one line" || fail "--zoom 65" "exit $rc, stderr: $(head -c 300 "$err")"

# ---- colouring modes -------------------------------------------------------
shot thesis --threads 2
shot speed --threads 2 --color speed
shot cell --threads 2 --color cell
read -r th_hues th_sat th_purple < <("$probe" "$tmp/thesis.png" hues "${area[@]}")
read -r sp_hues sp_sat sp_purple < <("$probe" "$tmp/speed.png" hues "${area[@]}")
read -r ce_hues ce_sat _ < <("$probe" "$tmp/cell.png" hues "${area[@]}")
# --layout thesis: the components interleaved; the window runs its frames
# and draws the particles with their own colours (purples among them, as
# with the default layout). The state's equality across layouts is the
# bench's to check (test_cli.sh): two windows' pictures of one run differ
# by some pixels.
shot layout --threads 2 --layout thesis
read -r la_hues la_sat la_purple < <("$probe" "$tmp/layout.png" hues "${area[@]}")
if grep -qE '^frames 10, ' "$out" && [ "${la_sat:-0}" -gt 10000 ] &&
    [ "${la_purple:-0}" -gt 1000 ]; then
    ok "--layout thesis --frames 10: $la_sat coloured pixels, $la_purple purple (soa: $th_sat, $th_purple)"
else
    fail "--layout thesis --frames 10" "stdout '$(head -c 200 "$out")', ${la_sat:-?} coloured pixels, ${la_purple:-?} purple; $(head -c 300 "$err")"
fi
# The thesis's random colours hold purples; the speed ramp has none.
if [ "${th_purple:-0}" -gt 1000 ] && [ "${sp_sat:-0}" -gt 10000 ] &&
    [ "${sp_purple:-1}" -lt $((sp_sat / 200)) ]; then
    ok "speed: a blue-to-red ramp ($sp_purple of $sp_sat coloured pixels purple, thesis $th_purple)"
else
    fail "speed" "purple pixels: speed ${sp_purple:-?} of ${sp_sat:-?}, thesis ${th_purple:-?}"
fi
# Nine cell colours (some neighbouring in hue) against one smear of hues.
if [ "${th_hues:-9}" -le 2 ] && [ "${ce_hues:-0}" -ge 6 ]; then
    ok "cell: $ce_hues distinct hues where the thesis's colours make $th_hues"
else
    fail "cell" "distinct hues: cell ${ce_hues:-?}, thesis ${th_hues:-?}"
fi

# One worker, or inner parallelism off (one render subtask): one colour.
shot w1 --threads 1 --color worker
shot ipoff --threads 4 --inner-parallelism off --color worker
read -r w1 _ < <("$probe" "$tmp/w1.png" hues "${area[@]}")
read -r ipoff _ < <("$probe" "$tmp/ipoff.png" hues "${area[@]}")
if [ "${w1:-0}" -eq 1 ] && [ "${ipoff:-0}" -eq 1 ]; then
    ok "worker: one colour with 1 worker and with inner parallelism off"
else
    fail "worker, one subtask" "distinct hues: ${w1:-?} with 1 worker, ${ipoff:-?} with IP off"
fi
# Several workers, as many as the processors (at most 4; the simulation
# cuts no system into more subtasks than that): a colour per worker that
# ran a render subtask in the last step, so 2 to that many. A worker may
# steal every subtask of a step on a busy machine: up to 10 runs for one
# that shows two.
several=$(nproc)
[ "$several" -le 4 ] || several=4
if [ "$several" -ge 2 ]; then
    hues=0
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        shot w4 --threads "$several" --color worker
        read -r hues _ < <("$probe" "$tmp/w4.png" hues "${area[@]}")
        [ "${hues:-0}" -ge 2 ] && break
    done
    if [ "${hues:-0}" -ge 2 ] && [ "${hues:-0}" -le "$several" ]; then
        ok "worker: $hues distinct colours with $several workers"
    else
        fail "worker, $several workers" "${hues:-?} distinct hues, want 2 to $several"
    fi
fi

# ---- zoom ------------------------------------------------------------------
# --zoom 8 about the world's centre: the circles are 8 times wider, so far
# fewer distinct colours fill the same area than at 1x.
shot z8 --threads 2 --zoom 8 --center 720,450
read -r _ _ c1 _ < <("$probe" "$tmp/thesis.png")
read -r _ _ c8 _ < <("$probe" "$tmp/z8.png")
[ "${c8:-99999}" -lt "$(( ${c1:-0} / 2 ))" ] && ok "--zoom 8: $c8 colours where 1x has $c1" ||
    fail "--zoom 8" "${c8:-?} colours, 1x ${c1:-?}"

# ---- with the mouse and keys (xdotool) ---------------------------------------

# stop_in DIR: Esc (window_quit), the exit waited for; sets files to DIR's screenshots,
# oldest first.
stop_in() {
    [ -n "$wid" ] && window_quit "$pid" >/dev/null
    wait_gone "$pid" || kill "$pid"
    wait "$pid"
    mapfile -t files < <(ls -tr "$1" | grep '^particles-.*\.png$')
}

# Every run below first saves a screenshot and waits for it: that frame
# saw the pointer arrive and a step run (nothing is drawn before one, and
# a press before the window has the pointer is not the window's).
need_xdotool "window modes"

# Wheel clicks at a known pointer on a paused scene, from 4x (circles of a
# few pixels to compare): a screenshot before the wheel and one after, of
# the frame alone (the zoom starts motion trails again from the bare frame).
d=$tmp/wheel x=560 y=330 clicks=6
start_in "$d" --entities 20000 --vsync off --threads 2 --size 800x500 --zoom 4 --center 720,450 \
    --trails off
if [ -n "$wid" ]; then
    xdotool mousemove --window "$wid" $x $y key --window "$wid" s
    wait_shots "$pid" "$d" 1 && xdotool key --window "$wid" space s && wait_shots "$pid" "$d" 2 &&
        xdotool click --window "$wid" --repeat $clicks --delay 20 4 key --window "$wid" s &&
        wait_shots "$pid" "$d" 3
fi
stop_in "$d"
if [ "${#files[@]}" -ne 3 ]; then
    fail "wheel zoom" "window ${wid:-none}, screenshots: ${files[*]:-none}; stderr: $(head -c 300 "$err")"
else
    zoom=$(awk -v n=$clicks 'BEGIN { printf "%.4f", 1.25 ^ n }') # relative to the 4x
    read -r here centre < <("$probe" "$d/${files[1]}" zoomed "$d/${files[2]}" $x $y "$zoom")
    if awk -v h="${here:-99}" -v c="${centre:-0}" 'BEGIN { exit !(h < 12 && h * 2 < c && c > 10) }'; then
        ok "wheel zoom x$zoom keeps the point under the pointer (difference $here, about the centre $centre)"
    else
        fail "wheel zoom" "difference about the pointer ${here:-?}, about the centre ${centre:-?}"
    fi
fi

# Z shows the whole world again: a run started at 8x draws far fewer
# distinct colours (few, large circles) than after Z (many small ones):
# frames alone, motion trails off (their blends add colours).
d=$tmp/reset
start_in "$d" --entities 20000 --vsync off --threads 2 --zoom 8 --center 720,450 --trails off
if [ -n "$wid" ]; then
    xdotool key --window "$wid" s
    wait_shots "$pid" "$d" 1 && xdotool key --window "$wid" z s && wait_shots "$pid" "$d" 2
fi
stop_in "$d"
if [ "${#files[@]}" -ne 2 ]; then
    fail "Z resets the zoom" "window ${wid:-none}, screenshots: ${files[*]:-none}"
else
    read -r _ _ zoomed _ < <("$probe" "$d/${files[0]}")
    read -r _ _ whole _ < <("$probe" "$d/${files[1]}")
    if [ "${zoomed:-0}" -gt 1000 ] && [ "${whole:-0}" -gt $((${zoomed:-99999} * 2)) ]; then
        ok "Z resets the zoom: $whole colours after it, $zoomed at 8x"
    else
        fail "Z resets the zoom" "${whole:-?} colours after Z, ${zoomed:-?} at 8x"
    fi
fi

# A spray on a zoomed view lands under the pointer: on a nearly empty
# world at 4x, the coloured pixels gather in the box around the pointer,
# not in the same box elsewhere on its row. A spray is created at the end
# of the step after the press and drawn from the next: the second
# screenshot marks a frame after the press, the third shows the spray.
d=$tmp/spray x=620 y=380
start_in "$d" --entities 100 --vsync off --threads 2 --size 800x500 --zoom 4 --center 720,450
if [ -n "$wid" ]; then
    xdotool mousemove --window "$wid" $x $y key --window "$wid" s
    wait_shots "$pid" "$d" 1 && xdotool mousedown --window "$wid" 1 key --window "$wid" s &&
        wait_shots "$pid" "$d" 2 && xdotool key --window "$wid" s && wait_shots "$pid" "$d" 3
    xdotool mouseup --window "$wid" 1
fi
stop_in "$d"
if [ "${#files[@]}" -ne 3 ]; then
    fail "spray when zoomed" "window ${wid:-none}, screenshots: ${files[*]:-none}; stderr: $(head -c 300 "$err")"
else
    read -r _ here _ < <("$probe" "$d/${files[2]}" hues $((x - 60)) $((y - 60)) $((x + 60)) $((y + 60)))
    read -r _ away _ < <("$probe" "$d/${files[2]}" hues $((x - 400)) $((y - 60)) $((x - 280)) $((y + 60)))
    if [ "${here:-0}" -gt 200 ] && [ "${here:-0}" -gt $((${away:-0} * 5)) ]; then
        ok "spray when zoomed: $here coloured pixels around the pointer, $away away from it"
    else
        fail "spray when zoomed" "${here:-?} coloured pixels around the pointer, ${away:-?} away"
    fi
fi

# + at the most workers says why in the notice line (warning-coloured
# text reaching far right, where the S key's shorter "saved ..." notice
# does not). --threads at the online CPUs makes it the pool's size.
# three_shots DIR A B: in the window started in DIR, a screenshot (S),
# then the keys A and another, then the keys B and a third (A or B may be
# empty), each waited for; then Esc (stop_in).
three_shots() {
    if [ -n "$wid" ]; then
        xdotool key --window "$wid" s
        wait_shots "$pid" "$1" 1 && xdotool key --window "$wid" $2 s && wait_shots "$pid" "$1" 2 &&
            xdotool key --window "$wid" $3 s && wait_shots "$pid" "$1" 3
    fi
    stop_in "$1"
}

# warned NAME BEFORE.png AFTER.png X0 Y0 X1 Y1 WHAT: ok when the box holds
# more than 10 pixels of the warning colour in AFTER and none in BEFORE.
warned() {
    local b a
    b=$("$probe" "$2" ffc450 "$4" "$5" "$6" "$7")
    a=$("$probe" "$3" ffc450 "$4" "$5" "$6" "$7")
    if [ "${b:-1}" -eq 0 ] && [ "${a:-0}" -gt 10 ]; then
        ok "$1: $8 ($a warning-coloured pixels)"
    else
        fail "$1" "warning-coloured pixels: $a after, $b before"
    fi
}

d=$tmp/plus
start_in "$d" --entities 2000 --vsync off --threads "$(nproc)" --size 800x500
three_shots "$d" "" plus
if [ "${#files[@]}" -ne 3 ]; then
    fail "+ at the most workers" "window ${wid:-none}, screenshots: ${files[*]:-none}"
else
    warned "+ at the most workers" "$d/${files[1]}" "$d/${files[2]}" 390 420 480 480 \
        "a notice says why at its end"
fi

# Key 5 switches collision (the HUD chart's fifth row) off between steps:
# the run goes on (screenshots after it), the row says "off" in the
# warning colour where the chart showed none before, and the summary line
# at the end names the system that is off. Motion trails off: their
# blends of the particles' colours must not pass for the warning colour.
d=$tmp/toggle
start_in "$d" --entities 2000 --vsync off --threads 2 --frames 1000000 --trails off
three_shots "$d" 5 ""
if [ "${#files[@]}" -ne 3 ]; then
    fail "5 switches collision off" "window ${wid:-none}, screenshots: ${files[*]:-none}; stderr: $(head -c 300 "$err")"
elif ! grep -qE '^frames [0-9]+, .*\), systems off: collision$' "$out" || [ -s "$err" ]; then
    fail "5 switches collision off" "summary: $(head -c 300 "$out"); stderr: $(head -c 300 "$err")"
else
    warned "5 switches collision off" "$d/${files[0]}" "$d/${files[2]}" 0 0 600 420 \
        "the run goes on, the summary names it, its chart row reads off"
fi

finish "window modes"
