/* claim.h - a range of work items shared out without locks: its owner
 * claims items from the front, threads that ran out of work claim them
 * from the back, each item exactly once. Private to src/sim.
 *
 * One atomic word holds the range [front, back): a claim is one
 * compare-and-swap that moves an end by one item. Relaxed order is
 * enough: the word only decides who takes an item; what a claimer writes
 * for it is published by whatever ends the work (the ecs's system
 * barrier here). Each range sits on a cache line of its own, so an
 * owner's claims stay in its core until a thief arrives at the end. */
#ifndef SIM_CLAIM_H
#define SIM_CLAIM_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct sim_claim {
    alignas(64) _Atomic uint64_t range; /* back << 32 | front */
} sim_claim;

/* Sets the range to [lo, hi) (lo <= hi); no claim may run concurrently. */
static inline void sim_claim_set(sim_claim *c, uint32_t lo, uint32_t hi)
{
    atomic_store_explicit(&c->range, (uint64_t)hi << 32 | lo, memory_order_relaxed);
}

/* The front item into *item; false once the range is empty. */
static inline bool sim_claim_front(sim_claim *c, uint32_t *item)
{
    uint64_t r = atomic_load_explicit(&c->range, memory_order_relaxed);
    for (;;) {
        uint32_t front = (uint32_t)r, back = (uint32_t)(r >> 32);
        if (front >= back) return false;
        if (atomic_compare_exchange_weak_explicit(&c->range, &r, r + 1u, memory_order_relaxed,
                                                  memory_order_relaxed)) {
            *item = front;
            return true;
        }
    }
}

/* The back item into *item; false once the range is empty. */
static inline bool sim_claim_back(sim_claim *c, uint32_t *item)
{
    uint64_t r = atomic_load_explicit(&c->range, memory_order_relaxed);
    for (;;) {
        uint32_t front = (uint32_t)r, back = (uint32_t)(r >> 32);
        if (front >= back) return false;
        if (atomic_compare_exchange_weak_explicit(&c->range, &r, r - (UINT64_C(1) << 32),
                                                  memory_order_relaxed, memory_order_relaxed)) {
            *item = back - 1u;
            return true;
        }
    }
}

/* The next item for the owner of ranges[k] of n: its own front while it
 * lasts, then the back of the others, the nearest range below first
 * (k - 1, k - 2, ..., wrapping), each drained before the next. False once
 * every range is empty; an empty range never refills during the work. */
static inline bool sim_claim_next(sim_claim *ranges, uint32_t k, uint32_t n, uint32_t *item)
{
    if (sim_claim_front(&ranges[k], item)) return true;
    for (uint32_t v = 1; v < n; v++)
        if (sim_claim_back(&ranges[(k + n - v) % n], item)) return true;
    return false;
}

#endif /* SIM_CLAIM_H */
