/* window_shot.h - screenshots: the drawn frame as a PNG file, written
 * through the output module (out.h). */
#ifndef WINDOW_SHOT_H
#define WINDOW_SHOT_H

#include <stddef.h>
#include <stdint.h>

#include "gfx.h"
#include "out.h"

/* Reads the frame just drawn (before the swap) and writes it as a PNG
 * through out, staged by app_out_stage before the window opened (--screenshot),
 * replacing the file whole or not at all; discards out either way. Returns
 * 0, or 1 after printing one line, or 1 with no line where a stop signal
 * (stop.h) arrived before the file was put in place: the old one stays. */
int window_shot_save(gfx_renderer *r, int w, int h, app_out *out);

/* The S key: saves the frame to a fresh name in the current directory,
 * particles-YYYYmmdd-HHMMSS[-N].png, into name; never replaces a file. */
int window_shot_key(gfx_renderer *r, int w, int h, char *name, size_t size);

#endif /* WINDOW_SHOT_H */
