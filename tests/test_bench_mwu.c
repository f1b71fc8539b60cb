/* test_bench_mwu.c - the bench's Mann-Whitney U test against known
 * values: exact p-values of small samples (complete separation, the
 * textbook 5 against 4), the normal approximation with ties, identical
 * samples, the smallest p two sample sizes allow. */
#include "test_util.h"

#include <math.h>

#include "bench_internal.h"

static void near(double got, double want, double tol)
{
    if (fabs(got - want) > tol) fail_msg("got %.12g, want %.12g", got, want);
}

static void test_exact(void **state)
{
    (void)state;
    const double a[] = {1, 2, 3}, b[] = {4, 5, 6};
    bench_mwu t = bench_mwu_test(a, 3, b, 3);
    assert_true(t.exact);
    near(t.u, 0.0, 0.0);
    near(t.p, 0.1, 1e-12); /* 2 / C(6, 3) */
    near(t.p_min, 0.1, 1e-12);
    t = bench_mwu_test(b, 3, a, 3); /* the other way round: U = 9, same p */
    near(t.u, 9.0, 0.0);
    near(t.p, 0.1, 1e-12);

    const double lo[] = {10, 11, 12, 13, 14}, hi[] = {20, 21, 22, 23, 24};
    t = bench_mwu_test(hi, 5, lo, 5);
    near(t.u, 25.0, 0.0);
    near(t.p, 2.0 / 252.0, 1e-12);

    /* Five against four (a classic example): U = 17, two-sided p = 1/9. */
    const double x[] = {19, 22, 16, 29, 24}, y[] = {20, 11, 17, 12};
    t = bench_mwu_test(x, 5, y, 4);
    assert_true(t.exact);
    near(t.u, 17.0, 0.0);
    near(t.p, 1.0 / 9.0, 1e-12);

    /* Interleaved evenly: no evidence at all. */
    const double e1[] = {1, 4, 5, 8}, e2[] = {2, 3, 6, 7};
    t = bench_mwu_test(e1, 4, e2, 4);
    near(t.u, 8.0, 0.0);
    near(t.p, 1.0, 1e-12);
}

static void test_normal_with_ties(void **state)
{
    (void)state;
    const double x[] = {1, 2, 2, 3, 4, 4, 4, 5}, y[] = {3, 4, 5, 5, 6, 6, 7, 8, 8};
    bench_mwu t = bench_mwu_test(x, 8, y, 9);
    assert_false(t.exact); /* ties */
    near(t.u, 8.0, 0.0);
    /* z = (|8 - 36| - 0.5) / sqrt(72 / 12 * (18 - 120 / 272)) */
    near(t.p, 0.007453631850691223, 1e-12);

    const double same[] = {5, 6, 7, 8, 9};
    t = bench_mwu_test(same, 5, same, 5); /* a run against itself */
    near(t.u, 12.5, 0.0);
    near(t.p, 1.0, 0.0);
    const double flat[] = {3, 3, 3};
    t = bench_mwu_test(flat, 3, flat, 2); /* every value equal */
    near(t.p, 1.0, 0.0);
}

static void test_large_normal(void **state)
{
    (void)state;
    double x[30], y[30];
    for (int i = 0; i < 30; i++) x[i] = i, y[i] = i + 0.5; /* y above x in 465 of 900 pairs */
    bench_mwu t = bench_mwu_test(x, 30, y, 30);
    assert_false(t.exact); /* beyond BENCH_MWU_EXACT_MAX */
    near(t.u, 435.0, 0.0);
    /* z = (|435 - 450| - 0.5) / sqrt(900 * 61 / 12) */
    near(t.p, 0.8302552839111963, 1e-12);
}

static void test_p_min(void **state)
{
    (void)state;
    near(bench_mwu_p_min(1, 1), 1.0, 0.0);
    near(bench_mwu_p_min(3, 3), 0.1, 1e-12);
    assert_true(bench_mwu_p_min(3, 3) > BENCH_MWU_ALPHA); /* 3 against 3: never */
    assert_true(bench_mwu_p_min(4, 4) < BENCH_MWU_ALPHA); /* 2 / 70 */
    assert_true(bench_mwu_p_min(1, 39) >= BENCH_MWU_ALPHA); /* 2 / 40 */
    assert_true(bench_mwu_p_min(1, 40) < BENCH_MWU_ALPHA);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact),
        cmocka_unit_test(test_normal_with_ties),
        cmocka_unit_test(test_large_normal),
        cmocka_unit_test(test_p_min),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
