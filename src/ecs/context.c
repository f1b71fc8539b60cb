/* context.c - building and destroying a context from its definition. */
#include "ecs_internal.h"

#include "alloc.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *ecs_status_name(ecs_status status)
{
    switch (status) {
    case ECS_OK: return "ECS_OK";
    case ECS_ERR_INVALID: return "ECS_ERR_INVALID";
    case ECS_ERR_UNKNOWN_COMPONENT: return "ECS_ERR_UNKNOWN_COMPONENT";
    case ECS_ERR_UNKNOWN_SYSTEM: return "ECS_ERR_UNKNOWN_SYSTEM";
    case ECS_ERR_READ_WRITE: return "ECS_ERR_READ_WRITE";
    case ECS_ERR_CYCLE: return "ECS_ERR_CYCLE";
    case ECS_ERR_CONFLICT: return "ECS_ERR_CONFLICT";
    case ECS_ERR_FULL: return "ECS_ERR_FULL";
    case ECS_ERR_DEAD: return "ECS_ERR_DEAD";
    case ECS_ERR_NOMEM: return "ECS_ERR_NOMEM";
    case ECS_ERR_THREAD: return "ECS_ERR_THREAD";
    case ECS_ERR_MISUSE: return "ECS_ERR_MISUSE";
    }
    return "ECS_ERR_UNKNOWN_STATUS";
}

ecs_status ecs__fail(ecs_error *err, ecs_status status, const char *fmt, ...)
{
    if (err) {
        err->status = status;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return status;
}

ecs_status ecs__misuse(ecs_context *ctx, const char *fmt, ...)
{
    atomic_fetch_add_explicit(&ctx->misuse_count, 1, memory_order_relaxed);
    unsigned none = 0;
    if (atomic_compare_exchange_strong_explicit(&ctx->misuse, &none, 1, memory_order_acquire,
                                                memory_order_relaxed)) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ctx->misuse_message, sizeof ctx->misuse_message, fmt, ap);
        va_end(ap);
        atomic_store_explicit(&ctx->misuse, 2, memory_order_release);
    }
    return ECS_ERR_MISUSE;
}

const ecs_sys *ecs__system_arg(const ecs_context *ctx, uint32_t system, const char *fn)
{
    if (__builtin_expect(system < ctx->system_count, 1)) return &ctx->systems[system];
    ecs__misuse((ecs_context *)ctx, "%s: system %u does not exist (%u declared)", fn,
                (unsigned)system, (unsigned)ctx->system_count);
    return NULL;
}

bool ecs__component_arg(const ecs_context *ctx, uint32_t component, const char *fn)
{
    if (__builtin_expect(component < ctx->component_count, 1)) return true;
    ecs__misuse((ecs_context *)ctx, "%s: component %u does not exist (%u declared)", fn,
                (unsigned)component, (unsigned)ctx->component_count);
    return false;
}

const char *ecs_misuse_message(const ecs_context *ctx)
{
    ecs_context *c = (ecs_context *)ctx; /* an atomic load only */
    return atomic_load_explicit(&c->misuse, memory_order_acquire) == 2 ? ctx->misuse_message : "";
}

ecs_config ecs_default_config(void)
{
    return (ecs_config){.storage = ECS_STORAGE_DYNAMIC, .capacity = ECS_DEFAULT_CAPACITY};
}

uint32_t ecs_cpu_count(void) { return ecs__cpu_count(); }

