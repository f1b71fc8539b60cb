/* iter.c - what a process callback may do: read and write its declared
 * columns, walk its range, push outputs, record deferred changes. Each
 * subtask writes only its own scratch, so none of this needs a lock. */
#include "ecs_internal.h"

#include "alloc.h"

#include <stdint.h>
#include <string.h>

/* A misuse that names the system and the component it may not reach. */
static void undeclared(const ecs_iter *it, uint32_t component, const char *what)
{
    ecs_context *ctx = it->ctx;
    const ecs_sys *sys = it->sub_->sys;
    if (component >= ctx->component_count)
        ecs__misuse(ctx, "system '%s' asked to %s component %u, which does not exist (%u declared)",
                    ecs__sys_name(sys), what, (unsigned)component,
                    (unsigned)ctx->component_count);
    else
        ecs__misuse(ctx, "system '%s' asked to %s component '%s', which it %s",
                    ecs__sys_name(sys), what, ecs__comp_name(ctx, component),
                    sys->read_mask >> component & 1 ? "only reads" : "does not declare");
}

static bool is_declared(const ecs_iter *it, uint64_t mask, uint32_t component, const char *what)
{
    if (__builtin_expect(component < it->ctx->component_count && (mask >> component & 1), 1))
        return true;
    undeclared(it, component, what);
    return false;
}

/* The column if mask (of a system) holds component; else a misuse. */
static unsigned char *declared(const ecs_iter *it, uint64_t mask, uint32_t component,
                               const char *what)
{
    return is_declared(it, mask, component, what) ? it->ctx->columns[component] : NULL;
}

const void *ecs_iter_read(const ecs_iter *it, uint32_t component)
{
    return declared(it, it->sub_->sys->required, component, "read");
}

void *ecs_iter_write(const ecs_iter *it, uint32_t component)
{
    return declared(it, it->sub_->sys->write_mask, component, "write");
}

size_t ecs_iter_stride(const ecs_iter *it, uint32_t component)
{
    return is_declared(it, it->sub_->sys->required, component, "read")
               ? it->ctx->strides[component]
               : 0u;
}

/* One entity's value once the declaration allows it: reads of the
 * masks and the storage only, which change at refresh alone. */
static void *entity_value(const ecs_iter *it, uint64_t mask, uint32_t component, uint32_t index,
                          const char *what)
{
    const ecs_context *ctx = it->ctx;
    if (!is_declared(it, mask, component, what)) return NULL;
    /* A reclaimed index keeps its mask (nothing reads it until reuse):
     * its state tells it from a holder. DYING stays readable, as its
     * subscriptions do, until the refresh reclaims it. */
    if (index >= ctx->high ||
        (ctx->states[index] != ECS_SLOT_ALIVE && ctx->states[index] != ECS_SLOT_DYING) ||
        !(ctx->masks[index] >> component & 1) || ctx->components[component].size == 0)
        return NULL;
    return ecs__slot(ctx, index, component);
}

void *ecs_iter_write_at(const ecs_iter *it, uint32_t component, uint32_t index)
{
    return entity_value(it, it->sub_->sys->write_mask, component, index, "write");
}

const void *ecs_iter_read_at(const ecs_iter *it, uint32_t component, uint32_t index)
{
    return entity_value(it, it->sub_->sys->required, component, index, "read");
}

bool ecs_iter_next_run(ecs_iter *it, uint32_t *first, uint32_t *count)
{
    if (!ecs__out_arg(it->ctx, first, "ecs_iter_next_run", "first") ||
        !ecs__out_arg(it->ctx, count, "ecs_iter_next_run", "count"))
        return false;
    uint32_t p = it->run_cursor_;
    if (p >= it->count) return false;
    *first = it->entities[p];
    *count = ecs_run_length(it->entities + p, it->count - p);
    it->run_cursor_ = p + *count;
    return true;
}

const uint64_t *ecs_iter_bits(const ecs_iter *it, uint32_t *lo, uint32_t *hi)
{
    if (!ecs__out_arg(it->ctx, lo, "ecs_iter_bits", "lo") ||
        !ecs__out_arg(it->ctx, hi, "ecs_iter_bits", "hi"))
        return NULL;
    *lo = it->count ? it->entities[0] : 0u;
    *hi = it->count ? it->entities[it->count - 1u] + 1u : 0u;
    return it->sub_->sys->subs->bits;
}

ecs_entity ecs_iter_handle(const ecs_iter *it, uint32_t index)
{
    return ecs_handle(it->ctx, index);
}

