/* test_window_timeline.c - the timeline panel's pure parts, with no window:
 *   - a real step's timeline copied: a block per span (subtasks and
 *     finishes), each in its worker's lane inside the axis;
 *   - hand-made spans: the centre of every block hits that block's span,
 *     a point between blocks or outside the lanes hits none;
 *   - the axis's ticks are whole multiples of 1, 2 or 5 times a power of
 *     ten, from 0 to the full width;
 *   - the axis's scale holds when steps wobble around it or one is now
 *     and then far longer, grows after a few longer steps in a row and
 *     shrinks only after a run of shorter steps;
 *   - the panel, where it fits, lies inside the drawable and clear of the
 *     HUD's other panels, at every size and with the lens;
 *   - the step history keeps the last WINDOW_TL_HISTORY steps, oldest
 *     overwritten, in memory that stops growing once the ring is full;
 *     Left/Right move the step shown within it, only while frozen; a
 *     click on a bar of the strip shows that step, frozen, and one on the
 *     newest's follows the steps again; a bar's height is its step's
 *     wall time against the axis's width, at least a pixel;
 *   - a worker's wake-up delay is its first span's start, of it the time
 *     it slept; the busy machine's rule (the bench's, app_steady_slowed)
 *     applied to the workers' CPU time against their awake time.
 */
#include "sim_test_util.h"

#include "app_grow.h"
#include "app_steady.h"
#include "window_timeline.h"

#include <math.h>

/* DejaVu Sans at 15 px: its line height, the lens caption's width and the
 * panel's label and busy columns. */
#define LINE_H 17.0f
#define CAPTION_W 240.0f
static const window_tl_metrics METRICS = {LINE_H, 70.0f, 66.0f};

static window_tl_layout big_layout(uint32_t lanes)
{
    window_hud_layout hud = window_hud_layout_fit(LINE_H, CAPTION_W, false, 1440, 900, 1.0f);
    return window_tl_layout_fit(&hud, false, &METRICS, lanes, 1440, 900);
}

static void test_real_step_blocks(void **state)
{
    (void)state;
    sim_config cfg = sim_default_config();
    cfg.particles = 3000;
    cfg.workers = 2;
    cfg.max_workers = 2;
    sim_world *w = sim_create_ok(&cfg);
    window_tl_data d = {0};
    for (int i = 0; i < 3; i++) assert_int_equal(sim_step(w), ECS_OK);
    assert_true(window_tl_copy(&d, sim_ecs(w), sim_frame(w)));
    ecs_timeline tl;
    assert_true(ecs_timeline_get(sim_ecs(w), &tl));
    assert_int_equal(d.span_count, tl.span_count);
    assert_true(d.span_count >= SIM_SYSTEM_COUNT);
    assert_int_equal(d.workers, 2);
    assert_int_equal(d.step, 3);
    assert_memory_equal(d.spans, tl.spans, tl.span_count * sizeof *tl.spans);
    assert_string_equal(d.names[SIM_S_COLLISION], "collision");
    assert_true(d.profile.work_ms > 0.0 && d.profile.span_ms > 0.0);

    window_tl_scale sc = {0};
    double full = window_tl_scale_update(&sc, (double)d.wall_ns / 1e3);
    assert_true(full * 1e3 >= (double)d.wall_ns);
    window_tl_layout l = big_layout(d.workers);
    assert_true(l.fits);
    window_tl_block *b = calloc(d.span_count, sizeof *b);
    assert_non_null(b);
    uint32_t n = window_tl_blocks(&l, &d, full, b);
    assert_int_equal(n, d.span_count);
    for (uint32_t i = 0; i < n; i++) {
        const ecs_span *sp = &d.spans[b[i].span];
        float lane = l.lanes_y + (float)sp->worker * l.lane_h;
        assert_true(b[i].w >= 1.0f && b[i].x >= l.t_x && b[i].x + b[i].w <= l.t_x + l.t_w + 1.0f);
        assert_true(b[i].y >= lane && b[i].y + b[i].h <= lane + l.lane_h);
    }
    free(b);
    window_tl_data_free(&d);
    sim_destroy(w);
}

