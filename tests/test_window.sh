#!/usr/bin/env bash
# test_window.sh - the window mode end to end, in a real window (Xvfb).
#
#   bash tests/test_window.sh path/to/particles path/to/png_probe
#
# A short unattended run saves a screenshot of the right size that is not
# blank and prints one summary line; a broken shader, a missing font, no
# damaged font, a shader past 1 MiB or a font past 16 MiB, no display and an OpenGL older than 3.3 each give one line on stderr saying
# what is missing and exit 1, leaving no screenshot behind. Prints one line per case, exits 1 if any failed.
set -u

. "$(dirname "$0")/window_util.sh"
window_args "$@"
data=$(dirname "$bin") # shaders/ and assets/ sit next to the executable

window_tmp window

# A failure case: exit 1, exactly one line on stderr containing every
# given text, no screenshot written.
expect_failure() {
    local name=$1 rc=$2
    shift 2
    local lines
    lines=$(wc -l <"$err")
    if [ "$rc" -ne 1 ]; then
        fail "$name" "exit $rc, want 1; stderr: $(head -c 300 "$err")"
        return
    fi
    if [ "$lines" -ne 1 ]; then
        fail "$name" "$lines lines on stderr, want 1: $(head -c 300 "$err")"
        return
    fi
    for want in "$@"; do
        if ! grep -qF -- "$want" "$err"; then
            fail "$name" "stderr does not say '$want': $(cat "$err")"
            return
        fi
    done
    if [ -e "$tmp/shot.png" ]; then
        fail "$name" "a screenshot was written"
        return
    fi
    ok "$name"
}

small=(--entities 20000 --vsync off --threads 2)

# ---- a real run --------------------------------------------------------------
"$bin" "${small[@]}" --frames 30 --screenshot "$tmp/shot.png" >"$out" 2>"$err"
rc=$?
if [ $rc -ne 0 ]; then
    fail "30 frames with a screenshot" "exit $rc: $(head -c 400 "$err")"
elif ! grep -qE '^frames 30, mean fps [0-9.]+, mean step [0-9.]+ ms, mean render [0-9.]+ ms \(prepare [0-9.]+ \+ upload [0-9.]+ \+ draw [0-9.]+\)$' "$out" ||
    ! grep -qE '^rate 25 steps/s: 30 steps in [0-9.]+ s, [0-9.]+ steps/s, [0-9]+ frames drawn, [0-9]+ steps dropped$' "$out" ||
    [ "$(wc -l <"$out")" -ne 2 ]; then
    fail "30 frames with a screenshot" "summary line: $(head -c 400 "$out")"
else
    read -r w h colors lit < <("$probe" "$tmp/shot.png")
    if [ "${w:-0}" -ne 1440 ] || [ "${h:-0}" -ne 900 ]; then
        fail "screenshot size" "${w:-?}x${h:-?}, want 1440x900"
    elif [ "$colors" -lt 1000 ] || [ "$lit" -lt 50 ]; then
        # 20 000 particles of random colors: thousands of colors, and far
        # more than 5 % of the pixels off the background.
        fail "screenshot content" "$colors colors, $lit per mille lit: blank?"
    else
        ok "30 frames: summary line, 1440x900 screenshot with $colors colors ($lit per mille lit)"
    fi
    ls "$tmp" | grep -q '^\.shot' && fail "screenshot temporary" "left behind: $(ls -a "$tmp")"
fi
rm -f "$tmp/shot.png"

# The smallest window: the HUD keeps the one line that fits (the layout
# itself is checked at every size by test_window_hud).
"$bin" "${small[@]}" --size 64x64 --frames 2 --screenshot "$tmp/tiny.png" >"$out" 2>"$err"
rc=$?
read -r w h _ < <("$probe" "$tmp/tiny.png" 2>/dev/null)
if [ $rc -ne 0 ] || [ "${w:-0}" -ne 64 ] || [ "${h:-0}" -ne 64 ] || [ -s "$err" ]; then
    fail "64x64 window" "exit $rc, screenshot ${w:-?}x${h:-?}, stderr: $(head -c 300 "$err")"
else
    ok "64x64 window: exit 0, 64x64 screenshot, nothing on stderr"
fi

# A world the window shows less than a pixel wide draws no particles: the
# HUD's first line says why, in its warning color (ffc450), where a
# window on an ordinary world has none.
"$bin" "${small[@]}" --size 640x400 --world 5x100000 --frames 2 --screenshot "$tmp/thin.png" \
    >"$out" 2>"$err"
