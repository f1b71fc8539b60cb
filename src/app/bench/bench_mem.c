/* bench_mem.c - peak resident memory through /proc or getrusage. */
#include "bench_mem.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

void bench_mem_init(void)
{
#if defined(__GLIBC__)
    /* glibc raises its mmap threshold each time a large mapped block is
     * freed, after which big buffers come from the heap and their freed
     * copies stay resident: later runs would see a different allocator than
     * the first. Pinning the default (128 KiB) gives every run the
     * allocator of a fresh process. */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

bool bench_mem_reset_peak(void)
{
#if defined(__GLIBC__)
    malloc_trim(0); /* hand the last run's freed heap back first */
#endif
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f) return false;
    bool ok = fputs("5", f) >= 0;
    return fclose(f) == 0 && ok;
}

/* VmHWM in KiB, or -1. */
static long read_hwm_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long kib = -1;
    while (kib < 0 && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0 && sscanf(line + 6, "%ld", &kib) != 1) kib = -1;
    fclose(f);
    return kib;
}

double bench_mem_peak_mib(bool reset_ok, bool *per_run)
{
    long kib = reset_ok ? read_hwm_kib() : -1;
    *per_run = kib >= 0;
    if (kib < 0) {
        struct rusage ru;
        kib = getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
#if defined(__APPLE__)
        kib /= 1024; /* bytes there; KiB on Linux and the BSDs */
#endif
    }
    return (double)kib / 1024.0;
}
