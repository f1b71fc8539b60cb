/* bench_machine.h - what the benchmark ran on. */
#ifndef BENCH_MACHINE_H
#define BENCH_MACHINE_H

#include "bench_probe.h"

typedef struct bench_machine {
    char cpu[128]; /* "model name" from /proc/cpuinfo, or "unknown CPU" */
    long online;   /* online CPUs */
    /* Each CPU's speed before and after the runs (bench_probe.h), each CPU
     * timed probe_ms; 0: not probed (--cpu-probe 0, or neither the tables
     * nor the JSON to show them). */
    uint32_t probe_ms;
    bench_cpu_speeds before, after;
} bench_machine;

void bench_machine_read(bench_machine *m);

#endif /* BENCH_MACHINE_H */
