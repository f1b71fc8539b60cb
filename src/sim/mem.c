/* mem.c - prefaulting memory that is about to be written (see mem.h). */
#define _DEFAULT_SOURCE /* madvise, MADV_POPULATE_WRITE */
#include "mem.h"

#include <stdint.h>
#include <stdlib.h>
#if !defined(_WIN32) /* Windows has no such hint for a malloc block */
#include <sys/mman.h>
#include <unistd.h>
#endif

/* Below this, a few faults cost less than the system call. */
#define PREFAULT_MIN ((size_t)64 << 10)

void sim__prefault(void *p, size_t size)
{
#if defined(MADV_POPULATE_WRITE)
    if (!p || size < PREFAULT_MIN) return;
    long n = sysconf(_SC_PAGESIZE);
    uintptr_t page = n > 0 && !(n & (n - 1)) ? (uintptr_t)n : 4096u;
    uintptr_t lo = ((uintptr_t)p + page - 1u) & ~(page - 1u);
    uintptr_t hi = ((uintptr_t)p + size) & ~(page - 1u);
    /* Whole pages of the range only: a length the kernel rounded up would
     * reach past it. */
    if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
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
