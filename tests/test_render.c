/* test_render.c - the render module in a real OpenGL 3.3 core context
 * (under Xvfb with Mesa's llvmpipe in CI).
 *
 * Known particles (places, radii, colors, one half faded) are drawn into
 * a 400 x 300 window showing a 200 x 100 world, and the pixels read back
 * are checked: each opaque particle's color at its center, the blend of
 * the faded one over the background, background between them, the darker
 * letterbox bars, the same after the window is resized to 600 x 300 (the
 * bars move from top and bottom to left and right), both draw paths, the
 * highlight, text, and the one-line errors for a broken shader, a shader
 * or font not given and a file that is no font.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <SDL.h>

#include "gfx.h"

#define WORLD_W 200.0f
#define WORLD_H 100.0f
#define MARGIN 4.0f

typedef struct fixture {
    SDL_Window *win;
    SDL_GLContext gl;
    gfx_renderer *r;     /* draws points */
    gfx_renderer *quads; /* the same, drawing quads (a second renderer in the context) */
    int w, h;
    uint8_t *px;
} fixture;

static fixture fx;

static void (*gl_proc(const char *name))(void)
{
    void *sym = SDL_GL_GetProcAddress(name);
    void (*fn)(void);
    memcpy(&fn, &sym, sizeof fn);
    return fn;
}

/* A file read whole by the test (gfx reads none): no bytes where it
 * cannot be read. */
static gfx_file test_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char *b = NULL;
    size_t n = 0;
    if (f) {
        b = malloc(16u << 20);
        assert_non_null(b);
        n = fread(b, 1, 16u << 20, f);
        fclose(f);
    }
    char *name = strdup(path);
    assert_non_null(name);
    return (gfx_file){name, b, n};
}

/* gfx_create's definition with the shaders of shader_dir and the font. */
static gfx_def test_def(const char *shader_dir, const char *font)
{
    gfx_def d = gfx_default_def();
    d.load = gl_proc;
    for (int s = 0; s < GFX_SHADER_COUNT; s++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", shader_dir, gfx_shader_file((gfx_shader)s));
        d.shaders[s] = test_file(path);
    }
    d.font = test_file(font);
    d.world_w = WORLD_W;
    d.world_h = WORLD_H;
    d.margin = MARGIN;
    d.max_radius = 12.0f;
    d.background = (gfx_color){20, 40, 60, 255};
    return d;
}

static void def_free(gfx_def *d)
{
    for (int s = 0; s <= GFX_SHADER_COUNT; s++) {
        gfx_file *f = s < GFX_SHADER_COUNT ? &d->shaders[s] : &d->font;
        free((void *)f->name);
        free((void *)f->bytes);
    }
}

static int setup(void **state)
{
    (void)state;
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "SDL_Init: %s (run under xvfb-run)\n", SDL_GetError());
        return -1;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    fx.win = SDL_CreateWindow("test_render", 0, 0, 400, 300, SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE);
    if (!fx.win || !(fx.gl = SDL_GL_CreateContext(fx.win))) {
        fprintf(stderr, "window/context: %s\n", SDL_GetError());
        return -1;
    }
    gfx_def d = test_def(PARTICLES_SOURCE_DIR "/shaders", PARTICLES_SOURCE_DIR "/assets/DejaVuSans.ttf");
    gfx_error err = {0};
    if (gfx_create(&d, &fx.r, &err) != GFX_OK) {
        fprintf(stderr, "gfx_create: %s\n", err.message);
        return -1;
    }
    d.draw = GFX_DRAW_QUADS;
    if (gfx_create(&d, &fx.quads, &err) != GFX_OK) {
        fprintf(stderr, "gfx_create: %s\n", err.message);
        return -1;
    }
    def_free(&d);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    gfx_destroy(fx.quads);
    gfx_destroy(fx.r);
    free(fx.px);
    if (fx.gl) SDL_GL_DeleteContext(fx.gl);
    if (fx.win) SDL_DestroyWindow(fx.win);
    SDL_Quit();
    return 0;
}

/* ---- drawing and reading back ---------------------------------------------- */

