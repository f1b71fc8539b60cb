/* ecs_internal.h - the context's layout, shared by the module's .c files
 * and nothing else. The module is built with gcc and clang only (those CI
 * builds, mingw-w64's gcc among them), so it uses their builtins and
 * attributes (__builtin_expect, __builtin_ctzll, format) as they are. */
#ifndef ECS_INTERNAL_H
#define ECS_INTERNAL_H

#include "ecs.h"
#include "pool.h"
#include "sorted_set.h"
#include "sparse_set.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h> /* mingw-w64: __MINGW_PRINTF_FORMAT */

/* printf-style checking of a message's format and arguments; with mingw-w64
 * against its C99 printf (__USE_MINGW_ANSI_STDIO), not msvcrt's. */
#if defined(__MINGW_PRINTF_FORMAT)
#define ECS__PRINTF(f, a) __attribute__((format(__MINGW_PRINTF_FORMAT, f, a)))
#else
#define ECS__PRINTF(f, a) __attribute__((format(printf, f, a)))
#endif

/* Entity slot states. A killed entity stays DYING, still subscribed and
 * with its data, until the refresh reclaims it; RECLAIM marks the dying
 * ones of the batch a refresh round works on (one killed by a callback
 * during the round stays DYING, for the next round). */
enum {
    ECS_SLOT_FREE = 0,
    ECS_SLOT_ALIVE = 1,
    ECS_SLOT_DYING = 2,
    ECS_SLOT_RECLAIM = 3,
    /* Reclaimed with the last generation: never handed out again, so no
     * handle can alias an older one (ecs__release_index). */
    ECS_SLOT_RETIRED = 4
};

/* Deferred command kinds, recorded per subtask. */
enum { ECS_CMD_CREATE = 1, ECS_CMD_ADD, ECS_CMD_REMOVE, ECS_CMD_CALL };

/* One recorded command; a payload of `size` bytes follows, padded so the
 * next header stays aligned for any type. */
typedef struct ecs_cmd {
    uint32_t kind;
    uint32_t component;
    ecs_entity entity;
    size_t size;
    union {
        ecs_entity_fn init;
        ecs_deferred_fn call;
    } fn;
} ecs_cmd;

#define ECS_CMD_ALIGN _Alignof(max_align_t)

static inline size_t ecs__cmd_padded(size_t n)
{
    return (n + ECS_CMD_ALIGN - 1) / ECS_CMD_ALIGN * ECS_CMD_ALIGN;
}

/* Bytes a command with a payload of size bytes takes in the buffer. */
static inline size_t ecs__cmd_bytes(size_t size)
{
    return ecs__cmd_padded(sizeof(ecs_cmd)) + ecs__cmd_padded(size);
}

static inline void *ecs__cmd_payload(ecs_cmd *cmd)
{
    return (unsigned char *)cmd + ecs__cmd_padded(sizeof(ecs_cmd));
}

typedef struct ecs_marks {
    size_t out, cmd, kill;
} ecs_marks;

/* When and where one pass of a subtask (or a finish callback) ran, for the
 * timeline (timeline.c): written by the thread that ran it. */
typedef struct ecs_stamp {
    uint64_t start_ns, end_ns;
    uint32_t worker;
    uint32_t kept, taken; /* claim items run: its own, taken from others */
} ecs_stamp;

/* What a kept list (a class's subscription, a query's group) holds: the
 * live entities whose mask has every bit of all and none of none; none
 * when all is empty. A system's: its components, nothing excluded. */
typedef struct ecs_terms {
    uint64_t all, none;
} ecs_terms;

/* Cache-line aligned: neighbouring subtasks run on different threads and
 * each writes its own counters. */
