/* bench_export.h - the runs as CSV and JSON. */
#ifndef BENCH_EXPORT_H
#define BENCH_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "bench_data.h"

/* A header, then one row per run in the order they ran. */
void bench_export_csv(FILE *f, const bench_set *s);
/* {machine, options, peak_rss_source, check_frame, systems, runs[],
 * summary[] (mean and sd per configuration), deterministic}. */
void bench_export_json(FILE *f, const bench_set *s, bool deterministic);

#endif /* BENCH_EXPORT_H */
