/* window_timeline_history.c - the step history: a ring of the last
 * WINDOW_TL_HISTORY steps' copies, each slot's buffers reused. */
#include "window_timeline.h"

#include <stdlib.h>

window_tl_data *window_tl_history_next(window_tl_history *h)
{
    if (!h->slot) h->slot = calloc(WINDOW_TL_HISTORY, sizeof *h->slot);
    return h->slot ? &h->slot[h->next] : NULL;
}

void window_tl_history_keep(window_tl_history *h)
{
    h->next = (h->next + 1u) % WINDOW_TL_HISTORY;
    if (h->count < WINDOW_TL_HISTORY) h->count++;
}

const window_tl_data *window_tl_history_back(const window_tl_history *h, uint32_t back)
{
    if (back >= h->count) return NULL;
    const window_tl_data *d = &h->slot[(h->next + WINDOW_TL_HISTORY - 1u - back) % WINDOW_TL_HISTORY];
    return d->valid ? d : NULL; /* the oldest, after a copy into its slot failed */
}

void window_tl_history_restart(window_tl_history *h) { h->count = h->next = 0; }

size_t window_tl_history_bytes(const window_tl_history *h)
{
    size_t n = h->slot ? WINDOW_TL_HISTORY * sizeof *h->slot : 0u;
    for (uint32_t i = 0; h->slot && i < WINDOW_TL_HISTORY; i++)
        n += window_tl_data_bytes(&h->slot[i]);
    return n;
}

void window_tl_history_free(window_tl_history *h)
{
    for (uint32_t i = 0; h->slot && i < WINDOW_TL_HISTORY; i++) window_tl_data_free(&h->slot[i]);
    free(h->slot);
    *h = (window_tl_history){0};
}
