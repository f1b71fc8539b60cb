/* test_window_view.c - the window's camera and its colour tables, with no
 * window.
 *
 * Zooming about a pixel keeps the world point under it at that pixel (in
 * and out, anywhere in the box the world is shown in), the zoom stays in
 * [1, 64] however far the wheel turns, a pan moves the world with the
 * drag, the view never leaves the world, and reset shows the whole world.
 * The worker colours are far apart and far from the chart's chain colours
 * (and the HUD's key lists each worker once), the speed ramp runs from blue to red and every grid cell differs
 * from its eight neighbours.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "window_colors.h"
#include "window_hud.h"
#include "window_view.h"

/* The thesis's 1440 x 900 world letterboxed into a 1600 x 1000 drawable
 * with a 4-unit margin, as gfx_begin_frame lays it out. */
static window_view thesis_view(void)
{
    float ppu = 1000.0f / 908.0f;
    window_view v = window_view_whole(1440.0f, 900.0f);
    gfx_view fit = {(1600.0f - 1440.0f * ppu) * 0.5f, (1000.0f - 900.0f * ppu) * 0.5f,
                    1440.0f * ppu, 900.0f * ppu, ppu};
    window_view_set_fit(&v, &fit);
    return v;
}

/* The pixel of world point (wx, wy) now, within 0.05 px of (px, py)
 * (float rounding at 64x). */
static void assert_at(const window_view *v, float wx, float wy, float px, float py)
{
    float x, y;
    window_view_to_pixel(v, wx, wy, &x, &y);
    if (!(fabsf(x - px) < 0.05f) || !(fabsf(y - py) < 0.05f))
        fail_msg("world %g,%g at pixel %g,%g, want %g,%g (zoom %g)", (double)wx, (double)wy,
                 (double)x, (double)y, (double)px, (double)py, (double)v->zoom);
}

static int distance(gfx_color a, gfx_color b)
{
    return abs(a.r - b.r) + abs(a.g - b.g) + abs(a.b - b.b);
}

static void test_zoom_keeps_the_point_under_the_cursor(void **state)
{
    (void)state;
    const float pixels[][2] = {{800.0f, 500.0f}, {300.0f, 200.0f}, {1500.0f, 900.0f}, {120.0f, 950.0f}};
    for (size_t k = 0; k < sizeof pixels / sizeof pixels[0]; k++) {
        window_view v = thesis_view();
        float px = pixels[k][0], py = pixels[k][1], wx, wy;
        window_view_to_world(&v, px, py, &wx, &wy);
        /* In, click by click, to the most. */
        for (int i = 0; i < 20; i++) {
            window_view_zoom_at(&v, px, py, WINDOW_VIEW_WHEEL_STEP);
            assert_at(&v, wx, wy, px, py);
        }
        assert_true(v.zoom >= 64.0f);
        /* Out halfway: the point stays while the box still fits inside. */
        window_view_zoom_at(&v, px, py, 1.0f / 8.0f);
        assert_at(&v, wx, wy, px, py);
        assert_true(fabsf(v.zoom - 8.0f) < 1e-4f);
    }
}

static void test_zoom_is_clamped(void **state)
{
    (void)state;
    window_view v = thesis_view();
    for (int i = 0; i < 100; i++) window_view_zoom_at(&v, 800.0f, 500.0f, 2.0f);
    assert_true(v.zoom == WINDOW_VIEW_ZOOM_MAX);
    assert_true(WINDOW_VIEW_ZOOM_MAX >= 64.0f);
    for (int i = 0; i < 100; i++) window_view_zoom_at(&v, 100.0f, 100.0f, 0.5f);
    assert_true(v.zoom == WINDOW_VIEW_ZOOM_MIN);
    /* At 1x the view is the whole world, wherever the zoom out happened. */
    gfx_view g = window_view_get(&v);
    assert_true(fabsf(g.x - v.fit.x) < 0.01f && fabsf(g.y - v.fit.y) < 0.01f);
    assert_true(fabsf(g.w - v.fit.w) < 0.01f && fabsf(g.px_per_unit - v.fit.px_per_unit) < 1e-6f);
    /* A factor that is no zoom changes nothing. */
    window_view_zoom_at(&v, 10.0f, 10.0f, 0.0f);
    window_view_zoom_at(&v, 10.0f, 10.0f, NAN);
    assert_true(v.zoom == 1.0f);
}

