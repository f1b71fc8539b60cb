/* validate.c - checks a context definition before anything is built:
 * unknown ids, read-and-write, cycles, and unordered conflicts (two systems
 * touching one component or resource, one writing, with no dependency
 * path). Time and memory grow with systems + edges + declared uses (times
 * the components and resources, at most 64 each, for the searches), never
 * with systems squared. */
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

static const char *group_name(const ecs_config *cfg, uint32_t g)
{
    const char *n = cfg->groups[g].name;
    return n ? n : "(unnamed)";
}

/* Storage kinds: sparse lists known components with data; a group lists
 * known components with data, none sparse, none in another group. */
static ecs_status check_groups(const ecs_config *cfg, ecs_error *err)
{
    if ((cfg->group_count && !cfg->groups) || (cfg->sparse.count && !cfg->sparse.ids))
        return ecs__fail(err, ECS_ERR_INVALID, "group or sparse count set without an array");
    uint64_t sparse = 0, grouped = 0;
    for (uint32_t k = 0; k < cfg->sparse.count; k++) {
        uint32_t c = cfg->sparse.ids[k];
        if (c >= cfg->component_count)
            return ecs__fail(err, ECS_ERR_INVALID,
                             "sparse lists component %u, which does not exist (%u declared)",
                             (unsigned)c, (unsigned)cfg->component_count);
        if (cfg->components[c].size == 0)
            return ecs__fail(err, ECS_ERR_INVALID,
                             "sparse lists component '%s', a tag (no storage to keep sparse)",
                             comp_name(cfg, c));
        sparse |= UINT64_C(1) << c;
    }
    for (uint32_t g = 0; g < cfg->group_count; g++) {
        ecs_ids ids = cfg->groups[g].components;
        if (ids.count == 0 || !ids.ids)
            return ecs__fail(err, ECS_ERR_INVALID, "group '%s' lists no component",
                             group_name(cfg, g));
        for (uint32_t i = 0; i < ids.count; i++) {
            uint32_t c = ids.ids[i];
            const char *why = NULL;
            if (c >= cfg->component_count)
                return ecs__fail(err, ECS_ERR_INVALID,
                                 "group '%s' lists component %u, which does not exist (%u "
                                 "declared)",
                                 group_name(cfg, g), (unsigned)c, (unsigned)cfg->component_count);
            if (cfg->components[c].size == 0) why = "a tag (no storage)";
            else if (sparse >> c & 1) why = "sparse";
            else if (grouped >> c & 1) why = "in a group already";
            if (why)
                return ecs__fail(err, ECS_ERR_INVALID,
                                 "group '%s' lists component '%s', which is %s; a group holds "
                                 "sized, non-sparse components, each in one group",
                                 group_name(cfg, g), comp_name(cfg, c), why);
            grouped |= UINT64_C(1) << c;
        }
    }
    return ECS_OK;
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
    ecs_status st = check_groups(cfg, err);
    if (st != ECS_OK) return st;
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

/* The dependency graph as validation walks it: dependents grouped by the
 * system depended on (first/deps), the order Kahn's walk found (roots in
 * id order, then each system as its last dependency is placed) and each
 * system's place in it, and marks for bounded searches. */
typedef struct graph {
    const ecs_config *cfg;
    uint32_t n;
    uint32_t *first, *deps; /* dependents of a: deps[first[a] .. first[a + 1]) */
    uint32_t *order, *pos;
    uint32_t *mark, stamp; /* mark[s] == stamp: reached by the current search */
    uint32_t *stack;
} graph;

static bool graph_init(graph *g, const ecs_config *cfg, uint32_t *order)
{
    uint32_t n = cfg->system_count;
    size_t edges = 0;
    for (uint32_t b = 0; b < n; b++) edges += cfg->systems[b].after.count;
    *g = (graph){.cfg = cfg, .n = n, .order = order};
    g->first = ecs_alloc(((size_t)n + 2u) * sizeof *g->first, 0);
    g->deps = ecs_alloc((edges + 1u) * sizeof *g->deps, 0);
    g->pos = ecs_alloc(((size_t)n + 1u) * sizeof *g->pos, 0);
    g->mark = ecs_alloc(((size_t)n + 1u) * sizeof *g->mark, 0);
    g->stack = ecs_alloc(((size_t)n + 1u) * sizeof *g->stack, 0);
    if (!g->first || !g->deps || !g->pos || !g->mark || !g->stack) return false;
    for (uint32_t b = 0; b < n; b++)
        for (uint32_t i = 0; i < cfg->systems[b].after.count; i++)
            g->first[cfg->systems[b].after.ids[i] + 2u]++;
    for (uint32_t a = 0; a < n; a++) g->first[a + 2u] += g->first[a + 1u];
    for (uint32_t b = 0; b < n; b++)
        for (uint32_t i = 0; i < cfg->systems[b].after.count; i++)
            g->deps[g->first[cfg->systems[b].after.ids[i] + 1u]++] = b;
    return true;
}

static void graph_fini(graph *g)
{
    ecs_free(g->first);
    ecs_free(g->deps);
    ecs_free(g->pos);
    ecs_free(g->mark);
    ecs_free(g->stack);
}

/* Fills order and pos; false when a cycle leaves systems unplaced. pos
 * doubles as the count of dependencies not yet placed while it runs. */
static bool graph_sort(graph *g)
{
    uint32_t head = 0, tail = 0, *left = g->pos;
    for (uint32_t b = 0; b < g->n; b++) {
        left[b] = g->cfg->systems[b].after.count;
        if (left[b] == 0) g->order[tail++] = b;
    }
    while (head < tail) {
        uint32_t a = g->order[head++];
        for (uint32_t k = g->first[a]; k < g->first[a + 1u]; k++)
            if (--left[g->deps[k]] == 0) g->order[tail++] = g->deps[k];
    }
    if (tail < g->n) return false;
    for (uint32_t k = 0; k < g->n; k++) g->pos[g->order[k]] = k;
    return true;
}

/* Marks every system from which a path of dependencies leads to `from`
 * (upward), or to which one leads from it (downward), `from` included,
 * looking only at systems placed in [lo, hi] of the order: a path between
 * two systems never leaves the stretch of the order between them. */
static void graph_mark(graph *g, uint32_t from, bool upward, uint32_t lo, uint32_t hi)
{
    uint32_t top = 0, stamp = ++g->stamp;
    g->mark[from] = stamp;
    g->stack[top++] = from;
    while (top) {
        uint32_t s = g->stack[--top];
        const uint32_t *next = upward ? g->cfg->systems[s].after.ids : g->deps + g->first[s];
        uint32_t count = upward ? g->cfg->systems[s].after.count : g->first[s + 1u] - g->first[s];
        for (uint32_t i = 0; i < count; i++) {
            uint32_t t = next[i];
            if (g->mark[t] == stamp || g->pos[t] < lo || g->pos[t] > hi) continue;
            g->mark[t] = stamp;
            g->stack[top++] = t;
        }
    }
}

static ecs_status conflict(const graph *g, uint32_t a, uint32_t b, uint32_t writer, uint32_t c,
                           ecs_error *err)
{
    if (a > b) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    uint32_t k = g->cfg->component_count;
    return ecs__fail(err, ECS_ERR_CONFLICT,
                     "systems '%s' and '%s' both use %s '%s' ('%s' writes it) "
                     "but no dependency orders them",
                     sys_name(g->cfg, a), sys_name(g->cfg, b), c < k ? "component" : "resource",
                     c < k ? comp_name(g->cfg, c) : res_name(g->cfg, c - k),
                     sys_name(g->cfg, writer));
}

/* One component's users, in the order (each with whether it writes): every
 * writer must follow the writer before it, every reader the writer before
 * it and precede the writer after it. Together these order every pair
 * with a writer in it (the order is consistent with every path, so a
 * path can only run one way), and each check is one bounded search per
 * writer: the stretches searched for one component barely overlap. */
static ecs_status check_users(graph *g, const uint32_t *users, const bool *writes, uint32_t m,
                              uint32_t c, ecs_error *err)
{
    const uint32_t none = UINT32_MAX;
    uint32_t last = none; /* the last writer so far */
    for (uint32_t i = 0; i < m;) {
        uint32_t j = i;
        while (j < m && !writes[j]) j++; /* readers [i, j), then a writer at j */
        if (last != none && j > i) {
            graph_mark(g, last, false, g->pos[last], g->pos[users[j - 1u]]);
            for (uint32_t k = i; k < j; k++)
                if (g->mark[users[k]] != g->stamp) return conflict(g, last, users[k], last, c, err);
        }
        if (j == m) break;
        uint32_t w = users[j];
        uint32_t lo = last != none ? g->pos[last] : g->pos[users[i]];
        graph_mark(g, w, true, lo, g->pos[w]);
        if (last != none && g->mark[last] != g->stamp) return conflict(g, last, w, last < w ? last : w, c, err);
        for (uint32_t k = i; k < j; k++)
            if (g->mark[users[k]] != g->stamp) return conflict(g, users[k], w, w, c, err);
        last = w;
        i = j + 1u;
    }
    return ECS_OK;
}

/* The ids a system uses, as keys of one numbering: components first, then
 * resources (key component_count + r). */
static void system_uses(const ecs_config *cfg, uint32_t s, ecs_ids lists[4], uint32_t base[4])
{
    const ecs_system_def *d = &cfg->systems[s];
    lists[0] = d->reads;
    lists[1] = d->writes;
    lists[2] = d->resource_reads;
    lists[3] = d->resource_writes;
    base[0] = base[1] = 0;
    base[2] = base[3] = cfg->component_count;
}

/* Every pair of systems that use one component or resource, one writing
 * it, must be ordered by a path of dependencies. The users of each are
 * gathered in the order (a counting sort by key), then checked. */
static ecs_status check_conflicts(graph *g, ecs_error *err)
{
    const ecs_config *cfg = g->cfg;
    uint32_t keys = cfg->component_count + cfg->resource_count, base[4];
    ecs_ids lists[4];
    size_t uses = 0;
    for (uint32_t s = 0; s < g->n; s++) {
        system_uses(cfg, s, lists, base);
        for (int l = 0; l < 4; l++) uses += lists[l].count;
    }
    uint32_t *start = ecs_alloc(((size_t)keys + 2u) * sizeof *start, 0);
    uint32_t *users = ecs_alloc((uses + 1u) * sizeof *users, 0);
    bool *writes = ecs_alloc(uses + 1u, 0);
    ecs_status st = ECS_OK;
    if (!start || !users || !writes) {
        st = ecs__fail(err, ECS_ERR_NOMEM, "out of memory while validating");
        goto done;
    }
    for (uint32_t s = 0; s < g->n; s++) {
        system_uses(cfg, s, lists, base);
        for (int l = 0; l < 4; l++)
            for (uint32_t i = 0; i < lists[l].count; i++) start[base[l] + lists[l].ids[i] + 2u]++;
    }
    for (uint32_t c = 0; c < keys; c++) start[c + 2u] += start[c + 1u];
    for (uint32_t o = 0; o < g->n; o++) {
        uint32_t s = g->order[o];
        system_uses(cfg, s, lists, base);
        for (int l = 0; l < 4; l++)
            for (uint32_t i = 0; i < lists[l].count; i++) {
                uint32_t at = start[base[l] + lists[l].ids[i] + 1u]++;
                users[at] = s;
                writes[at] = l & 1;
            }
    }
    for (uint32_t c = 0; c < keys && st == ECS_OK; c++)
        st = check_users(g, users + start[c], writes + start[c], start[c + 1u] - start[c], c, err);
done:
    ecs_free(start);
    ecs_free(users);
    ecs_free(writes);
    return st;
}

/* Depth-first search for a cycle from the systems Kahn's walk could not
 * place; writes the first found into err. */
static ecs_status report_cycle(const ecs_config *cfg, ecs_error *err)
{
    uint32_t n = cfg->system_count;
    uint8_t *colour = ecs_alloc(n + 1, 0);
    uint32_t *stack = ecs_alloc((n + 1) * sizeof *stack, 0);
    ecs_status st = ECS_ERR_NOMEM;
    if (colour && stack) {
        for (uint32_t s = 0; s < n && st != ECS_ERR_CYCLE; s++)
            if (colour[s] == 0 && find_cycle(cfg, s, colour, stack, 0, err)) st = ECS_ERR_CYCLE;
    }
    ecs_free(colour);
    ecs_free(stack);
    if (st == ECS_ERR_NOMEM) return ecs__fail(err, st, "out of memory while validating");
    return st;
}

ecs_status ecs__validate(const ecs_config *cfg, uint32_t *order, ecs_error *err)
{
    ecs_status st = check_config(cfg, err);
    if (st == ECS_OK) st = check_ids(cfg, err);
    if (st != ECS_OK) return st;
    graph g;
    if (!graph_init(&g, cfg, order)) st = ecs__fail(err, ECS_ERR_NOMEM, "out of memory while validating");
    else if (!graph_sort(&g)) st = report_cycle(cfg, err);
    else st = check_conflicts(&g, err);
    graph_fini(&g);
    return st;
}
