/* iter.c - what a process callback may do: read and write its declared
 * columns, walk its range, push outputs, record deferred changes. Each
 * subtask writes only its own scratch, so none of this needs a lock. */
#include "ecs_internal.h"

#include "alloc.h"

#include <assert.h>
#include <string.h>

const void *ecs_iter_read(const ecs_iter *it, uint32_t component)
{
    const ecs_sys *sys = it->sub_->sys;
    assert(component < it->ctx->component_count);
    assert((sys->required >> component & 1) && "system did not declare this component");
    (void)sys;
    return it->ctx->columns[component];
}

void *ecs_iter_write(const ecs_iter *it, uint32_t component)
{
    const ecs_sys *sys = it->sub_->sys;
    assert(component < it->ctx->component_count);
    assert((sys->write_mask >> component & 1) && "system did not declare this write");
    (void)sys;
    return it->ctx->columns[component];
}

/* entities is strictly ascending, so entities[q] - entities[p] >= q - p,
 * with equality exactly while the run from p is unbroken: gallop, then
 * binary search for the run's end. */
bool ecs_iter_next_run(ecs_iter *it, uint32_t *first, uint32_t *count)
{
    uint32_t p = it->run_cursor_;
    if (p >= it->count) return false;
    const uint32_t *e = it->entities;
    uint32_t base = e[p];
    uint32_t lo = p, step = 1; /* lo: last index known inside the run */
    while (lo + step < it->count && e[lo + step] - base == lo + step - p) {
        lo += step;
        step *= 2;
    }
    uint32_t hi = lo + step < it->count ? lo + step : it->count; /* first index known outside */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (e[mid] - base == mid - p) lo = mid;
        else hi = mid;
    }
    *first = base;
    *count = lo + 1 - p;
    it->run_cursor_ = lo + 1;
    return true;
}

ecs_entity ecs_iter_handle(const ecs_iter *it, uint32_t index)
{
    return ecs_handle(it->ctx, index);
}

void *ecs_iter_output_push(ecs_iter *it, uint32_t n)
{
    ecs_subtask_ *st = it->sub_;
    size_t size = st->sys->def.output_size;
    assert(size > 0 && "system declared no output_size");
    assert(n > 0);
    if (ecs_reserve((void **)&st->out, &st->out_cap, st->out_count + n, size) != 0) {
        st->failed++;
        return NULL;
    }
    void *at = st->out + st->out_count * size;
    st->out_count += n;
    return at;
}

static const void *output_of(const ecs_sys *sys, uint32_t subtask, uint32_t *count)
{
    assert(subtask < sys->subtask_count);
    *count = (uint32_t)sys->subtasks[subtask].out_count;
    return sys->subtasks[subtask].out;
}

const void *ecs_iter_output(const ecs_iter *it, uint32_t *count)
{
    return output_of(it->sub_->sys, it->subtask, count);
}

uint32_t ecs_output_subtasks(const ecs_context *ctx, uint32_t system)
{
    assert(system < ctx->system_count);
    return ctx->systems[system].subtask_count;
}

const void *ecs_output(const ecs_context *ctx, uint32_t system, uint32_t subtask, uint32_t *count)
{
    assert(system < ctx->system_count);
    return output_of(&ctx->systems[system], subtask, count);
}

static void assert_depends(const ecs_iter *it, uint32_t system)
{
    assert(system < it->ctx->system_count);
    assert(it->ctx->reach[(size_t)system * it->ctx->system_count + it->system] &&
           "a system may only read outputs of systems it depends on");
    (void)it;
    (void)system;
}

uint32_t ecs_iter_dep_subtasks(const ecs_iter *it, uint32_t system)
{
    assert_depends(it, system);
    return it->ctx->systems[system].subtask_count;
}

const void *ecs_iter_dep_output(const ecs_iter *it, uint32_t system, uint32_t subtask,
                                uint32_t *count)
{
    assert_depends(it, system);
    return output_of(&it->ctx->systems[system], subtask, count);
}

void ecs_iter_kill(ecs_iter *it, ecs_entity e)
{
    ecs_subtask_ *st = it->sub_;
    if (ecs_reserve((void **)&st->kills, &st->kill_cap, st->kill_count + 1, sizeof(ecs_entity))) {
        st->failed++;
        return;
    }
    st->kills[st->kill_count++] = e;
}

/* Appends a command with room for its payload; NULL when out of memory. */
static ecs_cmd *record(ecs_iter *it, uint32_t kind, const void *payload, size_t size)
{
    ecs_subtask_ *st = it->sub_;
    size_t need = ecs__cmd_bytes(size);
    if (ecs_reserve((void **)&st->cmds, &st->cmd_cap, st->cmd_len + need, 1) != 0) {
        st->failed++;
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

void ecs_iter_defer_add(ecs_iter *it, ecs_entity e, uint32_t component, const void *value)
{
    assert(component < it->ctx->component_count);
    size_t size = value ? it->ctx->components[component].size : 0;
    ecs_cmd *cmd = record(it, ECS_CMD_ADD, value, size);
    if (!cmd) return;
    cmd->entity = e;
    cmd->component = component;
}

void ecs_iter_defer_remove(ecs_iter *it, ecs_entity e, uint32_t component)
{
    assert(component < it->ctx->component_count);
    ecs_cmd *cmd = record(it, ECS_CMD_REMOVE, NULL, 0);
    if (!cmd) return;
    cmd->entity = e;
    cmd->component = component;
}

void ecs_iter_defer_call(ecs_iter *it, ecs_deferred_fn fn, const void *payload, size_t size)
{
    assert(fn);
    ecs_cmd *cmd = record(it, ECS_CMD_CALL, payload, size);
    if (cmd) cmd->fn.call = fn;
}
