/* app_clock.h - the monotonic clock both modes time with. */
#ifndef APP_CLOCK_H
#define APP_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Nanoseconds of CLOCK_MONOTONIC: for intervals only. */
static inline uint64_t app_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif /* APP_CLOCK_H */
