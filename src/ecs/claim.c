/* claim.c - claims: work items dealt to a system's subtasks by its
 * prepare callback and taken by them without locks (ecs.h, "Claims").
 *
 * One atomic word per subtask holds its claim, end << 32 | front: taking
 * an item is one compare-and-swap that moves one end by one, the front by
 * the owner, the end by a subtask that ran out of its own. Relaxed order
 * is enough: the word only decides who takes an item; what the taker
 * writes for it is published by what ends the pass (the system's
 * barrier: its last subtask's release, the finish and the dependents'
 * acquire). The words were set before the pass's subtasks were queued,
 * and queueing publishes them. Each word sits on a cache line of its own
 * (ecs_subtask_), so an owner's takes stay in its core until another
 * subtask arrives at the end. */
#include "ecs_internal.h"

#include <stdatomic.h>

static inline uint64_t claim_word(uint32_t first, uint32_t end)
{
    return (uint64_t)end << 32 | first;
}

void ecs__claims_clear(ecs_sys *sys)
{
    sys->dealt = false;
    for (uint32_t k = 0; k < sys->subtask_count; k++) {
        sys->subtasks[k].dealt = 0;
        atomic_store_explicit(&sys->subtasks[k].claim, 0, memory_order_relaxed);
    }
}

void ecs__claims_restore(ecs_sys *sys)
{
    for (uint32_t k = 0; k < sys->subtask_count; k++)
        atomic_store_explicit(&sys->subtasks[k].claim, sys->subtasks[k].dealt,
                              memory_order_relaxed);
}

ecs_status ecs_claim_deal(ecs_context *ctx, uint32_t system, uint32_t subtask, uint32_t first,
                          uint32_t end)
{
    ecs_sys *sys = (ecs_sys *)ecs__system_arg(ctx, system, "ecs_claim_deal");
    if (!sys) return ECS_ERR_MISUSE;
    if (ecs__caller.sys != sys || !ecs__caller.preparing)
        return ecs__misuse(ctx, "ecs_claim_deal: called outside the prepare callback of system %s",
                           sys->def.name);
    if (subtask >= sys->subtask_count)
        return ecs__misuse(ctx, "ecs_claim_deal: subtask %u of system %s does not exist (%u run)",
                           (unsigned)subtask, sys->def.name, (unsigned)sys->subtask_count);
    if (first > end)
        return ecs__misuse(ctx, "ecs_claim_deal: first %u is past end %u (system %s)",
                           (unsigned)first, (unsigned)end, sys->def.name);
    sys->subtasks[subtask].dealt = claim_word(first, end);
    sys->dealt = true;
    return ECS_OK;
}

/* A claim's front item (or, with back, its last) into *item; false once
 * the claim is empty. */
static inline bool take(_Atomic uint64_t *c, bool back, uint32_t *item)
{
    uint64_t w = atomic_load_explicit(c, memory_order_relaxed);
    for (;;) {
        uint32_t front = (uint32_t)w, end = (uint32_t)(w >> 32);
        if (front >= end) return false;
        uint64_t next = back ? w - (UINT64_C(1) << 32) : w + 1u;
        if (atomic_compare_exchange_weak_explicit(c, &w, next, memory_order_relaxed,
                                                  memory_order_relaxed)) {
            *item = back ? end - 1u : front;
            return true;
        }
    }
}

bool ecs_iter_claim(ecs_iter *it, uint32_t *item)
{
    if (!ecs__out_arg(it->ctx, item, "ecs_iter_claim", "item")) return false;
    ecs_subtask_ *own = it->sub_, *subtasks = own->sys->subtasks;
    if (take(&own->claim, false, item)) {
        own->kept++;
        return true;
    }
    uint32_t k = it->subtask, n = it->subtask_count;
    for (uint32_t v = 1; v < n; v++) /* an empty claim never refills during the pass */
        if (take(&subtasks[(k + n - v) % n].claim, true, item)) {
            own->taken++;
            return true;
        }
    return false;
}
