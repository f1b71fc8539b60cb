/* gfx.h - the render module: particles and a heads-up display drawn with
 * OpenGL 3.3 core. The one public header of src/render.
 *
 * It knows OpenGL and nothing else of the program: it takes arrays of
 * gfx_instance (position, radius, color) in world units and draws them as
 * anti-aliased circles, all in one draw call, into a letterboxed view of
 * the world; the overlay calls draw rectangles and text in pixels on top.
 * The caller owns the window and the GL context: gfx_create needs a
 * current 3.3 core context and the function that looks up GL entry points
 * (SDL_GL_GetProcAddress, for example). It reads no files: the caller
 * hands it the shaders' and the font's content (gfx_file).
 *
 * A frame:
 *     gfx_begin_frame(r, w, h);              drawable size in pixels
 *     gfx_upload(r, batches, n);             instance data, batch order kept
 *     gfx_draw_particles(r);
 *     gfx_rect(...); gfx_text(...);          overlay, in pixels, top-left origin
 *     gfx_end_frame(r);                      draws the overlay
 * then the caller swaps buffers. Nothing here waits for the GPU except
 * gfx_read_pixels.
 */
#ifndef GFX_H
#define GFX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One particle: 16 bytes, the layout the shaders read. */
typedef struct gfx_instance {
    float x, y, radius;  /* world units */
    uint8_t r, g, b, a;  /* a: 255 opaque; blended over what is below */
} gfx_instance;

/* Consecutive instances owned by the caller, uploaded in array order. */
typedef struct gfx_batch {
    const gfx_instance *items;
    uint32_t count;
} gfx_batch;

typedef struct gfx_color {
    uint8_t r, g, b, a;
} gfx_color;

typedef enum gfx_status {
    GFX_OK = 0,
    GFX_ERR_INVALID,    /* a bad argument or definition */
    GFX_ERR_GL,         /* no usable OpenGL 3.3 core context or entry points */
    GFX_ERR_SHADER,     /* a shader failed to compile or link: file, line, log */
    GFX_ERR_FONT,       /* the font file is not a usable TrueType font */
    GFX_ERR_NOMEM
} gfx_status;

typedef struct gfx_error {
    gfx_status status;
    char message[768]; /* one line */
} gfx_error;

typedef enum gfx_draw {
    GFX_DRAW_POINTS = 0, /* point sprites: one vertex per particle */
    GFX_DRAW_QUADS       /* instanced quads: four vertices per particle */
} gfx_draw;

/* A file's content, read whole by the caller: gfx reads no files. name
 * (its path) is what messages call it. */
typedef struct gfx_file {
    const char *name;
    const unsigned char *bytes;
    size_t size;
} gfx_file;

/* The shaders gfx_def takes, each the file of gfx_shader_file's name. */
typedef enum gfx_shader {
    GFX_PARTICLES_VERT = 0,
    GFX_PARTICLES_FRAG,
    GFX_OVERLAY_VERT,
    GFX_OVERLAY_FRAG,
    GFX_SHADER_COUNT
} gfx_shader;

/* "particles.vert", "particles.frag", "overlay.vert", "overlay.frag". */
const char *gfx_shader_file(gfx_shader s);

typedef void (*gfx_proc)(void);
typedef gfx_proc (*gfx_loader)(const char *name);

/* Start from gfx_default_def(); zero fields mean their default. */
typedef struct gfx_def {
    gfx_loader load;        /* required: GL entry point lookup */
    gfx_file shaders[GFX_SHADER_COUNT]; /* required; read by gfx_create only */
    gfx_file font;          /* required: a TrueType font; read by gfx_create only */
    float font_px;          /* overlay text height in pixels; default 15 */
    float world_w, world_h; /* the world shown: [0, w] x [0, h], y down; required */
    float margin;           /* world units shown around it; default 4 */
    float max_radius;       /* the largest radius drawn, world units: point
                               sprites give way to quads when it would be
                               wider than the driver's largest point */
    gfx_draw draw;
    gfx_color background;   /* the world's; the letterbox bars are darker */
    /* The look (0 and 0: the instances' colours as given). Alpha is drawn
     * at least alpha_floor (0..1), so faded particles stay visible; lift
     * (0..1) moves each colour that far towards its brightest shade (the
     * same hue with its largest channel at full). */
    float alpha_floor, lift;
} gfx_def;

gfx_def gfx_default_def(void);

typedef struct gfx_renderer gfx_renderer;

/* Loads GL, checks the version, compiles the shaders and bakes the font.
 * On failure *out is NULL and err says why in one line. */
gfx_status gfx_create(const gfx_def *def, gfx_renderer **out, gfx_error *err);
void gfx_destroy(gfx_renderer *r);
/* AddressSanitizer builds: keeps every library loaded now (the GL driver
 * among them) loaded until exit, so that a leak the driver reports names
 * it even after the window and its context are gone (tests/lsan.supp
 * suppresses the driver's leaks by library name). gfx_create calls it; a
 * caller whose context could not be created calls it itself. Does nothing
 * in other builds. */
void gfx_pin_driver(void);

/* The path the last gfx_draw_particles took: gfx_def's draw, unless
 * points gave way to quads (by themselves, for a frame whose largest
 * circle is wider than the driver's largest point). */
gfx_draw gfx_drawn_path(const gfx_renderer *r);

