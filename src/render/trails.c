/* trails.c - motion trails: the particles are drawn into an offscreen
 * picture kept from frame to frame. Steps fade it towards the background (one blended quad over the world, another over its
 * margin in the bars' colour) before the particles are drawn over it, and
 * the picture is copied to the screen. A frame without a step copies it
 * as it is: the particles are not drawn twice over themselves. */
#include "gfx_internal.h"

#include <math.h>
#include <string.h>

/* Steps a streak takes to fade to a tenth at 1x (the whole world in view:
 * 4.8 s at 25 steps/s, the thesis's particles move a few pixels a second
 * there); zoomed z times, a z-th of it, and never under
 * GFX_TRAIL_MIN_STEPS: a particle crosses z times as many pixels a step
 * there, so a streak keeps about its length on screen. */
#define GFX_TRAIL_STEPS_1X 120.0
#define GFX_TRAIL_MIN_STEPS 8.0
/* The least fade a pass applies: slower fades wait for more steps. An
 * eight-bit channel moves only where the fade's share of its distance
 * from the background is half a level or more, so a pass of f stops
 * short of it by up to 0.5 / f levels (6 here, on a background 12 to 20
 * levels above black: no haze is seen), and fewer passes cost less. */
#define GFX_TRAIL_MIN_FADE 0.08

void gfx_set_trails(gfx_renderer *r, bool on)
{
    if (on && !r->trails_on) r->trail_dirty = true;
    r->trails_on = on;
}

static uint32_t add_steps(uint32_t a, uint32_t b) { return b > UINT32_MAX - a ? UINT32_MAX : a + b; }

void gfx_trails_advance(gfx_renderer *r, uint32_t steps) { r->trail_steps = add_steps(r->trail_steps, steps); }

void gfx_trails_clear(gfx_renderer *r) { r->trail_dirty = true; }

void gfx__trails_fini(gfx_renderer *r)
{
    if (r->trail_fbo) glDeleteFramebuffers(1, &r->trail_fbo);
    if (r->trail_tex) glDeleteTextures(1, &r->trail_tex);
    r->trail_fbo = r->trail_tex = 0;
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
    if (!ok || glGetError() != GL_NO_ERROR) {
        gfx__trails_fini(r);
        return false;
    }
    r->trail_w = r->fb_w;
    r->trail_h = r->fb_h;
    r->trail_dirty = true;
    return true;
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
    size_t from = r->overlay_count;
    gfx_rect(r, wx0, wy0, wx1 - wx0, wy1 - wy0, bg);
    gfx_rect(r, cx0, cy0, cx1 - cx0, wy0 - cy0, bars); /* the margin: above, below, left, right */
    gfx_rect(r, cx0, wy1, cx1 - cx0, cy1 - wy1, bars);
    gfx_rect(r, cx0, wy0, wx0 - cx0, wy1 - wy0, bars);
    gfx_rect(r, wx1, wy0, cx1 - wx1, wy1 - wy0, bars);
    gfx__overlay_draw_solid_since(r, from);
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
        r->trail_unfaded = 0;
    } else if (r->trail_steps > 0) {
        glBindFramebuffer(GL_FRAMEBUFFER, r->trail_fbo);
        double zoom = (double)r->view.px_per_unit / (double)r->fit.px_per_unit;
        double tenth = fmax(GFX_TRAIL_STEPS_1X / zoom, GFX_TRAIL_MIN_STEPS);
        r->trail_unfaded = add_steps(r->trail_unfaded, r->trail_steps);
        double alpha = 1.0 - pow(0.1, (double)r->trail_unfaded / tenth);
        if (alpha >= GFX_TRAIL_MIN_FADE) {
            fade(r, l, (float)alpha);
            r->trail_unfaded = 0;
        }
        gfx__draw_through(r, l);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    copy(r, l, r->trail_fbo, 0);
    r->trail_view = r->view;
    r->trail_dirty = false;
    r->trail_steps = 0;
    return true;
}
