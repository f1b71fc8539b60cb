/* window_assets.h - where the shaders and the font are found. */
#ifndef WINDOW_ASSETS_H
#define WINDOW_ASSETS_H

#include <stddef.h>

#define WINDOW_FONT_FILE "DejaVuSans.ttf"

typedef struct window_assets {
    char shader_dir[1024]; /* ROOT/shaders */
    char font_path[1024];  /* ROOT/assets/DejaVuSans.ttf */
} window_assets;

/* ROOT is `given` (--assets), else the executable's directory when it
 * holds shaders/ (the build tree), else EXEDIR/../share/particles (an
 * install). Returns 0, 2 (bad input) when `given` is not a directory, or
 * 1 when nothing was given and no shaders were found, after printing one
 * line naming what is missing. */
int window_assets_find(const char *given, window_assets *out);

#endif /* WINDOW_ASSETS_H */
