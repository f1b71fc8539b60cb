/* alloc.h - the ecs module's one allocation path. Private. */
#ifndef ECS_ALLOC_H
#define ECS_ALLOC_H

#include <stddef.h>

/* Zeroed memory aligned to align (a power of two; 0 means 64: one cache
 * line). NULL on failure or size overflow. */
void *ecs_alloc(size_t size, size_t align);
void ecs_free(void *ptr);
/* Reallocates to new_size keeping min(old_size, new_size) bytes; the tail
 * is zeroed. On failure returns NULL and leaves ptr untouched. */
void *ecs_realloc(void *ptr, size_t old_size, size_t new_size, size_t align);
/* Makes room for need elements of elem bytes in a growable array:
 * *cap grows by doubling. Returns 0 on success, -1 on failure. */
int ecs_reserve(void **ptr, size_t *cap, size_t need, size_t elem);
/* Asks the kernel to map the whole pages of [p, p + size) now, in one
 * call, ahead of writes that would otherwise fault them in one trap per
 * 4 KiB page (each trap a kernel entry, costly on a virtual machine). Only
 * for memory about to be written through; a hint, so errors are ignored. */
void ecs__prefault(void *p, size_t size);
/* Blocks currently allocated through this path (all contexts, all
 * threads): tests compare it before and after to catch leaks. */
size_t ecs_alloc_live(void);

#endif
