/* pool_log.c - the pool threads' sleep logs (pool_log.h). */
#include "pool_log.h"

void pool_log_init(pool_log *log)
{
    atomic_init(&log->writing, 0);
    atomic_init(&log->head, 0);
    atomic_init(&log->since, 0);
    for (uint32_t k = 0; k < POOL_SLEEP_LOG; k++)
        for (int i = 0; i < 3; i++) atomic_init(&log->slept[k][i], 0);
}

void pool_log_begin(pool_log *log, uint64_t start)
{
    atomic_store_explicit(&log->since, start, memory_order_relaxed);
}

/* Logs the sleep in the ring, then clears `since` (a reader that sees both
 * keeps one). */
void pool_log_end(pool_log *log, uint64_t start, uint64_t woken, uint64_t end)
{
    unsigned h = atomic_load_explicit(&log->head, memory_order_relaxed);
    atomic_store_explicit(&log->writing, h + 1u, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&log->slept[h % POOL_SLEEP_LOG][0], start, memory_order_relaxed);
    atomic_store_explicit(&log->slept[h % POOL_SLEEP_LOG][1], end, memory_order_relaxed);
    atomic_store_explicit(&log->slept[h % POOL_SLEEP_LOG][2], woken, memory_order_relaxed);
    atomic_store_explicit(&log->head, h + 1u, memory_order_release);
    atomic_store_explicit(&log->since, 0, memory_order_release);
}

static uint64_t within(uint64_t v, uint64_t lo, uint64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* s clipped to [from, to]; false where it lies outside. */
static bool clip(ecs_pool_sleep *s, uint64_t from, uint64_t to)
{
    if (s->end_ns < from || s->start_ns > to) return false;
    s->start_ns = within(s->start_ns, from, to);
    s->end_ns = within(s->end_ns, from, to);
    s->woken_ns = within(s->woken_ns, s->start_ns, s->end_ns);
    return true;
}

uint32_t pool_log_read(pool_log *log, uint64_t from, uint64_t to, ecs_pool_sleep *out,
                       uint32_t cap, uint32_t *lost)
{
    uint64_t since = atomic_load_explicit(&log->since, memory_order_acquire);
    unsigned head = atomic_load_explicit(&log->head, memory_order_acquire);
    unsigned first = head > POOL_SLEEP_LOG ? head - POOL_SLEEP_LOG : 0u;
    uint64_t got[POOL_SLEEP_LOG][3];
    for (unsigned i = first; i < head; i++)
        for (int k = 0; k < 3; k++)
            got[i - first][k] = atomic_load_explicit(&log->slept[i % POOL_SLEEP_LOG][k],
                                                     memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    unsigned writing = atomic_load_explicit(&log->writing, memory_order_relaxed);
    /* Slot of record i is rewritten by record i + POOL_SLEEP_LOG. */
    unsigned valid = writing > POOL_SLEEP_LOG ? writing - POOL_SLEEP_LOG : 0u;
    uint32_t n = 0, dropped = 0;
    bool since_logged = false;
    for (unsigned i = first; i < head; i++) {
        ecs_pool_sleep sl = {got[i - first][0], got[i - first][1], got[i - first][2]};
        if (i < valid) {
            dropped++;
            continue;
        }
        if (sl.start_ns == since) since_logged = true;
        if (!clip(&sl, from, to)) continue;
        if (n < cap) out[n++] = sl;
        else dropped++;
    }
    ecs_pool_sleep now = {since, to, to};
    if (since != 0 && !since_logged && clip(&now, from, to)) {
        if (n < cap) out[n++] = now;
        else dropped++;
    }
    if (lost) *lost = dropped;
    return n;
}
