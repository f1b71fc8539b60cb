/* bench_mwu.c - the Mann-Whitney U test, two-sided: exact for small
 * samples without ties, else the normal approximation. */
#include "bench_mwu.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

/* C(n, k) as a double (exact up to 2^53, ample for p_min). */
static double choose(size_t n, size_t k)
{
    double c = 1.0;
    for (size_t i = 1; i <= k; i++) c = c * (double)(n - k + i) / (double)i;
    return c;
}

double bench_mwu_p_min(size_t nx, size_t ny) { return fmin(1.0, 2.0 / choose(nx + ny, nx)); }

/* P(U <= u) and P(U >= u) when all arrangements of m values of one side
 * among m + n are equally likely: counts of arrangements per U through
 * c(m, n, u) = c(m - 1, n, u - n) + c(m, n - 1, u) (the largest value
 * comes from the first side, above all n of the other, or not). Returns
 * false when out of memory. */
static bool exact_tails(size_t m, size_t n, double u, double *le, double *ge)
{
    size_t width = m * n + 1;
    double *prev = calloc((n + 1) * width, sizeof *prev);
    double *cur = calloc((n + 1) * width, sizeof *cur);
    if (!prev || !cur) {
        free(prev);
        free(cur);
        return false;
    }
    for (size_t i = 0; i <= m; i++) {
        for (size_t j = 0; j <= n; j++) {
            double *c = cur + j * width;
            for (size_t v = 0; v < width; v++) {
                if (i == 0 || j == 0) {
                    c[v] = v == 0;
                    continue;
                }
                c[v] = (v >= j ? prev[j * width + v - j] : 0.0) + cur[(j - 1) * width + v];
            }
        }
        double *t = prev;
        prev = cur;
        cur = t;
    }
    double total = 0.0, below = 0.0, above = 0.0;
    for (size_t v = 0; v < width; v++) {
        double k = prev[n * width + v];
        total += k;
        if ((double)v <= u) below += k;
        if ((double)v >= u) above += k;
    }
    free(prev);
    free(cur);
    *le = below / total;
    *ge = above / total;
    return true;
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* Sum over groups of equal values of t^3 - t (t values in the group). */
static double tie_sum(const double *x, size_t nx, const double *y, size_t ny)
{
    size_t n = nx + ny;
    double *all = malloc(n * sizeof *all), sum = 0.0;
    if (!all) return NAN;
    for (size_t i = 0; i < n; i++) all[i] = i < nx ? x[i] : y[i - nx];
    qsort(all, n, sizeof *all, cmp_double);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && all[j] == all[i]) j++;
        double t = (double)(j - i);
        sum += t * t * t - t;
        i = j;
    }
    free(all);
    return sum;
}

bench_mwu bench_mwu_test(const double *x, size_t nx, const double *y, size_t ny)
{
    assert(nx > 0 && ny > 0);
    bench_mwu r = {0};
    for (size_t i = 0; i < nx; i++)
        for (size_t j = 0; j < ny; j++) r.u += x[i] > y[j] ? 1.0 : x[i] == y[j] ? 0.5 : 0.0;
    double n = (double)(nx + ny), mean = (double)nx * (double)ny / 2.0;
    r.p_min = bench_mwu_p_min(nx, ny);
    double ties = tie_sum(x, nx, y, ny);
    double le, ge;
    if (ties == 0.0 && nx <= BENCH_MWU_EXACT_MAX && ny <= BENCH_MWU_EXACT_MAX &&
        exact_tails(nx, ny, r.u, &le, &ge)) {
        r.exact = true;
        r.p = fmin(1.0, 2.0 * fmin(le, ge));
        return r;
    }
    if (isnan(ties)) ties = 0.0; /* out of memory: as if there were none */
    double var = (double)nx * (double)ny / 12.0 * ((n + 1.0) - ties / (n * (n - 1.0)));
    if (!(var > 0.0)) {
        r.p = 1.0; /* every value equal */
        return r;
    }
    double z = fmax(0.0, fabs(r.u - mean) - 0.5) / sqrt(var);
    r.p = fmin(1.0, erfc(z / sqrt(2.0)));
    return r;
}
