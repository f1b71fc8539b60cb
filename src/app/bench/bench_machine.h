/* bench_machine.h - what the benchmark ran on. */
#ifndef BENCH_MACHINE_H
#define BENCH_MACHINE_H

typedef struct bench_machine {
    char cpu[128]; /* "model name" from /proc/cpuinfo, or "unknown CPU" */
    long online;   /* online CPUs */
} bench_machine;

void bench_machine_read(bench_machine *m);

#endif /* BENCH_MACHINE_H */