typedef struct ecs_subtask_ {
    _Alignas(64) ecs_job job; /* runs this subtask */
    struct ecs_sys *sys;
    uint32_t index;
    uint32_t begin, end; /* range of the system's subscribed entities */
    /* Scratch kept across steps so a warm step allocates nothing. */
    unsigned char *out;
    size_t out_count, out_cap; /* elements */
    unsigned char *cmds;
    size_t cmd_len, cmd_cap; /* bytes */
    ecs_entity *kills;
    size_t kill_count, kill_cap;
    /* Its first failure of the step (failure.c) and the pass it came in:
     * ecs_iter_fail, or no memory for a record. */
    ecs_status fail;
    uint32_t fail_pass;
    /* Where each pass began in out, cmds and kills: pass p recorded
     * [mark[p], mark[p + 1]) (the last pass up to the count), so the
     * replay can go pass by pass across subtasks. */
    ecs_marks marks[ECS_MAX_PASSES];
    ecs_stamp stamps[ECS_MAX_PASSES];
    uint64_t dealt; /* what the prepare dealt (claim.c): end << 32 | first */
    uint32_t kept, taken; /* claim items of the pass running: its own, others' */
    /* The claim (claim.c): end << 32 | front of the items left, on a line
     * of its own, since other subtasks take from it. */
    _Alignas(64) _Atomic uint64_t claim;
} ecs_subtask_;

typedef struct ecs_sys {
    ecs_job start_job; /* launches this system when queued as a ready dependent */
    ecs_context *ctx;
    uint32_t id;
    ecs_system_def def; /* reads/writes/after point into ids below */
    uint32_t *ids;      /* owned copy of reads, writes and after */
    uint64_t read_mask, write_mask, required;
    uint64_t res_read_mask, res_write_mask; /* resources, as declared */
    uint32_t *dependents;
    uint32_t dependent_count;
    atomic_uint pending_deps;
    atomic_uint pending_subtasks;
    /* Subscribed entity indices, ascending: `subs` points to the list of
     * the system's class, kept by its leader (refresh.c, "classes"); own
     * is that list when the system leads, else unused. */
    ecs_oset own;
    ecs_oset *subs;
    uint32_t leader; /* the class's first system: itself when it leads */
    ecs_subtask_ *subtasks;
    /* Subtasks of this step (or the last); 0 when the system does not
     * run in it (ecs.h, "Which systems run"), at least 1 when it does. */
    uint32_t subtask_count, subtask_cap;
    uint32_t planned; /* subtask_count of the step being laid out (schedule.c) */
    uint32_t pass, passes; /* the pass running (or last run); passes per step, >= 1 */
    bool dealt;   /* its prepare dealt claims this step (claim.c) */
    bool enabled; /* ecs_system_enable */
    bool chosen;  /* listed for this step by ecs_step_systems (ctx->subset) */
    /* The first failure of its prepare and finish callbacks this step,
     * and where it ran among the system's work (failure.c). */
    ecs_status fail;
    uint64_t fail_at;
    /* Refresh scratch: who leaves and who joins, ascending. */
    uint32_t *removed, *added;
    uint32_t removed_count, added_count;
    size_t removed_cap, added_cap;
    ecs_job match_job;
    /* Stats of the last step. */
    uint64_t start_ns, end_ns;
    ecs_stamp finish_stamps[ECS_MAX_PASSES];
} ecs_sys;

/* A sparse component's values (storage.c): a paged sparse set. pages[p]
 * maps the indices [p * ECS_SPARSE_PAGE, (p + 1) * ECS_SPARSE_PAGE) to
 * their value's slot + 1 (0: none), a page made when an index of it first
 * gets a value; the values are dense, owners[k] the index of slot k. */
#define ECS_SPARSE_PAGE 1024u
typedef struct ecs_sparse {
    uint32_t **pages;
    uint32_t page_count;
    unsigned char *values;
    uint32_t *owners;
    uint32_t count, cap;
    size_t size, align;
} ecs_sparse;

/* An interleaved group's buffer (storage.c): capacity elements of size
 * bytes; each member's column points into it at the member's offset. */
typedef struct ecs_group {
    unsigned char *data;
    size_t size, align;
} ecs_group;

