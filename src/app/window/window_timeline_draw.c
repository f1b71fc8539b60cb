/* window_timeline_draw.c - the timeline panel on screen: lanes, blocks,
 * sleeps, the axis, the step's figures and the tooltip, all overlay
 * rectangles and text (one draw call with the rest of the HUD). */
#include "window_timeline.h"

#include "app_grow.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const gfx_color PANEL = {0, 0, 0, 170};
static const gfx_color TEXT = {235, 238, 245, 255};
static const gfx_color DIM = {150, 158, 175, 255};
static const gfx_color WARN = {255, 196, 80, 255};
/* A lane: PANEL with white at alpha 16 over it, in one blend. */
static const gfx_color LANE = {23, 23, 23, 175};
static const gfx_color GRID = {255, 255, 255, 34};
static const gfx_color SLEEP = {128, 134, 148, 210};
static const gfx_color WALL = {255, 196, 80, 170};
static const gfx_color TIP_BG = {250, 244, 214, 255};
static const gfx_color TIP_TEXT = {24, 27, 36, 255};
static const gfx_color TIP_EDGE = {70, 74, 90, 255};

void window_timeline_record(window_timeline *t, const ecs_context *ctx, uint64_t step)
{
    if (t->frozen && t->data.valid) return; /* frozen before any step: on the first */
    if (window_tl_copy(&t->data, ctx, step))
        window_tl_scale_update(&t->scale, (double)t->data.wall_ns / 1e3);
}

void window_timeline_refit(window_timeline *t)
{
    if (t->data.valid) window_tl_scale_fit(&t->scale, (double)t->data.wall_ns / 1e3);
}

static gfx_color shade(gfx_color c, float f)
{
    return (gfx_color){(uint8_t)((float)c.r * f), (uint8_t)((float)c.g * f),
                       (uint8_t)((float)c.b * f), c.a};
}

/* Neighbours in a chain share its color: every other system is a shade
 * darker so that they stay apart in a lane. */
static gfx_color block_color(uint32_t system)
{
    return shade(window_hud_system_color(system), system % 2u ? 0.78f : 1.0f);
}

static void text_fit(gfx_renderer *r, float x, float y, float max_w, const char *s, gfx_color c)
{
    char buf[192];
    snprintf(buf, sizeof buf, "%s", s);
    size_t n = strlen(buf);
    while (n > 0 && gfx_text_width(r, buf) > max_w) buf[--n] = '\0';
    gfx_text(r, x, y, buf, c);
}

/* The two header lines: what is shown (and whether frozen), the legend,
 * then the step's figures. */
static void header(gfx_renderer *r, const window_timeline *t, const window_tl_layout *l)
{
    const window_tl_data *d = &t->data;
    const ecs_profile *p = &d->profile;
    char step[32], title[128], figures[192];
    window_hud_count(step, sizeof step, d->step);
    float s = l->scale, x = l->x + l->pad, max_w = l->w - 2.0f * l->pad;
    if (t->frozen) snprintf(title, sizeof title, "FROZEN at step %s (F resumes)", step);
    else snprintf(title, sizeof title, "Timeline of step %s by worker (F freezes)", step);
    float used = gfx_text_width(r, title);
    text_fit(r, x, l->title_y, max_w, title, t->frozen ? WARN : TEXT);

    /* The legend, right-aligned where it fits beside the title. */
    const char *sleep = "sleep", *finish = "finish", *idle = "empty: idle";
    float sw = l->line_h * 0.8f, gap = 14.0f * s;
    float legend = 2.0f * (sw + 4.0f * s) + gfx_text_width(r, sleep) + gfx_text_width(r, finish) +
                   gfx_text_width(r, idle) + 2.0f * gap;
    float lx = l->x + l->w - l->pad - legend, cy = l->title_y + l->line_h * 0.5f;
    if (lx > x + used + gap) {
        gfx_rect(r, lx, cy - 1.5f * s, sw, 3.0f * s, SLEEP);
        lx += sw + 4.0f * s;
        lx += gfx_text(r, lx, l->title_y, sleep, DIM) + gap;
        gfx_color fc = window_hud_system_color(0);
        gfx_rect(r, lx, cy - sw * 0.5f, sw, sw, shade(fc, 0.45f));
        gfx_frame(r, lx, cy - sw * 0.5f, sw, sw, 1.0f, fc);
        lx += sw + 4.0f * s;
        lx += gfx_text(r, lx, l->title_y, finish, DIM) + gap;
        gfx_text(r, lx, l->title_y, idle, DIM);
    }
    snprintf(figures, sizeof figures,
             "this step: wall %.3f ms   work %.3f ms   span %.3f ms   available %.2f   "
             "achieved %.2f",
             p->wall_ms, p->work_ms, p->span_ms, p->available, p->achieved);
    text_fit(r, x, l->figures_y, max_w, figures, DIM);
}

