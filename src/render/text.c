/* text.c - a TrueType font (stb_truetype) baked into a glyph atlas once,
 * and ASCII text laid out as textured overlay quads. */
#include "gfx_internal.h"

#include <stb_truetype.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FONT_MAX_BYTES (16u << 20)

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static uint32_t be16(const unsigned char *p) { return (uint32_t)p[0] << 8 | p[1]; }

/* A table of the font's directory, checked to lie inside the file. */
static bool find_table(const unsigned char *ttf, size_t size, const char *tag, uint32_t *off,
                       uint32_t *len)
{
    uint32_t tables = be16(ttf + 4);
    for (uint32_t i = 0; i < tables; i++) {
        const unsigned char *rec = ttf + 12u + 16u * i;
        if (memcmp(rec, tag, 4) != 0) continue;
        *off = be32(rec + 8);
        *len = be32(rec + 12);
        return (uint64_t)*off + *len <= size;
    }
    return false;
}

/* stb_truetype trusts the file: before it reads one, the directory, the
 * tables it uses and every glyph's place in 'glyf' (through 'loca') must
 * lie inside the file. A glyph's own contours are not checked. */
static bool font_structure_ok(const unsigned char *ttf, size_t size)
{
    if (size < 12u || (uint64_t)12u + 16u * (uint64_t)be16(ttf + 4) > size) return false;
    static const char *const required[] = {"cmap", "hhea", "hmtx"};
    uint32_t off, len;
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!find_table(ttf, size, required[i], &off, &len)) return false;
    uint32_t head, head_len, maxp, maxp_len, loca, loca_len, glyf, glyf_len;
    if (!find_table(ttf, size, "head", &head, &head_len) || head_len < 54u ||
        !find_table(ttf, size, "maxp", &maxp, &maxp_len) || maxp_len < 6u ||
        !find_table(ttf, size, "loca", &loca, &loca_len) ||
        !find_table(ttf, size, "glyf", &glyf, &glyf_len))
        return false;
    bool long_loca = be16(ttf + head + 50u) != 0;
    uint32_t glyphs = be16(ttf + maxp + 4u), entry = long_loca ? 4u : 2u;
    if ((uint64_t)(glyphs + 1u) * entry > loca_len) return false;
    uint32_t prev = 0;
    for (uint32_t g = 0; g <= glyphs; g++) {
        const unsigned char *e = ttf + loca + (size_t)g * entry;
        uint32_t at = long_loca ? be32(e) : 2u * be16(e);
        if (at < prev || at > glyf_len) return false;
        prev = at;
    }
    return true;
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
    unsigned char *ttf = gfx__read_file(path, FONT_MAX_BYTES, "the font", &size, err);
    if (!ttf) return err ? err->status : GFX_ERR_FILE;
    stbtt_fontinfo info;
    /* One font, not a collection: its directory starts the file. */
    if (!font_structure_ok(ttf, size) || stbtt_GetFontOffsetForIndex(ttf, 0) != 0 ||
        !stbtt_InitFont(&info, ttf, 0)) {
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
