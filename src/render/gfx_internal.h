/* gfx_internal.h - the renderer's state, shared by the files of src/render
 * and nothing else. */
#ifndef GFX_INTERNAL_H
#define GFX_INTERNAL_H

#include "font.h"
#include "gfx.h"

#include <glad/gl.h>

/* Overlay vertex: pixel position, atlas coordinates (u < 0: solid), color. */
typedef struct gfx_overlay_vertex {
    float x, y, u, v;
    gfx_color c;
} gfx_overlay_vertex;

/* The font: its atlas as a texture, and the glyphs' places in it. */
typedef struct gfx_font {
    GLuint texture;
    int atlas_w, atlas_h;
    float px, ascent, line_height;
    gfx_glyph glyphs[GFX_GLYPH_COUNT];
} gfx_font;

/* The particle program of one draw path. */
typedef struct gfx_particle_prog {
    GLuint program;
    GLint u_proj, u_px_per_unit, u_highlight, u_highlight_on, u_alpha_floor, u_lift;
} gfx_particle_prog;

struct gfx_renderer {
    gfx_def def;
    float max_point_px; /* the driver's largest point size */
    char gl_name[128];  /* GL_RENDERER, cut to fit */

    /* The view of the last gfx_begin_frame. */
    int fb_w, fb_h;
    gfx_view view;     /* as gfx_set_view left it */
    gfx_view fit;      /* the whole world letterboxed in the drawable */
    float proj_pixels[16]; /* column-major, cglm's mat4 */

    /* Particles: one instance buffer, read by both draw paths. */
    gfx_particle_prog prog[2]; /* [GFX_DRAW_POINTS], [GFX_DRAW_QUADS] */
    GLuint vao[2];
    GLuint instances;
    uint32_t instance_cap, instance_count;
    gfx_draw last_draw; /* the path the last particle draw took */
    bool highlight_on;
    float highlight[4];

    /* Motion trails (trails.c): the picture kept between frames. */
    bool trails_on, trail_dirty; /* dirty: start again from the cleared frame */
    uint32_t trail_steps;        /* steps since the picture was last drawn */
    uint32_t trail_unfaded;      /* steps since it was last faded */
    GLuint trail_fbo, trail_tex;
    int trail_w, trail_h;
    gfx_view trail_view;         /* the view it was drawn in */

    /* Overlay: vertices queued this frame, drawn at gfx_end_frame. */
    GLuint overlay_program, overlay_vao, overlay_vbo;
    GLint u_overlay_proj, u_overlay_atlas;
    GLuint solid_program; /* the overlay's shaders, solid colours only */
    GLint u_solid_proj;
    gfx_overlay_vertex *overlay;
    size_t overlay_count, overlay_cap; /* vertices */
    size_t overlay_vbo_cap;            /* vertices the buffer holds */
    gfx_font font;
};

/* gfx.c: fills err (status and one line); returns the status. */
gfx_status gfx__fail(gfx_error *err, gfx_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* shader.c: compiles the vertex and fragment shaders with `defines` (lines
 * of "#define ...") after the version line, and links them. */
gfx_status gfx__program(const gfx_file *vert, const gfx_file *frag, const char *defines,
                        GLuint *out, gfx_error *err);

/* gfx.c: the letterbox bars' colour. */
gfx_color gfx__bars_color(const gfx_renderer *r);
/* gfx.c: draws the uploaded particles of the world rectangle l into its
 * pixel rectangle of the bound framebuffer, clipped to it. */
void gfx__draw_through(gfx_renderer *r, const gfx_lens *l);

/* trails.c: draws the particles through l with their trails; false if the
 * offscreen picture could not be made (then nothing was drawn). */
bool gfx__trails_draw(gfx_renderer *r, const gfx_lens *l);
void gfx__trails_fini(gfx_renderer *r);

/* particles.c */
gfx_status gfx__particles_init(gfx_renderer *r, gfx_error *err);
void gfx__particles_fini(gfx_renderer *r);
/* Draws the uploaded instances with projection `proj` (world units to
 * clip space, cglm column-major) at px_per_unit drawable pixels per unit. */
void gfx__particles_draw(gfx_renderer *r, const float proj[16], float px_per_unit);

/* overlay.c */
gfx_status gfx__overlay_init(gfx_renderer *r, gfx_error *err);
void gfx__overlay_fini(gfx_renderer *r);
/* Queues one textured or solid quad; u0 < 0 means solid. */
void gfx__overlay_quad(gfx_renderer *r, float x0, float y0, float x1, float y1, float u0,
                       float v0, float u1, float v1, gfx_color c);
/* Draws the solid quads queued since vertex `from` (gfx_rect, or
 * gfx__overlay_quad with u0 < 0) now, into the bound framebuffer, and
 * drops them from the queue; the frame's earlier quads stay queued. */
void gfx__overlay_draw_solid_since(gfx_renderer *r, size_t from);

/* text.c */
gfx_status gfx__font_init(gfx_font *f, const gfx_file *ttf, float px, gfx_error *err);
void gfx__font_fini(gfx_font *f);

#endif /* GFX_INTERNAL_H */
