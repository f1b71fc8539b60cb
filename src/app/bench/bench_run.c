/* bench_run.c - one run: create the world, step it to the end, measure;
 * the progress line on stderr and the run's part of a --trace file. */
#include "bench_internal.h"
#include "bench_machine.h"
#include "app_clock.h"
#include "hashes.h"
#include "mem_limit.h"
#include "stop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- progress line ------------------------------------------------------- */

#define INTERVAL_MS 100.0

static void bench_progress_init(bench_progress *p, bool on)
{
    *p = (bench_progress){.on = on, .last_ms = -1e300};
}

static bool bench_progress_due(const bench_progress *p, double now_ms)
{
    return p->on && now_ms - p->last_ms >= INTERVAL_MS;
}

static void bench_progress_show(bench_progress *p, const char *text, double now_ms)
{
    if (!p->on) return;
    int n = fprintf(stderr, "\r%s", text) - 1;
    if (n < p->width) fprintf(stderr, "%*s", p->width - n, "");
    fflush(stderr);
    p->width = n;
    p->last_ms = now_ms;
}

static void bench_progress_clear(bench_progress *p)
{
    if (!p->on || p->width == 0) return;
    fprintf(stderr, "\r%*s\r", p->width, "");
    fflush(stderr);
    p->width = 0;
}

/* ---- trace --------------------------------------------------------------- */

static void bench_trace_run_begin(app_trace *t, const bench_options *o,
                                  const bench_config *cfg, uint32_t repeat)
{
    if (!t || repeat != 0) return;
    char label[160], name[96];
    bench_world b = bench_world_of(o, cfg->count, cfg->threads);
    bench_config_name(name, sizeof name, cfg);
    snprintf(label, sizeof label, "%u particles, %s", (unsigned)b.particles, name);
    /* Out of memory is kept in the trace and reported when it is written. */
    (void)app_trace_run_begin(t, label);
}

static void bench_trace_run_end(app_trace *t, bench_progress *p, bool ok)
{
    if (!t) return;
    bool note = ok && app_trace_run_short(t);
    if (note) bench_progress_clear(p);
    app_trace_run_end(t, note);
}

/* ---- runs ---------------------------------------------------------------- */

/* What one run accumulates while its frames go by. */
typedef struct run_state {
    sim_world *w;
    const bench_config *cfg;
    uint32_t index, repeat; /* 0-based */
    uint32_t particles;     /* at the start: the count, or with --weak its scaled count */
    double start_ms;
    uint64_t contacts;
    double system_ms[SIM_SYSTEM_COUNT]; /* summed over frames */
    double work_ms, span_ms, wall_ms;   /* the timeline's profiles, summed */
    double busy_ms[BENCH_MAX_THREADS];  /* each worker's busy time, summed */
    bool hashed;                        /* hash is sim_hash of the state now */
    uint64_t hash;
} run_state;

/* sim_hash of the state now, computed once a frame: --hashes's line, the
 * check frame, the half-dead frame and the run's last state share it. */
static uint64_t state_hash(run_state *s)
{
    if (!s->hashed) s->hash = sim_hash(s->w);
    s->hashed = true;
    return s->hash;
}

static double now_ms(void) { return (double)app_now_ns() * 1e-6; }

static sim_config make_config(const bench_options *o, const bench_config *c, bool empty)
{
    sim_config sc = sim_default_config();
    bench_world b = bench_world_of(o, c->count, c->threads);
    sc.params.seed = o->sim.seed;
    sc.particles = empty ? 0u : b.particles;
    sc.storage = c->storage;
    sc.layout = c->layout;
    sc.capacity = c->storage == ECS_STORAGE_FIXED ? o->sim.fixed_limit : 0u;
    sc.workers = c->threads;
    sc.inner_parallelism_off = !c->ip_on;
    sc.kernel = o->sim.kernel;
    sc.loops = o->sim.loops;
    if (o->sim.world_w || o->weak) {
        sc.params.world_w = (float)b.w;
        sc.params.world_h = (float)b.h;
    }
    return sc;
}

int bench_run_check_memory(const bench_options *o, const bench_config *cfgs, uint32_t n,
                           const app_state_file *load)
{
    for (uint32_t c = 0; c < n; c++) {
        sim_config sc = make_config(o, &cfgs[c], false);
        if (load) app_state_size(load, &sc);
        if (!app_mem_check(BENCH_PROG, &sc, load ? "--load-state" : NULL, o->load_state)) return 2;
    }
    return 0;
}

void bench_runner_init(bench_runner *r, const bench_options *o, uint32_t run_n)
{
    *r = (bench_runner){.opt = o, .run_n = run_n};
    bench_progress_init(&r->progress, !o->quiet && isatty(fileno(stderr)));
}

