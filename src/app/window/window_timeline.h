/* window_timeline.h - the timeline panel: the last step's subtasks per
 * worker (ecs_timeline_get), drawn as lanes of blocks over a time axis,
 * with the step's work, span and parallelism beside them.
 *
 * The ECS's timeline is valid only until the next step, so each step's is
 * copied into the panel's own buffer (window_tl_copy); a frozen panel
 * stops copying and keeps showing one step. Everything but the drawing
 * (window_timeline_draw.c) is pure: the copy, the axis's scale and ticks,
 * the layout, the blocks and the hit test need no GL. */
#ifndef WINDOW_TIMELINE_H
#define WINDOW_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ecs.h"
#include "gfx.h"
#include "out.h"
#include "window_hud.h"

/* ---- the copied step ---------------------------------------------------- */

typedef struct window_tl_data {
    bool valid;          /* a step was copied */
    uint64_t step;       /* the simulation frame that step made */
    uint64_t wall_ns;
    uint32_t workers, systems;
    ecs_span *spans;
    uint32_t span_count;
    ecs_sleep *sleeps;
    uint32_t sleep_count, sleeps_lost;
    ecs_profile profile; /* of this step alone */
    double *busy;        /* per worker, 0..1 */
    const char **names;  /* per system; the ECS's strings, alive with the context */
    size_t span_cap, sleep_cap, busy_cap, name_cap;
} window_tl_data;

/* Copies the context's last step (frame `step`) with its profile. False
 * where it has none (timeline off, no step yet) or memory ran out: the
 * data then holds no step (valid false). */
bool window_tl_copy(window_tl_data *d, const ecs_context *ctx, uint64_t step);
void window_tl_data_free(window_tl_data *d);

/* ---- the time axis ------------------------------------------------------ */

/* The axis's full width, microseconds. A step on a shared machine is now
 * and then cut off by the scheduler and takes several times its usual
 * length; the scale follows the usual length, not those:
 *   - it grows after WINDOW_TL_GROW_STEPS steps in a row longer than it
 *     (an isolated long step is drawn cut at the axis's end), to the width
 *     that holds the longest of them;
 *   - it shrinks after WINDOW_TL_SHRINK_STEPS steps of which all but at
 *     most WINDOW_TL_SHRINK_SKIP would fit in the next shorter width at
 *     most WINDOW_TL_SHRINK_FILL full, to the width that holds the longest
 *     of those with WINDOW_TL_SHRINK_ROOM of it filled at most.
 *   - a step shorter than WINDOW_TL_MIN_FILL of the width refits it at
 *     once (window_tl_scale_fit): no step is drawn smaller than that.
 * So a step a little shorter or longer than the last leaves the lanes'
 * scale alone. Widths are 1, 1.5, 2, 3, 4, 5, 6 or 8 times a power of
 * ten, 10 us at the least. */
#define WINDOW_TL_GROW_STEPS 3u
#define WINDOW_TL_SHRINK_STEPS 40u
#define WINDOW_TL_SHRINK_SKIP 4u
#define WINDOW_TL_SHRINK_FILL 0.75
#define WINDOW_TL_SHRINK_ROOM 0.9
#define WINDOW_TL_MIN_FILL 0.2
typedef struct window_tl_scale {
    double full_us;      /* 0 until the first update */
    uint32_t longer;     /* steps in a row longer than full_us */
    double longest_over; /* the longest of them, us */
    uint32_t seen;       /* steps since the scale last changed or the count restarted */
    uint32_t misfits;    /* of them, those that would not fit the next shorter width */
    double longest;      /* the longest of the others, us */
} window_tl_scale;

double window_tl_scale_update(window_tl_scale *s, double wall_us);
/* The width that holds wall_us with WINDOW_TL_SHRINK_ROOM of it filled at
 * most, from now on (the counts start over): a step shorter than
 * WINDOW_TL_MIN_FILL of the width, and the A key. */
double window_tl_scale_fit(window_tl_scale *s, double wall_us);
/* The smallest width (as above) that holds us. */
double window_tl_nice_width(double us);

/* Ticks for a full width: every multiple of a 1, 2 or 5 times a power of
 * ten step from 0 to full_us, the step the smallest such that there are
 * at most 6 intervals. Returns how many (at most WINDOW_TL_MAX_TICKS). */
#define WINDOW_TL_MAX_TICKS 8u
uint32_t window_tl_ticks(double full_us, double *ticks);

/* ---- layout, blocks and hit test ----------------------------------------- */

/* Text widths the layout needs, in pixels, measured with the HUD's font. */
typedef struct window_tl_metrics {
    float line_h;
    float label_w; /* the widest lane label ("w0 (main)") */
    float busy_w;  /* the busy column ("100% busy") */
} window_tl_metrics;

