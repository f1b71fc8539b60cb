/* window_platform.c - SDL2: video driver check, window, GL context, swap. */
#include "window_platform.h"
#include "gfx.h"
#include "options.h"

#include <SDL.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "particles"

/* Drivers that show nothing on any screen. SDL picks 'offscreen' by itself
 * when neither DISPLAY nor WAYLAND_DISPLAY is set: a window run there would
 * go on unseen forever, so only an explicit SDL_VIDEODRIVER may choose it. */
static bool headless_driver(const char *name)
{
    return strcmp(name, "offscreen") == 0 || strcmp(name, "dummy") == 0 ||
           strcmp(name, "evdev") == 0;
}

static bool asked_for(const char *driver)
{
    const char *want = getenv("SDL_VIDEODRIVER");
    return want && SDL_strcasecmp(want, driver) == 0;
}

static int no_display(const char *why)
{
    app_error(PROG, "no display: %s; run it on a desktop or under xvfb-run, or try "
                    "'particles bench' (headless)", why);
    return 1;
}

/* Linux and the BSDs show a window through an X server or a Wayland
 * compositor, which DISPLAY and WAYLAND_DISPLAY name: without either no
 * window can appear there. macOS, Windows and the rest have a display
 * that no variable names; SDL finds it by itself. */
#if defined(__unix__) && !defined(__APPLE__) && !defined(__ANDROID__)
#define DISPLAY_IN_ENV 1
#else
#define DISPLAY_IN_ENV 0
#endif

/* Picks the driver before SDL probes where a display is named by the
 * environment: with neither display variable set SDL would only fall back
 * to 'offscreen', and with DISPLAY alone its Wayland probe prints a stray
 * libwayland line when the X server is unreachable. An explicit
 * SDL_VIDEODRIVER (kmsdrm, offscreen, ...) is left to SDL everywhere. */
static int open_video(void)
{
    bool chosen = getenv("SDL_VIDEODRIVER") != NULL;
    const char *x11 = getenv("DISPLAY"), *wayland = getenv("WAYLAND_DISPLAY");
    bool by_env = DISPLAY_IN_ENV && !chosen;
    if (by_env && !x11 && !wayland) return no_display("DISPLAY and WAYLAND_DISPLAY are unset");
    if (by_env && !wayland) SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11");
    /* SIGINT and SIGTERM are the program's own (stop.h), not SDL_QUIT. */
    SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        if (!by_env || wayland) return no_display(SDL_GetError());
        char why[384];
        snprintf(why, sizeof why, "cannot reach the X server at DISPLAY=%s (SDL: %s)", x11,
                 SDL_GetError());
        return no_display(why);
    }
    const char *driver = SDL_GetCurrentVideoDriver();
    if (!driver) return no_display("SDL has no video driver");
    if (headless_driver(driver) && !asked_for(driver))
        return no_display("SDL could reach no display server and fell back to a headless driver");
    return 0;
}

static void request_gl(void)
{
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0);
    SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 0);
}

int window_platform_open(window_platform *p, const char *title, int w, int h, bool vsync)
{
    memset(p, 0, sizeof *p);
    int rc = open_video();
    p->sdl_up = true;
    if (rc != 0) return rc;
    request_gl();
    p->window = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h,
                                 SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE |
                                     SDL_WINDOW_ALLOW_HIGHDPI);
    if (!p->window) {
        app_error(PROG, "no OpenGL window: %s; try 'particles bench' (headless)", SDL_GetError());
        return 1;
    }
    p->gl = SDL_GL_CreateContext(p->window);
    gfx_pin_driver(); /* whether or not the driver could make the context */
    if (!p->gl) {
        app_error(PROG, "no OpenGL 3.3 core context: %s; try 'particles bench' (headless)",
                  SDL_GetError());
        return 1;
    }
    /* Under Xvfb the swap interval is unsupported: not an error, the
     * frames are simply not paced. */
    p->vsync_on = vsync && SDL_GL_SetSwapInterval(1) == 0;
    if (!vsync) SDL_GL_SetSwapInterval(0);
    return 0;
}

void window_platform_close(window_platform *p)
{
    if (p->gl) SDL_GL_DeleteContext(p->gl);
    if (p->window) SDL_DestroyWindow(p->window);
    if (p->sdl_up) SDL_Quit();
    memset(p, 0, sizeof *p);
}

void (*window_platform_gl_proc(const char *name))(void)
{
    void *sym = SDL_GL_GetProcAddress(name);
    void (*fn)(void);
    /* ISO C has no cast between object and function pointers. */
    memcpy(&fn, &sym, sizeof fn);
    return fn;
}

void window_platform_sizes(const window_platform *p, int *win_w, int *win_h, int *px_w, int *px_h)
{
    SDL_GetWindowSize(p->window, win_w, win_h);
    SDL_GL_GetDrawableSize(p->window, px_w, px_h);
}

void window_platform_swap(window_platform *p) { SDL_GL_SwapWindow(p->window); }