static void test_hit_centres(void **state)
{
    (void)state;
    const char *names[] = {"alpha", "beta"};
    /* Two workers, a full width of 1000 us: spans 100 us apart. */
    ecs_span spans[] = {
        {0, 100000, 0, 0, 0, 0, 500, 0, 500, 0, 0, 0},
        {150000, 300000, 1, 0, 0, 1, 500, 500, 1000, 0, 0, 0},
        {320000, 400000, 0, 1, 0, 0, 200, 0, 200, 0, 0, 0},
        {400000, 650000, 1, 1, 0, 1, 800, 200, 1000, 0, 0, 0},
        {700000, 720000, 0, 1, 0, ECS_SPAN_FINISH, 0, 0, 0, 0, 0, 0},
    };
    window_tl_data d = {.valid = true, .wall_ns = 720000, .workers = 2, .systems = 2,
                        .spans = spans, .span_count = 5, .names = names};
    window_tl_layout l = big_layout(2);
    window_tl_block b[5];
    uint32_t n = window_tl_blocks(&l, &d, 1000.0, b);
    assert_int_equal(n, 5);
    for (uint32_t i = 0; i < n; i++) {
        int32_t hit = window_tl_hit(b, n, b[i].x + 0.5f * b[i].w, b[i].y + 0.5f * b[i].h);
        assert_int_equal(hit, (int32_t)i);
        assert_int_equal(b[hit].span, i);
    }
    /* Between spans 0 and 2 on worker 0, above and below the lanes. */
    float mid = window_tl_x(&l, 1000.0, 125000), y0 = b[0].y + 0.5f * b[0].h;
    assert_int_equal(window_tl_hit(b, n, mid, y0), -1);
    assert_int_equal(window_tl_hit(b, n, b[0].x + 1.0f, l.lanes_y - 1.0f), -1);
    assert_int_equal(window_tl_hit(b, n, b[1].x + 1.0f, l.axis_y + 1.0f), -1);

    char lines[WINDOW_TL_TIP_LINES][96];
    window_tl_tooltip(&d, 3, lines);
    assert_string_equal(lines[0], "beta, pass 0, subtask 1");
    assert_string_equal(lines[1], "800 entities, indices 200..999");
    assert_string_equal(lines[2], "250.0 us, from 400.0 to 650.0 us");
    assert_string_equal(lines[3], "worker 1");
    window_tl_tooltip(&d, 4, lines);
    assert_string_equal(lines[0], "beta, pass 0, finish");
    assert_string_equal(lines[3], "worker 0 (main)");
}

/* v is a whole multiple of step, within rounding. */
static bool multiple_of(double v, double step)
{
    double k = v / step;
    return fabs(k - round(k)) < 1e-9;
}

static void test_ticks_round(void **state)
{
    (void)state;
    for (double full = 10.0; full < 2e6; full = window_tl_nice_width(full * 1.01)) {
        double t[WINDOW_TL_MAX_TICKS];
        uint32_t n = window_tl_ticks(full, t);
        if (n < 3 || n > 7) fail_msg("%g us: %u ticks", full, (unsigned)n);
        double step = t[1], decade = pow(10.0, floor(log10(step) + 1e-9)), lead = step / decade;
        if (fabs(lead - 1.0) > 1e-9 && fabs(lead - 2.0) > 1e-9 && fabs(lead - 5.0) > 1e-9)
            fail_msg("%g us: a tick step of %g", full, step);
        assert_true(t[0] == 0.0);
        for (uint32_t i = 1; i < n; i++)
            if (!multiple_of(t[i], step) || !(t[i] > t[i - 1]) || t[i] > full * 1.000001)
                fail_msg("%g us: tick %u is %g (step %g)", full, (unsigned)i, t[i], step);
        /* The last tick is the end, or less than a step before it. */
        assert_true(full - t[n - 1] < step);
    }
}

