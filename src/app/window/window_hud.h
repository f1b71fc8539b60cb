/* window_hud.h - the heads-up display: figures, the per-system chart, the
 * help panel and the highlighted grid cell. */
#ifndef WINDOW_HUD_H
#define WINDOW_HUD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gfx.h"
#include "sim.h"
#include "window_colors.h"
#include "window_stats.h"

typedef struct window_hud {
    const window_stats *stats;
    const char *system_names[SIM_SYSTEM_COUNT];
    bool system_off[SIM_SYSTEM_COUNT]; /* disabled: its chart row reads "off" */
    uint32_t alive, contacts, wave;
    uint64_t frame;
    uint32_t workers, max_workers;
    bool ip_on;
    const char *kernel;     /* the collision kernel's name */
    ecs_storage storage;
    uint32_t fixed_limit;
    bool paused, help, vsync_on;
    double rate;        /* steps per second set (window_rate.h); 0: max */
    gfx_draw draw;
    const char *gl_renderer; /* GL_RENDERER (gfx_renderer_name), or NULL */
    bool gl_software;        /* it rasterises on the CPU */
    const char *color;  /* the colouring mode's name */
    /* The colouring's key, a swatch and label each after the first line
     * (key_n 0: none). */
    const window_color_key *key;
    uint32_t key_n;
    const char *key_unit; /* what the key's numbers count, or NULL */
    float zoom;         /* the camera's, 1: the whole world */
    const char *notice; /* one line for a few seconds, or NULL */
    const char *warning; /* why the world cannot be seen (window_hud_view_warning), or NULL */
} window_hud;

/* Where the HUD's panels go this frame, in drawable pixels: the figures
 * top left; the help beside them, or in their place when the drawable is
 * too narrow for both; the lens bottom right, as large as fits below the
 * help and beside the figures, its caption above it (lens_side 0: no room
 * for it); the notice line above the "H: help" line at the bottom left.
 * No two of them overlap and all lie inside the drawable: in a small one
 * the figures and the help keep only the lines that fit (the figures drop
 * the chart first, then their dim lines, see window_hud_draw), and lines
 * are cut to their panel's width. */
typedef struct window_hud_layout {
    float scale;                  /* drawable pixels per window coordinate */
    float line_h;
    float pad;                    /* inside the figures' panel */
    float x, y, w, h;             /* the figures' panel at its tallest (h 0: none) */
    uint32_t rows;                /* figure lines that fit in it */
    bool chart_fits;              /* the panel is wide enough for the chart */
    float help_x, help_y, help_w, help_h;
    float help_pad;
    uint32_t help_rows;           /* rows of keys that fit (0: no help panel) */
    bool help_in_place;           /* the help replaces the figures */
    float lens_x, lens_y, lens_side;
    float cap_x, cap_y, cap_w, cap_h; /* the lens's caption panel */
    float notice_y;               /* a notice's line */
    float hint_y;                 /* the "H: help" line, at the window's bottom */
    float line_w;                 /* the notice's and the hint's widest */
} window_hud_layout;

/* The lines the figures' panel can show: the warning, four lines of
 * figures and one dim breakdown; then the chart: a title, a bar per
 * system and the key. */
#define WINDOW_HUD_FIGURE_LINES 6u
#define WINDOW_HUD_CHART_LINES (SIM_SYSTEM_COUNT + 2u)
/* The help's rows of keys. */
#define WINDOW_HUD_HELP_ROWS 17u

/* A line of the figures' panel: its colour, its rank (0 most important:
 * with fewer rows, the highest ranks go first) and its text. */
typedef struct window_hud_line {
    gfx_color c;
    unsigned rank;
    char text[192];
} window_hud_line;

/* The figures' lines in the order shown (the panel draws those whose rank
 * fits); returns how many: window_hud_figure_count(h->warning != NULL). */
uint32_t window_hud_figures(const window_hud *h, window_hud_line out[WINDOW_HUD_FIGURE_LINES]);

/* Figure lines above the chart: WINDOW_HUD_FIGURE_LINES with a warning,
 * one fewer without. */
uint32_t window_hud_figure_count(bool warning);
/* The top of the chart's first system row (system 0; system i is i rows
 * lower), in drawable pixels, below `figures` lines; negative when the
 * layout shows no chart (too small, or the help in the figures' place). */
float window_hud_chart_row0(const window_hud_layout *l, bool help, uint32_t figures);
/* The system whose chart row holds drawable pixel (x, y), or -1: what a
 * click there toggles. */
int window_hud_system_at(const window_hud_layout *l, bool help, uint32_t figures, float x,
                         float y);

/* A system's color in the chart (by chain: movement and collision, life
 * and fade, render); the timeline panel's blocks use it too. */
gfx_color window_hud_system_color(uint32_t system);

