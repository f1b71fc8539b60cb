/* bench_tables.c - what a person reads first: the header line, the
 * thesis's two tables with its published figures beside ours, and the
 * per-system breakdown. */
#include "bench_tables.h"

#include <stdio.h>
#include <string.h>

/* The thesis's published figures (workload.md): 8 threads, i7-2700K. */
typedef struct thesis_row {
    uint32_t count;
    double ip_off_ms, ip_on_ms, ip_change; /* Table 1 */
    double dyn_change_off, dyn_change_on;  /* Table 2: dynamic vs fixed, IP off / on */
} thesis_row;

static const thesis_row THESIS[] = {
    {50000u, 9249.0, 3485.0, -62.32, +2.28, -0.45},
    {100000u, 22026.0, 7403.0, -66.38, +1.42, -0.26},
    {200000u, 58884.0, 19387.0, -67.07, +3.56, -0.44},
};

static const thesis_row *thesis_find(uint32_t count)
{
    for (size_t i = 0; i < sizeof THESIS / sizeof THESIS[0]; i++)
        if (THESIS[i].count == count) return &THESIS[i];
    return NULL;
}

static double change_pct(double base, double x)
{
    return base > 0.0 ? (x - base) / base * 100.0 : 0.0;
}

static void print_stat(bench_stat s) { printf("%9.1f ± %7.1f", s.mean, s.sd); }

static const bench_summary *summary(const bench_set *s, uint32_t count, bool ip, ecs_storage st,
                                   uint32_t threads)
{
    int c = bench_set_find(s, count, ip, st, threads);
    return c < 0 ? NULL : &s->sums[c];
}

/* " at N threads" where several thread counts ran, else "". */
static const char *at_threads(const bench_set *s, uint32_t threads, char *buf, size_t size)
{
    buf[0] = '\0';
    if (s->opt->thread_n > 1)
        snprintf(buf, size, " at %u thread%s", (unsigned)threads, threads == 1 ? "" : "s");
    return buf;
}

/* One probe's line: each CPU's chain speed, then its sweep speed, then the
 * fastest CPU's rates (which show a machine slower as a whole, where the
 * relative speeds do not). */
static void print_probe(const char *when, const bench_cpu_speeds *c, const char *mark)
{
    printf("  %-17s", when);
    if (!c->count) {
        printf(" not measured: %s\n", c->why_not);
        return;
    }
    printf(" chain");
    for (uint32_t k = 0; k < c->count; k++) printf(" cpu%d %.2f", c->cpu[k], c->speed[k]);
    printf(" | sweep");
    for (uint32_t k = 0; k < c->count; k++) printf(" cpu%d %.2f", c->cpu[k], c->mem_speed[k]);
    printf(" | fastest %.0f M steps/s, %.1f GB/s%s\n", c->fastest / 1e6, c->mem_fastest / 1e9,
           mark);
}

#define PROBES_LISTED 2u /* repeats whose probes are all listed; beyond, the slowest and last */

/* --cpu-probe's speeds: a heading, the probe before the runs, then the
 * probes after the repeats (both of them for two repeats; otherwise the
 * one that found a CPU slowest, and the last). Every probe is in the JSON. */
static void print_cpu_speeds(const bench_machine *m)
{
    if (!m->probe_ms) return;
    printf("cpu speed against the fastest CPU (1.00), each CPU timed %u ms at once in two "
           "loops: chain = dependent multiply-adds, sweep = loads and stores over %u KiB:\n",
           (unsigned)m->probe_ms, (unsigned)BENCH_PROBE_SWEEP_KIB);
    print_probe("before the runs:", &m->before, "");
    uint32_t slowest = bench_machine_slowest(m, 1u);
    for (uint32_t r = 1; r <= m->after_count; r++) {
        bool few = m->after_count <= PROBES_LISTED;
        if (!few && r != slowest && r != m->after_count) continue;
        char when[32];
        snprintf(when, sizeof when, "after repeat %u:", (unsigned)r);
        bool mark = !few && r == slowest && bench_probe_slowest(&m->after[r - 1u]) < 1.0;
        print_probe(when, &m->after[r - 1u], mark ? "  <- the slowest" : "");
    }
}

/* One line when the probes found the CPUs unequal or the machine busy:
 * then a ratio of two timings of this run says as much about the machine
 * as about the configurations. */
static void print_machine_warning(const bench_machine *m)
{
    bench_machine_check c = bench_machine_check_of(m);
    if (!c.unequal && !c.busy) return;
    char unequal[128] = "", busy[128] = "", at[32];
    if (c.unequal) {
        bench_machine_probe_name(c.cpu_probe, at, sizeof at);
        snprintf(unequal, sizeof unequal, "the CPUs were unequal (cpu%d ran the %s at %.2f of "
                 "the fastest, %s)", c.cpu, c.cpu_sweep ? "sweep" : "chain", c.cpu_speed, at);
    }
    if (c.busy) {
        bench_machine_probe_name(c.machine_probe, at, sizeof at);
        snprintf(busy, sizeof busy, "the machine was busy (its fastest CPU ran the %s at %.2f "
                 "of its best, %s)", c.machine_sweep ? "sweep" : "chain", c.machine_speed, at);
    }
    printf("WARNING: %s%s%s during the runs: this run's timings and their ratios are "
           "unreliable; rerun on a quiet machine\n",
           unequal, c.unequal && c.busy ? " and " : "", busy);
}