static void test_zoom_out_near_an_edge_keeps_the_world_in_view(void **state)
{
    (void)state;
    window_view v = thesis_view();
    window_view_zoom_at(&v, v.fit.x + 2.0f, v.fit.y + 2.0f, 16.0f);
    window_view_zoom_at(&v, v.fit.x + v.fit.w - 2.0f, v.fit.y + v.fit.h - 2.0f, 0.5f);
    /* The box shown lies inside the world. */
    float x0, y0, x1, y1;
    window_view_to_world(&v, v.fit.x, v.fit.y, &x0, &y0);
    window_view_to_world(&v, v.fit.x + v.fit.w, v.fit.y + v.fit.h, &x1, &y1);
    assert_true(x0 >= -1e-3f && y0 >= -1e-3f && x1 <= 1440.0f + 1e-3f && y1 <= 900.0f + 1e-3f);
    assert_true(fabsf((x1 - x0) - 1440.0f / 8.0f) < 0.01f);
}

static void test_pan_moves_the_world_with_the_drag(void **state)
{
    (void)state;
    window_view v = thesis_view();
    /* At 1x there is nothing to pan to. */
    window_view_pan(&v, 100.0f, -50.0f);
    assert_at(&v, 720.0f, 450.0f, 800.0f, 500.0f);
    window_view_set(&v, 4.0f, 720.0f, 450.0f);
    assert_at(&v, 720.0f, 450.0f, 800.0f, 500.0f);
    window_view_pan(&v, 100.0f, -50.0f);
    assert_at(&v, 720.0f, 450.0f, 900.0f, 450.0f);
    /* As far as the world goes, and no further. */
    window_view_pan(&v, 1e6f, 1e6f);
    float x0, y0;
    window_view_to_world(&v, v.fit.x, v.fit.y, &x0, &y0);
    assert_true(fabsf(x0) < 0.01f && fabsf(y0) < 0.01f);
}

static void test_reset_and_set(void **state)
{
    (void)state;
    window_view v = thesis_view();
    window_view_set(&v, 32.0f, 100.0f, 800.0f);
    assert_true(v.zoom == 32.0f && v.cx == 100.0f && v.cy == 800.0f);
    /* A centre too close to the corner is moved so that the box fits. */
    window_view_set(&v, 32.0f, 0.0f, 900.0f);
    assert_true(fabsf(v.cx - 1440.0f / 64.0f) < 1e-3f && fabsf(v.cy - (900.0f - 900.0f / 64.0f)) < 1e-3f);
    window_view_reset(&v);
    assert_true(v.zoom == 1.0f && v.cx == 720.0f && v.cy == 450.0f);
    /* A new drawable: the same world point stays at the box's centre. */
    window_view_set(&v, 2.0f, 500.0f, 300.0f);
    gfx_view small = {10.0f, 20.0f, 720.0f, 450.0f, 0.5f};
    window_view_set_fit(&v, &small);
    assert_at(&v, 500.0f, 300.0f, 10.0f + 360.0f, 20.0f + 225.0f);
}

static void test_worker_colors_are_distinct(void **state)
{
    (void)state;
    for (uint32_t a = 0; a < WINDOW_WORKER_COLORS; a++)
        for (uint32_t b = a + 1u; b < WINDOW_WORKER_COLORS; b++)
            if (distance(window_color_worker(a), window_color_worker(b)) < 90)
                fail_msg("workers %u and %u look alike", (unsigned)a, (unsigned)b);
    /* The first few (a small machine's) are the farthest apart. */
    for (uint32_t a = 0; a < 4u; a++)
        for (uint32_t b = a + 1u; b < 4u; b++)
            assert_true(distance(window_color_worker(a), window_color_worker(b)) >= 250);
    assert_true(distance(window_color_worker(3), window_color_worker(3u + WINDOW_WORKER_COLORS)) == 0);
}

