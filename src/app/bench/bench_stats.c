/* bench_stats.c - mean, standard deviation, percentile. */
#include "bench_stats.h"

#include <math.h>
#include <stdlib.h>

double bench_mean(const double *v, size_t n)
{
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) sum += v[i];
    return n ? sum / (double)n : 0.0;
}

double bench_sd(const double *v, size_t n)
{
    if (n < 2) return 0.0;
    double m = bench_mean(v, n), sq = 0.0;
    for (size_t i = 0; i < n; i++) sq += (v[i] - m) * (v[i] - m);
    return sqrt(sq / (double)(n - 1));
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

double bench_percentile(double *v, size_t n, double p)
{
    if (n == 0) return 0.0;
    qsort(v, n, sizeof *v, cmp_double);
    double rank = p / 100.0 * (double)(n - 1);
    size_t lo = (size_t)rank;
    if (lo + 1 >= n) return v[n - 1];
    double frac = rank - (double)lo;
    return v[lo] + (v[lo + 1] - v[lo]) * frac;
}
