/* validate.c - checks a context definition before anything is built:
 * unknown ids, read-and-write, cycles, and unordered conflicts (two systems
 * touching one component or resource, one writing, with no dependency
 * path). */
#include "ecs_internal.h"

#include "alloc.h"

#include <stdio.h>
#include <string.h>

static const char *sys_name(const ecs_config *cfg, uint32_t s)
{
    const char *n = cfg->systems[s].name;
    return n ? n : "(unnamed)";
}

static const char *comp_name(const ecs_config *cfg, uint32_t c)
{
    const char *n = cfg->components[c].name;
    return n ? n : "(unnamed)";
}

static const char *res_name(const ecs_config *cfg, uint32_t r)
{
    const char *n = cfg->resources[r].name;
    return n ? n : "(unnamed)";
}

static bool ids_have(ecs_ids list, uint32_t id)
{
    for (uint32_t i = 0; i < list.count; i++)
        if (list.ids[i] == id) return true;
    return false;
}

static ecs_status check_config(const ecs_config *cfg, ecs_error *err)
{
    if (cfg->component_count > ECS_MAX_COMPONENTS)
        return ecs__fail(err, ECS_ERR_INVALID, "%u components declared, at most %u allowed",
                         cfg->component_count, ECS_MAX_COMPONENTS);
    if (cfg->resource_count > ECS_MAX_RESOURCES)
        return ecs__fail(err, ECS_ERR_INVALID, "%u resources declared, at most %u allowed",
                         cfg->resource_count, ECS_MAX_RESOURCES);
    if ((cfg->component_count && !cfg->components) || (cfg->system_count && !cfg->systems) ||
        (cfg->resource_count && !cfg->resources))
        return ecs__fail(err, ECS_ERR_INVALID,
                         "component, system or resource count set without an array");
    if (cfg->storage != ECS_STORAGE_DYNAMIC && cfg->storage != ECS_STORAGE_FIXED)
        return ecs__fail(err, ECS_ERR_INVALID, "storage must be ECS_STORAGE_DYNAMIC or _FIXED");
    if (cfg->storage == ECS_STORAGE_FIXED && cfg->capacity == 0)
        return ecs__fail(err, ECS_ERR_INVALID, "fixed storage needs a capacity above 0");
    if (cfg->capacity > ECS_MAX_ENTITIES)
        return ecs__fail(err, ECS_ERR_INVALID, "capacity %u is above the maximum %u",
                         cfg->capacity, ECS_MAX_ENTITIES);
    for (uint32_t c = 0; c < cfg->component_count; c++) {
        size_t a = cfg->components[c].align;
        if (a & (a - 1))
            return ecs__fail(err, ECS_ERR_INVALID,
                             "component '%s' alignment %zu is not a power of two",
                             comp_name(cfg, c), a);
        if (a && cfg->components[c].size % a)
            return ecs__fail(err, ECS_ERR_INVALID,
                             "component '%s' size %zu is not a multiple of its alignment %zu",
                             comp_name(cfg, c), cfg->components[c].size, a);
    }
    for (uint32_t r = 0; r < cfg->resource_count; r++) {
        const ecs_resource_def *d = &cfg->resources[r];
        if (!d->size == !d->ptr)
            return ecs__fail(err, ECS_ERR_INVALID,
                             "resource '%s' needs either a size (the ecs allocates it) or a "
                             "pointer (its owner keeps it), not %s",
                             res_name(cfg, r), d->size ? "both" : "neither");
        if (d->align & (d->align - 1))
            return ecs__fail(err, ECS_ERR_INVALID,
                             "resource '%s' alignment %zu is not a power of two", res_name(cfg, r),
                             d->align);
        if (d->align && d->size % d->align)
            return ecs__fail(err, ECS_ERR_INVALID,
                             "resource '%s' size %zu is not a multiple of its alignment %zu",
                             res_name(cfg, r), d->size, d->align);
    }
    for (uint32_t s = 0; s < cfg->system_count; s++) {
        const ecs_system_def *d = &cfg->systems[s];
        if (!d->process)
            return ecs__fail(err, ECS_ERR_INVALID, "system '%s' has no process callback",
                             sys_name(cfg, s));
        if (d->parallelism.split > ECS_SPLIT_CHUNKS)
            return ecs__fail(err, ECS_ERR_INVALID, "system '%s' has an unknown split kind %d",
                             sys_name(cfg, s), (int)d->parallelism.split);
        if (d->parallelism.split == ECS_SPLIT_CHUNKS && d->parallelism.chunk_size == 0)
            return ecs__fail(err, ECS_ERR_INVALID, "system '%s': chunk split needs chunk_size > 0",
                             sys_name(cfg, s));
        if (d->passes > ECS_MAX_PASSES)
            return ecs__fail(err, ECS_ERR_INVALID, "system '%s': %u passes, at most %u allowed",
                             sys_name(cfg, s), (unsigned)d->passes, (unsigned)ECS_MAX_PASSES);
        if ((d->reads.count && !d->reads.ids) || (d->writes.count && !d->writes.ids) ||
            (d->after.count && !d->after.ids) ||
            (d->resource_reads.count && !d->resource_reads.ids) ||
            (d->resource_writes.count && !d->resource_writes.ids))
            return ecs__fail(err, ECS_ERR_INVALID, "system '%s': an id list has a count but no ids",
                             sys_name(cfg, s));
    }
    return ECS_OK;
}

