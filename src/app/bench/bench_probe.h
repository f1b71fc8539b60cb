/* bench_probe.h - how fast each CPU runs at one moment.
 *
 * On a shared virtual machine one core can run much slower than another
 * for minutes (the host gives its time to other guests). That caps what a
 * second thread can add: with speeds 1.00 and 0.70, a run on both cores
 * is at best 1.70x one on the fast core alone. The bench measures every
 * CPU it may run on before its runs and after each repeat and prints the
 * speeds beside the results, so that a speedup can be read against what
 * the machine offered at the time.
 *
 * Two loops, because the host's contention shows in one and not the
 * other: a dependent multiply-add chain (the clock: the share of the core
 * this thread gets) and a read-modify-write sweep over a private buffer
 * small enough to stay in the core's own caches (what the simulation's
 * loops do; bytes/s count each read and each write). A host thread
 * sharing a core can halve that core's sweep for minutes while its chain
 * stays near full speed. */
#ifndef BENCH_PROBE_H
#define BENCH_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#define BENCH_PROBE_MAX_CPUS 64u /* CPUs measured at most: the lowest-numbered ones */
#define BENCH_PROBE_MAX_MS 1000u

#define BENCH_PROBE_SWEEP_KIB 256u /* each thread's buffer for the memory loop */

typedef struct bench_cpu_speeds {
    uint32_t count;                      /* CPUs measured; 0: not measured */
    int cpu[BENCH_PROBE_MAX_CPUS];       /* their numbers, ascending */
    double speed[BENCH_PROBE_MAX_CPUS];  /* chain rate / the fastest CPU's: (0, 1] */
    double fastest;                      /* the fastest CPU's chain steps per second */
    double mem_speed[BENCH_PROBE_MAX_CPUS]; /* sweep rate / the fastest CPU's: (0, 1] */
    double mem_fastest;                  /* the fastest CPU's sweep, bytes read and
                                            written per second */
    const char *why_not;                 /* count 0: why (a static string) */
} bench_cpu_speeds;

/* Starts one thread pinned to each CPU this process may run on; all of
 * them run the chain for half of ms milliseconds (1..BENCH_PROBE_MAX_MS),
 * then the sweep for the other half, at once. Returns false (count 0,
 * why_not set) where the CPUs cannot be listed, a thread cannot be
 * started or a buffer cannot be allocated. */
bool bench_probe_cpus(bench_cpu_speeds *out, uint32_t ms);

/* The lowest speed of either loop: 1.0 when all CPUs are equal (or none
 * was measured). */
double bench_probe_slowest(const bench_cpu_speeds *c);
/* The same, and where it was found: *at the CPU's slot (0 if none is
 * below 1.0), *sweep whether in the sweep (else the chain). */
double bench_probe_slowest_at(const bench_cpu_speeds *c, uint32_t *at, bool *sweep);

#endif /* BENCH_PROBE_H */
