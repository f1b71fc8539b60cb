/* app_steady.h - when a rate says the machine was shared: the one rule
 * the bench's warning (its CPU probes: a CPU, or the machine as a whole,
 * slower than its best) and the window's timeline panel (a worker's CPU
 * time against its awake time in a step) both apply. */
#ifndef APP_STEADY_H
#define APP_STEADY_H

#include <stdbool.h>

/* Below this, a rate against what it could be means the timings shared
 * the machine with other work. */
#define APP_STEADY 0.9

/* Whether a rate (0..1 of what it could be) is below APP_STEADY as
 * printed to two places: 0.895 reads 0.90, and is let pass. */
static inline bool app_steady_slowed(double rate) { return rate < APP_STEADY - 0.005; }

#endif /* APP_STEADY_H */
