/* context.c - building and destroying a context from its definition. */
#include "ecs_internal.h"

#include "alloc.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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

bool ecs__null_out(const ecs_context *ctx, const char *fn, const char *param)
{
    const ecs_sys *caller = ecs__caller.sys;
    if (caller && caller->ctx == ctx)
        ecs__misuse((ecs_context *)ctx, "system '%s' called %s with a NULL %s",
                    ecs__sys_name(caller), fn, param);
    else
        ecs__misuse((ecs_context *)ctx, "%s given a NULL %s", fn, param);
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
    uint32_t n = def->reads.count + def->writes.count + def->after.count +
                 def->resource_reads.count + def->resource_writes.count;
    sys->ids = ecs_alloc((n + 1) * sizeof(uint32_t), 0);
    if (!sys->ids) return false;
    uint32_t *at = sys->ids;
    ecs_ids *lists[5] = {&sys->def.reads, &sys->def.writes, &sys->def.after,
                         &sys->def.resource_reads, &sys->def.resource_writes};
    for (int l = 0; l < 5; l++) {
        if (lists[l]->count) memcpy(at, lists[l]->ids, lists[l]->count * sizeof(uint32_t));
        lists[l]->ids = at;
        at += lists[l]->count;
    }
    for (uint32_t i = 0; i < sys->def.reads.count; i++)
        sys->read_mask |= UINT64_C(1) << sys->def.reads.ids[i];
    for (uint32_t i = 0; i < sys->def.writes.count; i++)
        sys->write_mask |= UINT64_C(1) << sys->def.writes.ids[i];
    sys->required = sys->read_mask | sys->write_mask;
    for (uint32_t i = 0; i < sys->def.resource_reads.count; i++)
        sys->res_read_mask |= UINT64_C(1) << sys->def.resource_reads.ids[i];
    for (uint32_t i = 0; i < sys->def.resource_writes.count; i++)
        sys->res_write_mask |= UINT64_C(1) << sys->def.resource_writes.ids[i];
    sys->passes = sys->def.passes ? sys->def.passes : 1u;
    sys->enabled = true;
    return true;
}

/* Systems on the longest chain to a sink (the DAG's critical path, counted
 * in systems) go first: roots launch in that order, and a completing
 * system continues with its deepest dependent and queues the others, so
 * the long chain is not left waiting behind short ones. Depths are made
 * against the order validation found (dependents first, walking it back). */
