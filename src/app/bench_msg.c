/* bench_msg.c - one-line failure messages on stderr. */
#include "bench_msg.h"

#include <stdarg.h>
#include <stdio.h>

void bench_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("particles bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
