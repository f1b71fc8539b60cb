/* refresh.c - the stage after each step that applies structural changes,
 * always in the same order whatever the worker count:
 *   1. deferred commands, in (system, subtask, recording) order;
 *   2. kill marks, in the same order;
 *   3. matching: every created, changed or killed entity is subscribed to
 *      or unsubscribed from each system (systems in parallel when the
 *      batch is large), then callbacks run in system order; the queries'
 *      lists follow (query.c), the same way;
 *   4. killed indices are reclaimed: on_reclaim gets each dead handle,
 *      then the indices join the free set (ecs_create takes the lowest).
 * Steps 3 and 4 work on a snapshot of the pending sets and repeat until
 * nothing is pending, so callbacks may create, kill and change entities. */
#include "ecs_internal.h"

#include "alloc.h"

#include <assert.h>
#include <stddef.h>

#define PARALLEL_MATCH_MIN 8192u /* work units (see match_all) worth a fan-out */

static void keep_first_error(ecs_context *ctx, ecs_status st)
{
    if (st != ECS_OK && ctx->step_status == ECS_OK) ctx->step_status = st;
}

static void run_command(ecs_context *ctx, ecs_cmd *cmd)
{
    void *payload = ecs__cmd_payload(cmd);
    switch (cmd->kind) {
    case ECS_CMD_CREATE: {
        ecs_entity e;
        ecs_status st = ecs_create(ctx, &e);
        keep_first_error(ctx, st);
        if (st == ECS_OK && cmd->fn.init) cmd->fn.init(ctx, e, payload);
        break;
    }
    case ECS_CMD_ADD: /* stale handles are skipped: the entity died first */
        if (ecs__alive(ctx, cmd->entity)) /* NOMEM only for a sparse component */
            keep_first_error(ctx, ecs_add(ctx, cmd->entity, cmd->component,
                                          cmd->size ? payload : NULL));
        break;
    case ECS_CMD_REMOVE:
        if (ecs__alive(ctx, cmd->entity)) ecs_remove(ctx, cmd->entity, cmd->component);
        break;
    case ECS_CMD_CALL: cmd->fn.call(ctx, payload); break;
    default: assert(!"corrupt command buffer");
    }
}

/* Asks for the slots the kills will read and write before the first one
 * is applied. A frame's kills hit scattered entities whose slots the
 * systems' columns pushed out of this core's cache; one after the other,
 * each waited for its own miss. */
static void prefetch_kills(const ecs_context *ctx)
{
    for (uint32_t s = 0; s < ctx->system_count; s++) {
        const ecs_sys *sys = &ctx->systems[s];
        for (uint32_t i = 0; i < sys->subtask_count; i++) {
            const ecs_subtask_ *st = &sys->subtasks[i];
            for (size_t k = 0; k < st->kill_count; k++) {
                uint32_t index = st->kills[k].index;
                if (index >= ctx->high) continue;
                __builtin_prefetch(&ctx->generations[index], 0);
                __builtin_prefetch(&ctx->states[index], 1);
            }
        }
    }
}

/* Commands, then kills, each in (system, pass, subtask, recording) order:
 * pass p of subtask i recorded [marks[p], marks[p + 1]) of its buffers. */
static void run_deferred(ecs_context *ctx)
{
    for (uint32_t s = 0; s < ctx->system_count; s++) {
        ecs_sys *sys = &ctx->systems[s];
        for (uint32_t p = 0; p < sys->passes; p++) {
            for (uint32_t i = 0; i < sys->subtask_count; i++) {
                ecs_subtask_ *st = &sys->subtasks[i];
                size_t end = p + 1u < sys->passes ? st->marks[p + 1u].cmd : st->cmd_len;
                for (size_t at = st->marks[p].cmd; at < end;) {
                    ecs_cmd *cmd = (ecs_cmd *)(st->cmds + at);
                    at += ecs__cmd_bytes(cmd->size);
                    run_command(ctx, cmd);
                }
            }
        }
        for (uint32_t i = 0; i < sys->subtask_count; i++) {
            ecs_subtask_ *st = &sys->subtasks[i];
            st->cmd_len = 0;
        }
    }
    prefetch_kills(ctx);
    for (uint32_t s = 0; s < ctx->system_count; s++) {
        ecs_sys *sys = &ctx->systems[s];
        for (uint32_t p = 0; p < sys->passes; p++) {
            for (uint32_t i = 0; i < sys->subtask_count; i++) {
                ecs_subtask_ *st = &sys->subtasks[i];
                size_t end = p + 1u < sys->passes ? st->marks[p + 1u].kill : st->kill_count;
                for (size_t k = st->marks[p].kill; k < end; k++)
                    if (ecs__alive(ctx, st->kills[k])) ecs_kill(ctx, st->kills[k]);
            }
        }
        for (uint32_t i = 0; i < sys->subtask_count; i++) sys->subtasks[i].kill_count = 0;
    }
}

