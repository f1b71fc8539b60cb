/* window_rate.c - the fixed simulation rate's accumulator (window_rate.h). */
#include "window_rate.h"

#include <assert.h>

#define SECOND_NS 1000000000u

void window_rate_start(window_rate *r, uint32_t per_s, uint64_t now_ns)
{
    assert(per_s == 0u || (per_s >= WINDOW_RATE_MIN && per_s <= WINDOW_RATE_MAX));
    r->period_ns = per_s ? (SECOND_NS + per_s / 2u) / per_s : 0u;
    r->owed_ns = r->period_ns; /* the first frame shows a step */
    r->last_ns = now_ns;
}

uint32_t window_rate_cap(const window_rate *r)
{
    if (!r->period_ns) return 1u;
    uint64_t cap = WINDOW_RATE_CATCH_UP_NS / r->period_ns;
    return cap ? (uint32_t)cap : 1u;
}

uint32_t window_rate_due(window_rate *r, uint64_t now_ns, uint64_t *dropped)
{
    *dropped = 0;
    if (!r->period_ns) return 1u;
    if (now_ns > r->last_ns) r->owed_ns += now_ns - r->last_ns;
    r->last_ns = now_ns;
    uint64_t due = r->owed_ns / r->period_ns, cap = window_rate_cap(r);
    r->owed_ns -= due * r->period_ns;
    if (due > cap) {
        *dropped = due - cap;
        due = cap;
    }
    return (uint32_t)due;
}

void window_rate_hold(window_rate *r, uint64_t now_ns)
{
    r->last_ns = now_ns;
    if (r->owed_ns > r->period_ns) r->owed_ns = r->period_ns; /* never: due leaves less */
}

bool window_rate_change(window_rate *r, bool faster)
{
    if (!r->period_ns) return false;
    uint64_t p = faster ? r->period_ns / 2u : r->period_ns * 2u;
    if (p < SECOND_NS / WINDOW_RATE_MAX || p > SECOND_NS / WINDOW_RATE_MIN) return false;
    r->period_ns = p;
    if (r->owed_ns >= p) r->owed_ns = p - 1u;
    return true;
}

double window_rate_per_s(const window_rate *r)
{
    return r->period_ns ? (double)SECOND_NS / (double)r->period_ns : 0.0;
}
