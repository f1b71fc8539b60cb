/* test_bench_probe.c - bench_probe_cpus: which CPUs it measures (all the
 * calling thread may use, ascending, or only the one it is pinned to),
 * the form of both loops' speeds (each in (0, 1], the fastest exactly 1),
 * a thread that cannot be started (linked with --wrap=pthread_create): the
 * ones already started are released and joined, and it says why; and
 * bench_probe_slowest over both loops, which of a run's probes found the
 * slowest (bench_machine_slowest), and when the run's probes call the
 * CPUs unequal or the machine busy (bench_machine_check_of). */
#define _GNU_SOURCE /* sched_getaffinity, sched_setaffinity */
#include "test_util.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>

#include "bench_machine.h"

#define PROBE_MS 20u

/* pthread_create fails on its fail_at-th call (1-based; 0: never). */
static int fail_at, create_calls;
int __real_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg)
{
    if (++create_calls == fail_at) return EAGAIN;
    return __real_pthread_create(t, a, fn, arg);
}

static void check_speeds(const bench_cpu_speeds *c)
{
    bool fastest = false, mem_fastest = false;
    for (uint32_t k = 0; k < c->count; k++) {
        assert_true(c->speed[k] > 0.0 && c->speed[k] <= 1.0);
        assert_true(c->mem_speed[k] > 0.0 && c->mem_speed[k] <= 1.0);
        if (c->speed[k] == 1.0) fastest = true;
        if (c->mem_speed[k] == 1.0) mem_fastest = true;
        if (k) assert_true(c->cpu[k - 1] < c->cpu[k]);
    }
    assert_true(fastest && mem_fastest);
    assert_true(c->fastest > 0.0);
    /* At least one sweep of 256 KiB read and written in the half probe. */
    assert_true(c->mem_fastest >= 2.0 * BENCH_PROBE_SWEEP_KIB * 1024.0 / (PROBE_MS * 1e-3));
    double slowest = bench_probe_slowest(c);
    assert_true(slowest > 0.0 && slowest <= 1.0);
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
    assert_true(c.speed[0] == 1.0 && c.mem_speed[0] == 1.0);
    assert_true(c.fastest > 0.0 && c.mem_fastest > 0.0);
}

/* A probe time outside 1..BENCH_PROBE_MAX_MS measures nothing and says why. */
static void test_bad_time(void **state)
{
    (void)state;
    const uint32_t bad[] = {0u, BENCH_PROBE_MAX_MS + 1u};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        bench_cpu_speeds c;
        memset(&c, 0xff, sizeof c);
        assert_false(bench_probe_cpus(&c, bad[i]));
        assert_int_equal(c.count, 0);
        assert_non_null(c.why_not);
    }
}

/* The first thread, or (with two CPUs or more) the second, cannot start:
 * false, no CPU listed, a reason; then a probe without failures works. */
static void test_thread_not_started(void **state)
{
    (void)state;
    cpu_set_t mask;
    assert_int_equal(sched_getaffinity(0, sizeof mask, &mask), 0);
    int last = CPU_COUNT(&mask) >= 2 ? 2 : 1;
    for (fail_at = 1; fail_at <= last; fail_at++) {
        create_calls = 0;
        bench_cpu_speeds c;
        assert_false(bench_probe_cpus(&c, PROBE_MS));
        assert_int_equal(c.count, 0);
        assert_non_null(c.why_not);
        assert_non_null(strstr(c.why_not, "thread"));
        assert_int_equal(create_calls, fail_at);
    }
    fail_at = 0;
    bench_cpu_speeds c;
    assert_true(bench_probe_cpus(&c, PROBE_MS));
    check_speeds(&c);
}

/* The lowest of either loop's speeds, over every CPU; 1.0 for none. */
static void test_slowest(void **state)
{
    (void)state;
    bench_cpu_speeds c = {.count = 0};
    assert_true(bench_probe_slowest(&c) == 1.0);
    c = (bench_cpu_speeds){.count = 3,
                           .speed = {1.0, 0.9, 1.0},
                           .mem_speed = {0.8, 1.0, 0.55},
                           .fastest = 1.0,
                           .mem_fastest = 1.0};
    assert_true(bench_probe_slowest(&c) == 0.55);
    uint32_t at;
    bool sweep;
    assert_true(bench_probe_slowest_at(&c, &at, &sweep) == 0.55);
    assert_int_equal(at, 2);
    assert_true(sweep);
    c.speed[1] = 0.5;
    assert_true(bench_probe_slowest(&c) == 0.5);
    assert_true(bench_probe_slowest_at(&c, &at, &sweep) == 0.5);
    assert_int_equal(at, 1);
    assert_false(sweep);
}