static void test_scale_holds(void **state)
{
    (void)state;
    window_tl_scale s = {0};
    assert_true(window_tl_scale_update(&s, 900.0) == 1000.0);
    /* Steps a little longer: not at the first, nor the second, at the third
     * in a row, to the width that holds the longest of them. */
    assert_true(window_tl_scale_update(&s, 1100.0) == 1000.0);
    assert_true(window_tl_scale_update(&s, 1400.0) == 1000.0);
    assert_true(window_tl_scale_update(&s, 1100.0) == 1500.0);
    /* Wobbling steps around 1 ms: the same width throughout. */
    for (int i = 0; i < 1000; i++)
        if (window_tl_scale_update(&s, i % 2 ? 1150.0 : 800.0) != 1500.0)
            fail_msg("step %d: the scale moved to %g", i, s.full_us);
    /* An isolated long step (the scheduler cut the step off): the scale
     * holds, here as often as one step in ten. */
    for (int i = 0; i < 1000; i++)
        if (window_tl_scale_update(&s, i % 10 == 3 ? 9000.0 : 1000.0) != 1500.0)
            fail_msg("step %d: the scale moved to %g", i, s.full_us);
    /* Longer steps for good: grown after WINDOW_TL_GROW_STEPS. */
    for (uint32_t i = 0; i + 1u < WINDOW_TL_GROW_STEPS; i++)
        assert_true(window_tl_scale_update(&s, 2600.0) == 1500.0);
    assert_true(window_tl_scale_update(&s, 2600.0) == 3000.0);
    /* Shorter steps (a fifth of the width or more), a few long ones among
     * them: not before WINDOW_TL_SHRINK_STEPS of them, then to the width
     * that holds the longest of the short ones. */
    for (uint32_t i = 0; i + 1u < WINDOW_TL_SHRINK_STEPS; i++)
        assert_true(window_tl_scale_update(&s, i == 7 ? 800.0 : i % 10 == 5 ? 2900.0 : 700.0) ==
                    3000.0);
    assert_true(window_tl_scale_update(&s, 700.0) == 1000.0);
    /* More than WINDOW_TL_SHRINK_SKIP steps that would not fit start the
     * count over. */
    for (uint32_t i = 0; i < 10u; i++) window_tl_scale_update(&s, 300.0);
    for (uint32_t i = 0; i <= WINDOW_TL_SHRINK_SKIP; i++)
        assert_true(window_tl_scale_update(&s, 700.0) == 1000.0);
    for (uint32_t i = 0; i + 1u < WINDOW_TL_SHRINK_STEPS; i++)
        assert_true(window_tl_scale_update(&s, 300.0) == 1000.0);
    assert_true(window_tl_scale_update(&s, 300.0) == 400.0);
}

/* A step under a fifth of the width refits the axis at once, and so does
 * the A key (window_tl_scale_fit), whichever way the step went. */
static void test_scale_fits_short_steps(void **state)
{
    (void)state;
    window_tl_scale s = {0};
    assert_true(window_tl_scale_update(&s, 7000.0) == 8000.0);
    double full = window_tl_scale_update(&s, 1000.0);
    if (!(full >= 1000.0 && full <= 5000.0)) fail_msg("a 1000 us step on a %g us axis", full);
    for (int i = 0; i < 200; i++) {
        double us = i % 3 ? 40.0 + 13.0 * i : 9000.0 - 37.0 * i;
        full = window_tl_scale_update(&s, us);
        if (us < full * WINDOW_TL_MIN_FILL)
            fail_msg("step %d: %g us drawn on a %g us axis", i, us, full);
    }
    assert_true(window_tl_scale_fit(&s, 7000.0) == 8000.0);
    assert_true(window_tl_scale_fit(&s, 130.0) == 150.0);
    assert_true(window_tl_scale_update(&s, 140.0) == 150.0);
}

typedef struct box {
    const char *name;
    float x, y, w, h;
} box;

