/* bench_report.c - what the bench prints on stdout: the header, the
 * thesis's Tables 1 and 2 with its published figures beside ours, the
 * per-system breakdown, the scaling tables and the determinism check. */
#include "bench_internal.h"

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

static const bench_summary *summary(const bench_set *s, const bench_config *k)
{
    int c = bench_set_find(s, k);
    return c < 0 ? NULL : &s->sums[c];
}

/* What a table compares: IP off against on, fixed storage against
 * dynamic, the soa layout against thesis. */
typedef enum dimension { BY_IP, BY_STORAGE, BY_LAYOUT } dimension;

/* Whether k holds the baseline value of d. */
static bool is_base(const bench_config *k, dimension d)
{
    return d == BY_IP ? !k->ip_on : d == BY_STORAGE ? k->storage == ECS_STORAGE_FIXED
                                                   : k->layout == SIM_LAYOUT_SOA;
}

/* k with the compared value of d: the baseline's or the other. */
static const bench_summary *side(const bench_set *s, bench_config k, dimension d, bool other)
{
    if (d == BY_IP) k.ip_on = other;
    if (d == BY_STORAGE) k.storage = other ? ECS_STORAGE_DYNAMIC : ECS_STORAGE_FIXED;
    if (d == BY_LAYOUT) k.layout = other ? SIM_LAYOUT_THESIS : SIM_LAYOUT_SOA;
    return summary(s, &k);
}

typedef void (*row_fn)(const bench_set *s, const bench_config *k);

/* row for each configuration at threads holding d's baseline value, in
 * the options' order. */
static void each_row(const bench_set *s, uint32_t threads, dimension d, row_fn row)
{
    for (uint32_t c = 0; c < s->cfg_n; c++)
        if (s->cfgs[c].threads == threads && is_base(&s->cfgs[c], d)) row(s, &s->cfgs[c]);
}

/* Whether system k ran (--systems). */
static bool ran(const bench_set *s, uint32_t k) { return s->opt->system_on[k]; }

/* " at N threads" where several thread counts ran, else "". */
static const char *at_threads(const bench_set *s, uint32_t threads, char *buf, size_t size)
{
    buf[0] = '\0';
    if (s->opt->sim.thread_n > 1)
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
    if (!bench_probe_available()) {
        printf("cpu speed: %s\n", BENCH_PROBE_ABSENT);
        return;
    }
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
    for (uint32_t t = 0; t < o->sim.thread_n; t++) {
        size_t used = strlen(threads);
        snprintf(threads + used, sizeof threads - used, "%s%u", t ? "," : "",
                 (unsigned)o->sim.threads[t]);
    }
    printf("machine: %s, %ld online CPUs | threads %s | repeats %u | seed %u | frames: %s\n"
           "collision kernel: %s | loops: %s | world %ux%u%s\n",
           s->machine.cpu, s->machine.online, threads, (unsigned)o->repeat,
           (unsigned)o->sim.seed, frames, sim_kernel_name(sim_kernel_resolve(o->sim.kernel)),
           sim_kernel_name(sim_kernel_resolve(o->sim.loops)),
           o->sim.world_w ? (unsigned)o->sim.world_w : (unsigned)d.world_w,
           o->sim.world_w ? (unsigned)o->sim.world_h : (unsigned)d.world_h,
           o->weak ? " at the smallest thread count (weak scaling: the particles and the "
                     "world's area grow with the threads)"
                   : "");
    char systems[160];
    bench_systems_name(systems, sizeof systems, o);
    printf("systems: %s%s\n", systems,
           strcmp(systems, "all") ? " (the others disabled from the first frame: --systems)" : "");
    print_cpu_speeds(&s->machine);
    print_machine_warning(&s->machine);
    if (!bench_set_rss_per_run(s))
        printf("note: no peak per run here (Linux's /proc/self/clear_refs and VmHWM): peak "
               "RSS is the peak of the whole process so far\n");
}

/* ---- Table 1: inner parallelism ------------------------------------------ */

static void table1_row(const bench_set *s, const bench_config *k)
{
    const bench_summary *off = side(s, *k, BY_IP, false), *on = side(s, *k, BY_IP, true);
    printf("%9u  %-7s  %-6s  ", (unsigned)k->count, bench_storage_name(k->storage),
           sim_layout_name(k->layout));
    print_stat(off->total);
    printf("  ");
    print_stat(on->total);
    printf("  %+8.2f %%  %6.2fx |", change_pct(off->total.mean, on->total.mean),
           on->total.mean > 0.0 ? off->total.mean / on->total.mean : 0.0);
    const thesis_row *t = thesis_find(k->count);
    if (t)
        printf(" %8.0f  %8.0f  %+8.2f %% | %9.2fx\n", t->ip_off_ms, t->ip_on_ms, t->ip_change,
               on->total.mean > 0.0 ? t->ip_on_ms / on->total.mean : 0.0);
    else
        printf(" %8s  %8s  %10s | %10s\n", "-", "-", "-", "-");
}