/* Whether an entity with this mask belongs in a list of these terms. */
static bool wants_mask(ecs_terms t, uint64_t mask)
{
    return t.all != 0 && (mask & t.all) == t.all && (mask & t.none) == 0;
}

static bool wants(const ecs_context *ctx, ecs_terms t, uint32_t index)
{
    return ctx->states[index] == ECS_SLOT_ALIVE && wants_mask(t, ctx->masks[index]);
}

static ecs_terms sys_terms(const ecs_sys *sys) { return (ecs_terms){sys->required, 0}; }

/* ---- classes -------------------------------------------------------------
 * Systems whose subscriptions hold the same entities share one list: its
 * class's, kept by the class's first system (the leader), so a refresh
 * matches, drops and compacts it once, not once per system (the particle
 * simulation's nine systems all subscribe every particle). Two systems
 * agree on an entity when its mask satisfies both or neither; a class
 * holds systems that agree on the mask of every entity refreshed so far,
 * so their lists are equal. Each refresh round checks the masks of its
 * live entities before matching and splits a class whose systems tell one
 * apart: those that disagree with the leader leave together, the first of
 * them taking a copy of the list. Classes never merge again. A system
 * with callbacks or no required component leads a class of its own. */

static bool shareable(const ecs_sys *sys)
{
    return sys->required != 0 && !sys->def.on_subscribe && !sys->def.on_unsubscribe;
}

static void lead(ecs_sys *sys)
{
    sys->leader = sys->id;
    sys->subs = &sys->own;
}

static void follow(ecs_sys *sys, ecs_sys *leader)
{
    sys->leader = leader->id;
    sys->subs = &leader->own;
}

void ecs__classes_init(ecs_context *ctx)
{
    ecs_sys *first = NULL;
    for (uint32_t s = 0; s < ctx->system_count; s++) {
        ecs_sys *sys = &ctx->systems[s];
        if (!shareable(sys)) lead(sys);
        else if (!first) lead(first = sys);
        else follow(sys, first);
    }
}

static bool leads(const ecs_sys *sys) { return sys->leader == sys->id; }

/* Splits the classes that the mask tells apart (see above), leader by
 * leader: its members come after it, and a class formed here agrees on
 * the mask, so when the loop reaches its new leader nothing moves. */
static bool split_by(ecs_context *ctx, uint64_t mask)
{
    for (uint32_t l = 0; l < ctx->system_count; l++) {
        ecs_sys *leader = &ctx->systems[l], *to = NULL;
        if (!leads(leader)) continue;
        bool want = wants_mask(sys_terms(leader), mask);
        for (uint32_t s = l + 1u; s < ctx->system_count; s++) {
            ecs_sys *sys = &ctx->systems[s];
            if (sys->leader != l || wants_mask(sys_terms(sys), mask) == want) continue;
            if (to) {
                follow(sys, to);
            } else { /* the first to leave leads the others */
                if (!ecs_oset_copy(&sys->own, leader->subs)) return false; /* still a follower */
                lead(to = sys);
            }
        }
    }
    return true;
}

/* Before matching: every mask of the batch's live entities against the
 * classes (consecutive entities mostly share one mask: checked once). */
static bool split_classes(ecs_context *ctx)
{
    uint32_t id;
    bool any = false;
    uint64_t last = 0;
    for (ecs_sset_cursor c = ecs_sset_first(&ctx->batch_match); ecs_sset_next(&c, &id);) {
        if (ctx->states[id] != ECS_SLOT_ALIVE) continue; /* leaving every list */
        uint64_t mask = ctx->masks[id];
        if (any && mask == last) continue;
        any = true;
        last = mask;
        if (!split_by(ctx, mask)) return false;
    }
    return true;
}

/* Few changes against a large subscription go by block moves, which need
 * the lists of who leaves and who joins (see ecs_oset_apply), and so do
 * callbacks; otherwise the changes are applied as they are found. */
bool ecs__list_few_changes(const ecs_context *ctx, const ecs_oset *set)
{
    return (uint64_t)ctx->batch_match.count * 16u < set->count;
}

