/* test_bench_probe_absent.c - the CPU probe where it cannot pin threads
 * (bench_machine.c built with BENCH_PROBE_FORCE_ABSENT, as off Linux): it
 * measures nothing and says why in BENCH_PROBE_ABSENT's words, for every
 * probe time, and a run whose probes all measured nothing is not called
 * unequal or busy (bench_machine_check_of). */
#include "test_util.h"

#include "bench_machine.h"

static void test_absent(void **state)
{
    (void)state;
    assert_false(BENCH_PROBE_AVAILABLE);
    assert_false(bench_probe_available());
    const uint32_t times[] = {1u, 20u, BENCH_PROBE_MAX_MS};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        bench_cpu_speeds c = {.count = 7u};
        assert_false(bench_probe_cpus(&c, times[i]));
        assert_int_equal(c.count, 0);
        assert_non_null(c.why_not);
        assert_string_equal(c.why_not, BENCH_PROBE_ABSENT);
        assert_non_null(strstr(c.why_not, "not available on this system"));
        assert_true(bench_probe_slowest(&c) == 1.0);
    }
}

static void test_machine_unprobed(void **state)
{
    (void)state;
    bench_cpu_speeds after[2];
    bench_machine m = {.probe_ms = 20u, .after = after, .after_count = 2u};
    bench_probe_cpus(&m.before, m.probe_ms);
    for (uint32_t r = 0; r < m.after_count; r++) bench_probe_cpus(&after[r], m.probe_ms);
    bench_machine_check c = bench_machine_check_of(&m);
    assert_false(c.probed);
    assert_false(c.unequal);
    assert_false(c.busy);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_absent),
        cmocka_unit_test(test_machine_unprobed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
