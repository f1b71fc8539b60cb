/* window_timeline.c - the timeline panel's copy of a step, what it says
 * (wake-up delays, a busy machine) and its time axis: scale and ticks. */
#include "window_timeline.h"

#include "app_grow.h"
#include "app_steady.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool window_tl_copy(window_tl_data *d, const ecs_context *ctx, uint64_t step)
{
    ecs_timeline tl;
    d->valid = false;
    if (!ecs_timeline_get(ctx, &tl)) return false;
    if (!app_reserve((void **)&d->spans, &d->span_cap, tl.span_count, sizeof *d->spans) ||
        !app_reserve((void **)&d->sleeps, &d->sleep_cap, tl.sleep_count, sizeof *d->sleeps) ||
        !app_reserve((void **)&d->busy, &d->busy_cap, tl.workers, sizeof *d->busy) ||
        !app_reserve((void **)&d->cpu_ns, &d->cpu_cap, tl.workers, sizeof *d->cpu_ns) ||
        !app_reserve((void **)&d->names, &d->name_cap, tl.systems, sizeof *d->names))
        return false;
    if (tl.span_count) memcpy(d->spans, tl.spans, tl.span_count * sizeof *d->spans);
    if (tl.sleep_count) memcpy(d->sleeps, tl.sleeps, tl.sleep_count * sizeof *d->sleeps);
    for (uint32_t s = 0; s < tl.systems; s++) d->names[s] = ecs_system_stats_get(ctx, s).name;
    d->cpu_known = tl.cpu_ns != NULL;
    if (tl.cpu_ns && tl.workers) memcpy(d->cpu_ns, tl.cpu_ns, tl.workers * sizeof *d->cpu_ns);
    d->step = step;
    d->wall_ns = tl.wall_ns;
    d->workers = tl.workers;
    d->systems = tl.systems;
    d->span_count = tl.span_count;
    d->sleep_count = tl.sleep_count;
    d->sleeps_lost = tl.sleeps_lost;
    d->profile = ecs_timeline_profile(ctx, &tl, d->busy, tl.workers);
    d->valid = true;
    return true;
}

void window_tl_data_free(window_tl_data *d)
{
    free(d->spans);
    free(d->sleeps);
    free(d->busy);
    free(d->cpu_ns);
    free((void *)d->names);
    memset(d, 0, sizeof *d);
}

size_t window_tl_data_bytes(const window_tl_data *d)
{
    return d->span_cap * sizeof *d->spans + d->sleep_cap * sizeof *d->sleeps +
           d->busy_cap * sizeof *d->busy + d->cpu_cap * sizeof *d->cpu_ns +
           d->name_cap * sizeof *d->names;
}

/* ---- wake-up delays and a busy machine ------------------------------------- */

/* The part of [from, to) worker w slept (woken false: from a sleep's
 * start to its wake-up) or was woken and waiting for a processor (woken
 * true: from its wake-up to its end). */
static uint64_t slept(const window_tl_data *d, uint32_t w, bool woken, uint64_t from, uint64_t to)
{
    uint64_t ns = 0;
    for (uint32_t k = 0; k < d->sleep_count; k++) {
        const ecs_sleep *sl = &d->sleeps[k];
        uint64_t a = woken ? sl->woken_ns : sl->start_ns, b = woken ? sl->end_ns : sl->woken_ns;
        a = a > from ? a : from;
        b = b < to ? b : to;
        if (sl->worker == w && b > a) ns += b - a;
    }
    return ns;
}

window_tl_wake window_tl_wake_of(const window_tl_data *d, uint32_t worker)
{
    window_tl_wake wk = {0};
    for (uint32_t k = 0; k < d->span_count; k++) {
        const ecs_span *sp = &d->spans[k];
        if (sp->worker != worker || (wk.ran && sp->start_ns >= wk.delay_ns)) continue;
        wk.ran = true;
        wk.delay_ns = sp->start_ns;
    }
    if (wk.ran) {
        wk.asleep_ns = slept(d, worker, false, 0, wk.delay_ns);
        wk.waiting_ns = slept(d, worker, true, 0, wk.delay_ns);
    }
    return wk;
}

void window_tl_wake_text(const window_tl_wake *wk, char *buf, size_t size)
{
    double us = (double)wk->delay_ns / 1e3;
    if (!wk->ran) snprintf(buf, size, "wake -");
    else if (us < 999.5) snprintf(buf, size, "wake %.0f us", us);
    else snprintf(buf, size, "wake %.2f ms", us / 1e3);
}