static bool needs_lists(const ecs_context *ctx, const ecs_sys *sys)
{
    return sys->def.on_subscribe || sys->def.on_unsubscribe || ecs__list_few_changes(ctx, sys->subs);
}

/* Splits the batch into who leaves set and who joins it, ascending. */
static void find_changes(ecs_context *ctx, const ecs_oset *set, ecs_terms t, uint32_t *removed,
                         uint32_t *added, uint32_t *nremoved, uint32_t *nadded)
{
    uint32_t nr = 0, na = 0, id;
    for (ecs_sset_cursor c = ecs_sset_first(&ctx->batch_match); ecs_sset_next(&c, &id);) {
        bool member = ecs_oset_contains(set, id);
        bool want = wants(ctx, t, id);
        if (member && !want) removed[nr++] = id;
        else if (!member && want) added[na++] = id;
    }
    *nremoved = nr;
    *nadded = na;
}

static void find_lists(ecs_context *ctx, ecs_sys *sys)
{
    find_changes(ctx, sys->subs, sys_terms(sys), sys->removed, sys->added, &sys->removed_count,
                 &sys->added_count);
}

/* The lists, then the subscription updated keeping it ascending. */
static void match_by_lists(ecs_context *ctx, ecs_sys *sys)
{
    find_lists(ctx, sys);
    ecs_oset_apply(sys->subs, sys->removed, sys->removed_count, sys->added, sys->added_count);
}

/* The same without lists: one pass over the batch drops who leaves and
 * counts who joins, one over dense compacts it, and one back over the
 * batch merges the newcomers in from the top. A large batch (a bulk
 * create or kill) touches no scratch memory. */
static void match_by_sweep(ecs_context *ctx, ecs_oset *subs, ecs_terms t)
{
    uint32_t nr = 0, na = 0, id;
    for (ecs_sset_cursor c = ecs_sset_first(&ctx->batch_match); ecs_sset_next(&c, &id);) {
        bool member = ecs_oset_contains(subs, id), want = wants(ctx, t, id);
        if (member && !want) {
            ecs_oset_drop(subs, id);
            nr++;
        } else if (!member && want) {
            na++;
        }
    }
    if (nr) ecs_oset_compact(subs, nr);
    if (na) {
        ecs_oset_merge m = ecs_oset_merge_begin(subs, na);
        for (ecs_sset_cursor c = ecs_sset_last(&ctx->batch_match); ecs_sset_prev(&c, &id);)
            if (wants(ctx, t, id) && !ecs_oset_contains(subs, id)) ecs_oset_merge_add(&m, id);
        ecs_oset_merge_end(&m);
    }
}

void ecs__list_match(ecs_context *ctx, ecs_oset *set, ecs_terms terms, uint32_t *scratch)
{
    if (!scratch || !ecs__list_few_changes(ctx, set)) {
        match_by_sweep(ctx, set, terms);
        return;
    }
    uint32_t nr, na, *removed = scratch, *added = scratch + ctx->batch_match.count;
    find_changes(ctx, set, terms, removed, added, &nr, &na);
    ecs_oset_apply(set, removed, nr, added, na);
}

/* Touches only sys (and reads the batch and the entity slots); a system
 * that follows a leader has nothing of its own to change. */
static void match_system(ecs_context *ctx, ecs_sys *sys)
{
    if (leads(sys) && needs_lists(ctx, sys)) {
        match_by_lists(ctx, sys);
        return;
    }
    if (leads(sys)) match_by_sweep(ctx, sys->subs, sys_terms(sys));
    sys->removed_count = sys->added_count = 0;
}

static void match_job(ecs_job *job)
{
    ecs_sys *sys = (ecs_sys *)(void *)((char *)job - offsetof(ecs_sys, match_job));
    match_system(sys->ctx, sys);
    if (atomic_fetch_sub(&sys->ctx->pending_matches, 1) == 1)
        ecs_pool_notify(sys->ctx->pool, &sys->ctx->pending_matches);
}

/* A list's room: for all of the batch but the `kills` killed joining
 * (growing by doubling). */
bool ecs__list_reserve(const ecs_context *ctx, ecs_oset *set, uint32_t kills)
{
    uint32_t n = ctx->batch_match.count;
    uint64_t room = (uint64_t)set->count + (n - (kills < n ? kills : n));
    return ecs_oset_reserve(set, room < set->universe ? (uint32_t)room : set->universe);
}

/* Room for the batch: each class's list (once per class) and the queries'
 * lists, and the lists of who leaves and joins. */
