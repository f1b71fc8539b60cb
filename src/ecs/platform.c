/* platform.c - waiting on an address, the clock and the processor count
 * for each system the module builds on (see platform.h). Only the Linux
 * and fallback branches are built by this project's CI; the macOS and
 * Windows ones follow those systems' documented interfaces. */
#if defined(__linux__)
#define _DEFAULT_SOURCE /* syscall(2), MAP_ANONYMOUS, madvise */
#elif defined(__APPLE__)
#define _DARWIN_C_SOURCE /* sysctlbyname, clock_gettime_nsec_np */
#endif
#include "platform.h"

#include <limits.h>
#include <stdbool.h>

#if defined(_WIN32)
#define ECS_WAIT_WINDOWS 1
#define WIN32_LEAN_AND_MEAN
#include <windows.h> /* WaitOnAddress: link Synchronization.lib */
#else
#include <sched.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#endif

#if defined(__APPLE__)
#include <sys/sysctl.h>
#endif

#if defined(ECS_WAIT_FALLBACK)
/* Chosen at configure time: the portable branch, on any system. */
#elif defined(__linux__)
#define ECS_WAIT_FUTEX 1
#include <linux/futex.h>
#include <sys/syscall.h>
#elif defined(__APPLE__)
#define ECS_WAIT_ULOCK 1
/* os_sync_wait_on_address (macOS 14.4 on) where the SDK declares it and
 * the compiler can check the running system's version (clang's
 * __builtin_available); __ulock_wait otherwise. */
#if defined(__has_include) && defined(__clang__)
#if __has_include(<os/os_sync_wait_on_address.h>)
#include <os/os_sync_wait_on_address.h>
#define ECS_WAIT_OS_SYNC 1
#endif
#endif
/* The private interface under os_sync_wait_on_address (macOS 10.12 on):
 * libSystem exports it, no header declares it. */
extern int __ulock_wait(uint32_t operation, void *addr, uint64_t value, uint32_t timeout_us);
extern int __ulock_wake(uint32_t operation, void *addr, uint64_t wake_value);
#define ECS_UL_COMPARE_AND_WAIT 1u
#define ECS_ULF_WAKE_ALL 0x00000100u
#define ECS_ULF_NO_ERRNO 0x01000000u
#elif !defined(ECS_WAIT_WINDOWS)
#define ECS_WAIT_FALLBACK 1
#endif

#if defined(ECS_WAIT_FALLBACK) && defined(ECS_WAIT_WINDOWS)
#undef ECS_WAIT_WINDOWS /* the fallback needs pthreads there too */
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
void ecs__wake_all(atomic_uint *word) { bucket_wake(word); }

#elif defined(ECS_WAIT_FUTEX)

void ecs__wait_on(atomic_uint *word, unsigned expected)
{
    /* Returns at once if *word != expected. */
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake(atomic_uint *word, int n)
{
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

void ecs__wake_one(atomic_uint *word) { futex_wake(word, 1); }
void ecs__wake_all(atomic_uint *word) { futex_wake(word, INT_MAX); }

#elif defined(ECS_WAIT_ULOCK)

void ecs__wait_on(atomic_uint *word, unsigned expected)
{
#if defined(ECS_WAIT_OS_SYNC)
    if (__builtin_available(macOS 14.4, *)) {
        os_sync_wait_on_address((void *)word, expected, sizeof(unsigned),
                                OS_SYNC_WAIT_ON_ADDRESS_NONE);
        return;
    }
#endif
    __ulock_wait(ECS_UL_COMPARE_AND_WAIT | ECS_ULF_NO_ERRNO, (void *)word, expected, 0);
}

static void ulock_wake(atomic_uint *word, bool all)
{
#if defined(ECS_WAIT_OS_SYNC)
    if (__builtin_available(macOS 14.4, *)) {
        if (all) os_sync_wake_by_address_all((void *)word, sizeof(unsigned),
                                             OS_SYNC_WAKE_BY_ADDRESS_NONE);
        else os_sync_wake_by_address_any((void *)word, sizeof(unsigned),
                                         OS_SYNC_WAKE_BY_ADDRESS_NONE);
        return;
    }
#endif
    __ulock_wake(ECS_UL_COMPARE_AND_WAIT | ECS_ULF_NO_ERRNO | (all ? ECS_ULF_WAKE_ALL : 0u),
                 (void *)word, 0);
}

void ecs__wake_one(atomic_uint *word) { ulock_wake(word, false); }
void ecs__wake_all(atomic_uint *word) { ulock_wake(word, true); }

#elif defined(ECS_WAIT_WINDOWS)

void ecs__wait_on(atomic_uint *word, unsigned expected)
{
    WaitOnAddress((volatile VOID *)word, &expected, sizeof expected, INFINITE);
}

void ecs__wake_one(atomic_uint *word) { WakeByAddressSingle((PVOID)word); }
void ecs__wake_all(atomic_uint *word) { WakeByAddressAll((PVOID)word); }

#endif

uint64_t ecs__now_ns(void)
{
#if defined(_WIN32)
    LARGE_INTEGER freq, t; /* the frequency is fixed at boot: the call only reads it */
    QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&t);
    uint64_t f = (uint64_t)freq.QuadPart, c = (uint64_t)t.QuadPart;
    return c / f * 1000000000u + c % f * 1000000000u / f;
#elif defined(__APPLE__)
    return clock_gettime_nsec_np(CLOCK_UPTIME_RAW);
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

uint32_t ecs__cpu_count(void)
{
#if defined(_WIN32)
    DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return n > 0 ? (uint32_t)n : 1u;
#elif defined(__APPLE__)
    int n = 0;
    size_t len = sizeof n;
    if (sysctlbyname("hw.activecpu", &n, &len, NULL, 0) != 0 || n < 1) return 1u;
    return (uint32_t)n;
#else
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (n > (long)UINT32_MAX ? UINT32_MAX : (uint32_t)n) : 1u;
#endif
}

void ecs__yield(void)
{
#if defined(_WIN32)
    (void)SwitchToThread();
#else
    (void)sched_yield();
#endif
}

size_t ecs__page_size(void)
{
#if defined(_WIN32)
    SYSTEM_INFO info;
    GetSystemInfo(&info);
    size_t ps = info.dwPageSize;
#else
    long n = sysconf(_SC_PAGESIZE);
    size_t ps = n > 0 ? (size_t)n : 4096u;
#endif
    return ps && !(ps & (ps - 1u)) ? ps : 4096u;
}

#if defined(_WIN32) || !defined(MAP_ANONYMOUS)
/* VirtualFree releases only a whole reservation: no cutting at the ends. */
void *ecs__map(size_t len)
{
    (void)len;
    return NULL;
}

void ecs__unmap(void *p, size_t len)
{
    (void)p;
    (void)len;
}
#else
void *ecs__map(size_t len)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void ecs__unmap(void *p, size_t len) { munmap(p, len); }
#endif

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
