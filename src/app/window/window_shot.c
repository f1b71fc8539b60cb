/* window_shot.c - PNG screenshots through stb_image_write, written to a
 * temporary file beside the target and renamed over it. */
#include "window_shot.h"
#include "options.h"

#include <stb_image_write.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PROG "particles"

static void to_file(void *ctx, void *data, int size)
{
    FILE *f = ctx;
    fwrite(data, 1, (size_t)size, f);
}

/* "dir/.name.XXXXXX" for mkstemp: beside the target, so rename is atomic. */
static int temp_name(const char *path, char *out, size_t size)
{
    const char *slash = strrchr(path, '/');
    int dir_len = slash ? (int)(slash - path) + 1 : 0;
    int n = snprintf(out, size, "%.*s.%s.XXXXXX", dir_len, path, slash ? slash + 1 : path);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

static int write_png(const char *path, const uint8_t *rgba, int w, int h)
{
    char tmp[4096];
    if (temp_name(path, tmp, sizeof tmp) != 0) {
        app_error(PROG, "screenshot %s: the path is too long", path);
        return 1;
    }
    int fd = mkstemp(tmp);
    if (fd < 0) {
        app_error(PROG, "screenshot %s: cannot create a file there: %s", path, strerror(errno));
        return 1;
    }
    FILE *f = fdopen(fd, "wb");
    int ok = f && stbi_write_png_to_func(to_file, f, w, h, 4, rgba, w * 4);
    int err = errno;
    if (f) {
        ok = !ferror(f) && ok;
        ok = fflush(f) == 0 && fsync(fileno(f)) == 0 && ok;
        err = ok ? 0 : errno;
        ok = fclose(f) == 0 && ok;
    } else {
        close(fd);
    }
    mode_t mask = umask(0);
    umask(mask);
    struct stat st;
    mode_t mode = stat(path, &st) == 0 ? (st.st_mode & 07777) : (0666 & ~mask);
    if (ok) ok = chmod(tmp, mode) == 0 && rename(tmp, path) == 0;
    if (!ok) {
        if (!err) err = errno;
        unlink(tmp);
        app_error(PROG, "screenshot %s: writing failed: %s", path, strerror(err ? err : EIO));
        return 1;
    }
    return 0;
}

int window_shot_save(gfx_renderer *r, int w, int h, const char *path)
{
    uint8_t *rgba = malloc((size_t)w * (size_t)h * 4u);
    if (!rgba) {
        app_error(PROG, "screenshot %s: out of memory for %dx%d pixels", path, w, h);
        return 1;
    }
    int rc = 0;
    if (gfx_read_pixels(r, rgba, w, h) != GFX_OK) {
        app_error(PROG, "screenshot %s: reading the frame back failed", path);
        rc = 1;
    }
    if (rc == 0) rc = write_png(path, rgba, w, h);
    free(rgba);
    return rc;
}

void window_shot_name(char *buf, size_t size)
{
    time_t now = time(NULL);
    struct tm tm;
    char stamp[32] = "now";
    if (localtime_r(&now, &tm)) strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    snprintf(buf, size, "particles-%s.png", stamp);
    for (int k = 2; k < 1000 && access(buf, F_OK) == 0; k++)
        snprintf(buf, size, "particles-%s-%d.png", stamp, k);
}