/* Copies a system's id lists into one owned block and derives its masks. */
static bool copy_system(ecs_sys *sys, const ecs_system_def *def)
{
    sys->def = *def;
    uint32_t n = def->reads.count + def->writes.count + def->after.count;
    sys->ids = ecs_alloc((n + 1) * sizeof(uint32_t), 0);
    if (!sys->ids) return false;
    uint32_t *at = sys->ids;
    ecs_ids *lists[3] = {&sys->def.reads, &sys->def.writes, &sys->def.after};
    for (int l = 0; l < 3; l++) {
        if (lists[l]->count) memcpy(at, lists[l]->ids, lists[l]->count * sizeof(uint32_t));
        lists[l]->ids = at;
        at += lists[l]->count;
    }
    for (uint32_t i = 0; i < sys->def.reads.count; i++)
        sys->read_mask |= UINT64_C(1) << sys->def.reads.ids[i];
    for (uint32_t i = 0; i < sys->def.writes.count; i++)
        sys->write_mask |= UINT64_C(1) << sys->def.writes.ids[i];
    sys->required = sys->read_mask | sys->write_mask;
    sys->passes = sys->def.passes ? sys->def.passes : 1u;
    return true;
}

/* Systems on the longest chain to a sink (the DAG's critical path, counted
 * in systems) go first: roots launch in that order, and a completing
 * system continues with its deepest dependent and queues the others, so
 * the long chain is not left waiting behind short ones. Depths are made
 * against the order validation found (dependents first, walking it back). */
static void sort_by_depth(uint32_t *ids, uint32_t n, const uint32_t *depth)
{
    for (uint32_t i = 1; i < n; i++) { /* insertion sort: stable, n is small */
        uint32_t v = ids[i], j = i;
        for (; j > 0 && depth[ids[j - 1]] < depth[v]; j--) ids[j] = ids[j - 1];
        ids[j] = v;
    }
}

static void order_by_depth(ecs_context *ctx)
{
    uint32_t n = ctx->system_count, *depth = ecs_alloc((n + 1) * sizeof *depth, 0);
    if (!depth) return; /* only an ordering hint */
    for (uint32_t k = n; k-- > 0;) {
        const ecs_sys *sys = &ctx->systems[ctx->order[k]];
        uint32_t d = 0;
        for (uint32_t i = 0; i < sys->dependent_count; i++)
            if (depth[sys->dependents[i]] > d) d = depth[sys->dependents[i]];
        depth[sys->id] = d + 1u;
    }
    sort_by_depth(ctx->roots, ctx->root_count, depth);
    for (uint32_t s = 0; s < n; s++)
        sort_by_depth(ctx->systems[s].dependents, ctx->systems[s].dependent_count, depth);
    ecs_free(depth);
}

static ecs_status build_graph(ecs_context *ctx, ecs_error *err)
{
    uint32_t n = ctx->system_count;
    ctx->roots = ecs_alloc((n + 1) * sizeof(uint32_t), 0);
    if (!ctx->roots) return ecs__fail(err, ECS_ERR_NOMEM, "out of memory building the DAG");
    /* Dependents counted, then filled in ascending id order: one walk of
     * the edges each. */
    for (uint32_t d = 0; d < n; d++) {
        const ecs_ids after = ctx->systems[d].def.after;
        if (after.count == 0) ctx->roots[ctx->root_count++] = d;
        for (uint32_t i = 0; i < after.count; i++) ctx->systems[after.ids[i]].dependent_count++;
    }
    for (uint32_t s = 0; s < n; s++) {
        ecs_sys *sys = &ctx->systems[s];
        sys->dependents = ecs_alloc((sys->dependent_count + 1) * sizeof(uint32_t), 0);
        if (!sys->dependents) return ecs__fail(err, ECS_ERR_NOMEM, "out of memory building the DAG");
        sys->dependent_count = 0;
    }
    for (uint32_t d = 0; d < n; d++) {
        const ecs_ids after = ctx->systems[d].def.after;
        for (uint32_t i = 0; i < after.count; i++) {
            ecs_sys *sys = &ctx->systems[after.ids[i]];
            sys->dependents[sys->dependent_count++] = d;
        }
    }
    order_by_depth(ctx);
    return ECS_OK;
}