static const gfx_instance RED = {50.0f, 50.0f, 10.0f, 255, 0, 0, 255};
static const gfx_instance GREEN = {100.0f, 50.0f, 10.0f, 0, 255, 0, 255};
static const gfx_instance FADED = {150.0f, 50.0f, 10.0f, 0, 0, 255, 128}; /* half faded */

/* Draws `n` batches with renderer r through view (NULL: the whole
 * world), then through the lens if one is given, and reads the frame back. */
static void draw_with(gfx_renderer *r, const gfx_batch *batches, uint32_t n, const gfx_view *view,
                      const gfx_lens *lens)
{
    SDL_GL_GetDrawableSize(fx.win, &fx.w, &fx.h);
    gfx_begin_frame(r, fx.w, fx.h);
    if (view) gfx_set_view(r, view);
    assert_int_equal(gfx_upload(r, batches, n), GFX_OK);
    gfx_draw_particles(r);
    if (lens) gfx_draw_lens(r, lens);
    gfx_end_frame(r);
    free(fx.px);
    fx.px = malloc((size_t)fx.w * (size_t)fx.h * 4u);
    assert_non_null(fx.px);
    assert_int_equal(gfx_read_pixels(r, fx.px, fx.w, fx.h), GFX_OK);
    SDL_GL_SwapWindow(fx.win);
}

static void draw_batches(const gfx_batch *batches, uint32_t n, const gfx_lens *lens)
{
    draw_with(fx.r, batches, n, NULL, lens);
}

/* The three particles, in two batches (order kept), drawn by r. */
static void draw_scene_on(gfx_renderer *r, const gfx_lens *lens)
{
    const gfx_instance first[2] = {RED, GREEN}, second[1] = {FADED};
    const gfx_batch batches[2] = {{first, 2}, {second, 1}};
    draw_with(r, batches, 2, NULL, lens);
}

static void draw_scene(void) { draw_scene_on(fx.r, NULL); }

typedef struct rgb {
    int r, g, b;
} rgb;

static rgb pixel(int x, int y)
{
    assert_true(x >= 0 && y >= 0 && x < fx.w && y < fx.h);
    const uint8_t *p = fx.px + ((size_t)y * (size_t)fx.w + (size_t)x) * 4u;
    return (rgb){p[0], p[1], p[2]};
}

static void expect_color(const char *what, rgb got, rgb want, int tolerance)
{
    if (abs(got.r - want.r) > tolerance || abs(got.g - want.g) > tolerance ||
        abs(got.b - want.b) > tolerance)
        fail_msg("%s: got (%d, %d, %d), want (%d, %d, %d) +- %d", what, got.r, got.g, got.b,
                 want.r, want.g, want.b, tolerance);
}

/* Where the letterboxed world lands: the world and its margin fitted into
 * the drawable, aspect kept, centred. Computed here independently. */
typedef struct fit {
    float ppu, x, y;
} fit;

static fit expected_fit(int w, int h)
{
    float sx = (float)w / (WORLD_W + 2 * MARGIN), sy = (float)h / (WORLD_H + 2 * MARGIN);
    float ppu = sx < sy ? sx : sy;
    return (fit){ppu, ((float)w - WORLD_W * ppu) / 2, ((float)h - WORLD_H * ppu) / 2};
}

static rgb at_world(const fit *f, float wx, float wy)
{
    return pixel((int)(f->x + wx * f->ppu), (int)(f->y + wy * f->ppu));
}

static const rgb BG = {20, 40, 60};
static const rgb BAR = {20 / 3, 40 / 3, 60 / 3};

