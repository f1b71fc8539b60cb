/* failure.c - failing a step (ecs.h, "Failures"): who may, where each
 * failure is kept, and which one the step returns.
 *
 * A subtask keeps its first failure in a slot of its own, a system the
 * first of its prepare and finish callbacks in its own, the step callback's
 * in the context: each written by one thread at a time and read by
 * the owner once the system phase ended (the step's wait for its systems
 * publishes them), so no lock and no atomic. The order is fixed by ids
 * and passes, never by when a failure came. */
#include "ecs_internal.h"

/* Where work ran among a system's work of a step: its prepare first,
 * then pass p's subtasks in index order, then pass p's finish. */
static uint64_t at_subtask(uint32_t pass, uint32_t subtask)
{
    return (uint64_t)(2u * pass + 1u) << 32 | subtask;
}

static uint64_t at_finish(uint32_t pass) { return (uint64_t)(2u * pass + 2u) << 32; }

/* A status a callback may fail a step with: the ecs alone reports a misuse. */
static bool is_failure(ecs_status status) { return status > ECS_OK && status < ECS_ERR_MISUSE; }

void ecs__subtask_fail(ecs_subtask_ *st, ecs_status status)
{
    if (st->fail != ECS_OK) return;
    st->fail = status;
    st->fail_pass = st->sys->pass;
}

void ecs_iter_fail(ecs_iter *it, ecs_status status)
{
    if (__builtin_expect(is_failure(status), 1)) ecs__subtask_fail(it->sub_, status);
    else
        ecs__misuse(it->ctx, "system '%s' called ecs_iter_fail with %s, which is not a failure",
                    ecs__sys_name(it->sub_->sys), ecs_status_name(status));
}

ecs_status ecs_step_fail(ecs_context *ctx, ecs_status status)
{
    const ecs_caller c = ecs__caller;
    ecs_sys *sys = c.sys && c.sys->ctx == ctx ? &ctx->systems[c.sys->id] : NULL;
    if (sys && !c.preparing && !c.finishing)
        return ecs__misuse(ctx, "system '%s' called ecs_step_fail from process (use ecs_iter_fail)",
                           ecs__sys_name(sys));
    if (!sys && (!ctx->stepping || ctx->running || ctx->refreshing))
        return ecs__misuse(ctx, "ecs_step_fail called outside a step callback, a prepare and a "
                                "finish callback");
    if (!is_failure(status))
        return ecs__misuse(ctx, "ecs_step_fail called with %s, which is not a failure",
                           ecs_status_name(status));
    if (!sys) {
        if (ctx->failure.status == ECS_OK)
            ctx->failure = (ecs_failure){status, ECS_NONE, ECS_NONE};
    } else if (sys->fail == ECS_OK) {
        sys->fail = status;
        sys->fail_at = c.preparing ? 0u : at_finish(sys->pass);
    }
    return ECS_OK;
}

/* The first failure of a system's work in this step (ECS_OK: none). */
static ecs_failure system_failure(const ecs_sys *sys)
{
    ecs_failure f = {sys->fail, sys->id, ECS_NONE};
    uint64_t at = sys->fail_at;
    for (uint32_t i = 0; i < sys->subtask_count; i++) {
        const ecs_subtask_ *st = &sys->subtasks[i];
        uint64_t here = at_subtask(st->fail_pass, i);
        if (st->fail == ECS_OK || (f.status != ECS_OK && here > at)) continue;
        f = (ecs_failure){st->fail, sys->id, i};
        at = here;
    }
    return f;
}

ecs_status ecs__step_failure(ecs_context *ctx, bool ran, ecs_status own)
{
    ecs_failure *f = &ctx->failure;
    if (atomic_load_explicit(&ctx->misuse, memory_order_acquire) != 0)
        *f = (ecs_failure){ECS_ERR_MISUSE, ECS_NONE, ECS_NONE};
    for (uint32_t s = 0; ran && f->status == ECS_OK && s < ctx->system_count; s++)
        *f = system_failure(&ctx->systems[s]);
    if (f->status == ECS_OK) *f = (ecs_failure){own, ECS_NONE, ECS_NONE};
    return f->status;
}

ecs_failure ecs_step_failure(const ecs_context *ctx) { return ctx->failure; }
