/* bench_machine.c - what the benchmark ran on: the CPU model and count,
 * each CPU's speed at one moment (a pinned thread per CPU, all started
 * together, each counting rounds of the same two loops) and what the
 * probes say, and the peak resident memory of one run. Linux's calls, with
 * Windows's beside them. */
#define _GNU_SOURCE /* Linux: sched_getaffinity, pthread_setaffinity_np (glibc and musl) */
#include "bench_machine.h"
#include "app_clock.h"
#include "app_steady.h"

#include "ecs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <psapi.h>
#else
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/* The processor's name: Windows's, or the value of /proc/cpuinfo's first
 * "model name : value" line, trimmed. */
static void read_cpu_model(char *out, size_t size)
{
    snprintf(out, size, "unknown CPU");
#if defined(_WIN32)
    char name[128];
    DWORD n = sizeof name;
    if (RegGetValueA(HKEY_LOCAL_MACHINE, "HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0",
                     "ProcessorNameString", RRF_RT_REG_SZ, NULL, name, &n) == ERROR_SUCCESS &&
        name[strspn(name, " ")])
        snprintf(out, size, "%s", name + strspn(name, " "));
#else
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) != 0 || !colon) continue;
        char *v = colon + 1 + strspn(colon + 1, " \t");
        v[strcspn(v, "\n")] = '\0';
        if (*v) snprintf(out, size, "%s", v);
        break;
    }
    fclose(f);
#endif
}

const bench_cpu_speeds *bench_machine_probe(const bench_machine *m, uint32_t i)
{
    return i ? &m->after[i - 1u] : &m->before;
}

uint32_t bench_machine_slowest(const bench_machine *m, uint32_t from)
{
    uint32_t slowest = from;
    for (uint32_t i = from + 1u; i <= m->after_count; i++)
        if (bench_probe_slowest(bench_machine_probe(m, i)) <
            bench_probe_slowest(bench_machine_probe(m, slowest)))
            slowest = i;
    return slowest;
}

void bench_machine_read(bench_machine *m)
{
    read_cpu_model(m->cpu, sizeof m->cpu);
    m->online = (long)ecs_cpu_count();
}

void bench_machine_probe_name(uint32_t i, char *buf, size_t size)
{
    if (i)
        snprintf(buf, size, "after repeat %u", (unsigned)i);
    else
        snprintf(buf, size, "before the runs");
}

bench_machine_check bench_machine_check_of(const bench_machine *m)
{
    bench_machine_check c = {.cpu_speed = 1.0, .machine_speed = 1.0};
    if (!m->probe_ms) return c;
    double best[2] = {0.0, 0.0}; /* the fastest CPU's best chain and sweep rates */
    for (uint32_t i = 0; i <= m->after_count; i++) {
        const bench_cpu_speeds *p = bench_machine_probe(m, i);
        if (!p->count) continue;
        c.probed = true;
        best[0] = p->fastest > best[0] ? p->fastest : best[0];
        best[1] = p->mem_fastest > best[1] ? p->mem_fastest : best[1];
        uint32_t k;
        bool sweep;
        double v = bench_probe_slowest_at(p, &k, &sweep);
        if (v < c.cpu_speed) {
            c.cpu_speed = v;
            c.cpu = p->cpu[k];
            c.cpu_sweep = sweep;
            c.cpu_probe = i;
        }
    }
    for (uint32_t i = 0; c.probed && i <= m->after_count; i++) {
        const bench_cpu_speeds *p = bench_machine_probe(m, i);
        if (!p->count) continue;
        for (int loop = 0; loop < 2; loop++) {
            double v = (loop ? p->mem_fastest : p->fastest) / best[loop];
            if (v >= c.machine_speed) continue;
            c.machine_speed = v;
            c.machine_sweep = loop == 1;
            c.machine_probe = i;
        }
    }
    c.unequal = app_steady_slowed(c.cpu_speed);
    c.busy = app_steady_slowed(c.machine_speed);
    return c;
}

/* ---- CPU probe ----------------------------------------------------------- */

#if BENCH_PROBE_AVAILABLE

#define ROUND_STEPS 4096 /* loop steps between two looks at the clock */

#define SWEEP_FLOATS (BENCH_PROBE_SWEEP_KIB * 1024u / sizeof(float))

/* One thread's result, on a cache line of its own. */
typedef struct probe_slot {
    _Alignas(64) double rate; /* chain steps per second */
    double mem_rate;          /* sweep bytes read and written per second */
    double sink;              /* the loops' values, kept so the loops stay */
    float *buf;               /* the sweep's buffer, given by the caller */
    bool unpinned;            /* the thread could not pin itself to its CPU */
} probe_slot;

/* The start gate: every thread waits until all are started (go) or one
 * could not be (stop). */
