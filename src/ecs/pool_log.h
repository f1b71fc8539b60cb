/* pool_log.h - each pool thread's log of its sleeps (ecs_pool_sleeps):
 * written by that thread alone, read by any thread while it is written.
 * Private to the pool. */
#ifndef ECS_POOL_LOG_H
#define ECS_POOL_LOG_H

#include "pool.h"

/* A ring of the last POOL_SLEEP_LOG sleeps: `writing` moves before a slot
 * is written and `head` after, so a reader can tell a slot that was
 * overwritten while it read (a sequence lock per slot). since: the start
 * of the sleep going on (0: none). */
typedef struct pool_log {
    _Alignas(64) atomic_uint writing, head;
    atomic_ullong since;
    atomic_ullong slept[POOL_SLEEP_LOG][3]; /* start, end, woken */
} pool_log;

void pool_log_init(pool_log *log);
/* A sleep begins at start (the clock of platform.h, never 0). */
void pool_log_begin(pool_log *log, uint64_t start);
/* The sleep that began at start was claimed at woken and ended at end. */
void pool_log_end(pool_log *log, uint64_t start, uint64_t woken, uint64_t end);
/* See ecs_pool_sleeps. */
uint32_t pool_log_read(pool_log *log, uint64_t from, uint64_t to, ecs_pool_sleep *out,
                       uint32_t cap, uint32_t *lost);

#endif
