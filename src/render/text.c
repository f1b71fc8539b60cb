/* text.c - a TrueType font (stb_truetype) baked into a glyph atlas once,
 * and ASCII text laid out as textured overlay quads. */
#include "gfx_internal.h"

#include <stb_truetype.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FONT_MAX_BYTES (16u << 20)

static unsigned char *read_file(const char *path, size_t *size, gfx_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        gfx__fail(err, GFX_ERR_FILE, "%s: cannot open the font: %s", path, strerror(errno));
        return NULL;
    }
    unsigned char *buf = malloc(FONT_MAX_BYTES);
    size_t n = buf ? fread(buf, 1, FONT_MAX_BYTES, f) : 0;
    bool bad = !buf || ferror(f) || n == FONT_MAX_BYTES;
    fclose(f);
    if (bad) {
        gfx__fail(err, buf ? GFX_ERR_FILE : GFX_ERR_NOMEM, "%s: %s", path,
                  !buf ? "out of memory" : n == FONT_MAX_BYTES ? "larger than 16 MiB" : "read error");
        free(buf);
        return NULL;
    }
    *size = n;
    return buf;
}

/* Bakes glyphs 32..126 into a w x h atlas; false when they do not fit. */
static bool bake(const unsigned char *ttf, float px, unsigned char *pixels, int w, int h,
                 stbtt_bakedchar *chars)
{
    return stbtt_BakeFontBitmap(ttf, 0, px, pixels, w, h, GFX_GLYPH_FIRST, GFX_GLYPH_COUNT,
                                chars) > 0;
}

static void upload_atlas(gfx_font *f, const unsigned char *pixels)
{
    glGenTextures(1, &f->texture);
    glBindTexture(GL_TEXTURE_2D, f->texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, f->atlas_w, f->atlas_h, 0, GL_RED, GL_UNSIGNED_BYTE,
                 pixels);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
}

gfx_status gfx__font_init(gfx_font *f, const char *path, float px, gfx_error *err)
{
    size_t size = 0;
    unsigned char *ttf = read_file(path, &size, err);
    if (!ttf) return err ? err->status : GFX_ERR_FILE;
    stbtt_fontinfo info;
    int offset = stbtt_GetFontOffsetForIndex(ttf, 0);
    if (size < 12 || offset < 0 || !stbtt_InitFont(&info, ttf, offset)) {
        free(ttf);
        return gfx__fail(err, GFX_ERR_FONT, "%s: not a TrueType font", path);
    }
    int ascent, descent, gap;
    stbtt_GetFontVMetrics(&info, &ascent, &descent, &gap);
    float scale = stbtt_ScaleForPixelHeight(&info, px);
    f->px = px;
    f->ascent = roundf((float)ascent * scale);
    f->line_height = roundf((float)(ascent - descent + gap) * scale);

    stbtt_bakedchar chars[GFX_GLYPH_COUNT];
    unsigned char *pixels = NULL;
    bool ok = false;
    for (int side = 256; side <= 2048 && !ok; side *= 2) {
        free(pixels);
        pixels = calloc((size_t)side * (size_t)side, 1);
        if (!pixels) break;
        f->atlas_w = f->atlas_h = side;
        ok = bake(ttf, px, pixels, side, side, chars);
    }
    free(ttf);
    if (!ok) {
        free(pixels);
        return gfx__fail(err, pixels ? GFX_ERR_FONT : GFX_ERR_NOMEM,
                         "%s: the glyphs do not fit a 2048-pixel atlas at %.0f px", path, px);
    }
    for (int i = 0; i < GFX_GLYPH_COUNT; i++)
        f->glyphs[i] = (gfx_glyph){chars[i].x0, chars[i].y0, chars[i].x1, chars[i].y1,
                                   chars[i].xoff, chars[i].yoff, chars[i].xadvance};
    upload_atlas(f, pixels);
    free(pixels);
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