rc=$?
thin=$("$probe" "$tmp/thin.png" ffc450 20 10 400 32 2>/dev/null)
"$bin" "${small[@]}" --size 640x400 --frames 2 --screenshot "$tmp/wide.png" >"$out" 2>"$err"
wide=$("$probe" "$tmp/wide.png" ffc450 20 10 400 32 2>/dev/null)
if [ $rc -ne 0 ] || [ "${thin:-0}" -lt 50 ] || [ "${wide:-1}" -ne 0 ]; then
    fail "world too thin to draw" "exit $rc, warning-colored pixels: $thin (thin world), $wide (ordinary)"
else
    ok "world too thin to draw: the HUD says so ($thin warning-colored pixels)"
fi
rm -f "$tmp/tiny.png" "$tmp/thin.png" "$tmp/wide.png"

# The output module's rules (out.h): a symlinked --screenshot keeps the
# link and replaces the file it names, with its mode.
mkdir -p "$tmp/real"
echo old >"$tmp/real/s.png" && chmod 640 "$tmp/real/s.png"
ln -s real/s.png "$tmp/link.png"
"$bin" "${small[@]}" --frames 2 --screenshot "$tmp/link.png" >"$out" 2>"$err"
rc=$?
if [ $rc -ne 0 ]; then
    fail "symlinked --screenshot" "exit $rc: $(head -c 300 "$err")"
elif [ ! -L "$tmp/link.png" ] || [ "$(head -c 4 "$tmp/real/s.png" | od -An -tx1 | tr -d ' \n')" != 89504e47 ]; then
    fail "symlinked --screenshot" "the link was replaced or the file it names is not a PNG"
elif [ "$(stat -c %a "$tmp/real/s.png")" != 640 ] || [ -n "$(ls -A "$tmp/real" | grep -v '^s.png$')" ]; then
    fail "symlinked --screenshot" "mode $(stat -c %a "$tmp/real/s.png") or left: $(ls -A "$tmp/real")"
else
    ok "symlinked --screenshot: the link kept, the PNG behind it, mode 640"
fi
rm -rf "$tmp/real" "$tmp/link.png"

# SIGTERM while the window runs: exit 143, the old screenshot kept, no
# temporary left. The temporary exists once the target was checked,
# before the window opens: wait for it (bounded), then signal.
echo old >"$tmp/shot.png"
"$bin" "${small[@]}" --screenshot "$tmp/shot.png" >"$out" 2>"$err" &
pid=$!
for _ in $(seq 1 400); do
    ls -A "$tmp" | grep -q '^\.shot\.png\.' && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.05
done
kill -TERM $pid
for _ in $(seq 1 400); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done
kill -0 $pid 2>/dev/null && kill -KILL $pid
wait $pid
rc=$?
if [ $rc -ne 143 ] || [ "$(cat "$tmp/shot.png")" != old ] || ls -A "$tmp" | grep -q '^\.shot'; then
    fail "SIGTERM while the window runs" "exit $rc, shot.png: $(head -c 4 "$tmp/shot.png"), files: $(ls -A "$tmp" | tr '\n' ' ')"
else
    ok "SIGTERM while the window runs: exit 143, old screenshot kept, no temporary"
fi
rm -f "$tmp/shot.png"

# Both draw paths and a dynamic-storage, one-worker, IP-off run.
"$bin" --entities 5000 --vsync off --frames 5 --draw quads --storage dynamic --threads 1 \
    --inner-parallelism off >"$out" 2>"$err"
rc=$?
[ $rc -eq 0 ] && grep -q '^frames 5,' "$out" && ok "quads, dynamic storage, 1 worker, IP off" ||
    fail "quads, dynamic storage, 1 worker, IP off" "exit $rc: $(head -c 300 "$err")"

# Quit with Esc before any --frames: --screenshot still saves the frame on
# screen, and the exit is clean. xdotool finds the window (a bounded poll
# for it to appear, window_util.sh) and sends the key.
if command -v xdotool >/dev/null; then
    "$bin" --entities 2000 --vsync off --screenshot "$tmp/esc.png" >"$out" 2>"$err" &
    pid=$!
    wid=$(window_quit "$pid")
    wait_gone "$pid" || { kill "$pid"; fail "Esc quits" "still running 10 s after Esc"; }
    wait "$pid"
    rc=$?
    if [ -z "$wid" ]; then
        fail "Esc quits with --screenshot" "no window appeared: $(head -c 300 "$err")"
    elif [ $rc -ne 0 ] || [ ! -s "$tmp/esc.png" ]; then
        fail "Esc quits with --screenshot" "exit $rc, screenshot $(ls -l "$tmp/esc.png" 2>&1)"
    else
        read -r w h _ < <("$probe" "$tmp/esc.png")
        [ "$w" = 1440 ] && [ "$h" = 900 ] && ok "Esc quits; --screenshot saved the frame on screen" ||
            fail "Esc quits with --screenshot" "screenshot ${w}x${h}"
    fi