/* The medians of IP off and on, with the timeline's achieved parallelism
 * and busy share: unlike the wall clock, these hold on a shared machine. */
static void table1_median_row(const bench_set *s, const bench_config *k)
{
    const bench_summary *off = side(s, *k, BY_IP, false), *on = side(s, *k, BY_IP, true);
    printf("%9u  %-7s  %-6s  IP off %9.1f  IP on %9.1f  speedup %5.2fx | achieved off %5.2f "
           "on %5.2f | busy off %3.0f %% on %3.0f %%\n",
           (unsigned)k->count, bench_storage_name(k->storage), sim_layout_name(k->layout),
           off->total.median, on->total.median,
           on->total.median > 0.0 ? off->total.median / on->total.median : 0.0,
           off->achieved.median, on->achieved.median, off->busy.median * 100.0,
           on->busy.median * 100.0);
}

static void table1_at(const bench_set *s, uint32_t threads)
{
    const bench_options *o = s->opt;
    char at[32];
    printf("\nTable 1. Inner parallelism (IP)%s: total ms per run, mean ± sd of %u "
           "(create with spawning + every frame)\n",
           at_threads(s, threads, at, sizeof at), (unsigned)o->repeat);
    printf("%9s  %-7s  %-6s  %19s  %19s  %10s  %7s | %8s  %8s  %10s | %10s\n", "particles",
           "storage", "layout", "IP off (baseline)", "IP on", "change", "speedup", "thesis",
           "thesis", "thesis", "ours vs");
    printf("%9s  %-7s  %-6s  %19s  %19s  %10s  %7s | %8s  %8s  %10s | %10s\n", "", "", "", "",
           "", "", "", "IP off", "IP on", "change", "thesis on");
    each_row(s, threads, BY_IP, table1_row);
    printf("thesis: 8 threads, Intel i7-2700K, g++ 6.1 -Ofast, mean of 3; \"ours vs thesis on\" "
           "= thesis IP-on ms / our IP-on ms\n");
    /* Medians too: on a shared machine one slow repeat moves a mean, not a median. */
    printf("medians of %u (achieved = work / wall of the system phase; busy = the workers' "
           "mean share of it in subtasks):\n", (unsigned)o->repeat);
    each_row(s, threads, BY_IP, table1_median_row);
}

/* ---- Tables 2 and 3: storage and layout ---------------------------------- */

/* The baseline's total and the other's, mean ± sd, and the change. */
static void print_pair(const bench_summary *base, const bench_summary *other)
{
    print_stat(base->total);
    printf("  ");
    print_stat(other->total);
    printf("  %+8.2f %% |", change_pct(base->total.mean, other->total.mean));
}

static void table2_row(const bench_set *s, const bench_config *k)
{
    const bench_summary *fix = side(s, *k, BY_STORAGE, false);
    const bench_summary *dyn = side(s, *k, BY_STORAGE, true);
    printf("%9u  %-3s  %-6s  ", (unsigned)k->count, bench_ip_name(k->ip_on),
           sim_layout_name(k->layout));
    print_pair(fix, dyn);
    const thesis_row *t = thesis_find(k->count);
    if (t)
        printf(" %+8.2f %%\n", k->ip_on ? t->dyn_change_on : t->dyn_change_off);
    else
        printf(" %10s\n", "-");
}

static void table2_at(const bench_set *s, uint32_t threads)
{
    const bench_options *o = s->opt;
    char at[32];
    printf("\nTable 2. Storage%s: total ms per run, mean ± sd of %u\n",
           at_threads(s, threads, at, sizeof at), (unsigned)o->repeat);
    printf("%9s  %-3s  %-6s  %19s  %19s  %10s | %10s\n", "particles", "IP", "layout",
           "fixed (baseline)", "dynamic", "change", "thesis");
    each_row(s, threads, BY_STORAGE, table2_row);
    printf("fixed: capacity = --fixed-limit %u, reserved up front; dynamic: starts at %u "
           "entities and doubles while spawning\n",
           (unsigned)o->sim.fixed_limit, (unsigned)ECS_DEFAULT_CAPACITY);
}

