/* window_rate.h - the window's simulation rate: steps per second of wall
 * time, apart from how fast frames are drawn. A fixed-timestep
 * accumulator: each drawn frame runs the steps the wall time since the
 * last one owes, at most a catch-up cap and a budget of stepping time;
 * what is owed past them is dropped (counted), so a machine too slow for
 * the rate falls behind instead of spiralling. The rate never changes the state, only when
 * steps run. */
#ifndef WINDOW_RATE_H
#define WINDOW_RATE_H

#include <stdbool.h>
#include <stdint.h>

#define WINDOW_RATE_MIN 1u    /* steps per second: --rate's range, and [ and ]'s */
#define WINDOW_RATE_MAX 1000u
/* The most wall time one drawn frame catches up on: its steps are at most
 * this much of the rate's (at least one). */
#define WINDOW_RATE_CATCH_UP_NS 250000000u
/* The most wall time one drawn frame spends stepping (at least one step):
 * past it, the steps still due are dropped too. */
#define WINDOW_RATE_BUDGET_NS 100000000u

typedef struct window_rate {
    uint64_t period_ns; /* wall time per step; 0: max, one step per drawn frame */
    uint64_t owed_ns;   /* wall time not yet stepped, below period_ns between frames */
    uint64_t last_ns;   /* when owed_ns was last brought up to date */
} window_rate;

/* per_s steps per second (WINDOW_RATE_MIN..WINDOW_RATE_MAX), or 0 for max;
 * the first frame owes one step. */
void window_rate_start(window_rate *r, uint32_t per_s, uint64_t now_ns);
/* The steps the drawn frame at now_ns runs; *dropped gets those owed past
 * the cap. */
uint32_t window_rate_due(window_rate *r, uint64_t now_ns, uint64_t *dropped);
/* Paused or hidden: the time until the next window_rate_due owes nothing. */
void window_rate_hold(window_rate *r, uint64_t now_ns);
/* Halves (faster false) or doubles the rate; false, unchanged, where that
 * leaves WINDOW_RATE_MIN..WINDOW_RATE_MAX or the rate is max. */
bool window_rate_change(window_rate *r, bool faster);
/* Steps per second (0: max). */
double window_rate_per_s(const window_rate *r);
/* The most steps one drawn frame runs. */
uint32_t window_rate_cap(const window_rate *r);

#endif /* WINDOW_RATE_H */
