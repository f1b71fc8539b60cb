/* bench_progress.c - the progress line on stderr, rewritten in place. */
#include "bench_progress.h"

#include <stdio.h>

#define INTERVAL_MS 100.0

void bench_progress_init(bench_progress *p, bool on)
{
    *p = (bench_progress){.on = on, .last_ms = -1e300};
}

bool bench_progress_due(const bench_progress *p, double now_ms)
{
    return p->on && now_ms - p->last_ms >= INTERVAL_MS;
}

void bench_progress_show(bench_progress *p, const char *text, double now_ms)
{
    if (!p->on) return;
    int n = fprintf(stderr, "\r%s", text) - 1;
    if (n < p->width) fprintf(stderr, "%*s", p->width - n, "");
    fflush(stderr);
    p->width = n;
    p->last_ms = now_ms;
}

void bench_progress_clear(bench_progress *p)
{
    if (!p->on || p->width == 0) return;
    fprintf(stderr, "\r%*s\r", p->width, "");
    fflush(stderr);
    p->width = 0;
}
