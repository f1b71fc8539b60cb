/* read_file.c - a named input file read whole (read_file.h). */
#include "read_file.h"

#include "stop.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIRST_BLOCK ((size_t)65536)

/* "256 MiB", "1 MiB", "1000 bytes": a limit as a person reads it. */
static void name_limit(char *out, size_t size, uint64_t max)
{
    if (max >= ((uint64_t)1 << 30) && max % ((uint64_t)1 << 30) == 0)
        snprintf(out, size, "%llu GiB", (unsigned long long)(max >> 30));
    else if (max >= ((uint64_t)1 << 20) && max % ((uint64_t)1 << 20) == 0)
        snprintf(out, size, "%llu MiB", (unsigned long long)(max >> 20));
    else
        snprintf(out, size, "%llu bytes", (unsigned long long)max);
}

/* Grows *buf to hold more than n bytes and a NUL, up to max + 1 (one
 * byte more than allowed says the file is larger), first to first bytes.
 * false after why. */
static bool grow(unsigned char **buf, size_t *cap, size_t first, size_t n, size_t max,
                 char *why, size_t why_size)
{
    size_t want = *cap ? (*cap > SIZE_MAX / 2u ? SIZE_MAX : *cap * 2u) : first;
    if (want > max + 2u && max < SIZE_MAX - 2u) want = max + 2u;
    unsigned char *more = want > *cap ? realloc(*buf, want) : NULL;
    if (!more) {
        snprintf(why, why_size, "out of memory past %zu bytes", n);
        return false;
    }
    *buf = more;
    *cap = want;
    return true;
}

char *app_next_line(char *text, size_t size, size_t *at, size_t *len)
{
    if (*at >= size) return NULL;
    char *line = text + *at, *nl = memchr(line, '\n', size - *at);
    *len = nl ? (size_t)(nl - line) + 1u : size - *at;
    *at += *len;
    return line;
}

app_read_status app_read_file(const char *path, uint64_t max, unsigned char **bytes,
                              size_t *size, char *why, size_t why_size)
{
    *bytes = NULL;
    *size = 0;
    if (why_size) why[0] = '\0';
    if (app_stop_signal()) return APP_READ_STOPPED;
    size_t limit = max < SIZE_MAX - 2u ? (size_t)max : SIZE_MAX - 2u;
#if defined(_WIN32) /* no FIFOs: a file or a pipe, read as it is */
    int fd = open(path, O_RDONLY | O_BINARY | O_NOINHERIT);
#else
    /* O_NONBLOCK: opening a FIFO does not wait for its writer;
     * app_stop_read waits for the data instead, or for a stop signal. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
#endif
    if (fd < 0) {
        snprintf(why, why_size, "cannot be read: %s", strerror(errno));
        return APP_READ_FAILED;
    }
    /* A regular file is read into one block of its size (and the NUL, and
     * a byte to see its end in): no copies as the buffer grows. */
    struct stat fs;
    size_t first = FIRST_BLOCK;
    if (fstat(fd, &fs) == 0 && S_ISREG(fs.st_mode) && fs.st_size >= 0 &&
        (uint64_t)fs.st_size < limit)
        first = (size_t)fs.st_size + 2u;
    unsigned char *buf = NULL;
    size_t n = 0, cap = 0;
    app_read_status st = APP_READ_OK;
    for (;;) {
        if (n + 1u >= cap && !grow(&buf, &cap, first, n, limit, why, why_size)) {
            st = APP_READ_FAILED;
            break;
        }
        ssize_t got = app_stop_read(fd, buf + n, cap - n - 1u);
        if (got > 0) {
            n += (size_t)got;
            if (n <= limit) continue;
            char lim[32];
            name_limit(lim, sizeof lim, max);
            snprintf(why, why_size, "larger than %s, the most it may be", lim);
            st = APP_READ_FAILED;
        } else if (got < 0 && errno == EINTR) {
            st = APP_READ_STOPPED;
        } else if (got < 0) {
            snprintf(why, why_size, "cannot be read: %s", strerror(errno));
            st = APP_READ_FAILED;
        }
        break;
    }
    close(fd);
    if (st != APP_READ_OK) {
        free(buf);
        return st;
    }
    /* Exactly its size and the NUL: a parser reading past the end is then
     * caught by the sanitizers instead of reading stale heap. */
    unsigned char *fit = realloc(buf, n + 1u);
    if (fit) buf = fit;
    buf[n] = '\0';
    *bytes = buf;
    *size = n;
    return APP_READ_OK;
}
