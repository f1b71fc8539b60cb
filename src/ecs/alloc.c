/* alloc.c - every allocation of the ecs module goes through here. */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE (Linux) */
#include "alloc.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static atomic_size_t live_blocks;

/* Blocks this large ask for transparent huge pages (where the kernel
 * offers them on request): a million-entity column then faults in a few
 * dozen 2 MiB pages instead of thousands of 4 KiB ones, which on a
 * virtual machine is most of the cost of creating the entities. Smaller
 * blocks keep 4 KiB pages, so untouched capacity stays cheap. */
#define ALLOC_HUGE_MIN ((size_t)4 << 20)

static void advise_huge(void *block, size_t size)
{
#ifdef MADV_HUGEPAGE
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = ((uintptr_t)block + page - 1u) & ~(page - 1u);
    uintptr_t hi = ((uintptr_t)block + size) & ~(page - 1u);
    if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* a hint: errors ignored */
#else
    (void)block;
    (void)size;
#endif
}

/* calloc hands out pages the kernel zeroes lazily for large blocks, so a
 * fixed context's big buffers cost resident memory only once touched. The
 * block's own start is stored just below the aligned pointer. */
void *ecs_alloc(size_t size, size_t align)
{
    if (align < sizeof(void *)) align = align ? sizeof(void *) : 64;
    if (size > SIZE_MAX - align - sizeof(void *)) return NULL;
    unsigned char *raw = calloc(1, size + align + sizeof(void *));
    if (!raw) return NULL;
    if (size >= ALLOC_HUGE_MIN) advise_huge(raw, size + align + sizeof(void *));
    uintptr_t at = ((uintptr_t)raw + sizeof(void *) + align - 1) & ~(uintptr_t)(align - 1);
    ((void **)at)[-1] = raw;
    atomic_fetch_add_explicit(&live_blocks, 1, memory_order_relaxed);
    return (void *)at;
}

void ecs_free(void *ptr)
{
    if (!ptr) return;
    atomic_fetch_sub_explicit(&live_blocks, 1, memory_order_relaxed);
    free(((void **)ptr)[-1]);
}

void *ecs_realloc(void *ptr, size_t old_size, size_t new_size, size_t align)
{
    void *p = ecs_alloc(new_size, align);
    if (!p) return NULL;
    if (ptr) {
        memcpy(p, ptr, old_size < new_size ? old_size : new_size);
        ecs_free(ptr);
    }
    return p;
}

int ecs_reserve(void **ptr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 0;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2) return -1;
        ncap *= 2;
    }
    if (elem && ncap > SIZE_MAX / elem) return -1;
    void *p = ecs_realloc(*ptr, *cap * elem, ncap * elem, 0);
    if (!p) return -1;
    *ptr = p;
    *cap = ncap;
    return 0;
}

size_t ecs_alloc_live(void)
{
    return atomic_load_explicit(&live_blocks, memory_order_relaxed);
}
