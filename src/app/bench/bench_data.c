/* bench_data.c - the configuration and result tables of one benchmark,
 * and their statistics: mean, sd and median per configuration. */
#include "bench_internal.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t bench_base_threads(const bench_options *o)
{
    uint32_t least = o->sim.threads[0];
    for (uint32_t t = 1; t < o->sim.thread_n; t++)
        if (o->sim.threads[t] < least) least = o->sim.threads[t];
    return least;
}

bench_world bench_world_of(const bench_options *o, uint32_t count, uint32_t threads)
{
    const sim_params d = sim_default_params();
    bench_world b = {count, o->sim.world_w ? o->sim.world_w : (uint32_t)d.world_w,
                     o->sim.world_w ? o->sim.world_h : (uint32_t)d.world_h};
    if (!o->weak) return b;
    double ratio = (double)threads / (double)bench_base_threads(o), side = sqrt(ratio);
    double n = floor((double)count * ratio + 0.5);
    b.particles = n > (double)UINT32_MAX ? UINT32_MAX : (uint32_t)n;
    b.w = (uint32_t)floor((double)b.w * side + 0.5);
    b.h = (uint32_t)floor((double)b.h * side + 0.5);
    return b;
}

bool bench_world_check(const bench_options *o, uint32_t count, uint32_t threads, char *why,
                       size_t size)
{
    bench_world b = bench_world_of(o, count, threads);
    sim_params p = sim_default_params();
    p.world_w = (float)b.w;
    p.world_h = (float)b.h;
    bool fixed = false;
    for (uint32_t k = 0; k < o->sim.storage_n; k++)
        fixed |= o->sim.storages[k] == ECS_STORAGE_FIXED;
    if (b.w > SIM_WORLD_SIDE_MAX || b.h > SIM_WORLD_SIDE_MAX) {
        snprintf(why, size, "the world %ux%u has a side over %u units", (unsigned)b.w,
                 (unsigned)b.h, (unsigned)SIM_WORLD_SIDE_MAX);
        return false;
    }
    if (!sim_params_check(&p, why, size)) return false;
    if (b.particles > ECS_MAX_ENTITIES || b.particles > sim_max_particles(&p)) {
        snprintf(why, size, "%u particles in %ux%u: more than the world holds (at most %u)",
                 (unsigned)b.particles, (unsigned)b.w, (unsigned)b.h,
                 (unsigned)(sim_max_particles(&p) < ECS_MAX_ENTITIES ? sim_max_particles(&p)
                                                                    : ECS_MAX_ENTITIES));
        return false;
    }
    if (fixed && b.particles > o->sim.fixed_limit) {
        snprintf(why, size, "%u particles exceed the fixed storage limit %u (--fixed-limit)",
                 (unsigned)b.particles, (unsigned)o->sim.fixed_limit);
        return false;
    }
    return true;
}

uint32_t bench_config_count(const bench_options *o)
{
    return o->sim.count_n * o->sim.ip_n * o->sim.storage_n * o->sim.layout_n * o->sim.thread_n;
}

void bench_configs_of(const bench_options *o, bench_config *out)
{
    const app_sim_options *m = &o->sim;
    uint32_t c = 0;
    for (uint32_t i = 0; i < m->count_n; i++)
        for (uint32_t j = 0; j < m->ip_n; j++)
            for (uint32_t k = 0; k < m->storage_n; k++)
                for (uint32_t l = 0; l < m->layout_n; l++)
                    for (uint32_t t = 0; t < m->thread_n; t++)
                        out[c++] = (bench_config){m->counts[i], m->ip_on[j],
                                                  (ecs_storage)m->storages[k],
                                                  (sim_layout)m->layouts[l], m->threads[t]};
}

bool bench_config_same(const bench_config *a, const bench_config *b, bool by_threads)
{
    return a->count == b->count && a->ip_on == b->ip_on && a->storage == b->storage &&
           a->layout == b->layout && (!by_threads || a->threads == b->threads);
}

void bench_config_name(char *buf, size_t size, const bench_config *c)
{
    snprintf(buf, size, "IP %s, %s, %s, %u thread%s", bench_ip_name(c->ip_on),
             bench_storage_name(c->storage), sim_layout_name(c->layout), (unsigned)c->threads,
             c->threads == 1u ? "" : "s");
}

void bench_systems_name(char *buf, size_t size, const bench_options *o)
{
    uint32_t on = 0;
    buf[0] = '\0';
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT; k++) {
        if (!o->system_on[k]) continue;
        size_t used = strlen(buf);
        snprintf(buf + used, size - used, "%s%s", on++ ? "," : "", sim_system_name(k));
    }
    if (on == SIM_SYSTEM_COUNT) snprintf(buf, size, "all");
}

bool bench_set_init(bench_set *s, const bench_options *o)
{
    *s = (bench_set){.opt = o};
    bench_machine_read(&s->machine);
    s->cfg_n = bench_config_count(o);
    s->cfgs = calloc(s->cfg_n, sizeof *s->cfgs);
    s->runs = calloc((size_t)s->cfg_n * o->repeat, sizeof *s->runs);
    s->sums = calloc(s->cfg_n, sizeof *s->sums);
    s->machine.after = calloc(o->repeat, sizeof *s->machine.after);
    if (!s->cfgs || !s->runs || !s->sums || !s->machine.after) {
        bench_set_free(s);
        return false;
    }
    bench_configs_of(o, s->cfgs);
    return true;
}

void bench_set_free(bench_set *s)
{
    free(s->cfgs);
    free(s->runs);
    free(s->sums);
    free(s->machine.after);
    s->cfgs = NULL;
    s->runs = NULL;
    s->sums = NULL;
    s->machine.after = NULL;
}

uint32_t bench_set_run_count(const bench_set *s) { return s->cfg_n * s->opt->repeat; }

const bench_result *bench_set_run(const bench_set *s, uint32_t repeat, uint32_t cfg)
{
    return &s->runs[(size_t)repeat * s->cfg_n + cfg];
}

int bench_set_find(const bench_set *s, const bench_config *k)
{
    for (uint32_t c = 0; c < s->cfg_n; c++)
        if (bench_config_same(&s->cfgs[c], k, true)) return (int)c;
    return -1;
}

bool bench_set_rss_per_run(const bench_set *s)
{
    for (uint32_t i = 0; i < bench_set_run_count(s); i++)
        if (!s->runs[i].rss_per_run) return false;
    return true;
}

const char *bench_ip_name(bool on) { return on ? "on" : "off"; }

const char *bench_storage_name(ecs_storage storage)
{
    return storage == ECS_STORAGE_FIXED ? "fixed" : "dynamic";
}

/* ---- statistics ---------------------------------------------------------- */

double bench_mean(const double *v, size_t n)
{
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) sum += v[i];
    return n ? sum / (double)n : 0.0;
}

double bench_sd(const double *v, size_t n)
{
    if (n < 2) return 0.0;
    double m = bench_mean(v, n), sq = 0.0;
    for (size_t i = 0; i < n; i++) sq += (v[i] - m) * (v[i] - m);
    return sqrt(sq / (double)(n - 1));
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

double bench_percentile(double *v, size_t n, double p)
{
    if (n == 0) return 0.0;
    qsort(v, n, sizeof *v, cmp_double);
    double rank = p / 100.0 * (double)(n - 1);
    size_t lo = (size_t)rank;
    if (lo + 1 >= n) return v[n - 1];
    double frac = rank - (double)lo;
    return v[lo] + (v[lo + 1] - v[lo]) * frac;
}

/* ---- summary ------------------------------------------------------------- */

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
