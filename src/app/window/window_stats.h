/* window_stats.h - frame timings: the last whole second for the HUD, the
 * whole run for the summary line. */
#ifndef WINDOW_STATS_H
#define WINDOW_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "app_clock.h"
#include "sim.h"

static inline uint64_t window_now_ns(void) { return app_now_ns(); }

/* One drawn frame and the steps it ran (none, one or several: the rate,
 * window_rate.h). The render time is prepare + upload + draw (swap
 * included: software GL rasterises there). */
typedef struct window_frame {
    uint32_t steps;
    uint64_t dropped; /* steps owed past the rate's cap, not run */
    bool paused;      /* drawn while paused: its time belongs to no second of steps */
    double step_ms, prepare_ms, upload_ms, draw_ms; /* step_ms: its steps' sum */
    double system_ms[SIM_SYSTEM_COUNT];            /* its steps' sums */
} window_frame;

/* Sums over a span of frames; means on demand. */
typedef struct window_span {
    uint64_t start_ns, end_ns;
    uint32_t frames, steps;
    uint64_t dropped;
    double step_ms, prepare_ms, upload_ms, draw_ms;
    double system_ms[SIM_SYSTEM_COUNT];
} window_span;

/* The step figures (steps, step_ms, system_ms) go by seconds of running
 * time, the rest by seconds of wall time: a pause stops the steps' clock,
 * so that paused, the HUD keeps the step figures it showed. */
typedef struct window_stats {
    window_span current; /* the second in progress */
    window_span last;    /* the last whole second */
    window_span run;     /* every frame since the start */
    window_span steps;      /* the second of running time in progress: step figures */
    uint64_t steps_ns;      /* its running time so far */
    window_span steps_last; /* the last whole one (steps 0: none yet) */
    window_span shown;      /* what the HUD shows (window_stats_shown) */
} window_stats;

void window_stats_init(window_stats *s, uint64_t now_ns);
void window_stats_add(window_stats *s, const window_frame *f, uint64_t now_ns);

/* What the HUD shows: the last whole second, or the one in progress until
 * a whole second has passed (so the first second does not read zero); its
 * step figures those of the last whole second of running time (or the
 * one in progress), which a pause leaves as they were. */
const window_span *window_stats_shown(const window_stats *s);

/* Means of a span (0 where it has no frames or steps). */
double window_span_fps(const window_span *s);
double window_span_step_ms(const window_span *s);
double window_span_system_ms(const window_span *s, uint32_t system);
double window_span_mean(const window_span *s, double sum); /* per frame */
double window_span_steps_per_s(const window_span *s);

/* "frames N, mean fps F, mean step S ms, mean render R ms (prepare P + upload U + draw D)",
 * N the steps, F drawn frames per second, then ", systems off: NAMES"
 * when off (the systems switched off at the end, comma-separated) is
 * neither NULL nor ""; then a second line, "rate RATE: N steps in W s,
 * S steps/s, D frames drawn, X steps dropped", RATE "25 steps/s" or
 * "max" (rate_per_s 0). */
void window_stats_print_summary(const window_stats *s, const char *off, double rate_per_s,
                                FILE *f);

#endif /* WINDOW_STATS_H */
