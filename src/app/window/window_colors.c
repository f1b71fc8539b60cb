/* window_colors.c - the colouring modes (window_colors.h). */
#include "window_colors.h"

#include "app_grow.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Hues far apart first, so that the few workers of a small machine get
 * the most different colours; none near the chart's chain colours (blue,
 * orange, purple, window_hud_system_color), which the timeline's blocks
 * wear: a worker is never mistaken for a chain. */
static const gfx_color WORKERS[WINDOW_WORKER_COLORS] = {
    {250, 230, 40, 255},  {245, 80, 170, 255},  {40, 220, 220, 255},  {30, 140, 50, 255},
    {225, 35, 35, 255},   {245, 245, 245, 255}, {160, 200, 40, 255},  {0, 150, 130, 255},
    {255, 170, 190, 255}, {60, 220, 90, 255},   {200, 180, 110, 255}, {140, 30, 60, 255},
};

static const gfx_color CELLS[9] = {
    {230, 90, 80, 255},  {80, 170, 240, 255}, {240, 200, 70, 255},
    {110, 210, 120, 255}, {200, 110, 230, 255}, {60, 200, 200, 255},
    {245, 150, 60, 255}, {150, 150, 240, 255}, {190, 230, 90, 255},
};

gfx_color window_color_worker(uint32_t worker) { return WORKERS[worker % WINDOW_WORKER_COLORS]; }

gfx_color window_color_cell(uint32_t col, uint32_t row) { return CELLS[(row % 3u) * 3u + col % 3u]; }

gfx_color window_color_speed(float speed, float full)
{
    static const float STOPS[5][3] = {
        {40, 70, 230}, {30, 200, 240}, {60, 230, 90}, {250, 225, 40}, {245, 50, 40}};
    float t = full > 0.0f && speed > 0.0f ? speed / full : 0.0f;
    t = (t < 1.0f ? t : 1.0f) * 4.0f; /* NaN compares false: 4 */
    int i = (int)t < 3 ? (int)t : 3;
    float f = t - (float)i;
    gfx_color c = {0, 0, 0, 255};
    uint8_t *out[3] = {&c.r, &c.g, &c.b};
    for (int k = 0; k < 3; k++)
        *out[k] = (uint8_t)(STOPS[i][k] + (STOPS[i + 1][k] - STOPS[i][k]) * f + 0.5f);
    return c;
}

int window_colors_init(window_colors *c, uint32_t max_batches)
{
    memset(c, 0, sizeof *c);
    c->batches = calloc(max_batches, sizeof *c->batches);
    c->worker_of = calloc(max_batches, sizeof *c->worker_of);
    c->max_batches = max_batches;
    if (c->batches && c->worker_of) return 0;
    window_colors_fini(c);
    return -1;
}

void window_colors_fini(window_colors *c)
{
    free(c->items);
    free(c->batches);
    free(c->worker_of);
    memset(c, 0, sizeof *c);
}

static bool reserve(window_colors *c, size_t n)
{
    return app_reserve((void **)&c->items, &c->cap, n, sizeof *c->items);
}

static void set_rgb(gfx_instance *p, gfx_color c)
{
    p->r = c.r;
    p->g = c.g;
    p->b = c.b;
    p->a = 255;
}

/* Which worker ran each render subtask of the last step. */
static void render_workers(window_colors *c, sim_world *w, uint32_t n)
{
    for (uint32_t b = 0; b < n; b++) c->worker_of[b] = UINT32_MAX;
    c->worker_batches = n;
    ecs_timeline tl;
    if (!ecs_timeline_get(sim_ecs(w), &tl)) return;
    for (uint32_t s = 0; s < tl.span_count; s++) {
        const ecs_span *sp = &tl.spans[s];
        if (sp->system == SIM_S_RENDER && sp->subtask != ECS_SPAN_FINISH && sp->subtask < n)
            c->worker_of[sp->subtask] = sp->worker;
    }
}

