/* bench_chart.h - the chart of mean total ms per count, drawn by gnuplot. */
#ifndef BENCH_CHART_H
#define BENCH_CHART_H

#include <stdbool.h>

#include "bench_data.h"

/* The gnuplot that bench_chart_write will run, into exe: the first
 * executable regular file named gnuplot in a PATH entry (PATH unset: the
 * system's default path). False if there is none. */
bool bench_chart_find(char *exe, size_t size);

/* Runs exe to draw the chart into the file out, as PNG or SVG after name's
 * extension (name is what the user asked for; out may be its temporary).
 * Returns 0, or 1 after printing why not (nothing printed when a stop
 * signal ended it). */
int bench_chart_write(const bench_set *s, const char *exe, const char *out, const char *name);

#endif /* BENCH_CHART_H */
