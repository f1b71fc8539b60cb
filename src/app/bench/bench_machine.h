/* bench_machine.h - what the benchmark ran on. */
#ifndef BENCH_MACHINE_H
#define BENCH_MACHINE_H

#include "bench_probe.h"

typedef struct bench_machine {
    char cpu[128]; /* "model name" from /proc/cpuinfo, or "unknown CPU" */
    long online;   /* online CPUs */
    /* Each CPU's speed before the runs and after each repeat (bench_probe.h),
     * each CPU timed probe_ms; 0: not probed (--cpu-probe 0, or neither the
     * tables nor the JSON to show them). after[r] follows repeat r + 1, so
     * after[after_count - 1] follows the last run. */
    uint32_t probe_ms;
    bench_cpu_speeds before;
    bench_cpu_speeds *after; /* one per repeat (owned by the bench_set) */
    uint32_t after_count;    /* repeats probed so far */
} bench_machine;

void bench_machine_read(bench_machine *m);

/* Probe i: 0 before the runs, r after repeat r (1..after_count). */
const bench_cpu_speeds *bench_machine_probe(const bench_machine *m, uint32_t i);
/* Of probes from..after_count, the first with the lowest speed
 * (bench_probe_slowest); from itself when there are none after it. */
uint32_t bench_machine_slowest(const bench_machine *m, uint32_t from);

#endif /* BENCH_MACHINE_H */
