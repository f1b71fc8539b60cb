/* window_hud.c - what the HUD shows and where. */
#include "window_hud.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const gfx_color TEXT = {235, 238, 245, 255};
static const gfx_color DIM = {150, 158, 175, 255};
static const gfx_color PANEL = {0, 0, 0, 170};
static const gfx_color WARN = {255, 196, 80, 255};
/* Bar colors by chain: the movement/collision chain, the life chain, and
 * render, where the two meet. */
/* The magnified cell: a square of LENS_PX window pixels showing LENS_CELLS
 * cells across. */
#define LENS_PX 280.0f
#define LENS_CELLS 7.0f

static const gfx_color CHAIN_MAIN = {90, 160, 255, 255};
static const gfx_color CHAIN_LIFE = {255, 150, 60, 255};
static const gfx_color CHAIN_JOIN = {190, 120, 255, 255};

static gfx_color chain_color(uint32_t system)
{
    switch (system) {
    case SIM_S_LIFE:
    case SIM_S_FADE: return CHAIN_LIFE;
    case SIM_S_RENDER: return CHAIN_JOIN;
    default: return CHAIN_MAIN;
    }
}

/* 1234567 as "1 234 567". */
static const char *count_text(char *buf, size_t size, uint64_t n)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n);
    size_t o = 0;
    for (int i = 0; i < len && o + 2 < size; i++) {
        if (i > 0 && (len - i) % 3 == 0) buf[o++] = ' ';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

typedef struct pen {
    gfx_renderer *r;
    float x, y, line, scale;
} pen;

static void line(pen *p, gfx_color c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void line(pen *p, gfx_color c, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    gfx_text(p->r, p->x, p->y, buf, c);
    p->y += p->line;
}

static float nice_scale(double max_ms)
{
    static const float steps[] = {0.1f, 0.2f, 0.5f, 1.0f, 2.0f, 5.0f, 10.0f, 20.0f, 50.0f, 100.0f,
                                  200.0f, 500.0f, 1000.0f};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (max_ms <= steps[i]) return steps[i];
    return (float)max_ms;
}

/* Nine bars: ms per frame of each system, averaged over the last second. */
static void system_chart(pen *p, const window_hud *h)
{
    const window_span *s = window_stats_shown(h->stats);
    double ms[SIM_SYSTEM_COUNT], max = 0.0;
    for (uint32_t i = 0; i < SIM_SYSTEM_COUNT; i++) {
        ms[i] = window_span_system_ms(s, i);
        if (ms[i] > max) max = ms[i];
    }
    float full = nice_scale(max);
    line(p, DIM, "ms per step by system, last second (bar = %g ms)", full);
    float label_w = 0.0f;
    for (uint32_t i = 0; i < SIM_SYSTEM_COUNT; i++) {
        float w = gfx_text_width(p->r, h->system_names[i]);
        if (w > label_w) label_w = w;
    }
    float bar_x = p->x + label_w + 8.0f * p->scale, bar_w = 200.0f * p->scale;
    float bar_h = p->line * 0.7f;
    for (uint32_t i = 0; i < SIM_SYSTEM_COUNT; i++) {
        gfx_text(p->r, p->x + label_w - gfx_text_width(p->r, h->system_names[i]), p->y,
                 h->system_names[i], TEXT);
        float y = p->y + (p->line - bar_h) * 0.5f;
        gfx_rect(p->r, bar_x, y, bar_w, bar_h, (gfx_color){255, 255, 255, 28});
        float w = full > 0.0f ? (float)(ms[i] / full) * bar_w : 0.0f;
        gfx_rect(p->r, bar_x, y, w < bar_w ? w : bar_w, bar_h, chain_color(i));
        char v[32];
        snprintf(v, sizeof v, "%.3f", ms[i]);
        gfx_text(p->r, bar_x + bar_w + 6.0f * p->scale, p->y, v, TEXT);
        p->y += p->line;
    }
    float x = p->x;
    const struct { gfx_color c; const char *name; } keys[] = {
        {CHAIN_MAIN, "move & collide"}, {CHAIN_LIFE, "life & fade"}, {CHAIN_JOIN, "render"}};
    for (size_t k = 0; k < 3; k++) {
        gfx_rect(p->r, x, p->y + p->line * 0.3f, p->line * 0.5f, p->line * 0.5f, keys[k].c);
        x += p->line * 0.7f;
        x += gfx_text(p->r, x, p->y, keys[k].name, DIM) + 14.0f * p->scale;
    }
    p->y += p->line;
}

static void figures(pen *p, const window_hud *h)
{
    const window_span *s = window_stats_shown(h->stats);
    char a[32], c[32], lim[32];
    double prep = window_span_mean(s, s->prepare_ms), up = window_span_mean(s, s->upload_ms),
           draw = window_span_mean(s, s->draw_ms);
    line(p, TEXT, "%s particles   wave %u   frame %llu%s", count_text(a, sizeof a, h->alive),
         (unsigned)h->wave, (unsigned long long)h->frame, h->paused ? "   PAUSED" : "");
    line(p, TEXT, "%.1f fps   step %.2f ms   render %.2f ms", window_span_fps(s),
         window_span_step_ms(s), prep + up + draw);
    line(p, DIM, "render = prepare %.2f + upload %.2f + draw %.2f ms", prep, up, draw);
    line(p, TEXT, "contacts %s (%s)   workers %u of %u   inner parallelism %s",
         count_text(c, sizeof c, h->contacts), h->kernel ? h->kernel : "?",
         (unsigned)h->workers, (unsigned)h->max_workers, h->ip_on ? "ON" : "off");
    if (h->storage == ECS_STORAGE_FIXED)
        line(p, DIM, "storage fixed (limit %s)   draw %s   vsync %s",
             count_text(lim, sizeof lim, h->fixed_limit),
             h->draw == GFX_DRAW_POINTS ? "points" : "quads", h->vsync_on ? "on" : "off");
    else
        line(p, DIM, "storage dynamic   draw %s   vsync %s",
             h->draw == GFX_DRAW_POINTS ? "points" : "quads", h->vsync_on ? "on" : "off");
}

static const char *const HELP[][2] = {
    {"H", "show / hide this help"},
    {"I", "inner parallelism on / off (live)"},
    {"+ / -", "one worker more / fewer (live)"},
    {"Space", "pause / resume"},
    {"N", "one frame while paused"},
    {"R", "new wave"},
    {"G", "grid cell under the mouse, magnified"},
    {"left mouse", "spray particles"},
    {"S", "save a screenshot (PNG, current directory)"},
    {"Esc", "quit"},
};

#define HELP_ROWS (sizeof HELP / sizeof HELP[0])

window_hud_layout window_hud_layout_of(const gfx_renderer *r, bool help, int px_w, int px_h,
                                       float scale)
{
    float lh = gfx_line_height(r), gap = 12.0f * scale, pad = 10.0f * scale;
    window_hud_layout l = {.scale = scale};
    l.x = gap;
    l.y = gap;
    l.hint_y = (float)px_h - gap - lh;
    l.w = 470.0f * scale;
    l.h = lh * (5.0f + 1.0f + SIM_SYSTEM_COUNT + 1.0f) + 2.0f * pad;
    l.help_w = 460.0f * scale;
    l.help_h = lh * (float)(HELP_ROWS + 2u) + 28.0f * scale;
    float beside = l.x + l.w + gap, right = (float)px_w - gap;
    l.help_in_place = help && beside + l.help_w > right;
    l.help_x = l.help_in_place ? l.x : fmaxf(beside, right - l.help_w);
    l.help_y = l.y;
    /* The lens and its two-line caption: right of the figures, below the
     * help when it shows there. */
    float top = help && !l.help_in_place ? l.help_y + l.help_h + gap : gap;
    float caption = 2.0f * lh + 10.0f * scale;
    float side = fminf(LENS_PX * scale, fminf(right - beside, (float)px_h - gap - top - caption));
    if (side >= 96.0f * scale) {
        l.lens_side = side;
        l.lens_x = right - side;
        l.lens_y = (float)px_h - gap - side;
    }
    return l;
}

static void help_panel(gfx_renderer *r, const window_hud_layout *l)
{
    float lh = gfx_line_height(r), pad = 14.0f * l->scale, key_w = 110.0f * l->scale;
    gfx_rect(r, l->help_x, l->help_y, l->help_w, l->help_h, PANEL);
    pen p = {r, l->help_x + pad, l->help_y + pad, lh, l->scale};
    line(&p, TEXT, "Controls");
    p.y += lh * 0.5f;
    for (size_t i = 0; i < HELP_ROWS; i++) {
        gfx_text(r, p.x, p.y, HELP[i][0], WARN);
        gfx_text(r, p.x + key_w, p.y, HELP[i][1], TEXT);
        p.y += lh;
    }
}

void window_hud_draw(gfx_renderer *r, const window_hud *h, const window_hud_layout *l)
{
    float lh = gfx_line_height(r), pad = 10.0f * l->scale;
    if (h->help) help_panel(r, l);
    if (!h->help || !l->help_in_place) {
        gfx_rect(r, l->x, l->y, l->w, l->h, PANEL);
        pen p = {r, l->x + pad, l->y + pad, lh, l->scale};
        figures(&p, h);
        system_chart(&p, h);
    }
    const char *hint = h->help ? "H hides the help" : "H: help";
    gfx_text(r, l->x, l->hint_y, hint, DIM);
    if (h->notice) gfx_text(r, l->x, l->hint_y - lh, h->notice, WARN);
}

void window_hud_cell_rect(const sim_grid_layout *g, uint32_t cell, float out[4])
{
    uint32_t cx = cell % g->cols, cy = cell / g->cols;
    out[0] = cx == 0 ? -FLT_MAX : (float)cx * g->cell_size;
    out[1] = cy == 0 ? -FLT_MAX : (float)cy * g->cell_size;
    out[2] = cx + 1u == g->cols ? FLT_MAX : (float)(cx + 1u) * g->cell_size;
    out[3] = cy + 1u == g->rows ? FLT_MAX : (float)(cy + 1u) * g->cell_size;
}

/* Outlines a cell in the main view (lens NULL) or through the lens. */
static void outline_cell(gfx_renderer *r, const gfx_lens *lens, const sim_grid_layout *g, int cx,
                         int cy, float ww, float wh, float t, gfx_color c)
{
    if (cx < 0 || cy < 0 || cx >= (int)g->cols || cy >= (int)g->rows) return;
    float x0 = (float)cx * g->cell_size, y0 = (float)cy * g->cell_size;
    float x1 = x0 + g->cell_size, y1 = y0 + g->cell_size;
    if (x1 > ww) x1 = ww;
    if (y1 > wh) y1 = wh;
    float px0, py0, px1, py1;
    if (lens) {
        gfx_lens_to_pixel(lens, x0, y0, &px0, &py0);
        gfx_lens_to_pixel(lens, x1, y1, &px1, &py1);
    } else {
        gfx_world_to_pixel(r, x0, y0, &px0, &py0);
        gfx_world_to_pixel(r, x1, y1, &px1, &py1);
    }
    gfx_frame(r, px0, py0, px1 - px0, py1 - py0, t, c);
}

/* The cell, bright, and fainter the four cells the broadphase tests it
 * against (the next one and the three below: each pair is found once). */
static void outline_neighbourhood(gfx_renderer *r, const gfx_lens *lens, const sim_grid_layout *g,
                                  uint32_t cell, float ww, float wh, float t)
{
    int cx = (int)(cell % g->cols), cy = (int)(cell / g->cols);
    const gfx_color faint = {255, 235, 64, 110};
    outline_cell(r, lens, g, cx + 1, cy, ww, wh, t, faint);
    for (int dx = -1; dx <= 1; dx++) outline_cell(r, lens, g, cx + dx, cy + 1, ww, wh, t, faint);
    outline_cell(r, lens, g, cx, cy, ww, wh, t, (gfx_color){255, 235, 64, 255});
}

void window_hud_cell(gfx_renderer *r, const window_hud_cell_view *v, const window_hud_layout *l)
{
    const sim_grid_layout *g = v->grid;
    outline_neighbourhood(r, NULL, g, v->cell, v->world_w, v->world_h, 1.0f);
    if (l->lens_side <= 0.0f) return;

    /* The lens: LENS_CELLS cells around this one. */
    float side = l->lens_side, half = 0.5f * LENS_CELLS * g->cell_size;
    float cx = ((float)(v->cell % g->cols) + 0.5f) * g->cell_size;
    float cy = ((float)(v->cell / g->cols) + 0.5f) * g->cell_size;
    gfx_lens lens = {cx - half, cy - half, cx + half, cy + half, l->lens_x, l->lens_y, side, side};
    gfx_draw_lens(r, &lens);
    outline_neighbourhood(r, &lens, g, v->cell, v->world_w, v->world_h, 2.0f * l->scale);
    gfx_frame(r, lens.px - 2.0f, lens.py - 2.0f, side + 4.0f, side + 4.0f, 2.0f, DIM);

    /* The caption: as wide as the lens, or as its longer line where the
     * lens is narrower (a small window), kept flush with the lens's right
     * edge, which is the window's margin. */
    static const char tested[] = "tested against the 4 faint cells";
    char buf[96];
    snprintf(buf, sizeof buf, "cell %u, %u: %u particle%s", (unsigned)(v->cell % g->cols),
             (unsigned)(v->cell / g->cols), (unsigned)v->count, v->count == 1 ? "" : "s");
    float pad = 4.0f * l->scale;
    float text_w = fmaxf(gfx_text_width(r, buf), gfx_text_width(r, tested)) + 2.0f * pad;
    float w = fmaxf(side + 4.0f, text_w), x = lens.px + side + 2.0f - w;
    float lh = gfx_line_height(r), y = lens.py - 2.0f * lh - 6.0f * l->scale;
    gfx_rect(r, x, y - pad, w, 2.0f * lh + 6.0f * l->scale, PANEL);
    gfx_text(r, x + pad, y, buf, TEXT);
    gfx_text(r, x + pad, y + lh, tested, DIM);
}
