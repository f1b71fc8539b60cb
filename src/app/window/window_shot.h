/* window_shot.h - screenshots: the drawn frame as a PNG file. */
#ifndef WINDOW_SHOT_H
#define WINDOW_SHOT_H

#include <stdint.h>

#include "gfx.h"

/* Reads the frame just drawn (before the swap) and writes it to path as a
 * PNG, replacing the file whole or not at all. Returns 0, or 1 after
 * printing one line. */
int window_shot_save(gfx_renderer *r, int w, int h, const char *path);

/* A fresh name in the current directory: particles-YYYYmmdd-HHMMSS[-N].png. */
void window_shot_name(char *buf, size_t size);

#endif /* WINDOW_SHOT_H */
