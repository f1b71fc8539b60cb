/* window_assets.c - locating the data root (--assets, the build tree, the
 * install prefix) and reading the shaders and the font from it. */
#include "window_assets.h"
#include "options.h"
#include "read_file.h"
#include "stop.h"

#include <SDL.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PROG "particles"
#define SHADER_MAX_BYTES ((uint64_t)1 << 20)
#define FONT_MAX_BYTES ((uint64_t)16 << 20)

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool fill(window_assets *a, const char *root)
{
    memset(a, 0, sizeof *a);
    for (int i = 0; i < WINDOW_ASSET_COUNT; i++) {
        bool font = i == WINDOW_ASSET_FONT;
        int n = snprintf(a->path[i], sizeof a->path[i], "%s/%s/%s", root,
                         font ? "assets" : "shaders",
                         font ? WINDOW_FONT_FILE : gfx_shader_file((gfx_shader)i));
        if (n <= 0 || (size_t)n >= sizeof a->path[i]) return false;
    }
    return true;
}

int window_assets_find(const char *given, window_assets *out)
{
    memset(out, 0, sizeof *out);
    if (given) {
        if (!is_dir(given)) {
            app_error(PROG, "--assets: '%s' is not a directory", given);
            return 2; /* bad input */
        }
        if (!fill(out, given)) {
            app_error(PROG, "--assets: '%s' is too long a path", given);
            return 2;
        }
        return 0;
    }
    char *base = SDL_GetBasePath(); /* ends in '/' */
    char root[1024];
    bool found = false;
    if (base) {
        snprintf(root, sizeof root, "%sshaders", base);
        if (is_dir(root)) {
            snprintf(root, sizeof root, "%s.", base);
            found = true;
        } else {
            snprintf(root, sizeof root, "%s../share/particles", base);
            found = is_dir(root);
        }
    }
    if (!found || !fill(out, root)) {
        app_error(PROG, "no shaders next to the executable (%s) nor in %s../share/particles; "
                        "pass --assets DIR (the folder holding shaders/ and assets/)",
                  base ? base : "unknown", base ? base : "");
        SDL_free(base);
        return 1;
    }
    SDL_free(base);
    return 0;
}

int window_assets_read(window_assets *a)
{
    for (int i = 0; i < WINDOW_ASSET_COUNT; i++) {
        bool font = i == WINDOW_ASSET_FONT;
        char why[120];
        app_read_status st = app_read_file(a->path[i], font ? FONT_MAX_BYTES : SHADER_MAX_BYTES,
                                           &a->bytes[i], &a->size[i], why, sizeof why);
        if (st == APP_READ_OK) continue;
        window_assets_free(a);
        if (st == APP_READ_STOPPED) return app_stop_status();
        app_error(PROG, "the %s %s: %s", font ? "font" : "shader", a->path[i], why);
        return 1;
    }
    return 0;
}

gfx_file window_assets_file(const window_assets *a, int i)
{
    return (gfx_file){a->path[i], a->bytes[i], a->size[i]};
}

void window_assets_free(window_assets *a)
{
    for (int i = 0; i < WINDOW_ASSET_COUNT; i++) {
        free(a->bytes[i]);
        a->bytes[i] = NULL;
        a->size[i] = 0;
    }
}