static ecs_status build(ecs_context *ctx, const ecs_config *cfg, ecs_error *err)
{
    const uint32_t n = cfg->system_count;
    ctx->reach = ecs_alloc((size_t)n * n + 1, 0);
    ctx->order = ecs_alloc(((size_t)n + 1) * sizeof *ctx->order, 0);
    if (!ctx->reach || !ctx->order) return ecs__fail(err, ECS_ERR_NOMEM, "out of memory");
    ecs_status st = ecs__validate(cfg, ctx->reach, ctx->order, err);
    if (st != ECS_OK) return st;

    ctx->component_count = cfg->component_count;
    ctx->system_count = n;
    ctx->components = ecs_alloc((cfg->component_count + 1) * sizeof *ctx->components, 0);
    ctx->columns = ecs_alloc((cfg->component_count + 1) * sizeof *ctx->columns, 0);
    ctx->systems = ecs_alloc((n + 1) * sizeof *ctx->systems, 0);
    if (!ctx->components || !ctx->columns || !ctx->systems)
        return ecs__fail(err, ECS_ERR_NOMEM, "out of memory");
    if (cfg->component_count)
        memcpy(ctx->components, cfg->components, cfg->component_count * sizeof *ctx->components);
    for (uint32_t c = 0; c < ctx->component_count; c++)
        if (ctx->components[c].align == 0) ctx->components[c].align = _Alignof(max_align_t);
    for (uint32_t s = 0; s < n; s++) {
        ctx->systems[s].ctx = ctx;
        ctx->systems[s].id = s;
        if (!copy_system(&ctx->systems[s], &cfg->systems[s]))
            return ecs__fail(err, ECS_ERR_NOMEM, "out of memory");
    }
    ecs__classes_init(ctx);
    st = build_graph(ctx, err);
    if (st != ECS_OK) return st;

    ctx->storage = cfg->storage;
    ctx->limit = cfg->storage == ECS_STORAGE_FIXED ? cfg->capacity : ECS_MAX_ENTITIES;
    ctx->workers = cfg->workers ? cfg->workers : ecs_cpu_count();
    ctx->max_workers = cfg->max_workers ? cfg->max_workers : ctx->workers;
    if (ctx->max_workers < ctx->workers)
        return ecs__fail(err, ECS_ERR_INVALID, "max_workers %u is below workers %u",
                         (unsigned)ctx->max_workers, (unsigned)ctx->workers);
    ctx->inner_off = cfg->inner_parallelism_off;
    ctx->timeline_on = true;
    ctx->on_reclaim = cfg->on_reclaim;
    ctx->user = cfg->user;
    uint32_t capacity = cfg->capacity ? cfg->capacity : ECS_DEFAULT_CAPACITY;
    /* A large batch of changes is kept as a bitmap only (sparse_set.h). */
    ecs_sset_spill(&ctx->to_match);
    ecs_sset_spill(&ctx->batch_match);
    /* Fixed storage allocates its whole limit now: no growth, ever. */
    if (!ecs__grow(ctx, capacity))
        return ecs__fail(err, ECS_ERR_NOMEM, "out of memory allocating %u entities", capacity);
    ctx->pool = ecs_pool_create(ctx->max_workers);
    if (!ctx->pool)
        return ecs__fail(err, ECS_ERR_THREAD, "could not start %u worker threads",
                         (unsigned)ctx->max_workers);
    ecs_pool_set_active(ctx->pool, ctx->workers);
    if (!ecs__balance_init(ctx) || !ecs__parallel_init(ctx))
        return ecs__fail(err, ECS_ERR_NOMEM, "out of memory");
    return ECS_OK;
}

ecs_status ecs_context_create(const ecs_config *cfg, ecs_context **out, ecs_error *err)
{
    if (err) {
        err->status = ECS_OK;
        err->message[0] = '\0';
    }
    if (!out) return ecs__fail(err, ECS_ERR_INVALID, "out must not be NULL");
    *out = NULL;
    if (!cfg) return ecs__fail(err, ECS_ERR_INVALID, "config must not be NULL");
    ecs_context *ctx = ecs_alloc(sizeof *ctx, 0);
    if (!ctx) return ecs__fail(err, ECS_ERR_NOMEM, "out of memory");
    ecs_status st = build(ctx, cfg, err);
    if (st != ECS_OK) {
        ecs_context_destroy(ctx);
        return st;
    }
    *out = ctx;
    return ECS_OK;
}