typedef struct ecs_compact ecs_compact; /* compact.c */
/* One thread's marks and stack for path searches (context.c). */
typedef struct ecs_reach {
    uint32_t *mark, *stack, stamp;
} ecs_reach;
typedef struct ecs_range_job ecs_range_job; /* parallel.c */
typedef struct ecs_qry ecs_qry;             /* query.c */

/* One worker's time in balanced subtasks this step (balance.c); written
 * by that worker only, read by the owner once the step's systems are done. */
typedef struct ecs_meter {
    _Alignas(64) uint64_t ns;
    uint64_t entities;
} ecs_meter;

struct ecs_context {
    ecs_component_def *components;
    uint32_t component_count;
    /* Entity index i's value of component c is at columns[c] + i *
     * strides[c] (a column or a group member); columns[c] is NULL for a
     * tag and for a sparse component, whose values sparse[c] holds. */
    unsigned char **columns;
    size_t *strides;
    size_t *offsets;    /* a group member's offset in its element */
    uint32_t *group_of; /* its group, UINT32_MAX for none */
    ecs_group *groups;
    uint32_t group_count;
    ecs_sparse *sparse;
    uint64_t sparse_mask;
    /* Buffers that growth replaced while held (ecs__hold_frees): freed
     * by ecs__release_held, so a copy that reads the context's own
     * values (ecs_create_bulk cloning entities) finishes first. */
    void **held;
    uint32_t held_count, held_cap;
    bool holding;
    ecs_sys *systems;
    uint32_t system_count;
    ecs_resource_def *resources;
    uint32_t resource_count;
    void **resource_data; /* each resource's allocation or owner pointer */
    uint32_t *roots; /* systems with no dependency, in id order */
    uint32_t root_count;
    uint32_t *pos;   /* each system's place in order */
    uint32_t split_cap; /* most PER_WORKER subtasks: processors, or no cap */
    ecs_reach *reach; /* per pool thread: scratch of ecs__runs_before */
    uint32_t reach_count;
    uint32_t *order; /* every system after its dependencies (validate.c) */

    ecs_storage storage;
    uint32_t limit;    /* largest entity count allowed */
    uint32_t capacity; /* slots allocated */
    uint32_t high;     /* slots ever handed out: [0, high) */
    uint32_t alive;
    uint64_t *masks;
    uint32_t *generations;
    uint8_t *states;
    /* Reclaimed indices, one bit each: ecs_create takes the lowest. No bit
     * is set in words below free_lo. */
    uint64_t *free_bits;
    uint32_t free_count, free_lo;
    ecs_sset to_match; /* created, changed or killed since the last refresh */
    uint32_t kills_pending; /* the killed ones among them */
    /* The batch a refresh round works on, swapped out of to_match so that
     * callbacks may change entities again (handled next round). */
    ecs_sset batch_match;
    bool refreshing; /* inside refresh: no reentrant step/refresh/destroy */
    bool stepping;   /* inside ecs_step, its callback included: no nested step or destroy */
    bool subset;     /* this step runs only the chosen systems (ecs_step_systems) */

