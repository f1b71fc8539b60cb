/* window_assets.c - locating the data root: --assets, the build tree, the
 * install prefix. */
#include "window_assets.h"
#include "options.h"

#include <SDL.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define PROG "particles"

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool fill(window_assets *a, const char *root)
{
    int n = snprintf(a->shader_dir, sizeof a->shader_dir, "%s/shaders", root);
    int m = snprintf(a->font_path, sizeof a->font_path, "%s/assets/%s", root, WINDOW_FONT_FILE);
    return n > 0 && (size_t)n < sizeof a->shader_dir && m > 0 && (size_t)m < sizeof a->font_path;
}

int window_assets_find(const char *given, window_assets *out)
{
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
