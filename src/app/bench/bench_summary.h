/* bench_summary.h - mean and sd over the repeats of each configuration. */
#ifndef BENCH_SUMMARY_H
#define BENCH_SUMMARY_H

#include "bench_data.h"

/* Fills s->sums from s->runs. */
void bench_summarize(bench_set *s);

#endif /* BENCH_SUMMARY_H */
