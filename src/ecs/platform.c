/* platform.c - waiting on an address, the clock, the processor count,
 * thread names and virtual memory (see platform.h) on Linux, the system this project's CI
 * builds for (gcc and clang on x86-64; gcc on aarch64, s390x, i686, and on
 * x86-64 with musl). The wait is a futex, or
 * the portable mutex and condition variable table when built with
 * ECS_WAIT_FALLBACK (CI's fallback preset). */
#define _DEFAULT_SOURCE /* syscall(2), MAP_ANONYMOUS, madvise */
#include "platform.h"

#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#if !defined(ECS_WAIT_FALLBACK)
#include <linux/futex.h>
#include <sys/syscall.h>
#endif

#if defined(ECS_WAIT_FALLBACK)
#include <pthread.h>

/* Waiters block on the condition variable of the bucket their word hashes
 * to, under its mutex. A waker changed the word before it takes the same
 * mutex, so a waiter either sees the change before it blocks or is
 * already blocked when the broadcast comes. Words that share a bucket
 * share its broadcasts: their waiters wake, find their word unchanged and
 * block again (callers re-check). */
#define WAIT_BUCKETS 64u
typedef struct wait_bucket {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
} wait_bucket;
static wait_bucket buckets[WAIT_BUCKETS];
static pthread_once_t buckets_once = PTHREAD_ONCE_INIT;

static void buckets_init(void)
{
    for (unsigned i = 0; i < WAIT_BUCKETS; i++) {
        pthread_mutex_init(&buckets[i].mutex, NULL);
        pthread_cond_init(&buckets[i].cond, NULL);
    }
}

static wait_bucket *bucket_of(const void *word)
{
    pthread_once(&buckets_once, buckets_init);
    uintptr_t a = (uintptr_t)word;
    /* Words sit on cache lines of their own: the low six bits say little. */
    a ^= a >> 6 ^ a >> 12;
    return &buckets[a % WAIT_BUCKETS];
}

void ecs__wait_on(atomic_uint *word, unsigned expected)
{
    wait_bucket *b = bucket_of(word);
    pthread_mutex_lock(&b->mutex);
    if (atomic_load_explicit(word, memory_order_acquire) == expected)
        pthread_cond_wait(&b->cond, &b->mutex);
    pthread_mutex_unlock(&b->mutex);
}

static void bucket_wake(atomic_uint *word)
{
    wait_bucket *b = bucket_of(word);
    pthread_mutex_lock(&b->mutex);
    pthread_cond_broadcast(&b->cond); /* one waiter may be another word's */
    pthread_mutex_unlock(&b->mutex);
}

void ecs__wake_one(atomic_uint *word) { bucket_wake(word); }

#else

void ecs__wait_on(atomic_uint *word, unsigned expected)
{
    /* Returns at once if *word != expected. */
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

void ecs__wake_one(atomic_uint *word)
{
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

#endif

uint64_t ecs__now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint32_t ecs__cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (n > (long)UINT32_MAX ? UINT32_MAX : (uint32_t)n) : 1u;
}

void ecs__name_thread(const char *name) { (void)prctl(PR_SET_NAME, name, 0, 0, 0); }

void ecs__yield(void) { (void)sched_yield(); }

size_t ecs__page_size(void)
{
    long n = sysconf(_SC_PAGESIZE);
    size_t ps = n > 0 ? (size_t)n : 4096u;
    return ps && !(ps & (ps - 1u)) ? ps : 4096u;
}

void *ecs__map(size_t len)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void ecs__unmap(void *p, size_t len) { munmap(p, len); }

void ecs__advise_huge(void *p, size_t len)
{
#if defined(MADV_HUGEPAGE)
    (void)madvise(p, len, MADV_HUGEPAGE);
#else
    (void)p;
    (void)len;
#endif
}

void ecs__populate(void *p, size_t len)
{
#if defined(MADV_POPULATE_WRITE)
    uintptr_t page = ecs__page_size();
    uintptr_t lo = ((uintptr_t)p + page - 1u) & ~(page - 1u);
    uintptr_t hi = ((uintptr_t)p + len) & ~(page - 1u);
    /* Whole pages of the range only: a length the kernel rounded up would
     * reach past it. */
    if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)len;
#endif
}
