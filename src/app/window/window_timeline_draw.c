/* window_timeline_draw.c - the timeline panel on screen: the step
 * history's bars, lanes, blocks, sleeps, wake-up delays, the axis, the
 * step's figures, the busy machine's line and the tooltip, all overlay
 * rectangles and text (one draw call with the rest of the HUD); and what
 * the keys and a click on a bar pick. */
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
static const gfx_color WOKEN = {240, 70, 60, 235};
static const gfx_color WALL = {255, 196, 80, 170};
static const gfx_color TIP_BG = {250, 244, 214, 255};
static const gfx_color TIP_TEXT = {24, 27, 36, 255};
static const gfx_color TIP_EDGE = {70, 74, 90, 255};
/* The wake-up delay: a faint band hatched with brighter strokes. */
static const gfx_color WAKE = {255, 255, 255, 22};
static const gfx_color WAKE_HATCH = {255, 255, 255, 60};
/* The step history's bars; the step shown; one past the axis's width. */
static const gfx_color BAR = {120, 150, 200, 200};
static const gfx_color BAR_SHOWN = {255, 255, 255, 255};
static const gfx_color BAR_OVER = {255, 196, 80, 200};

const window_tl_data *window_timeline_shown_step(const window_timeline *t)
{
    return window_tl_history_back(&t->history, t->back);
}

void window_timeline_record(window_timeline *t, const ecs_context *ctx, uint64_t step)
{
    if (t->frozen && window_timeline_shown_step(t)) return; /* frozen before any step: on the first */
    window_tl_data *d = window_tl_history_next(&t->history);
    if (!d || !window_tl_copy(d, ctx, step)) return;
    window_tl_history_keep(&t->history);
    window_tl_scale_update(&t->scale, (double)d->wall_ns / 1e3);
}

void window_timeline_refit(window_timeline *t)
{
    const window_tl_data *d = window_timeline_shown_step(t);
    if (d) window_tl_scale_fit(&t->scale, (double)d->wall_ns / 1e3);
}

/* Following the steps again: from the next one, so that the history
 * holds consecutive steps. */
static void follow(window_timeline *t)
{
    t->frozen = false;
    t->back = 0;
    window_tl_history_restart(&t->history);
}

void window_timeline_freeze(window_timeline *t)
{
    if (t->frozen) follow(t);
    else t->frozen = true;
}

void window_timeline_pick(window_timeline *t, int32_t older)
{
    if (!t->frozen) return;
    int64_t back = (int64_t)t->back + older;
    if (back >= 0 && window_tl_history_back(&t->history, (uint32_t)back)) t->back = (uint32_t)back;
}

