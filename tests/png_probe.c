/* png_probe.c - prints "WIDTH HEIGHT COLORS LIT" for a PNG file, for the
 * window's end-to-end test: COLORS is the number of distinct RGB colors
 * (counted up to 65536), LIT the per mille of pixels that differ from the
 * top-left pixel (the background). Exit 1 if the file is not a PNG.
 *
 *   png_probe FILE.png RRGGBB X0 Y0 X1 Y1
 * prints instead how many pixels of the rectangle [X0, X1) x [Y0, Y1) are
 * within 40 of the color RRGGBB in each channel (text of that color).
 *
 *   png_probe FILE.png hues X0 Y0 X1 Y1
 * prints "HUES SATURATED": of the rectangle's saturated pixels (colour,
 * not grey or dark), their hues in 36 bins of 10 degrees, how many runs
 * of neighbouring bins each hold at least 3 % of them (the distinct
 * colours), and how many pixels were saturated, and how many of those have
 * a purple hue (260 to 340 degrees).
 *
 *   png_probe A.png zoomed B.png X Y Z
 * B should be A zoomed Z times about pixel (X, Y): prints "HERE CENTRE",
 * the mean difference per channel over the 80 x 80 pixels around (X, Y)
 * between B and A sampled where the zoom puts them, and the same were the
 * zoom about the image's centre instead.
 *
 *   png_probe ON.png trails OFF.png RRGGBB X0 Y0 X1 Y1
 * The same frame with and without motion trails, RRGGBB the world's
 * background: prints "EXTRA LIT KEPT EXTRA_MEAN LIT_MEAN" over the
 * rectangle: the pixels lit (some channel more than 8 from the background)
 * in ON but not in OFF, those lit in OFF, those of OFF's also lit in ON, and
 * the mean brightness over the background (channels summed) of the first
 * and of the second.
 *
 *   png_probe FILE.png spot RRGGBB X0 Y0 X1 Y1
 * RRGGBB the background: prints "N X Y", the pixels of the rectangle more
 * than 40 from it in some channel and their centroid (0 0 for none): where
 * a lone particle is drawn. */
#include <stb_image.h>

#include <math.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLORS 65536u

static int seen(uint32_t *set, uint32_t *n, uint32_t rgb)
{
    /* Open addressing over a table twice the cap: enough to count to it. */
    uint32_t mask = 2u * MAX_COLORS - 1u, i = (rgb * 2654435761u) & mask;
    while (set[i] != UINT32_MAX) {
        if (set[i] == rgb) return 1;
        i = (i + 1u) & mask;
    }
    if (*n >= MAX_COLORS) return 1;
    set[i] = rgb;
    (*n)++;
    return 0;
}

static size_t near_color(const unsigned char *px, int w, int h, char **args)
{
    unsigned long rgb = strtoul(args[0], NULL, 16);
    int want[3] = {(int)(rgb >> 16 & 255u), (int)(rgb >> 8 & 255u), (int)(rgb & 255u)};
    int x0 = atoi(args[1]), y0 = atoi(args[2]), x1 = atoi(args[3]), y1 = atoi(args[4]);
    size_t count = 0;
    for (int y = y0 < 0 ? 0 : y0; y < y1 && y < h; y++)
        for (int x = x0 < 0 ? 0 : x0; x < x1 && x < w; x++) {
            const unsigned char *p = px + 3u * ((size_t)y * (size_t)w + (size_t)x);
            count += abs(p[0] - want[0]) <= 40 && abs(p[1] - want[1]) <= 40 &&
                     abs(p[2] - want[2]) <= 40;
        }
    return count;
}

static void spot(const unsigned char *px, int w, int h, char **args)
{
    unsigned long rgb = strtoul(args[0], NULL, 16);
    int bg[3] = {(int)(rgb >> 16 & 255u), (int)(rgb >> 8 & 255u), (int)(rgb & 255u)};
    int x0 = atoi(args[1]), y0 = atoi(args[2]), x1 = atoi(args[3]), y1 = atoi(args[4]);
    double sx = 0.0, sy = 0.0;
    size_t n = 0;
    for (int y = y0 < 0 ? 0 : y0; y < y1 && y < h; y++)
        for (int x = x0 < 0 ? 0 : x0; x < x1 && x < w; x++) {
            const unsigned char *p = px + 3u * ((size_t)y * (size_t)w + (size_t)x);
            if (abs(p[0] - bg[0]) > 40 || abs(p[1] - bg[1]) > 40 || abs(p[2] - bg[2]) > 40) {
                sx += x;
                sy += y;
                n++;
            }
        }
    printf("%zu %.0f %.0f\n", n, n ? sx / (double)n : 0.0, n ? sy / (double)n : 0.0);
}