else
    fail "Esc quits with --screenshot" "xdotool is not installed (.ci/install-deps installs it)"
fi

# ---- broken and missing files ------------------------------------------------
mkdir -p "$tmp/a"
cp -r "$data/shaders" "$data/assets" "$tmp/a/"
printf 'out vec4 o_color;\nvoid main() { o_color = vec4(1.0) +; }\n' >"$tmp/a/shaders/particles.frag"
"$bin" "${small[@]}" --frames 1 --assets "$tmp/a" --screenshot "$tmp/shot.png" >"$out" 2>"$err"
expect_failure "broken shader names file and line" $? "$tmp/a/shaders/particles.frag:2:"

cp "$data/shaders/particles.frag" "$tmp/a/shaders/"
rm "$tmp/a/assets/DejaVuSans.ttf"
"$bin" "${small[@]}" --frames 1 --assets "$tmp/a" --screenshot "$tmp/shot.png" >"$out" 2>"$err"
expect_failure "missing font names the file" $? "$tmp/a/assets/DejaVuSans.ttf"

# A damaged font: hhea's ascent and descent swapped (stb_truetype alone
# would divide by a negative line height and abort in its rasteriser).
python3 - "$data/assets/DejaVuSans.ttf" "$tmp/a/assets/DejaVuSans.ttf" <<'PY'
import struct, sys
font = bytearray(open(sys.argv[1], "rb").read())
for i in range(struct.unpack(">H", font[4:6])[0]):
    tag, _, off, _ = struct.unpack(">4sIII", font[12 + 16 * i:28 + 16 * i])
    if tag == b"hhea":
        font[off + 4:off + 8] = font[off + 6:off + 8] + font[off + 4:off + 6]
open(sys.argv[2], "wb").write(font)
PY
"$bin" "${small[@]}" --frames 1 --assets "$tmp/a" --screenshot "$tmp/shot.png" >"$out" 2>"$err"
expect_failure "damaged font names the file" $? "$tmp/a/assets/DejaVuSans.ttf" "hhea"

# A shader one byte past the limit of 1 MiB: refused before it is compiled.
cp "$data/assets/DejaVuSans.ttf" "$tmp/a/assets/"
head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' ' ' >"$tmp/a/shaders/overlay.vert"
"$bin" "${small[@]}" --frames 1 --assets "$tmp/a" --screenshot "$tmp/shot.png" >"$out" 2>"$err"
expect_failure "a shader past 1 MiB names the file and the limit" $? \
    "$tmp/a/shaders/overlay.vert: larger than 1 MiB"
cp "$data/shaders/overlay.vert" "$tmp/a/shaders/"

# A font one byte past the limit of 16 MiB: refused before it is read.
head -c $((16 * 1024 * 1024 + 1)) /dev/zero >"$tmp/a/assets/DejaVuSans.ttf"
"$bin" "${small[@]}" --frames 1 --assets "$tmp/a" --screenshot "$tmp/shot.png" >"$out" 2>"$err"
expect_failure "a font past 16 MiB names the file and the limit" $? \
    "$tmp/a/assets/DejaVuSans.ttf: larger than 16 MiB"
cp "$data/assets/DejaVuSans.ttf" "$tmp/a/assets/"

# (An --assets that is not a directory is bad input, exit 2: test_cli.sh.)

# ---- no display, no OpenGL 3.3 -----------------------------------------------
env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$bin" "${small[@]}" --frames 1 \
    --screenshot "$tmp/shot.png" >"$out" 2>"$err"
expect_failure "no display suggests the bench" $? "no display" "particles bench"

# An X server that is not there: one line naming it (no stray line from a
# Wayland probe), not a silent fall-back to an invisible driver.
env -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER DISPLAY=:7391 "$bin" "${small[@]}" --frames 1 \
    --screenshot "$tmp/shot.png" >"$out" 2>"$err"
expect_failure "unreachable X server is named" $? "DISPLAY=:7391" "particles bench"

# An explicit SDL_VIDEODRIVER is SDL's to try, display variables or not
# (kmsdrm on a console, offscreen): one it cannot open is named in the line.
env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=nosuchdriver "$bin" "${small[@]}" --frames 1 \
    --screenshot "$tmp/shot.png" >"$out" 2>"$err"
expect_failure "an explicit video driver is left to SDL" $? "no display" "nosuchdriver"

MESA_GL_VERSION_OVERRIDE=3.0 "$bin" "${small[@]}" --frames 1 --screenshot "$tmp/shot.png" \
    >"$out" 2>"$err"
expect_failure "OpenGL older than 3.3" $? "OpenGL" "3.3" "particles bench"

finish "window"
