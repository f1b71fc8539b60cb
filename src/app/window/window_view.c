/* window_view.c - the camera's arithmetic (window_view.h). */
#include "window_view.h"

#include <math.h>

static float clampf(float x, float lo, float hi) { return x < lo ? lo : x > hi ? hi : x; }

/* Keeps the zoom in range and the box shown inside the world. */
static void clamp(window_view *v)
{
    v->zoom = clampf(isfinite(v->zoom) ? v->zoom : 1.0f, WINDOW_VIEW_ZOOM_MIN, WINDOW_VIEW_ZOOM_MAX);
    float hw = 0.5f * v->world_w / v->zoom, hh = 0.5f * v->world_h / v->zoom;
    v->cx = clampf(isfinite(v->cx) ? v->cx : 0.5f * v->world_w, hw, v->world_w - hw);
    v->cy = clampf(isfinite(v->cy) ? v->cy : 0.5f * v->world_h, hh, v->world_h - hh);
}

window_view window_view_whole(float world_w, float world_h)
{
    window_view v = {.world_w = world_w, .world_h = world_h};
    v.fit = (gfx_view){0.0f, 0.0f, world_w, world_h, 1.0f};
    window_view_reset(&v);
    return v;
}

void window_view_set_fit(window_view *v, const gfx_view *fit) { v->fit = *fit; }

gfx_view window_view_get(const window_view *v)
{
    const gfx_view *f = &v->fit;
    float ppu = f->px_per_unit * v->zoom;
    gfx_view out = {.w = v->world_w * ppu, .h = v->world_h * ppu, .px_per_unit = ppu};
    out.x = f->x + 0.5f * f->w - v->cx * ppu;
    out.y = f->y + 0.5f * f->h - v->cy * ppu;
    return out;
}

void window_view_to_world(const window_view *v, float px, float py, float *wx, float *wy)
{
    gfx_view g = window_view_get(v);
    *wx = (px - g.x) / g.px_per_unit;
    *wy = (py - g.y) / g.px_per_unit;
}

void window_view_to_pixel(const window_view *v, float wx, float wy, float *px, float *py)
{
    gfx_view g = window_view_get(v);
    *px = g.x + wx * g.px_per_unit;
    *py = g.y + wy * g.px_per_unit;
}

void window_view_zoom_at(window_view *v, float px, float py, float factor)
{
    if (!(factor > 0.0f) || !isfinite(factor)) return;
    float wx, wy;
    window_view_to_world(v, px, py, &wx, &wy);
    v->zoom = clampf(v->zoom * factor, WINDOW_VIEW_ZOOM_MIN, WINDOW_VIEW_ZOOM_MAX);
    /* The centre that puts (wx, wy) back at (px, py). */
    float ppu = v->fit.px_per_unit * v->zoom;
    v->cx = wx - (px - (v->fit.x + 0.5f * v->fit.w)) / ppu;
    v->cy = wy - (py - (v->fit.y + 0.5f * v->fit.h)) / ppu;
    clamp(v);
}

void window_view_set(window_view *v, float zoom, float cx, float cy)
{
    v->zoom = zoom;
    v->cx = cx;
    v->cy = cy;
    clamp(v);
}

void window_view_pan(window_view *v, float dx, float dy)
{
    float ppu = v->fit.px_per_unit * v->zoom;
    if (!(ppu > 0.0f)) return;
    v->cx -= dx / ppu;
    v->cy -= dy / ppu;
    clamp(v);
}

void window_view_reset(window_view *v) { window_view_set(v, 1.0f, 0.5f * v->world_w, 0.5f * v->world_h); }
