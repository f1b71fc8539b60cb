/* window_hud.c - what the HUD shows and where. */
#include "window_hud.h"

#include <assert.h>

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const gfx_color TEXT = {235, 238, 245, 255};
static const gfx_color DIM = {150, 158, 175, 255};
static const gfx_color PANEL = {0, 0, 0, 200};
static const gfx_color WARN = {255, 196, 80, 255};
/* Bar colors by chain: the movement/collision chain, the life chain, and
 * render, where the two meet. */
/* The magnified cell shows LENS_CELLS cells across. */
#define LENS_CELLS 7.0f

static const gfx_color CHAIN_MAIN = {90, 160, 255, 255};
static const gfx_color CHAIN_LIFE = {255, 150, 60, 255};
static const gfx_color CHAIN_JOIN = {190, 120, 255, 255};

gfx_color window_hud_system_color(uint32_t system)
{
    switch (system) {
    case SIM_S_LIFE:
    case SIM_S_FADE: return CHAIN_LIFE;
    case SIM_S_RENDER: return CHAIN_JOIN;
    default: return CHAIN_MAIN;
    }
}

/* Cuts text from its end until it is at most max_w pixels wide. */
static void fit(const gfx_renderer *r, char *text, float max_w)
{
    size_t n = strlen(text);
    while (n > 0 && gfx_text_width(r, text) > max_w) text[--n] = '\0';
}

/* One line of the figures' panel. */
static void put(window_hud_line *l, gfx_color c, unsigned rank, const char *fmt, ...) APP_PRINTF(4, 5);

static void put(window_hud_line *l, gfx_color c, unsigned rank, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->text, sizeof l->text, fmt, ap);
    va_end(ap);
    l->c = c;
    l->rank = rank;
}

typedef struct pen {
    gfx_renderer *r;
    float x, y, line, scale, max_w;
} pen;

static void line(pen *p, gfx_color c, const char *text)
{
    char buf[192];
    snprintf(buf, sizeof buf, "%s", text);
    fit(p->r, buf, p->max_w);
    gfx_text(p->r, p->x, p->y, buf, c);
    p->y += p->line;
}

/* Nine bars: ms per frame of each system, averaged over the last second;
 * a row per system, from window_hud_chart_row0 down (clicks use it). */
