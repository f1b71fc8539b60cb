/* text.c - the font's atlas (font.h) as a texture, and ASCII text laid out
 * as textured overlay quads. */
#include "gfx_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void upload_atlas(gfx_font *f, const gfx_atlas *a)
{
    f->atlas_w = f->atlas_h = a->side;
    glGenTextures(1, &f->texture);
    glBindTexture(GL_TEXTURE_2D, f->texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, f->atlas_w, f->atlas_h, 0, GL_RED, GL_UNSIGNED_BYTE,
                 a->pixels);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
}

gfx_status gfx__font_init(gfx_font *f, const gfx_file *ttf, float px, gfx_error *err)
{
    gfx_atlas atlas;
    gfx_status st = gfx__font_bake(ttf->bytes, ttf->size, px, ttf->name, &atlas, err);
    if (st != GFX_OK) return st;
    f->px = px;
    f->ascent = atlas.ascent;
    f->line_height = atlas.line_height;
    memcpy(f->glyphs, atlas.glyphs, sizeof f->glyphs);
    upload_atlas(f, &atlas);
    gfx__atlas_free(&atlas);
    return GFX_OK;
}

void gfx__font_fini(gfx_font *f)
{
    if (f->texture) glDeleteTextures(1, &f->texture);
    f->texture = 0;
}

static const gfx_glyph *glyph_of(const gfx_font *f, unsigned char ch)
{
    if (ch < GFX_GLYPH_FIRST || ch >= GFX_GLYPH_FIRST + GFX_GLYPH_COUNT) ch = '?';
    return &f->glyphs[ch - GFX_GLYPH_FIRST];
}

float gfx_text_width(const gfx_renderer *r, const char *s)
{
    float w = 0.0f;
    for (; *s; s++) w += glyph_of(&r->font, (unsigned char)*s)->advance;
    return w;
}

float gfx_line_height(const gfx_renderer *r) { return r->font.line_height; }

float gfx_text(gfx_renderer *r, float x, float y, const char *s, gfx_color c)
{
    const gfx_font *f = &r->font;
    float pen = roundf(x), base = roundf(y) + f->ascent;
    float iw = 1.0f / (float)f->atlas_w, ih = 1.0f / (float)f->atlas_h;
    for (; *s; s++) {
        const gfx_glyph *g = glyph_of(f, (unsigned char)*s);
        float x0 = pen + g->xoff, y0 = base + g->yoff;
        if (g->x1 > g->x0)
            gfx__overlay_quad(r, x0, y0, x0 + (g->x1 - g->x0), y0 + (g->y1 - g->y0), g->x0 * iw,
                              g->y0 * ih, g->x1 * iw, g->y1 * ih, c);
        pen += g->advance;
    }
    return pen - roundf(x);
}
