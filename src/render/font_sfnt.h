/* font_sfnt.h - the parts of a TrueType file the atlas is baked from,
 * each checked before anything reads it. Private to src/render. */
#ifndef GFX_FONT_SFNT_H
#define GFX_FONT_SFNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct gfx_sfnt {
    const unsigned char *data;
    size_t size;
    uint32_t loca, glyf, glyf_len, hmtx, cmap_sub, cmap_sub_len;
    uint32_t glyphs, long_metrics, units_per_em;
    bool long_loca;
    int ascent, descent, gap; /* font units */
} gfx_sfnt;

/* Checks the table directory and the tables cmap, head, hhea, hmtx, maxp,
 * loca and glyf: each inside the file, long enough for what is read from
 * it, with sane metrics, loca's offsets in order inside glyf, and a
 * Unicode cmap subtable (format 4 or 12) that stb_truetype's own set-up
 * can read. False with *why set (a short phrase) when it is not so. */
bool gfx__sfnt_open(gfx_sfnt *f, const unsigned char *data, size_t size, const char **why);

/* The glyph of a codepoint: 0 (the missing glyph) where the font has
 * none. False with *why set where the cmap subtable is damaged. */
bool gfx__sfnt_glyph_of(const gfx_sfnt *f, uint32_t codepoint, uint32_t *glyph,
                        const char **why);

/* Checks one glyph's outline as stb_truetype is going to read it: the
 * contour ends in order, the flags and coordinates inside the glyph's
 * bytes, composite glyphs bounded in depth and size, with offsets that
 * keep every point within 16-bit coordinates. */
bool gfx__sfnt_glyph_ok(const gfx_sfnt *f, uint32_t glyph, const char **why);

/* The glyph's advance width, font units; false with *why set where it is
 * wider than four em (a damaged hmtx). */
bool gfx__sfnt_advance(const gfx_sfnt *f, uint32_t glyph, uint32_t *advance, const char **why);

#endif /* GFX_FONT_SFNT_H */
