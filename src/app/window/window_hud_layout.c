/* window_hud_layout.c - where the HUD's panels go, the chart's scale, and
 * how the HUD writes numbers. */
#include "window_hud.h"

#include <math.h>
#include <stdio.h>

/* The panels' widths at scale 1, window pixels. */
#define FIGURES_W 470.0f
#define HELP_W 460.0f
/* The magnified cell: at most LENS_PX window pixels square, at least LENS_MIN_PX. */
#define LENS_PX 280.0f
#define LENS_MIN_PX 96.0f
/* The help panel: its title, half a line, the keys, half a line. */
#define HELP_EXTRA_LINES 2.0f
/* The lens caption's two lines: the cell and its count, and what the
 * faint cells are (the longer). */
#define CAPTION_TESTED "tested against the 4 faint cells"
#define CAPTION_CELL "cell 8888, 8888: 888 888 particles"

static uint32_t lines_in(float height, float line_h, uint32_t most)
{
    if (!(height >= line_h)) return 0;
    float n = floorf(height / line_h);
    return n >= (float)most ? most : (uint32_t)n;
}

/* The lens in the bottom-right corner, right of `beside`, below `top`,
 * with its caption panel above it; no lens where either does not fit. */
static void place_lens(window_hud_layout *l, float caption_w, float beside, float top,
                       float right, float bottom)
{
    float s = l->scale, cap_pad = 4.0f * s, cap_h = 2.0f * l->line_h + 6.0f * s;
    float caption = cap_h + cap_pad;
    float side = fminf(LENS_PX * s, fminf(right - beside, bottom - top - caption));
    float cap_w = fmaxf(side + 4.0f, caption_w + 2.0f * cap_pad);
    /* The frame drawn around the lens reaches 2 pixels outside it. */
    if (side < LENS_MIN_PX * s || right + 2.0f - cap_w < beside) return;
    l->lens_side = side;
    l->lens_x = right - side;
    l->lens_y = bottom - side;
    l->cap_w = cap_w;
    l->cap_x = l->lens_x + side + 2.0f - cap_w;
    l->cap_y = l->lens_y - caption;
    l->cap_h = cap_h;
}

window_hud_layout window_hud_layout_fit(float line_h, float caption_w, bool help, int px_w,
                                        int px_h, float scale)
{
    float w = (float)(px_w > 0 ? px_w : 0), h = (float)(px_h > 0 ? px_h : 0);
    /* Margins shrink with a tiny drawable so that a line still fits. */
    float gap = fminf(12.0f * scale, fmaxf(2.0f, floorf(fminf(w, h) / 50.0f)));
    window_hud_layout l = {.scale = scale, .line_h = line_h};
    l.pad = fminf(10.0f * scale, gap);
    l.help_pad = fminf(14.0f * scale, gap);
    l.x = l.y = gap;
    l.hint_y = h - gap - line_h;
    l.notice_y = l.hint_y - line_h;
    float right = w - gap, bottom = l.notice_y - gap; /* the panels end above the notice */
    l.w = fmaxf(0.0f, fminf(FIGURES_W * scale, right - l.x));
    l.line_w = l.w;
    l.chart_fits = l.w >= FIGURES_W * scale;
    /* Too narrow for the chart, the panel holds the figure lines only. */
    l.rows = lines_in(bottom - l.y - 2.0f * l.pad, line_h,
                      WINDOW_HUD_FIGURE_LINES + (l.chart_fits ? WINDOW_HUD_CHART_LINES : 0u));
    l.h = l.rows ? (float)l.rows * line_h + 2.0f * l.pad : 0.0f;
    if (l.rows == 0) l.w = 0.0f;

    l.help_w = fmaxf(0.0f, fminf(HELP_W * scale, right - l.x));
    float beside = l.x + fminf(FIGURES_W * scale, right - l.x) + gap;
    l.help_in_place = help && beside + l.help_w > right;
    l.help_x = l.help_in_place ? l.x : fmaxf(beside, right - l.help_w);
    l.help_y = l.y;
    float keys = bottom - l.help_y - 2.0f * l.help_pad - HELP_EXTRA_LINES * line_h;
    l.help_rows = help ? lines_in(keys, line_h, WINDOW_HUD_HELP_ROWS) : 0;
    l.help_h = l.help_rows ? ((float)l.help_rows + HELP_EXTRA_LINES) * line_h + 2.0f * l.help_pad
                           : 0.0f;
    float top = l.help_rows && !l.help_in_place ? l.help_y + l.help_h + gap : gap;
    place_lens(&l, caption_w, beside, top, right, h - gap);
    return l;
}