static void system_chart(pen *p, const window_hud *h)
{
    const window_span *s = window_stats_shown(h->stats);
    double ms[SIM_SYSTEM_COUNT], max = 0.0;
    for (uint32_t i = 0; i < SIM_SYSTEM_COUNT; i++) {
        ms[i] = window_span_system_ms(s, i);
        if (ms[i] > max) max = ms[i];
    }
    double full = window_hud_bar_scale(max);
    char scale_text[32], title[96];
    if (full >= 1000.0) window_hud_count(scale_text, sizeof scale_text, (uint64_t)full);
    else snprintf(scale_text, sizeof scale_text, "%g", full);
    snprintf(title, sizeof title, "ms per step by system, last second (bar = %s ms)", scale_text);
    line(p, DIM, title);
    float label_w = 0.0f;
    for (uint32_t i = 0; i < SIM_SYSTEM_COUNT; i++) {
        float w = gfx_text_width(p->r, h->system_names[i]);
        if (w > label_w) label_w = w;
    }
    float bar_x = p->x + label_w + 8.0f * p->scale, bar_w = 200.0f * p->scale;
    float bar_h = p->line * 0.7f;
    for (uint32_t i = 0; i < SIM_SYSTEM_COUNT; i++) {
        bool off = h->system_off[i]; /* greyed, no bar, "off" for its time */
        gfx_text(p->r, p->x + label_w - gfx_text_width(p->r, h->system_names[i]), p->y,
                 h->system_names[i], off ? DIM : TEXT);
        float y = p->y + (p->line - bar_h) * 0.5f;
        gfx_rect(p->r, bar_x, y, bar_w, bar_h, (gfx_color){255, 255, 255, 28});
        float w = off ? 0.0f : (float)(ms[i] / full) * bar_w;
        gfx_rect(p->r, bar_x, y, w < bar_w ? w : bar_w, bar_h, window_hud_system_color(i));
        char v[32];
        if (off) snprintf(v, sizeof v, "off");
        else snprintf(v, sizeof v, "%.3f", ms[i]);
        gfx_text(p->r, bar_x + bar_w + 6.0f * p->scale, p->y, v, off ? WARN : TEXT);
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

uint32_t window_hud_figures(const window_hud *h, window_hud_line out[WINDOW_HUD_FIGURE_LINES])
{
    const window_span *s = window_stats_shown(h->stats);
    char a[32], c[32], lim[32], fr[32];
    double prep = window_span_mean(s, s->prepare_ms), up = window_span_mean(s, s->upload_ms),
           draw = window_span_mean(s, s->draw_ms);
    const char *path = h->draw == GFX_DRAW_POINTS ? "points" : "quads";
    uint32_t n = 0;
    if (h->warning) put(&out[n++], WARN, 0, "%s", h->warning);
    unsigned r = h->warning ? 1u : 0u; /* the ranks below the warning's */
    bool unit = h->key_n && h->key_unit; /* said once, before the key's numbers */
    put(&out[n++], TEXT, r, "%s particles   wave %u   frame %s   colour: %s%s%s%s",
        window_hud_count(a, sizeof a, h->alive), (unsigned)h->wave,
        window_hud_count(fr, sizeof fr, h->frame), h->color ? h->color : "?",
        unit ? " (" : "", unit ? h->key_unit : "", unit ? ")" : "");
    /* Paused, the frame rate only falls: it says so instead. */
    char fps[64], rate[24] = "max";
    if (h->rate > 0.0) snprintf(rate, sizeof rate, "%g", h->rate);
    if (h->paused) snprintf(fps, sizeof fps, "paused (rate %s)", rate);
    else
        snprintf(fps, sizeof fps, "%.1f fps   %.1f steps/s (rate %s)", window_span_fps(s),
                 window_span_steps_per_s(s), rate);
    put(&out[n++], TEXT, r + 1, "%s   step %.2f ms   render %.2f ms", fps, window_span_step_ms(s),
        prep + up + draw);
    put(&out[n++], DIM, r + 4, "render = prepare %.2f + upload %.2f + draw %.2f ms", prep, up, draw);
    put(&out[n++], TEXT, r + 2, "contacts %s (%s)   workers %u of %u   inner parallelism %s",
        window_hud_count(c, sizeof c, h->contacts), h->kernel ? h->kernel : "?",
        (unsigned)h->workers, (unsigned)h->max_workers, h->ip_on ? "ON" : "off");
    /* The renderer by its first word ("llvmpipe (LLVM ...)": llvmpipe), so
     * that a slow frame in software OpenGL is not taken for the engine's. */
    const char *name = h->gl_renderer ? h->gl_renderer : "?";
    char gl[64];
    snprintf(gl, sizeof gl, "%.*s%s", (int)(strcspn(name, " (") < 40 ? strcspn(name, " (") : 40), name,
             h->gl_software ? " (software GL)" : "");
    if (h->storage == ECS_STORAGE_FIXED)
        put(&out[n++], DIM, r + 3,
            "storage fixed (limit %s)   draw %s on %s   vsync %s   zoom %.3gx",
            window_hud_count(lim, sizeof lim, h->fixed_limit), path, gl,
            h->vsync_on ? "on" : "off", (double)h->zoom);
    else
        put(&out[n++], DIM, r + 3, "storage dynamic   draw %s on %s   vsync %s   zoom %.3gx",
            path, gl, h->vsync_on ? "on" : "off", (double)h->zoom);
    return n;
}

/* After the line `text` at the pen (not yet drawn), a swatch and the
 * label of each entry of the key, as far as the panel's width allows. */
static void color_key(const pen *p, const window_hud *h, const char *text)
{
    float x = p->x + gfx_text_width(p->r, text) + 6.0f * p->scale, end = p->x + p->max_w;
    float box = p->line * 0.55f;
    for (uint32_t k = 0; k < h->key_n; k++) {
        const char *num = h->key[k].label;
        float w = box + 2.0f * p->scale + gfx_text_width(p->r, num);
        if (x + w > end) break;
        gfx_rect(p->r, x, p->y + (p->line - box) * 0.5f, box, box,
                 h->key[k].color);
        gfx_text(p->r, x + box + 2.0f * p->scale, p->y, num, TEXT);
        x += w + 5.0f * p->scale;
    }
}

/* The figures' panel: the lines that fit, most important first, and the
 * chart below them where all of it fits too. */
static void figures_panel(gfx_renderer *r, const window_hud *h, const window_hud_layout *l)
{
    window_hud_line lines[WINDOW_HUD_FIGURE_LINES];
    uint32_t n = window_hud_figures(h, lines);
    assert(n == window_hud_figure_count(h->warning != NULL)); /* clicks find the chart so */
    uint32_t keep = l->rows < n ? l->rows : n;
    bool chart = window_hud_chart_row0(l, false, n) >= 0.0f;
    if (keep == 0) return;
    float rows = (float)keep + (chart ? (float)WINDOW_HUD_CHART_LINES : 0.0f);
    gfx_rect(r, l->x, l->y, l->w, rows * l->line_h + 2.0f * l->pad, PANEL);
    pen p = {r, l->x + l->pad, l->y + l->pad, l->line_h, l->scale, l->w - 2.0f * l->pad};
    uint32_t first = h->warning ? 1u : 0u; /* the particles' line, which names the colouring */
    for (uint32_t i = 0; i < n; i++) {
        if (lines[i].rank >= keep) continue;
        if (i == first) color_key(&p, h, lines[i].text);
        line(&p, lines[i].c, lines[i].text);
    }
    if (chart) system_chart(&p, h);
}

static const window_hud_row HELP[] = {
    {"H", "show / hide this help"},
    {"I", "inner parallelism on / off (live)"},
    {"+ / -", "one worker more / fewer (live)"},
    {"Space, N", "pause / resume; one step while paused"},
    {"[ / ]", "half / double the steps per second"},
    {"R", "new wave"},
    {"G", "grid cell under the mouse, magnified"},
    {"C", "colour: thesis, speed, worker, grid cell"},
    {"M", "motion trails on / off"},
    {"P", "settings: gravity, wave size, ranges"},
    {"wheel, Z", "zoom about the mouse (1x to 64x); Z, Home: 1x"},
    {"right mouse", "drag: pan (middle too); click: inspect one"},
    {"left mouse", "spray particles"},
    {"S, W", "save a screenshot (PNG); the state (W)"},
    {"1 - 9", "system on / off (or click its row)"},
    {"T, F, A", "timeline; freeze (Left, Right: pick); fit axis"},
    {"Esc", "quit"},
};

#define HELP_ROWS (sizeof HELP / sizeof HELP[0])
_Static_assert(HELP_ROWS == WINDOW_HUD_HELP_ROWS, "the layout makes room for every row of the help");

void window_hud_table(gfx_renderer *r, const window_hud_layout *l, const window_hud_box *b,
                      const char *title, const window_hud_row *rows, uint32_t n)
{
    float lh = l->line_h;
    gfx_rect(r, b->x, b->y, b->w, b->h, PANEL);
    pen p = {r, b->x + b->pad, b->y + b->pad, lh, l->scale, b->w - 2.0f * b->pad};
    line(&p, TEXT, title);
    p.y += lh * 0.5f;
    for (uint32_t i = 0; i < n; i++) {
        gfx_text(r, p.x, p.y, rows[i].key, WARN);
        window_hud_text(r, p.x + b->key_w, p.y, p.max_w - b->key_w, rows[i].text, TEXT);
        p.y += lh;
    }
}

void window_hud_text(gfx_renderer *r, float x, float y, float max_w, const char *text,
                     gfx_color c)
{
    char buf[192];
    snprintf(buf, sizeof buf, "%s", text);
    fit(r, buf, max_w);
    gfx_text(r, x, y, buf, c);
}

static void help_panel(gfx_renderer *r, const window_hud_layout *l)
{
    window_hud_box b = {l->help_x, l->help_y, l->help_w, l->help_h, l->help_pad, 110.0f * l->scale};
    window_hud_table(r, l, &b, "Controls", HELP,
                     l->help_rows < HELP_ROWS ? l->help_rows : (uint32_t)HELP_ROWS);
}

/* A line of its own (the notice, the hint) on a dark panel just wider than
 * its text, readable over any particles. */
static void backed_line(gfx_renderer *r, const window_hud_layout *l, float y, gfx_color c,
                        const char *text)
{
    char buf[192];
    snprintf(buf, sizeof buf, "%s", text);
    fit(r, buf, l->line_w);
    float pad = 3.0f * l->scale;
    gfx_rect(r, l->x - pad, y, gfx_text_width(r, buf) + 2.0f * pad, l->line_h, PANEL);
    gfx_text(r, l->x, y, buf, c);
}

/* The hint line's two texts: help hidden, help shown. */
static const char *const HINTS[2] = {"H: help", "H hides the help"};

float window_hud_hint_end(const gfx_renderer *r, const window_hud_layout *l)
{
    float w = fmaxf(gfx_text_width(r, HINTS[0]), gfx_text_width(r, HINTS[1]));
    return l->x + fminf(w, l->line_w) + 3.0f * l->scale;
}

void window_hud_draw(gfx_renderer *r, const window_hud *h, const window_hud_layout *l)
{
    if (h->help && l->help_rows) help_panel(r, l);
    if (!h->help || !l->help_in_place) figures_panel(r, h, l);
    backed_line(r, l, l->hint_y, DIM, HINTS[h->help]);
    if (h->notice) backed_line(r, l, l->notice_y, WARN, h->notice);
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

    /* The caption, in the panel the layout keeps above the lens. */
    char cell[96], tested[] = "tested against the 4 faint cells";
    char count[32];
    snprintf(cell, sizeof cell, "cell %u, %u: %s particle%s", (unsigned)(v->cell % g->cols),
             (unsigned)(v->cell / g->cols), window_hud_count(count, sizeof count, v->count),
             v->count == 1 ? "" : "s");
    float pad = 4.0f * l->scale;
    fit(r, cell, l->cap_w - 2.0f * pad);
    fit(r, tested, l->cap_w - 2.0f * pad);
    gfx_rect(r, l->cap_x, l->cap_y, l->cap_w, l->cap_h, PANEL);
    gfx_text(r, l->cap_x + pad, l->cap_y + pad, cell, TEXT);
    gfx_text(r, l->cap_x + pad, l->cap_y + pad + l->line_h, tested, DIM);
}

void window_hud_grid_lines(gfx_renderer *r, const sim_grid_layout *g, const gfx_view *box)
{
    gfx_view v = gfx_get_view(r);
    float side = g->cell_size * v.px_per_unit;
    if (side < WINDOW_HUD_GRID_PX) return;
    const gfx_color c = {255, 255, 255, 40};
    float x0 = box->x, y0 = box->y, x1 = box->x + box->w, y1 = box->y + box->h;
    /* The first line at or after the box's left (top) edge. */
    float first_x = ceilf((x0 - v.x) / side), first_y = ceilf((y0 - v.y) / side);
    for (float i = fmaxf(first_x, 0.0f); i <= (float)g->cols; i++) {
        float x = v.x + i * side;
        if (x >= x1) break;
        gfx_rect(r, floorf(x), y0, 1.0f, y1 - y0, c);
    }
    for (float j = fmaxf(first_y, 0.0f); j <= (float)g->rows; j++) {
        float y = v.y + j * side;
        if (y >= y1) break;
        gfx_rect(r, x0, floorf(y), x1 - x0, 1.0f, c);
    }
}
