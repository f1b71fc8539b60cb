/* bench_probe.h - how fast each CPU runs at one moment.
 *
 * On a shared virtual machine one core can run much slower than another
 * for minutes (the host gives its time to other guests). That caps what a
 * second thread can add: with speeds 1.00 and 0.70, a run on both cores
 * is at best 1.70x one on the fast core alone. The bench measures every
 * CPU it may run on before and after its runs and prints the speeds beside
 * the results, so that a speedup can be read against what the machine
 * offered at the time. */
#ifndef BENCH_PROBE_H
#define BENCH_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#define BENCH_PROBE_MAX_CPUS 64u /* CPUs measured at most: the lowest-numbered ones */
#define BENCH_PROBE_MAX_MS 1000u

typedef struct bench_cpu_speeds {
    uint32_t count;                      /* CPUs measured; 0: not measured */
    int cpu[BENCH_PROBE_MAX_CPUS];       /* their numbers, ascending */
    double speed[BENCH_PROBE_MAX_CPUS];  /* loop rate / the fastest CPU's: (0, 1] */
    double fastest;                      /* the fastest CPU's loop steps per second */
    const char *why_not;                 /* count 0: why (a static string) */
} bench_cpu_speeds;

/* Starts one thread pinned to each CPU this process may run on; all of
 * them run the same dependent floating-point loop for ms milliseconds
 * (1..BENCH_PROBE_MAX_MS) at once. Returns false (count 0, why_not set)
 * where the CPUs cannot be listed or a thread cannot be started. */
bool bench_probe_cpus(bench_cpu_speeds *out, uint32_t ms);

#endif /* BENCH_PROBE_H */
