/* font.h - a TrueType font checked and baked into a glyph atlas, with no
 * OpenGL: text.c uploads the atlas, tests bake damaged fonts directly.
 * Private to src/render (and its tests). */
#ifndef GFX_FONT_H
#define GFX_FONT_H

#include "gfx.h"

/* The glyphs baked: ASCII 32..126. */
#define GFX_GLYPH_FIRST 32
#define GFX_GLYPH_COUNT 95

typedef struct gfx_glyph {
    float x0, y0, x1, y1; /* atlas rectangle, pixels */
    float xoff, yoff, advance;
} gfx_glyph;

/* A baked font: one square single-channel atlas and where each glyph is. */
typedef struct gfx_atlas {
    int side;              /* the atlas is side x side pixels */
    unsigned char *pixels; /* coverage, rows top to bottom */
    float ascent, line_height;
    gfx_glyph glyphs[GFX_GLYPH_COUNT];
} gfx_atlas;

/* Checks the font in ttf[0..size) (every table and glyph outline it is
 * going to read) and bakes glyphs 32..126 at px pixels into *out. A font
 * that is damaged, or that is no TrueType font, is refused with
 * GFX_ERR_FONT and one line naming `name`; nothing is read outside
 * ttf[0..size). */
gfx_status gfx__font_bake(const unsigned char *ttf, size_t size, float px, const char *name,
                          gfx_atlas *out, gfx_error *err);
void gfx__atlas_free(gfx_atlas *a);

#endif /* GFX_FONT_H */
