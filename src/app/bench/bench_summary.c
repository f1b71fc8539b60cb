/* bench_summary.c - mean, sd and median over the repeats of each configuration. */
#include "bench_summary.h"
#include "bench_stats.h"

#include <stddef.h>

/* Picks one figure out of a run. */
typedef double (*field_fn)(const bench_result *r, uint32_t arg);

static double f_total(const bench_result *r, uint32_t a) { (void)a; return r->total_ms; }
static double f_spawn(const bench_result *r, uint32_t a) { (void)a; return r->spawn_ms; }
static double f_step(const bench_result *r, uint32_t a) { (void)a; return r->step_mean_ms; }
static double f_p99(const bench_result *r, uint32_t a) { (void)a; return r->step_p99_ms; }
static double f_contacts(const bench_result *r, uint32_t a)
{
    (void)a;
    return r->contacts_per_frame;
}
static double f_rss(const bench_result *r, uint32_t a) { (void)a; return r->peak_rss_mib; }
static double f_frames(const bench_result *r, uint32_t a) { (void)a; return (double)r->frames; }
static double f_available(const bench_result *r, uint32_t a) { (void)a; return r->available; }
static double f_achieved(const bench_result *r, uint32_t a) { (void)a; return r->achieved; }
static double f_busy(const bench_result *r, uint32_t a) { (void)a; return r->busy; }
static double f_system(const bench_result *r, uint32_t k) { return r->system_ms[k]; }

static bench_stat stat_of(const bench_set *s, uint32_t cfg, field_fn f, uint32_t arg)
{
    double v[BENCH_MAX_REPEAT];
    uint32_t n = s->opt->repeat;
    for (uint32_t r = 0; r < n; r++) v[r] = f(bench_set_run(s, r, cfg), arg);
    double mean = bench_mean(v, n), sd = bench_sd(v, n);
    return (bench_stat){mean, sd, bench_percentile(v, n, 50.0)}; /* sorts v: last */
}

static void summarize_one(const bench_set *s, uint32_t c, bench_summary *out)
{
    out->total = stat_of(s, c, f_total, 0);
    out->spawn = stat_of(s, c, f_spawn, 0);
    out->step_mean = stat_of(s, c, f_step, 0);
    out->step_p99 = stat_of(s, c, f_p99, 0);
    out->contacts = stat_of(s, c, f_contacts, 0);
    out->rss = stat_of(s, c, f_rss, 0);
    out->frames = stat_of(s, c, f_frames, 0).mean;
    out->available = stat_of(s, c, f_available, 0);
    out->achieved = stat_of(s, c, f_achieved, 0);
    out->busy = stat_of(s, c, f_busy, 0);
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT; k++) out->system[k] = stat_of(s, c, f_system, k);
}

void bench_summarize(bench_set *s)
{
    for (uint32_t c = 0; c < s->cfg_n; c++) summarize_one(s, c, &s->sums[c]);
}
