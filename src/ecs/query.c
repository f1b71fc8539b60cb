/* query.c - cached queries: the entities holding every component of all,
 * none of none, any of optional.
 *
 * A query with k optional terms keeps 2^k sorted lists (sorted_set.h),
 * one per group: group g holds the matches with optional[j] for each bit
 * j of g and without the others, so each group is a list of plain terms
 * (all and the present optional ones required, none and the absent ones
 * excluded), matched by the refresh exactly as a class's subscription is
 * (ecs__list_match, refresh.c). A run of consecutive indices found in one
 * list therefore agrees on every optional component. Iteration walks the
 * lists one after the other as one sequence of matches, which is also
 * what ecs_query_parallel splits into ranges (parallel.c). */
#include "ecs_internal.h"

#include "alloc.h"

#include <string.h>

#define GROUPS_MAX (1u << ECS_QUERY_MAX_OPTIONAL)

struct ecs_qry {
    uint32_t generation; /* the slot's: its live query's, or its last one's */
    bool live;
    uint64_t all, known; /* known: all and the optional terms */
    uint32_t optional[ECS_QUERY_MAX_OPTIONAL];
    uint32_t groups; /* 2^optional terms */
    ecs_terms terms[GROUPS_MAX];
    uint64_t has[GROUPS_MAX]; /* what every match of the group holds: all, present optionals */
    ecs_oset lists[GROUPS_MAX];
};

/* The live query a handle names; else a misuse naming fn. */
static ecs_qry *query_arg(const ecs_context *ctx, ecs_query q, const char *fn)
{
    if (__builtin_expect(q.index < ctx->query_slots, 1)) {
        ecs_qry *s = ctx->queries[q.index];
        if (s->live && s->generation == q.generation) return s;
    }
    ecs__misuse((ecs_context *)ctx, "%s: query {%u, %u} names no query (destroyed, or never made)",
                fn, (unsigned)q.index, (unsigned)q.generation);
    return NULL;
}

static uint32_t match_count(const ecs_qry *s)
{
    uint32_t n = 0;
    for (uint32_t g = 0; g < s->groups; g++) n += s->lists[g].count;
    return n;
}

/* ---- the definition ------------------------------------------------------ */

/* The three lists' masks; ECS_ERR_MISUSE for an id that does not exist,
 * ECS_ERR_INVALID for a malformed definition. */
static ecs_status read_def(ecs_context *ctx, const ecs_query_def *def, uint64_t masks[3])
{
    const ecs_ids *lists[3] = {&def->all, &def->none, &def->optional};
    for (int l = 0; l < 3; l++)
        if (lists[l]->count && !lists[l]->ids) return ECS_ERR_INVALID;
    for (int l = 0; l < 3; l++)
        for (uint32_t i = 0; i < lists[l]->count; i++)
            if (!ecs__component_arg(ctx, lists[l]->ids[i], "ecs_query_create"))
                return ECS_ERR_MISUSE;
    uint64_t seen = 0;
    for (int l = 0; l < 3; l++) {
        masks[l] = 0;
        for (uint32_t i = 0; i < lists[l]->count; i++) {
            uint64_t bit = UINT64_C(1) << lists[l]->ids[i];
            if (seen & bit) return ECS_ERR_INVALID;
            seen |= bit;
            masks[l] |= bit;
        }
    }
    if (def->all.count == 0 || def->optional.count > ECS_QUERY_MAX_OPTIONAL) return ECS_ERR_INVALID;
    return ECS_OK;
}

/* Group g's terms: all and optional[j] for each bit j of g required; none
 * and the other optional ones excluded. */
static void make_groups(ecs_qry *s, const ecs_query_def *def, const uint64_t masks[3])
{
    uint32_t k = def->optional.count;
    if (k) memcpy(s->optional, def->optional.ids, k * sizeof *s->optional);
    s->all = masks[0];
    s->known = masks[0] | masks[2];
    s->groups = 1u << k;
    for (uint32_t g = 0; g < s->groups; g++) {
        uint64_t present = 0;
        for (uint32_t j = 0; j < k; j++)
            if (g >> j & 1u) present |= UINT64_C(1) << s->optional[j];
        s->terms[g] = (ecs_terms){masks[0] | present, masks[1] | (masks[2] & ~present)};
        s->has[g] = masks[0] | present;
    }
}

/* ---- the first matching --------------------------------------------------- */

/* The group an entity with this mask belongs to, or UINT32_MAX (the
 * test the refresh makes, refresh.c). */
static uint32_t group_of(const ecs_qry *s, uint64_t mask)
{
    uint32_t g = 0;
    for (uint32_t j = 0; (1u << j) < s->groups; j++)
        if (mask >> s->optional[j] & 1u) g |= 1u << j;
    const ecs_terms t = s->terms[g];
    return (mask & t.all) == t.all && (mask & t.none) == 0 ? g : UINT32_MAX;
}

/* Every live entity into its group's list: counted, room made, then
 * merged in from the top (ascending lists, one pass each). */