/* Deepest first, ties in the order given (keys carry the position). */
static int deeper_first(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void sort_by_depth(uint32_t *ids, uint32_t n, const uint32_t *depth, uint64_t *keys)
{
    for (uint32_t i = 0; i < n; i++) keys[i] = (uint64_t)(UINT32_MAX - depth[ids[i]]) << 32 | i;
    qsort(keys, n, sizeof *keys, deeper_first);
    for (uint32_t i = 0; i < n; i++) keys[i] = ids[(uint32_t)keys[i]];
    for (uint32_t i = 0; i < n; i++) ids[i] = (uint32_t)keys[i];
}

static void order_by_depth(ecs_context *ctx)
{
    uint32_t n = ctx->system_count, *depth = ecs_alloc((n + 1) * sizeof *depth, 0);
    uint64_t *keys = ecs_alloc(((size_t)n + 1) * sizeof *keys, 0);
    if (!depth || !keys) { /* only an ordering hint */
        ecs_free(depth);
        ecs_free(keys);
        return;
    }
    for (uint32_t k = n; k-- > 0;) {
        const ecs_sys *sys = &ctx->systems[ctx->order[k]];
        uint32_t d = 0;
        for (uint32_t i = 0; i < sys->dependent_count; i++)
            if (depth[sys->dependents[i]] > d) d = depth[sys->dependents[i]];
        depth[sys->id] = d + 1u;
    }
    sort_by_depth(ctx->roots, ctx->root_count, depth, keys);
    for (uint32_t s = 0; s < n; s++)
        sort_by_depth(ctx->systems[s].dependents, ctx->systems[s].dependent_count, depth, keys);
    ecs_free(depth);
    ecs_free(keys);
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

/* Paths are looked for when asked (a system reading another's outputs
 * while systems run), not stored for every pair: each pool thread has
 * marks and a stack of its own, and a search looks only at the systems
 * placed between the two in the order, since a path never leaves that
 * stretch. Memory grows with threads x systems. */
static bool reach_init(ecs_context *ctx)
{
    uint32_t n = ctx->system_count, threads = ecs_pool_threads(ctx->pool);
    ctx->pos = ecs_alloc(((size_t)n + 1) * sizeof *ctx->pos, 0);
    ctx->reach = ecs_alloc(((size_t)threads + 1) * sizeof *ctx->reach, 0);
    if (!ctx->pos || !ctx->reach) return false;
    for (uint32_t k = 0; k < n; k++) ctx->pos[ctx->order[k]] = k;
    ctx->reach_count = threads;
    for (uint32_t t = 0; t < threads; t++) {
        ctx->reach[t].mark = ecs_alloc(((size_t)n + 1) * sizeof(uint32_t), 0);
        ctx->reach[t].stack = ecs_alloc(((size_t)n + 1) * sizeof(uint32_t), 0);
        if (!ctx->reach[t].mark || !ctx->reach[t].stack) return false;
    }
    return true;
}

static void reach_fini(ecs_context *ctx)
{
    if (ctx->reach)
        for (uint32_t t = 0; t < ctx->reach_count; t++) {
            ecs_free(ctx->reach[t].mark);
            ecs_free(ctx->reach[t].stack);
        }
    ecs_free(ctx->reach);
    ecs_free(ctx->pos);
}

bool ecs__runs_before(const ecs_context *ctx, uint32_t from, uint32_t to)
{
    const uint32_t lo = ctx->pos[from];
    if (lo >= ctx->pos[to]) return false;
    const ecs_ids direct = ctx->systems[to].def.after;
    for (uint32_t i = 0; i < direct.count; i++)
        if (direct.ids[i] == from) return true;
    ecs_reach *r = &ctx->reach[ecs_pool_self(ctx->pool)];
    if (++r->stamp == 0) { /* wrapped: old marks could match again */
        memset(r->mark, 0, ctx->system_count * sizeof *r->mark);
        r->stamp = 1;
    }
    uint32_t top = 0;
    r->stack[top++] = to;
    while (top) {
        const ecs_ids after = ctx->systems[r->stack[--top]].def.after;
        for (uint32_t i = 0; i < after.count; i++) {
            uint32_t s = after.ids[i];
            if (s == from) return true;
            if (r->mark[s] == r->stamp || ctx->pos[s] < lo) continue;
            r->mark[s] = r->stamp;
            r->stack[top++] = s;
        }
    }
    return false;
}

static ecs_status build(ecs_context *ctx, const ecs_config *cfg, ecs_error *err)
{
    const uint32_t n = cfg->system_count;
    ctx->order = ecs_alloc(((size_t)n + 1) * sizeof *ctx->order, 0);
    if (!ctx->order) return ecs__fail(err, ECS_ERR_NOMEM, "out of memory");
    ecs_status st = ecs__validate(cfg, ctx->order, err);
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
    st = ecs__storage_init(ctx, cfg, err);
    if (st != ECS_OK) return st;
    for (uint32_t s = 0; s < n; s++) {
        ctx->systems[s].ctx = ctx;
        ctx->systems[s].id = s;
        if (!copy_system(&ctx->systems[s], &cfg->systems[s]))
            return ecs__fail(err, ECS_ERR_NOMEM, "out of memory");
    }
    ecs__classes_init(ctx);
    st = ecs__resources_init(ctx, cfg, err);
    if (st == ECS_OK) st = build_graph(ctx, err);
    if (st != ECS_OK) return st;

    ctx->storage = cfg->storage;
    ctx->limit = cfg->storage == ECS_STORAGE_FIXED ? cfg->capacity : ECS_MAX_ENTITIES;
    uint32_t cpus = ecs_cpu_count();
    ctx->workers = cfg->workers ? cfg->workers : cpus < ECS_MAX_WORKERS ? cpus : ECS_MAX_WORKERS;
    ctx->max_workers = cfg->max_workers ? cfg->max_workers : ctx->workers;
    if (ctx->workers > ECS_MAX_WORKERS || ctx->max_workers > ECS_MAX_WORKERS) {
        bool w = ctx->workers > ECS_MAX_WORKERS;
        return ecs__fail(err, ECS_ERR_INVALID, "%s %u is outside 1..%u (ECS_MAX_WORKERS)",
                         w ? "workers" : "max_workers",
                         (unsigned)(w ? ctx->workers : ctx->max_workers), ECS_MAX_WORKERS);
    }
    if (ctx->max_workers < ctx->workers)
        return ecs__fail(err, ECS_ERR_INVALID, "max_workers %u is below workers %u",
                         (unsigned)ctx->max_workers, (unsigned)ctx->workers);
    ctx->inner_off = cfg->inner_parallelism_off;
    ctx->split_cap = cfg->split_within_cpus ? ecs_cpu_count() : UINT32_MAX;
    ctx->timeline_on = true;
    ctx->failure = (ecs_failure){ECS_OK, ECS_NONE, ECS_NONE};
    ctx->on_reclaim = cfg->on_reclaim;
    ctx->user = cfg->user;
    uint32_t capacity = cfg->capacity ? cfg->capacity : ECS_DEFAULT_CAPACITY;
    /* Fixed storage allocates its whole limit now: no growth, ever. */
    if (!ecs__grow(ctx, capacity))
        return ecs__fail(err, ECS_ERR_NOMEM, "out of memory allocating %u entities", capacity);
    ctx->pool = ecs_pool_create(ctx->max_workers, cpus);
    if (!ctx->pool)
        return ecs__fail(err, ECS_ERR_THREAD, "could not start %u worker threads",
                         (unsigned)ctx->max_workers);
    ecs_pool_set_active(ctx->pool, ctx->workers);
    if (!reach_init(ctx) || !ecs__balance_init(ctx) || !ecs__parallel_init(ctx))
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
    ecs__queries_fini(ctx);
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
    ecs__resources_fini(ctx);
    ecs__storage_fini(ctx);
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
    reach_fini(ctx);
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

void ecs_wake_workers(ecs_context *ctx)
{
    if (ecs__check_between_steps(ctx, "ecs_wake_workers") != ECS_OK) return;
    /* The yield lets a woken worker have this processor at once when the
     * machine has no other free: it then spins, not the owner. */
    if (ecs_pool_wake_ahead(ctx->pool)) ecs__yield();
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
