/* window_timeline.h - the timeline panel: a step's subtasks per worker
 * (ecs_timeline_get), drawn as lanes of blocks over a time axis, with the
 * step's work, span and parallelism, each worker's wake-up delay and, when
 * workers could not run, a line saying the machine was busy; above the
 * lanes, the step history: a bar per recent step, its wall time.
 *
 * The ECS's timeline is valid only until the next step, so each step's is
 * copied into the panel's step history (window_tl_history), a ring of the
 * last WINDOW_TL_HISTORY steps; the panel shows the newest, or, frozen, a
 * step picked from the ring, which then stops taking steps; following the
 * steps again, the ring starts over, so that it always holds consecutive
 * steps. Everything
 * but the drawing (window_timeline_draw.c) is pure: the copy, the ring,
 * the wake-up delays, the axis's scale and ticks, the layout, the blocks
 * and the hit tests need no GL. */
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
    uint64_t *cpu_ns;    /* per worker: CPU time in the step (ecs_timeline.cpu_ns) */
    bool cpu_known;      /* cpu_ns holds the step's (else the system cannot tell) */
    const char **names;  /* per system; the ECS's strings, alive with the context */
    size_t span_cap, sleep_cap, busy_cap, cpu_cap, name_cap;
} window_tl_data;

/* Copies the context's last step (frame `step`) with its profile. False
 * where it has none (timeline off, no step yet) or memory ran out: the
 * data then holds no step (valid false). */
bool window_tl_copy(window_tl_data *d, const ecs_context *ctx, uint64_t step);
void window_tl_data_free(window_tl_data *d);
/* The bytes d's buffers hold. */
size_t window_tl_data_bytes(const window_tl_data *d);

/* ---- the step history ------------------------------------------------------ */

/* The last WINDOW_TL_HISTORY steps' copies, oldest overwritten first.
 * Each slot keeps its buffers from step to step (grown to the largest
 * step it held), so the ring's memory is bounded by WINDOW_TL_HISTORY
 * times the largest step's copy (window_tl_history_bytes says how much). */
#define WINDOW_TL_HISTORY 300u
typedef struct window_tl_history {
    window_tl_data *slot; /* WINDOW_TL_HISTORY of them, made on first use */
    uint32_t count;       /* steps held, at most WINDOW_TL_HISTORY */
    uint32_t next;        /* the slot the next step goes to */
} window_tl_history;

/* The slot the next step is to be copied into (the oldest step's once the
 * ring is full): NULL where memory ran out. The ring holds it only after
 * window_tl_history_keep. */
window_tl_data *window_tl_history_next(window_tl_history *h);
void window_tl_history_keep(window_tl_history *h);
/* The step `back` steps before the newest (0: the newest); NULL where the
 * ring holds no such step. */
const window_tl_data *window_tl_history_back(const window_tl_history *h, uint32_t back);
/* No step held any more (the slots keep their buffers for the next ones). */
void window_tl_history_restart(window_tl_history *h);
size_t window_tl_history_bytes(const window_tl_history *h);
void window_tl_history_free(window_tl_history *h);

/* ---- wake-up delays and a busy machine -------------------------------------- */

/* Worker w's wake-up delay in a step: the time from the step's start (its
 * first jobs pushed) to its first span; of it, the time it slept and the
 * time it was woken and waiting for a processor (the pool's log, each
 * sleep's woken_ns). A worker with no span has none (ran false). */
typedef struct window_tl_wake {
    bool ran;
    uint64_t delay_ns, asleep_ns, waiting_ns;
} window_tl_wake;
window_tl_wake window_tl_wake_of(const window_tl_data *d, uint32_t worker);
/* "wake 42 us" (under a millisecond), "wake 1.25 ms", or "wake -" (no span). */
void window_tl_wake_text(const window_tl_wake *wk, char *buf, size_t size);

