/* bench_chart.h - the chart of mean total ms per count, drawn by gnuplot. */
#ifndef BENCH_CHART_H
#define BENCH_CHART_H

#include <stdbool.h>

#include "bench_data.h"

/* Whether gnuplot is an executable on PATH. */
bool bench_chart_available(void);

/* Draws the chart into the file out, as PNG or SVG after name's extension
 * (name is what the user asked for; out may be its .tmp). Returns 0, or 1
 * after printing why not. */
int bench_chart_write(const bench_set *s, const char *out, const char *name);

#endif /* BENCH_CHART_H */