static void axis(gfx_renderer *r, const window_tl_layout *l, double full_us)
{
    double ticks[WINDOW_TL_MAX_TICKS];
    uint32_t n = window_tl_ticks(full_us, ticks);
    float s = l->scale, left = l->x + l->pad, right = l->x + l->w - l->pad;
    gfx_rect(r, l->t_x, l->axis_y, l->t_w, 1.0f, DIM);
    for (uint32_t i = 0; i < n; i++) {
        float x = floorf(window_tl_x(l, full_us, (uint64_t)(ticks[i] * 1e3)));
        gfx_rect(r, x, l->lanes_y, 1.0f, l->axis_y - l->lanes_y, GRID);
        gfx_rect(r, x, l->axis_y, 1.0f, 4.0f * s, DIM);
        /* Ticks are whole microseconds: the axis is at least 10 us wide. */
        char label[40];
        window_hud_count(label, sizeof label - 3u, (uint64_t)ticks[i]);
        if (i + 1u == n) strcat(label, " us");
        float w = gfx_text_width(r, label), tx = fminf(fmaxf(x - 0.5f * w, left), right - w);
        gfx_text(r, tx, l->axis_y + 4.0f * s, label, DIM);
    }
}

/* The panel's backdrop with the lanes in it, every pixel blended once:
 * software OpenGL pays for each blended pixel, and this is the panel's
 * largest area. */
static void backdrop(gfx_renderer *r, const window_tl_layout *l)
{
    float s = l->scale, x1 = l->x + l->w, t1 = l->t_x + l->t_w;
    gfx_rect(r, l->x, l->y, l->w, l->lanes_y - l->y, PANEL);
    gfx_rect(r, l->x, l->axis_y, l->w, l->y + l->h - l->axis_y, PANEL);
    gfx_rect(r, l->x, l->lanes_y, l->t_x - l->x, l->axis_y - l->lanes_y, PANEL);
    gfx_rect(r, t1, l->lanes_y, x1 - t1, l->axis_y - l->lanes_y, PANEL);
    for (uint32_t w = 0; w < l->lanes; w++) {
        float y = l->lanes_y + (float)w * l->lane_h;
        gfx_rect(r, l->t_x, y, l->t_w, s, PANEL);
        gfx_rect(r, l->t_x, y + s, l->t_w, l->lane_h - 2.0f * s, LANE);
        gfx_rect(r, l->t_x, y + l->lane_h - s, l->t_w, s, PANEL);
    }
}

static void lanes(gfx_renderer *r, const window_tl_data *d, const window_tl_layout *l,
                  double full_us)
{
    float s = l->scale;
    for (uint32_t w = 0; w < l->lanes; w++) {
        float y = l->lanes_y + (float)w * l->lane_h, ty = y + 0.5f * (l->lane_h - l->line_h);
        char label[32], busy[32];
        snprintf(label, sizeof label, w == 0 ? "w0 (main)" : "w%u", (unsigned)w);
        gfx_text(r, l->label_x, ty, label, TEXT);
        snprintf(busy, sizeof busy, "%3.0f%% busy", 100.0 * d->busy[w]);
        gfx_text(r, l->busy_x, ty, busy, TEXT);
    }
    float band = fmaxf(2.0f, 3.0f * s);
    for (uint32_t k = 0; k < d->sleep_count; k++) {
        const ecs_sleep *sl = &d->sleeps[k];
        if (sl->worker >= l->lanes) continue;
        float x0 = window_tl_x(l, full_us, sl->start_ns), x1 = window_tl_x(l, full_us, sl->end_ns);
        float y = l->lanes_y + ((float)sl->worker + 0.5f) * l->lane_h - 0.5f * band;
        gfx_rect(r, x0, y, fmaxf(1.0f, x1 - x0), band, SLEEP);
    }
}

/* Blocks a pixel apart where they are wide enough, so that a system's
 * subtasks on one worker read as several. Finish callbacks: dark with an
 * outline of their system's color. */
static void blocks(gfx_renderer *r, const window_tl_data *d, const window_tl_block *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const ecs_span *sp = &d->spans[b[i].span];
        gfx_color c = block_color(sp->system);
        float w = b[i].w >= 3.0f ? b[i].w - 1.0f : b[i].w;
        if (sp->subtask == ECS_SPAN_FINISH) {
            gfx_rect(r, b[i].x, b[i].y, w, b[i].h, shade(c, 0.45f));
            if (w >= 3.0f) gfx_frame(r, b[i].x, b[i].y, w, b[i].h, 1.0f, c);
        } else {
            gfx_rect(r, b[i].x, b[i].y, w, b[i].h, c);
        }
    }
}