#define HUE_BINS 36

/* Runs of non-empty bins, around the circle, each of at least min pixels. */
static unsigned hue_clusters(const size_t bins[HUE_BINS], size_t min)
{
    int start = -1;
    for (int i = 0; i < HUE_BINS; i++)
        if (bins[i] < min / 10u + 1u) start = i; /* a near-empty bin separates runs */
    if (start < 0) return 1; /* every bin full: one smear */
    unsigned count = 0;
    size_t run = 0;
    for (int k = 1; k <= HUE_BINS; k++) {
        size_t b = bins[(start + k) % HUE_BINS];
        if (b >= min / 10u + 1u) {
            run += b;
            continue;
        }
        count += run >= min;
        run = 0;
    }
    return count + (run >= min);
}

static void hues(const unsigned char *px, int w, int h, char **args)
{
    int x0 = atoi(args[0]), y0 = atoi(args[1]), x1 = atoi(args[2]), y1 = atoi(args[3]);
    size_t bins[HUE_BINS] = {0}, total = 0;
    for (int y = y0 < 0 ? 0 : y0; y < y1 && y < h; y++)
        for (int x = x0 < 0 ? 0 : x0; x < x1 && x < w; x++) {
            const unsigned char *p = px + 3u * ((size_t)y * (size_t)w + (size_t)x);
            int r = p[0], g = p[1], b = p[2];
            int mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
            int mn = r < g ? (r < b ? r : b) : (g < b ? g : b);
            if (mx < 90 || (mx - mn) * 10 < mx * 4) continue; /* dark or grey */
            double d = mx - mn, hue;
            if (mx == r) hue = fmod((g - b) / d, 6.0);
            else if (mx == g) hue = (b - r) / d + 2.0;
            else hue = (r - g) / d + 4.0;
            hue *= 60.0;
            if (hue < 0.0) hue += 360.0;
            bins[(int)(hue / 10.0) % HUE_BINS]++;
            total++;
        }
    size_t purple = 0;
    for (int i = 26; i < 34; i++) purple += bins[i];
    printf("%u %zu %zu\n", total ? hue_clusters(bins, total * 3u / 100u + 1u) : 0u, total, purple);
}

/* Mean |B - A| per channel over B's patch around (x, y), A sampled at the
 * pixel that zoom z about (ax, ay) moves there. */
static double zoom_difference(const unsigned char *a, const unsigned char *b, int w, int h, int x,
                              int y, double z, double ax, double ay)
{
    double sum = 0.0;
    size_t n = 0;
    for (int dy = -40; dy < 40; dy++)
        for (int dx = -40; dx < 40; dx++) {
            int bx = x + dx, by = y + dy;
            int sx = (int)floor(ax + (bx + 0.5 - ax) / z), sy = (int)floor(ay + (by + 0.5 - ay) / z);
            if (bx < 0 || by < 0 || bx >= w || by >= h || sx < 0 || sy < 0 || sx >= w || sy >= h) continue;
            const unsigned char *p = b + 3u * ((size_t)by * (size_t)w + (size_t)bx);
            const unsigned char *q = a + 3u * ((size_t)sy * (size_t)w + (size_t)sx);
            for (int c = 0; c < 3; c++) sum += abs(p[c] - q[c]);
            n += 3u;
        }
    return n ? sum / (double)n : 0.0;
}

/* The PNG `name` as RGB, if it is w x h; NULL (and a line) otherwise. */
static unsigned char *load_same(const char *name, int w, int h)
{
    int bw, bh, comp;
    unsigned char *px = stbi_load(name, &bw, &bh, &comp, 3);
    if (px && bw == w && bh == h) return px;
    fprintf(stderr, "png_probe: %s: not a PNG of the same size\n", name);
    if (px) stbi_image_free(px);
    return NULL;
}

