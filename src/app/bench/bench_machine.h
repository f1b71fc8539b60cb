/* bench_machine.h - what the benchmark ran on: the CPU model and count,
 * how fast each CPU runs at one moment, and the peak memory of one run.
 *
 * The CPU probe: on a shared virtual machine one core can run much
 * slower than another for minutes (the host gives its time to other guests). That caps what a
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
#ifndef BENCH_MACHINE_H
#define BENCH_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- CPU probe ---- */

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

/* The probe pins one thread to each CPU, which needs Linux's
 * sched_getaffinity and pthread_setaffinity_np, or Windows's
 * GetProcessAffinityMask and SetThreadAffinityMask. Elsewhere (or built
 * with BENCH_PROBE_FORCE_ABSENT, as a test does) it measures nothing:
 * bench_probe_cpus returns false with why_not BENCH_PROBE_ABSENT, the
 * tables say so in one line and the JSON's cpu_speed is null. */
#if (defined(__linux__) || defined(_WIN32)) && !defined(BENCH_PROBE_FORCE_ABSENT)
#define BENCH_PROBE_AVAILABLE 1
#else
#define BENCH_PROBE_AVAILABLE 0
#endif
#define BENCH_PROBE_ABSENT "not available on this system (it cannot pin a thread to one CPU)"

/* Whether this build can probe the CPUs (BENCH_PROBE_AVAILABLE). */
bool bench_probe_available(void);

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

/* ---- machine ---- */

typedef struct bench_machine {
    char cpu[128]; /* "model name" from /proc/cpuinfo, or "unknown CPU" */
    long online;   /* online CPUs */
    /* Each CPU's speed before the runs and after each repeat (the CPU probe above),
     * each CPU timed probe_ms; 0: not probed (--cpu-probe 0, or neither the
     * tables nor the JSON to show them). after[r] follows repeat r + 1, so
     * after[after_count - 1] follows the last run. */
    uint32_t probe_ms;
    bench_cpu_speeds before;
    bench_cpu_speeds *after; /* one per repeat (owned by the bench_set) */
    uint32_t after_count;    /* repeats probed so far */
} bench_machine;

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
    bool unequal, busy; /* cpu_speed, machine_speed slowed (app_steady_slowed) */
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

/* ---- memory ---- */

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

#endif /* BENCH_MACHINE_H */
