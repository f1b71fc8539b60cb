/* test_bench_probe.c - bench_probe_cpus: which CPUs it measures (all the
 * calling thread may use, ascending, or only the one it is pinned to)
 * and the form of the speeds (each in (0, 1], the fastest exactly 1). */
#define _GNU_SOURCE /* sched_getaffinity, sched_setaffinity */
#include "test_util.h"

#include <sched.h>

#include "bench_probe.h"

#define PROBE_MS 20u

static void check_speeds(const bench_cpu_speeds *c)
{
    bool fastest = false;
    for (uint32_t k = 0; k < c->count; k++) {
        assert_true(c->speed[k] > 0.0 && c->speed[k] <= 1.0);
        if (c->speed[k] == 1.0) fastest = true;
        if (k) assert_true(c->cpu[k - 1] < c->cpu[k]);
    }
    assert_true(fastest);
    assert_true(c->fastest > 0.0);
}

static void test_every_allowed_cpu(void **state)
{
    (void)state;
    cpu_set_t mask;
    assert_int_equal(sched_getaffinity(0, sizeof mask, &mask), 0);
    uint32_t want = (uint32_t)CPU_COUNT(&mask);
    if (want > BENCH_PROBE_MAX_CPUS) want = BENCH_PROBE_MAX_CPUS;
    bench_cpu_speeds c;
    memset(&c, 0xff, sizeof c);
    assert_true(bench_probe_cpus(&c, PROBE_MS));
    assert_null(c.why_not);
    assert_int_equal(c.count, want);
    for (uint32_t k = 0; k < c.count; k++) assert_true(CPU_ISSET(c.cpu[k], &mask));
    check_speeds(&c);
}

/* Pinned to its last allowed CPU, the caller gets that one CPU at 1.0. */
static void test_pinned_caller(void **state)
{
    (void)state;
    cpu_set_t mask, one;
    assert_int_equal(sched_getaffinity(0, sizeof mask, &mask), 0);
    int last = -1;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &mask)) last = c;
    assert_true(last >= 0);
    CPU_ZERO(&one);
    CPU_SET(last, &one);
    assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0);
    bench_cpu_speeds c;
    bool ok = bench_probe_cpus(&c, PROBE_MS);
    assert_int_equal(sched_setaffinity(0, sizeof mask, &mask), 0);
    assert_true(ok);
    assert_int_equal(c.count, 1);
    assert_int_equal(c.cpu[0], last);
    assert_true(c.speed[0] == 1.0);
    assert_true(c.fastest > 0.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_allowed_cpu),
        cmocka_unit_test(test_pinned_caller),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