bool window_timeline_click(window_timeline *t, float px, float py)
{
    if (!t->shown) return false;
    int32_t back = window_tl_strip_hit(&t->drawn_at, t->history.count, px, py);
    if (back < 0) return false;
    if (!window_tl_history_back(&t->history, (uint32_t)back)) return true; /* a lost step */
    if (back == 0 && t->frozen) {
        follow(t);
    } else {
        t->frozen = back > 0;
        t->back = (uint32_t)back;
    }
    return true;
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

/* The wake-up delay's band: faint, with a bright stroke every few pixels. */
static void hatch(gfx_renderer *r, float x, float y, float w, float h, float s)
{
    if (w < 1.0f) return;
    gfx_rect(r, x, y, w, h, WAKE);
    for (float hx = x + 2.0f * s; hx < x + w; hx += 5.0f * s)
        gfx_rect(r, hx, y, fminf(s, x + w - hx), h, WAKE_HATCH);
}

static void figures_line(gfx_renderer *r, const window_tl_data *d, const window_tl_layout *l)
{
    const ecs_profile *p = &d->profile;
    char figures[192];
    snprintf(figures, sizeof figures,
             "this step: wall %.3f ms   work %.3f ms   span %.3f ms   available %.2f   "
             "achieved %.2f",
             p->wall_ms, p->work_ms, p->span_ms, p->available, p->achieved);
    window_hud_text(r, l->x + l->pad, l->figures_y, l->w - 2.0f * l->pad, figures, DIM);
}

/* The two header lines: what is shown (and whether frozen), the legend,
 * then the step's figures. */
static void header(gfx_renderer *r, const window_timeline *t, const window_tl_data *d,
                   const window_tl_layout *l)
{
    char step[32], title[128];
    window_hud_count(step, sizeof step, d->step);
    float s = l->scale, x = l->x + l->pad, max_w = l->w - 2.0f * l->pad;
    if (t->frozen && t->back)
        snprintf(title, sizeof title, "FROZEN at step %s, %u back (Left/Right pick, F resumes)",
                 step, (unsigned)t->back);
    else if (t->frozen)
        snprintf(title, sizeof title, "FROZEN at step %s (Left/Right pick, F resumes)", step);
    else snprintf(title, sizeof title, "Timeline of step %s by worker (F freezes)", step);
    float used = gfx_text_width(r, title);
    window_hud_text(r, x, l->title_y, max_w, title, t->frozen ? WARN : TEXT);

    /* A busy machine's line, else the legend, right-aligned where it fits
     * beside the title. */
    window_tl_machine mach = window_tl_machine_of(d);
    if (mach.busy) {
        char line[96];
        window_tl_machine_line(&mach, line, sizeof line);
        float w = gfx_text_width(r, line), mx = l->x + l->w - l->pad - w;
        if (mx < x + used + 14.0f * s) mx = x + used + 14.0f * s;
        window_hud_text(r, mx, l->title_y, l->x + l->w - l->pad - mx, line, WARN);
        figures_line(r, d, l);
        return;
    }
    const char *sleep = "sleep / woken", *finish = "finish", *idle = "empty: idle",
               *wake = "wake-up";
    float sw = l->line_h * 0.8f, gap = 14.0f * s;
    float legend = 3.0f * (sw + 4.0f * s) + gfx_text_width(r, sleep) + gfx_text_width(r, finish) +
                   gfx_text_width(r, wake) + gfx_text_width(r, idle) + 3.0f * gap;
    float lx = l->x + l->w - l->pad - legend, cy = l->title_y + l->line_h * 0.5f;
    if (lx > x + used + gap) {
        gfx_rect(r, lx, cy - 1.5f * s, 0.5f * sw, 3.0f * s, SLEEP);
        gfx_rect(r, lx + 0.5f * sw, cy - 1.5f * s, 0.5f * sw, 3.0f * s, WOKEN);
        lx += sw + 4.0f * s;
        lx += gfx_text(r, lx, l->title_y, sleep, DIM) + gap;
        gfx_color fc = window_hud_system_color(0);
        gfx_rect(r, lx, cy - sw * 0.5f, sw, sw, shade(fc, 0.45f));
        gfx_frame(r, lx, cy - sw * 0.5f, sw, sw, 1.0f, fc);
        lx += sw + 4.0f * s;
        lx += gfx_text(r, lx, l->title_y, finish, DIM) + gap;
        hatch(r, lx, cy - sw * 0.5f, sw, sw, s);
        lx += sw + 4.0f * s;
        lx += gfx_text(r, lx, l->title_y, wake, DIM) + gap;
        gfx_text(r, lx, l->title_y, idle, DIM);
    }
    figures_line(r, d, l);
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
        char label[32], busy[64], wake[32];
        snprintf(label, sizeof label, w == 0 ? "w0 (main)" : "w%u", (unsigned)w);
        gfx_text(r, l->label_x, ty, label, TEXT);
        window_tl_wake wk = window_tl_wake_of(d, w);
        window_tl_wake_text(&wk, wake, sizeof wake);
        snprintf(busy, sizeof busy, "%3.0f%% busy  %s", 100.0 * d->busy[w], wake);
        gfx_text(r, l->busy_x, ty, busy, TEXT);
        if (wk.ran) /* the lane's inner band, as the blocks sit in it */
            hatch(r, l->t_x, y + 2.0f * s, window_tl_x(l, full_us, wk.delay_ns) - l->t_x,
                  l->lane_h - 4.0f * s, s);
    }
    float band = fmaxf(2.0f, 3.0f * s);
    for (uint32_t k = 0; k < d->sleep_count; k++) {
        const ecs_sleep *sl = &d->sleeps[k];
        if (sl->worker >= l->lanes) continue;
        float x0 = window_tl_x(l, full_us, sl->start_ns), x1 = window_tl_x(l, full_us, sl->end_ns);
        float xw = window_tl_x(l, full_us, sl->woken_ns);
        float y = l->lanes_y + ((float)sl->worker + 0.5f) * l->lane_h - 0.5f * band;
        gfx_rect(r, x0, y, fmaxf(1.0f, xw - x0), band, SLEEP);
        if (x1 - xw >= 1.0f) gfx_rect(r, xw, y, x1 - xw, band, WOKEN); /* runnable, not running */
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

/* The step history: a bar per step, its height its wall time against the
 * axis's width (longer ones full height, in orange), the step shown
 * white, framed when picked. */
static void strip(gfx_renderer *r, const window_timeline *t, const window_tl_layout *l,
                  double full_us)
{
    float box[4];
    for (uint32_t b = 0; b < t->history.count; b++) {
        const window_tl_data *d = window_tl_history_back(&t->history, b);
        if (!d) continue;
        double us = (double)d->wall_ns / 1e3;
        window_tl_strip_bar(l, b, us, full_us, box);
        gfx_color c = b == t->back ? BAR_SHOWN : us > full_us ? BAR_OVER : BAR;
        gfx_rect(r, box[0], box[1], box[2], box[3], c);
        if (b == t->back && t->frozen) /* the step picked, framed the strip's height */
            gfx_frame(r, box[0] - 2.0f, l->strip_y - 1.0f, box[2] + 4.0f, l->strip_h + 2.0f, 1.0f,
                      BAR_SHOWN);
    }
    gfx_rect(r, l->t_x, l->strip_y + l->strip_h, l->t_w, 1.0f, GRID);
    float ty = l->strip_y + 0.5f * (l->strip_h - l->line_h);
    gfx_text(r, l->label_x, ty, "steps", DIM);
    char n[40];
    snprintf(n, sizeof n, "last %u", (unsigned)t->history.count);
    gfx_text(r, l->busy_x, ty, n, DIM);
}

window_tl_layout window_timeline_place(const window_timeline *t, const gfx_renderer *r,
                                       const window_hud_layout *hud, bool lens, int px_w,
                                       int px_h)
{
    const window_tl_data *d = window_timeline_shown_step(t);
    if (!t->shown || !d) return (window_tl_layout){0};
    window_tl_metrics m = {gfx_line_height(r),
                           fmaxf(gfx_text_width(r, "w0 (main)"), gfx_text_width(r, "w99")),
                           gfx_text_width(r, "100% busy  wake 9.99 ms")};
    return window_tl_layout_fit(hud, lens, &m, d->workers, px_w, px_h);
}

int window_timeline_draw(window_timeline *t, gfx_renderer *r, const window_hud_layout *hud,
                         bool lens, const window_tl_layout *at, float mouse_x, float mouse_y,
                         int px_w, int px_h, bool last)
{
    window_tl_layout l = {0};
    int32_t hover = -1;
    float tip[4] = {0};
    double full = t->scale.full_us;
    const window_tl_data *d = window_timeline_shown_step(t);
    t->drawn = 0;
    if (t->shown && d) {
        l = *at;
        if (!l.fits) no_room(r, hud, lens, px_w);
        if (l.fits && app_reserve((void **)&t->blocks, &t->block_cap, d->span_count,
                                          sizeof *t->blocks)) {
            uint32_t n = window_tl_blocks(&l, d, full, t->blocks);
            backdrop(r, &l);
            header(r, t, d, &l);
            strip(r, t, &l, full);
            lanes(r, d, &l, full);
            axis(r, &l, full);
            blocks(r, d, t->blocks, n);
            float wall = window_tl_x(&l, full, d->wall_ns);
            gfx_rect(r, floorf(wall), l.lanes_y, 1.0f, l.axis_y - l.lanes_y + 4.0f * l.scale, WALL);
            t->drawn = n;
            int32_t b = window_tl_hit(t->blocks, n, mouse_x, mouse_y);
            if (b >= 0) {
                hover = (int32_t)t->blocks[b].span;
                tooltip(r, d, t->blocks[b].span, mouse_x, mouse_y, l.scale, px_w, px_h, tip);
            }
        } else {
            l.fits = false;
        }
    }
    t->drawn_at = l;
    if (t->report_path && (t->frozen || last))
        return window_tl_report_write(t, &l, full, hover, tip);
    return 0;
}
