/* raise_in_save.c - a seam for test_window_signal.sh, linked into a test
 * build of particles with -Wl,--wrap=stbi_write_png_to_func: the signal
 * named by PARTICLES_TEST_SIGNAL is raised from inside the screenshot's
 * save, once the PNG is encoded into the temporary and before it is put
 * in place, so that the test needs no timing to hit that moment. */
#include <signal.h>
#include <stdlib.h>

#include <stb_image_write.h>

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