void *ecs_iter_output_push(ecs_iter *it, uint32_t n)
{
    ecs_subtask_ *st = it->sub_;
    size_t size = st->sys->def.output_size;
    if (__builtin_expect(size == 0 || n == 0, 0)) {
        if (size == 0)
            ecs__misuse(it->ctx, "system '%s' pushed an output but declares no output_size",
                        ecs__sys_name(st->sys));
        else
            ecs__misuse(it->ctx, "system '%s' pushed 0 outputs (at least 1 per push)",
                        ecs__sys_name(st->sys));
        return NULL;
    }
    size_t cap = st->out_cap;
    if (ecs_reserve((void **)&st->out, &st->out_cap, st->out_count + n, size) != 0) {
        ecs__subtask_fail(st, ECS_ERR_NOMEM);
        return NULL;
    }
    if (st->out_cap != cap) /* a new block: what this push writes, at once */
        ecs__prefault(st->out + st->out_count * size, (size_t)n * size);
    void *at = st->out + st->out_count * size;
    st->out_count += n;
    return at;
}

const void *ecs_iter_output(const ecs_iter *it, uint32_t *count)
{
    if (!ecs__out_arg(it->ctx, count, "ecs_iter_output", "count")) return NULL;
    const ecs_subtask_ *st = it->sub_;
    *count = (uint32_t)st->out_count;
    return st->out;
}

static uint32_t batches_of(const ecs_sys *sys) { return sys->passes * sys->subtask_count; }

/* Batch b: what subtask b % S pushed in pass b / S. */
static const void *batch_of(ecs_context *ctx, const ecs_sys *sys, uint32_t batch,
                            uint32_t *count)
{
    *count = 0;
    if (batch >= batches_of(sys)) {
        ecs__misuse(ctx, "output batch %u of system '%s' asked for; it has %u", (unsigned)batch,
                    ecs__sys_name(sys), (unsigned)batches_of(sys));
        return NULL;
    }
    uint32_t pass = batch / sys->subtask_count;
    const ecs_subtask_ *st = &sys->subtasks[batch % sys->subtask_count];
    size_t end = pass + 1u < sys->passes ? st->marks[pass + 1u].out : st->out_count;
    size_t begin = st->marks[pass].out;
    *count = (uint32_t)(end - begin);
    return st->out ? st->out + begin * sys->def.output_size : NULL;
}

uint32_t ecs_system_subtasks(const ecs_context *ctx, uint32_t system)
{
    const ecs_sys *sys = ecs__system_arg(ctx, system, "ecs_system_subtasks");
    return sys ? sys->subtask_count : 0u;
}

uint32_t ecs_output_batches(const ecs_context *ctx, uint32_t system)
{
    const ecs_sys *sys = ecs__system_arg(ctx, system, "ecs_output_batches");
    return sys ? batches_of(sys) : 0u;
}

/* Whether the outputs of sys are complete and stay still while the
 * caller reads them: always outside the system phase; in it, only for
 * the callbacks of a system that depends on sys, and for sys's own
 * finish callback (every subtask of its pass is done). */
static bool outputs_settled(const ecs_context *ctx, const ecs_sys *sys)
{
    if (!ctx->in_systems) return true;
    const ecs_sys *caller = ecs__caller.sys;
    if (!caller || caller->ctx != ctx) return false;
    if (caller == sys) return ecs__caller.finishing;
    return ecs__runs_before(ctx, sys->id, caller->id);
}

const void *ecs_output(const ecs_context *ctx, uint32_t system, uint32_t batch, uint32_t *count)
{
    if (!ecs__out_arg(ctx, count, "ecs_output", "count")) return NULL;
    *count = 0;
    const ecs_sys *sys = ecs__system_arg(ctx, system, "ecs_output");
    if (!sys) return NULL;
    if (__builtin_expect(!outputs_settled(ctx, sys), 0)) {
        const ecs_sys *caller = ecs__caller.sys;
        if (caller == sys)
            ecs__misuse((ecs_context *)ctx,
                        "system '%s' read its own outputs with ecs_output from process "
                        "(use ecs_iter_output, or ecs_output in finish)",
                        ecs__sys_name(sys));
        else if (caller && caller->ctx == ctx)
            ecs__misuse((ecs_context *)ctx,
                        "system '%s' read the outputs of system '%s' with ecs_output while "
                        "systems run, and it does not depend on it",
                        ecs__sys_name(caller), ecs__sys_name(sys));
        else
            ecs__misuse((ecs_context *)ctx,
                        "ecs_output of system '%s' called while systems run, outside its "
                        "dependents' callbacks",
                        ecs__sys_name(sys));
        return NULL;
    }
    return batch_of((ecs_context *)ctx, sys, batch, count);
}

/* The system if this one depends on it (directly or not); else a misuse. */
static const ecs_sys *dependency(const ecs_iter *it, uint32_t system)
{
    ecs_context *ctx = it->ctx;
    if (system < ctx->system_count && ecs__runs_before(ctx, system, it->system))
        return &ctx->systems[system];
    const char *me = ecs__sys_name(it->sub_->sys);
    if (system >= ctx->system_count)
        ecs__misuse(ctx,
                    "system '%s' read the outputs of system %u, which does not exist (%u declared)",
                    me, (unsigned)system, (unsigned)ctx->system_count);
    else
        ecs__misuse(ctx, "system '%s' read the outputs of system '%s', which it does not depend on",
                    me, ecs__sys_name(&ctx->systems[system]));
    return NULL;
}

