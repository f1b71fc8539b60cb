/* iter.c - what a process callback may do: read and write its declared
 * columns, walk its range, push outputs, record deferred changes. Each
 * subtask writes only its own scratch, so none of this needs a lock. */
#include "ecs_internal.h"

#include "alloc.h"

#include <assert.h>
#include <string.h>

/* The column if mask (of a system) holds component; else a misuse. */
static unsigned char *declared(const ecs_iter *it, uint64_t mask, uint32_t component,
                               const char *what)
{
    if (__builtin_expect(component < it->ctx->component_count && (mask >> component & 1), 1))
        return it->ctx->columns[component];
    const ecs_sys *sys = it->sub_->sys;
    ecs__misuse(it->ctx, "system '%s' asked to %s component %u, which it does not declare%s",
                sys->def.name ? sys->def.name : "(unnamed)", what, (unsigned)component,
                component < it->ctx->component_count ? "" : " (no such component)");
    return NULL;
}

const void *ecs_iter_read(const ecs_iter *it, uint32_t component)
{
    return declared(it, it->sub_->sys->required, component, "read");
}

void *ecs_iter_write(const ecs_iter *it, uint32_t component)
{
    return declared(it, it->sub_->sys->write_mask, component, "write");
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

const uint64_t *ecs_iter_bits(const ecs_iter *it, uint32_t *lo, uint32_t *hi)
{
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
    assert(size > 0 && "system declared no output_size");
    assert(n > 0);
    size_t cap = st->out_cap;
    if (ecs_reserve((void **)&st->out, &st->out_cap, st->out_count + n, size) != 0) {
        st->failed++;
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
                    sys->def.name ? sys->def.name : "(unnamed)", (unsigned)batches_of(sys));
        return NULL;
    }
    uint32_t pass = batch / sys->subtask_count;
    const ecs_subtask_ *st = &sys->subtasks[batch % sys->subtask_count];
    size_t end = pass + 1u < sys->passes ? st->marks[pass + 1u].out : st->out_count;
    size_t begin = st->marks[pass].out;
    *count = (uint32_t)(end - begin);
    return st->out ? st->out + begin * sys->def.output_size : NULL;
}

uint32_t ecs_output_subtasks(const ecs_context *ctx, uint32_t system)
{
    assert(system < ctx->system_count);
    return ctx->systems[system].subtask_count;
}

uint32_t ecs_output_batches(const ecs_context *ctx, uint32_t system)
{
    assert(system < ctx->system_count);
    return batches_of(&ctx->systems[system]);
}

const void *ecs_output(const ecs_context *ctx, uint32_t system, uint32_t batch, uint32_t *count)
{
    assert(system < ctx->system_count);
    return batch_of((ecs_context *)ctx, &ctx->systems[system], batch, count);
}

/* The system if this one depends on it (directly or not); else a misuse. */
static const ecs_sys *dependency(const ecs_iter *it, uint32_t system)
{
    ecs_context *ctx = it->ctx;
    if (system < ctx->system_count && ctx->reach[(size_t)system * ctx->system_count + it->system])
        return &ctx->systems[system];
    ecs__misuse(ctx, "system '%s' read the outputs of system %u, which it does not depend on",
                it->sub_->sys->def.name ? it->sub_->sys->def.name : "(unnamed)",
                (unsigned)system);
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
    *count = 0;
    const ecs_sys *dep = dependency(it, system);
    return dep ? batch_of(it->ctx, dep, batch, count) : NULL;
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
    if (component >= it->ctx->component_count) {
        ecs__misuse(it->ctx, "ecs_iter_defer_add of unknown component %u", (unsigned)component);
        return;
    }
    size_t size = value ? it->ctx->components[component].size : 0;
    ecs_cmd *cmd = record(it, ECS_CMD_ADD, value, size);
    if (!cmd) return;
    cmd->entity = e;
    cmd->component = component;
}

void ecs_iter_defer_remove(ecs_iter *it, ecs_entity e, uint32_t component)
{
    if (component >= it->ctx->component_count) {
        ecs__misuse(it->ctx, "ecs_iter_defer_remove of unknown component %u", (unsigned)component);
        return;
    }
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