    ecs_pool *pool;            /* max_workers threads, workers of them active */
    uint32_t workers, max_workers;
    bool inner_off;
    bool running; /* systems or ecs_parallel_for's ranges run: structural calls are forbidden */
    bool in_systems; /* the step's system phase: outputs are being written */
    atomic_uint pending_systems;
    uint32_t systems_run; /* systems that run in this step (or ran in the last) */
    atomic_uint pending_matches;
    ecs_compact *compact; /* max_workers, made on first use (compact.c) */
    /* The measured split (balance.c): max_workers meters, shares and
     * targets; cut (max_workers + 1, fixed point 2^32 = 1) holds where
     * each of the cut_workers ranges starts. */
    ecs_meter *meters;
    double *shares, *targets; /* applied, and measured (smoothed) */
    uint64_t *cut;
    uint32_t cut_workers;
    atomic_uint pending_compacts;
    ecs_range_job *range_jobs; /* max_workers: ecs_parallel_for's ranges (parallel.c) */
    atomic_uint pending_ranges;
    /* Queries (query.c): slots, each made once and kept (its generation
     * with it); the refresh matches their lists one after the other,
     * through scratch shared by them all. */
    ecs_qry **queries;
    uint32_t query_slots;
    uint32_t *query_scratch;
    size_t query_scratch_cap;
    ecs_status step_status; /* the refreshes' first failure this step */
    ecs_failure failure;    /* the step's first (failure.c); the step callback's while it runs */
    /* The first misuse detected (any thread): 0 none, 1 being written, 2
     * written; the message is read once the step's threads are done. */
    atomic_uint misuse;
    char misuse_message[256];
    /* Misuses detected since creation, kept or not: ecs_parallel_for
     * tells its own from one recorded before it. */
    atomic_uint misuse_count;
    ecs_entity_fn on_reclaim;
    void *user;
    /* The last step's timeline (timeline.c). */
    bool timeline_on, timeline_valid;
    uint64_t phase_start_ns, phase_end_ns;
    uint32_t timeline_workers;
    ecs_span *spans;
    size_t span_count, span_cap;
    ecs_sleep *sleeps;
    size_t sleep_count, sleep_cap;
    uint32_t sleeps_lost;
    ecs_pool_sleep *sleep_scratch; /* POOL_SLEEP_LOG + 1 */
    /* Each thread's CPU clock at the phase's start, then its CPU time in
     * the phase (one per pool thread); cpu_known: every active one read. */
    uint64_t *cpu_start, *cpu_ns;
    bool cpu_known;
};

/* Where part i of n of count entries starts: the even split of a system's
 * subtasks (schedule.c) when no measured cut applies (balance.c). */
static inline uint32_t ecs__share_start(uint32_t count, uint32_t i, uint32_t n)
{
    return (uint32_t)((uint64_t)count * i / n);
}

/* The measured split (balance.c). split_start is where range i of n of
 * a list of count entries starts: the measured cut when n is the worker
 * count it was made for, else the even split. update runs after each
 * step's systems, reset when the worker count or inner parallelism
 * changes. */
bool ecs__balance_init(ecs_context *ctx);
void ecs__balance_fini(ecs_context *ctx);
void ecs__balance_reset(ecs_context *ctx);
void ecs__balance_update(ecs_context *ctx);
uint32_t ecs__split_start(const ecs_context *ctx, uint32_t count, uint32_t i, uint32_t n);

/* Timeline (timeline.c): build runs after the system phase, before the
 * refresh (the subscribed lists still as the systems saw them). */
/* Reads the workers' CPU clocks as the system phase begins (timeline on). */
void ecs__timeline_begin(ecs_context *ctx);
void ecs__timeline_build(ecs_context *ctx);
void ecs__timeline_fini(ecs_context *ctx);

/* Resources (resource.c): allocated at build, freed at destroy. */
ecs_status ecs__resources_init(ecs_context *ctx, const ecs_config *cfg, ecs_error *err);
void ecs__resources_fini(ecs_context *ctx);

/* Storage (entity.c). */
bool ecs__grow(ecs_context *ctx, uint32_t capacity);
/* Storage kinds (storage.c): layout from the config at build; the
 * buffers' growth; the value slot of an index (its column's element, or
 * its sparse value, NULL when it has none); a sparse component's values
 * made ready for `more` new holders, then placed (never failing) and
 * dropped; every sparse value of a reclaimed index dropped. */