static bool populate(ecs_context *ctx, ecs_qry *s)
{
    uint32_t counts[GROUPS_MAX] = {0};
    for (uint32_t i = 0; i < ctx->high; i++) {
        if (ctx->states[i] != ECS_SLOT_ALIVE) continue;
        uint32_t g = group_of(s, ctx->masks[i]);
        if (g != UINT32_MAX) counts[g]++;
    }
    ecs_oset_merge m[GROUPS_MAX];
    for (uint32_t g = 0; g < s->groups; g++) {
        if (!ecs_oset_reserve(&s->lists[g], counts[g])) return false;
        m[g] = ecs_oset_merge_begin(&s->lists[g], counts[g]);
    }
    for (uint32_t i = ctx->high; i-- > 0;) {
        if (ctx->states[i] != ECS_SLOT_ALIVE) continue;
        uint32_t g = group_of(s, ctx->masks[i]);
        if (g != UINT32_MAX) ecs_oset_merge_add(&m[g], i);
    }
    for (uint32_t g = 0; g < s->groups; g++) ecs_oset_merge_end(&m[g]);
    return true;
}

static void lists_fini(ecs_qry *s)
{
    for (uint32_t g = 0; g < s->groups; g++) ecs_oset_fini(&s->lists[g]);
    s->groups = 0;
}

/* A slot for a new query: the lowest free one (a slot whose generation
 * reached the last one is never used again), else a new one. */
static ecs_qry *free_slot(ecs_context *ctx, uint32_t *index)
{
    for (uint32_t i = 0; i < ctx->query_slots; i++)
        if (!ctx->queries[i]->live && ctx->queries[i]->generation < UINT32_MAX) {
            *index = i;
            return ctx->queries[i];
        }
    size_t n = ctx->query_slots;
    ecs_qry **slots = ecs_realloc(ctx->queries, n * sizeof *slots, (n + 1u) * sizeof *slots, 0);
    if (!slots) return NULL;
    ctx->queries = slots;
    slots[n] = ecs_alloc(sizeof *slots[n], 0); /* zeroed: generation 0, not live */
    if (!slots[n]) return NULL;
    ctx->query_slots++;
    *index = (uint32_t)n;
    return slots[n];
}

ecs_status ecs_query_create(ecs_context *ctx, const ecs_query_def *def, ecs_query *out)
{
    if (out) *out = (ecs_query){0u, 0u};
    ecs_status st = ecs__check_between_steps(ctx, "ecs_query_create");
    if (st != ECS_OK) return st;
    if (!def) return ECS_ERR_INVALID;
    uint64_t masks[3];
    st = read_def(ctx, def, masks);
    if (st != ECS_OK) return st;
    if (!out) return ECS_ERR_INVALID;
    uint32_t index;
    ecs_qry *s = free_slot(ctx, &index);
    if (!s) return ECS_ERR_NOMEM;
    make_groups(s, def, masks);
    for (uint32_t g = 0; g < s->groups; g++)
        if (!ecs_oset_init(&s->lists[g], ctx->capacity)) {
            s->groups = g + 1u; /* the one that failed is left empty: fini is fine */
            lists_fini(s);
            return ECS_ERR_NOMEM;
        }
    if (!populate(ctx, s)) {
        lists_fini(s);
        return ECS_ERR_NOMEM;
    }
    s->generation++;
    s->live = true;
    *out = (ecs_query){index, s->generation};
    return ECS_OK;
}

ecs_status ecs_query_destroy(ecs_context *ctx, ecs_query q)
{
    ecs_status st = ecs__check_between_steps(ctx, "ecs_query_destroy");
    if (st != ECS_OK) return st;
    ecs_qry *s = query_arg(ctx, q, "ecs_query_destroy");
    if (!s) return ECS_ERR_MISUSE;
    lists_fini(s);
    s->live = false;
    return ECS_OK;
}

uint32_t ecs_query_count(const ecs_context *ctx, ecs_query q)
{
    const ecs_qry *s = query_arg(ctx, q, "ecs_query_count");
    return s ? match_count(s) : 0u;
}

/* ---- the refresh ---------------------------------------------------------- */

bool ecs__queries_grow(ecs_context *ctx, uint32_t capacity)
{
    for (uint32_t i = 0; i < ctx->query_slots; i++) {
        ecs_qry *s = ctx->queries[i];
        for (uint32_t g = 0; s->live && g < s->groups; g++)
            if (!ecs_oset_grow(&s->lists[g], capacity)) return false;
    }
    return true;
}

bool ecs__queries_reserve(ecs_context *ctx, uint32_t kills)
{
    bool scratch = false;
    for (uint32_t i = 0; i < ctx->query_slots; i++) {
        ecs_qry *s = ctx->queries[i];
        for (uint32_t g = 0; s->live && g < s->groups; g++) {
            if (!ecs__list_reserve(ctx, &s->lists[g], kills)) return false;
            scratch = scratch || ecs__list_few_changes(ctx, &s->lists[g]);
        }
    }
    return !scratch || ecs_reserve((void **)&ctx->query_scratch, &ctx->query_scratch_cap,
                                   2u * (size_t)ctx->batch_match.count, sizeof(uint32_t)) == 0;
}