/* One kind of id a system uses: components (kind 0) or resources (1). */
typedef struct id_kind {
    const char *noun, *writes_list; /* "component", "writes" */
    uint32_t declared;
    ecs_status unknown; /* the status of an id past declared */
    const char *(*name)(const ecs_config *cfg, uint32_t id);
} id_kind;

/* A system's reads and writes of one kind: each id declared, none in both. */
static ecs_status check_uses(const ecs_config *cfg, uint32_t s, ecs_ids reads, ecs_ids writes,
                             const id_kind *k, ecs_error *err)
{
    const ecs_ids lists[2] = {reads, writes};
    for (int l = 0; l < 2; l++) {
        for (uint32_t i = 0; i < lists[l].count; i++) {
            if (lists[l].ids[i] >= k->declared)
                return ecs__fail(err, k->unknown, "system '%s' %s unknown %s %u (%u declared)",
                                 sys_name(cfg, s), l ? "writes" : "reads", k->noun,
                                 lists[l].ids[i], k->declared);
        }
    }
    for (uint32_t i = 0; i < reads.count; i++) {
        uint32_t id = reads.ids[i];
        if (ids_have(writes, id))
            return ecs__fail(err, ECS_ERR_READ_WRITE,
                             "system '%s' both reads and writes %s '%s' (list it under %s only)",
                             sys_name(cfg, s), k->noun,
                             k->name(cfg, id), k->writes_list);
    }
    return ECS_OK;
}

static ecs_status check_ids(const ecs_config *cfg, ecs_error *err)
{
    const id_kind comps = {"component", "writes", cfg->component_count, ECS_ERR_UNKNOWN_COMPONENT,
                           comp_name};
    const id_kind res = {"resource", "resource_writes", cfg->resource_count, ECS_ERR_INVALID,
                         res_name};
    for (uint32_t s = 0; s < cfg->system_count; s++) {
        const ecs_system_def *d = &cfg->systems[s];
        ecs_status st = check_uses(cfg, s, d->reads, d->writes, &comps, err);
        if (st == ECS_OK) st = check_uses(cfg, s, d->resource_reads, d->resource_writes, &res, err);
        if (st != ECS_OK) return st;
        for (uint32_t i = 0; i < d->after.count; i++) {
            uint32_t dep = d->after.ids[i];
            if (dep >= cfg->system_count)
                return ecs__fail(err, ECS_ERR_UNKNOWN_SYSTEM,
                                 "system '%s' depends on unknown system %u (%u declared)",
                                 sys_name(cfg, s), dep, cfg->system_count);
            if (dep == s)
                return ecs__fail(err, ECS_ERR_CYCLE, "dependency cycle: system '%s' depends on itself",
                                 sys_name(cfg, s));
        }
    }
    return ECS_OK;
}

