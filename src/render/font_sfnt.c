/* font_sfnt.c - checking a TrueType file before stb_truetype reads it.
 *
 * stb_truetype trusts every offset, count and flag in the file. Each
 * check here covers what it reads later: the table directory and the
 * tables it looks up, the metrics it scales by, loca's offsets, and the
 * outline of each glyph baked, byte for byte in the order it parses them
 * (composite glyphs recursively). */
#include "font_sfnt.h"

#include <math.h>
#include <string.h>

/* Deeper nesting of composite glyphs than any real font uses, and a
 * bound on the points and components one glyph may expand to. */
#define COMPONENT_DEPTH_MAX 8
#define GLYPH_WORK_MAX (1u << 18)
/* The largest coordinate a composite may place a point at: stb_truetype
 * stores the transformed points as 16-bit integers, computed in float. */
#define COORD_MAX 32000.0

static uint32_t u16(const unsigned char *p) { return (uint32_t)p[0] << 8 | p[1]; }
static int32_t s16(const unsigned char *p) { return (int32_t)(int16_t)u16(p); }
static uint32_t u32(const unsigned char *p) { return u16(p) << 16 | u16(p + 2); }

typedef struct span {
    uint32_t off, len;
} span;

/* The directory's first record named tag (the one stb_truetype uses),
 * inside the file and at least min_len bytes long. */
static bool find(const gfx_sfnt *f, const char *tag, uint32_t min_len, span *s)
{
    uint32_t n = u16(f->data + 4);
    for (uint32_t i = 0; i < n; i++) {
        const unsigned char *rec = f->data + 12u + 16u * i;
        if (memcmp(rec, tag, 4) != 0) continue;
        s->off = u32(rec + 8);
        s->len = u32(rec + 12);
        return s->len >= min_len && (uint64_t)s->off + s->len <= f->size;
    }
    return false;
}

static bool metrics_ok(gfx_sfnt *f, span head, span hhea, span maxp, span hmtx, const char **why)
{
    const unsigned char *d = f->data;
    f->units_per_em = u16(d + head.off + 18);
    uint32_t loca_format = u16(d + head.off + 50);
    f->long_loca = loca_format == 1;
    f->glyphs = u16(d + maxp.off + 4);
    if (f->units_per_em < 16 || f->units_per_em > 16384 || loca_format > 1 || f->glyphs == 0) {
        *why = "its head or maxp table is damaged";
        return false;
    }
    f->ascent = s16(d + hhea.off + 4);
    f->descent = s16(d + hhea.off + 6);
    f->gap = s16(d + hhea.off + 8);
    f->long_metrics = u16(d + hhea.off + 34);
    int em = (int)f->units_per_em, height = f->ascent - f->descent;
    /* A real font's line is about one em high; these bounds leave room
     * for any design and keep the scale finite and positive. */
    if (f->ascent <= 0 || f->descent > 0 || height < em / 2 || height > 4 * em || f->gap < 0 ||
        f->gap > em || f->long_metrics == 0 || f->long_metrics > f->glyphs) {
        *why = "its hhea table is damaged";
        return false;
    }
    if ((uint64_t)4u * f->long_metrics + 2u * (uint64_t)(f->glyphs - f->long_metrics) > hmtx.len) {
        *why = "its hmtx table is cut short";
        return false;
    }
    return true;
}

static bool loca_ok(gfx_sfnt *f, span loca, span glyf)
{
    uint32_t entry = f->long_loca ? 4u : 2u;
    if ((uint64_t)(f->glyphs + 1u) * entry > loca.len) return false;
    uint32_t prev = 0;
    for (uint32_t g = 0; g <= f->glyphs; g++) {
        const unsigned char *e = f->data + loca.off + (size_t)g * entry;
        uint32_t at = f->long_loca ? u32(e) : 2u * u16(e);
        if (at < prev || at > glyf.len) return false;
        prev = at;
    }
    f->loca = loca.off;
    f->glyf = glyf.off;
    f->glyf_len = glyf.len;
    return true;
}

/* A subtable of format 4 or 12, whole inside cmap, with its arrays. */
static bool subtable_ok(const gfx_sfnt *f, span cmap, uint32_t off)
{
    const unsigned char *p = f->data + cmap.off + off;
    uint32_t room = cmap.len - off;
    if (room < 16) return false;
    uint32_t format = u16(p);
    if (format == 4) {
        uint32_t len = u16(p + 2), seg_x2 = u16(p + 6);
        return len <= room && seg_x2 >= 2 && seg_x2 % 2 == 0 && 16u + 4u * seg_x2 <= len;
    }
    if (format == 12) {
        uint32_t len = u32(p + 4), groups = u32(p + 12);
        return len <= room && 16u + 12u * (uint64_t)groups <= len;
    }
    return false;
}

