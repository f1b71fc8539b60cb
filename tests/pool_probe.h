/* pool_probe.h - what tests observe of a pool's threads from outside its
 * logic: their sleep logs (ecs_pool_sleeps, the record the timeline
 * shows) and the kernel's view of the workers, which the pool names
 * "ecs worker K" (/proc/self/task/TID/comm and stat). The kernel probe
 * assumes one pool's workers in the process at a time. */
#ifndef POOL_PROBE_H
#define POOL_PROBE_H

#include <dirent.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pool.h"

/* How many of the workers [from, to) the kernel has blocked now (state S
 * or D: waiting, using no processor). */
static inline uint32_t probe_blocked_workers(uint32_t from, uint32_t to)
{
    uint32_t n = 0;
    DIR *d = opendir("/proc/self/task");
    if (!d) return 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char path[300], line[256];
        unsigned k;
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        bool named = fgets(line, sizeof line, f) && sscanf(line, "ecs worker %u", &k) == 1;
        fclose(f);
        if (!named || k < from || k >= to) continue;
        snprintf(path, sizeof path, "/proc/self/task/%s/stat", e->d_name);
        if (!(f = fopen(path, "r"))) continue;
        size_t got = fread(line, 1, sizeof line - 1, f);
        fclose(f);
        line[got] = '\0';
        const char *state = strrchr(line, ')'); /* the name may hold spaces */
        n += state && (state[2] == 'S' || state[2] == 'D');
    }
    closedir(d);
    return n;
}

/* Until the kernel has blocked every worker in [from, to): a worker that
 * busy-waits never gets there, and the ctest timeout fails the test. */
static inline void probe_wait_blocked_workers(uint32_t from, uint32_t to)
{
    while (probe_blocked_workers(from, to) < to - from) sched_yield();
}

/* Read up to the end of time, the log shows a sleep going on (last, after
 * those over) as ending there. */
#define PROBE_FOREVER UINT64_MAX

/* Whether worker t (>= 1) sleeps now: its log shows a sleep going on (it
 * has looked for work one last time, and only a wake-up moves it on) and
 * the kernel has it blocked (a worker claimed by a waker but not yet
 * running still shows the sleep in its log; the kernel has made it
 * runnable by the time the waker's call returns). */
static inline bool probe_asleep(ecs_pool *pool, uint32_t t)
{
    ecs_pool_sleep s[POOL_SLEEP_LOG + 1];
    uint32_t lost;
    uint32_t n = ecs_pool_sleeps(pool, t, ecs__now_ns(), PROBE_FOREVER, s, POOL_SLEEP_LOG + 1, &lost);
    return n >= 1 && s[n - 1].end_ns == PROBE_FOREVER && probe_blocked_workers(t, t + 1) == 1;
}

/* Until threads [from, to) all sleep (the ctest timeout bounds it). */
static inline void probe_wait_asleep(ecs_pool *pool, uint32_t from, uint32_t to)
{
    for (uint32_t t = from; t < to; t++)
        while (!probe_asleep(pool, t)) sched_yield();
}

/* Whether thread t, asleep at `since`, has woken since: the sleep going on
 * then has ended (a thread logs the end of a sleep once woken, before it
 * looks for work). */
static inline bool probe_woke(ecs_pool *pool, uint32_t t, uint64_t since)
{
    ecs_pool_sleep s;
    uint32_t lost;
    return ecs_pool_sleeps(pool, t, since, PROBE_FOREVER, &s, 1, &lost) == 1 &&
           s.end_ns != PROBE_FOREVER;
}

/* How many of threads [from, to), asleep at `since`, have woken since. */
static inline uint32_t probe_woken(ecs_pool *pool, uint32_t from, uint32_t to, uint64_t since)
{
    uint32_t n = 0;
    for (uint32_t t = from; t < to; t++) n += probe_woke(pool, t, since);
    return n;
}

#endif