void bench_runner_free(bench_runner *r)
{
    bench_progress_clear(&r->progress);
    free(r->step_ms);
    r->step_ms = NULL;
    r->step_cap = 0;
}

static bool reserve_steps(bench_runner *r, size_t n)
{
    if (n <= r->step_cap) return true;
    size_t cap = r->step_cap ? r->step_cap * 2 : 1024;
    double *p = realloc(r->step_ms, cap * sizeof *p);
    if (!p) return false;
    r->step_ms = p;
    r->step_cap = cap;
    return true;
}

static void show_progress(bench_runner *r, const run_state *s, uint64_t frame, double now)
{
    if (!bench_progress_due(&r->progress, now)) return;
    char text[200], name[96];
    bench_config_name(name, sizeof name, s->cfg);
    snprintf(text, sizeof text,
             "run %u/%u: %u particles, %s, repeat %u/%u: frame %llu, alive %u, %.1f s",
             (unsigned)s->index + 1u, (unsigned)r->run_n, (unsigned)s->particles, name,
             (unsigned)s->repeat + 1u, (unsigned)r->opt->repeat, (unsigned long long)frame,
             (unsigned)sim_alive(s->w), (now - s->start_ms) / 1e3);
    bench_progress_show(&r->progress, text, now);
}

/* The last step's timeline profile, added to the run's sums. */
static void add_profile(run_state *s, const ecs_context *ctx)
{
    ecs_timeline tl;
    if (!ecs_timeline_get(ctx, &tl)) return;
    double busy[BENCH_MAX_THREADS];
    uint32_t n = tl.workers < BENCH_MAX_THREADS ? tl.workers : BENCH_MAX_THREADS;
    ecs_profile p = ecs_timeline_profile(ctx, &tl, busy, n);
    s->work_ms += p.work_ms;
    s->span_ms += p.span_ms;
    s->wall_ms += p.wall_ms;
    for (uint32_t w = 0; w < n; w++) s->busy_ms[w] += busy[w] * p.wall_ms;
}

static void after_frame(run_state *s, uint64_t frame, bench_result *out)
{
    ecs_context *ctx = sim_ecs(s->w);
    add_profile(s, ctx);
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT; k++)
        s->system_ms[k] += ecs_system_stats_get(ctx, k).wall_ms;
    s->contacts += sim_contacts(s->w);
    if (frame == BENCH_CHECK_FRAME) {
        out->check_hash = state_hash(s);
        out->has_check = true;
    }
    if (!out->has_half && 2u * (uint64_t)sim_alive(s->w) <= s->particles) {
        out->half_frame = frame;
        out->half_hash = state_hash(s);
        out->has_half = true;
    }
}

/* Steps until every particle died, --frames, or a signal asked to stop
 * (checked between frames); only sim_step is timed. */
static ecs_status run_frames(bench_runner *r, run_state *s, bench_result *out)
{
    uint64_t frame = 0;
    while (sim_alive(s->w) > 0 && (r->opt->frames == 0 || frame < r->opt->frames) &&
           !app_stop_signal()) {
        if (!reserve_steps(r, frame + 1)) return ECS_ERR_NOMEM;
        app_trace_step_start(r->trace);
        s->hashed = false;
        double t0 = now_ms();
        ecs_status st = app_hashes_step(r->hashes, s->w);
        double t1 = now_ms();
        app_trace_step_end(r->trace, sim_ecs(s->w));
        out->frames = frame;
        if (st != ECS_OK) return st;
        r->step_ms[frame++] = t1 - t0;
        s->hashed = app_hashes_frame(r->hashes, s->w, &s->hash);
        after_frame(s, frame, out);
        show_progress(r, s, frame, t1);
    }
    out->frames = frame;
    return ECS_OK;
}

static void finish(bench_runner *r, run_state *s, bench_result *out)
{
    size_t n = (size_t)out->frames;
    double per_frame = n ? 1.0 / (double)n : 0.0;
    out->step_mean_ms = bench_mean(r->step_ms, n);
    out->total_ms = out->spawn_ms + out->step_mean_ms * (double)n;
    out->step_p99_ms = bench_percentile(r->step_ms, n, 99.0);
    out->contacts_per_frame = (double)s->contacts * per_frame;
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT; k++) out->system_ms[k] = s->system_ms[k] * per_frame;
    out->work_ms = s->work_ms;
    out->span_ms = s->span_ms;
    out->wall_ms = s->wall_ms;
    out->available = s->span_ms > 0.0 ? s->work_ms / s->span_ms : 0.0;
    out->achieved = s->wall_ms > 0.0 ? s->work_ms / s->wall_ms : 0.0;
    double busy = 0.0;
    for (uint32_t w = 0; w < s->cfg->threads; w++) busy += s->busy_ms[w];
    out->busy = s->wall_ms > 0.0 ? busy / (s->wall_ms * (double)s->cfg->threads) : 0.0;
    out->hash = state_hash(s);
}