/* Anchored to the window's corners, not the world's box, so that a world
 * whose shape differs from the window's keeps its panels in the bars. */
window_hud_layout window_hud_layout_of(const gfx_renderer *r, bool help, int px_w, int px_h,
                                       float scale);
/* The same from the font's line height and the lens caption's widest
 * line, in pixels (what window_hud_layout_of measures). */
window_hud_layout window_hud_layout_fit(float line_h, float caption_w, bool help, int px_w,
                                        int px_h, float scale);

/* The full length of the chart's bars, ms: the smallest of 1, 2 and 5
 * times a power of ten that is at least max_ms (0.1 at the least). */
double window_hud_bar_scale(double max_ms);

/* n with its thousands apart, "1 234 567": every count the window shows. */
const char *window_hud_count(char *buf, size_t size, uint64_t n);

/* Where the world, as the view v letterboxes it, is drawn less than a
 * pixel across, one line saying so (e.g. "--world 5x100000 is 0.03 px
 * wide in this window: too thin to draw") into buf, and true; else false. */
bool window_hud_view_warning(const gfx_view *v, float world_w, float world_h, char *buf,
                             size_t size);
/* When the last whole second s (NULL: none, or none dropped) dropped
 * steps owed at rate (steps per second): one line in buf saying the
 * machine cannot keep up, with the steps per second it reached; false
 * otherwise. */
bool window_hud_behind(const window_span *s, double rate, char *buf, size_t size);

/* The right edge of the "H: help" line at its widest (help shown or
 * not), backdrop included: a line beside it on the same row starts
 * beyond. */
float window_hud_hint_end(const gfx_renderer *r, const window_hud_layout *l);

/* A panel of keyed rows, as the help draws its keys: a title, half a
 * line, then a row per key, its text beside the key at key_w; the text
 * cut to the panel's width. The caller gives as many rows as fit. */
typedef struct window_hud_row {
    const char *key, *text;
} window_hud_row;
typedef struct window_hud_box {
    float x, y, w, h; /* drawable pixels */
    float pad, key_w;
} window_hud_box;
void window_hud_table(gfx_renderer *r, const window_hud_layout *l, const window_hud_box *b,
                      const char *title, const window_hud_row *rows, uint32_t n);

/* Text at (x, y) cut from its end to at most max_w pixels. */
void window_hud_text(gfx_renderer *r, float x, float y, float max_w, const char *text,
                     gfx_color c);

/* A panel at the drawable's right edge (the settings panel, the
 * inspector's): what it wants, drawable pixels. */
typedef struct window_hud_side {
    float w, min_w;  /* its width, cut to the drawable; no panel narrower than min_w */
    float head;      /* lines above its rows (a title; and half a line's space: 1.5) */
    uint32_t most;   /* the rows it holds */
    /* Panels drawn already (x, y, w, h; w 0: none): it goes below `above`
     * and ends above `below` where they share columns. */
    float above[4], below[4];
} window_hud_side;
/* Where such a panel goes: the top right corner, left of the help where
 * that is shown there and the room beside the figures holds the panel,
 * else below the help; below the figures (or the help in their place)
 * where it shares their columns; below d->above; its rows cut to what
 * fits above the G lens's caption (lens: it is drawn), the notice line
 * and d->below. Its pad is the figures'; *rows is how many rows fit,
 * and h 0 (*rows 0) says there is no room. */
window_hud_box window_hud_side_place(const window_hud_layout *l, bool lens, int px_w,
                                     const window_hud_side *d, uint32_t *rows);

/* Queues the HUD's overlay for this frame. */
void window_hud_draw(gfx_renderer *r, const window_hud *h, const window_hud_layout *l);

/* The grid cell under the mouse (thesis figure 16.2). */
typedef struct window_hud_cell_view {
    const sim_grid_layout *grid;
    uint32_t cell;
    uint32_t count;         /* particles whose centre is in it */
    float world_w, world_h;
} window_hud_cell_view;

/* Outlines the cell (and, fainter, the four cells the broadphase tests it
 * against: the next one and the three below), then draws it magnified in
 * the bottom-right corner with the same outlines and a caption. Call it
 * after gfx_draw_particles: it draws the particles again, through a lens. */
void window_hud_cell(gfx_renderer *r, const window_hud_cell_view *v, const window_hud_layout *l);

/* Where the camera shows cells at least WINDOW_HUD_GRID_PX pixels wide,
 * their lines, faint, inside box (the whole world's letterboxed box). */
#define WINDOW_HUD_GRID_PX 24.0f
void window_hud_grid_lines(gfx_renderer *r, const sim_grid_layout *g, const gfx_view *box);

/* The world rectangle a cell covers; border cells reach out to infinity,
 * since the grid files points outside the world there. */
void window_hud_cell_rect(const sim_grid_layout *g, uint32_t cell, float out[4]);

#endif /* WINDOW_HUD_H */