static void table3_row(const bench_set *s, const bench_config *k)
{
    const bench_summary *soa = side(s, *k, BY_LAYOUT, false);
    const bench_summary *thesis = side(s, *k, BY_LAYOUT, true);
    printf("%9u  %-3s  %-7s  ", (unsigned)k->count, bench_ip_name(k->ip_on),
           bench_storage_name(k->storage));
    print_pair(soa, thesis);
    printf(" %9.1f  %9.1f  %+8.2f %%\n", soa->total.median, thesis->total.median,
           change_pct(soa->total.median, thesis->total.median));
}

static void table3_at(const bench_set *s, uint32_t threads)
{
    const bench_options *o = s->opt;
    char at[32];
    printf("\nTable 3. Layout%s: total ms per run, mean ± sd of %u, and the medians\n",
           at_threads(s, threads, at, sizeof at), (unsigned)o->repeat);
    printf("%9s  %-3s  %-7s  %19s  %19s  %10s | %9s  %9s  %10s\n", "particles", "IP", "storage",
           "soa (baseline)", "thesis", "change", "soa med", "thesis med", "change");
    each_row(s, threads, BY_LAYOUT, table3_row);
    printf("soa: a column per component; thesis: circle and color interleaved in one group, "
           "as the thesis stores them\n");
}

typedef void (*table_fn)(const bench_set *s, uint32_t threads);

/* One table per thread count, or where fewer than two values of what it
 * compares ran, the line saying what it needs. */
static void table(const bench_set *s, uint32_t values, const char *needs, table_fn at)
{
    const bench_options *o = s->opt;
    if (values < 2) {
        printf("\n%s: skipped.\n", needs);
        return;
    }
    for (uint32_t t = 0; t < o->sim.thread_n; t++) at(s, o->sim.threads[t]);
}

void bench_print_tables(const bench_set *s)
{
    const app_sim_options *m = &s->opt->sim;
    table(s, m->ip_n, "Table 1 (inner parallelism) needs --inner-parallelism on,off", table1_at);
    table(s, m->storage_n, "Table 2 (storage) needs --storage fixed,dynamic", table2_at);
    table(s, m->layout_n, "Table 3 (layout) needs --layout soa,thesis", table3_at);
}

/* ---- per-system breakdown ------------------------------------------------ */

static int system_width(const bench_set *s, uint32_t k)
{
    int n = (int)strlen(s->systems[k]);
    return n < 7 ? 7 : n;
}

static void breakdown_head(const bench_set *s)
{
    printf("%9s  %-3s  %-7s  %-6s", "particles", "IP", "storage", "layout");
    if (s->opt->sim.thread_n > 1) printf("  %7s", "threads");
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT; k++)
        if (ran(s, k)) printf("  %*s", system_width(s, k), s->systems[k]);
    printf("  %6s  %10s  %8s  %8s  %s\n", "frames", "contacts/f", "p99 ms", "peak MiB",
           "final hash");
}