/* stb_truetype's set-up reads every Unicode record's offset (and keeps
 * the last); each must lie inside cmap. The last one of format 4 or 12
 * is the one looked up here. */
static bool cmap_ok(gfx_sfnt *f, span cmap)
{
    uint32_t n = u16(f->data + cmap.off + 2);
    if (4u + 8u * n > cmap.len) return false;
    f->cmap_sub_len = 0;
    for (uint32_t i = 0; i < n; i++) {
        const unsigned char *rec = f->data + cmap.off + 4u + 8u * i;
        uint32_t platform = u16(rec), encoding = u16(rec + 2), off = u32(rec + 4);
        bool unicode = platform == 0 || (platform == 3 && (encoding == 1 || encoding == 10));
        if (!unicode) continue;
        if (off >= cmap.len) return false;
        if (subtable_ok(f, cmap, off)) {
            f->cmap_sub = cmap.off + off;
            f->cmap_sub_len = u16(f->data + f->cmap_sub) == 4 ? u16(f->data + f->cmap_sub + 2)
                                                               : u32(f->data + f->cmap_sub + 4);
        }
    }
    return f->cmap_sub_len > 0;
}

bool gfx__sfnt_open(gfx_sfnt *f, const unsigned char *data, size_t size, const char **why)
{
    memset(f, 0, sizeof *f);
    f->data = data;
    f->size = size;
    *why = "its table directory is damaged";
    if (size < 12) return false;
    uint32_t version = u32(data);
    if (version != 0x00010000u && memcmp(data, "true", 4) != 0) {
        *why = "no TrueType outlines";
        return false;
    }
    uint32_t tables = u16(data + 4);
    if (12u + 16u * (uint64_t)tables > size) return false;
    /* stb_truetype reads the offset of any table it looks for, present or
     * not in this check's list: every record must lie inside the file. */
    for (uint32_t i = 0; i < tables; i++) {
        const unsigned char *rec = data + 12u + 16u * i;
        if ((uint64_t)u32(rec + 8) + u32(rec + 12) > size) return false;
    }
    span cmap, head, hhea, hmtx, maxp, loca, glyf;
    *why = "a table it needs is missing or cut short";
    if (!find(f, "cmap", 4, &cmap) || !find(f, "head", 54, &head) ||
        !find(f, "hhea", 36, &hhea) || !find(f, "hmtx", 4, &hmtx) ||
        !find(f, "maxp", 6, &maxp) || !find(f, "loca", 2, &loca) || !find(f, "glyf", 0, &glyf))
        return false;
    if (!metrics_ok(f, head, hhea, maxp, hmtx, why)) return false;
    f->hmtx = hmtx.off;
    *why = "its loca table is damaged";
    if (!loca_ok(f, loca, glyf)) return false;
    *why = "its cmap table is damaged";
    return cmap_ok(f, cmap);
}

static bool glyph_from_format4(const gfx_sfnt *f, uint32_t c, uint32_t *glyph)
{
    const unsigned char *p = f->data + f->cmap_sub, *end = p + f->cmap_sub_len;
    uint32_t seg_x2 = u16(p + 6);
    *glyph = 0;
    for (uint32_t i = 0; i < seg_x2; i += 2) {
        if (u16(p + 14 + i) < c) continue;
        uint32_t start = u16(p + 16 + seg_x2 + i), delta = u16(p + 16 + 2 * seg_x2 + i);
        const unsigned char *range = p + 16 + 3 * seg_x2 + i;
        if (start > c) return true;
        uint32_t ro = u16(range);
        if (ro == 0) {
            *glyph = (c + delta) & 0xffffu;
            return true;
        }
        const unsigned char *at = range + ro + 2u * (c - start);
        if (at + 2 > end) return false;
        uint32_t g = u16(at);
        *glyph = g ? (g + delta) & 0xffffu : 0;
        return true;
    }
    return true;
}

static bool glyph_from_format12(const gfx_sfnt *f, uint32_t c, uint32_t *glyph)
{
    const unsigned char *p = f->data + f->cmap_sub;
    uint32_t groups = u32(p + 12);
    *glyph = 0;
    for (uint32_t i = 0; i < groups; i++) {
        const unsigned char *g = p + 16 + 12 * (size_t)i;
        uint32_t start = u32(g), end = u32(g + 4);
        if (c < start || c > end) continue;
        uint64_t id = (uint64_t)u32(g + 8) + (c - start);
        *glyph = id > UINT32_MAX ? UINT32_MAX : (uint32_t)id;
        return true;
    }
    return true;
}