void bench_print_header(const bench_set *s)
{
    const bench_options *o = s->opt;
    char frames[64];
    if (o->frames)
        snprintf(frames, sizeof frames, "at most %u frames", (unsigned)o->frames);
    else
        snprintf(frames, sizeof frames, "until every particle died");
    const sim_params d = sim_default_params();
    char threads[BENCH_MAX_LIST * 5] = "";
    for (uint32_t t = 0; t < o->thread_n; t++) {
        size_t used = strlen(threads);
        snprintf(threads + used, sizeof threads - used, "%s%u", t ? "," : "",
                 (unsigned)o->threads[t]);
    }
    printf("machine: %s, %ld online CPUs | threads %s | repeats %u | seed %u | frames: %s\n"
           "collision kernel: %s | world %ux%u%s\n",
           s->machine.cpu, s->machine.online, threads, (unsigned)o->repeat,
           (unsigned)o->seed, frames, sim_kernel_name(sim_kernel_resolve(o->kernel)),
           o->world_w ? (unsigned)o->world_w : (unsigned)d.world_w,
           o->world_w ? (unsigned)o->world_h : (unsigned)d.world_h,
           o->weak ? " at the smallest thread count (weak scaling: the particles and the "
                     "world's area grow with the threads)"
                   : "");
    print_cpu_speeds(&s->machine);
    print_machine_warning(&s->machine);
    if (!bench_set_rss_per_run(s))
        printf("note: /proc/self/clear_refs or VmHWM unavailable: peak RSS is getrusage's "
               "ru_maxrss, the peak of the whole process so far, not of each run\n");
}

/* ---- Table 1: inner parallelism ------------------------------------------- */

static void table1_row(const bench_set *s, uint32_t count, ecs_storage st, uint32_t threads)
{
    const bench_summary *off = summary(s, count, false, st, threads);
    const bench_summary *on = summary(s, count, true, st, threads);
    printf("%9u  %-7s  ", (unsigned)count, bench_storage_name(st));
    print_stat(off->total);
    printf("  ");
    print_stat(on->total);
    printf("  %+8.2f %%  %6.2fx |", change_pct(off->total.mean, on->total.mean),
           on->total.mean > 0.0 ? off->total.mean / on->total.mean : 0.0);
    const thesis_row *t = thesis_find(count);
    if (t)
        printf(" %8.0f  %8.0f  %+8.2f %% | %9.2fx\n", t->ip_off_ms, t->ip_on_ms, t->ip_change,
               on->total.mean > 0.0 ? t->ip_on_ms / on->total.mean : 0.0);
    else
        printf(" %8s  %8s  %10s | %10s\n", "-", "-", "-", "-");
}

/* The medians of IP off and on, with the timeline's achieved parallelism
 * and busy share: unlike the wall clock, these hold on a shared machine. */
static void table1_medians(const bench_set *s, uint32_t threads)
{
    const bench_options *o = s->opt;
    printf("medians of %u (achieved = work / wall of the system phase; busy = the workers' "
           "mean share of it in subtasks):\n", (unsigned)o->repeat);
    for (uint32_t i = 0; i < o->count_n; i++)
        for (uint32_t k = 0; k < o->storage_n; k++) {
            const bench_summary *off = summary(s, o->counts[i], false, o->storages[k], threads);
            const bench_summary *on = summary(s, o->counts[i], true, o->storages[k], threads);
            printf("%9u  %-7s  IP off %9.1f  IP on %9.1f  speedup %5.2fx | achieved off %5.2f "
                   "on %5.2f | busy off %3.0f %% on %3.0f %%\n",
                   (unsigned)o->counts[i], bench_storage_name(o->storages[k]), off->total.median,
                   on->total.median,
                   on->total.median > 0.0 ? off->total.median / on->total.median : 0.0,
                   off->achieved.median, on->achieved.median, off->busy.median * 100.0,
                   on->busy.median * 100.0);
        }
}

static void table1_at(const bench_set *s, uint32_t threads)
{
    const bench_options *o = s->opt;
    char at[32];
    printf("\nTable 1. Inner parallelism (IP)%s: total ms per run, mean ± sd of %u "
           "(create with spawning + every frame)\n",
           at_threads(s, threads, at, sizeof at), (unsigned)o->repeat);
    printf("%9s  %-7s  %19s  %19s  %10s  %7s | %8s  %8s  %10s | %10s\n", "particles", "storage",
           "IP off (baseline)", "IP on", "change", "speedup", "thesis", "thesis", "thesis",
           "ours vs");
    printf("%9s  %-7s  %19s  %19s  %10s  %7s | %8s  %8s  %10s | %10s\n", "", "", "", "", "", "",
           "IP off", "IP on", "change", "thesis on");
    for (uint32_t i = 0; i < o->count_n; i++)
        for (uint32_t k = 0; k < o->storage_n; k++)
            table1_row(s, o->counts[i], o->storages[k], threads);
    printf("thesis: 8 threads, Intel i7-2700K, g++ 6.1 -Ofast, mean of 3; \"ours vs thesis on\" "
           "= thesis IP-on ms / our IP-on ms\n");
    /* Medians too: on a shared machine one slow repeat moves a mean, not a median. */
    table1_medians(s, threads);
}

