/* raise_in_save.c - seams for test_window_signal.sh, linked into a test
 * build of particles with -Wl,--wrap=stbi_write_png_to_func and
 * -Wl,--wrap=app_stop_read: the signal named by PARTICLES_TEST_SIGNAL is
 * raised from inside the screenshot's save, once the PNG is encoded into
 * the temporary and before it is put in place; the one named by
 * PARTICLES_TEST_SIGNAL_READ just before the first wait for an input
 * file's data. The test needs no timing to hit either moment. */
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>

#include <stb_image_write.h>

#include "stop.h"

ssize_t __real_app_stop_read(int fd, void *buf, size_t size);
ssize_t __wrap_app_stop_read(int fd, void *buf, size_t size);

ssize_t __wrap_app_stop_read(int fd, void *buf, size_t size)
{
    static bool raised;
    const char *sig = getenv("PARTICLES_TEST_SIGNAL_READ");
    if (sig && !raised) {
        raised = true;
        raise(atoi(sig));
    }
    return __real_app_stop_read(fd, buf, size);
}

int __real_stbi_write_png_to_func(stbi_write_func *func, void *context, int w, int h, int comp,
                                  const void *data, int stride);
int __wrap_stbi_write_png_to_func(stbi_write_func *func, void *context, int w, int h, int comp,
                                  const void *data, int stride);

int __wrap_stbi_write_png_to_func(stbi_write_func *func, void *context, int w, int h, int comp,
                                  const void *data, int stride)
{
    int ok = __real_stbi_write_png_to_func(func, context, w, h, comp, data, stride);
    const char *sig = getenv("PARTICLES_TEST_SIGNAL");
    if (sig) raise(atoi(sig));
    return ok;
}
