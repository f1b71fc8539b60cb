/* window_view.h - the window's camera: zoom about a point and pan over the
 * world, as pure arithmetic on gfx_view (no GL), so that it is tested
 * without a window. */
#ifndef WINDOW_VIEW_H
#define WINDOW_VIEW_H

#include <stdbool.h>

#include "gfx.h"

#define WINDOW_VIEW_ZOOM_MIN 1.0f
#define WINDOW_VIEW_ZOOM_MAX 64.0f
/* One wheel click zooms by this factor. */
#define WINDOW_VIEW_WHEEL_STEP 1.25f

/* The camera over a world [0, world_w] x [0, world_h]. `fit` is the view
 * showing the whole world (gfx_begin_frame's); the camera shows the world
 * point (cx, cy) at the centre of fit's box, zoom times larger. The box it
 * shows stays inside the world: at zoom 1 the whole world. */
typedef struct window_view {
    gfx_view fit;
    float world_w, world_h;
    float zoom, cx, cy;
} window_view;

/* The whole world at zoom 1. */
window_view window_view_whole(float world_w, float world_h);
/* A new fit (the drawable changed size); the camera keeps its world point
 * and zoom. */
void window_view_set_fit(window_view *v, const gfx_view *fit);
/* The view to draw with (gfx_set_view). */
gfx_view window_view_get(const window_view *v);

/* Zooms by `factor` keeping the world point under pixel (px, py) there,
 * the zoom clamped to [WINDOW_VIEW_ZOOM_MIN, WINDOW_VIEW_ZOOM_MAX]; near
 * the world's edge a zoom out moves the point so that the box stays
 * inside the world. */
void window_view_zoom_at(window_view *v, float px, float py, float factor);
/* Sets the zoom (clamped) and the world point at the box's centre (moved
 * as far as needed to keep the box inside the world). */
void window_view_set(window_view *v, float zoom, float cx, float cy);
/* Moves the world by (dx, dy) pixels on screen, as a drag does. */
void window_view_pan(window_view *v, float dx, float dy);
/* Back to the whole world. */
void window_view_reset(window_view *v);

/* Pixel to world and back through the camera. */
void window_view_to_world(const window_view *v, float px, float py, float *wx, float *wy);
void window_view_to_pixel(const window_view *v, float wx, float wy, float *px, float *py);

#endif /* WINDOW_VIEW_H */
