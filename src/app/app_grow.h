/* app_grow.h - growing a heap array by doubling, for both modes. */
#ifndef APP_GROW_H
#define APP_GROW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* Room for need elements of elem bytes in *p, whose capacity is *cap
 * (elements): grows by doubling from 16. False, *p untouched, when out of
 * memory or when the size would overflow. */
static inline bool app_reserve(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return true;
    size_t n = *cap ? *cap : 16u;
    while (n < need) {
        if (n > SIZE_MAX / 2u) return false;
        n *= 2u;
    }
    if (elem && n > SIZE_MAX / elem) return false;
    void *grown = realloc(*p, n * elem);
    if (!grown) return false;
    *p = grown;
    *cap = n;
    return true;
}

#endif /* APP_GROW_H */
