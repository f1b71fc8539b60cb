/* test_font.c - the font loader against damaged fonts, with no window.
 *
 * DejaVu Sans is damaged in many ways, each copy made the same way from a
 * fixed seed: bytes overwritten inside each table the loader reads (the
 * table directory, cmap, head, hhea, hmtx, maxp, loca and the outlines in
 * glyf), single fields set to extreme values, the file cut short. Every
 * copy is baked in a buffer of exactly its size (the sanitizers catch a
 * read past its end). Each must either bake (the atlas then holds every
 * glyph inside it) or be refused with GFX_ERR_FONT and one line naming the
 * file; never crash, hang or read outside the file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "font.h"
#include "font_sfnt.h"

#define FONT_NAME "damaged.ttf"

static unsigned char *font;
static size_t font_size;

typedef struct rng {
    uint64_t s;
} rng;

/* splitmix64 */
static uint64_t next(rng *r)
{
    uint64_t z = (r->s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static uint32_t below(rng *r, uint32_t n) { return (uint32_t)(next(r) % n); }

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put16(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 8);
    p[1] = (unsigned char)v;
}

/* A table's place in the undamaged file. */
typedef struct span {
    uint32_t off, len;
} span;

static span table(const char *tag)
{
    unsigned n = (unsigned)font[4] << 8 | font[5];
    for (unsigned i = 0; i < n; i++) {
        const unsigned char *rec = font + 12 + 16 * i;
        if (memcmp(rec, tag, 4) == 0) return (span){get32(rec + 8), get32(rec + 12)};
    }
    fail_msg("DejaVu Sans has no '%s' table", tag);
    return (span){0, 0};
}

static int setup(void **state)
{
    (void)state;
    FILE *f = fopen(PARTICLES_SOURCE_DIR "/assets/DejaVuSans.ttf", "rb");
    if (!f) return -1;
    font = malloc(1u << 20);
    font_size = font ? fread(font, 1, 1u << 20, f) : 0;
    fclose(f);
    return font_size > 1000 && font_size < (1u << 20) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(font);
    return 0;
}

/* A baked atlas: every glyph's rectangle inside it, sane metrics. */
static void expect_sane_atlas(const gfx_atlas *a)
{
    assert_true(a->side >= 64 && a->side <= 4096);
    assert_non_null(a->pixels);
    assert_true(a->line_height > 0.0f && a->line_height < 1000.0f);
    for (int i = 0; i < GFX_GLYPH_COUNT; i++) {
        const gfx_glyph *g = &a->glyphs[i];
        assert_true(g->x0 >= 0.0f && g->x0 <= g->x1 && g->x1 <= (float)a->side);
        assert_true(g->y0 >= 0.0f && g->y0 <= g->y1 && g->y1 <= (float)a->side);
        assert_true(g->advance >= 0.0f && g->advance < 1000.0f);
    }
}

typedef struct tally {
    unsigned baked, refused;
} tally;

/* Bakes copy[0..size) from a buffer of exactly that size. */
static void bake(const unsigned char *copy, size_t size, float px, tally *t)
{
    unsigned char *exact = malloc(size ? size : 1);
    assert_non_null(exact);
    memcpy(exact, copy, size);
    gfx_atlas a;
    memset(&a, 0, sizeof a);
    gfx_error err = {0};
    gfx_status st = gfx__font_bake(exact, size, px, FONT_NAME, &a, &err);
    free(exact);
    if (st == GFX_OK) {
        expect_sane_atlas(&a);
        gfx__atlas_free(&a);
        t->baked++;
        return;
    }
    assert_int_equal(st, GFX_ERR_FONT);
    assert_int_equal(err.status, GFX_ERR_FONT);
    if (strncmp(err.message, FONT_NAME ": ", strlen(FONT_NAME) + 2) != 0)
        fail_msg("'%s' does not start with the font's name", err.message);
    assert_null(strchr(err.message, '\n'));
    t->refused++;
}

static void test_undamaged_bakes(void **state)
{
    (void)state;
    tally t = {0, 0};
    bake(font, font_size, 15.0f, &t);
    bake(font, font_size, 45.0f, &t);
    assert_int_equal(t.baked, 2);
}

/* The glyphs ASCII maps to sit among DejaVu Sans's first 256: their
 * outlines, as loca (long offsets in this font) places them. */
static span ascii_outlines(void)
{
    span glyf = table("glyf"), loca = table("loca");
    return (span){glyf.off, get32(font + loca.off + 256u * 4u)};
}

/* `count` copies, each with 1..max_bytes random bytes of s overwritten. */
static tally overwrite(span s, unsigned count, unsigned max_bytes, uint64_t seed)
{
    unsigned char *copy = malloc(font_size);
    assert_non_null(copy);
    rng r = {seed};
    tally t = {0, 0};
    for (unsigned c = 0; c < count; c++) {
        memcpy(copy, font, font_size);
        unsigned n = 1 + below(&r, max_bytes);
        for (unsigned k = 0; k < n; k++) {
            uint32_t at = s.off + below(&r, s.len);
            /* Half the time one bit flipped, else a random byte. */
            if (next(&r) & 1) copy[at] ^= (unsigned char)(1u << below(&r, 8));
            else copy[at] = (unsigned char)next(&r);
        }
        bake(copy, font_size, c % 4 == 0 ? 40.0f : 15.0f, &t);
    }
    free(copy);
    return t;
}

static void test_overwritten_tables(void **state)
{
    (void)state;
    const char *tags[] = {"cmap", "head", "hhea", "hmtx", "maxp", "loca"};
    tally all = {0, 0};
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) {
        span s = table(tags[i]);
        /* hmtx, loca and cmap are long: aim at their first entries too. */
        span head = {s.off, s.len < 1024 ? s.len : 1024};
        tally a = overwrite(s, 150, 6, 1000 + i), b = overwrite(head, 150, 6, 2000 + i);
        all.baked += a.baked + b.baked;
        all.refused += a.refused + b.refused;
    }
    tally dir = overwrite((span){0, 12 + 16 * 20}, 300, 4, 3000);
    all.baked += dir.baked;
    all.refused += dir.refused;
    /* Both outcomes happen: the damage is sometimes harmless. */
    assert_true(all.baked > 0 && all.refused > 0);
}