bool gfx__sfnt_glyph_of(const gfx_sfnt *f, uint32_t codepoint, uint32_t *glyph, const char **why)
{
    bool ok = u16(f->data + f->cmap_sub) == 4 ? glyph_from_format4(f, codepoint, glyph)
                                              : glyph_from_format12(f, codepoint, glyph);
    if (!ok || *glyph >= f->glyphs) {
        *why = "its cmap table is damaged";
        return false;
    }
    return true;
}

/* What checking one glyph has cost so far, and what it found. */
typedef struct walk {
    uint32_t work;
    const char *why;
} walk;

static bool simple_ok(const unsigned char *p, uint32_t len, int32_t contours, walk *w,
                      double *extent);
static bool composite_ok(const gfx_sfnt *f, const unsigned char *p, uint32_t len, int depth,
                         walk *w, double *extent);

/* The glyph's outline and, in *extent, the largest coordinate magnitude
 * of the points stb_truetype makes of it. */
static bool outline_ok(const gfx_sfnt *f, uint32_t glyph, int depth, walk *w, double *extent)
{
    *extent = 0.0;
    if (++w->work > GLYPH_WORK_MAX || depth > COMPONENT_DEPTH_MAX) {
        w->why = "a composite glyph nests too deep or too wide";
        return false;
    }
    const unsigned char *e = f->data + f->loca + (size_t)glyph * (f->long_loca ? 4u : 2u);
    uint32_t from = f->long_loca ? u32(e) : 2u * u16(e);
    uint32_t to = f->long_loca ? u32(e + 4) : 2u * u16(e + 2);
    if (from == to) return true; /* no outline: a space */
    w->why = "a glyph's outline is damaged";
    uint32_t len = to - from;
    if (len < 10) return false;
    const unsigned char *p = f->data + f->glyf + from;
    int32_t contours = s16(p);
    if (contours > 0) return simple_ok(p, len, contours, w, extent);
    if (contours < 0) return composite_ok(f, p, len, depth, w, extent);
    return true;
}

/* Walks the flags as stb_truetype does: a flag, then a repeat count where
 * bit 3 says so. Returns the bytes they take from p (or past len). */
static uint32_t flag_bytes(const unsigned char *p, uint32_t len, uint32_t points, uint32_t *x_bytes,
                           uint32_t *y_bytes, uint32_t *last)
{
    uint32_t at = 0, repeat = 0, flags = 0;
    *x_bytes = *y_bytes = *last = 0;
    for (uint32_t i = 0; i < points; i++) {
        if (repeat == 0) {
            if (at >= len) return len + 1;
            flags = p[at++];
            if (flags & 8) {
                if (at >= len) return len + 1;
                repeat = p[at++];
            }
        } else {
            repeat--;
        }
        *x_bytes += (flags & 2) ? 1u : (flags & 16) ? 0u : 2u;
        *y_bytes += (flags & 4) ? 1u : (flags & 32) ? 0u : 2u;
    }
    *last = flags;
    return at;
}

/* One coordinate of each point, deltas as the flags say (short: bit
 * `short_bit`, its sign or "same": bit `same_bit`); the largest value
 * stb_truetype keeps (as a 16-bit integer) goes into *extent. */
static bool coords_ok(const unsigned char *flags_at, uint32_t points, const unsigned char *v,
                      unsigned short_bit, unsigned same_bit, double *extent)
{
    uint32_t at = 0, repeat = 0, flags = 0;
    int32_t c = 0;
    for (uint32_t i = 0; i < points; i++) {
        if (repeat == 0) {
            flags = *flags_at++;
            if (flags & 8) repeat = *flags_at++;
        } else {
            repeat--;
        }
        if (flags & short_bit) {
            int32_t d = v[at++];
            c += (flags & same_bit) ? d : -d;
        } else if (!(flags & same_bit)) {
            c += s16(v + at);
            at += 2;
        }
        /* stb_truetype sums in 32 bits: keep the sum far from overflow. */
        if (c > (1 << 30) || c < -(1 << 30)) return false;
        double kept = fabs((double)(int16_t)(uint16_t)(c & 0xffff));
        if (kept > *extent) *extent = kept;
    }
    return true;
}