window_tl_machine window_tl_machine_of(const window_tl_data *d)
{
    window_tl_machine m = {0};
    if (!d->valid || !d->cpu_known || d->sleeps_lost || !d->workers || !d->wall_ns) return m;
    uint64_t awake_all = 0, ran_all = 0;
    for (uint32_t w = 0; w < d->workers; w++) {
        uint64_t awake = d->wall_ns - slept(d, w, false, 0, d->wall_ns);
        uint64_t ran = d->cpu_ns[w] < awake ? d->cpu_ns[w] : awake;
        double share = awake ? (double)ran / (double)awake : 1.0;
        if (w == 0 || share < m.worst_ran) m.worst = w, m.worst_ran = share;
        awake_all += awake;
        ran_all += ran;
    }
    m.known = awake_all > 0;
    m.ran = m.known ? (double)ran_all / (double)awake_all : 1.0;
    m.lost_ns = awake_all - ran_all;
    m.busy = m.known && app_steady_slowed(m.ran);
    return m;
}

void window_tl_machine_line(const window_tl_machine *m, char *buf, size_t size)
{
    snprintf(buf, size, "Machine busy: workers ran %.0f%% of their awake time", 100.0 * m->ran);
}

bool window_timeline_default_shown(uint32_t width, uint32_t height)
{
    return width >= WINDOW_TL_DEFAULT_W && height >= WINDOW_TL_DEFAULT_H;
}

/* ---- the axis ------------------------------------------------------------- */

#define MIN_WIDTH_US 10.0

static const double LEVELS[] = {1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0};
#define LEVEL_COUNT (sizeof LEVELS / sizeof LEVELS[0])

double window_tl_nice_width(double us)
{
    if (!(us > MIN_WIDTH_US)) return MIN_WIDTH_US;
    double decade = pow(10.0, floor(log10(us)));
    for (size_t i = 0; i < LEVEL_COUNT; i++)
        if (us <= LEVELS[i] * decade) return LEVELS[i] * decade;
    return 10.0 * decade;
}

/* The largest width below w. */
static double width_below(double w)
{
    double decade = pow(10.0, floor(log10(w)));
    for (size_t i = LEVEL_COUNT; i-- > 0;)
        if (LEVELS[i] * decade < w * 0.999999) return LEVELS[i] * decade;
    return 0.8 * decade;
}

static double scale_set(window_tl_scale *s, double us)
{
    *s = (window_tl_scale){.full_us = window_tl_nice_width(us)};
    return s->full_us;
}

double window_tl_scale_fit(window_tl_scale *s, double wall_us)
{
    return scale_set(s, wall_us / WINDOW_TL_SHRINK_ROOM);
}

double window_tl_scale_update(window_tl_scale *s, double wall_us)
{
    if (s->full_us <= 0.0) return scale_set(s, wall_us);
    if (wall_us < WINDOW_TL_MIN_FILL * s->full_us && s->full_us > MIN_WIDTH_US)
        return window_tl_scale_fit(s, wall_us); /* never drawn that small */
    if (wall_us > s->full_us) {
        s->longest_over = s->longer == 0 || wall_us > s->longest_over ? wall_us : s->longest_over;
        if (++s->longer >= WINDOW_TL_GROW_STEPS) {
            scale_set(s, s->longest_over);
            /* This step too is drawn: never under a fifth of the axis. */
            if (wall_us < WINDOW_TL_MIN_FILL * s->full_us) return window_tl_scale_fit(s, wall_us);
            return s->full_us;
        }
    } else {
        s->longer = 0;
    }
    if (s->full_us <= MIN_WIDTH_US) return s->full_us;
    s->seen++;
    if (wall_us > WINDOW_TL_SHRINK_FILL * width_below(s->full_us)) s->misfits++;
    else if (wall_us > s->longest) s->longest = wall_us;
    if (s->misfits > WINDOW_TL_SHRINK_SKIP) { /* the steps are that long: start over */
        s->seen = s->misfits = 0;
        s->longest = 0.0;
    } else if (s->seen >= WINDOW_TL_SHRINK_STEPS) {
        return scale_set(s, s->longest / WINDOW_TL_SHRINK_ROOM);
    }
    return s->full_us;
}

uint32_t window_tl_ticks(double full_us, double *ticks)
{
    if (!(full_us > 0.0)) return 0;
    double want = full_us / 6.0, decade = pow(10.0, floor(log10(want)));
    static const double steps[] = {1.0, 2.0, 5.0, 10.0};
    double step = 10.0 * decade;
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (want <= steps[i] * decade * 1.000001) {
            step = steps[i] * decade;
            break;
        }
    uint32_t n = 0;
    for (uint32_t k = 0; n < WINDOW_TL_MAX_TICKS && (double)k * step <= full_us * 1.000001; k++)
        ticks[n++] = (double)k * step;
    return n;
}