void ecs__queries_match(ecs_context *ctx)
{
    for (uint32_t i = 0; i < ctx->query_slots; i++) {
        ecs_qry *s = ctx->queries[i];
        for (uint32_t g = 0; s->live && g < s->groups; g++)
            ecs__list_match(ctx, &s->lists[g], s->terms[g], ctx->query_scratch);
    }
}

void ecs__queries_fini(ecs_context *ctx)
{
    for (uint32_t i = 0; i < ctx->query_slots; i++) {
        lists_fini(ctx->queries[i]);
        ecs_free(ctx->queries[i]);
    }
    ecs_free(ctx->queries);
    ecs_free(ctx->query_scratch);
}

/* ---- iteration ------------------------------------------------------------ */

/* An iterator over matches [begin, end) of the groups taken in order;
 * before its first run it holds the components of all (every run does). */
static ecs_query_iter iter_over(ecs_context *ctx, const ecs_qry *s, uint32_t begin, uint32_t end)
{
    return (ecs_query_iter){
        .ranges = 1u, .ctx = ctx, .q_ = s, .has_ = s ? s->all : 0u, .at_ = begin, .end_ = end};
}

ecs_query_iter ecs_query_iter_begin(ecs_context *ctx, ecs_query q)
{
    if (ecs__check_between_steps(ctx, "ecs_query_iter_begin") != ECS_OK)
        return iter_over(ctx, NULL, 0u, 0u);
    const ecs_qry *s = query_arg(ctx, q, "ecs_query_iter_begin");
    return iter_over(ctx, s, 0u, s ? match_count(s) : 0u);
}

bool ecs_query_next(ecs_query_iter *it)
{
    const ecs_qry *s = it->q_;
    while (it->at_ < it->end_) {
        const ecs_oset *list = &s->lists[it->group_];
        uint32_t p = it->at_ - it->group_start_; /* position in the group's list */
        if (p >= list->count) {
            it->group_start_ += list->count;
            it->group_++;
            continue;
        }
        uint32_t left = list->count - p < it->end_ - it->at_ ? list->count - p : it->end_ - it->at_;
        it->first = list->dense[p];
        it->count = ecs_run_length(list->dense + p, left);
        it->has_ = s->has[it->group_];
        it->at_ += it->count;
        return true;
    }
    it->count = 0;
    return false;
}

/* Whether the component is one of the query's all or optional terms;
 * else a misuse naming fn. */
static bool term_arg(const ecs_query_iter *it, uint32_t component, const char *fn)
{
    if (!it->q_) return false; /* a misused begin: already recorded */
    if (!ecs__component_arg(it->ctx, component, fn)) return false;
    if (__builtin_expect(it->q_->known >> component & 1u, 1)) return true;
    ecs__misuse(it->ctx, "%s: component '%s' is not among the query's all and optional terms", fn,
                ecs__comp_name(it->ctx, component));
    return false;
}

void *ecs_query_column(const ecs_query_iter *it, uint32_t component, size_t *stride)
{
    void *base = NULL;
    if (term_arg(it, component, "ecs_query_column") && (it->has_ >> component & 1u))
        base = ecs_column(it->ctx, component);
    if (stride) *stride = base ? ecs_column_stride(it->ctx, component) : 0u;
    return base;
}

bool ecs_query_has(const ecs_query_iter *it, uint32_t component)
{
    return term_arg(it, component, "ecs_query_has") && (it->has_ >> component & 1u);
}

/* ---- on the pool ---------------------------------------------------------- */

typedef struct query_ranges {
    ecs_context *ctx;
    const ecs_qry *s;
    ecs_query_fn fn;
    void *user;
} query_ranges;

static void query_range(void *user, uint32_t begin, uint32_t end, uint32_t range, uint32_t ranges)
{
    const query_ranges *r = user;
    ecs_query_iter it = iter_over(r->ctx, r->s, begin, end);
    it.range = range;
    it.ranges = ranges;
    r->fn(&it, r->user);
}

ecs_status ecs_query_parallel(ecs_context *ctx, ecs_query q, uint32_t min_per_range,
                              ecs_query_fn fn, void *user)
{
    ecs_status st = ecs__check_between_steps(ctx, "ecs_query_parallel");
    if (st != ECS_OK) return st;
    const ecs_qry *s = query_arg(ctx, q, "ecs_query_parallel");
    if (!s) return ECS_ERR_MISUSE;
    if (!fn) return ECS_ERR_INVALID;
    query_ranges r = {ctx, s, fn, user};
    return ecs__parallel_for(ctx, "ecs_query_parallel", match_count(s), min_per_range, query_range,
                             &r);
}