static bool reserve_scratch(ecs_context *ctx, uint32_t kills)
{
    size_t n = ctx->batch_match.count;
    for (uint32_t s = 0; s < ctx->system_count; s++) {
        ecs_sys *sys = &ctx->systems[s];
        if (!leads(sys)) continue;
        if (!ecs__list_reserve(ctx, sys->subs, kills)) return false;
        if (!needs_lists(ctx, sys)) continue;
        if (ecs_reserve((void **)&sys->removed, &sys->removed_cap, n, sizeof(uint32_t)) ||
            ecs_reserve((void **)&sys->added, &sys->added_cap, n, sizeof(uint32_t)))
            return false;
    }
    return ecs__queries_reserve(ctx, kills);
}

/* Subscribed entries, over all systems, from which a small batch goes by
 * ranges (see match_by_ranges) when there are workers to share it: each
 * thread then searches its own part of the lists, which pays once the
 * lists are long enough that the searches cost more than waking the
 * threads. Systems sharing one list count it once. */
#define RANGED_MATCH_MIN 16384u

static bool ranged_pays(const ecs_context *ctx)
{
    if (ctx->workers < 2 || ctx->batch_match.count == 0) return false;
    uint64_t total = 0;
    for (uint32_t s = 0; s < ctx->system_count; s++) {
        const ecs_sys *sys = &ctx->systems[s];
        if (!leads(sys)) continue;
        if (!needs_lists(ctx, sys)) return false; /* a large batch: match_by_sweep */
        total += sys->subs->count;
    }
    return total >= RANGED_MATCH_MIN;
}

/* A small batch against large lists (the deaths of a frame): the lists of
 * who leaves and joins come from the batch alone, system by system; the
 * subscriptions then close their gaps split by range over the workers
 * (compact.c), each worker the share its subtasks read; the newcomers are
 * merged in last. Same subscriptions as match_by_lists. */
static void match_by_ranges(ecs_context *ctx)
{
    for (uint32_t s = 0; s < ctx->system_count; s++) {
        ecs_sys *sys = &ctx->systems[s];
        if (!leads(sys)) {
            sys->removed_count = sys->added_count = 0;
            continue;
        }
        find_lists(ctx, sys);
        for (uint32_t k = 0; k < sys->removed_count; k++) ecs_oset_drop(sys->subs, sys->removed[k]);
    }
    if (!ecs__compact_removals(ctx)) /* out of memory: the same, system by system */
        for (uint32_t s = 0; s < ctx->system_count; s++)
            if (ctx->systems[s].removed_count)
                ecs_oset_compact(ctx->systems[s].subs, ctx->systems[s].removed_count);
    for (uint32_t s = 0; s < ctx->system_count; s++) {
        ecs_sys *sys = &ctx->systems[s];
        if (sys->added_count) ecs_oset_apply(sys->subs, NULL, 0, sys->added, sys->added_count);
    }
}

static void match_all(ecs_context *ctx)
{
    uint32_t n = ctx->batch_match.count, systems = ctx->system_count, lists = 0;
    /* Work: a membership test per changed entity and list, plus block
     * moves over up to every subscribed entity (cheaper per element). */
    uint64_t work = 0;
    for (uint32_t s = 0; s < systems; s++) {
        if (!leads(&ctx->systems[s])) continue;
        lists++;
        work += n + ctx->systems[s].subs->count / 4u;
    }
    if (ranged_pays(ctx)) {
        match_by_ranges(ctx);
    } else if (ctx->workers > 1 && lists > 1 && n > 0 && work >= PARALLEL_MATCH_MIN) {
        /* One job per system; those that follow a leader return at once. */
        atomic_store(&ctx->pending_matches, systems);
        for (uint32_t s = 0; s < systems; s++) ctx->systems[s].match_job.run = match_job;
        ecs__push_jobs(ctx, "ecs_refresh", &ctx->systems[1].match_job, sizeof(ecs_sys),
                       systems - 1u, UINT32_MAX);
        match_job(&ctx->systems[0].match_job);
        ecs_pool_wait(ctx->pool, &ctx->pending_matches);
    } else {
        for (uint32_t s = 0; s < systems; s++) match_system(ctx, &ctx->systems[s]);
    }
    for (uint32_t s = 0; s < systems; s++) {
        ecs_sys *sys = &ctx->systems[s];
        ecs_entity_fn unsub = sys->def.on_unsubscribe, sub = sys->def.on_subscribe;
        for (uint32_t k = 0; unsub && k < sys->removed_count; k++) {
            uint32_t id = sys->removed[k];
            unsub(ctx, (ecs_entity){id, ctx->generations[id]}, sys->def.user);
        }
        for (uint32_t k = 0; sub && k < sys->added_count; k++) {
            uint32_t id = sys->added[k];
            sub(ctx, (ecs_entity){id, ctx->generations[id]}, sys->def.user);
        }
    }
}