static void check_scene(const char *how)
{
    char what[128];
    fit f = expected_fit(fx.w, fx.h);
    gfx_view v = gfx_get_view(fx.r);
    assert_float_equal(v.px_per_unit, f.ppu, 1e-4);
    snprintf(what, sizeof what, "%s: red center", how);
    expect_color(what, at_world(&f, 50, 50), (rgb){255, 0, 0}, 0);
    snprintf(what, sizeof what, "%s: green center", how);
    expect_color(what, at_world(&f, 100, 50), (rgb){0, 255, 0}, 0);
    /* Blue at alpha 128/255 over the background. */
    float a = 128.0f / 255.0f;
    rgb blend = {(int)(BG.r * (1 - a) + 0.5f), (int)(BG.g * (1 - a) + 0.5f),
                 (int)(255 * a + BG.b * (1 - a) + 0.5f)};
    snprintf(what, sizeof what, "%s: faded blue center", how);
    expect_color(what, at_world(&f, 150, 50), blend, 2);
    snprintf(what, sizeof what, "%s: between red and green", how);
    expect_color(what, at_world(&f, 75, 50), BG, 0);
    snprintf(what, sizeof what, "%s: inside a circle's square, outside the circle", how);
    expect_color(what, at_world(&f, 50 + 8.5f, 50 + 8.5f), BG, 0);
    snprintf(what, sizeof what, "%s: world corner", how);
    expect_color(what, at_world(&f, 1, 1), BG, 0);
}

/* ---- tests ------------------------------------------------------------------ */

static void test_known_particles(void **state)
{
    (void)state;
    draw_scene();
    assert_int_equal(gfx_drawn_path(fx.r), GFX_DRAW_POINTS);
    assert_int_equal(fx.w, 400);
    assert_int_equal(fx.h, 300);
    check_scene("points");
    /* 400 x 300 is taller than the world: bars above and below. */
    expect_color("top bar", pixel(200, 5), BAR, 0);
    expect_color("bottom bar", pixel(200, 295), BAR, 0);
    expect_color("middle row, left edge", pixel(1, 150), BAR, 0);
}

static void test_quads_match_points(void **state)
{
    (void)state;
    draw_scene_on(fx.quads, NULL);
    assert_int_equal(gfx_drawn_path(fx.quads), GFX_DRAW_QUADS);
    check_scene("quads");
}

/* Resizing is asynchronous on X11: wait for the window's size event. */
static void resize_to(int w, int h)
{
    SDL_SetWindowSize(fx.win, w, h);
    int dw = 0, dh = 0;
    for (int tries = 0; tries < 100; tries++) {
        SDL_Event e;
        SDL_WaitEventTimeout(&e, 50);
        SDL_GL_GetDrawableSize(fx.win, &dw, &dh);
        if (dw == w && dh == h) return;
    }
    fail_msg("the window did not become %dx%d (it is %dx%d)", w, h, dw, dh);
}

static void test_letterbox_after_resize(void **state)
{
    (void)state;
    resize_to(600, 300);
    draw_scene();
    check_scene("600x300");
    /* Wider than the world now: bars left and right, none above. */
    expect_color("left bar", pixel(5, 150), BAR, 0);
    expect_color("right bar", pixel(594, 150), BAR, 0);
    fit f = expected_fit(600, 300);
    expect_color("top row inside the world's columns", at_world(&f, 100, 0.5f), BG, 0);
    resize_to(400, 300);
}

/* A circle pushed past a wall is drawn up to the margin and never over
 * the letterbox bar: one centred 12 units above the world shows only its
 * lower rim, inside the 4-unit margin. */
static void test_clipped_to_margin(void **state)
{
    (void)state;
    const gfx_instance outside = {100.0f, -12.0f, 10.0f, 255, 255, 255, 255};
    const gfx_batch batch = {&outside, 1};
    draw_batches(&batch, 1, NULL);
    fit f = expected_fit(fx.w, fx.h);
    expect_color("rim in the margin", at_world(&f, 100, -3.0f), (rgb){255, 255, 255}, 0);
    expect_color("bar above the margin", at_world(&f, 100, -8.0f), BAR, 0);
    expect_color("world below the rim", at_world(&f, 100, 1.0f), BG, 0);
}

static void test_highlight(void **state)
{
    (void)state;
    gfx_set_highlight(fx.r, true, 40.0f, 40.0f, 60.0f, 60.0f); /* red's center only */
    draw_scene();
    gfx_set_highlight(fx.r, false, 0, 0, 0, 0);
    fit f = expected_fit(fx.w, fx.h);
    rgb red = at_world(&f, 50, 50), green = at_world(&f, 100, 50);
    assert_true(red.g > 200 && red.r > 200); /* the highlight color, yellow */
    expect_color("dimmed green", green, (rgb){0, (int)(255 * 0.5f + 0.5f), 0}, 1);
}