static void breakdown_row(const bench_set *s, uint32_t c)
{
    const bench_config *k = &s->cfgs[c];
    const bench_summary *m = &s->sums[c];
    printf("%9u  %-3s  %-7s  %-6s",
           (unsigned)bench_world_of(s->opt, k->count, k->threads).particles,
           bench_ip_name(k->ip_on), bench_storage_name(k->storage), sim_layout_name(k->layout));
    if (s->opt->sim.thread_n > 1) printf("  %7u", (unsigned)k->threads);
    for (uint32_t i = 0; i < SIM_SYSTEM_COUNT; i++)
        if (ran(s, i)) printf("  %*.3f", system_width(s, i), m->system[i].mean);
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

/* ---- scaling ------------------------------------------------------------- */

/* The configuration of cfg's group at the base (smallest) thread count. */
static const bench_summary *base_of(const bench_set *s, const bench_config *k)
{
    bench_config base = *k;
    base.threads = bench_base_threads(s->opt);
    int b = bench_set_find(s, &base);
    return b < 0 ? NULL : &s->sums[b];
}

static double ratio(double a, double b) { return b > 0.0 ? a / b : 0.0; }

bench_scale_point bench_scale_point_of(const bench_set *s, uint32_t cfg)
{
    const bench_config *k = &s->cfgs[cfg];
    const bench_summary *m = &s->sums[cfg], *b = base_of(s, k);
    double threads = (double)k->threads / (double)bench_base_threads(s->opt);
    bench_scale_point p = {k->threads, m->total.median, 0.0, 0.0, m->available.median,
                           m->achieved.median, m->busy.median};
    double t_base = b ? b->total.median : 0.0;
    if (s->opt->weak) {
        p.efficiency = ratio(t_base, p.total_ms);
        p.speedup = p.efficiency * threads;
    } else {
        p.speedup = ratio(t_base, p.total_ms);
        p.efficiency = p.speedup / threads;
    }
    return p;
}

static void group_title(const bench_set *s, const bench_config *k, const char *what)
{
    const bench_options *o = s->opt;
    uint32_t base = bench_base_threads(o);
    printf("\n%s: %u particles%s, IP %s, %s storage, %s layout (%s; medians of %u; speedup "
           "over %u thread%s)\n",
           what, (unsigned)k->count, o->weak ? " per base thread count" : "",
           bench_ip_name(k->ip_on), bench_storage_name(k->storage), sim_layout_name(k->layout),
           o->weak ? "weak scaling: particles and world grow with the threads"
                   : "strong scaling: the same world",
           (unsigned)o->repeat, (unsigned)base, base == 1 ? "" : "s, the smallest count given");
}

static void print_points(const bench_set *s, uint32_t first)
{
    const bench_options *o = s->opt;
    printf("%7s  %9s  %12s  %8s  %10s  %9s  %8s  %6s\n", "threads", "particles", "total ms",
           "speedup", "efficiency", "available", "achieved", "busy");
    for (uint32_t t = 0; t < o->sim.thread_n; t++) {
        uint32_t c = first + t;
        bench_scale_point p = bench_scale_point_of(s, c);
        bench_world w = bench_world_of(o, s->cfgs[c].count, p.threads);
        printf("%7u  %9u  %12.1f  %7.2fx  %10.2f  %9.2f  %8.2f  %4.0f %%\n", (unsigned)p.threads,
               (unsigned)w.particles, p.total_ms, p.speedup, p.efficiency, p.available,
               p.achieved, p.busy * 100.0);
    }
}

static int name_width(const bench_set *s)
{
    int most = 6;
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT; k++) {
        int n = (int)strlen(s->systems[k]);
        if (n > most) most = n;
    }
    return most;
}

/* Each system's median ms per frame at each thread count and its speedup
 * over the base; then the system that gained least at the most threads. */
static void print_systems(const bench_set *s, uint32_t first)
{
    const bench_options *o = s->opt;
    const bench_summary *b = base_of(s, &s->cfgs[first]);
    int wn = name_width(s);
    printf("per system, ms per frame (median) and %s:\n%-*s",
           o->weak ? "T(base) / T(threads), its weak-scaling efficiency" : "speedup", wn, "system");
    for (uint32_t t = 0; t < o->sim.thread_n; t++) {
        char label[24];
        snprintf(label, sizeof label, "%u thr", (unsigned)s->cfgs[first + t].threads);
        printf("  %17s", label);
    }
    putchar('\n');
    uint32_t most = first; /* the configuration with the most threads */
    for (uint32_t t = 1; t < o->sim.thread_n; t++)
        if (s->cfgs[first + t].threads > s->cfgs[most].threads) most = first + t;
    int least = -1;
    double least_x = 0.0;
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT; k++) {
        if (!ran(s, k)) continue;
        printf("%-*s", wn, s->systems[k]);
        double base_ms = b ? b->system[k].median : 0.0;
        for (uint32_t t = 0; t < o->sim.thread_n; t++) {
            double ms = s->sums[first + t].system[k].median;
            printf("  %9.3f %6.2fx", ms, ratio(base_ms, ms));
        }
        putchar('\n');
        double x = ratio(base_ms, s->sums[most].system[k].median);
        if (x > 0.0 && (least < 0 || x < least_x)) {
            least = (int)k;
            least_x = x;
        }
    }
    if (least >= 0 && !o->weak)
        printf("least sped up at %u threads: %s (%.2fx): the most serial part\n",
               (unsigned)s->cfgs[most].threads, s->systems[least], least_x);
}

void bench_print_scaling(const bench_set *s)
{
    const bench_options *o = s->opt;
    if (o->sim.thread_n < 2) return;
    /* The thread counts of one group are consecutive configurations. */
    for (uint32_t first = 0; first < s->cfg_n; first += o->sim.thread_n) {
        group_title(s, &s->cfgs[first], o->weak ? "Weak scaling" : "Scaling");
        print_points(s, first);
        print_systems(s, first);
    }
    printf("\nspeedup = T(base) / T(threads)%s; efficiency = %s; available = work / span, "
           "what the system DAG offers; achieved = work / wall, what the run got (at most the "
           "threads); busy = each worker's share of the wall time in subtasks, mean over the "
           "workers. work, span and wall: the timeline's, summed over every frame's system "
           "phase\n",
           o->weak ? " x threads / base (scaled speedup)" : "",
           o->weak ? "T(base) / T(threads) (1.00: the time stays flat as the world grows)"
                   : "speedup x base / threads");
}