ecs_status ecs__storage_init(ecs_context *ctx, const ecs_config *cfg, ecs_error *err);
void ecs__storage_fini(ecs_context *ctx);
bool ecs__storage_grow(ecs_context *ctx, uint32_t capacity);
void *ecs__slot(const ecs_context *ctx, uint32_t index, uint32_t component);
bool ecs__sparse_reserve(ecs_context *ctx, ecs_sparse *sp, uint32_t more);
bool ecs__sparse_page(ecs_sparse *sp, uint32_t index);
void *ecs__sparse_put(ecs_sparse *sp, uint32_t index);
void ecs__sparse_drop(ecs_sparse *sp, uint32_t index);
void ecs__sparse_release(ecs_context *ctx, uint32_t index);
/* Frees a buffer growth replaced, or keeps it until ecs__release_held
 * while ecs__hold_frees is on. */
void ecs__drop(ecs_context *ctx, void *buffer);
void ecs__hold_frees(ecs_context *ctx);
void ecs__release_held(ecs_context *ctx);
/* A reclaimed index: into the free set, or retired (state RETIRED, never
 * handed out again) when its generation is the last one, UINT32_MAX. */
void ecs__release_index(ecs_context *ctx, uint32_t index);
/* ecs_parallel_for's jobs, one per possible worker (parallel.c). */
bool ecs__parallel_init(ecs_context *ctx);
void ecs__parallel_fini(ecs_context *ctx);
/* ecs_parallel_for, its misuses naming fn. */
ecs_status ecs__parallel_for(ecs_context *ctx, const char *fn, uint32_t n, uint32_t min_per_range,
                             ecs_range_fn range, void *user);
/* Queries (query.c): their lists follow the capacity, get room for a
 * refresh round's batch (false when out of memory), and are matched
 * against it after the systems' lists. */
bool ecs__queries_grow(ecs_context *ctx, uint32_t capacity);
bool ecs__queries_reserve(ecs_context *ctx, uint32_t kills);
void ecs__queries_match(ecs_context *ctx);
void ecs__queries_fini(ecs_context *ctx);
/* Scheduler (schedule.c). ecs__step runs a step whose arguments were
 * checked (ecs_step, ecs_step_systems with ctx->subset set). */
ecs_status ecs__step(ecs_context *ctx, ecs_step_fn fn, void *user);
void ecs__subtask_fini(ecs_subtask_ *st);
/* Failures (failure.c): a subtask's kept when it is its first; the
 * step's first, once its systems are done (ran: they did run), else
 * own, the ecs's; the result in ctx->failure and returned. */
void ecs__subtask_fail(ecs_subtask_ *st, ecs_status status);
ecs_status ecs__step_failure(ecs_context *ctx, bool ran, ecs_status own);
/* Claims (claim.c): every subtask's claim emptied as a step lays them
 * out; each pass's claims set back to what the prepare dealt. */
void ecs__claims_clear(ecs_sys *sys);
void ecs__claims_restore(ecs_sys *sys);
/* Refresh (refresh.c): with_deferred also runs what the systems recorded. */
/* Subscription classes (refresh.c): every system that can share a list
 * starts in one class; a refresh splits a class when an entity's mask
 * tells its systems apart. */
void ecs__classes_init(ecs_context *ctx);
void ecs__refresh(ecs_context *ctx, bool with_deferred);
/* One kept list against the round's batch (refresh.c): room in set for
 * the batch's newcomers (false when out of memory), then the matching,
 * by lists of who leaves and joins when the batch is small against the
 * list and scratch (room for the batch twice) is given, else by sweep. */
bool ecs__list_reserve(const ecs_context *ctx, ecs_oset *set, uint32_t kills);
bool ecs__list_few_changes(const ecs_context *ctx, const ecs_oset *set);
void ecs__list_match(ecs_context *ctx, ecs_oset *set, ecs_terms terms, uint32_t *scratch);
/* Removals split over the workers (compact.c): the systems' removed
 * lists are set and the leaving members' bits cleared; each list is
 * compacted and its count lowered. False (nothing done) with fewer than
 * two workers or when out of memory. */
bool ecs__compact_removals(ecs_context *ctx);
void ecs__compact_fini(ecs_context *ctx);
/* Validation (validate.c): fills order (n: every system after its
 * dependencies) on success. */