/* The lens shows world [55, 95) x [30, 70) four times larger in the
 * drawable's square (300, 20)-(380, 100): red (centre 50, 50) and green
 * (centre 100, 50) both have their centres outside it and must still show
 * their cut parts; background between them; the main view around the
 * lens is untouched. */
static void test_lens(void **state)
{
    (void)state;
    const gfx_lens lens = {55.0f, 30.0f, 75.0f, 50.0f, 300.0f, 20.0f, 80.0f, 80.0f};
    const gfx_lens wide = {55.0f, 30.0f, 95.0f, 70.0f, 300.0f, 20.0f, 80.0f, 80.0f};
    float px, py;
    gfx_lens_to_pixel(&lens, 65.0f, 40.0f, &px, &py);
    assert_float_equal(px, 340.0f, 1e-4);
    assert_float_equal(py, 60.0f, 1e-4);

    draw_scene_on(fx.r, &wide);
    gfx_lens_to_pixel(&wide, 57.0f, 50.0f, &px, &py);
    expect_color("lens: red's cut edge", pixel((int)px, (int)py), (rgb){255, 0, 0}, 0);
    gfx_lens_to_pixel(&wide, 93.0f, 50.0f, &px, &py);
    expect_color("lens: green's cut edge", pixel((int)px, (int)py), (rgb){0, 255, 0}, 0);
    gfx_lens_to_pixel(&wide, 75.0f, 35.0f, &px, &py);
    expect_color("lens: background between", pixel((int)px, (int)py), BG, 0);

    /* Outside the lens: the same pixels as a frame drawn without it. */
    int probes[4][2] = {{296, 60}, {384, 60}, {340, 16}, {340, 104}};
    rgb with[4];
    for (int i = 0; i < 4; i++) with[i] = pixel(probes[i][0], probes[i][1]);
    draw_scene();
    for (int i = 0; i < 4; i++) expect_color("around the lens", with[i], pixel(probes[i][0], probes[i][1]), 0);
}

/* A view 4 times larger than the whole world's, green's centre (100, 50)
 * at the box's centre: green fills the middle out to 10 units (40 of the
 * whole view's units), the background lies beyond, red (50 units left)
 * is cut off by the box, and the bars stay bars; at 64x points give way
 * to quads. */
static void test_zoomed_view(void **state)
{
    (void)state;
    const gfx_instance first[2] = {RED, GREEN};
    const gfx_batch batch = {first, 2};
    SDL_GL_GetDrawableSize(fx.win, &fx.w, &fx.h);
    fit f = expected_fit(fx.w, fx.h);
    float ppu = 4.0f * f.ppu, cx = f.x + 0.5f * WORLD_W * f.ppu, cy = f.y + 0.5f * WORLD_H * f.ppu;
    gfx_view v = {cx - 100.0f * ppu, cy - 50.0f * ppu, WORLD_W * ppu, WORLD_H * ppu, ppu};
    for (int d = 0; d < 2; d++) {
        gfx_renderer *r = d ? fx.quads : fx.r;
        draw_with(r, &batch, 1, &v, NULL);
        expect_color("zoomed: green's centre", pixel((int)cx, (int)cy), (rgb){0, 255, 0}, 0);
        expect_color("zoomed: green's edge, inside", pixel((int)(cx + 9.0f * ppu), (int)cy),
                     (rgb){0, 255, 0}, 0);
        expect_color("zoomed: beyond green", pixel((int)(cx + 11.0f * ppu), (int)cy), BG, 0);
        expect_color("zoomed: top bar", pixel(fx.w / 2, 3), BAR, 0);
        float wx, wy;
        assert_true(gfx_pixel_to_world(r, cx + 8.0f * ppu, cy, &wx, &wy));
        assert_float_equal(wx, 108.0f, 1e-3);
        assert_float_equal(wy, 50.0f, 1e-3);
        /* Red lies in the world but outside the box shown. */
        assert_false(gfx_pixel_to_world(r, cx - 50.0f * ppu, cy, &wx, &wy));
    }
    /* At 64x the largest circle is wider than any driver's largest point:
     * the points path gives way to quads, and green still fills its place. */
    ppu = 64.0f * f.ppu;
    v = (gfx_view){cx - 100.0f * ppu, cy - 50.0f * ppu, WORLD_W * ppu, WORLD_H * ppu, ppu};
    draw_with(fx.r, &batch, 1, &v, NULL);
    assert_int_equal(gfx_drawn_path(fx.r), GFX_DRAW_QUADS);
    expect_color("64x: green's centre", pixel((int)cx, (int)cy), (rgb){0, 255, 0}, 0);
    expect_color("64x: still green 30 pixels out", pixel((int)cx + 30, (int)cy - 30), (rgb){0, 255, 0}, 0);
}