static void test_overwritten_outlines(void **state)
{
    (void)state;
    tally t = overwrite(ascii_outlines(), 1500, 8, 4000);
    assert_true(t.baked > 0 && t.refused > 0);
}

/* One 16-bit field set to values at and around its extremes. */
static void test_extreme_fields(void **state)
{
    (void)state;
    span head = table("head"), hhea = table("hhea"), maxp = table("maxp"), loca = table("loca");
    span hmtx = table("hmtx");
    const uint32_t fields[] = {
        head.off + 18, head.off + 50, /* unitsPerEm, indexToLocFormat */
        head.off + 36, head.off + 38, head.off + 40, head.off + 42, /* the font's box */
        hhea.off + 4, hhea.off + 6, hhea.off + 8, hhea.off + 34, /* ascent, descent, gap, metrics */
        maxp.off + 4,                                            /* numGlyphs */
        loca.off + 2, loca.off + 4 * 36 + 2, loca.off + 4 * 37,  /* glyph offsets */
        hmtx.off + 4 * 17, hmtx.off + 4 * 36,                   /* advances of '.' and 'A' */
        4,                                                       /* numTables */
    };
    const uint32_t values[] = {0, 1, 2, 3, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff, 16, 4096};
    unsigned char *copy = malloc(font_size);
    assert_non_null(copy);
    tally t = {0, 0};
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
        for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
            memcpy(copy, font, font_size);
            put16(copy + fields[f], values[v]);
            bake(copy, font_size, 15.0f, &t);
        }
    free(copy);
    assert_true(t.refused > 0);
}

