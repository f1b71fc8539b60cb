/* alloc.c - every allocation of the ecs module goes through here. */
#include "alloc.h"

#include "platform.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static atomic_size_t live_blocks;

/* Blocks this large get a mapping of their own, 2 MiB aligned and sized,
 * that asks for transparent huge pages (where the kernel offers them on
 * request): a million-entity column then faults in a few 2 MiB pages
 * instead of thousands of 4 KiB ones, and every fault is a trap into the
 * kernel (a costly one on a virtual machine). A huge page is only
 * possible where a whole aligned 2 MiB lies in one advised mapping, which
 * calloc's blocks rarely give (glibc serves them from its heap once a
 * large block was freed). Smaller blocks keep 4 KiB pages, so untouched
 * capacity stays cheap; a big one holds at most 2 MiB more than it uses,
 * which is why the threshold is a whole huge page and not less: below it
 * the rounding would waste a large share of each block. Such blocks
 * bypass malloc and its wrappers. */
#define ALLOC_HUGE_MIN ((size_t)2 << 20)
#define HUGE_PAGE ((size_t)2 << 20)
/* Blocks from this size up to ALLOC_HUGE_MIN get a plain mapping of
 * their own. calloc cannot promise lazily zeroed pages for them: once a
 * block glibc had mapped is freed, it raises its mapping threshold and
 * serves later ones from its heap, zeroing every byte in place, which
 * faults the whole block in. A context created after another was
 * destroyed would then pay for capacity it never uses (a large index list
 * per system, say). */
#define ALLOC_MAP_MIN ((size_t)16 << 10)

/* Two words below every block: where its memory starts and, for a
 * mapping, its length (0: from calloc). */
#define HEADER (2 * sizeof(void *))

static uintptr_t align_up(uintptr_t v, uintptr_t align) { return (v + align - 1u) & ~(align - 1u); }

static void *place(void *raw, size_t mapped, size_t align)
{
    uintptr_t at = align_up((uintptr_t)raw + HEADER, align);
    ((void **)at)[-1] = raw;
    ((size_t *)at)[-2] = mapped;
    atomic_fetch_add_explicit(&live_blocks, 1, memory_order_relaxed);
    return (void *)at;
}

/* A mapping of its own, aligned and sized to a 2 MiB multiple that asks
 * for huge pages when huge, else page-sized; NULL where the system has no
 * such mappings or refuses one. */
static void *alloc_mapped(size_t size, size_t align, bool huge)
{
    size_t grain = huge ? HUGE_PAGE : ecs__page_size();
    if (size > SIZE_MAX - HEADER - align - 2 * grain) return NULL;
    size_t len = (size_t)align_up(HEADER + align + size, grain);
    size_t extra = huge ? HUGE_PAGE : 0; /* room to trim to a 2 MiB boundary */
    unsigned char *map = ecs__map(len + extra);
    if (!map) return NULL;
    if (!huge) return place(map, len, align);
    unsigned char *base = (unsigned char *)align_up((uintptr_t)map, HUGE_PAGE);
    size_t head = (size_t)(base - map);
    if (head) ecs__unmap(map, head); /* trims: the mapping becomes [base, base + len) */
    if (HUGE_PAGE - head) ecs__unmap(base + len, HUGE_PAGE - head);
    ecs__advise_huge(base, len);
    return place(base, len, align);
}

/* Blocks from ALLOC_MAP_MIN on are fresh mappings, pages the kernel
 * zeroes lazily, so a fixed context's big buffers cost resident memory
 * (and the time to zero it) only once touched. */
void *ecs_alloc(size_t size, size_t align)
{
    if (align < sizeof(void *)) align = align ? sizeof(void *) : 64;
    if (size > SIZE_MAX - align - HEADER) return NULL;
    if (size >= ALLOC_MAP_MIN) {
        void *p = alloc_mapped(size, align, size >= ALLOC_HUGE_MIN);
        if (p) return p;
    }
    void *raw = calloc(1, size + align + HEADER);
    return raw ? place(raw, 0, align) : NULL;
}

void ecs_free(void *ptr)
{
    if (!ptr) return;
    atomic_fetch_sub_explicit(&live_blocks, 1, memory_order_relaxed);
    void *raw = ((void **)ptr)[-1];
    size_t mapped = ((size_t *)ptr)[-2];
    if (mapped) ecs__unmap(raw, mapped);
    else free(raw);
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

/* Below this, a few faults cost less than the system call. */
#define PREFAULT_MIN ((size_t)64 << 10)

void ecs__prefault(void *p, size_t size)
{
    if (p && size >= PREFAULT_MIN) ecs__populate(p, size);
}

size_t ecs_alloc_live(void)
{
    return atomic_load_explicit(&live_blocks, memory_order_relaxed);
}