typedef struct probe_gate {
    pthread_mutex_t lock;
    pthread_cond_t open;
    bool go, stop;
    uint64_t ns; /* how long to run */
    pthread_barrier_t turn; /* every thread ends the chain before any sweeps */
} probe_gate;

typedef struct probe_arg {
    probe_gate *gate;
    probe_slot *slot;
    int cpu; /* the one CPU the thread runs on */
} probe_arg;

/* A chain of dependent multiply-adds: its rate is the core's clock times
 * the share of it this thread gets, whatever the memory does. */
static double run_chain(uint64_t ns, double *sink)
{
    double x = 1.0;
    uint64_t rounds = 0, t0 = app_now_ns(), t;
    do {
        for (int k = 0; k < ROUND_STEPS; k++) x = x * 0.999999 + 0.5;
        rounds++;
        t = app_now_ns();
    } while (t - t0 < ns);
    *sink += x;
    return (double)rounds * ROUND_STEPS * 1e9 / (double)(t - t0);
}

/* Sweeps of loads and stores over the thread's own buffer, which stays in
 * its core's caches: a host thread sharing the core slows these long
 * before it slows the chain. */
static double run_sweep(float *buf, uint64_t ns, double *sink)
{
    uint64_t sweeps = 0, t0 = app_now_ns(), t;
    do {
        for (size_t i = 0; i < SWEEP_FLOATS; i++) buf[i] = buf[i] * 0.999f + 0.5f;
        sweeps++;
        t = app_now_ns();
    } while (t - t0 < ns);
    *sink += buf[sweeps % SWEEP_FLOATS];
    return (double)sweeps * 2.0 * SWEEP_FLOATS * sizeof(float) * 1e9 / (double)(t - t0);
}

static void *probe_thread(void *p)
{
    probe_arg *a = p;
    probe_gate *g = a->gate;
    /* The thread pins itself, first: pthread_attr_setaffinity_np is
     * glibc's alone, pthread_setaffinity_np glibc's and musl's. */
#if defined(_WIN32)
    a->slot->unpinned = SetThreadAffinityMask(GetCurrentThread(), (DWORD_PTR)1 << a->cpu) == 0;
#else
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(a->cpu, &one);
    a->slot->unpinned = pthread_setaffinity_np(pthread_self(), sizeof one, &one) != 0;
#endif
    /* Touched here, so its pages are this CPU's, before the gate opens. */
    float *buf = a->slot->buf;
    for (size_t i = 0; i < SWEEP_FLOATS; i++) buf[i] = (float)(i & 1023u);
    pthread_mutex_lock(&g->lock);
    while (!g->go && !g->stop) pthread_cond_wait(&g->open, &g->lock);
    bool run = g->go;
    uint64_t ns = g->ns;
    pthread_mutex_unlock(&g->lock);
    if (!run) return NULL;
    double sink = 0.0;
    a->slot->rate = run_chain(ns / 2u, &sink);
    pthread_barrier_wait(&g->turn);
    a->slot->mem_rate = run_sweep(buf, ns - ns / 2u, &sink);
    a->slot->sink = sink;
    return NULL;
}

/* The CPUs this process may run on, ascending, at most max of them. */
static uint32_t list_cpus(int *cpu, uint32_t max)
{
#if defined(_WIN32)
    /* The process's processor group: up to 64 CPUs. */
    DWORD_PTR mine, all;
    if (!GetProcessAffinityMask(GetCurrentProcess(), &mine, &all)) return 0;
    uint32_t n = 0;
    for (int c = 0; c < (int)(8 * sizeof mine) && n < max; c++)
        if (mine >> c & 1u) cpu[n++] = c;
    return n;
#else
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
    uint32_t n = 0;
    for (int c = 0; c < CPU_SETSIZE && n < max; c++)
        if (CPU_ISSET(c, &set)) cpu[n++] = c;
    return n;
#endif
}


/* The sweep's buffers, one per CPU; false (none left) if one cannot be had. */
static bool alloc_buffers(probe_slot *slot, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        slot[k].buf = malloc(SWEEP_FLOATS * sizeof(float));
        if (!slot[k].buf) {
            while (k) free(slot[--k].buf);
            return false;
        }
    }
    return true;
}