/* ---- determinism --------------------------------------------------------- */

static bool same_outcome(const bench_result *a, const bench_result *b)
{
    return a->frames == b->frames && a->hash == b->hash && a->has_check == b->has_check &&
           (!a->has_check || a->check_hash == b->check_hash) && a->has_half == b->has_half &&
           (!a->has_half || (a->half_frame == b->half_frame && a->half_hash == b->half_hash));
}

static void outcome_text(char *buf, size_t size, const bench_set *s, uint32_t r, uint32_t c)
{
    const bench_result *x = bench_set_run(s, r, c);
    char name[96];
    bench_config_name(name, sizeof name, &s->cfgs[c]);
    int n = snprintf(buf, size, "%s, repeat %u: ", name, (unsigned)r + 1u);
    if (x->has_check && n > 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, "frame %u %016llx, ", BENCH_CHECK_FRAME,
                      (unsigned long long)x->check_hash);
    if (x->has_half && n > 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, "half dead at frame %llu %016llx, ",
                      (unsigned long long)x->half_frame, (unsigned long long)x->half_hash);
    if (n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, "%llu frames, final %016llx",
                 (unsigned long long)x->frames, (unsigned long long)x->hash);
}

static void report_mismatch(const bench_set *s, uint32_t count, uint32_t r0, uint32_t c0,
                            uint32_t r1, uint32_t c1, bool print)
{
    char a[256], b[256];
    outcome_text(a, sizeof a, s, r0, c0);
    outcome_text(b, sizeof b, s, r1, c1);
    bench_error("determinism MISMATCH at %u particles: %s vs %s", (unsigned)count, a, b);
    if (print)
        printf("determinism: *** MISMATCH *** at %u particles: %s vs %s\n", (unsigned)count, a,
               b);
}

/* Compares every run of count (and of threads, unless 0) against the
 * first one that ran. */
static bool check_count(const bench_set *s, uint32_t count, uint32_t threads, bool print)
{
    const bench_result *ref = NULL;
    uint32_t r0 = 0, c0 = 0;
    for (uint32_t r = 0; r < s->opt->repeat; r++) {
        for (uint32_t c = 0; c < s->cfg_n; c++) {
            if (s->cfgs[c].count != count || (threads && s->cfgs[c].threads != threads)) continue;
            if (!ref) {
                ref = bench_set_run(s, r, c);
                r0 = r;
                c0 = c;
            } else if (!same_outcome(ref, bench_set_run(s, r, c))) {
                report_mismatch(s, count, r0, c0, r, c, print);
                return false;
            }
        }
    }
    return true;
}

bool bench_check_determinism(const bench_set *s, bool print)
{
    const bench_options *o = s->opt;
    bool ok = true;
    /* --weak: each thread count simulates its own world. */
    for (uint32_t i = 0; i < o->sim.count_n; i++)
        for (uint32_t t = 0; t < (o->weak ? o->sim.thread_n : 1u); t++)
            ok = check_count(s, o->sim.counts[i], o->weak ? o->sim.threads[t] : 0u, print) && ok;
    if (!ok || !print) return ok;
    printf("\ndeterminism: OK: for each count%s, its %u run(s) (every IP, storage, layout, "
           "%srepeat) agreed on the state hash with particles alive ",
           o->weak ? " and thread count (weak scaling: one world each)" : "",
           (unsigned)(o->sim.ip_n * o->sim.storage_n * o->sim.layout_n * o->repeat *
                      (o->weak ? 1u : o->sim.thread_n)),
           o->weak ? "" : "thread count and ");
    const bench_result *x = &s->runs[0];
    if (x->has_check && x->has_half)
        printf("after frame %u and when half had died (frame %llu for %u)", BENCH_CHECK_FRAME,
               (unsigned long long)x->half_frame, (unsigned)s->cfgs[0].count);
    else if (x->has_check || x->has_half)
        printf("after frame %llu%s", x->has_check ? (unsigned long long)BENCH_CHECK_FRAME
                                                  : (unsigned long long)x->half_frame,
               x->has_check ? "" : ", when half had died");
    else
        printf("after the last frame");
    printf(", and on the frame count\n");
    return ok;
}