uint32_t ecs_iter_dep_subtasks(const ecs_iter *it, uint32_t system)
{
    const ecs_sys *dep = dependency(it, system);
    return dep ? dep->subtask_count : 0;
}

uint32_t ecs_iter_dep_batches(const ecs_iter *it, uint32_t system)
{
    const ecs_sys *dep = dependency(it, system);
    return dep ? batches_of(dep) : 0;
}

const void *ecs_iter_dep_output(const ecs_iter *it, uint32_t system, uint32_t batch,
                                uint32_t *count)
{
    if (!ecs__out_arg(it->ctx, count, "ecs_iter_dep_output", "count")) return NULL;
    *count = 0;
    const ecs_sys *dep = dependency(it, system);
    return dep ? batch_of(it->ctx, dep, batch, count) : NULL;
}

void ecs_iter_kill(ecs_iter *it, ecs_entity e)
{
    ecs_subtask_ *st = it->sub_;
    if (ecs_reserve((void **)&st->kills, &st->kill_cap, st->kill_count + 1, sizeof(ecs_entity))) {
        ecs__subtask_fail(st, ECS_ERR_NOMEM);
        return;
    }
    st->kills[st->kill_count++] = e;
}

static const char *const cmd_names[] = {
    [ECS_CMD_CREATE] = "ecs_iter_defer_create",
    [ECS_CMD_ADD] = "ecs_iter_defer_add",
    [ECS_CMD_REMOVE] = "ecs_iter_defer_remove",
    [ECS_CMD_CALL] = "ecs_iter_defer_call",
};

/* Appends a command with room for its payload; NULL when out of memory
 * or when the payload is missing or too large (a misuse). */
static ecs_cmd *record(ecs_iter *it, uint32_t kind, const void *payload, size_t size)
{
    ecs_subtask_ *st = it->sub_;
    if (__builtin_expect(size && (!payload || size > SIZE_MAX / 2), 0)) {
        ecs__misuse(it->ctx, "system '%s' called %s with a size of %zu bytes and %s",
                    ecs__sys_name(st->sys), cmd_names[kind], size,
                    payload ? "no room to copy them" : "a NULL payload");
        return NULL;
    }
    size_t need = ecs__cmd_bytes(size);
    if (ecs_reserve((void **)&st->cmds, &st->cmd_cap, st->cmd_len + need, 1) != 0) {
        ecs__subtask_fail(st, ECS_ERR_NOMEM);
        return NULL;
    }
    ecs_cmd *cmd = (ecs_cmd *)(st->cmds + st->cmd_len);
    memset(cmd, 0, sizeof *cmd);
    cmd->kind = kind;
    cmd->size = size;
    if (size) memcpy(ecs__cmd_payload(cmd), payload, size);
    st->cmd_len += need;
    return cmd;
}

void ecs_iter_defer_create(ecs_iter *it, ecs_entity_fn init, const void *payload, size_t size)
{
    ecs_cmd *cmd = record(it, ECS_CMD_CREATE, payload, size);
    if (cmd) cmd->fn.init = init;
}

/* Whether the component exists; else a misuse naming the system. */
static bool known_component(const ecs_iter *it, uint32_t component, uint32_t kind)
{
    ecs_context *ctx = it->ctx;
    if (__builtin_expect(component < ctx->component_count, 1)) return true;
    ecs__misuse(ctx, "system '%s' called %s with component %u, which does not exist (%u declared)",
                ecs__sys_name(it->sub_->sys), cmd_names[kind], (unsigned)component,
                (unsigned)ctx->component_count);
    return false;
}

void ecs_iter_defer_add(ecs_iter *it, ecs_entity e, uint32_t component, const void *value)
{
    if (!known_component(it, component, ECS_CMD_ADD)) return;
    size_t size = value ? it->ctx->components[component].size : 0;
    ecs_cmd *cmd = record(it, ECS_CMD_ADD, value, size);
    if (!cmd) return;
    cmd->entity = e;
    cmd->component = component;
}

void ecs_iter_defer_remove(ecs_iter *it, ecs_entity e, uint32_t component)
{
    if (!known_component(it, component, ECS_CMD_REMOVE)) return;
    ecs_cmd *cmd = record(it, ECS_CMD_REMOVE, NULL, 0);
    if (!cmd) return;
    cmd->entity = e;
    cmd->component = component;
}

void ecs_iter_defer_call(ecs_iter *it, ecs_deferred_fn fn, const void *payload, size_t size)
{
    if (__builtin_expect(!fn, 0)) {
        ecs__misuse(it->ctx, "system '%s' called ecs_iter_defer_call without a function",
                    ecs__sys_name(it->sub_->sys));
        return;
    }
    ecs_cmd *cmd = record(it, ECS_CMD_CALL, payload, size);
    if (cmd) cmd->fn.call = fn;
}
