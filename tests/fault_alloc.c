/* fault_alloc.c - counting, failing allocation wrappers for --wrap (see
 * fault_alloc.h). Under the sanitizers, __real_malloc is their allocator. */
#include "fault_alloc.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void __real_free(void *p);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
void *__real_aligned_alloc(size_t align, size_t size);
void *__wrap_aligned_alloc(size_t align, size_t size);
void __wrap_free(void *p);
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);

static atomic_ulong count;
static atomic_ulong fail_at;
static atomic_long live;
static atomic_int fired;
static atomic_size_t largest;

void fault_alloc_reset(unsigned long k)
{
    atomic_store(&count, 0);
    atomic_store(&live, 0);
    atomic_store(&fired, 0);
    atomic_store(&largest, 0);
    atomic_store(&fail_at, k);
}

unsigned long fault_alloc_count(void) { return atomic_load(&count); }
long fault_alloc_live(void) { return atomic_load(&live); }
int fault_alloc_fired(void) { return atomic_load(&fired); }
size_t fault_alloc_largest(void) { return atomic_load(&largest); }

/* Counts one allocation of size bytes; true if it is the one to fail. */
static int fails(size_t size)
{
    unsigned long n = atomic_fetch_add(&count, 1) + 1;
    size_t big = atomic_load(&largest);
    while (size > big && !atomic_compare_exchange_weak(&largest, &big, size)) {}
    if (n != atomic_load(&fail_at)) return 0;
    atomic_store(&fired, 1);
    return 1;
}

void *__wrap_malloc(size_t size)
{
    void *p = fails(size) ? NULL : __real_malloc(size);
    if (p) atomic_fetch_add(&live, 1);
    return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
    void *p = fails(n * size) ? NULL : __real_calloc(n, size);
    if (p) atomic_fetch_add(&live, 1);
    return p;
}

void *__wrap_aligned_alloc(size_t align, size_t size)
{
    void *p = fails(size) ? NULL : __real_aligned_alloc(align, size);
    if (p) atomic_fetch_add(&live, 1);
    return p;
}

void *__wrap_realloc(void *p, size_t size)
{
    if (fails(size)) return NULL;
    void *q = __real_realloc(p, size);
    if (q && !p) atomic_fetch_add(&live, 1);
    return q;
}

void __wrap_free(void *p)
{
    if (p) atomic_fetch_sub(&live, 1);
    __real_free(p);
}

/* The ecs maps its large blocks itself: counted and failed like the rest
 * (a failed mapping falls back to calloc, the next allocation in turn). */
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    if (fails(len)) {
        errno = ENOMEM;
        return MAP_FAILED;
    }
    return __real_mmap(addr, len, prot, flags, fd, off);
}

static void report(void)
{
    const char *path = getenv("PARTICLES_ALLOC_REPORT");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f) return;
    fprintf(f, "%lu %zu %ld\n", fault_alloc_count(), atomic_load(&largest), fault_alloc_live());
    fclose(f);
}

__attribute__((constructor)) static void fault_alloc_init(void)
{
    const char *k = getenv("PARTICLES_FAIL_ALLOC");
    fault_alloc_reset(k ? strtoul(k, NULL, 10) : 0ul);
    atexit(report);
}
