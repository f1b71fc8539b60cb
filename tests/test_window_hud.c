/* test_window_hud.c - the HUD's layout, chart scale and number formats,
 * with no window.
 *
 * For every drawable from the smallest window (64 x 64) to beyond a large
 * screen, at scale 1 and 2 (a high-density display), help on and off, the
 * panels the layout places (figures, help, lens and its caption, the
 * notice and the "H: help" line, a timeline panel, the settings panel and
 * the inspector's below it) lie inside the drawable and no two overlap;
 * the figures keep at least one line in the smallest window and every
 * line with the chart in a large one; the settings panel keeps its picked
 * row in view. At 1600 x 1000 the settings panel and the inspector's hold
 * every row, in the corner, or left of the help when it is shown; where
 * there is no room beside the figures and the help, the settings panel
 * goes below them. Short of room the settings panel drops its last line,
 * then its keys' line, then rows, and a click picks the row drawn under
 * it. A click on the chart finds the system of the row under it, and
 * nothing elsewhere. The inspector's rows say what an inspection holds.
 * The figures' lines say what the HUD shows.
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
#include "window_inspect.h"
#include "window_settings.h"
#include "window_timeline.h"

/* DejaVu Sans at 15 px: its line height and the lens caption's width. */
#define LINE_H 17.0f
#define CAPTION_W 240.0f

typedef struct box {
    const char *name;
    float x, y, w, h;
} box;

static uint32_t boxes_of(const window_hud_layout *l, bool help, box *out)
{
    uint32_t n = 0;
    if (l->rows && !(help && l->help_in_place)) out[n++] = (box){"figures", l->x, l->y, l->w, l->h};
    if (l->help_rows) out[n++] = (box){"help", l->help_x, l->help_y, l->help_w, l->help_h};
    if (l->lens_side > 0.0f) {
        out[n++] = (box){"lens", l->lens_x - 2.0f, l->lens_y - 2.0f, l->lens_side + 4.0f,
                         l->lens_side + 4.0f};
        out[n++] = (box){"caption", l->cap_x, l->cap_y, l->cap_w, l->cap_h};
    }
    out[n++] = (box){"notice", l->x, l->notice_y, l->line_w, l->line_h};
    out[n++] = (box){"hint", l->x, l->hint_y, l->line_w, l->line_h};
    return n;
}

