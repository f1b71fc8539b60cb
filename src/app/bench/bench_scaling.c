/* bench_scaling.c - the scaling tables: total time, speedup, efficiency
 * and the timeline's parallelism per thread count, and per system. */
#include "bench_scaling.h"

#include <stdio.h>
#include <string.h>

/* The configuration of cfg's group at the base (smallest) thread count. */
static const bench_summary *base_of(const bench_set *s, const bench_config *k)
{
    int b = bench_set_find(s, k->count, k->ip_on, k->storage, bench_base_threads(s->opt));
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
    printf("\n%s: %u particles%s, IP %s, %s storage (%s; medians of %u; speedup over %u "
           "thread%s)\n",
           what, (unsigned)k->count, o->weak ? " per base thread count" : "",
           bench_ip_name(k->ip_on), bench_storage_name(k->storage),
           o->weak ? "weak scaling: particles and world grow with the threads"
                   : "strong scaling: the same world",
           (unsigned)o->repeat, (unsigned)base, base == 1 ? "" : "s, the smallest count given");
}

static void print_points(const bench_set *s, uint32_t first)
{
    const bench_options *o = s->opt;
    printf("%7s  %9s  %12s  %8s  %10s  %9s  %8s  %6s\n", "threads", "particles", "total ms",
           "speedup", "efficiency", "available", "achieved", "busy");
    for (uint32_t t = 0; t < o->thread_n; t++) {
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
    for (uint32_t t = 0; t < o->thread_n; t++) {
        char label[24];
        snprintf(label, sizeof label, "%u thr", (unsigned)s->cfgs[first + t].threads);
        printf("  %17s", label);
    }
    putchar('\n');
    uint32_t most = first; /* the configuration with the most threads */
    for (uint32_t t = 1; t < o->thread_n; t++)
        if (s->cfgs[first + t].threads > s->cfgs[most].threads) most = first + t;
    int least = -1;
    double least_x = 0.0;
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT; k++) {
        printf("%-*s", wn, s->systems[k]);
        double base_ms = b ? b->system[k].median : 0.0;
        for (uint32_t t = 0; t < o->thread_n; t++) {
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
    if (o->thread_n < 2) return;
    /* The thread counts of one group are consecutive configurations. */
    for (uint32_t first = 0; first < s->cfg_n; first += o->thread_n) {
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