/* The look: alpha never under the floor, colours lifted towards their
 * brightest shade (a second renderer in the same context). */
static void test_look(void **state)
{
    (void)state;
    gfx_def d = test_def(PARTICLES_SOURCE_DIR "/shaders", PARTICLES_SOURCE_DIR "/assets/DejaVuSans.ttf");
    d.alpha_floor = 0.75f;
    d.lift = 1.0f;
    gfx_renderer *r = NULL;
    gfx_error err = {0};
    if (gfx_create(&d, &r, &err) != GFX_OK) fail_msg("gfx_create: %s", err.message);
    def_free(&d);
    const gfx_instance dull = {150.0f, 50.0f, 10.0f, 0, 0, 100, 64}; /* dark blue, a quarter */
    const gfx_batch batch = {&dull, 1};
    draw_with(r, &batch, 1, NULL, NULL);
    gfx_destroy(r);
    float a = 0.75f; /* 64/255 is under the floor */
    rgb blend = {(int)(BG.r * (1 - a) + 0.5f), (int)(BG.g * (1 - a) + 0.5f),
                 (int)(255 * a + BG.b * (1 - a) + 0.5f)};
    fit f = expected_fit(fx.w, fx.h);
    expect_color("lifted blue at the floor's alpha", at_world(&f, 150, 50), blend, 2);
}

static void test_text(void **state)
{
    (void)state;
    assert_true(gfx_text_width(fx.r, "Hello") > 20.0f);
    assert_true(gfx_line_height(fx.r) >= 15.0f);
    assert_true(gfx_text_width(fx.r, "W") > gfx_text_width(fx.r, "i"));
    SDL_GL_GetDrawableSize(fx.win, &fx.w, &fx.h);
    gfx_begin_frame(fx.r, fx.w, fx.h);
    gfx_rect(fx.r, 10, 10, 30, 20, (gfx_color){255, 255, 255, 255});
    float tw = gfx_text(fx.r, 60, 100, "Hello", (gfx_color){255, 255, 0, 255});
    gfx_end_frame(fx.r);
    fx.px = realloc(fx.px, (size_t)fx.w * (size_t)fx.h * 4u);
    assert_non_null(fx.px);
    assert_int_equal(gfx_read_pixels(fx.r, fx.px, fx.w, fx.h), GFX_OK);
    SDL_GL_SwapWindow(fx.win);
    expect_color("solid rect", pixel(25, 20), (rgb){255, 255, 255}, 0);
    int lit = 0;
    for (int y = 100; y < 100 + (int)gfx_line_height(fx.r); y++)
        for (int x = 60; x < 60 + (int)tw; x++) lit += pixel(x, y).r > 128 && pixel(x, y).b < 100;
    /* Glyphs were drawn, and not as solid boxes: "Hello" at 15 px covers
     * about a fifth of its box. */
    int box = (int)tw * (int)gfx_line_height(fx.r);
    if (lit < box / 20 || lit > box / 2) fail_msg("%d of %d pixels lit", lit, box);
}

/* ---- failures ---------------------------------------------------------------- */

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    assert_non_null(a);
    assert_non_null(b);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, a)) > 0) assert_int_equal(fwrite(buf, 1, n, b), n);
    fclose(a);
    assert_int_equal(fclose(b), 0);
}

/* Writes DejaVu Sans damaged: cut to `keep` bytes, or with the offset of
 * its 'glyf' table pointed far past the end (stb_truetype would read
 * there unchecked). */