/* Depth-first search for a cycle; on finding one, writes it as
 * "a -> b -> a" into err. colour: 0 unvisited, 1 on the stack, 2 done. */
static bool find_cycle(const ecs_config *cfg, uint32_t s, uint8_t *colour, uint32_t *stack,
                       uint32_t depth, ecs_error *err)
{
    colour[s] = 1;
    stack[depth] = s;
    const ecs_ids after = cfg->systems[s].after;
    for (uint32_t i = 0; i < after.count; i++) {
        uint32_t d = after.ids[i];
        if (colour[d] == 1) {
            /* stack holds the path d ... s, each depending on the next. */
            char path[200] = "";
            size_t at = 0;
            uint32_t from = 0;
            while (stack[from] != d) from++;
            for (uint32_t k = depth + 1; k-- > from;) {
                int n = snprintf(path + at, sizeof path - at, "%s -> ", sys_name(cfg, stack[k]));
                if (n < 0 || (size_t)n >= sizeof path - at) break;
                at += (size_t)n;
            }
            snprintf(path + at, sizeof path - at, "%s", sys_name(cfg, s));
            ecs__fail(err, ECS_ERR_CYCLE, "dependency cycle (runs before): %s", path);
            return true;
        }
        if (colour[d] == 0 && find_cycle(cfg, d, colour, stack, depth + 1, err)) return true;
    }
    colour[s] = 2;
    return false;
}

/* order: the systems, each after its dependencies (Kahn's, roots in id
 * order). reach[a * n + b]: a path of "runs before" edges leads from a to
 * b. Each system's ancestors, a bitset, are its dependencies' and those
 * dependencies themselves, ORed along the order: (systems + edges) x
 * systems / 64 word operations, then one pass to spell the bitsets out.
 * False when out of memory. The graph has no cycle (checked before). */
static bool fill_reach(const ecs_config *cfg, bool *reach, uint32_t *order)
{
    uint32_t n = cfg->system_count;
    size_t words = ((size_t)n + 63u) / 64u, edges = 0;
    for (uint32_t b = 0; b < n; b++) edges += cfg->systems[b].after.count;
    uint64_t *anc = ecs_alloc((size_t)n * words * sizeof *anc + 1u, 0);
    uint32_t *left = ecs_alloc(((size_t)n + 1u) * sizeof *left, 0);
    uint32_t *first = ecs_alloc(((size_t)n + 2u) * sizeof *first, 0);
    uint32_t *dependents = ecs_alloc((edges + 1u) * sizeof *dependents, 0);
    uint32_t *queue = order; /* filled in order, read behind */
    bool ok = anc && left && first && dependents;
    if (ok) {
        /* Who depends on whom, grouped by the system depended on. */
        for (uint32_t b = 0; b < n; b++)
            for (uint32_t i = 0; i < cfg->systems[b].after.count; i++)
                first[cfg->systems[b].after.ids[i] + 2u]++;
        for (uint32_t a = 0; a < n; a++) first[a + 2u] += first[a + 1u];
        for (uint32_t b = 0; b < n; b++)
            for (uint32_t i = 0; i < cfg->systems[b].after.count; i++)
                dependents[first[cfg->systems[b].after.ids[i] + 1u]++] = b;
        uint32_t head = 0, tail = 0;
        for (uint32_t b = 0; b < n; b++) {
            left[b] = cfg->systems[b].after.count;
            if (left[b] == 0) queue[tail++] = b;
        }
        while (head < tail) {
            uint32_t a = queue[head++];
            const uint64_t *from = anc + (size_t)a * words;
            for (uint32_t k = first[a]; k < first[a + 1u]; k++) {
                uint32_t b = dependents[k];
                uint64_t *to = anc + (size_t)b * words;
                for (size_t w = 0; w < words; w++) to[w] |= from[w];
                to[a >> 6] |= UINT64_C(1) << (a & 63u);
                if (--left[b] == 0) queue[tail++] = b;
            }
        }
        for (uint32_t a = 0; a < n; a++)
            for (uint32_t b = 0; b < n; b++)
                reach[(size_t)a * n + b] = anc[(size_t)b * words + (a >> 6)] >> (a & 63u) & 1u;
    }
    ecs_free(anc);
    ecs_free(left);
    ecs_free(first);
    ecs_free(dependents);
    return ok;
}

