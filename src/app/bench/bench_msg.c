/* bench_msg.c - one-line failure messages on stderr, through app_error. */
#include "bench_msg.h"
#include "bench_cli.h"
#include "options.h"

#include <stdarg.h>

void bench_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    app_verror(BENCH_PROG, fmt, ap);
    va_end(ap);
}
