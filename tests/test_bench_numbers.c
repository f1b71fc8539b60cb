/* test_bench_numbers.c - the command line's counts and suggestions
 * (options.h): app_scan_count on every form it takes and on the near
 * misses it refuses, whole numbers only, the range and 64-bit overflow;
 * app_edit_distance and app_nearest on slips of the keyboard. */
#include "test_util.h"

#include "args.h"

static app_count_status scan(const char *s, uint32_t lo, uint32_t hi, uint32_t *v)
{
    *v = 0xdeadbeefu;
    return app_scan_count(s, strlen(s), lo, hi, v);
}

static void expect(const char *s, uint32_t want)
{
    uint32_t v;
    app_count_status st = scan(s, 0u, UINT32_MAX, &v);
    if (st != APP_COUNT_OK || v != want)
        fail_msg("'%s': status %d value %u, want %u", s, (int)st, (unsigned)v, (unsigned)want);
}

static void refuse(const char *s, app_count_status want)
{
    uint32_t v;
    app_count_status st = scan(s, 1u, 1000000000u, &v);
    if (st != want) fail_msg("'%s': status %d, want %d", s, (int)st, (int)want);
    assert_int_equal(v, 0xdeadbeefu); /* untouched */
}

static void test_forms(void **state)
{
    (void)state;
    expect("0", 0u);
    expect("200000", 200000u);
    expect("007", 7u);
    expect("200_000", 200000u);
    expect("1_000_000", 1000000u);
    expect("200k", 200000u);
    expect("200K", 200000u);
    expect("1M", 1000000u);
    expect("3G", 3000000000u);
    expect("1.5k", 1500u);
    expect("1.50k", 1500u);
    expect("1.05k", 1050u);
    /* Trailing zeros after the point, past what 64 bits hold as digits. */
    expect("1.50000000000000000000000000k", 1500u);
    expect("2.000000000000000000000000000000", 2u);
    expect("0.000000001G", 1u);
    expect("0.001k", 1u);
    expect("1e6", 1000000u);
    expect("2.5E5", 250000u);
    expect("1e0", 1u);
    expect("4e09", 4000000000u);
    expect("2.0", 2u);
    expect("1_0.2_5k", 10250u);
    expect("4294967295", UINT32_MAX);
    expect("4.294967295G", UINT32_MAX);
}

static void test_refused(void **state)
{
    (void)state;
    const char *forms[] = {"", "k", "e5", "-5", "+5", " 5", "5 ", "12x", "1m", "1kk", "1e",
                           "1e-3", "1e100", "1k5", "_5", "5_", "5__0", "1._5", "1_.5",
                           ".5k", "5.k", "1.2.3k", "50,000", "0x10", "1ek", "1.5e", "5s"};
    for (size_t i = 0; i < ARRAY_LEN(forms); i++) refuse(forms[i], APP_COUNT_FORM);
    refuse("1.2345k", APP_COUNT_FRACTION);
    refuse("1.5", APP_COUNT_FRACTION);
    refuse("0.0001k", APP_COUNT_FRACTION);
    refuse("0", APP_COUNT_RANGE);
    refuse("1.000000001G", APP_COUNT_RANGE);
    refuse("2G", APP_COUNT_RANGE);
    refuse("9e99", APP_COUNT_RANGE);
    refuse("99999999999999999999", APP_COUNT_RANGE); /* past 64 bits */
    refuse("18446744073709551616", APP_COUNT_RANGE);
    uint32_t v;
    assert_int_equal(scan("4294967296", 0u, UINT32_MAX, &v), APP_COUNT_RANGE);
    assert_int_equal(scan("4.294967296G", 0u, UINT32_MAX, &v), APP_COUNT_RANGE);
    /* len bounds the text: "12k" read as its first two characters. */
    assert_int_equal(app_scan_count("12k", 2, 0u, 100u, &v), APP_COUNT_OK);
    assert_int_equal(v, 12u);
}

static void test_distance(void **state)
{
    (void)state;
    assert_int_equal(app_edit_distance("entities", 8, "entities"), 0);
    assert_int_equal(app_edit_distance("entites", 7, "entities"), 1);   /* one left out */
    assert_int_equal(app_edit_distance("entitties", 9, "entities"), 1); /* one added */
    assert_int_equal(app_edit_distance("entitiez", 8, "entities"), 1);  /* one replaced */
    assert_int_equal(app_edit_distance("enittes", 7, "entities"), 2);   /* swapped, one out */
    assert_int_equal(app_edit_distance("fraems", 6, "frames"), 1);      /* swapped */
    assert_int_equal(app_edit_distance("", 0, "seed"), 4);
    assert_int_equal(app_edit_distance("seed", 4, ""), 4);
    assert_int_equal(app_edit_distance("ca", 2, "abc"), 3);
    assert_int_equal(app_edit_distance("entities=5", 8, "entities"), 0); /* n bounds a */
}

static void test_nearest(void **state)
{
    (void)state;
    const char *names[] = {"entities", "inner-parallelism", "storage", "threads", "seed",
                           "frames", "repeat", "csv", "json"};
    size_t n = ARRAY_LEN(names);
    assert_string_equal(app_nearest("entites", 7, names, n), "entities");
    assert_string_equal(app_nearest("inner-paralelism", 16, names, n), "inner-parallelism");
    assert_string_equal(app_nearest("thraeds", 7, names, n), "threads");
    assert_string_equal(app_nearest("sed", 3, names, n), "seed");
    assert_string_equal(app_nearest("jsn", 3, names, n), "json");
    assert_null(app_nearest("bogus", 5, names, n));
    assert_null(app_nearest("x", 1, names, n));      /* "csv" is as near as any word */
    assert_null(app_nearest("vsync", 5, names, n));  /* another mode's flag */
    assert_null(app_nearest("", 0, names, n));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forms),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_distance),
        cmocka_unit_test(test_nearest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
