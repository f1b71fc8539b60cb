/* mem.c - prefaulting memory that is about to be written (see mem.h). */
#define _DEFAULT_SOURCE /* madvise */
#include "mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* Smaller blocks take a few faults, which cost less than the call. */
#define SIM_PREFAULT_MIN ((size_t)64 << 10)

void sim__prefault(void *p, size_t size)
{
#ifdef MADV_POPULATE_WRITE /* Linux 5.14 on; older kernels refuse it, harmlessly */
    if (!p || size < SIM_PREFAULT_MIN) return;
    long ps = sysconf(_SC_PAGESIZE); /* whole pages only: 4 KiB here, 16 or 64 elsewhere */
    if (ps <= 0 || (ps & (ps - 1))) return;
    const uintptr_t page = (uintptr_t)ps;
    uintptr_t first = ((uintptr_t)p + page - 1u) & ~(page - 1u);
    uintptr_t end = ((uintptr_t)p + size) & ~(page - 1u);
    if (end > first) (void)madvise((void *)first, end - first, MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)size;
#endif
}

void *sim__malloc_written(size_t size)
{
    void *p = malloc(size);
    sim__prefault(p, size);
    return p;
}