void bench_print_table1(const bench_set *s)
{
    const bench_options *o = s->opt;
    if (o->ip_n < 2) {
        printf("\nTable 1 (inner parallelism) needs --inner-parallelism on,off: skipped.\n");
        return;
    }
    for (uint32_t t = 0; t < o->thread_n; t++) table1_at(s, o->threads[t]);
}

/* ---- Table 2: storage ----------------------------------------------------- */

static void table2_row(const bench_set *s, uint32_t count, bool ip, uint32_t threads)
{
    const bench_summary *fix = summary(s, count, ip, ECS_STORAGE_FIXED, threads);
    const bench_summary *dyn = summary(s, count, ip, ECS_STORAGE_DYNAMIC, threads);
    printf("%9u  %-3s  ", (unsigned)count, bench_ip_name(ip));
    print_stat(fix->total);
    printf("  ");
    print_stat(dyn->total);
    printf("  %+8.2f %% |", change_pct(fix->total.mean, dyn->total.mean));
    const thesis_row *t = thesis_find(count);
    if (t)
        printf(" %+8.2f %%\n", ip ? t->dyn_change_on : t->dyn_change_off);
    else
        printf(" %10s\n", "-");
}

static void table2_at(const bench_set *s, uint32_t threads)
{
    const bench_options *o = s->opt;
    char at[32];
    printf("\nTable 2. Storage%s: total ms per run, mean ± sd of %u\n",
           at_threads(s, threads, at, sizeof at), (unsigned)o->repeat);
    printf("%9s  %-3s  %19s  %19s  %10s | %10s\n", "particles", "IP", "fixed (baseline)",
           "dynamic", "change", "thesis");
    for (uint32_t i = 0; i < o->count_n; i++)
        for (uint32_t j = 0; j < o->ip_n; j++) table2_row(s, o->counts[i], o->ip_on[j], threads);
    printf("fixed: capacity = --fixed-limit %u, reserved up front; dynamic: starts at %u "
           "entities and doubles while spawning\n",
           (unsigned)o->fixed_limit, (unsigned)ECS_DEFAULT_CAPACITY);
}

void bench_print_table2(const bench_set *s)
{
    const bench_options *o = s->opt;
    if (o->storage_n < 2) {
        printf("\nTable 2 (storage) needs --storage fixed,dynamic: skipped.\n");
        return;
    }
    for (uint32_t t = 0; t < o->thread_n; t++) table2_at(s, o->threads[t]);
}

/* ---- per-system breakdown -------------------------------------------------- */

static int system_width(const bench_set *s, uint32_t k)
{
    int n = (int)strlen(s->systems[k]);
    return n < 7 ? 7 : n;
}

static void breakdown_head(const bench_set *s)
{
    printf("%9s  %-3s  %-7s", "particles", "IP", "storage");
    if (s->opt->thread_n > 1) printf("  %7s", "threads");
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT; k++)
        printf("  %*s", system_width(s, k), s->systems[k]);
    printf("  %6s  %10s  %8s  %8s  %s\n", "frames", "contacts/f", "p99 ms", "peak MiB",
           "final hash");
}

static void breakdown_row(const bench_set *s, uint32_t c)
{
    const bench_config *k = &s->cfgs[c];
    const bench_summary *m = &s->sums[c];
    printf("%9u  %-3s  %-7s", (unsigned)bench_world_of(s->opt, k->count, k->threads).particles,
           bench_ip_name(k->ip_on), bench_storage_name(k->storage));
    if (s->opt->thread_n > 1) printf("  %7u", (unsigned)k->threads);
    for (uint32_t i = 0; i < SIM_SYSTEM_COUNT; i++)
        printf("  %*.3f", system_width(s, i), m->system[i].mean);
    printf("  %6.0f  %10.0f  %8.2f  %8.1f  %016llx\n", m->frames, m->contacts.mean,
           m->step_p99.mean, m->rss.mean, (unsigned long long)bench_set_run(s, 0, c)->hash);
}

void bench_print_breakdown(const bench_set *s)
{
    printf("\nPer system: mean ms per frame (first subtask start to finish; the two chains "
           "run concurrently, so systems overlap)\n");
    breakdown_head(s);
    for (uint32_t c = 0; c < s->cfg_n; c++) breakdown_row(s, c);
    printf("p99 ms: 99th percentile of one sim_step; peak MiB: peak resident memory of "
           "the run; both means over repeats\n");
}