static void write_damaged_font(const char *to, size_t keep, bool bad_glyf)
{
    char from[256];
    snprintf(from, sizeof from, "%s/assets/DejaVuSans.ttf", PARTICLES_SOURCE_DIR);
    FILE *f = fopen(from, "rb");
    assert_non_null(f);
    static unsigned char ttf[1u << 20];
    size_t n = fread(ttf, 1, sizeof ttf, f);
    fclose(f);
    assert_true(n > 1000 && n < sizeof ttf);
    bool patched = !bad_glyf;
    unsigned tables = (unsigned)ttf[4] << 8 | ttf[5];
    for (unsigned i = 0; i < tables && bad_glyf; i++) {
        unsigned char *rec = ttf + 12 + 16 * i;
        if (memcmp(rec, "glyf", 4) == 0) {
            rec[8] = 0x7f, rec[9] = 0xff, rec[10] = 0, rec[11] = 0;
            patched = true;
        }
    }
    assert_true(patched);
    FILE *o = fopen(to, "wb");
    assert_non_null(o);
    assert_int_equal(fwrite(ttf, 1, keep < n ? keep : n, o), keep < n ? keep : n);
    assert_int_equal(fclose(o), 0);
}

static void expect_create_fails(const char *dir, const char *font, gfx_status want,
                                const char *needle)
{
    gfx_def d = test_def(dir, font);
    gfx_renderer *r = (gfx_renderer *)&d; /* must be reset to NULL */
    gfx_error err = {0};
    assert_int_equal(gfx_create(&d, &r, &err), want);
    def_free(&d);
    assert_null(r);
    assert_int_equal(err.status, want);
    if (!strstr(err.message, needle)) fail_msg("'%s' does not mention '%s'", err.message, needle);
    assert_null(strchr(err.message, '\n'));
}

static void test_broken_shader_and_font(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_render.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], font[256];
    const char *names[] = {"particles.vert", "overlay.vert", "overlay.frag"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        char from[256];
        snprintf(from, sizeof from, "%s/shaders/%s", PARTICLES_SOURCE_DIR, names[i]);
        copy_file(from, path);
    }
    snprintf(font, sizeof font, "%s/assets/DejaVuSans.ttf", PARTICLES_SOURCE_DIR);
    /* A shader not given. */
    expect_create_fails(dir, font, GFX_ERR_INVALID, "the shaders and the font are required");
    /* An error on line 3 of the file. */
    snprintf(path, sizeof path, "%s/particles.frag", dir);
    write_file(path, "out vec4 o_color;\nvoid main()\n{ o_color = vec4(1.0) +; }\n");
    expect_create_fails(dir, font, GFX_ERR_SHADER, "particles.frag:3:");
    /* A good shader set, but the font is missing, then not a font. */
    char good[256];
    snprintf(good, sizeof good, "%s/shaders/particles.frag", PARTICLES_SOURCE_DIR);
    copy_file(good, path);
    snprintf(font, sizeof font, "%s/missing.ttf", dir);
    expect_create_fails(dir, font, GFX_ERR_INVALID, "the shaders and the font are required");
    expect_create_fails(dir, path, GFX_ERR_FONT, "not a usable TrueType font");
    /* Damaged fonts are refused, not parsed out of bounds. */
    snprintf(font, sizeof font, "%s/damaged.ttf", dir);
    write_damaged_font(font, 300000, false);
    expect_create_fails(dir, font, GFX_ERR_FONT, "not a usable TrueType font");
    write_damaged_font(font, SIZE_MAX, true);
    expect_create_fails(dir, font, GFX_ERR_FONT, "not a usable TrueType font");
    remove(font);
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        remove(path);
    }
    snprintf(path, sizeof path, "%s/particles.frag", dir);
    remove(path);
    assert_int_equal(remove(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_particles),
        cmocka_unit_test(test_quads_match_points),
        cmocka_unit_test(test_letterbox_after_resize),
        cmocka_unit_test(test_clipped_to_margin),
        cmocka_unit_test(test_highlight),
        cmocka_unit_test(test_lens),
        cmocka_unit_test(test_zoomed_view),
        cmocka_unit_test(test_look),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_broken_shader_and_font),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