/* Whether the step's workers could run when they were awake: their CPU
 * time against their awake time (wall minus their sleeps up to each
 * wake-up: a woken worker waiting for a processor is awake), summed over
 * the workers; below APP_STEADY (app_steady_slowed, the bench's rule for
 * a busy machine) the machine ran other work while they were runnable.
 * known false where the CPU times are not known or sleeps were lost. */
typedef struct window_tl_machine {
    bool known, busy;
    double ran;            /* CPU time / awake time, all workers */
    uint64_t lost_ns;      /* awake time not run, all workers */
    uint32_t worst;        /* the worker with the lowest share */
    double worst_ran;
} window_tl_machine;
window_tl_machine window_tl_machine_of(const window_tl_data *d);
/* The panel's line for a busy machine (m->busy), in buf. */
void window_tl_machine_line(const window_tl_machine *m, char *buf, size_t size);
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
    float busy_w;  /* the busy column ("100% busy  wake 999 us") */
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
    float strip_y, strip_h;      /* the step history's bars, across the time axis's x */
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

/* The step history's bar of the step `back` steps before the newest,
 * the newest at the strip's right end: its box (x, y, w, h), its height
 * the step's wall time against the axis's full width (full: at least
 * that long; at least a pixel). */
void window_tl_strip_bar(const window_tl_layout *l, uint32_t back, double wall_us, double full_us,
                         float box[4]);
/* The bar under (px, py): how many steps before the newest; -1 for none. */
int32_t window_tl_strip_hit(const window_tl_layout *l, uint32_t count, float px, float py);

/* The tooltip of span k: WINDOW_TL_TIP_LINES lines. */
#define WINDOW_TL_TIP_LINES 4u
void window_tl_tooltip(const window_tl_data *d, uint32_t k, char lines[][96]);

/* ---- the panel in the window ---------------------------------------------- */

typedef struct window_timeline {
    bool shown, frozen;
    window_tl_history history;
    uint32_t back;      /* the step shown: so many before the newest (0 unless frozen) */
    window_tl_scale scale;
    window_tl_block *blocks;
    size_t block_cap;
    uint32_t drawn;     /* blocks the last frame drew */
    window_tl_layout drawn_at; /* the last frame's layout (fits false: none drawn) */
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

/* After a step: copies its timeline into the history unless frozen. */
void window_timeline_record(window_timeline *t, const ecs_context *ctx, uint64_t step);

/* The step shown (NULL: none yet). */
const window_tl_data *window_timeline_shown_step(const window_timeline *t);
/* The F key: frozen on the step shown, or following the steps again (the
 * history starts over from the next step). */
void window_timeline_freeze(window_timeline *t);
/* The Left (older, +1) and Right (newer, -1) keys while frozen: the step
 * shown moves along the history, within it. */
void window_timeline_pick(window_timeline *t, int32_t older);
/* A left click at (px, py), drawable pixels: on a bar of the step history
 * it shows that step, frozen (the newest's bar: following again, as F), and
 * returns true; elsewhere false (the click is someone else's). */
bool window_timeline_click(window_timeline *t, float px, float py);

/* Where the panel goes this frame (fits false: hidden, no step yet, or
 * no room). */
window_tl_layout window_timeline_place(const window_timeline *t, const gfx_renderer *r,
                                       const window_hud_layout *hud, bool lens, int px_w,
                                       int px_h);
/* Queues the panel (when shown and it fits, where window_timeline_place
 * put it this frame: at) and the tooltip of the block under the mouse
 * (drawable pixels); lens: the G lens is drawn this frame. Writes
 * --timeline-report where its text changed while frozen, and on the last
 * frame. Returns non-zero where that failed (it said why). */
int window_timeline_draw(window_timeline *t, gfx_renderer *r, const window_hud_layout *hud,
                         bool lens, const window_tl_layout *at, float mouse_x, float mouse_y,
                         int px_w, int px_h, bool last);

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