bool bench_probe_cpus(bench_cpu_speeds *out, uint32_t ms)
{
    out->count = 0;
    out->why_not = NULL;
    if (ms == 0 || ms > BENCH_PROBE_MAX_MS) {
        out->why_not = "probe time out of range";
        return false;
    }
    int cpu[BENCH_PROBE_MAX_CPUS];
    uint32_t n = list_cpus(cpu, BENCH_PROBE_MAX_CPUS);
    if (n == 0) {
        out->why_not = "the CPUs this process may use could not be listed";
        return false;
    }
    probe_gate gate = {.ns = (uint64_t)ms * 1000000u};
    probe_slot slot[BENCH_PROBE_MAX_CPUS];
    probe_arg arg[BENCH_PROBE_MAX_CPUS];
    pthread_t thread[BENCH_PROBE_MAX_CPUS];
    if (!alloc_buffers(slot, n)) {
        out->why_not = "out of memory for the buffers of the sweep";
        return false;
    }
    bool sync = false;
    if (pthread_mutex_init(&gate.lock, NULL) != 0) {
        out->why_not = "no mutex";
    } else if (pthread_cond_init(&gate.open, NULL) != 0) {
        pthread_mutex_destroy(&gate.lock);
        out->why_not = "no condition variable";
    } else if (pthread_barrier_init(&gate.turn, NULL, n) != 0) {
        pthread_cond_destroy(&gate.open);
        pthread_mutex_destroy(&gate.lock);
        out->why_not = "no barrier";
    } else {
        sync = true;
    }
    uint32_t started = 0;
    while (sync && started < n) {
        arg[started] = (probe_arg){&gate, &slot[started], cpu[started]};
        if (pthread_create(&thread[started], NULL, probe_thread, &arg[started]) != 0) break;
        started++;
    }
    if (sync) {
        pthread_mutex_lock(&gate.lock);
        if (started == n)
            gate.go = true;
        else
            gate.stop = true;
        pthread_cond_broadcast(&gate.open);
        pthread_mutex_unlock(&gate.lock);
        for (uint32_t k = 0; k < started; k++) pthread_join(thread[k], NULL);
        pthread_barrier_destroy(&gate.turn);
        pthread_cond_destroy(&gate.open);
        pthread_mutex_destroy(&gate.lock);
        if (started < n) out->why_not = "a thread could not be started on one of the CPUs";
    }
    bool pinned = true;
    for (uint32_t k = 0; k < started; k++) pinned = pinned && !slot[k].unpinned;
    if (sync && started == n && !pinned) out->why_not = "a thread could not be pinned to one of the CPUs";
    for (uint32_t k = 0; k < n; k++) free(slot[k].buf);
    if (!sync || started < n || !pinned) return false;
    double fastest = 0.0, mem_fastest = 0.0;
    for (uint32_t k = 0; k < n; k++) {
        if (slot[k].rate > fastest) fastest = slot[k].rate;
        if (slot[k].mem_rate > mem_fastest) mem_fastest = slot[k].mem_rate;
    }
    for (uint32_t k = 0; k < n; k++) {
        out->cpu[k] = cpu[k];
        out->speed[k] = slot[k].rate / fastest;
        out->mem_speed[k] = slot[k].mem_rate / mem_fastest;
    }
    out->fastest = fastest;
    out->mem_fastest = mem_fastest;
    out->count = n;
    return true;
}

#else

bool bench_probe_cpus(bench_cpu_speeds *out, uint32_t ms)
{
    (void)ms;
    out->count = 0;
    out->why_not = BENCH_PROBE_ABSENT;
    return false;
}

#endif /* BENCH_PROBE_AVAILABLE */

bool bench_probe_available(void) { return BENCH_PROBE_AVAILABLE; }

double bench_probe_slowest_at(const bench_cpu_speeds *c, uint32_t *at, bool *sweep)
{
    double slowest = 1.0;
    *at = 0;
    *sweep = false;
    for (uint32_t k = 0; k < c->count; k++)
        for (int m = 0; m < 2; m++) {
            double v = m ? c->mem_speed[k] : c->speed[k];
            if (v < slowest) slowest = v, *at = k, *sweep = m;
        }
    return slowest;
}

double bench_probe_slowest(const bench_cpu_speeds *c)
{
    uint32_t at;
    bool sweep;
    return bench_probe_slowest_at(c, &at, &sweep);
}

/* ---- memory -------------------------------------------------------------- */

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
#if defined(__linux__)
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f) return false;
    bool ok = fputs("5", f) >= 0;
    return fclose(f) == 0 && ok;
#else
    return false; /* no per-run peak: the process's peak stands in */
#endif
}

/* VmHWM in KiB, or -1 (always off Linux). */
static long read_hwm_kib(void)
{
#if !defined(__linux__)
    return -1;
#else
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long kib = -1;
    while (kib < 0 && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0 && sscanf(line + 6, "%ld", &kib) != 1) kib = -1;
    fclose(f);
    return kib;
#endif
}

double bench_mem_peak_mib(bool reset_ok, bool *per_run)
{
    long kib = reset_ok ? read_hwm_kib() : -1;
    *per_run = kib >= 0;
    if (kib < 0) {
#if defined(_WIN32)
        PROCESS_MEMORY_COUNTERS pm;
        kib = GetProcessMemoryInfo(GetCurrentProcess(), &pm, sizeof pm)
                  ? (long)(pm.PeakWorkingSetSize / 1024u)
                  : 0;
#else
        struct rusage ru;
        kib = getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
#endif
    }
    return (double)kib / 1024.0;
}
