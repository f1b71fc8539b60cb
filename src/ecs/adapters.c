/* adapters.c - which systems a step runs: enabling and disabling systems
 * between steps, and steps of a chosen few (ecs.h, "Which systems run").
 * The scheduler (schedule.c) leaves out of a step every system that does
 * not run and releases its dependents as it would on its completion. */
#include "ecs_internal.h"

ecs_status ecs_system_enable(ecs_context *ctx, uint32_t system, bool on)
{
    ecs_status st = ecs__check_between_steps(ctx, "ecs_system_enable");
    if (st != ECS_OK) return st;
    if (!ecs__system_arg(ctx, system, "ecs_system_enable")) return ECS_ERR_MISUSE;
    ctx->systems[system].enabled = on;
    return ECS_OK;
}

bool ecs_system_enabled(const ecs_context *ctx, uint32_t system)
{
    const ecs_sys *sys = ecs__system_arg(ctx, system, "ecs_system_enabled");
    return sys && sys->enabled;
}

/* Marks the listed systems chosen, then (with_dependents) every system
 * after a chosen one along the order (dependencies come first). */
static ecs_status choose(ecs_context *ctx, ecs_ids systems, bool with_dependents)
{
    if (!systems.ids && systems.count) return ECS_ERR_INVALID;
    for (uint32_t k = 0; k < systems.count; k++)
        if (!ecs__system_arg(ctx, systems.ids[k], "ecs_step_systems")) return ECS_ERR_MISUSE;
    for (uint32_t s = 0; s < ctx->system_count; s++) ctx->systems[s].chosen = false;
    for (uint32_t k = 0; k < systems.count; k++) {
        ecs_sys *sys = &ctx->systems[systems.ids[k]];
        if (sys->chosen) return ECS_ERR_INVALID; /* listed twice */
        sys->chosen = true;
    }
    for (uint32_t k = 0; with_dependents && k < ctx->system_count; k++) {
        ecs_sys *sys = &ctx->systems[ctx->order[k]];
        for (uint32_t i = 0; i < sys->def.after.count && !sys->chosen; i++)
            sys->chosen = ctx->systems[sys->def.after.ids[i]].chosen;
    }
    return ECS_OK;
}

ecs_status ecs_step_systems(ecs_context *ctx, ecs_ids systems, bool with_dependents,
                            ecs_step_fn fn, void *user)
{
    ecs_status st = ecs__check_between_steps(ctx, "ecs_step_systems");
    if (st != ECS_OK) return st;
    if (ctx->stepping) return ecs__misuse(ctx, "ecs_step_systems called from a step callback");
    st = choose(ctx, systems, with_dependents);
    if (st != ECS_OK) return st;
    ctx->subset = true; /* until the step ends */
    return ecs__step(ctx, fn, user);
}
