/* gfx.c - creating the renderer, the frame, the view and reading pixels. */
/* gcc says AddressSanitizer with __SANITIZE_ADDRESS__, clang with
 * __has_feature(address_sanitizer). */
#if defined(__SANITIZE_ADDRESS__)
#define GFX_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GFX_ASAN 1
#endif
#endif
#if defined(GFX_ASAN) && defined(__linux__)
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <dlfcn.h>
#include <link.h>
#endif
#include "gfx_internal.h"

#include <cglm/cglm.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gfx_status gfx__fail(gfx_error *err, gfx_status st, const char *fmt, ...)
{
    if (err) {
        err->status = st;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return st;
}

gfx_def gfx_default_def(void)
{
    return (gfx_def){
        .font_px = 15.0f,
        .margin = 4.0f,
        .draw = GFX_DRAW_POINTS,
        .background = {12, 14, 20, 255},
    };
}

static gfx_def with_defaults(const gfx_def *def)
{
    gfx_def d = *def, z = gfx_default_def();
    if (d.font_px <= 0.0f) d.font_px = z.font_px;
    if (d.margin <= 0.0f) d.margin = z.margin;
    if (!d.background.a) d.background = z.background;
    d.alpha_floor = d.alpha_floor > 0.0f ? (d.alpha_floor < 1.0f ? d.alpha_floor : 1.0f) : 0.0f;
    d.lift = d.lift > 0.0f ? (d.lift < 1.0f ? d.lift : 1.0f) : 0.0f;
    return d;
}

static gfx_status load_gl(gfx_renderer *r, gfx_error *err)
{
    int version = gladLoadGL((GLADloadfunc)r->def.load);
    if (!version)
        return gfx__fail(err, GFX_ERR_GL, "could not load the OpenGL entry points "
                                          "(is an OpenGL context current?)");
    const char *name = (const char *)glGetString(GL_RENDERER);
    int major = GLAD_VERSION_MAJOR(version), minor = GLAD_VERSION_MINOR(version);
    if (major < 3 || (major == 3 && minor < 3))
        return gfx__fail(err, GFX_ERR_GL, "OpenGL %d.%d (%s) is older than the 3.3 needed",
                         major, minor, name ? name : "unknown");
    GLfloat range[2] = {1.0f, 1.0f};
    glGetFloatv(GL_POINT_SIZE_RANGE, range);
    r->max_point_px = range[1];
    snprintf(r->gl_name, sizeof r->gl_name, "%s", name && name[0] ? name : "unknown");
    return GFX_OK;
}

const char *gfx_renderer_name(const gfx_renderer *r) { return r->gl_name; }

bool gfx_renderer_software(const gfx_renderer *r)
{
    static const char *const CPU[] = {"llvmpipe", "softpipe", "swrast", "SwiftShader"};
    for (size_t i = 0; i < sizeof CPU / sizeof CPU[0]; i++)
        if (strstr(r->gl_name, CPU[i])) return true;
    return false;
}

#if defined(GFX_ASAN) && defined(__linux__)
static int pin_library(struct dl_phdr_info *info, size_t size, void *unused)
{
    (void)size;
    (void)unused;
    if (info->dlpi_name && info->dlpi_name[0])
        dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
    return 0;
}

/* AddressSanitizer builds only: keeps the GL driver stack mapped until
 * exit. SDL unloads it when the window goes, and the blocks the driver
 * still holds from its own globals would then be reported as leaks with
 * no library to name (tests/lsan.supp suppresses the driver's leaks by
 * library name, never ours). The extra references are never released. */
void gfx_pin_driver(void) { dl_iterate_phdr(pin_library, NULL); }
#else
void gfx_pin_driver(void) {}
#endif

const char *gfx_shader_file(gfx_shader s)
{
    static const char *const names[GFX_SHADER_COUNT] = {"particles.vert", "particles.frag",
                                                        "overlay.vert", "overlay.frag"};
    return (unsigned)s < GFX_SHADER_COUNT ? names[s] : "?";
}

static bool has_file(const gfx_file *f) { return f->name && f->bytes; }

static bool has_files(const gfx_def *def)
{
    for (int s = 0; s < GFX_SHADER_COUNT; s++)
        if (!has_file(&def->shaders[s])) return false;
    return has_file(&def->font);
}

gfx_status gfx_create(const gfx_def *def, gfx_renderer **out, gfx_error *err)
{
    *out = NULL;
    if (!def || !def->load || !has_files(def))
        return gfx__fail(err, GFX_ERR_INVALID, "gfx_create: load, the shaders and the font are required");
    if (!(def->world_w > 0.0f) || !(def->world_h > 0.0f))
        return gfx__fail(err, GFX_ERR_INVALID, "gfx_create: the world needs a positive size");
    gfx_renderer *r = calloc(1, sizeof *r);
    if (!r) return gfx__fail(err, GFX_ERR_NOMEM, "out of memory");
    r->def = with_defaults(def);
    gfx_status st = load_gl(r, err);
    gfx_pin_driver();
    if (st == GFX_OK) st = gfx__particles_init(r, err);
    if (st == GFX_OK) st = gfx__overlay_init(r, err);
    if (st == GFX_OK) st = gfx__font_init(&r->font, &r->def.font, r->def.font_px, err);
    if (st != GFX_OK) {
        gfx_destroy(r);
        return st;
    }
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    /* Color blends over what is below; the framebuffer's alpha stays opaque
     * (a screenshot is not see-through). */
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    *out = r;
    return GFX_OK;
}

void gfx_destroy(gfx_renderer *r)
{
    if (!r) return;
    /* Only what was created is deleted: a failed gladLoadGL leaves the
     * entry points NULL, and so every GL name stays 0. */
    if (glDeleteProgram) {
        gfx__font_fini(&r->font);
        gfx__overlay_fini(r);
        gfx__particles_fini(r);
        gfx__trails_fini(r);
    }
    free(r->overlay);
    free(r);
}

gfx_draw gfx_drawn_path(const gfx_renderer *r) { return r->last_draw; }

/* Fits the world and its margin into the drawable, centred. */
static void layout(gfx_renderer *r, int w, int h)
{
    const gfx_def *d = &r->def;
    float fw = (float)(w > 0 ? w : 1), fh = (float)(h > 0 ? h : 1);
    float sx = fw / (d->world_w + 2.0f * d->margin), sy = fh / (d->world_h + 2.0f * d->margin);
    float ppu = sx < sy ? sx : sy;
    gfx_view v = {.w = d->world_w * ppu, .h = d->world_h * ppu, .px_per_unit = ppu};
    v.x = (fw - v.w) * 0.5f;
    v.y = (fh - v.h) * 0.5f;
    r->view = v;
    r->fit = v;
    r->fb_w = w;
    r->fb_h = h;
    mat4 m;
    glm_ortho(0.0f, fw, fh, 0.0f, -1.0f, 1.0f, m);
    memcpy(r->proj_pixels, m, sizeof r->proj_pixels);
}

static void clear_to(gfx_color c)
{
    glClearColor(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
}

gfx_color gfx__bars_color(const gfx_renderer *r)
{
    gfx_color bg = r->def.background;
    return (gfx_color){(uint8_t)(bg.r / 3), (uint8_t)(bg.g / 3), (uint8_t)(bg.b / 3), 255};
}

void gfx_begin_frame(gfx_renderer *r, int drawable_w, int drawable_h)
{
    layout(r, drawable_w, drawable_h);
    glViewport(0, 0, drawable_w, drawable_h);
    gfx_color bg = r->def.background;
    clear_to(gfx__bars_color(r));
    /* The world itself, GL's origin bottom-left. */
    const gfx_view *v = &r->view;
    glEnable(GL_SCISSOR_TEST);
    glScissor((GLint)(v->x + 0.5f), (GLint)((float)drawable_h - v->y - v->h + 0.5f),
              (GLsizei)(v->w + 0.5f), (GLsizei)(v->h + 0.5f));
    clear_to(bg);
    glDisable(GL_SCISSOR_TEST);
    r->overlay_count = 0;
}

gfx_view gfx_get_view(const gfx_renderer *r) { return r->view; }

void gfx_lens_to_pixel(const gfx_lens *l, float wx, float wy, float *px, float *py)
{
    *px = l->px + (wx - l->wx0) * l->pw / (l->wx1 - l->wx0);
    *py = l->py + (wy - l->wy0) * l->ph / (l->wy1 - l->wy0);
}

/* Draws the uploaded particles of the world rectangle l into its pixel
 * rectangle, clipped to it, over the world's background when `clear`. */
static void draw_through(gfx_renderer *r, const gfx_lens *l, bool clear)
{
    if (!(l->wx1 > l->wx0) || !(l->wy1 > l->wy0) || !(l->pw >= 1.0f) || !(l->ph >= 1.0f)) return;
    float ppu = l->pw / (l->wx1 - l->wx0);
    /* GL drops a point whose centre is outside the viewport: the viewport
     * reaches one largest circle beyond the rectangle, the scissor cuts at it. */
    float pad = r->def.max_radius * ppu + 2.0f;
    float gl_y = (float)r->fb_h - l->py - l->ph; /* GL's origin is bottom-left */
    glEnable(GL_SCISSOR_TEST);
    glScissor((GLint)(l->px + 0.5f), (GLint)(gl_y + 0.5f), (GLsizei)(l->pw + 0.5f),
              (GLsizei)(l->ph + 0.5f));
    if (clear) clear_to(r->def.background);
    glViewport((GLint)(l->px - pad + 0.5f), (GLint)(gl_y - pad + 0.5f),
               (GLsizei)(l->pw + 2.0f * pad + 0.5f), (GLsizei)(l->ph + 2.0f * pad + 0.5f));
    float ux = pad / ppu, uy = pad * (l->wy1 - l->wy0) / l->ph; /* the pad in world units */
    mat4 m; /* y down, as the world */
    glm_ortho(l->wx0 - ux, l->wx1 + ux, l->wy1 + uy, l->wy0 - uy, -1.0f, 1.0f, m);
    gfx__particles_draw(r, (const float *)m, ppu);
    glViewport(0, 0, r->fb_w, r->fb_h);
    glDisable(GL_SCISSOR_TEST);
}

void gfx__draw_through(gfx_renderer *r, const gfx_lens *l) { draw_through(r, l, false); }

void gfx_draw_lens(gfx_renderer *r, const gfx_lens *l) { draw_through(r, l, true); }

static float maxf(float a, float b) { return a > b ? a : b; }
static float minf(float a, float b) { return a < b ? a : b; }

void gfx_draw_particles(gfx_renderer *r)
{
    /* Clipped to the world and its margin, as the view shows it, inside
     * the letterboxed box of the whole world (a zoomed view never spills
     * over the bars) and the drawable. */
    const gfx_view *v = &r->view, *f = &r->fit;
    float m = r->def.margin * f->px_per_unit;
    float x0 = maxf(maxf(v->x, f->x) - m, 0.0f), y0 = maxf(maxf(v->y, f->y) - m, 0.0f);
    float x1 = minf(minf(v->x + v->w, f->x + f->w) + m, (float)r->fb_w);
    float y1 = minf(minf(v->y + v->h, f->y + f->h) + m, (float)r->fb_h);
    x0 = floorf(x0 + 0.5f), y0 = floorf(y0 + 0.5f), x1 = floorf(x1 + 0.5f), y1 = floorf(y1 + 0.5f);
    if (!(x1 > x0) || !(y1 > y0) || !(v->px_per_unit > 0.0f)) return;
    gfx_lens l = {(x0 - v->x) / v->px_per_unit, (y0 - v->y) / v->px_per_unit,
                  (x1 - v->x) / v->px_per_unit, (y1 - v->y) / v->px_per_unit,
                  x0, y0, x1 - x0, y1 - y0};
    if (!r->trails_on || !gfx__trails_draw(r, &l)) draw_through(r, &l, false);
}

void gfx_set_view(gfx_renderer *r, const gfx_view *v)
{
    if (!(v->px_per_unit > 0.0f) || !isfinite(v->x) || !isfinite(v->y)) return;
    r->view = *v;
}

bool gfx_pixel_to_world(const gfx_renderer *r, float px, float py, float *wx, float *wy)
{
    const gfx_view *v = &r->view;
    *wx = (px - v->x) / v->px_per_unit;
    *wy = (py - v->y) / v->px_per_unit;
    const gfx_view *f = &r->fit; /* a zoomed view shows only this box of it */
    bool shown = px >= f->x && py >= f->y && px < f->x + f->w && py < f->y + f->h;
    return shown && *wx >= 0.0f && *wy >= 0.0f && *wx < r->def.world_w && *wy < r->def.world_h;
}

void gfx_world_to_pixel(const gfx_renderer *r, float wx, float wy, float *px, float *py)
{
    *px = r->view.x + wx * r->view.px_per_unit;
    *py = r->view.y + wy * r->view.px_per_unit;
}

gfx_status gfx_read_pixels(gfx_renderer *r, uint8_t *rgba, int w, int h)
{
    if (w != r->fb_w || h != r->fb_h || w <= 0 || h <= 0) return GFX_ERR_INVALID;
    glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    /* GL's rows run bottom to top. */
    size_t row = (size_t)w * 4u;
    uint8_t tmp[4096];
    for (int y = 0; y < h / 2; y++) {
        uint8_t *a = rgba + (size_t)y * row, *b = rgba + (size_t)(h - 1 - y) * row;
        for (size_t off = 0; off < row; off += sizeof tmp) {
            size_t n = row - off < sizeof tmp ? row - off : sizeof tmp;
            memcpy(tmp, a + off, n);
            memcpy(a + off, b + off, n);
            memcpy(b + off, tmp, n);
        }
    }
    return glGetError() == GL_NO_ERROR ? GFX_OK : GFX_ERR_GL;
}
