/* claim.h - the simulation's one way to balance a system's subtasks at
 * run time: work items (numbered 0, 1, ...) dealt to the subtasks before
 * they run, one claim [front, back) of items each, which the owning
 * subtask takes from the front and subtasks that ran out of their own
 * take from the back, each item exactly once, without locks. Private to
 * src/sim; collision's bands are its only items today.
 *
 * One atomic word holds a claim: taking an item is one compare-and-swap
 * that moves an end by one. Relaxed order is enough: the word only
 * decides who takes an item; what a taker writes for it is published by
 * whatever ends the work (the ecs's system barrier here). Each claim sits
 * on a cache line of its own, so an owner's takes stay in its core until
 * another subtask arrives at the back. */
#ifndef SIM_CLAIM_H
#define SIM_CLAIM_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct sim_claim {
    alignas(64) _Atomic uint64_t ends; /* back << 32 | front */
} sim_claim;

/* Deals items [lo, hi) (lo <= hi) to the claim; nothing may take from it
 * concurrently. */
static inline void sim_claim_set(sim_claim *c, uint32_t lo, uint32_t hi)
{
    atomic_store_explicit(&c->ends, (uint64_t)hi << 32 | lo, memory_order_relaxed);
}

/* The front item into *item; false once the claim is empty. */
static inline bool sim_claim_front(sim_claim *c, uint32_t *item)
{
    uint64_t r = atomic_load_explicit(&c->ends, memory_order_relaxed);
    for (;;) {
        uint32_t front = (uint32_t)r, back = (uint32_t)(r >> 32);
        if (front >= back) return false;
        if (atomic_compare_exchange_weak_explicit(&c->ends, &r, r + 1u, memory_order_relaxed,
                                                  memory_order_relaxed)) {
            *item = front;
            return true;
        }
    }
}

/* The back item into *item; false once the claim is empty. */
static inline bool sim_claim_back(sim_claim *c, uint32_t *item)
{
    uint64_t r = atomic_load_explicit(&c->ends, memory_order_relaxed);
    for (;;) {
        uint32_t front = (uint32_t)r, back = (uint32_t)(r >> 32);
        if (front >= back) return false;
        if (atomic_compare_exchange_weak_explicit(&c->ends, &r, r - (UINT64_C(1) << 32),
                                                  memory_order_relaxed, memory_order_relaxed)) {
            *item = back - 1u;
            return true;
        }
    }
}

/* The next item for subtask k of n, which owns claims[k]: its own front
 * while it lasts, then the back of the others, the nearest below first
 * (k - 1, k - 2, ..., wrapping), each drained before the next. False once
 * every claim is empty; an empty claim never refills during the work. */
static inline bool sim_claim_next(sim_claim *claims, uint32_t k, uint32_t n, uint32_t *item)
{
    if (sim_claim_front(&claims[k], item)) return true;
    for (uint32_t v = 1; v < n; v++)
        if (sim_claim_back(&claims[(k + n - v) % n], item)) return true;
    return false;
}

#endif /* SIM_CLAIM_H */