static int zoomed(const unsigned char *a, int w, int h, char **args)
{
    unsigned char *b = load_same(args[0], w, h);
    if (!b) return 1;
    int x = atoi(args[1]), y = atoi(args[2]);
    double z = atof(args[3]);
    printf("%.1f %.1f\n", zoom_difference(a, b, w, h, x, y, z, x + 0.5, y + 0.5),
           zoom_difference(a, b, w, h, x, y, z, w * 0.5, h * 0.5));
    stbi_image_free(b);
    return 0;
}

static int light(const unsigned char *p, const int bg[3])
{
    int sum = 0, most = 0;
    for (int c = 0; c < 3; c++) {
        int d = abs(p[c] - bg[c]);
        sum += p[c] - bg[c];
        most = d > most ? d : most;
    }
    return most > 8 ? (sum > 1 ? sum : 1) : 0; /* 0: background */
}

static int trails(const unsigned char *on, int w, int h, char **args)
{
    unsigned char *off = load_same(args[0], w, h);
    if (!off) return 1;
    unsigned long rgb = strtoul(args[1], NULL, 16);
    int bg[3] = {(int)(rgb >> 16 & 255u), (int)(rgb >> 8 & 255u), (int)(rgb & 255u)};
    int x0 = atoi(args[2]), y0 = atoi(args[3]), x1 = atoi(args[4]), y1 = atoi(args[5]);
    size_t extra = 0, lit = 0, kept = 0;
    double extra_sum = 0.0, lit_sum = 0.0;
    for (int y = y0 > 0 ? y0 : 0; y < y1 && y < h; y++)
        for (int x = x0 > 0 ? x0 : 0; x < x1 && x < w; x++) {
            size_t i = 3u * ((size_t)y * (size_t)w + (size_t)x);
            int a = light(on + i, bg), b = light(off + i, bg);
            if (b) {
                lit++;
                lit_sum += b;
                kept += a != 0;
            } else if (a) {
                extra++;
                extra_sum += a;
            }
        }
    printf("%zu %zu %zu %.0f %.0f\n", extra, lit, kept, extra ? extra_sum / (double)extra : 0.0,
           lit ? lit_sum / (double)lit : 0.0);
    stbi_image_free(off);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 7 && !(argc == 9 && strcmp(argv[2], "trails") == 0) &&
        !(argc == 8 && strcmp(argv[2], "spot") == 0)) {
        fprintf(stderr, "usage: png_probe FILE.png [RRGGBB|hues X0 Y0 X1 Y1 | zoomed B.png X Y Z | "
                        "trails OFF.png RRGGBB X0 Y0 X1 Y1 | spot RRGGBB X0 Y0 X1 Y1]\n");
        return 2;
    }
    int w, h, comp;
    unsigned char *px = stbi_load(argv[1], &w, &h, &comp, 3);
    if (!px) {
        fprintf(stderr, "png_probe: %s: %s\n", argv[1], stbi_failure_reason());
        return 1;
    }
    if (argc == 9) {
        int rc = trails(px, w, h, argv + 3);
        stbi_image_free(px);
        return rc;
    }
    if (argc == 8) {
        spot(px, w, h, argv + 3);
        stbi_image_free(px);
        return 0;
    }
    if (argc == 7 && strcmp(argv[2], "zoomed") == 0) {
        int rc = zoomed(px, w, h, argv + 3);
        stbi_image_free(px);
        return rc;
    }
    if (argc == 7 && strcmp(argv[2], "hues") == 0) {
        hues(px, w, h, argv + 3);
        stbi_image_free(px);
        return 0;
    }
    if (argc == 7) {
        printf("%zu\n", near_color(px, w, h, argv + 2));
        stbi_image_free(px);
        return 0;
    }
    uint32_t *set = malloc(sizeof *set * 2u * MAX_COLORS);
    if (!set) return 1;
    memset(set, 0xff, sizeof *set * 2u * MAX_COLORS);
    uint32_t colors = 0;
    size_t lit = 0, n = (size_t)w * (size_t)h;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *p = px + 3u * i;
        seen(set, &colors, (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]);
        lit += memcmp(p, px, 3) != 0;
    }
    printf("%d %d %u %zu\n", w, h, (unsigned)colors, n ? lit * 1000u / n : 0u);
    free(set);
    stbi_image_free(px);
    return 0;
}
