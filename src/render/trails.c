/* trails.c - motion trails: the particles are drawn into an offscreen
 * picture kept from frame to frame. Each step fades it a little towards
 * the background (one blended quad over the world, another over its
 * margin in the bars' colour) before the particles are drawn over it, and
 * the picture is copied to the screen. A frame without a step copies it
 * as it is: the particles are not drawn twice over themselves. */
#include "gfx_internal.h"

#include <math.h>
#include <string.h>

/* The share of the picture's difference from the background that one step
 * removes: a streak fades to a tenth in 14 steps (0.56 s at 25 steps/s). */
#define GFX_TRAIL_FADE 0.15

void gfx_set_trails(gfx_renderer *r, bool on)
{
    if (on && !r->trails_on) r->trail_dirty = true;
    r->trails_on = on;
}

void gfx_trails_advance(gfx_renderer *r, uint32_t steps)
{
    r->trail_steps = steps > UINT32_MAX - r->trail_steps ? UINT32_MAX : r->trail_steps + steps;
}

void gfx_trails_clear(gfx_renderer *r) { r->trail_dirty = true; }

void gfx__trails_fini(gfx_renderer *r)
{
    if (r->trail_fbo) glDeleteFramebuffers(1, &r->trail_fbo);
    if (r->trail_tex) glDeleteTextures(1, &r->trail_tex);
    if (r->trail_vao) glDeleteVertexArrays(1, &r->trail_vao);
    if (r->trail_vbo) glDeleteBuffers(1, &r->trail_vbo);
    r->trail_fbo = r->trail_tex = r->trail_vao = r->trail_vbo = 0;
}

/* The offscreen picture, the drawable's size; false if GL could not make it. */
static bool ensure_picture(gfx_renderer *r)
{
    if (r->trail_fbo && r->trail_w == r->fb_w && r->trail_h == r->fb_h) return true;
    gfx__trails_fini(r);
    glGenTextures(1, &r->trail_tex);
    glBindTexture(GL_TEXTURE_2D, r->trail_tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, r->fb_w, r->fb_h, 0, GL_RGB, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &r->trail_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, r->trail_fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, r->trail_tex, 0);
    bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glGenVertexArrays(1, &r->trail_vao);
    glGenBuffers(1, &r->trail_vbo);
    glBindVertexArray(r->trail_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->trail_vbo);
    gfx__overlay_attributes();
    glBindVertexArray(0);
    if (!ok || glGetError() != GL_NO_ERROR) {
        gfx__trails_fini(r);
        return false;
    }
    r->trail_w = r->fb_w;
    r->trail_h = r->fb_h;
    r->trail_dirty = true;
    return true;
}

static void put_quad(gfx_overlay_vertex *v, float x0, float y0, float x1, float y1, gfx_color c)
{
    v[0] = (gfx_overlay_vertex){x0, y0, -1.0f, 0.0f, c};
    v[1] = (gfx_overlay_vertex){x1, y0, -1.0f, 0.0f, c};
    v[2] = (gfx_overlay_vertex){x0, y1, -1.0f, 0.0f, c};
    v[3] = v[2];
    v[4] = v[1];
    v[5] = (gfx_overlay_vertex){x1, y1, -1.0f, 0.0f, c};
}

/* Blends the background over the picture's world, and the bars' colour
 * over the rest of the clip rectangle l, at `alpha`. */
static void fade(gfx_renderer *r, const gfx_lens *l, float alpha)
{
    const gfx_view *f = &r->fit;
    float cx0 = l->px, cy0 = l->py, cx1 = l->px + l->pw, cy1 = l->py + l->ph;
    float wx0 = fmaxf(f->x, cx0), wy0 = fmaxf(f->y, cy0);
    float wx1 = fminf(f->x + f->w, cx1), wy1 = fminf(f->y + f->h, cy1);
    uint8_t a = (uint8_t)lrintf(alpha * 255.0f);
    gfx_color bg = r->def.background, bars = gfx__bars_color(r);
    bg.a = bars.a = a;
    gfx_overlay_vertex v[30];
    int n = 0;
    put_quad(v + 6 * n++, wx0, wy0, wx1, wy1, bg);
    put_quad(v + 6 * n++, cx0, cy0, cx1, wy0, bars); /* the margin: above, below, left, right */
    put_quad(v + 6 * n++, cx0, wy1, cx1, cy1, bars);
    put_quad(v + 6 * n++, cx0, wy0, wx0, wy1, bars);
    put_quad(v + 6 * n++, wx1, wy0, cx1, wy1, bars);
    glUseProgram(r->solid_program);
    glUniformMatrix4fv(r->u_solid_proj, 1, GL_FALSE, r->proj_pixels);
    glBindVertexArray(r->trail_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->trail_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)sizeof v, v, GL_STREAM_DRAW);
    glDrawArrays(GL_TRIANGLES, 0, 6 * n);
    glBindVertexArray(0);
}

/* Copies the clip rectangle l (top-left pixels) between framebuffers. */
static void copy(const gfx_renderer *r, const gfx_lens *l, GLuint from, GLuint to)
{
    GLint x0 = (GLint)l->px, y0 = r->fb_h - (GLint)(l->py + l->ph);
    GLint x1 = x0 + (GLint)l->pw, y1 = y0 + (GLint)l->ph;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, from);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, to);
    glBlitFramebuffer(x0, y0, x1, y1, x0, y0, x1, y1, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

bool gfx__trails_draw(gfx_renderer *r, const gfx_lens *l)
{
    if (!ensure_picture(r)) {
        r->trails_on = false; /* not tried again every frame */
        return false;
    }
    if (memcmp(&r->trail_view, &r->view, sizeof r->view) != 0) r->trail_dirty = true;
    if (r->trail_dirty) {
        copy(r, l, 0, r->trail_fbo); /* the frame's cleared world and margin */
        glBindFramebuffer(GL_FRAMEBUFFER, r->trail_fbo);
        gfx__draw_through(r, l);
    } else if (r->trail_steps > 0) {
        glBindFramebuffer(GL_FRAMEBUFFER, r->trail_fbo);
        fade(r, l, 1.0f - (float)pow(1.0 - GFX_TRAIL_FADE, (double)r->trail_steps));
        gfx__draw_through(r, l);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    copy(r, l, r->trail_fbo, 0);
    r->trail_view = r->view;
    r->trail_dirty = false;
    r->trail_steps = 0;
    return true;
}