ecs_status ecs__validate(const ecs_config *cfg, uint32_t *order, ecs_error *err);
/* Whether a path of dependencies leads from system `from` to system `to`
 * (`from` finishes before `to` starts). Any thread of the pool, or the
 * owner (context.c). */
bool ecs__runs_before(const ecs_context *ctx, uint32_t from, uint32_t to);
/* Records a misuse of the API (any thread, at most one message kept per
 * step) and returns ECS_ERR_MISUSE. */
ecs_status ecs__misuse(ecs_context *ctx, const char *fmt, ...)
    ECS__PRINTF(2, 3);
/* ECS_ERR_MISUSE (recorded, naming fn) when a structural call comes while
 * systems run or inside ecs_refresh's matching; ECS_OK otherwise. */
static inline ecs_status ecs__check_structural(ecs_context *ctx, const char *fn)
{
    if (__builtin_expect(ctx->running, 0))
        return ecs__misuse(ctx, "%s called while systems run (use the ecs_iter_ deferred calls)",
                           fn);
    return ECS_OK;
}
/* ECS_ERR_MISUSE (recorded, naming fn) inside a step or a refresh. */
ecs_status ecs__check_between_steps(ecs_context *ctx, const char *fn);
/* Queues jobs 0 .. n - 1 of an array (ecs_pool_push_others), but `own`
 * when own < n. The pool refuses a push from a thread that is neither the
 * context's owner (the one that created it or last called ecs_step) nor
 * a pool worker: then this records a misuse naming fn and runs the jobs
 * on the calling thread, so the call still ends with its work done. */
void ecs__push_jobs(ecs_context *ctx, const char *fn, ecs_job *first, size_t stride, uint32_t n,
                    uint32_t own);
/* Names for messages: "(unnamed)" for a definition without one. */
static inline const char *ecs__sys_name(const ecs_sys *sys)
{
    return sys->def.name ? sys->def.name : "(unnamed)";
}
static inline const char *ecs__comp_name(const ecs_context *ctx, uint32_t component)
{
    const char *n = ctx->components[component].name;
    return n ? n : "(unnamed)";
}
/* The system with this id, or NULL after recording a misuse that names
 * fn and the id (context.c). One compare on the valid path. */
const ecs_sys *ecs__system_arg(const ecs_context *ctx, uint32_t system, const char *fn);
/* Whether the component id exists; else a misuse naming fn (context.c). */
bool ecs__component_arg(const ecs_context *ctx, uint32_t component, const char *fn);
/* Whether an out-pointer the call requires is there; else a misuse naming
 * fn, the parameter and, from a system's callback, the system (context.c). */
bool ecs__null_out(const ecs_context *ctx, const char *fn, const char *param);
static inline bool ecs__out_arg(const ecs_context *ctx, const void *out, const char *fn,
                                const char *param)
{
    return __builtin_expect(out != NULL, 1) || ecs__null_out(ctx, fn, param);
}

/* The system whose process or finish callback this thread is running
 * (schedule.c), so that calls taking only the context can tell who made
 * them; sys NULL outside such callbacks. */
typedef struct ecs_caller {
    const ecs_sys *sys;
    bool finishing; /* in its finish callback: every subtask of the pass is done */
    bool preparing; /* in its prepare callback: no subtask started yet */
} ecs_caller;
extern _Thread_local ecs_caller ecs__caller;
/* Messages (context.c): sets err->status and formats err->message. */
ecs_status ecs__fail(ecs_error *err, ecs_status status, const char *fmt, ...)
    ECS__PRINTF(3, 4);

static inline bool ecs__alive(const ecs_context *ctx, ecs_entity e)
{
    return e.index < ctx->high && ctx->states[e.index] == ECS_SLOT_ALIVE &&
           ctx->generations[e.index] == e.generation && e.generation != 0;
}

#endif
