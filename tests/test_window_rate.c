/* test_window_rate.c - the window's simulation rate (window_rate.h) on a
 * clock the test moves, and the HUD's "behind" line.
 *
 * At 25 steps per second the first frame runs one step, frames 1 ms apart
 * run none until 40 ms have passed, one frame after 100 ms runs 2 (the
 * rest carried), and over 30 s of frames at any spacing from 1 ms to 200
 * ms the steps are the seconds times the rate; a frame after a second
 * runs the catch-up cap (6 at 25/s) and counts the rest dropped; paused
 * (hold) owes nothing; [ and ] halve and double within 1..1000 and refuse
 * past them; max runs one step a frame and is never changed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "window_hud.h"
#include "window_rate.h"

#define MS 1000000ull

static void test_steps_follow_the_clock(void **state)
{
    (void)state;
    window_rate r;
    uint64_t t = 5000 * MS, dropped = 99;
    window_rate_start(&r, 25u, t);
    assert_int_equal(window_rate_due(&r, t, &dropped), 1); /* the first frame shows a step */
    assert_int_equal(dropped, 0);
    for (int i = 0; i < 39; i++) assert_int_equal(window_rate_due(&r, t += MS, &dropped), 0);
    assert_int_equal(window_rate_due(&r, t += MS, &dropped), 1); /* 40 ms */
    assert_int_equal(window_rate_due(&r, t += 100 * MS, &dropped), 2);
    assert_int_equal(window_rate_due(&r, t += 20 * MS, &dropped), 1); /* 20 ms carried */
    /* 30 s of frames of every spacing from 1 to 200 ms: 750 steps, none dropped. */
    window_rate_start(&r, 25u, t);
    uint64_t end = t + 30000 * MS, steps = window_rate_due(&r, t, &dropped) - 1u, spacing = 1;
    while (t < end) {
        uint64_t next = t + spacing * MS;
        t = next < end ? next : end;
        steps += window_rate_due(&r, t, &dropped);
        assert_int_equal(dropped, 0);
        spacing = spacing % 200u + 1u;
    }
    assert_int_equal(steps, 750);
}

static void test_cap_drops(void **state)
{
    (void)state;
    window_rate r;
    uint64_t t = 0, dropped = 0;
    window_rate_start(&r, 25u, t);
    assert_int_equal(window_rate_cap(&r), 6); /* a quarter second at 25/s */
    window_rate_due(&r, t, &dropped);
    assert_int_equal(window_rate_due(&r, t += 1000 * MS, &dropped), 6);
    assert_int_equal(dropped, 25 - 6);
    window_rate_start(&r, 1u, t);
    assert_int_equal(window_rate_cap(&r), 1); /* never below one */
}

static void test_hold(void **state)
{
    (void)state;
    window_rate r;
    uint64_t t = 0, dropped = 0;
    window_rate_start(&r, 25u, t);
    window_rate_due(&r, t, &dropped);
    assert_int_equal(window_rate_due(&r, t += 30 * MS, &dropped), 0);
    window_rate_hold(&r, t += 10000 * MS); /* ten seconds paused */
    assert_int_equal(window_rate_due(&r, t += 5 * MS, &dropped), 0);
    assert_int_equal(window_rate_due(&r, t += 5 * MS, &dropped), 1); /* 30 + 10 ms */
    assert_int_equal(dropped, 0);
}

static void test_change(void **state)
{
    (void)state;
    window_rate r;
    window_rate_start(&r, 25u, 0);
    for (int i = 0; i < 5; i++) assert_true(window_rate_change(&r, true));
    assert_true(window_rate_per_s(&r) == 800.0);
    assert_false(window_rate_change(&r, true)); /* 1600 > 1000 */
    assert_true(window_rate_per_s(&r) == 800.0);
    window_rate_start(&r, 25u, 0);
    for (int i = 0; i < 4; i++) assert_true(window_rate_change(&r, false));
    assert_true(window_rate_per_s(&r) == 1.5625);
    assert_false(window_rate_change(&r, false)); /* below 1 */
    window_rate_start(&r, 1000u, 0);
    assert_false(window_rate_change(&r, true));
    window_rate_start(&r, 1u, 0);
    assert_false(window_rate_change(&r, false));
}

static void test_max(void **state)
{
    (void)state;
    window_rate r;
    uint64_t dropped = 7;
    window_rate_start(&r, 0u, 0);
    for (uint64_t t = 0; t < 3000 * MS; t += 700 * MS) {
        assert_int_equal(window_rate_due(&r, t, &dropped), 1);
        assert_int_equal(dropped, 0);
    }
    assert_false(window_rate_change(&r, true));
    assert_true(window_rate_per_s(&r) == 0.0);
}

static void test_behind_line(void **state)
{
    (void)state;
    char buf[160];
    window_span s = {.start_ns = 0, .end_ns = 1000 * MS, .steps = 12, .dropped = 13};
    assert_true(window_hud_behind(&s, 25.0, buf, sizeof buf));
    assert_non_null(strstr(buf, "behind: 12.0 steps/s of the 25 set, 13 steps dropped"));
    s.dropped = 0;
    assert_false(window_hud_behind(&s, 25.0, buf, sizeof buf));
    assert_false(window_hud_behind(NULL, 25.0, buf, sizeof buf));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steps_follow_the_clock), cmocka_unit_test(test_cap_drops),
        cmocka_unit_test(test_hold),                   cmocka_unit_test(test_change),
        cmocka_unit_test(test_max),                    cmocka_unit_test(test_behind_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