/* The panel, drawable pixels: along the bottom of the window above the
 * notice line, from its left edge and at most WINDOW_TL_MAX_W wide, left of the G lens where that is shown, below the figures
 * and the help. fits false: no room for a lane per worker and a useful
 * width; nothing is drawn. */
typedef struct window_tl_layout {
    bool fits;
    float scale;
    float x, y, w, h;
    float pad, line_h;
    float title_y, figures_y;    /* the two header lines */
    float label_x;               /* the lane labels */
    float t_x, t_w;              /* the time axis: 0 us at t_x, full width t_w */
    float lanes_y, lane_h;       /* lane k spans [lanes_y + k lane_h, + lane_h) */
    uint32_t lanes;
    float busy_x;                /* the busy column */
    float axis_y;                /* the axis line; tick labels below it */
} window_tl_layout;

/* Window pixels: the narrowest useful panel, and the widest (software
 * OpenGL pays for every pixel the panel's backdrop blends). */
#define WINDOW_TL_MIN_W 560.0f
#define WINDOW_TL_MAX_W 900.0f

window_tl_layout window_tl_layout_fit(const window_hud_layout *hud, bool lens,
                                      const window_tl_metrics *m, uint32_t lanes, int px_w,
                                      int px_h);

/* One block per span: x from its start, at least a pixel wide. */
typedef struct window_tl_block {
    float x, y, w, h;
    uint32_t span; /* index in the data's spans */
} window_tl_block;

/* A time in ns since the step began, as x on the axis. */
float window_tl_x(const window_tl_layout *l, double full_us, uint64_t ns);
/* Fills out[0..span_count) (out holds that many); returns the count. */
uint32_t window_tl_blocks(const window_tl_layout *l, const window_tl_data *d, double full_us,
                          window_tl_block *out);
/* The block under (px, py), the last drawn where blocks overlap; -1 for none. */
int32_t window_tl_hit(const window_tl_block *b, uint32_t n, float px, float py);

/* The tooltip of span k: WINDOW_TL_TIP_LINES lines. */
#define WINDOW_TL_TIP_LINES 4u
void window_tl_tooltip(const window_tl_data *d, uint32_t k, char lines[][96]);

/* ---- the panel in the window ---------------------------------------------- */

typedef struct window_timeline {
    bool shown, frozen;
    window_tl_data data;
    window_tl_scale scale;
    window_tl_block *blocks;
    size_t block_cap;
    uint32_t drawn;     /* blocks the last frame drew */
    float box[4];       /* where the last frame drew the panel: x, y, w, h (w 0: not drawn) */
    /* --timeline-report */
    const char *report_path;
    char *report_last;  /* the text last written */
    const char *gl_renderer; /* the HUD's GL renderer, named in the report (NULL: none) */
} window_timeline;

/* Whether the panel is shown at start in a window of that size (window
 * coordinates): at least WINDOW_TL_DEFAULT_W x WINDOW_TL_DEFAULT_H. */
#define WINDOW_TL_DEFAULT_W 1024u
#define WINDOW_TL_DEFAULT_H 700u
bool window_timeline_default_shown(uint32_t width, uint32_t height);

/* From the options: shown at start (--timeline, or the window's size),
 * --timeline-report's file checked here, against the staged --screenshot
 * and --trace too (kind 0: not given). 0, or 2 after one line saying why
 * that file cannot be written. */
struct app_options; /* window_options, window_cli.h */
int window_timeline_start(window_timeline *t, const struct app_options *o, const app_out *shot,
                          const app_out *trace);
void window_timeline_free(window_timeline *t);

/* The A key: the axis fitted to the step shown (window_tl_scale_fit). */
void window_timeline_refit(window_timeline *t);

/* After a step: copies its timeline unless frozen. */
void window_timeline_record(window_timeline *t, const ecs_context *ctx, uint64_t step);

/* Queues the panel (when shown and it fits) and the tooltip of the block
 * under the mouse (drawable pixels); lens: the G lens is drawn this frame.
 * Writes --timeline-report where its text changed while frozen, and on the
 * last frame. Returns non-zero where that failed (it said why). */
int window_timeline_draw(window_timeline *t, gfx_renderer *r, const window_hud_layout *hud,
                         bool lens, float mouse_x, float mouse_y, int px_w, int px_h,
                         bool last);

/* --timeline-report: the step shown, its figures, one line per block
 * drawn and the tooltip (see docs/window.md). window_tl_report prints it;
 * window_tl_report_write puts it in the file (replaced whole) where it
 * differs from the text last written: 0, or 1 after one line saying why
 * it failed. hover: the span under the mouse (-1: none), its tooltip's
 * box in tip. */
void window_tl_report(FILE *f, const window_timeline *t, const window_tl_layout *l,
                      double full_us, int32_t hover, const float tip[4]);
int window_tl_report_write(window_timeline *t, const window_tl_layout *l, double full_us,
                           int32_t hover, const float tip[4]);

#endif /* WINDOW_TIMELINE_H */