/* The workers' palette keeps away from the chart's chain colours and the
 * timeline's darker shade of them: a worker's particles are never taken
 * for a chain's. */
static void test_worker_colors_not_chains(void **state)
{
    (void)state;
    for (uint32_t w = 0; w < WINDOW_WORKER_COLORS; w++) {
        gfx_color c = window_color_worker(w);
        for (uint32_t s = 0; s < SIM_SYSTEM_COUNT; s++) {
            gfx_color chain = window_hud_system_color(s);
            gfx_color dark = {(uint8_t)(chain.r * 0.78f), (uint8_t)(chain.g * 0.78f),
                              (uint8_t)(chain.b * 0.78f), 255};
            if (distance(c, chain) < 100 || distance(c, dark) < 100)
                fail_msg("worker %u (%d %d %d) looks like system %u's chain (%d %d %d)",
                         (unsigned)w, c.r, c.g, c.b, (unsigned)s, chain.r, chain.g, chain.b);
        }
    }
}

/* The HUD's key: each worker that coloured a batch once, ascending. */
static void test_workers_seen(void **state)
{
    (void)state;
    window_colors c;
    assert_int_equal(window_colors_init(&c, 6), 0);
    const uint32_t of[6] = {3, 0, 3, UINT32_MAX, 1, 0};
    for (uint32_t b = 0; b < 6; b++) c.worker_of[b] = of[b];
    c.worker_batches = 6;
    uint32_t out[8];
    assert_int_equal(window_colors_workers(&c, out, 8), 3);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[1], 1);
    assert_int_equal(out[2], 3);
    assert_int_equal(window_colors_workers(&c, out, 2), 2);
    /* The HUD's key of the worker colouring: the same workers, labelled. */
    window_color_key key[WINDOW_COLOR_KEY_MAX];
    assert_int_equal(window_colors_key(&c, WINDOW_COLOR_WORKER, NULL, key), 3);
    assert_string_equal(key[2].label, "w3"); /* the lane's name */
    assert_true(distance(key[2].color, window_color_worker(3)) == 0);
    assert_int_equal(window_colors_key(&c, WINDOW_COLOR_THESIS, NULL, key), 0);
    assert_int_equal(window_colors_key(&c, WINDOW_COLOR_CELL, NULL, key), 0);
    c.worker_batches = 0;
    assert_int_equal(window_colors_workers(&c, out, 8), 0);
    window_colors_fini(&c);
}

static void test_speed_ramp_and_cells(void **state)
{
    (void)state;
    gfx_color slow = window_color_speed(0.0f, 10.0f), fast = window_color_speed(10.0f, 10.0f);
    assert_true(slow.b > slow.r && fast.r > fast.b);
    assert_true(distance(window_color_speed(99.0f, 10.0f), fast) == 0);
    assert_true(distance(window_color_speed(NAN, 10.0f), fast) == 0 ||
                distance(window_color_speed(NAN, 10.0f), slow) == 0);
    assert_true(distance(window_color_speed(5.0f, 10.0f), slow) > 150);
    for (uint32_t row = 1; row < 8u; row++)
        for (uint32_t col = 1; col < 8u; col++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    if ((dx || dy) &&
                        distance(window_color_cell(col, row),
                                 window_color_cell(col + (uint32_t)dx, row + (uint32_t)dy)) < 60)
                        fail_msg("cell %u,%u looks like its neighbour %+d,%+d", (unsigned)col,
                                 (unsigned)row, dx, dy);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zoom_keeps_the_point_under_the_cursor),
        cmocka_unit_test(test_zoom_is_clamped),
        cmocka_unit_test(test_zoom_out_near_an_edge_keeps_the_world_in_view),
        cmocka_unit_test(test_pan_moves_the_world_with_the_drag),
        cmocka_unit_test(test_reset_and_set),
        cmocka_unit_test(test_worker_colors_are_distinct),
        cmocka_unit_test(test_worker_colors_not_chains),
        cmocka_unit_test(test_workers_seen),
        cmocka_unit_test(test_speed_ramp_and_cells),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
