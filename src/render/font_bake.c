/* font_bake.c - glyphs 32..126 of a checked TrueType font (font_sfnt.h)
 * rasterised by stb_truetype into one atlas.
 *
 * Each glyph's box is taken from the points of its outline, not from the
 * box its header claims, so that the rasteriser is never handed an
 * outline larger than its bitmap. */
#include "font.h"
#include "font_sfnt.h"
#include "gfx_internal.h"

#include <stb_truetype.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ATLAS_SIDE_MIN 256
#define ATLAS_SIDE_MAX 2048

/* One glyph's outline and where its pixels go. */
typedef struct shape {
    stbtt_vertex *verts;
    int count;
    int x0, y0, w, h;  /* pixel box, y down, relative to the pen on the baseline */
    int ax, ay;        /* place in the atlas */
    float advance;     /* pixels */
} shape;

static gfx_status refuse(gfx_error *err, const char *name, const char *why)
{
    return gfx__fail(err, GFX_ERR_FONT, "%s: not a usable TrueType font (%s)", name, why);
}

/* The pixel box of the outline's points (control points included: a curve
 * stays inside them) at `scale`. */
static void box_of(shape *s, float scale)
{
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    for (int i = 0; i < s->count; i++) {
        const stbtt_vertex *v = &s->verts[i];
        int xs[2] = {v->x, v->cx}, ys[2] = {v->y, v->cy};
        int n = v->type == STBTT_vcurve ? 2 : 1;
        for (int k = 0; k < n; k++) {
            bool first = i == 0 && k == 0;
            x0 = first || xs[k] < x0 ? xs[k] : x0;
            x1 = first || xs[k] > x1 ? xs[k] : x1;
            y0 = first || ys[k] < y0 ? ys[k] : y0;
            y1 = first || ys[k] > y1 ? ys[k] : y1;
        }
    }
    /* Font units are y up; the atlas is y down. */
    s->x0 = (int)floorf((float)x0 * scale);
    s->y0 = (int)floorf((float)-y1 * scale);
    s->w = s->count ? (int)ceilf((float)x1 * scale) - s->x0 : 0;
    s->h = s->count ? (int)ceilf((float)-y0 * scale) - s->y0 : 0;
}

/* Each glyph's outline, checked first. */
static gfx_status load_shapes(const gfx_sfnt *sf, const stbtt_fontinfo *info, float scale,
                              shape *shapes, const char *name, gfx_error *err)
{
    for (int i = 0; i < GFX_GLYPH_COUNT; i++) {
        const char *why = NULL;
        uint32_t g = 0, advance = 0;
        if (!gfx__sfnt_glyph_of(sf, (uint32_t)(GFX_GLYPH_FIRST + i), &g, &why) ||
            !gfx__sfnt_glyph_ok(sf, g, &why) || !gfx__sfnt_advance(sf, g, &advance, &why))
            return refuse(err, name, why);
        shape *s = &shapes[i];
        /* Where stb_truetype runs out of memory it returns no points: the
         * glyph is then left blank, as a space. */
        s->count = stbtt_GetGlyphShape(info, (int)g, &s->verts);
        box_of(s, scale);
        s->advance = (float)advance * scale;
    }
    return GFX_OK;
}

/* Rows of glyphs left to right, one pixel apart and from the edges. */
static bool pack(shape *shapes, int side)
{
    int x = 1, y = 1, bottom = 1;
    for (int i = 0; i < GFX_GLYPH_COUNT; i++) {
        shape *s = &shapes[i];
        if (s->w + 2 > side) return false;
        if (x + s->w + 1 > side) x = 1, y = bottom;
        if (y + s->h + 1 > side) return false;
        s->ax = x;
        s->ay = y;
        x += s->w + 1;
        if (y + s->h + 1 > bottom) bottom = y + s->h + 1;
    }
    return true;
}

static void rasterise(const shape *shapes, float scale, gfx_atlas *out)
{
    for (int i = 0; i < GFX_GLYPH_COUNT; i++) {
        const shape *s = &shapes[i];
        if (s->w > 0 && s->h > 0) {
            stbtt__bitmap bm = {s->w, s->h, out->side,
                                out->pixels + (size_t)s->ay * (size_t)out->side + (size_t)s->ax};
            stbtt_Rasterize(&bm, 0.35f, s->verts, s->count, scale, scale, 0.0f, 0.0f, s->x0,
                            s->y0, 1, NULL);
        }
        out->glyphs[i] = (gfx_glyph){(float)s->ax,         (float)s->ay,
                                     (float)(s->ax + s->w), (float)(s->ay + s->h),
                                     (float)s->x0,          (float)s->y0,
                                     s->advance};
    }
}

static gfx_status bake_shapes(shape *shapes, float scale, const char *name, float px,
                              gfx_atlas *out, gfx_error *err)
{
    int side = ATLAS_SIDE_MIN;
    while (side <= ATLAS_SIDE_MAX && !pack(shapes, side)) side *= 2;
    if (side > ATLAS_SIDE_MAX)
        return gfx__fail(err, GFX_ERR_FONT, "%s: the glyphs do not fit a %d-pixel atlas at %.0f px",
                         name, ATLAS_SIDE_MAX, px);
    out->pixels = calloc((size_t)side * (size_t)side, 1);
    if (!out->pixels) return gfx__fail(err, GFX_ERR_NOMEM, "%s: out of memory for the atlas", name);
    out->side = side;
    rasterise(shapes, scale, out);
    return GFX_OK;
}

gfx_status gfx__font_bake(const unsigned char *ttf, size_t size, float px, const char *name,
                          gfx_atlas *out, gfx_error *err)
{
    memset(out, 0, sizeof *out);
    if (!(px >= 1.0f && px <= 512.0f))
        return gfx__fail(err, GFX_ERR_INVALID, "%s: a font size of %g px is outside 1..512", name,
                         (double)px);
    gfx_sfnt sf;
    const char *why = NULL;
    if (!gfx__sfnt_open(&sf, ttf, size, &why)) return refuse(err, name, why);
    stbtt_fontinfo info;
    if (!stbtt_InitFont(&info, ttf, 0)) return refuse(err, name, "its tables are unreadable");
    float scale = px / (float)(sf.ascent - sf.descent);
    out->ascent = roundf((float)sf.ascent * scale);
    out->line_height = roundf((float)(sf.ascent - sf.descent + sf.gap) * scale);
    shape shapes[GFX_GLYPH_COUNT];
    memset(shapes, 0, sizeof shapes);
    gfx_status st = load_shapes(&sf, &info, scale, shapes, name, err);
    if (st == GFX_OK) st = bake_shapes(shapes, scale, name, px, out, err);
    for (int i = 0; i < GFX_GLYPH_COUNT; i++) stbtt_FreeShape(&info, shapes[i].verts);
    return st;
}

void gfx__atlas_free(gfx_atlas *a)
{
    free(a->pixels);
    a->pixels = NULL;
}
