/* bench_progress.h - the progress line on stderr, rewritten in place. */
#ifndef BENCH_PROGRESS_H
#define BENCH_PROGRESS_H

#include <stdbool.h>

typedef struct bench_progress {
    bool on;        /* stderr is a terminal and not --quiet */
    double last_ms; /* when the line was last drawn */
    int width;      /* characters drawn, to blank the rest */
} bench_progress;

void bench_progress_init(bench_progress *p, bool on);
/* Whether the line should be redrawn at now_ms (at most ~10 times a second). */
bool bench_progress_due(const bench_progress *p, double now_ms);
/* Draws text (no newline) over the previous line. */
void bench_progress_show(bench_progress *p, const char *text, double now_ms);
/* Blanks the line and returns the cursor to its start. */
void bench_progress_clear(bench_progress *p);

#endif /* BENCH_PROGRESS_H */