/* The tooltip beside the pointer, kept inside the drawable; its box in tip. */
static void tooltip(gfx_renderer *r, const window_tl_data *d, uint32_t span, float mx, float my,
                    float s, int px_w, int px_h, float tip[4])
{
    char lines[WINDOW_TL_TIP_LINES][96];
    window_tl_tooltip(d, span, lines);
    float lh = gfx_line_height(r), pad = 6.0f * s, sw = lh * 0.6f, text_w = 0.0f;
    for (uint32_t i = 0; i < WINDOW_TL_TIP_LINES; i++)
        text_w = fmaxf(text_w, gfx_text_width(r, lines[i]) + (i == 0 ? sw + 6.0f * s : 0.0f));
    float w = text_w + 2.0f * pad, h = (float)WINDOW_TL_TIP_LINES * lh + 2.0f * pad;
    float x = mx + 14.0f * s, y = my + 18.0f * s;
    if (x + w > (float)px_w) x = mx - w - 8.0f * s;
    if (y + h > (float)px_h) y = my - h - 8.0f * s;
    x = fmaxf(0.0f, x);
    y = fmaxf(0.0f, y);
    gfx_rect(r, x, y, w, h, TIP_BG);
    gfx_frame(r, x, y, w, h, 1.0f, TIP_EDGE);
    const ecs_span *sp = &d->spans[span];
    gfx_rect(r, x + pad, y + pad + 0.5f * (lh - sw), sw, sw, block_color(sp->system));
    gfx_text(r, x + pad + sw + 6.0f * s, y + pad, lines[0], TIP_TEXT);
    for (uint32_t i = 1; i < WINDOW_TL_TIP_LINES; i++)
        gfx_text(r, x + pad, y + pad + (float)i * lh, lines[i], TIP_TEXT);
    tip[0] = x, tip[1] = y, tip[2] = w, tip[3] = h;
}

/* Shown, with no room: one dim line at the bottom right, on the row of
 * the "H: help" line, right of it, on a backdrop like it; not where the
 * lens is. */
static void no_room(gfx_renderer *r, const window_hud_layout *hud, bool lens, int px_w)
{
    const char *msg = "timeline (T): no room in this window";
    float pad = 3.0f * hud->scale, w = gfx_text_width(r, msg), x = (float)px_w - hud->x - w;
    if (!(lens && hud->lens_side > 0.0f) && x - pad > window_hud_hint_end(r, hud) + hud->x) {
        gfx_rect(r, x - pad, hud->hint_y, w + 2.0f * pad, hud->line_h, PANEL);
        gfx_text(r, x, hud->hint_y, msg, DIM);
    }
}

int window_timeline_draw(window_timeline *t, gfx_renderer *r, const window_hud_layout *hud,
                         bool lens, float mouse_x, float mouse_y, int px_w, int px_h, bool last)
{
    window_tl_layout l = {0};
    int32_t hover = -1;
    float tip[4] = {0};
    double full = t->scale.full_us;
    t->drawn = 0;
    memset(t->box, 0, sizeof t->box);
    if (t->shown && t->data.valid) {
        window_tl_metrics m = {gfx_line_height(r),
                               fmaxf(gfx_text_width(r, "w0 (main)"), gfx_text_width(r, "w99")),
                               gfx_text_width(r, "100% busy")};
        l = window_tl_layout_fit(hud, lens, &m, t->data.workers, px_w, px_h);
        if (!l.fits) no_room(r, hud, lens, px_w);
        if (l.fits && app_reserve((void **)&t->blocks, &t->block_cap, t->data.span_count,
                                          sizeof *t->blocks)) {
            uint32_t n = window_tl_blocks(&l, &t->data, full, t->blocks);
            backdrop(r, &l);
            header(r, t, &l);
            lanes(r, &t->data, &l, full);
            axis(r, &l, full);
            blocks(r, &t->data, t->blocks, n);
            float wall = window_tl_x(&l, full, t->data.wall_ns);
            gfx_rect(r, floorf(wall), l.lanes_y, 1.0f, l.axis_y - l.lanes_y + 4.0f * l.scale, WALL);
            t->drawn = n;
            memcpy(t->box, (float[4]){l.x, l.y, l.w, l.h}, sizeof t->box);
            int32_t b = window_tl_hit(t->blocks, n, mouse_x, mouse_y);
            if (b >= 0) {
                hover = (int32_t)t->blocks[b].span;
                tooltip(r, &t->data, t->blocks[b].span, mouse_x, mouse_y, l.scale, px_w, px_h,
                        tip);
            }
        }
    }
    if (t->report_path && (t->frozen || last))
        return window_tl_report_write(t, &l, full, hover, tip);
    return 0;
}