window_hud_layout window_hud_layout_of(const gfx_renderer *r, bool help, int px_w, int px_h,
                                       float scale)
{
    float cap = fmaxf(gfx_text_width(r, CAPTION_TESTED), gfx_text_width(r, CAPTION_CELL));
    return window_hud_layout_fit(gfx_line_height(r), cap, help, px_w, px_h, scale);
}

double window_hud_bar_scale(double max_ms)
{
    if (!(max_ms > 0.1)) return 0.1;
    double decade = pow(10.0, floor(log10(max_ms)));
    static const double steps[] = {1.0, 2.0, 5.0, 10.0};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (max_ms <= steps[i] * decade) return steps[i] * decade;
    return 10.0 * decade; /* log10 rounded down a hair: the next decade */
}

const char *window_hud_count(char *buf, size_t size, uint64_t n)
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

bool window_hud_view_warning(const gfx_view *v, float world_w, float world_h, char *buf,
                             size_t size)
{
    if (v->w >= 1.0f && v->h >= 1.0f) return false;
    char ws[32], hs[32];
    window_hud_count(ws, sizeof ws, (uint64_t)world_w);
    window_hud_count(hs, sizeof hs, (uint64_t)world_h);
    bool thin = v->w < v->h;
    snprintf(buf, size, "the world (%s x %s) is %.2g px %s here: too %s to draw", ws, hs,
             (double)(thin ? v->w : v->h), thin ? "wide" : "tall", thin ? "thin" : "flat");
    return true;
}

bool window_hud_behind(const window_span *s, double rate, char *buf, size_t size)
{
    if (!s || !s->dropped || rate <= 0.0) return false;
    char dropped[32];
    snprintf(buf, size, "behind: %.1f steps/s of the %g set, %s steps dropped in the last second "
             "(this machine cannot keep up)", window_span_steps_per_s(s), rate,
             window_hud_count(dropped, sizeof dropped, s->dropped));
    return true;
}

uint32_t window_hud_figure_count(bool warning)
{
    return WINDOW_HUD_FIGURE_LINES - (warning ? 0u : 1u);
}

/* The chart comes after every figure line and its title, and only when
 * the panel has room for all of them (window_hud_draw). */
float window_hud_chart_row0(const window_hud_layout *l, bool help, uint32_t figures)
{
    if ((help && l->help_in_place) || !l->chart_fits || l->rows < figures + WINDOW_HUD_CHART_LINES)
        return -1.0f;
    return l->y + l->pad + (float)(figures + 1u) * l->line_h;
}

int window_hud_system_at(const window_hud_layout *l, bool help, uint32_t figures, float x,
                         float y)
{
    float top = window_hud_chart_row0(l, help, figures);
    if (top < 0.0f || x < l->x || x >= l->x + l->w || y < top) return -1;
    float row = (y - top) / l->line_h;
    return row < (float)SIM_SYSTEM_COUNT ? (int)row : -1;
}

/* Box (x, y, w, h; w 0: none) shares columns with b. */
static bool shares_columns(const float box[4], const window_hud_box *b)
{
    return box[2] > 0.0f && box[0] < b->x + b->w && b->x < box[0] + box[2];
}

window_hud_box window_hud_side_place(const window_hud_layout *l, bool lens, int px_w,
                                     const window_hud_side *d, uint32_t *rows)
{
    float gap = l->x, lh = l->line_h;
    window_hud_box b = {.pad = l->pad};
    float right = (float)px_w - gap, top = gap;
    float bottom = (lens && l->lens_side > 0.0f ? l->cap_y : l->notice_y) - gap;
    b.w = fminf(d->w, right - gap);
    b.x = right - b.w;
    bool help = l->help_rows > 0;
    /* What the top left holds: the figures, or the help in their place. */
    float left_end = help && l->help_in_place ? l->help_x + l->help_w : l->x + l->w;
    float left_bottom = help && l->help_in_place ? l->help_y + l->help_h : l->y + l->h;
    if (help && !l->help_in_place) {
        if (l->help_x - gap - b.w >= left_end + gap) b.x = l->help_x - gap - b.w;
        else top = l->help_y + l->help_h + gap;
    }
    if (b.x < left_end + gap) top = fmaxf(top, left_bottom + gap);
    if (shares_columns(d->above, &b)) top = fmaxf(top, d->above[1] + d->above[3] + gap);
    b.y = top;
    if (shares_columns(d->below, &b)) bottom = fminf(bottom, d->below[1] - gap);
    float room = bottom - top - 2.0f * b.pad - d->head * lh;
    uint32_t n = lines_in(room, lh, d->most);
    *rows = b.w < d->min_w ? 0u : n;
    b.h = *rows ? ((float)*rows + d->head) * lh + 2.0f * b.pad : 0.0f;
    return b;
}
