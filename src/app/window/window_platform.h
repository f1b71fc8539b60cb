/* window_platform.h - the SDL2 window and its OpenGL 3.3 core context. */
#ifndef WINDOW_PLATFORM_H
#define WINDOW_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

typedef struct SDL_Window SDL_Window;

typedef struct window_platform {
    SDL_Window *window;
    void *gl; /* SDL_GLContext */
    bool vsync_on; /* the swap interval the driver accepted */
    bool sdl_up;
} window_platform;

/* Opens a resizable, HiDPI-aware w x h window with a current 3.3 core
 * context. Refuses a headless video driver the user did not ask for
 * (SDL falls back to 'offscreen' when there is no display). Returns 0, or
 * 1 after printing one line saying what is missing. */
int window_platform_open(window_platform *p, const char *title, int w, int h, bool vsync);
void window_platform_close(window_platform *p);

/* The GL entry point lookup, in the type gfx_def.load wants. */
void (*window_platform_gl_proc(const char *name))(void);

/* Sizes of the window in screen coordinates and of its drawable in pixels. */
void window_platform_sizes(const window_platform *p, int *win_w, int *win_h, int *px_w, int *px_h);
void window_platform_swap(window_platform *p);

#endif /* WINDOW_PLATFORM_H */
