/* bench_mem.h - peak resident memory of one run. */
#ifndef BENCH_MEM_H
#define BENCH_MEM_H

#include <stdbool.h>

/* Gives every run the allocator behaviour of a fresh process (glibc: pins
 * the mmap threshold). Call once before the first run. */
void bench_mem_init(void);

/* Trims the heap (glibc), then resets the process's peak RSS to its current
 * RSS (writes "5" to /proc/self/clear_refs). False if the kernel refused. */
bool bench_mem_reset_peak(void);

/* The peak RSS in MiB: VmHWM from /proc/self/status when reset_ok and
 * readable (*per_run = true), else getrusage's ru_maxrss, the peak of the
 * whole process so far (*per_run = false). */
double bench_mem_peak_mib(bool reset_ok, bool *per_run);

#endif /* BENCH_MEM_H */
