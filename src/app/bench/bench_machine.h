/* bench_machine.h - what the benchmark ran on. */
#ifndef BENCH_MACHINE_H
#define BENCH_MACHINE_H

#include "bench_probe.h"

#include <stdbool.h>
#include <stddef.h>

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

/* Below this, a CPU's speed against the fastest (or the machine's against
 * its best probe) means the timings shared the machine with other work. */
#define BENCH_MACHINE_STEADY 0.9

/* What the probes of one run say about the machine, for one warning. */
typedef struct bench_machine_check {
    bool probed;        /* at least one probe measured the CPUs */
    /* The lowest speed of one CPU against the fastest, in any probe. */
    double cpu_speed;
    int cpu;            /* that CPU */
    bool cpu_sweep;     /* in the sweep (else the chain) */
    uint32_t cpu_probe; /* in probe i (bench_machine_probe) */
    /* The lowest rate of the fastest CPU against its best rate over all
     * the probes, in either loop: the machine slower as a whole. */
    double machine_speed;
    bool machine_sweep;
    uint32_t machine_probe;
    bool unequal, busy; /* cpu_speed, machine_speed below BENCH_MACHINE_STEADY */
} bench_machine_check;

void bench_machine_read(bench_machine *m);
/* The run's probes summed up (probed false where none measured). */
bench_machine_check bench_machine_check_of(const bench_machine *m);
/* "before the runs" or "after repeat r" for probe i. */
void bench_machine_probe_name(uint32_t i, char *buf, size_t size);

/* Probe i: 0 before the runs, r after repeat r (1..after_count). */
const bench_cpu_speeds *bench_machine_probe(const bench_machine *m, uint32_t i);
/* Of probes from..after_count, the first with the lowest speed
 * (bench_probe_slowest); from itself when there are none after it. */
uint32_t bench_machine_slowest(const bench_machine *m, uint32_t from);

#endif /* BENCH_MACHINE_H */
