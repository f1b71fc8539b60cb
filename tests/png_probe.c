/* png_probe.c - prints "WIDTH HEIGHT COLORS LIT" for a PNG file, for the
 * window's end-to-end test: COLORS is the number of distinct RGB colors
 * (counted up to 65536), LIT the per mille of pixels that differ from the
 * top-left pixel (the background). Exit 1 if the file is not a PNG.
 *
 *   png_probe FILE.png RRGGBB X0 Y0 X1 Y1
 * prints instead how many pixels of the rectangle [X0, X1) x [Y0, Y1) are
 * within 40 of the color RRGGBB in each channel (text of that color). */
#include <stb_image.h>

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

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 7) {
        fprintf(stderr, "usage: png_probe FILE.png [RRGGBB X0 Y0 X1 Y1]\n");
        return 2;
    }
    int w, h, comp;
    unsigned char *px = stbi_load(argv[1], &w, &h, &comp, 3);
    if (!px) {
        fprintf(stderr, "png_probe: %s: %s\n", argv[1], stbi_failure_reason());
        return 1;
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