static bool simple_ok(const unsigned char *p, uint32_t len, int32_t contours, walk *w,
                      double *extent)
{
    uint32_t ends = 10u + 2u * (uint32_t)contours;
    if (ends + 2u > len) return false;
    int32_t prev = -1;
    for (int32_t j = 0; j < contours; j++) {
        int32_t end = (int32_t)u16(p + 10 + 2 * j);
        if (end <= prev) return false; /* contour ends in order */
        prev = end;
    }
    uint32_t points = (uint32_t)prev + 1u;
    w->work += points;
    if (w->work > GLYPH_WORK_MAX) return false;
    uint32_t flags = ends + 2u + u16(p + ends);
    if (flags > len) return false;
    uint32_t x_bytes, y_bytes, last;
    uint32_t n = flag_bytes(p + flags, len - flags, points, &x_bytes, &y_bytes, &last);
    if (n > len - flags || (uint64_t)flags + n + x_bytes + y_bytes > len) return false;
    /* A contour that starts off the curve makes stb_truetype look at the
     * point after its first: the last point must not be such a start. */
    uint32_t last_start = contours == 1 ? 0u : u16(p + 10 + 2 * (contours - 2)) + 1u;
    if (last_start == points - 1u && !(last & 1)) return false;
    const unsigned char *xs = p + flags + n;
    return coords_ok(p + flags, points, xs, 2, 16, extent) &&
           coords_ok(p + flags, points, xs + x_bytes, 4, 32, extent);
}

/* A component record as stb_truetype reads it: flags, glyph, offsets
 * (bytes or shorts), then one scale, two, or a 2x2 matrix (F2Dot14). */
static bool composite_ok(const gfx_sfnt *f, const unsigned char *p, uint32_t len, int depth,
                         walk *w, double *extent)
{
    uint32_t at = 10;
    bool more = true;
    while (more) {
        if (at + 4 > len) return false;
        uint32_t flags = u16(p + at), glyph = u16(p + at + 2);
        at += 4;
        /* Components placed by matching points are not supported by stb_truetype. */
        if (!(flags & 2) || glyph >= f->glyphs) return false;
        double m[6] = {1, 0, 0, 1, 0, 0};
        uint32_t args = (flags & 1) ? 4u : 2u;
        if (at + args > len) return false;
        m[4] = (flags & 1) ? s16(p + at) : (int8_t)p[at];
        m[5] = (flags & 1) ? s16(p + at + 2) : (int8_t)p[at + 1];
        at += args;
        uint32_t scales = (flags & 8) ? 1u : (flags & 0x40) ? 2u : (flags & 0x80) ? 4u : 0u;
        if (at + 2u * scales > len) return false;
        if (scales == 1) m[0] = m[3] = s16(p + at) / 16384.0;
        if (scales == 2) m[0] = s16(p + at) / 16384.0, m[3] = s16(p + at + 2) / 16384.0;
        if (scales == 4)
            for (int k = 0; k < 4; k++) m[k] = s16(p + at + 2 * k) / 16384.0;
        at += 2u * scales;
        double e;
        if (!outline_ok(f, glyph, depth + 1, w, &e)) return false;
        /* stb_truetype places a point at (sx (a x + c y + e), sy (b x + d y + f)),
         * sx and sy the lengths of the matrix's columns. */
        double sx = sqrt(m[0] * m[0] + m[1] * m[1]), sy = sqrt(m[2] * m[2] + m[3] * m[3]);
        double ex = sx * ((fabs(m[0]) + fabs(m[2])) * e + fabs(m[4]));
        double ey = sy * ((fabs(m[1]) + fabs(m[3])) * e + fabs(m[5]));
        if (ex > COORD_MAX || ey > COORD_MAX) {
            w->why = "a composite glyph places its parts out of range";
            return false;
        }
        *extent = fmax(*extent, fmax(ex, ey));
        w->why = "a glyph's outline is damaged";
        more = (flags & 0x20) != 0;
    }
    return true;
}

bool gfx__sfnt_glyph_ok(const gfx_sfnt *f, uint32_t glyph, const char **why)
{
    walk w = {0, NULL};
    double extent;
    if (glyph < f->glyphs && outline_ok(f, glyph, 0, &w, &extent)) return true;
    *why = w.why ? w.why : "a glyph's outline is damaged";
    return false;
}

bool gfx__sfnt_advance(const gfx_sfnt *f, uint32_t glyph, uint32_t *advance, const char **why)
{
    uint32_t i = glyph < f->long_metrics ? glyph : f->long_metrics - 1u;
    *advance = u16(f->data + f->hmtx + 4u * i);
    /* Wider than a few em: no letter is, the table is damaged. */
    if (*advance > 4u * f->units_per_em) {
        *why = "its hmtx table is damaged";
        return false;
    }
    return true;
}
