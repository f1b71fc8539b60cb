/* window_settings.c - the settings panel: its rows, the steps they take,
 * and its drawing (window_settings.h). */
#include "window_settings.h"
#include "args.h"

#include <SDL.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const gfx_color TEXT = {235, 238, 245, 255};
static const gfx_color DIM = {150, 158, 175, 255};
static const gfx_color PANEL = {0, 0, 0, 200};
static const gfx_color PICKED = {255, 196, 80, 255};
static const gfx_color BUTTON = {255, 255, 255, 40};

/* The panel's width at scale 1, window pixels, and its columns. */
#define PANEL_W 470.0f
#define VALUE_RIGHT 190.0f
#define MINUS_X 200.0f
#define BUTTON_W 22.0f
#define WHEN_X 262.0f
/* No panel narrower than its + buttons' right edge and the padding. */
#define PANEL_MIN_W 280.0f

typedef struct row {
    const char *name;
    app_param param;
    bool second;        /* the param's second value (y), else its first (x, n) */
    double step, big;   /* a press; with Shift */
    const char *when;   /* when a change takes effect */
} row;

static const row ROWS[WINDOW_SETTINGS_ROWS] = {
    {"gravity", APP_PARAM_ACCELERATION, true, 0.1, 1.0, "now, every particle"},
    {"wave size", APP_PARAM_PARTICLES, false, 1000.0, 10000.0, "next wave (R)"},
    {"radius min", APP_PARAM_RADIUS, false, 0.1, 0.5, "next spray or wave"},
    {"speed max", APP_PARAM_SPEED, false, 0.5, 5.0, "next spray or wave"},
    {"life min", APP_PARAM_LIFE, false, 1.0, 5.0, "next spray or wave"},
    {"life max", APP_PARAM_LIFE, true, 1.0, 5.0, "next spray or wave"},
};

/* The input that sets param to what w holds now. */
static app_input current(const sim_world *w, app_param param)
{
    return app_param_input(param, sim_get_params(w), sim_wave_size(w));
}

/* Row i's value in `in`, as the panel writes it. */
static const char *value_text(const row *r, const app_input *in, char *buf, size_t size)
{
    if (r->param == APP_PARAM_PARTICLES) return window_hud_count(buf, size, in->n);
    snprintf(buf, size, "%g", (double)(r->second ? in->y : in->x));
    return buf;
}

static window_settings_change say(window_settings_change c, const char *fmt, ...) APP_PRINTF(2, 3);

static window_settings_change say(window_settings_change c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c.notice, sizeof c.notice, fmt, ap);
    va_end(ap);
    return c;
}

/* Row s->row one step up (dir 1) or down (-1): the input that does it, or
 * a notice saying why not (the world's bounds: sim.h). */
static window_settings_change change(const window_settings *s, const sim_world *w, int dir,
                                     bool shift)
{
    const row *r = &ROWS[s->row];
    window_settings_change c = {.taken = true, .in = current(w, r->param)};
    double d = (double)dir * (shift ? r->big : r->step);
    char v[32];
    if (r->param == APP_PARAM_PARTICLES) {
        uint32_t most = sim_wave_size_max(w, sim_get_params(w));
        double want = (double)c.in.n + d;
        /* A wave past the bound (a snapshot's, under a smaller fixed
         * limit) comes down into it. */
        if (dir < 0 && c.in.n > most) want = fmin(want, (double)most);
        uint32_t n = want < 0.0 ? 0u : want > (double)UINT32_MAX ? UINT32_MAX : (uint32_t)want;
        char why[200];
        if (!sim_wave_size_settable(w, n, why, sizeof why))
            return say(c, "wave size %s%s refused: %s", want < 0.0 ? "-" : "",
                       window_hud_count(v, sizeof v, (uint64_t)fabs(want)), why);
        c.in.n = n;
    } else {
        float *f = r->second ? &c.in.y : &c.in.x;
        /* Whole steps from zero, so that values stay round; +0.0 turns -0 into 0. */
        *f = (float)(round(((double)*f + d) / r->step) * r->step + 0.0);
        sim_params p;
        app_input_params(w, &c.in, &p);
        char why[160];
        if (!sim_params_settable(w, &p, why, sizeof why))
            return say(c, "%s %s refused: %s", r->name, value_text(r, &c.in, v, sizeof v), why);
    }
    c.apply = true;
    return say(c, "%s %s: %s", r->name, value_text(r, &c.in, v, sizeof v), r->when);
}

window_settings_change window_settings_key(window_settings *s, const sim_world *w, int key,
                                           bool shift)
{
    window_settings_change c = {.taken = true};
    switch (key) {
    case SDLK_UP: s->row = (s->row + WINDOW_SETTINGS_ROWS - 1u) % WINDOW_SETTINGS_ROWS; break;
    case SDLK_DOWN: s->row = (s->row + 1u) % WINDOW_SETTINGS_ROWS; break;
    case SDLK_LEFT: return change(s, w, -1, shift);
    case SDLK_RIGHT: return change(s, w, +1, shift);
    default: c.taken = false; break;
    }
    return c;
}