static uint64_t mask_of(ecs_ids list)
{
    uint64_t m = 0;
    for (uint32_t i = 0; i < list.count; i++) m |= UINT64_C(1) << list.ids[i];
    return m;
}

/* What one system declares, as masks: reads and writes of components
 * (kind 0) and of resources (kind 1). */
typedef struct use_masks {
    uint64_t read[2], write[2];
} use_masks;

/* Every pair of systems that touch a component or a resource, one writing
 * it, must be ordered. The masks are made once: the pairs are n^2 / 2. */
static ecs_status check_conflicts(const ecs_config *cfg, const bool *reach, ecs_error *err)
{
    uint32_t n = cfg->system_count;
    use_masks *m = ecs_alloc(((size_t)n + 1u) * sizeof *m, 0);
    if (!m) return ecs__fail(err, ECS_ERR_NOMEM, "out of memory while validating");
    for (uint32_t s = 0; s < n; s++) {
        const ecs_system_def *d = &cfg->systems[s];
        m[s] = (use_masks){{mask_of(d->reads), mask_of(d->resource_reads)},
                           {mask_of(d->writes), mask_of(d->resource_writes)}};
    }
    ecs_status st = ECS_OK;
    for (uint32_t a = 0; a < n && st == ECS_OK; a++) {
        for (uint32_t b = a + 1; b < n && st == ECS_OK; b++) {
            if (reach[(size_t)a * n + b] || reach[(size_t)b * n + a]) continue;
            for (int k = 0; k < 2; k++) {
                uint64_t wa = m[a].write[k], wb = m[b].write[k];
                uint64_t clash = (wa & (m[b].read[k] | wb)) | (wb & m[a].read[k]);
                if (!clash) continue;
                uint32_t c = (uint32_t)__builtin_ctzll(clash);
                st = ecs__fail(err, ECS_ERR_CONFLICT,
                               "systems '%s' and '%s' both use %s '%s' ('%s' writes it) "
                               "but no dependency orders them",
                               sys_name(cfg, a), sys_name(cfg, b), k ? "resource" : "component",
                               k ? res_name(cfg, c) : comp_name(cfg, c),
                               sys_name(cfg, (wa >> c & 1) ? a : b));
                break;
            }
        }
    }
    ecs_free(m);
    return st;
}

ecs_status ecs__validate(const ecs_config *cfg, bool *reach, uint32_t *order, ecs_error *err)
{
    ecs_status st = check_config(cfg, err);
    if (st == ECS_OK) st = check_ids(cfg, err);
    if (st != ECS_OK) return st;
    uint32_t n = cfg->system_count;
    uint8_t *colour = ecs_alloc(n + 1, 0);
    uint32_t *stack = ecs_alloc((n + 1) * sizeof *stack, 0);
    if (!colour || !stack) {
        ecs_free(colour);
        ecs_free(stack);
        return ecs__fail(err, ECS_ERR_NOMEM, "out of memory while validating");
    }
    for (uint32_t s = 0; s < n && st == ECS_OK; s++)
        if (colour[s] == 0 && find_cycle(cfg, s, colour, stack, 0, err)) st = ECS_ERR_CYCLE;
    ecs_free(colour);
    ecs_free(stack);
    if (st != ECS_OK) return st;
    if (!fill_reach(cfg, reach, order)) return ecs__fail(err, ECS_ERR_NOMEM, "out of memory while validating");
    return check_conflicts(cfg, reach, err);
}
