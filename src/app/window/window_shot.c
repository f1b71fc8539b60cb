/* window_shot.c - PNG screenshots through stb_image_write, written through
 * the output module (out.h): a temporary beside the target, renamed over it. */
#include "window_shot.h"
#include "options.h"
#include "stop.h"

#include <stb_image_write.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define PROG "particles"

static void to_file(void *ctx, void *data, int size)
{
    FILE *f = ctx;
    fwrite(data, 1, (size_t)size, f);
}

static int commit(void *out) { return app_out_commit(out); }

/* The PNG into out's temporary, put in place unless a stop signal came
 * first (then 1, with no line: the run says why it stopped). */
static int write_png(app_out *out, const uint8_t *rgba, int w, int h)
{
    FILE *f = app_out_begin(out);
    if (!f) return 1;
    int ok = stbi_write_png_to_func(to_file, f, w, h, 4, rgba, w * 4);
    int rc = app_out_end(out, f);
    if (rc == 0 && !ok) {
        /* stb_image_write fails only where its buffers cannot be had. */
        app_error(PROG, "%s %s: out of memory encoding the %dx%d PNG", out->flag, out->path, w, h);
        rc = 1;
    }
    if (rc != 0) return rc;
    rc = app_stop_unless(commit, out);
    return rc < 0 ? 1 : rc;
}

int window_shot_save(gfx_renderer *r, int w, int h, app_out *out)
{
    uint8_t *rgba = malloc((size_t)w * (size_t)h * 4u);
    if (!rgba) {
        app_error(PROG, "%s %s: out of memory for %dx%d pixels", out->flag, out->path, w, h);
        return 1;
    }
    int rc = 0;
    if (gfx_read_pixels(r, rgba, w, h) != GFX_OK) {
        app_error(PROG, "%s %s: reading the frame back failed", out->flag, out->path);
        rc = 1;
    }
    if (rc == 0) rc = write_png(out, rgba, w, h);
    free(rgba);
    app_out_discard(out);
    return rc;
}

int window_shot_key(gfx_renderer *r, int w, int h, char *name, size_t size)
{
    time_t now = time(NULL);
    struct tm tm;
    char stamp[32] = "now";
    if (localtime_r(&now, &tm)) strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    snprintf(name, size, "particles-%s.png", stamp);
    for (int k = 2; k < 1000 && access(name, F_OK) == 0; k++)
        snprintf(name, size, "particles-%s-%d.png", stamp, k);
    app_out out;
    if (app_out_stage(&out, PROG, "screenshot", name, APP_OUT_NEW_ONLY) != 0) return 1;
    return window_shot_save(r, w, h, &out);
}