/* A copy of the batches, each particle's colour replaced. */
static const gfx_batch *recolor(window_colors *c, window_color mode, sim_world *w,
                                const gfx_batch *raw, uint32_t n)
{
    if (mode == WINDOW_COLOR_WORKER) render_workers(c, w, n);
    gfx_instance *dst = c->items;
    for (uint32_t b = 0; b < n; b++) {
        gfx_color worker = c->worker_of[b] == UINT32_MAX ? (gfx_color){128, 128, 128, 255}
                                                         : window_color_worker(c->worker_of[b]);
        sim_grid_layout g = sim_get_grid_layout(w);
        for (uint32_t i = 0; i < raw[b].count; i++) {
            dst[i] = raw[b].items[i];
            if (mode == WINDOW_COLOR_WORKER) {
                set_rgb(&dst[i], worker);
            } else {
                uint32_t cell = sim_cell_at(w, dst[i].x, dst[i].y);
                set_rgb(&dst[i], window_color_cell(cell % g.cols, cell / g.cols));
            }
        }
        c->batches[b] = (gfx_batch){dst, raw[b].count};
        dst += raw[b].count;
    }
    return c->batches;
}

/* The speed drawn red: four times the spawn speed per axis. */
static float speed_full(const sim_world *w) { return 4.0f * sim_get_params(w)->speed_max; }

/* One batch from the ECS's columns: the render system's particles, in its
 * order, coloured by the length of their velocity. */
static const gfx_batch *by_speed(window_colors *c, sim_world *w, uint32_t *out_n)
{
    ecs_context *ctx = sim_ecs(w);
    uint32_t count = 0;
    const uint32_t *idx = ecs_subscribed(ctx, SIM_S_RENDER, &count);
    if (!reserve(c, count)) return NULL;
    const sim_vec2 *pos = ecs_column(ctx, SIM_C_POSITION);
    const sim_vec2 *vel = ecs_column(ctx, SIM_C_VELOCITY);
    const float *radius = ecs_column(ctx, SIM_C_CIRCLE);
    size_t rs = ecs_column_stride(ctx, SIM_C_CIRCLE) / sizeof *radius; /* sim_layout */
    float full = speed_full(w);
    uint32_t kept = 0;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t i = idx[k];
        if (ecs_entity_is_null(ecs_handle(ctx, i))) continue; /* killed by a new wave */
        gfx_instance *p = &c->items[kept++];
        p->x = pos[i].x;
        p->y = pos[i].y;
        p->radius = radius[i * rs];
        set_rgb(p, window_color_speed(sqrtf(vel[i].x * vel[i].x + vel[i].y * vel[i].y), full));
    }
    c->batches[0] = (gfx_batch){c->items, kept};
    *out_n = 1;
    return c->batches;
}

const gfx_batch *window_colors_apply(window_colors *c, window_color mode, sim_world *w,
                                     const gfx_batch *raw, uint32_t n, uint32_t *out_n)
{
    *out_n = n;
    if (mode == WINDOW_COLOR_THESIS) return raw;
    if (mode == WINDOW_COLOR_SPEED) return by_speed(c, w, out_n);
    size_t total = 0;
    for (uint32_t b = 0; b < n; b++) total += raw[b].count;
    if (n > c->max_batches || !reserve(c, total)) return NULL;
    return recolor(c, mode, w, raw, n);
}

uint32_t window_colors_workers(const window_colors *c, uint32_t *out, uint32_t max)
{
    uint32_t n = 0, last = 0;
    bool any = false;
    /* Smallest worker above the last one taken, until none is left. */
    while (n < max) {
        uint32_t next = UINT32_MAX;
        for (uint32_t b = 0; b < c->worker_batches; b++) {
            uint32_t w = c->worker_of[b];
            if (w != UINT32_MAX && (!any || w > last) && w < next) next = w;
        }
        if (next == UINT32_MAX) break;
        out[n++] = last = next;
        any = true;
    }
    return n;
}

const char *window_colors_key_unit(window_color mode)
{
    return mode == WINDOW_COLOR_SPEED ? "u/s" : NULL;
}

uint32_t window_colors_key(const window_colors *c, window_color mode, const sim_world *w,
                           window_color_key *out)
{
    if (mode == WINDOW_COLOR_WORKER) {
        uint32_t workers[WINDOW_COLOR_KEY_MAX];
        uint32_t n = window_colors_workers(c, workers, WINDOW_COLOR_KEY_MAX);
        for (uint32_t k = 0; k < n; k++) {
            out[k].color = window_color_worker(workers[k]);
            snprintf(out[k].label, sizeof out[k].label, "w%u", (unsigned)workers[k]);
        }
        return n;
    }
    if (mode != WINDOW_COLOR_SPEED) return 0;
    float full = speed_full(w);
    for (uint32_t k = 0; k < 3u; k++) {
        float v = full * (float)k / 2.0f;
        out[k].color = window_color_speed(v, full);
        snprintf(out[k].label, sizeof out[k].label, k == 2u ? "%.3g+" : "%.3g", (double)v);
    }
    return 3;
}