/* Which probe of a run found the lowest speed: the first of equals, from
 * probe `from` on (0 before the runs, r after repeat r). */
static void test_machine_slowest(void **state)
{
    (void)state;
    bench_cpu_speeds after[3] = {
        {.count = 1, .speed = {1.0}, .mem_speed = {0.7}},
        {.count = 1, .speed = {0.6}, .mem_speed = {1.0}},
        {.count = 1, .speed = {1.0}, .mem_speed = {0.6}},
    };
    bench_machine m = {.probe_ms = 20,
                       .before = {.count = 1, .speed = {0.5}, .mem_speed = {1.0}},
                       .after = after,
                       .after_count = 3};
    assert_ptr_equal(bench_machine_probe(&m, 0), &m.before);
    assert_ptr_equal(bench_machine_probe(&m, 2), &after[1]);
    assert_int_equal(bench_machine_slowest(&m, 0), 0);
    assert_int_equal(bench_machine_slowest(&m, 1), 2);
    m.after_count = 0;
    assert_int_equal(bench_machine_slowest(&m, 1), 1);
}

/* Probes as measured: two CPUs, each probe with the fastest's rates. */
static bench_cpu_speeds probe2(double c0, double c1, double m0, double m1, double fastest,
                               double mem_fastest)
{
    return (bench_cpu_speeds){.count = 2, .cpu = {0, 1}, .speed = {c0, c1},
                              .mem_speed = {m0, m1}, .fastest = fastest,
                              .mem_fastest = mem_fastest};
}

static void test_machine_check(void **state)
{
    (void)state;
    bench_cpu_speeds after[2] = {probe2(1.0, 0.95, 1.0, 0.91, 100.0, 10.0),
                                 probe2(1.0, 0.93, 0.92, 1.0, 99.0, 9.5)};
    bench_machine m = {.probe_ms = 20, .before = probe2(0.97, 1.0, 1.0, 1.0, 98.0, 9.8),
                       .after = after, .after_count = 2};
    bench_machine_check c = bench_machine_check_of(&m); /* steady: no warning */
    assert_true(c.probed);
    assert_false(c.unequal);
    assert_false(c.busy);
    assert_true(c.cpu_speed > 0.909 && c.cpu_speed < 0.911);
    assert_int_equal(c.cpu, 1);
    assert_true(c.cpu_sweep);
    assert_int_equal(c.cpu_probe, 1);

    after[1] = probe2(1.0, 0.48, 1.0, 0.95, 99.0, 9.5); /* cpu1's chain at half speed */
    c = bench_machine_check_of(&m);
    assert_true(c.unequal);
    assert_false(c.busy);
    assert_int_equal(c.cpu, 1);
    assert_false(c.cpu_sweep);
    assert_int_equal(c.cpu_probe, 2);

    after[1] = probe2(1.0, 0.95, 1.0, 0.95, 99.0, 6.0); /* every CPU's sweep slower */
    c = bench_machine_check_of(&m);
    assert_false(c.unequal);
    assert_true(c.busy);
    assert_true(c.machine_sweep);
    assert_int_equal(c.machine_probe, 2);
    assert_true(c.machine_speed > 0.59 && c.machine_speed < 0.61);

    m.before = (bench_cpu_speeds){.count = 0, .why_not = "x"}; /* a failed probe is skipped */
    after[0] = after[1] = probe2(1.0, 1.0, 1.0, 1.0, 50.0, 5.0);
    c = bench_machine_check_of(&m);
    assert_true(c.probed);
    assert_false(c.unequal || c.busy);
    m.probe_ms = 0; /* not probed: nothing to say */
    c = bench_machine_check_of(&m);
    assert_false(c.probed || c.unequal || c.busy);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_allowed_cpu),
        cmocka_unit_test(test_pinned_caller),
        cmocka_unit_test(test_thread_not_started),
        cmocka_unit_test(test_slowest),
        cmocka_unit_test(test_machine_slowest),
        cmocka_unit_test(test_machine_check),
        cmocka_unit_test(test_bad_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
