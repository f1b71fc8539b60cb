/* window_assets.h - where the shaders and the font are found, and their
 * files read whole for the renderer. */
#ifndef WINDOW_ASSETS_H
#define WINDOW_ASSETS_H

#include <stddef.h>

#include <gfx.h>

#define WINDOW_FONT_FILE "DejaVuSans.ttf"

/* The files: the shaders in gfx_shader's order, then the font. */
enum { WINDOW_ASSET_FONT = GFX_SHADER_COUNT, WINDOW_ASSET_COUNT };

typedef struct window_assets {
    char path[WINDOW_ASSET_COUNT][1024]; /* ROOT/shaders/NAME, ROOT/assets/DejaVuSans.ttf */
    unsigned char *bytes[WINDOW_ASSET_COUNT]; /* window_assets_read's */
    size_t size[WINDOW_ASSET_COUNT];
} window_assets;

/* ROOT is `given` (--assets), else the executable's directory when it
 * holds shaders/ (the build tree), else EXEDIR/../share/particles (an
 * install). Returns 0, 2 (bad input) when `given` is not a directory, or
 * 1 when nothing was given and no shaders were found, after printing one
 * line naming what is missing. */
int window_assets_find(const char *given, window_assets *out);

/* Reads every file whole. Returns 0; 1 after one line naming the file
 * that cannot be read, is larger than a shader (1 MiB) or the font
 * (16 MiB) may be, or does not fit in memory; or app_stop_status when a
 * stop signal came before or during the reading (a FIFO waiting for its
 * writer). Nothing is kept on failure. */
int window_assets_read(window_assets *a);
/* File i's content, as gfx_def takes it. */
gfx_file window_assets_file(const window_assets *a, int i);
void window_assets_free(window_assets *a);

#endif /* WINDOW_ASSETS_H */