static void copy_names(sim_world *w, char names[SIM_SYSTEM_COUNT][BENCH_NAME_MAX])
{
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT; k++) {
        const char *name = ecs_system_stats_get(sim_ecs(w), k).name;
        snprintf(names[k], BENCH_NAME_MAX, "%s", name ? name : "?");
    }
}

/* --systems: every system not listed disabled before the first frame. */
static ecs_status disable_systems(sim_world *w, const bench_options *o)
{
    ecs_status st = ECS_OK;
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT && st == ECS_OK; k++)
        if (!o->system_on[k]) st = sim_enable_system(w, k, false);
    return st;
}

static void report_failure(bench_runner *r, const run_state *s, const char *what, ecs_status st,
                           const char *msg)
{
    char name[96];
    bench_config_name(name, sizeof name, s->cfg);
    bench_progress_clear(&r->progress);
    bench_error("%s failed (%u particles, %s, repeat %u): %s%s%s", what, (unsigned)s->cfg->count,
                name, (unsigned)s->repeat + 1u, ecs_status_name(st), msg[0] ? ": " : "", msg);
}

int bench_run(bench_runner *r, uint32_t index, uint32_t repeat, const bench_config *cfg,
              bench_result *out, char names[SIM_SYSTEM_COUNT][BENCH_NAME_MAX])
{
    *out = (bench_result){.repeat = repeat + 1u};
    run_state s = {.cfg = cfg, .index = index, .repeat = repeat};
    sim_config sc = make_config(r->opt, cfg, false);
    s.particles = sc.particles;
    bool reset_ok = bench_mem_reset_peak();
    ecs_error err = {.message = ""};
    s.start_ms = now_ms();
    ecs_status st = r->load ? sim_load_state(r->load->bytes, r->load->size, &sc, &s.w, &err)
                            : sim_create(&sc, &s.w, &err);
    out->spawn_ms = now_ms() - s.start_ms;
    if (st != ECS_OK) {
        report_failure(r, &s, r->load ? "sim_load_state" : "sim_create", st, err.message);
        return 1;
    }
    if (r->load) s.particles = sim_alive(s.w);
    st = disable_systems(s.w, r->opt);
    if (st != ECS_OK) {
        report_failure(r, &s, "sim_enable_system", st, "");
        sim_destroy(s.w);
        return 1;
    }
    app_hashes_run run = {"bench", sc.particles, cfg->storage, cfg->layout};
    if (app_hashes_begin(r->hashes, s.w, &run) != 0) {
        sim_destroy(s.w);
        return 1;
    }
    bench_trace_run_begin(r->trace, r->opt, cfg, repeat);
    st = run_frames(r, &s, out);
    bench_trace_run_end(r->trace, &r->progress, st == ECS_OK && !app_stop_signal());
    int hashes_rc = st == ECS_OK && !app_stop_signal() ? app_hashes_end(r->hashes, s.w) : 0;
    if (st == ECS_OK) {
        out->peak_rss_mib = bench_mem_peak_mib(reset_ok, &out->rss_per_run);
        finish(r, &s, out);
        copy_names(s.w, names);
        if (r->save && !app_stop_signal() && app_state_write(r->save, s.w) != 0) {
            sim_destroy(s.w);
            return 1;
        }
    } else {
        report_failure(r, &s, "sim_step", st, sim_step_error(s.w));
    }
    sim_destroy(s.w);
    if (st == ECS_OK && app_stop_signal()) {
        bench_progress_clear(&r->progress);
        return app_stop_status();
    }
    return st == ECS_OK && hashes_rc == 0 ? 0 : 1;
}

int bench_run_print_dag(const bench_options *o)
{
    bench_config c = {0u, o->sim.ip_on[0], (ecs_storage)o->sim.storages[0],
                      (sim_layout)o->sim.layouts[0], o->sim.threads[0]};
    sim_config sc = make_config(o, &c, true);
    sc.capacity = 1u; /* the graph needs no particles: no entity storage to speak of */
    sc.workers = 1u;
    sim_world *w = NULL;
    ecs_error err = {.message = ""};
    ecs_status st = sim_create(&sc, &w, &err);
    if (st != ECS_OK) {
        bench_error("sim_create failed: %s: %s", ecs_status_name(st), err.message);
        return 1;
    }
    size_t n = ecs_dot(sim_ecs(w), NULL, 0);
    char *text = malloc(n + 1);
    bool ok = text != NULL;
    if (ok) {
        ecs_dot(sim_ecs(w), text, n + 1);
        fputs(text, stdout);
    } else {
        bench_error("out of memory for the DAG's %zu bytes of text", n);
    }
    free(text);
    sim_destroy(w);
    return ok ? 0 : 1;
}