window_settings_change window_settings_click(window_settings *s, const sim_world *w, float x,
                                             float y)
{
    window_settings_change c = {0};
    if (!s->shown || s->w <= 0.0f || x < s->x || x >= s->x + s->w || y < s->y ||
        y >= s->y + s->h)
        return c;
    c.taken = true;
    float at = floorf((y - s->row_y) / s->line_h);
    if (!(at >= 0.0f && at < (float)s->rows_drawn)) return c;
    s->row = s->first + (unsigned)at;
    if (x >= s->minus_x && x < s->minus_x + s->button_w) return change(s, w, -1, false);
    if (x >= s->plus_x && x < s->plus_x + s->button_w) return change(s, w, +1, false);
    return c;
}

/* A - or + box with its sign centred. */
static void button(gfx_renderer *r, float x, float y, float side, float line, const char *sign)
{
    gfx_rect(r, x, y + (line - side) * 0.5f, side, side, BUTTON);
    gfx_text(r, x + (side - gfx_text_width(r, sign)) * 0.5f, y, sign, TEXT);
}

void window_settings_place(window_settings *s, const window_hud_layout *l, bool lens, int px_w,
                           const float timeline[4])
{
    float sc = l->scale, lh = l->line_h;
    window_hud_side d = {.w = PANEL_W * sc, .min_w = PANEL_MIN_W * sc, .head = 1.0f,
                         .most = WINDOW_SETTINGS_LINES};
    memcpy(d.below, timeline, sizeof d.below);
    uint32_t lines = 0;
    window_hud_box b = window_hud_side_place(l, lens, px_w, &d, &lines);
    s->w = 0.0f;
    if (!s->shown || lines == 0) return;
    s->x = b.x, s->y = b.y, s->w = b.w, s->h = b.h, s->pad = b.pad, s->line_h = lh;
    /* Short of room, what stays fixed goes first, then the keys' hint,
     * then rows: those around the picked one stay. */
    s->fixed = lines >= WINDOW_SETTINGS_ROWS + 2u;
    s->hint = lines >= WINDOW_SETTINGS_ROWS + 1u;
    s->rows_drawn = lines < WINDOW_SETTINGS_ROWS ? lines : WINDOW_SETTINGS_ROWS;
    if (s->first > WINDOW_SETTINGS_ROWS - s->rows_drawn)
        s->first = WINDOW_SETTINGS_ROWS - s->rows_drawn;
    if (s->row < s->first) s->first = s->row;
    if (s->row >= s->first + s->rows_drawn) s->first = s->row + 1u - s->rows_drawn;
    s->row_y = b.y + b.pad + (s->hint ? 2.0f : 1.0f) * lh;
    s->button_w = BUTTON_W * sc;
    s->minus_x = s->x + s->pad + MINUS_X * sc;
    s->plus_x = s->minus_x + s->button_w + 6.0f * sc;
}

void window_settings_draw(window_settings *s, gfx_renderer *r, const sim_world *w,
                          const window_hud_layout *l, bool lens, int px_w,
                          const float timeline[4])
{
    window_settings_place(s, l, lens, px_w, timeline);
    if (s->w <= 0.0f) return;
    float sc = l->scale, lh = s->line_h, x = s->x + s->pad, y = s->y + s->pad;
    float text_w = s->w - 2.0f * s->pad;
    gfx_rect(r, s->x, s->y, s->w, s->h, PANEL);
    gfx_text(r, x, y, "Settings (P)", TEXT);
    y += lh;
    if (s->hint) {
        window_hud_text(r, x, y, text_w, "Up/Down: row   Left/Right or -/+: change   Shift: more",
                        DIM);
        y += lh;
    }
    for (unsigned i = s->first; i < s->first + s->rows_drawn; i++, y += lh) {
        const row *rw = &ROWS[i];
        bool picked = i == s->row;
        app_input in = current(w, rw->param);
        char v[32];
        value_text(rw, &in, v, sizeof v);
        if (picked) gfx_text(r, x, y, ">", PICKED);
        gfx_text(r, x + 14.0f * sc, y, rw->name, picked ? PICKED : TEXT);
        gfx_text(r, x + VALUE_RIGHT * sc - gfx_text_width(r, v), y, v, TEXT);
        button(r, s->minus_x, y, s->button_w, lh, "-");
        button(r, s->plus_x, y, s->button_w, lh, "+");
        window_hud_text(r, x + WHEN_X * sc, y, text_w - WHEN_X * sc, rw->when, DIM);
    }
    if (!s->fixed) return;
    const sim_params *p = sim_get_params(w);
    char fixed[160];
    snprintf(fixed, sizeof fixed, "fixed when made: radius max %g, world %g x %g, dt %g",
             (double)p->radius_max, (double)p->world_w, (double)p->world_h, (double)p->dt);
    window_hud_text(r, x, y, text_w, fixed, DIM);
}