/* Where the outline of the glyph for ch starts in the file, and its length. */
static span outline_of(char ch)
{
    gfx_sfnt sf;
    const char *why = NULL;
    uint32_t g = 0;
    assert_true(gfx__sfnt_open(&sf, font, font_size, &why));
    assert_true(gfx__sfnt_glyph_of(&sf, (uint32_t)ch, &g, &why));
    assert_true(sf.long_loca);
    const unsigned char *e = font + sf.loca + 4u * g;
    return (span){sf.glyf + get32(e), get32(e + 4) - get32(e)};
}

/* Outlines written by hand over the glyph of '.', each damaged in one way
 * a random byte seldom finds. */
static void test_crafted_outlines(void **state)
{
    (void)state;
    span dot = outline_of('.');
    static const unsigned char crafted[][20] = {
        /* One contour of one point, off the curve: stb_truetype looks at
         * the point after it. */
        {0, 1, 0, 0, 0, 0, 0, 100, 0, 100, 0, 0, 0, 0, 0x00, 0, 50, 0, 50},
        /* A composite whose part is itself (endless recursion). */
        {0xff, 0xff, 0, 0, 0, 0, 0, 100, 0, 100, 0, 0x22, 0, 0, 0, 0, 0, 0, 0, 0},
        /* Contour ends out of order. */
        {0, 2, 0, 0, 0, 0, 0, 100, 0, 100, 0, 3, 0, 1, 0, 0, 0x37, 0x37, 0x37, 0x37},
        /* A composite placed by matching points (not supported by stb). */
        {0xff, 0xff, 0, 0, 0, 0, 0, 100, 0, 100, 0, 0x00, 0, 3, 0, 0, 0, 0, 0, 0},
        /* A composite part shifted far out of 16-bit range, scaled 2x. */
        {0xff, 0xff, 0, 0, 0, 0, 0, 100, 0, 100, 0, 0x0b, 0, 17, 0x7f, 0xff, 0x7f, 0xff, 0x7f, 0xff},
    };
    unsigned char *copy = malloc(font_size);
    assert_non_null(copy);
    tally t = {0, 0};
    for (size_t i = 0; i < sizeof crafted / sizeof crafted[0]; i++) {
        assert_true(dot.len >= sizeof crafted[i]);
        memcpy(copy, font, font_size);
        memcpy(copy + dot.off, crafted[i], sizeof crafted[i]);
        /* The composite's own glyph index: the '.' glyph itself. */
        if (i == 1) {
            gfx_sfnt sf;
            const char *why = NULL;
            uint32_t g = 0;
            assert_true(gfx__sfnt_open(&sf, font, font_size, &why));
            assert_true(gfx__sfnt_glyph_of(&sf, '.', &g, &why));
            put16(copy + dot.off + 12, g);
        }
        bake(copy, font_size, 15.0f, &t);
    }
    free(copy);
    assert_int_equal(t.refused, sizeof crafted / sizeof crafted[0]);
}

/* The file cut short anywhere: in the directory, in each table, at random. */
static void test_truncated(void **state)
{
    (void)state;
    tally t = {0, 0};
    for (size_t n = 0; n < 12 + 16 * 21; n += 3) bake(font, n, 15.0f, &t);
    const char *tags[] = {"cmap", "head", "hhea", "hmtx", "maxp", "loca", "glyf"};
    rng r = {5000};
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) {
        span s = table(tags[i]);
        for (int k = 0; k < 8; k++) bake(font, s.off + below(&r, s.len), 15.0f, &t);
        bake(font, s.off + s.len - 1, 15.0f, &t);
    }
    for (int k = 0; k < 20; k++) bake(font, below(&r, (uint32_t)font_size), 15.0f, &t);
    /* Every table ends before the last one read, which ends at the file's end. */
    assert_true(t.refused > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_undamaged_bakes),
        cmocka_unit_test(test_overwritten_tables),
        cmocka_unit_test(test_overwritten_outlines),
        cmocka_unit_test(test_extreme_fields),
        cmocka_unit_test(test_crafted_outlines),
        cmocka_unit_test(test_truncated),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