void ecs_context_destroy(ecs_context *ctx)
{
    if (!ctx) return;
    /* Refused inside a step or a refresh: leaking beats freeing what runs. */
    if (ecs__check_between_steps(ctx, "ecs_context_destroy") != ECS_OK) return;
    if (ctx->stepping) {
        ecs__misuse(ctx, "ecs_context_destroy called from a step callback");
        return;
    }
    ecs_pool_destroy(ctx->pool);
    ecs__compact_fini(ctx);
    ecs__balance_fini(ctx);
    ecs__parallel_fini(ctx);
    ecs__timeline_fini(ctx);
    for (uint32_t s = 0; ctx->systems && s < ctx->system_count; s++) {
        ecs_sys *sys = &ctx->systems[s];
        for (uint32_t i = 0; i < sys->subtask_cap; i++) ecs__subtask_fini(&sys->subtasks[i]);
        ecs_free(sys->subtasks);
        ecs_oset_fini(&sys->own);
        ecs_free(sys->ids);
        ecs_free(sys->dependents);
        ecs_free(sys->removed);
        ecs_free(sys->added);
    }
    for (uint32_t c = 0; ctx->columns && c < ctx->component_count; c++) ecs_free(ctx->columns[c]);
    ecs_free(ctx->free_bits);
    ecs_sset_fini(&ctx->to_match);
    ecs_sset_fini(&ctx->batch_match);
    ecs_free(ctx->masks);
    ecs_free(ctx->generations);
    ecs_free(ctx->states);
    ecs_free(ctx->columns);
    ecs_free(ctx->components);
    ecs_free(ctx->systems);
    ecs_free(ctx->roots);
    ecs_free(ctx->reach);
    ecs_free(ctx->order);
    ecs_free(ctx);
}

uint32_t ecs_worker_count(const ecs_context *ctx) { return ctx->workers; }
uint32_t ecs_max_workers(const ecs_context *ctx) { return ctx->max_workers; }

ecs_status ecs__check_between_steps(ecs_context *ctx, const char *fn)
{
    if (ctx->running) return ecs__misuse(ctx, "%s called while systems run", fn);
    if (ctx->refreshing) return ecs__misuse(ctx, "%s called from a refresh callback", fn);
    return ECS_OK;
}

void ecs__push_jobs(ecs_context *ctx, const char *fn, ecs_job *first, size_t stride, uint32_t n,
                    uint32_t own)
{
    bool queued = own < n ? ecs_pool_push_others(ctx->pool, first, stride, n, own)
                          : ecs_pool_push_batch(ctx->pool, first, stride, n);
    if (queued) return;
    ecs__misuse(ctx, "%s called from a thread that does not own the context", fn);
    for (uint32_t k = 0; k < n; k++) {
        ecs_job *job = (ecs_job *)(void *)((char *)first + k * stride);
        if (k != own) job->run(job);
    }
}

ecs_status ecs_set_workers(ecs_context *ctx, uint32_t workers)
{
    ecs_status st = ecs__check_between_steps(ctx, "ecs_set_workers");
    if (st != ECS_OK) return st;
    if (workers < 1 || workers > ctx->max_workers) return ECS_ERR_INVALID;
    ecs_pool_set_active(ctx->pool, workers);
    ctx->workers = workers;
    ecs__balance_reset(ctx);
    return ECS_OK;
}

void ecs_set_inner_parallelism(ecs_context *ctx, bool on)
{
    if (ecs__check_between_steps(ctx, "ecs_set_inner_parallelism") != ECS_OK) return;
    if (ctx->inner_off == !on) return;
    ctx->inner_off = !on;
    ecs__balance_reset(ctx);
}

bool ecs_inner_parallelism(const ecs_context *ctx) { return !ctx->inner_off; }
uint32_t ecs_system_count(const ecs_context *ctx) { return ctx->system_count; }
uint32_t ecs_component_count(const ecs_context *ctx) { return ctx->component_count; }
