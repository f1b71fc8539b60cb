/* bench_mwu.h - the Mann-Whitney U test: whether two sets of timings
 * differ beyond what their spread explains, without assuming a
 * distribution. */
#ifndef BENCH_MWU_H
#define BENCH_MWU_H

#include <stdbool.h>
#include <stddef.h>

#define BENCH_MWU_ALPHA 0.05
/* Up to this many values on each side without ties, the p-value is exact. */
#define BENCH_MWU_EXACT_MAX 20u

typedef struct bench_mwu {
    double u;     /* pairs (x_i, y_j) with x_i > y_j, each tie counting half */
    double p;     /* two-sided p-value */
    bool exact;   /* from the exact distribution of U (no ties, both sides
                     within BENCH_MWU_EXACT_MAX); else the normal
                     approximation with tie and continuity corrections */
    double p_min; /* the smallest two-sided p any two sets of these sizes
                     can give: 2 / C(nx + ny, nx), at most 1 */
} bench_mwu;

/* The smallest two-sided p two sets of nx and ny values can give. */
double bench_mwu_p_min(size_t nx, size_t ny);

/* The test of x[0..nx) against y[0..ny), both non-empty. */
bench_mwu bench_mwu_test(const double *x, size_t nx, const double *y, size_t ny);

#endif /* BENCH_MWU_H */