static bool is_ascending(const ecs_sset *s)
{
    for (uint32_t i = 1; i < s->count; i++)
        if (s->dense[i - 1] > s->dense[i]) return false;
    return true;
}

/* The batch's indices become free only after every on_reclaim call of the
 * batch: an entity a callback creates cannot take an index whose dead
 * handle is still to be reported, so no callback sees a live handle.
 * The batch holds every index this round reclaims, marked RECLAIM when
 * the round began; none of them is FREE before the first loop, and no
 * callback can make one FREE (or take it) before the last. Ascending.
 * A free slot's mask is never read (creating sets it): left as it is. */
static void reclaim(ecs_context *ctx)
{
    const ecs_sset *batch = &ctx->batch_match;
    uint32_t id;
    if (!ctx->on_reclaim) { /* nobody to tell: free them as they come */
        for (ecs_sset_cursor c = ecs_sset_first(batch); ecs_sset_next(&c, &id);) {
            if (ctx->states[id] != ECS_SLOT_RECLAIM) continue;
            ecs__release_index(ctx, id);
        }
        return;
    }
    for (ecs_sset_cursor c = ecs_sset_first(batch); ecs_sset_next(&c, &id);)
        if (ctx->states[id] == ECS_SLOT_RECLAIM) ctx->states[id] = ECS_SLOT_FREE;
    for (ecs_sset_cursor c = ecs_sset_first(batch); ecs_sset_next(&c, &id);)
        if (ctx->states[id] == ECS_SLOT_FREE)
            ctx->on_reclaim(ctx, (ecs_entity){id, ctx->generations[id]}, ctx->user);
    for (ecs_sset_cursor c = ecs_sset_first(batch); ecs_sset_next(&c, &id);)
        if (ctx->states[id] == ECS_SLOT_FREE) ecs__release_index(ctx, id);
}

/* The batch's dying indices, marked when the round begins: one a callback
 * kills during the round stays DYING, for the next round, after it is
 * unsubscribed. */
static void mark_kills(ecs_context *ctx)
{
    uint32_t id;
    for (ecs_sset_cursor c = ecs_sset_first(&ctx->batch_match); ecs_sset_next(&c, &id);)
        if (ctx->states[id] == ECS_SLOT_DYING) ctx->states[id] = ECS_SLOT_RECLAIM;
}

static void swap_sets(ecs_sset *a, ecs_sset *b)
{
    ecs_sset t = *a;
    *a = *b;
    *b = t;
}

void ecs__refresh(ecs_context *ctx, bool with_deferred)
{
    ctx->refreshing = true;
    if (with_deferred) run_deferred(ctx);
    while (ctx->to_match.count) {
        /* Every killed index is in to_match: it gets unsubscribed in the
         * same round that reclaims it. */
        swap_sets(&ctx->to_match, &ctx->batch_match);
        uint32_t kills = ctx->kills_pending; /* none: nothing to mark or reclaim */
        ctx->kills_pending = 0;
        /* Listed: sorted here; spilled: walked in the bitmap, ascending. */
        if (ecs_sset_listed(&ctx->batch_match) && !is_ascending(&ctx->batch_match))
            ecs_sset_sort(&ctx->batch_match);
        /* Classes first: a system that now leads needs scratch too. A split
         * cut short by memory leaves valid classes (a list copied whole or
         * not at all), matched on the next refresh. */
        if (!split_classes(ctx) || !reserve_scratch(ctx, kills)) {
            /* Nothing changed yet: hand the batch back for the next refresh. */
            swap_sets(&ctx->to_match, &ctx->batch_match);
            ctx->kills_pending = kills;
            keep_first_error(ctx, ECS_ERR_NOMEM);
            break;
        }
        if (kills) mark_kills(ctx);
        match_all(ctx);
        ecs__queries_match(ctx);
        if (kills) reclaim(ctx);
        ecs_sset_clear(&ctx->batch_match);
    }
    ctx->refreshing = false;
}

void ecs_refresh(ecs_context *ctx)
{
    if (ecs__check_between_steps(ctx, "ecs_refresh") != ECS_OK) return;
    ecs__refresh(ctx, false);
}
