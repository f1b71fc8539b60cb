/* bench_stats.h - mean, standard deviation, percentile. */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stddef.h>

double bench_mean(const double *v, size_t n);
/* Sample standard deviation (n - 1); 0 when n < 2. */
double bench_sd(const double *v, size_t n);
/* The p-th percentile (0..100), interpolating linearly between closest
 * ranks. Sorts v in place. 0 when n is 0. */
double bench_percentile(double *v, size_t n, double p);

#endif /* BENCH_STATS_H */