static bool overlap(const box *a, const box *b)
{
    return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

static void check_layout(int w, int h, float scale, bool help)
{
    window_hud_layout l =
        window_hud_layout_fit(LINE_H * scale, CAPTION_W * scale, help, w, h, scale);
    box b[12];
    uint32_t n = boxes_of(&l, help, b);
    /* The timeline panel of 4 lanes placed first, the settings panel next
     * in the top right corner, the inspector's below it. */
    window_tl_metrics m = {LINE_H * scale, 70.0f * scale, 70.0f * scale};
    window_tl_layout tl = window_tl_layout_fit(&l, true, &m, 4, w, h);
    float tl_box[4] = {tl.x, tl.y, tl.fits ? tl.w : 0.0f, tl.h};
    if (tl.fits) b[n++] = (box){"timeline", tl.x, tl.y, tl.w, tl.h};
    window_settings set = {.shown = true};
    for (unsigned row = WINDOW_SETTINGS_ROWS; row-- > 0;) { /* the picked row in view */
        set.row = row;
        window_settings_place(&set, &l, true, w, tl_box);
        if (set.w > 0.0f && (row < set.first || row >= set.first + set.rows_drawn))
            fail_msg("%dx%d scale %g help %d: row %u picked, rows %u.. %u drawn", w, h,
                     (double)scale, help, row, set.first, set.first + set.rows_drawn);
    }
    if (set.w > 0.0f) {
        uint32_t lines = 1u + set.rows_drawn + set.hint + set.fixed;
        assert_true(set.rows_drawn > 0u);
        assert_true(set.fixed ? set.hint && set.rows_drawn == WINDOW_SETTINGS_ROWS
                              : !set.hint || set.rows_drawn == WINDOW_SETTINGS_ROWS);
        assert_true(set.h >= (float)lines * l.line_h + 2.0f * set.pad);
        assert_true(set.row_y + (float)set.rows_drawn * l.line_h <= set.y + set.h);
        b[n++] = (box){"settings", set.x, set.y, set.w, set.h};
    }
    uint32_t rows;
    window_hud_box in =
        window_inspect_place(&l, true, w, tl_box, (float[4]){set.x, set.y, set.w, set.h}, &rows);
    if (rows) {
        assert_true(in.h >= ((float)rows + 1.5f) * l.line_h + 2.0f * in.pad);
        b[n++] = (box){"inspector", in.x, in.y, in.w, in.h};
    }
    for (uint32_t i = 0; i < n; i++) {
        if (b[i].w <= 0.0f || b[i].h <= 0.0f || b[i].x < 0.0f || b[i].y < 0.0f ||
            b[i].x + b[i].w > (float)w || b[i].y + b[i].h > (float)h)
            fail_msg("%dx%d scale %g help %d: %s (%g, %g, %g x %g) is not inside", w, h,
                     (double)scale, help, b[i].name, (double)b[i].x, (double)b[i].y,
                     (double)b[i].w, (double)b[i].h);
        for (uint32_t j = 0; j < i; j++)
            if (overlap(&b[i], &b[j]))
                fail_msg("%dx%d scale %g help %d: %s overlaps %s", w, h, (double)scale, help,
                         b[i].name, b[j].name);
    }
    /* The panel holds its lines: rows of the line height, and its padding. */
    if (l.rows) assert_true(l.h >= (float)l.rows * l.line_h + 2.0f * l.pad);
}

static void test_layout_never_overlaps(void **state)
{
    (void)state;
    for (int s = 1; s <= 2; s++)
        for (int w = 64; w <= 2000; w += 23)
            for (int h = 64; h <= 1300; h += 19)
                for (int help = 0; help <= 1; help++) check_layout(w * s, h * s, (float)s, help);
}

static void test_layout_keeps_what_fits(void **state)
{
    (void)state;
    window_hud_layout tiny = window_hud_layout_fit(LINE_H, CAPTION_W, false, 64, 64, 1.0f);
    assert_int_equal(tiny.rows, 1);
    assert_int_equal(tiny.lens_side, 0);
    window_hud_layout big = window_hud_layout_fit(LINE_H, CAPTION_W, true, 1440, 900, 1.0f);
    assert_int_equal(big.rows, WINDOW_HUD_FIGURE_LINES + WINDOW_HUD_CHART_LINES);
    assert_true(big.chart_fits);
    assert_int_equal(big.help_rows, WINDOW_HUD_HELP_ROWS);
    assert_false(big.help_in_place);
    assert_true(big.lens_side > 0.0f);
    for (int help = 0; help <= 1; help++) {
        window_hud_layout l = window_hud_layout_fit(LINE_H, CAPTION_W, help, 1600, 1000, 1.0f);
        uint32_t rows;
        window_hud_box b =
            window_inspect_place(&l, true, 1600, (float[4]){0}, (float[4]){0}, &rows);
        assert_int_equal(rows, WINDOW_INSPECT_ROWS);
        assert_true(b.y == l.y); /* at the top */
        if (help) assert_true(b.x + b.w < l.help_x); /* left of the help */
        else assert_true(b.x + b.w == 1600.0f - l.x); /* in the corner */
        /* The whole settings panel, with a timeline panel shown, in the
         * corner or left of the help; the inspector's whole below it. */
        window_tl_metrics m = {LINE_H, 70.0f, 70.0f};
        window_tl_layout tl = window_tl_layout_fit(&l, true, &m, 4, 1600, 1000);
        assert_true(tl.fits);
        float tl_box[4] = {tl.x, tl.y, tl.w, tl.h};
        window_settings set = {.shown = true, .row = WINDOW_SETTINGS_ROWS - 1u};
        window_settings_place(&set, &l, true, 1600, tl_box);
        assert_int_equal(set.rows_drawn, WINDOW_SETTINGS_ROWS);
        assert_int_equal(set.first, 0);
        assert_true(set.hint && set.fixed);
        assert_true(set.y == l.y);
        if (help) assert_true(set.x + set.w < l.help_x);
        else assert_true(set.x + set.w == 1600.0f - l.x);
        b = window_inspect_place(&l, true, 1600, tl_box, (float[4]){set.x, set.y, set.w, set.h},
                                 &rows);
        assert_int_equal(rows, WINDOW_INSPECT_ROWS);
        assert_true(b.y >= set.y + set.h);
    }
    /* No room beside the figures and the help: below the help, ending
     * above the timeline panel; with no help, below the figures. */
    window_tl_metrics m = {LINE_H, 70.0f, 70.0f};
    for (int help = 0; help <= 1; help++) {
        int w = help ? 1000 : 800, h = help ? 700 : 640;
        window_hud_layout l = window_hud_layout_fit(LINE_H, CAPTION_W, help, w, h, 1.0f);
        window_tl_layout tl = window_tl_layout_fit(&l, false, &m, 2, w, h);
        assert_true(tl.fits);
        float tl_box[4] = {tl.x, tl.y, tl.w, tl.h};
        window_settings set = {.shown = true};
        window_settings_place(&set, &l, false, w, tl_box);
        if (set.rows_drawn == 0u)
            fail_msg("help %d: figures %g+%g help %g+%g timeline y %g, settings at %g w %g", help,
                     (double)l.y, (double)l.h, (double)l.help_y, (double)l.help_h, (double)tl.y,
                     (double)set.y, (double)set.w);
        if (help) assert_true(set.y == l.help_y + l.help_h + l.x);
        else assert_true(set.y == l.y + l.h + l.x);
        assert_true(set.x + set.w == (float)w - l.x);
        assert_true(set.y + set.h <= tl.y - l.x);
    }
}

/* Short of room the settings panel drops what stays fixed, then the
 * keys' hint, then rows, the picked one kept in view; a click picks the
 * row drawn under it. */
static void test_settings_cut(void **state)
{
    (void)state;
    window_hud_layout l = window_hud_layout_fit(LINE_H, CAPTION_W, false, 1600, 1000, 1.0f);
    window_settings s = {.shown = true};
    float top = l.y + 2.0f * l.pad + LINE_H + l.x; /* the panel's top, padding, title, gap */
    const struct {
        unsigned lines, rows;
        bool hint, fixed;
    } cases[] = {{8, 6, true, true}, {7, 6, true, false}, {6, 6, false, false},
                 {3, 3, false, false}, {1, 1, false, false}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        /* A timeline panel across the window below room for that many lines. */
        float tl[4] = {0.0f, top + ((float)cases[k].lines + 0.5f) * LINE_H, 1600.0f, 100.0f};
        s.row = 0;
        window_settings_place(&s, &l, false, 1600, tl);
        assert_int_equal(s.rows_drawn, cases[k].rows);
        assert_int_equal(s.hint, cases[k].hint);
        assert_int_equal(s.fixed, cases[k].fixed);
        assert_true(s.y + s.h <= tl[1] - l.x);
    }
    /* Three rows: the last picked shows rows 3 to 5; a click on the
     * first drawn picks row 3, on the third row 5; below the rows, none. */
    float tl[4] = {0.0f, top + 3.5f * LINE_H, 1600.0f, 100.0f};
    s.row = WINDOW_SETTINGS_ROWS - 1u;
    window_settings_place(&s, &l, false, 1600, tl);
    assert_int_equal(s.rows_drawn, 3);
    assert_int_equal(s.first, 3);
    float x = s.x + s.pad + 20.0f;
    s.row = 0;
    assert_true(window_settings_click(&s, NULL, x, s.row_y + 0.5f * LINE_H).taken);
    assert_int_equal(s.row, 3);
    assert_true(window_settings_click(&s, NULL, x, s.row_y + 2.5f * LINE_H).taken);
    assert_int_equal(s.row, 5);
    s.row = 4;
    assert_true(window_settings_click(&s, NULL, x, s.row_y + 3.2f * LINE_H).taken);
    assert_int_equal(s.row, 4);
    /* Up from row 3 to 2: the view follows, rows 2 to 4. */
    s.row = 2;
    window_settings_place(&s, &l, false, 1600, tl);
    assert_int_equal(s.first, 2);
    /* No room for a row: no panel, and a click there is not its. */
    float none[4] = {0.0f, top + 0.5f * LINE_H, 1600.0f, 100.0f};
    window_settings_place(&s, &l, false, 1600, none);
    assert_true(s.w == 0.0f);
    assert_false(window_settings_click(&s, NULL, 1500.0f, l.y + 5.0f).taken);
}

static void test_inspect_rows(void **state)
{
    (void)state;
    sim_inspection in = {.entity = {12, 3},
                         .position = {1.5f, 2.25f},
                         .velocity = {3.0f, -4.0f},
                         .radius = 0.75f,
                         .cell = 130,
                         .cell_x = 10,
                         .cell_y = 2,
                         .stepped = true,
                         .contact_count = SIM_INSPECT_CONTACTS_MAX + 2u,
                         .contacts = {4, 9, 11, 12, 30, 31, 40, 41},
                         .moved = true,
                         .subtask = 1,
                         .subtasks = 2,
                         .worker = 0};
    window_inspect_text t;
    window_inspect_describe(&in, &t);
    assert_string_equal(t.title, "entity 12, generation 3");
    assert_string_equal(t.rows[0].text, "1.500, 2.250");
    assert_string_equal(t.rows[1].text, "3.000, -4.000 (5.000 u/s)");
    assert_string_equal(t.rows[6].text, "column 10, row 2 (cell 130)");
    assert_string_equal(t.rows[7].text, "10 in the last step");
    assert_string_equal(t.rows[8].text, "4 9 11 12 30 31 40 41 (lowest 8)");
    assert_string_equal(t.rows[9].text, "velocity subtask 1 of 2, worker 0 (main)");
    in.stepped = false;
    window_inspect_describe(&in, &t);
    assert_string_equal(t.rows[7].text, "no step yet");
    assert_string_equal(t.rows[9].text, "no step yet");
}

/* A click finds the system of the chart row under it, and nothing
 * outside the rows: above them (the figures, the chart's title), below
 * (the key), beside the panel, or where no chart is drawn. */
static void test_system_rows(void **state)
{
    (void)state;
    for (int s = 1; s <= 2; s++) {
        float scale = (float)s;
        window_hud_layout l = window_hud_layout_fit(LINE_H * scale, CAPTION_W * scale, false,
                                                    1440 * s, 900 * s, scale);
        for (int warning = 0; warning <= 1; warning++) {
            uint32_t figures = window_hud_figure_count(warning);
            float top = window_hud_chart_row0(&l, false, figures);
            assert_true(top >= l.y + (float)figures * l.line_h);
            /* every row inside the figures' panel, the key's line below them too */
            assert_true(top + (float)(SIM_SYSTEM_COUNT + 1u) * l.line_h <= l.y + l.h);
            float x = l.x + l.w * 0.5f;
            for (int i = 0; i < (int)SIM_SYSTEM_COUNT; i++) {
                float y = top + ((float)i + 0.5f) * l.line_h;
                assert_int_equal(window_hud_system_at(&l, false, figures, x, y), i);
                assert_int_equal(window_hud_system_at(&l, false, figures, l.x + 1.0f, y), i);
                assert_int_equal(window_hud_system_at(&l, false, figures, l.x - 1.0f, y), -1);
                assert_int_equal(window_hud_system_at(&l, false, figures, l.x + l.w + 1.0f, y), -1);
            }
            assert_int_equal(window_hud_system_at(&l, false, figures, x, top - 1.0f), -1);
            assert_int_equal(window_hud_system_at(&l, false, figures, x, l.y + l.pad), -1);
            float below = top + (float)SIM_SYSTEM_COUNT * l.line_h + 1.0f;
            assert_int_equal(window_hud_system_at(&l, false, figures, x, below), -1);
        }
        /* A warning line pushes the chart one line down: its first row
         * is then where the last figure was. */
        float plain = window_hud_chart_row0(&l, false, window_hud_figure_count(false));
        assert_true(window_hud_chart_row0(&l, false, window_hud_figure_count(true)) ==
                    plain + l.line_h);
        assert_int_equal(window_hud_system_at(&l, false, window_hud_figure_count(true),
                                              l.x + 5.0f, plain + 0.5f * l.line_h), -1);
    }
    /* No chart: the smallest window, or the help in the figures' place. */
    window_hud_layout tiny = window_hud_layout_fit(LINE_H, CAPTION_W, false, 64, 64, 1.0f);
    assert_true(window_hud_chart_row0(&tiny, false, window_hud_figure_count(false)) < 0.0f);
    for (float y = 0.0f; y < 64.0f; y += 1.0f)
        assert_int_equal(window_hud_system_at(&tiny, false, 5, 10.0f, y), -1);
    window_hud_layout narrow = window_hud_layout_fit(LINE_H, CAPTION_W, true, 560, 900, 1.0f);
    assert_true(narrow.help_in_place);
    assert_true(window_hud_chart_row0(&narrow, false, 5) >= 0.0f); /* help hidden: a chart */
    assert_true(window_hud_chart_row0(&narrow, true, 5) < 0.0f);
    for (float y = 0.0f; y < 900.0f; y += 4.0f)
        assert_int_equal(window_hud_system_at(&narrow, true, 5, narrow.x + 20.0f, y), -1);
}

static void test_bar_scale(void **state)
{
    (void)state;
    const double cases[][2] = {
        {0.0, 0.1},       {0.05, 0.1},      {0.1, 0.1},        {0.11, 0.2},
        {0.3, 0.5},       {0.7, 1.0},       {1.0, 1.0},        {1.2, 2.0},
        {4.9, 5.0},       {42.0, 50.0},     {150.0, 200.0},    {999.0, 1000.0},
        {1000.0, 1000.0}, {1001.0, 2000.0}, {2500.0, 5000.0},  {7300.0, 10000.0},
        {12000.0, 20000.0}, {350000.0, 500000.0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double got = window_hud_bar_scale(cases[i][0]);
        if (got < cases[i][1] * 0.999999 || got > cases[i][1] * 1.000001)
            fail_msg("bar scale for %g ms: %g, want %g", cases[i][0], got, cases[i][1]);
    }
}

static void test_counts(void **state)
{
    (void)state;
    char buf[32];
    assert_string_equal(window_hud_count(buf, sizeof buf, 0), "0");
    assert_string_equal(window_hud_count(buf, sizeof buf, 999), "999");
    assert_string_equal(window_hud_count(buf, sizeof buf, 3000), "3 000");
    assert_string_equal(window_hud_count(buf, sizeof buf, 400000), "400 000");
    assert_string_equal(window_hud_count(buf, sizeof buf, 1234567), "1 234 567");
}

static void test_view_warning(void **state)
{
    (void)state;
    char buf[128];
    /* 5 x 100 000 letterboxed into 800 x 500: 0.025 pixels wide. */
    gfx_view thin = {400.0f, 0.0f, 0.025f, 499.96f, 0.005f};
    assert_true(window_hud_view_warning(&thin, 5.0f, 100000.0f, buf, sizeof buf));
    assert_non_null(strstr(buf, "5 x 100 000"));
    assert_non_null(strstr(buf, "wide"));
    assert_null(strchr(buf, '\n'));
    gfx_view flat = {0.0f, 250.0f, 800.0f, 0.04f, 0.008f};
    assert_true(window_hud_view_warning(&flat, 100000.0f, 5.0f, buf, sizeof buf));
    assert_non_null(strstr(buf, "tall"));
    gfx_view fine = {0.0f, 0.0f, 800.0f, 500.0f, 4.0f};
    assert_false(window_hud_view_warning(&fine, 200.0f, 125.0f, buf, sizeof buf));
}

/* The figures' lines: what each says, the counts spaced, the renderer by
 * its first word, "paused" in place of the rates, and the dim lines the
 * first a small panel drops. */
static void test_figures(void **state)
{
    (void)state;
    window_stats stats;
    window_stats_init(&stats, 0);
    window_frame f = {.steps = 1, .step_ms = 2.0, .prepare_ms = 1.0, .upload_ms = 0.5, .draw_ms = 3.0};
    window_stats_add(&stats, &f, 40000000u);
    window_color_key key = {{0}, "0"};
    window_hud h = {.stats = &stats, .alive = 1234567u, .contacts = 3000u, .wave = 2u,
                    .frame = 41u, .workers = 2u, .max_workers = 4u, .ip_on = true,
                    .kernel = "grid", .storage = ECS_STORAGE_FIXED, .fixed_limit = 400000u,
                    .vsync_on = true, .rate = 25.0, .draw = GFX_DRAW_POINTS,
                    .gl_renderer = "llvmpipe (LLVM 15.0.6, 256 bits)", .gl_software = true,
                    .color = "speed", .key = &key, .key_n = 1u, .key_unit = "u/s", .zoom = 2.0f};
    window_hud_line l[WINDOW_HUD_FIGURE_LINES];
    assert_int_equal(window_hud_figures(&h, l), window_hud_figure_count(false));
    assert_string_equal(l[0].text, "1 234 567 particles   wave 2   frame 41   colour: speed (u/s)");
    assert_non_null(strstr(l[1].text, "steps/s (rate 25)   step 2.00 ms   render 4.50 ms"));
    assert_string_equal(l[2].text, "render = prepare 1.00 + upload 0.50 + draw 3.00 ms");
    assert_string_equal(l[3].text, "contacts 3 000 (grid)   workers 2 of 4   inner parallelism ON");
    assert_string_equal(l[4].text, "storage fixed (limit 400 000)   draw points on llvmpipe "
                                   "(software GL)   vsync on   zoom 2x");
    /* The two dim lines go first: the highest ranks. */
    assert_int_equal(l[2].rank, 4);
    assert_int_equal(l[4].rank, 3);
    /* Paused: no rates that only fall; --rate max; dynamic storage; a
     * hardware renderer by its first word; a warning line on top. */
    h.paused = true;
    h.rate = 0.0;
    h.storage = ECS_STORAGE_DYNAMIC;
    h.gl_renderer = "NVIDIA H200/PCIe/SSE2";
    h.gl_software = false;
    h.warning = "the world is too thin to draw";
    h.key_n = 0;
    assert_int_equal(window_hud_figures(&h, l), window_hud_figure_count(true));
    assert_string_equal(l[0].text, h.warning);
    assert_int_equal(l[0].rank, 0);
    assert_string_equal(l[1].text, "1 234 567 particles   wave 2   frame 41   colour: speed");
    assert_non_null(strstr(l[2].text, "paused (rate max)   step 2.00 ms"));
    assert_null(strstr(l[2].text, "fps"));
    assert_non_null(strstr(l[5].text, "storage dynamic   draw points on NVIDIA   vsync on"));
    /* A first word longer than the line has room for: cut, the software
     * mark kept. */
    h.gl_renderer = "llvmpipe_built_with_a_very_long_name_that_goes_on_and_on_and_on_past_64";
    h.gl_software = true;
    assert_int_equal(window_hud_figures(&h, l), window_hud_figure_count(true));
    assert_non_null(strstr(l[5].text, "on llvmpipe_built_with_a_very_long"));
    assert_non_null(strstr(l[5].text, " (software GL)   vsync on"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_never_overlaps), cmocka_unit_test(test_layout_keeps_what_fits),
        cmocka_unit_test(test_bar_scale),             cmocka_unit_test(test_counts),
        cmocka_unit_test(test_view_warning),          cmocka_unit_test(test_system_rows),
        cmocka_unit_test(test_inspect_rows),          cmocka_unit_test(test_figures),
        cmocka_unit_test(test_settings_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