/* The OpenGL renderer drawing, as the driver names it (GL_RENDERER, e.g.
 * "llvmpipe (LLVM 15.0.6, 256 bits)"; "unknown" where it says nothing),
 * and whether it rasterises on the CPU (Mesa's llvmpipe, softpipe or
 * swrast, SwiftShader): there the frame rate is the renderer's, not the
 * simulation's. */
const char *gfx_renderer_name(const gfx_renderer *r);
bool gfx_renderer_software(const gfx_renderer *r);

/* ---- A frame ------------------------------------------------------------ */

/* Sets the viewport to the drawable (pixels), letterboxes the world in it
 * keeping its aspect ratio, clears. */
void gfx_begin_frame(gfx_renderer *r, int drawable_w, int drawable_h);

/* Copies the batches, in order, into the instance buffer (mapped, the old
 * contents orphaned; it grows only when a frame needs more than ever
 * before). GFX_ERR_NOMEM if the buffer could not grow or be mapped: the
 * frame then draws no particles. */
gfx_status gfx_upload(gfx_renderer *r, const gfx_batch *batches, uint32_t batch_count);

/* Highlights the particles whose centers lie in the world rectangle
 * [x0, x1) x [y0, y1) and dims the others; on = false turns it off. */
void gfx_set_highlight(gfx_renderer *r, bool on, float x0, float y0, float x1, float y1);

/* Motion trails (off at gfx_create). On, gfx_draw_particles draws into a
 * picture kept between frames: the steps the particles moved (as
 * gfx_trails_advance says) fade it towards the background before they are
 * drawn over it, so that a moving particle leaves a fading streak, about
 * as long on screen at every zoom; the picture is then copied to the
 * drawable. A frame with no step
 * shows the picture as it is. It starts again from the bare frame when the
 * view, the drawable's size or the highlight changes, and after
 * gfx_trails_clear (call it when the particles' colours change without a
 * step). If the picture cannot be made, the trails turn off and the
 * particles are drawn without. */
void gfx_set_trails(gfx_renderer *r, bool on);
void gfx_trails_advance(gfx_renderer *r, uint32_t steps);
void gfx_trails_clear(gfx_renderer *r);

/* Draws what the last gfx_upload sent: one draw call, clipped to the
 * world and its margin (contact pushes can leave a circle outside the
 * walls for a frame; it is never drawn over the letterbox bars). */
void gfx_draw_particles(gfx_renderer *r);

/* A magnified view: the world rectangle [wx0, wx1) x [wy0, wy1) shown in
 * the drawable's pixel rectangle (px, py, pw, ph), top-left origin. Give
 * both rectangles the same aspect ratio, or circles come out as ellipses. */
typedef struct gfx_lens {
    float wx0, wy0, wx1, wy1;
    float px, py, pw, ph;
} gfx_lens;

/* Draws what the last gfx_upload sent again, through the lens, over the
 * world's background and clipped to the lens (a second draw call); circles
 * cut by its border are drawn in part, never dropped. Call it after
 * gfx_draw_particles; the overlay is still drawn over it. */
void gfx_draw_lens(gfx_renderer *r, const gfx_lens *lens);
/* A world point to drawable pixels through the lens. */
void gfx_lens_to_pixel(const gfx_lens *lens, float wx, float wy, float *px, float *py);

/* ---- Overlay: pixels of the drawable, origin top-left -------------------- */

void gfx_rect(gfx_renderer *r, float x, float y, float w, float h, gfx_color c);
/* An outline of width t pixels inside the rectangle. */
void gfx_frame(gfx_renderer *r, float x, float y, float w, float h, float t, gfx_color c);
/* Draws ASCII text with its top-left corner at (x, y); returns its width.
 * Other bytes are drawn as '?'. */
float gfx_text(gfx_renderer *r, float x, float y, const char *s, gfx_color c);
float gfx_text_width(const gfx_renderer *r, const char *s);
float gfx_line_height(const gfx_renderer *r);

/* Draws the overlay queued since gfx_begin_frame. */
void gfx_end_frame(gfx_renderer *r);

/* ---- Mapping ------------------------------------------------------------- */

/* The world rectangle's place in the drawable, in pixels (top-left origin). */
typedef struct gfx_view {
    float x, y, w, h;     /* the world [0, world_w] x [0, world_h] */
    float px_per_unit;
} gfx_view;

/* gfx_begin_frame sets the view that shows the whole world, letterboxed;
 * gfx_set_view then changes it for the frame (a zoomed camera: a larger
 * px_per_unit, the world's corner anywhere). Particles stay clipped to
 * the whole world's letterboxed box, and the mapping below follows the
 * view set. A view with no positive px_per_unit or a non-finite corner is
 * ignored. */
void gfx_set_view(gfx_renderer *r, const gfx_view *v);
gfx_view gfx_get_view(const gfx_renderer *r);
/* A drawable pixel to world units; false if outside the world or outside
 * the box the world is shown in. */
bool gfx_pixel_to_world(const gfx_renderer *r, float px, float py, float *wx, float *wy);
/* A world point to drawable pixels. */
void gfx_world_to_pixel(const gfx_renderer *r, float wx, float wy, float *px, float *py);

/* Reads the drawn frame (before the swap) as RGBA, rows top to bottom, into
 * rgba (w * h * 4 bytes, w and h the drawable's). Waits for the GPU. */
gfx_status gfx_read_pixels(gfx_renderer *r, uint8_t *rgba, int w, int h);

#ifdef __cplusplus
}
#endif
#endif /* GFX_H */
