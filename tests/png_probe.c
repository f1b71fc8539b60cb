/* png_probe.c - prints "WIDTH HEIGHT COLORS LIT" for a PNG file, for the
 * window's end-to-end test: COLORS is the number of distinct RGB colors
 * (counted up to 65536), LIT the per mille of pixels that differ from the
 * top-left pixel (the background). Exit 1 if the file is not a PNG. */
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

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: png_probe FILE.png\n");
        return 2;
    }
    int w, h, comp;
    unsigned char *px = stbi_load(argv[1], &w, &h, &comp, 3);
    if (!px) {
        fprintf(stderr, "png_probe: %s: %s\n", argv[1], stbi_failure_reason());
        return 1;
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