static bool overlap(const box *a, const box *b)
{
    return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

static void check_clear(int w, int h, float scale, bool help, bool lens, uint32_t lanes,
                        uint32_t *fitted)
{
    window_hud_layout hud = window_hud_layout_fit(LINE_H * scale, CAPTION_W * scale, help, w, h, scale);
    window_tl_metrics m = {METRICS.line_h * scale, METRICS.label_w * scale, METRICS.busy_w * scale};
    window_tl_layout l = window_tl_layout_fit(&hud, lens, &m, lanes, w, h);
    if (!l.fits) return;
    (*fitted)++;
    box panel = {"timeline", l.x, l.y, l.w, l.h};
    if (l.x < 0.0f || l.y < 0.0f || l.x + l.w > (float)w || l.y + l.h > (float)h)
        fail_msg("%dx%d: the panel (%g, %g, %g x %g) is not inside", w, h, (double)l.x,
                 (double)l.y, (double)l.w, (double)l.h);
    box others[6];
    uint32_t n = 0;
    if (hud.rows) others[n++] = (box){"figures", hud.x, hud.y, hud.w, hud.h};
    if (hud.help_rows) others[n++] = (box){"help", hud.help_x, hud.help_y, hud.help_w, hud.help_h};
    if (lens && hud.lens_side > 0.0f) {
        others[n++] = (box){"lens", hud.lens_x - 2.0f, hud.lens_y - 2.0f, hud.lens_side + 4.0f,
                            hud.lens_side + 4.0f};
        others[n++] = (box){"caption", hud.cap_x, hud.cap_y, hud.cap_w, hud.cap_h};
    }
    others[n++] = (box){"notice", hud.x, hud.notice_y, hud.line_w, hud.line_h};
    others[n++] = (box){"hint", hud.x, hud.hint_y, hud.line_w, hud.line_h};
    for (uint32_t i = 0; i < n; i++)
        if (overlap(&panel, &others[i]))
            fail_msg("%dx%d scale %g help %d lens %d lanes %u: the panel overlaps the %s", w, h,
                     (double)scale, help, lens, (unsigned)lanes, others[i].name);
    /* The lanes and the axis inside the panel, the axis a useful width. */
    assert_true(l.t_x > l.x && l.t_w > 200.0f * scale && l.busy_x + m.busy_w <= l.x + l.w);
    assert_true(l.axis_y + 4.0f * scale + l.line_h <= l.y + l.h + 0.01f);
}

static void test_layout_clear(void **state)
{
    (void)state;
    uint32_t fitted = 0;
    for (int s = 1; s <= 2; s++)
        for (int w = 64; w <= 2000; w += 37)
            for (int h = 64; h <= 1300; h += 29)
                for (int flags = 0; flags < 4; flags++)
                    for (uint32_t lanes = 1; lanes <= 16; lanes *= 4)
                        check_clear(w * s, h * s, (float)s, flags & 1, flags & 2, lanes, &fitted);
    assert_true(fitted > 1000);
    /* The default window holds the panel with a lane for each of 16 workers,
     * help and lens shown; a small one has no room. */
    window_hud_layout hud = window_hud_layout_fit(LINE_H, CAPTION_W, true, 1440, 900, 1.0f);
    assert_true(window_tl_layout_fit(&hud, true, &METRICS, 16, 1440, 900).fits);
    hud = window_hud_layout_fit(LINE_H, CAPTION_W, false, 500, 400, 1.0f);
    assert_false(window_tl_layout_fit(&hud, false, &METRICS, 2, 500, 400).fits);
    assert_true(window_timeline_default_shown(1440, 900));
    assert_false(window_timeline_default_shown(800, 600));
}

/* A step of the history, made by hand: `spans` spans of worker 0. */
static void fake_step(window_timeline *t, uint64_t step, uint32_t spans)
{
    window_tl_data *d = window_tl_history_next(&t->history);
    assert_non_null(d);
    assert_true(app_reserve((void **)&d->spans, &d->span_cap, spans, sizeof *d->spans));
    memset(d->spans, 0, spans * sizeof *d->spans);
    d->valid = true;
    d->step = step;
    d->wall_ns = 1000u * step;
    d->workers = 1;
    d->span_count = spans;
    window_tl_history_keep(&t->history);
}

static void test_history_ring(void **state)
{
    (void)state;
    window_timeline t = {.shown = true};
    assert_null(window_timeline_shown_step(&t));
    for (uint64_t s = 1; s <= 10; s++) fake_step(&t, s, 8);
    assert_int_equal(t.history.count, 10);
    assert_int_equal(window_timeline_shown_step(&t)->step, 10);
    assert_int_equal(window_tl_history_back(&t.history, 9)->step, 1);
    assert_null(window_tl_history_back(&t.history, 10));
    /* Past the ring's size: the oldest steps go, the count stays. */
    for (uint64_t s = 11; s <= WINDOW_TL_HISTORY + 25u; s++) fake_step(&t, s, 8);
    assert_int_equal(t.history.count, WINDOW_TL_HISTORY);
    assert_int_equal(window_tl_history_back(&t.history, 0)->step, WINDOW_TL_HISTORY + 25u);
    assert_int_equal(window_tl_history_back(&t.history, WINDOW_TL_HISTORY - 1u)->step, 26);
    assert_null(window_tl_history_back(&t.history, WINDOW_TL_HISTORY));
    /* Bounded: another lap of steps of the same size takes no more. */
    size_t bytes = window_tl_history_bytes(&t.history);
    assert_true(bytes >= WINDOW_TL_HISTORY * 8u * sizeof(ecs_span));
    for (uint64_t s = 0; s < 2u * WINDOW_TL_HISTORY; s++) fake_step(&t, 1000u + s, 8);
    assert_int_equal(window_tl_history_bytes(&t.history), bytes);

    /* Picking: only while frozen, never past either end. */
    window_timeline_pick(&t, +1);
    assert_int_equal(t.back, 0);
    window_timeline_freeze(&t);
    assert_true(t.frozen);
    window_timeline_pick(&t, -1);
    assert_int_equal(t.back, 0);
    for (int i = 0; i < 3; i++) window_timeline_pick(&t, +1);
    assert_int_equal(t.back, 3);
    assert_int_equal(window_timeline_shown_step(&t)->step, 1000u + 2u * WINDOW_TL_HISTORY - 4u);
    t.back = WINDOW_TL_HISTORY - 1u;
    window_timeline_pick(&t, +1);
    assert_int_equal(t.back, WINDOW_TL_HISTORY - 1u);
    /* Frozen, the ring takes no step; F again follows the newest. */
    /* F again follows the steps: the history starts over. */
    window_timeline_freeze(&t);
    assert_false(t.frozen);
    assert_int_equal(t.back, 0);
    assert_int_equal(t.history.count, 0);
    assert_null(window_timeline_shown_step(&t));
    for (uint64_t s = 4991; s <= 5000; s++) fake_step(&t, s, 8);
    assert_int_equal(window_tl_history_bytes(&t.history), bytes); /* the buffers kept */
    assert_int_equal(window_timeline_shown_step(&t)->step, 5000);

    /* A click on a bar of the strip. */
    t.drawn_at = big_layout(1);
    assert_true(t.drawn_at.fits);
    float bar[4];
    window_tl_strip_bar(&t.drawn_at, 7, 500.0, 1000.0, bar);
    const window_tl_layout *l = &t.drawn_at;
    assert_true(bar[0] >= l->t_x && bar[0] + bar[2] <= l->t_x + l->t_w + 0.01f);
    /* Half the axis's width: half the strip's height, standing on its base. */
    assert_true(fabsf(bar[3] - 0.5f * l->strip_h) < 0.01f);
    assert_true(fabsf(bar[1] + bar[3] - (l->strip_y + l->strip_h)) < 0.01f);
    float full[4], over[4], tiny[4], newest[4];
    window_tl_strip_bar(l, 7, 1000.0, 1000.0, full);
    window_tl_strip_bar(l, 7, 5000.0, 1000.0, over);
    window_tl_strip_bar(l, 7, 0.001, 1000.0, tiny);
    window_tl_strip_bar(l, 0, 1000.0, 1000.0, newest);
    assert_true(full[3] == l->strip_h && over[3] == l->strip_h && tiny[3] == 1.0f);
    /* The newest at the right end, a step older one bar to its left. */
    assert_true(newest[0] + newest[2] <= l->t_x + l->t_w + 0.01f &&
                newest[0] + newest[2] > l->t_x + l->t_w - 2.0f * l->t_w / WINDOW_TL_HISTORY);
    assert_true(newest[0] > full[0]);
    assert_true(window_timeline_click(&t, bar[0] + 0.5f * bar[2], bar[1] + 0.5f * bar[3]));
    assert_true(t.frozen);
    assert_int_equal(t.back, 7);
    assert_int_equal(window_timeline_shown_step(&t)->step, 5000u - 7u);
    assert_false(window_timeline_click(&t, bar[0], t.drawn_at.lanes_y + 1.0f)); /* a lane */
    assert_int_equal(t.back, 7);
    window_tl_strip_bar(&t.drawn_at, 0, 1000.0, 1000.0, bar);
    assert_true(window_timeline_click(&t, bar[0] + 0.5f * bar[2], bar[1] + 0.5f * bar[3]));
    assert_false(t.frozen);
    assert_int_equal(t.back, 0);
    assert_int_equal(t.history.count, 0);
    window_timeline_free(&t);
}

/* A short history: bars for the steps held only. */
static void test_strip_hit_short(void **state)
{
    (void)state;
    window_timeline t = {.shown = true};
    for (uint64_t s = 1; s <= 5; s++) fake_step(&t, s, 1);
    t.drawn_at = big_layout(1);
    /* A bar's whole column is its, however short the bar. */
    float bar[4], y = t.drawn_at.strip_y + 1.0f;
    window_tl_strip_bar(&t.drawn_at, 4, 1.0, 1000.0, bar);
    assert_int_equal(window_tl_strip_hit(&t.drawn_at, 5, bar[0] + 1.0f, y), 4);
    assert_int_equal(window_tl_strip_hit(&t.drawn_at, 5, bar[0] + 1.0f, t.drawn_at.strip_y - 1.0f), -1);
    window_tl_strip_bar(&t.drawn_at, 5, 1.0, 1000.0, bar);
    assert_int_equal(window_tl_strip_hit(&t.drawn_at, 5, bar[0] + 1.0f, y), -1);
    assert_false(window_timeline_click(&t, bar[0] + 1.0f, y));
    assert_false(t.frozen);
    /* A bar's height: its wall time against the axis's full width, the
     * strip's whole height from the full width on, at least a pixel. */
    const window_tl_layout *l = &t.drawn_at;
    window_tl_strip_bar(l, 0, 500.0, 1000.0, bar);
    assert_float_equal(bar[3], 0.5f * l->strip_h, 0.01f);
    assert_float_equal(bar[1] + bar[3], l->strip_y + l->strip_h, 0.01f); /* standing on its base */
    window_tl_strip_bar(l, 0, 3000.0, 1000.0, bar);
    assert_float_equal(bar[3], l->strip_h, 0.01f);
    window_tl_strip_bar(l, 0, 0.001, 1000.0, bar);
    assert_true(bar[3] >= 1.0f);
    /* The newest at the right end, the one `back` steps before it the
     * (300 - 1 - back)-th of 300. */
    window_tl_strip_bar(l, 10, 500.0, 1000.0, bar);
    assert_float_equal(bar[0], l->t_x + (float)(WINDOW_TL_HISTORY - 1u - 10u) * l->t_w / (float)WINDOW_TL_HISTORY, 0.5f);
    t.shown = false; /* hidden: no click is the panel's */
    window_tl_strip_bar(&t.drawn_at, 0, 1000.0, 1000.0, bar);
    assert_false(window_timeline_click(&t, bar[0] + 1.0f, y));
    window_timeline_free(&t);
}

static void test_wake_delays(void **state)
{
    (void)state;
    /* Worker 0 from 20 us; worker 1 slept to 250 us, ran from 300 us;
     * worker 2 ran nothing. Spans out of time order, as a DAG gives. */
    ecs_span spans[] = {
        {400000, 500000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
        {300000, 350000, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0},
        {20000, 90000, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0},
        {320000, 360000, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0},
    };
    /* Worker 1's first sleep: woken at 200 us, running again at 250 us. */
    ecs_sleep sleeps[] = {{0, 250000, 1, 200000}, {600000, 700000, 1, 650000},
                          {0, 1000000, 2, 1000000}};
    window_tl_data d = {.valid = true, .wall_ns = 1000000, .workers = 3, .systems = 2,
                        .spans = spans, .span_count = 4, .sleeps = sleeps, .sleep_count = 3};
    window_tl_wake w0 = window_tl_wake_of(&d, 0), w1 = window_tl_wake_of(&d, 1),
                   w2 = window_tl_wake_of(&d, 2);
    assert_true(w0.ran && w1.ran && !w2.ran);
    assert_int_equal(w0.delay_ns, 20000);
    assert_int_equal(w0.asleep_ns, 0);
    assert_int_equal(w1.delay_ns, 300000);
    assert_int_equal(w1.asleep_ns, 200000);
    assert_int_equal(w1.waiting_ns, 50000);
    assert_int_equal(w0.waiting_ns, 0);
    char buf[32];
    window_tl_wake_text(&w1, buf, sizeof buf);
    assert_string_equal(buf, "wake 300 us");
    window_tl_wake_text(&w2, buf, sizeof buf);
    assert_string_equal(buf, "wake -");
    w1.delay_ns = 1250000;
    window_tl_wake_text(&w1, buf, sizeof buf);
    assert_string_equal(buf, "wake 1.25 ms");
}

static void test_busy_machine(void **state)
{
    (void)state;
    /* Wall 1000 us; worker 1 slept 400 us of it, woken at its end: awake
     * 1000 + 600 us. */
    ecs_sleep sleeps[] = {{100000, 500000, 1, 500000}};
    uint64_t cpu[2] = {1000000, 600000};
    window_tl_data d = {.valid = true, .wall_ns = 1000000, .workers = 2, .sleeps = sleeps,
                        .sleep_count = 1, .cpu_ns = cpu, .cpu_known = true};
    window_tl_machine m = window_tl_machine_of(&d);
    assert_true(m.known && !m.busy);
    assert_true(m.ran == 1.0 && m.lost_ns == 0);
    /* Worker 1 ran 300 of its 600 us: 1300 / 1600 = 0.8125, busy. */
    cpu[1] = 300000;
    m = window_tl_machine_of(&d);
    assert_true(m.known && m.busy);
    assert_int_equal(m.lost_ns, 300000);
    assert_int_equal(m.worst, 1);
    assert_true(fabs(m.worst_ran - 0.5) < 1e-12);
    char line[96];
    window_tl_machine_line(&m, line, sizeof line);
    assert_string_equal(line, "Machine busy: workers ran 81% of their awake time");
    /* The bench's rounding: 0.895 reads 0.90 and passes, 0.894 does not. */
    cpu[1] = 600000 - 168000; /* 1432 / 1600 = 0.895 */
    assert_false(window_tl_machine_of(&d).busy);
    cpu[1] = 600000 - 169600; /* 0.894 */
    assert_true(window_tl_machine_of(&d).busy);
    assert_true(app_steady_slowed(0.894) && !app_steady_slowed(0.895));
    /* Woken as it fell asleep but running only 400 us later: runnable,
     * not running, so awake: (1000 + 600) / (1000 + 1000) = 0.8, busy. */
    cpu[1] = 600000;
    assert_false(window_tl_machine_of(&d).busy);
    sleeps[0].woken_ns = 100000;
    m = window_tl_machine_of(&d);
    assert_true(m.busy && m.lost_ns == 400000 && fabs(m.ran - 0.8) < 1e-12);
    sleeps[0].woken_ns = 500000;
    /* Not judged: no CPU times, or sleeps lost (the awake time unknown). */
    d.cpu_known = false;
    assert_false(window_tl_machine_of(&d).known);
    d.cpu_known = true;
    d.sleeps_lost = 1;
    assert_false(window_tl_machine_of(&d).known);
    assert_false(window_tl_machine_of(&d).busy);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_step_blocks), cmocka_unit_test(test_hit_centres),
        cmocka_unit_test(test_ticks_round),      cmocka_unit_test(test_scale_holds),
        cmocka_unit_test(test_scale_fits_short_steps),
        cmocka_unit_test(test_layout_clear),
        cmocka_unit_test(test_history_ring),     cmocka_unit_test(test_strip_hit_short),
        cmocka_unit_test(test_wake_delays),      cmocka_unit_test(test_busy_machine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
