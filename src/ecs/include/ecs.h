/* ecs.h - the entity-component-system module: the one public header.
 *
 * Components live in one contiguous buffer each (SoA), indexed by entity
 * index, unless declared interleaved in a group or sparse (see
 * ecs_component_def). Systems declare what they read and write and which systems must
 * run before them; the context builds the implicit DAG, validates it, and
 * runs it every step on a thread pool: independent chains concurrently
 * (outer parallelism), each system split into subtasks over contiguous
 * ranges of its subscribed entities (inner parallelism).
 *
 * Resources are the context's other data (a grid, a queue), declared
 * like components and read or written by systems under the same rules.
 *
 * Structural changes made by systems are recorded per subtask and applied
 * by the refresh stage after each step: first the commands (creates,
 * component adds and removes, user calls) in (system, pass, subtask,
 * recording) order, then the kill marks in the same order. Outputs are
 * read in (pass, subtask, recording) order too (ecs_output). The result
 * never depends on the number of workers.
 *
 * Threading: every function not prefixed ecs_iter_ must be called from the
 * thread that owns the context, outside ecs_step's system phase (the step
 * callback is fine), except where its comment allows system callbacks
 * (ecs_output, ecs_system_subtasks, ecs_system_pass, ecs_resource,
 * ecs_resource_read, ecs_subscribed, ecs_query_count, ecs_claim_deal,
 * ecs_step_fail). ecs_iter_ functions
 * are for process callbacks; ecs_query_next, _column and _has work on an
 * iterator, wherever it was handed out (see Queries).
 *
 * Misuse is checked in every build, release builds included (real checks,
 * not asserts), once per call and never per entity:
 *   - a structural call (create, kill, add, remove, their bulk forms,
 *     refresh, step, step_systems, system_enable, set_workers,
 *     set_inner_parallelism, parallel_for, context_destroy, the query
 *     calls but next, column, has and count) while systems or
 *     ecs_parallel_for's ranges run; from a refresh callback, the same
 *     but create, kill, add and remove; from a step callback, ecs_step,
 *     ecs_step_systems and ecs_context_destroy;
 *   - a system, component or resource id that does not exist, or a query
 *     handle that names no query, given to any call that takes one
 *     (ecs_add, ecs_remove and ecs_create_bulk return
 *     ECS_ERR_UNKNOWN_COMPONENT for it instead, as documented there);
 *   - ecs_query_column or ecs_query_has of a component not among the
 *     query's all and optional terms;
 *   - ecs_iter_read, ecs_iter_stride or ecs_iter_read_at of a component
 *     the system does not declare, ecs_iter_write or ecs_iter_write_at of one
 *     it does not write; the same for resources
 *     (ecs_iter_resource_read and _write, and ecs_resource and
 *     ecs_resource_read while systems run, from a callback of a system
 *     that does not declare the resource or from outside any);
 *   - ecs_iter_output_push on a system without output_size, or of 0
 *     elements; an output batch out of range; outputs of a system not
 *     depended on (ecs_iter_dep_*, and ecs_output in the system phase);
 *   - a deferred command with a size but a NULL payload, a deferred call
 *     without a function;
 *   - ecs_claim_deal outside the named system's own prepare callback, for
 *     a subtask it does not run, or with first past end;
 *   - ecs_step_fail outside a step callback and a prepare or finish
 *     callback, or it or ecs_iter_fail with ECS_OK, ECS_ERR_MISUSE or a
 *     value that is no ecs_status;
 *   - a NULL out-pointer: every pointer a call writes its results through
 *     is required (ecs_create's out, the count of ecs_subscribed,
 *     ecs_output, ecs_iter_output and ecs_iter_dep_output, the first and
 *     count of ecs_iter_next_run, the lo and hi of ecs_iter_bits,
 *     ecs_iter_claim's item,
 *     ecs_timeline_get's out) except the optional ones, which say so:
 *     ecs_context_create's err, ecs_create_bulk's out, ecs_dot's buf
 *     (with size 0) and ecs_timeline_profile's busy (ecs_context_create
 *     without out has no context to record on: ECS_ERR_INVALID);
 *   - ecs_parallel_for or ecs_refresh, when it would hand work to the
 *     pool, from a thread other than the owner (the thread that created
 *     the context or last called ecs_step): its work then runs on the
 *     calling thread alone, and the call still returns ECS_ERR_MISUSE.
 * The call then does nothing and returns ECS_ERR_MISUSE, NULL, false or
 * 0 (ecs_system_stats_get: zeros and the name ""), the step returns
 * ECS_ERR_MISUSE, and ecs_misuse_message names the call or the system
 * and the component or system involved (by name; by id when the id does
 * not exist).
 *
 * When several failures apply to one call, it returns the first of:
 * ECS_ERR_MISUSE; ECS_ERR_INVALID or ECS_ERR_UNKNOWN_COMPONENT (its
 * arguments, checked in the order they are listed); ECS_ERR_DEAD;
 * ECS_ERR_FULL or ECS_ERR_NOMEM. ecs_step returns ECS_ERR_MISUSE when any
 * misuse happened during it, else the first failure (ecs_step_failure)
 * of: the step callback's; the systems', in id order, each system's in
 * the order it ran (prepare, then each pass's subtasks in index order,
 * then that pass's finish); the ecs's own (no room to lay out the
 * subtasks, then the refreshes' ECS_ERR_FULL or ECS_ERR_NOMEM in the
 * order they apply the changes). A subtask's own failures count in the
 * order it made them, the ecs's ECS_ERR_NOMEM for its outputs, kills
 * and deferred commands included.
 *
 * Threads: the pool starts max_workers threads (the caller included) once;
 * ecs_set_workers picks how many of them run the next steps and parks the
 * rest (blocked, not spinning), and ecs_set_inner_parallelism switches
 * subtask splitting, both between any two steps without changing results.
 */
#ifndef ECS_H
#define ECS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Components per context: the per-entity component set is a 64-bit mask. */
#define ECS_MAX_COMPONENTS 64u
/* Largest entity count a dynamic context may grow to. */
#define ECS_MAX_ENTITIES (UINT32_C(1) << 30)
#define ECS_DEFAULT_CAPACITY 1024u
/* Parallel passes one system may run per step. */
#define ECS_MAX_PASSES 8u
/* Resources per context: a system's resource set is a 64-bit mask. */
#define ECS_MAX_RESOURCES 64u
/* Threads per context, the caller included (ecs_config.workers and
 * max_workers): one per processor of the largest machines the ecs is
 * built for (two-socket servers, up to 256 hardware threads). More
 * threads than processors only take turns on them, while each still
 * costs a stack and a job ring, and a place in every idle thread's look
 * for work: a larger count is a mistake, refused before any thread
 * starts. */
#define ECS_MAX_WORKERS 256u

typedef enum ecs_status {
    ECS_OK = 0,
    ECS_ERR_INVALID,           /* malformed definition or argument */
    ECS_ERR_UNKNOWN_COMPONENT, /* a system names a component that does not exist */
    ECS_ERR_UNKNOWN_SYSTEM,    /* a dependency names a system that does not exist */
    ECS_ERR_READ_WRITE,        /* a system both reads and writes one component */
    ECS_ERR_CYCLE,             /* the dependencies form a cycle */
    ECS_ERR_CONFLICT,          /* two unordered systems touch a component, one writes */
    ECS_ERR_FULL,              /* the fixed entity limit is reached */
    ECS_ERR_DEAD,              /* the handle names an entity that is not alive */
    ECS_ERR_NOMEM,             /* an allocation failed */
    ECS_ERR_THREAD,            /* a worker thread could not be started */
    ECS_ERR_MISUSE             /* a call broke the threading or declaration rules */
} ecs_status;

/* A short constant name for a status, e.g. "ECS_ERR_FULL". */
const char *ecs_status_name(ecs_status status);

/* Filled by ecs_context_create on failure: the status and one line of text
 * naming what is wrong (systems, components, the cycle). */
typedef struct ecs_error {
    ecs_status status;
    char message[256];
} ecs_error;

/* Entity handle: a value. The generation changes each time the index is
 * reused, so a handle kept past its entity's death never aliases the next
 * entity that reuses the index. Generation 0 is never alive: the zero
 * handle is the null handle. An index is reused at most 2^32 - 2 times:
 * when the entity of its last generation (UINT32_MAX) is reclaimed, the
 * index is retired, never handed out again (a fixed context then holds one
 * entity fewer), so generations never wrap and no handle ever aliases. */
typedef struct ecs_entity {
    uint32_t index;
    uint32_t generation;
} ecs_entity;

#define ECS_NULL_ENTITY ((ecs_entity){0u, 0u})

static inline bool ecs_entity_is_null(ecs_entity e) { return e.generation == 0u; }

/* A list of component or system ids, e.g. ECS_IDS(C_POSITION, C_VELOCITY). */
typedef struct ecs_ids {
    const uint32_t *ids;
    uint32_t count;
} ecs_ids;

#define ECS_IDS(...) ((ecs_ids)ECS_IDS_INIT(__VA_ARGS__))
/* The brace form, for initialising tables with static storage (where a
 * compound literal is not a constant expression). */
#define ECS_IDS_INIT(...)                                                      \
    {(const uint32_t[]){__VA_ARGS__},                                          \
     (uint32_t)(sizeof((uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))}

/* A component type. Its id is its index in ecs_config.components. A size of
 * 0 makes a tag: it has no storage but still takes part in matching (its
 * column, ecs_get and ecs_iter_read/_write give NULL; ask ecs_has). An
 * align of 0 means the alignment of max_align_t; otherwise size must be a
 * multiple of align (as sizeof and _Alignof of one type always are).
 *
 * Storage kinds (docs/ecs.md, "Storage kinds"):
 *   column (the default): one buffer of capacity elements, element i
 *     the entity of index i's value; ecs_column_stride is the size;
 *   group member (ecs_config.groups): one buffer holds several components
 *     interleaved, element i holding each member at a fixed offset;
 *     ecs_column and ecs_iter_read/_write give entity 0's member and
 *     ecs_column_stride (ecs_iter_stride) the group's element size;
 *   sparse (ecs_config.sparse): the values of the entities that hold the
 *     component only, so its memory follows the holders, not the
 *     capacity. It has no column: ecs_column, ecs_iter_read and
 *     ecs_iter_write give NULL and the stride is 0; reach a value with
 *     ecs_get, or ecs_iter_write_at / ecs_iter_read_at in a system. ecs_add
 *     of it may fail with ECS_ERR_NOMEM. Not for a tag, not in a group. */
typedef struct ecs_component_def {
    const char *name;
    size_t size;
    size_t align;
} ecs_component_def;

/* Components stored interleaved in one buffer: each member's value of one
 * entity sits next to the others', in the order listed, each at its own
 * alignment, the element padded to the largest. For components that are
 * read together by every loop that reads one of them. A component is in
 * at most one group; tags, sparse components and unknown ids are
 * rejected (ECS_ERR_INVALID), as is a group of no component. */
typedef struct ecs_group_def {
    const char *name;
    ecs_ids components;
} ecs_group_def;

/* A resource: one datum of the whole context (a grid, a queue, a table)
 * that systems declare they read or write, as they do components, so
 * that validation orders every writer against every other user of it.
 * Its id is its index in ecs_config.resources. Either the ecs allocates
 * it (size > 0: zeroed, aligned to align, 0 meaning max_align_t; size a
 * multiple of align; freed with the context), or the owner keeps it
 * (size 0, ptr not NULL: the ecs hands out ptr and never frees it).
 * Both or neither is rejected with ECS_ERR_INVALID. */
typedef struct ecs_resource_def {
    const char *name;
    size_t size;
    size_t align;
    void *ptr;
} ecs_resource_def;

/* Inner parallelism: how one system's subscribed entities are split into
 * subtasks for one step. A system that runs runs at least one subtask:
 * with no subscribed entity (run_empty, or a system that declares no
 * component) process is called once with count 0, so its per-step work,
 * outputs (one batch per pass) and finish happen. With E entities: NONE,
 * E < min_entities or inner parallelism off: 1 subtask; PER_WORKER: min(workers, E) subtasks (no subtask is
 * ever empty when E > 0; with ecs_config.split_within_cpus, workers
 * counts at most ecs_cpu_count()); CHUNKS: ceil(E / chunk_size). */
typedef enum ecs_split {
    ECS_SPLIT_NONE = 0,   /* one subtask */
    ECS_SPLIT_PER_WORKER, /* one subtask per worker thread, evenly sized (or see balance) */
    ECS_SPLIT_CHUNKS      /* subtasks of chunk_size entities (the last may be shorter) */
} ecs_split;

typedef struct ecs_parallelism {
    ecs_split split;
    uint32_t chunk_size;   /* ECS_SPLIT_CHUNKS only; must be > 0 */
    uint32_t min_entities; /* below this many entities: one subtask, whatever split says */
    /* ECS_SPLIT_PER_WORKER only: size the ranges by each worker's measured
     * speed instead of evenly. The ecs times every balanced system's
     * subtasks and gives a worker that processed fewer entities per second
     * in the last steps a shorter range of every balanced system in the
     * next. For systems whose cost follows their entity range; results
     * never depend on the split. */
    bool balance;
} ecs_parallelism;

typedef struct ecs_context ecs_context;
typedef struct ecs_iter ecs_iter;

typedef void (*ecs_process_fn)(ecs_iter *it);
/* Called after the last subtask of each pass of a system finished, on one
 * thread, before the next pass or any dependent system starts;
 * ecs_system_pass tells which pass it was. */
typedef void (*ecs_finish_fn)(ecs_context *ctx, uint32_t system, void *user);
/* Called once per step on one thread when every dependency of the system
 * finished, before its first subtask starts: for work each subtask needs
 * ready (dealing out the step's work by what the dependencies built,
 * as claims: ecs_claim_deal).
 * ecs_system_subtasks tells how many subtasks follow. */
typedef void (*ecs_prepare_fn)(ecs_context *ctx, uint32_t system, void *user);
typedef void (*ecs_entity_fn)(ecs_context *ctx, ecs_entity e, void *user);
typedef void (*ecs_deferred_fn)(ecs_context *ctx, void *payload);

/* A system. Its id is its index in ecs_config.systems. An entity is
 * subscribed when it holds every component in reads and writes; a system
 * that declares no component subscribes no entity (it still runs once
 * per step, with count 0: a per-step hook). Resources it reads or writes
 * (in any callback: prepare, process, finish) are declared apart, in
 * resource_reads and resource_writes: they take no part in matching.
 *
 * A system that declares components and has no subscribed entity in a
 * step is left out of that step unless run_empty is set: no prepare,
 * process or finish, no subtask, nothing queued on the pool (see "Which
 * systems run" below). A step in which no system runs queues no system
 * work on the pool (its refresh may still match on the workers). */
typedef struct ecs_system_def {
    const char *name;
    ecs_ids reads;
    ecs_ids writes;
    ecs_ids after; /* systems that must finish before this one starts */
    ecs_ids resource_reads;
    ecs_ids resource_writes;
    ecs_parallelism parallelism;
    /* Passes per step, 0 meaning 1: every subtask runs pass p (ecs_iter.pass)
     * only after every subtask finished pass p - 1 and finish ran for it,
     * over the same entity ranges. For count / prefix-sum / scatter work:
     * count in pass 0, sum in finish, scatter in pass 1. Outputs, kills and
     * deferred commands accumulate over the passes of one step. */
    uint32_t passes;
    size_t output_size; /* bytes per per-subtask output element; 0: no output */
    ecs_process_fn process;
    ecs_prepare_fn prepare;        /* optional */
    ecs_finish_fn finish;          /* optional */
    /* Run every step, with count 0 when no entity is subscribed: for
     * prepare or finish work that must happen even then (clearing what
     * the last step built, so owner code never reads a stale result). */
    bool run_empty;
    /* Optional, called at refresh in ascending index order, systems in id
     * order. They (and on_reclaim, deferred inits and calls) may create,
     * kill and change entities: refresh repeats until nothing is pending.
     * They must not call ecs_step, ecs_refresh or ecs_context_destroy. */
    ecs_entity_fn on_subscribe;
    ecs_entity_fn on_unsubscribe;
    void *user;                    /* handed to every callback of this system */
} ecs_system_def;

typedef enum ecs_storage {
    ECS_STORAGE_DYNAMIC = 0, /* capacity is the initial size; grows by doubling */
    ECS_STORAGE_FIXED        /* capacity is the limit; creating past it fails */
} ecs_storage;

/* Start from ecs_default_config(); zero fields mean their default. */
typedef struct ecs_config {
    const ecs_component_def *components;
    uint32_t component_count;
    const ecs_system_def *systems;
    uint32_t system_count;
    const ecs_resource_def *resources;
    uint32_t resource_count;
    /* Interleaved groups, and the components stored sparse (for those few
     * entities hold; not tags, not in a group: ECS_ERR_INVALID). Every
     * other component with a size has a column of its own. */
    const ecs_group_def *groups;
    uint32_t group_count;
    ecs_ids sparse;
    ecs_storage storage;
    uint32_t capacity;  /* default ECS_DEFAULT_CAPACITY; fixed storage needs > 0 */
    /* Threads running systems, the caller included, 1..ECS_MAX_WORKERS;
     * 0: online CPUs (at most ECS_MAX_WORKERS). */
    uint32_t workers;
    /* Threads the pool starts once, at creation (the caller included): the
     * most ecs_set_workers may ask for later. 0: workers. Below workers
     * (after its default) or above ECS_MAX_WORKERS is rejected with
     * ECS_ERR_INVALID. */
    uint32_t max_workers;
    bool inner_parallelism_off; /* every system runs as a single subtask */
    /* A PER_WORKER split makes at most as many subtasks as the machine has
     * processors (ecs_cpu_count), when workers outnumber them: more would
     * only take turns on the processors, each paying its share of a
     * system's per-subtask work. Results do not depend on the split. */
    bool split_within_cpus;
    /* Optional: an index was reclaimed at refresh. It gets the dead
     * handle (never alive again); a batch's indices become free for new
     * entities only after its on_reclaim calls. */
    ecs_entity_fn on_reclaim;
    void *user;                 /* handed to on_reclaim */
} ecs_config;

ecs_config ecs_default_config(void);

/* The bytes a context of cfg keeps for each live entity when every
 * entity holds the same components: its component values, its slot's
 * mask, generation and state, its index in each list of subscribed
 * entities (the systems that need components and have no subscribe
 * callbacks share one; every other system has its own) and one output
 * element of every system that declares output_size. An estimate for a
 * check of memory before a large world is made. */
size_t ecs_entity_bytes(const ecs_config *cfg);

/* Validates the definition and builds the context. out is required
 * (ECS_ERR_INVALID without it), err optional. On failure *out is NULL
 * and err (if not NULL) says why. Validation rejects: unknown components or
 * systems, a component both read and written by one system, a dependency
 * cycle (a system depending on itself included), and two systems that
 * touch the same component, at least one writing it, with no dependency
 * path between them. Resources the same way: an unknown resource id
 * (ECS_ERR_INVALID), one both read and written by a system
 * (ECS_ERR_READ_WRITE), two systems using one, at least one writing it,
 * with no path between them (ECS_ERR_CONFLICT, naming both systems and
 * the resource). */
ecs_status ecs_context_create(const ecs_config *cfg, ecs_context **out, ecs_error *err);
void ecs_context_destroy(ecs_context *ctx);

/* Threads that run systems now (the caller included): ecs_config.workers
 * or the last ecs_set_workers. */
uint32_t ecs_worker_count(const ecs_context *ctx);
/* Threads the pool started: the most ecs_set_workers accepts. */
uint32_t ecs_max_workers(const ecs_context *ctx);
/* Processors online now, at least 1 (the default for ecs_config.workers). */
uint32_t ecs_cpu_count(void);
uint32_t ecs_system_count(const ecs_context *ctx);
uint32_t ecs_component_count(const ecs_context *ctx);
uint32_t ecs_resource_count(const ecs_context *ctx);

/* ---- Entities (owner thread, never while systems run) ------------------ */

/* Creates an entity with no components; out is required (a misuse without
 * it). ECS_ERR_FULL when a fixed context is full (or a dynamic one reached
 * ECS_MAX_ENTITIES), ECS_ERR_NOMEM when growth failed: *out is then the
 * null handle and the context is intact. A killed entity keeps its slot
 * until the refresh that reclaims it (ecs_refresh, or the refreshes of
 * ecs_step): a fixed context of capacity N is full while N entities are
 * alive or killed since the last refresh (capacity 1: create, kill, create
 * gives ECS_ERR_FULL until ecs_refresh). In a step, the refresh runs the
 * deferred creates before the kills the systems recorded, so those kills
 * make no room for them. */
ecs_status ecs_create(ecs_context *ctx, ecs_entity *out);
/* Kills at once: the handle stops being alive; the index is reclaimed and
 * unsubscribed at the next refresh. ECS_ERR_DEAD for a stale handle.
 * Reclaimed indices are handed out again lowest first (whenever they were
 * freed), then never-used ones in ascending order. */
ecs_status ecs_kill(ecs_context *ctx, ecs_entity e);
bool ecs_alive(const ecs_context *ctx, ecs_entity e);

/* Creates n entities holding the same components in one call: the state
 * afterwards (indices, handles, data, what the next refresh subscribes)
 * is exactly that of n ecs_create calls each followed by ecs_add of every
 * listed component, only faster.
 *   components: distinct component ids (a tag takes no values);
 *   values:     NULL (every component zeroed), or one pointer per listed
 *               component: NULL (zeroed) or n values back to back, the
 *               i-th for the i-th new entity (an array of that type);
 *               they may lie in the context's own storage (cloning
 *               entities from a column): the buffers the call's growth
 *               replaces are freed only after the values are copied;
 *   out:        NULL, or room for the n handles, in creation order.
 * All or nothing: ECS_ERR_FULL (the limit would be passed), ECS_ERR_NOMEM,
 * ECS_ERR_UNKNOWN_COMPONENT or ECS_ERR_INVALID (an id listed twice, a
 * count without ids) create none. */
ecs_status ecs_create_bulk(ecs_context *ctx, uint32_t n, ecs_ids components,
                           const void *const *values, ecs_entity *out);
/* Kills every listed handle that is alive, as ecs_kill on each in turn
 * would. ECS_ERR_DEAD when some were not (stale, null, or listed twice):
 * those are skipped, the rest killed all the same. */
ecs_status ecs_kill_bulk(ecs_context *ctx, const ecs_entity *entities, uint32_t n);
/* The live handle of an index, or the null handle. */
ecs_entity ecs_handle(const ecs_context *ctx, uint32_t index);
uint32_t ecs_alive_count(const ecs_context *ctx);
/* Indices currently allocated (upper bound of live indices). */
uint32_t ecs_capacity(const ecs_context *ctx);

/* Adds (or overwrites) a component; value may be NULL for zeroed data,
 * and may point at a value the context holds (another entity's).
 * Subscriptions follow at the next refresh. ECS_ERR_NOMEM (nothing
 * changed) only for a sparse component whose values had to grow. */
ecs_status ecs_add(ecs_context *ctx, ecs_entity e, uint32_t component, const void *value);
ecs_status ecs_remove(ecs_context *ctx, ecs_entity e, uint32_t component);
bool ecs_has(const ecs_context *ctx, ecs_entity e, uint32_t component);
/* Pointer to the entity's component, or NULL if dead or absent, and
 * always NULL for a tag (no storage: ecs_has tells whether it is
 * present). Any storage kind. Valid until the next create (storage may
 * grow), add or remove, refresh or step (a sparse component's values
 * move when a holder leaves), or destroy. */
void *ecs_get(ecs_context *ctx, ecs_entity e, uint32_t component);
/* Base of a component's buffer: entity index i's value is at byte
 * i * ecs_column_stride of it. NULL for a tag and for a sparse component
 * (no column). */
void *ecs_column(ecs_context *ctx, uint32_t component);
/* Bytes from one entity's element of a component's buffer to the next
 * index's: the component's size in its own column, the group's element
 * size when it is stored interleaved with others; 0 for a tag and for a
 * sparse component. */
size_t ecs_column_stride(const ecs_context *ctx, uint32_t component);

/* ---- Resources ---------------------------------------------------------- */

/* A resource's data (its ecs allocation or its owner's pointer). Outside
 * the system phase (owner code: setup, the step callback, between steps,
 * refresh callbacks) any resource may be reached. In the system phase only
 * from a callback (prepare, process, finish) of a system that declares it:
 * ecs_resource needs it in resource_writes, ecs_resource_read in either
 * list. Anything else is a misuse: NULL, and ecs_misuse_message names the
 * system (or the call) and the resource. */
void *ecs_resource(ecs_context *ctx, uint32_t resource);
const void *ecs_resource_read(const ecs_context *ctx, uint32_t resource);

/* ---- Systems and steps ------------------------------------------------- */

/* Subscribed entity indices of a system, in ascending order, valid until
 * the next refresh (NULL with *count 0 for an unknown system id; count is
 * required: NULL without it, a misuse); system callbacks may call it too
 * (the lists change only at refresh). Systems that subscribe the same
 * entities may get the same array: the ecs keeps one list for them. */
const uint32_t *ecs_subscribed(const ecs_context *ctx, uint32_t system, uint32_t *count);
bool ecs_is_subscribed(const ecs_context *ctx, uint32_t system, ecs_entity e);

typedef void (*ecs_step_fn)(ecs_context *ctx, void *user);

/* One step: runs fn (may be NULL; it may create, kill and change entities,
 * which systems see in this step), runs every system along the DAG, then
 * refreshes. Returns the step's first failure (see Failures below), e.g.
 * ECS_ERR_FULL if a deferred create hit the fixed limit (that create was
 * dropped, everything else was applied). fn may call
 * ecs_refresh, ecs_set_workers, ecs_set_inner_parallelism and
 * ecs_parallel_for; ecs_step and ecs_context_destroy from fn are refused
 * (ECS_ERR_MISUSE, the context untouched). */
ecs_status ecs_step(ecs_context *ctx, ecs_step_fn fn, void *user);

/* Failures: a callback that cannot do its work fails the step with a
 * status (ecs_iter_fail from process, ecs_step_fail from the step
 * callback, prepare and finish). Failing records, it stops nothing: the
 * step runs to its end and returns the first failure in the order given
 * under "When several failures apply" above, which never depends on
 * timing, nor on the worker count as long as what fails does not depend
 * on the split. Each subtask keeps its own first failure (no lock); the
 * next step starts with none. ecs_step_fail returns ECS_ERR_MISUSE
 * (nothing recorded) outside those callbacks or for a status that is not
 * a failure: ECS_OK, ECS_ERR_MISUSE (the ecs's alone). */
ecs_status ecs_step_fail(ecs_context *ctx, ecs_status status);

/* The first failure of the last step (the status ecs_step or
 * ecs_step_systems returned) and who made it: system is ECS_NONE for
 * the step callback, a misuse and the ecs's own failures; subtask is
 * the subtask whose process failed (it depends on the split), ECS_NONE
 * for a prepare or finish. ECS_OK with both ECS_NONE after a step that
 * did not fail; a call refused before its step began leaves it as it
 * was. Owner thread, between steps. */
#define ECS_NONE UINT32_MAX
typedef struct ecs_failure {
    ecs_status status;
    uint32_t system;
    uint32_t subtask;
} ecs_failure;
ecs_failure ecs_step_failure(const ecs_context *ctx);

/* Applies pending changes (subscriptions, reclaims) now, without running
 * systems. ecs_step does this itself. */
void ecs_refresh(ecs_context *ctx);

/* ---- Which systems run ---------------------------------------------------
 * A system runs in a step when it is enabled, chosen (every system for
 * ecs_step, the list for ecs_step_systems) and has work: a subscribed
 * entity, run_empty, or no declared component. One that does not run is
 * left out whole: no prepare, process or finish, no subtask, no timeline
 * span, 0 subtasks and 0 entities in its stats, and 0 batches from
 * ecs_output_batches and ecs_iter_dep_batches for that step (never the
 * outputs of an earlier step). Its dependents still run, after every
 * system it depends on (the order of the DAG is kept through it), and see
 * no output from it. Resources it writes keep what they last held. */

/* Enables or disables a system from the next step on (or from this one,
 * called from a step callback); same rule as ecs_set_workers (owner
 * thread, never while systems run or inside a refresh). Every system
 * starts enabled. Returns ECS_ERR_MISUSE (and changes nothing) for an
 * unknown id or a call at the wrong time. */
ecs_status ecs_system_enable(ecs_context *ctx, uint32_t system, bool on);
/* false, a misuse, for an unknown id. */
bool ecs_system_enabled(const ecs_context *ctx, uint32_t system);

/* A step of some systems: as ecs_step, but only the systems listed run
 * (with with_dependents, also every system that depends on one of them,
 * directly or not), in the DAG's order, then the refresh. Disabled ones
 * stay out even when listed, and the others' outputs read 0 batches
 * until they run again. An empty list runs no system. Refused, with the
 * context untouched and fn not called: an unknown id (ECS_ERR_MISUSE,
 * named by ecs_misuse_message), an id listed twice or a NULL list with a
 * count (ECS_ERR_INVALID); the calls refused by ecs_step (ECS_ERR_MISUSE). */
ecs_status ecs_step_systems(ecs_context *ctx, ecs_ids systems, bool with_dependents,
                            ecs_step_fn fn, void *user);

/* Live threading, between steps only: owner thread, never while systems
 * run or inside a refresh (the step callback is fine). From then on,
 * PER_WORKER systems split into `workers` subtasks, refresh matches on as
 * many threads, and only that many threads (the caller included) run
 * jobs: the pool's other threads stay parked on a condition variable of
 * their own, costing no CPU, until a later call activates them or the
 * context is destroyed. Returns ECS_ERR_INVALID (and changes nothing)
 * unless 1 <= workers <= ecs_max_workers. Results never depend on it. */
ecs_status ecs_set_workers(ecs_context *ctx, uint32_t workers);
/* Inner parallelism on (systems split as declared) or off (every system
 * one subtask), from the next step on; same rule as ecs_set_workers. */
void ecs_set_inner_parallelism(ecs_context *ctx, bool on);
bool ecs_inner_parallelism(const ecs_context *ctx);
/* Wakes the workers that slept through a long gap between steps, so that
 * they are looking for work when the next step pushes it, instead of
 * waking as its first pass ends (a wake-up costs tens of microseconds to
 * milliseconds on a busy machine). Each looks for work for about a
 * millisecond, then sleeps again: call it just before a step that follows
 * an idle gap, as the window does after drawing. Same rule as
 * ecs_set_workers; results never depend on it. */
void ecs_wake_workers(ecs_context *ctx);

/* A loop over [0, n) on the pool, between steps (owner thread, never
 * while systems run or inside a refresh: ECS_ERR_MISUSE): fn(user, begin,
 * end, range, ranges) for each of `ranges` ranges, ascending and covering
 * [0, n) once, range k addressed to worker k; returns when all are done,
 * their writes visible to the caller. ranges is ecs_parallel_ranges(ctx, n,
 * min_per_range): one per active worker but no range shorter than
 * min_per_range, and 1 when inner parallelism is off, so the same
 * arguments give the same ranges until the workers or inner parallelism
 * change. fn may read and write columns (ecs_column) but not create,
 * kill, add or remove: those calls are refused and this call returns
 * ECS_ERR_MISUSE (only for misuse during it: one recorded before is kept
 * and still fails the step; ecs_misuse_message keeps the first). For work whose
 * result must not depend on the worker count, fn's result should not
 * depend on the ranges (spawning draws each entity from its index). */
typedef void (*ecs_range_fn)(void *user, uint32_t begin, uint32_t end, uint32_t range,
                             uint32_t ranges);
ecs_status ecs_parallel_for(ecs_context *ctx, uint32_t n, uint32_t min_per_range,
                            ecs_range_fn fn, void *user);
uint32_t ecs_parallel_ranges(const ecs_context *ctx, uint32_t n, uint32_t min_per_range);

/* Outputs a system produced in the last step, as batches to be read in
 * batch order: batch b holds what subtask b % S pushed in pass b / S (S
 * subtasks), so batch order is (pass, subtask, recording) order, the same
 * sequence for any worker count. A one-pass system has one batch per
 * subtask. Valid until that system runs again. */
uint32_t ecs_output_batches(const ecs_context *ctx, uint32_t system);
/* NULL and *count 0 for a batch out of range (a misuse); count is required
 * (NULL without it, a misuse). In the system phase of a step (from a
 * callback) only the outputs of a system the caller depends on, or its own
 * from its finish callback, may be read: any other read races with the
 * system writing them and is a misuse. */
const void *ecs_output(const ecs_context *ctx, uint32_t system, uint32_t batch,
                       uint32_t *count);
/* Subtasks the system ran in the last step; from a callback during a
 * step, the subtasks it runs in this one (set before any system starts). */
uint32_t ecs_system_subtasks(const ecs_context *ctx, uint32_t system);

/* The first misuse detected since the last step began (or, outside steps,
 * since ecs_context_create), as one line; "" if none. */
const char *ecs_misuse_message(const ecs_context *ctx);

/* ---- Queries ------------------------------------------------------------ */

/* A query: the entities that hold every component of all, none of none,
 * and any of optional, tags included. It is cached: made when created
 * (matching the entities alive then), its lists are then changed by each
 * refresh for the entities created, changed or killed since the last one,
 * as the systems' subscriptions are, so iterating does no matching.
 * Changes made between refreshes show in it at the next refresh.
 *
 * Its matches come in runs of consecutive entity indices that agree on
 * which optional components they hold: in a run, an optional component's
 * column is valid for every entity or NULL for all of them, and a loop
 * over the run needs no test per entity. Runs are grouped by that
 * presence (group g holds the matches with optional[j] for each bit j
 * set in g, groups in ascending g), each group in ascending index order;
 * with no optional term every match is in one ascending group.
 *
 * Threads: ecs_query_create, _destroy, _iter_begin and _parallel from the
 * owner thread outside the system phase (between steps, the step
 * callback); while systems or ecs_parallel_for's ranges run, or from a
 * refresh callback, they are a misuse. ecs_query_next, _column and _has
 * work on an iterator: ecs_query_parallel hands one to each range, on the
 * pool's threads. An iteration is valid until the next refresh, create
 * (storage may grow) or the query's destroy; ecs_query_count may be
 * called from system callbacks too (the lists change only at refresh). */

/* Optional terms per query: its matches are kept in 2^optional lists. */
#define ECS_QUERY_MAX_OPTIONAL 4u

typedef struct ecs_query_def {
    ecs_ids all;      /* at least one component */
    ecs_ids none;
    ecs_ids optional; /* at most ECS_QUERY_MAX_OPTIONAL */
} ecs_query_def;

/* A query handle: a value, like an entity's. The generation changes each
 * time the slot is reused, so a destroyed query's handle never names
 * another; the zero handle is never a query. */
typedef struct ecs_query {
    uint32_t index;
    uint32_t generation;
} ecs_query;

/* ECS_ERR_MISUSE (as above, or a component id that does not exist);
 * ECS_ERR_INVALID for a NULL def or out, an empty all, a count without
 * ids, a component listed twice (in one list or two) or more than
 * ECS_QUERY_MAX_OPTIONAL optional ones; ECS_ERR_NOMEM. *out is the zero
 * handle on failure. Costs two passes over the entity slots. */
ecs_status ecs_query_create(ecs_context *ctx, const ecs_query_def *def, ecs_query *out);
/* ECS_ERR_MISUSE for a handle that names no query (destroyed, or never
 * made) and as above; its lists are freed. */
ecs_status ecs_query_destroy(ecs_context *ctx, ecs_query q);
/* The query's matches as of the last refresh; 0 (a misuse) for a handle
 * that names no query. */
uint32_t ecs_query_count(const ecs_context *ctx, ecs_query q);

/* Walks the matches run by run:
 *     ecs_query_iter it = ecs_query_iter_begin(ctx, q);
 *     while (ecs_query_next(&it)) {
 *         vec2 *p = ecs_query_column(&it, C_POS, NULL);
 *         for (uint32_t i = it.first; i < it.first + it.count; i++) p[i] ...
 *     }
 * Only the public fields are yours. */
typedef struct ecs_query_iter {
    uint32_t first, count; /* the run: entity indices first .. first + count - 1 */
    uint32_t range, ranges; /* ecs_query_parallel's range, 0 of 1 outside it */
    ecs_context *ctx;
    /* private */
    const struct ecs_qry *q_;
    uint64_t has_;
    uint32_t group_, group_start_, at_, end_;
} ecs_query_iter;

/* An iterator over every match; on a misuse (as above, or a handle that
 * names no query) one that yields nothing. */
ecs_query_iter ecs_query_iter_begin(ecs_context *ctx, ecs_query q);
/* The next run into first and count; false when there is none. */
bool ecs_query_next(ecs_query_iter *it);
/* A component's column for the current run: the element of entity index
 * i (it.first <= i < it.first + it.count) is at (char *)base + i *
 * stride, stride being ecs_column_stride (written to *stride when stride
 * is not NULL; 0 with a NULL column). Indexing as an array of the
 * component's type is right only where the stride equals its size (a
 * component stored in its own column). NULL for an optional component
 * the run's entities lack, and for a component with no column (a tag;
 * any component whose ecs_column is NULL): reach those per entity with
 * ecs_get, and ask ecs_query_has whether the run holds them. A component
 * not in all or optional is a misuse: NULL. A component of all has the
 * same column in every run: it may be fetched once, before the first
 * ecs_query_next. Writing through it is fine where no one else reads or
 * writes those elements meanwhile. */
void *ecs_query_column(const ecs_query_iter *it, uint32_t component, size_t *stride);
/* Whether every entity of the current run holds the component (a term
 * of all, or an optional one present in the run); false, a misuse, for a
 * component not in all or optional. */
bool ecs_query_has(const ecs_query_iter *it, uint32_t component);

/* The matches split into ecs_parallel_ranges(ctx, ecs_query_count,
 * min_per_range) ranges on the pool, as ecs_parallel_for splits [0, n):
 * fn(it, user) once per range, it walking that range's runs (it->range of
 * it->ranges); each match is in exactly one range, and the call returns
 * when all are done. Same rules as ecs_parallel_for (fn may not create,
 * kill, add or remove; ECS_ERR_MISUSE for misuse during it), plus
 * ECS_ERR_MISUSE for a handle that names no query and ECS_ERR_INVALID
 * for a NULL fn. */
typedef void (*ecs_query_fn)(ecs_query_iter *it, void *user);
ecs_status ecs_query_parallel(ecs_context *ctx, ecs_query q, uint32_t min_per_range,
                              ecs_query_fn fn, void *user);

/* ---- Inside a process callback ------------------------------------------ */

/* The view a process callback gets: a contiguous range of the system's
 * subscribed entity indices (ascending). Only the public fields are yours. */
struct ecs_iter {
    const uint32_t *entities; /* count entity indices, ascending */
    uint32_t count;
    uint32_t subtask;       /* 0 .. subtask_count-1 */
    uint32_t subtask_count;
    uint32_t pass;          /* 0 .. passes-1 */
    uint32_t system;
    void *user;             /* the system's user pointer */
    ecs_context *ctx;
    /* private */
    uint32_t run_cursor_;
    struct ecs_subtask_ *sub_;
};

/* Component buffers, checked against the system's declaration: an
 * undeclared component (or a write to one only read) is a misuse and
 * gives NULL. A declared tag or sparse component gives NULL too (no
 * column). Entity index i's value is at byte i * ecs_iter_stride. */
const void *ecs_iter_read(const ecs_iter *it, uint32_t component);
void *ecs_iter_write(const ecs_iter *it, uint32_t component);
/* ecs_column_stride of a component the system declares (0 and a misuse
 * for one it does not): a loop over a group member steps by it. */
size_t ecs_iter_stride(const ecs_iter *it, uint32_t component);
/* One entity's value, any storage kind, checked against the declaration
 * as ecs_iter_read and _write are: get needs the component in writes,
 * get_read in reads or writes. NULL when the entity of that index does
 * not hold it (and for a tag). Safe from every subtask at once: the
 * storage changes only at refresh. Each subtask writes only its own
 * entities' values. */
void *ecs_iter_write_at(const ecs_iter *it, uint32_t component, uint32_t index);
const void *ecs_iter_read_at(const ecs_iter *it, uint32_t component, uint32_t index);

/* A resource's data, checked against the system's declaration the same
 * way: read needs resource_reads or resource_writes, write needs
 * resource_writes; anything else is a misuse and gives NULL. */
const void *ecs_iter_resource_read(const ecs_iter *it, uint32_t resource);
void *ecs_iter_resource_write(const ecs_iter *it, uint32_t resource);

/* Walks the range as maximal runs of consecutive indices (first and count
 * are required: false without either, a misuse), so a loop over
 * [*first, *first + *count) touches memory sequentially and vectorises:
 *     uint32_t b, n;
 *     while (ecs_iter_next_run(it, &b, &n)) for (i = b; i < b + n; i++) ...
 */
bool ecs_iter_next_run(ecs_iter *it, uint32_t *first, uint32_t *count);

/* The same range as a membership bitmap (lo and hi are required: NULL
 * without either, a misuse), for loops that walk the columns
 * densely under masks (vector code, where holes left by dead entities
 * make the index walk scalar): bit (i & 63) of words[i >> 6] is set, for
 * every i in [*lo, *hi), exactly when i is one of this subtask's entities.
 * Bits outside [*lo, *hi) belong to other subtasks or to none and must be
 * ignored. *lo = entities[0], *hi = entities[count - 1] + 1 (both 0 when
 * count is 0). The bitmap is the system's subscription, fixed for the
 * whole step; it is read-only. */
const uint64_t *ecs_iter_bits(const ecs_iter *it, uint32_t *lo, uint32_t *hi);

/* The current handle of an entity index in this step. */
ecs_entity ecs_iter_handle(const ecs_iter *it, uint32_t index);

/* Appends n >= 1 output elements (output_size bytes each) to this
 * subtask's output and returns the first; valid until the next push. NULL
 * if out of memory (the push is dropped; the step returns ECS_ERR_NOMEM),
 * and NULL, a misuse, for n == 0 or a system without output_size. */
void *ecs_iter_output_push(ecs_iter *it, uint32_t n);
/* This subtask's own output so far in this step (earlier passes
 * included); count is required (NULL without it, a misuse). */
const void *ecs_iter_output(const ecs_iter *it, uint32_t *count);
/* Outputs of a system this one depends on (directly or not), by batch as
 * in ecs_output; any other system is a misuse (0 batches, NULL), and so
 * is a NULL count (NULL). */
uint32_t ecs_iter_dep_batches(const ecs_iter *it, uint32_t system);
const void *ecs_iter_dep_output(const ecs_iter *it, uint32_t system, uint32_t batch,
                                uint32_t *count);
/* Subtasks that system ran in this step. */
uint32_t ecs_iter_dep_subtasks(const ecs_iter *it, uint32_t system);

/* Claims: work items other than entities (bands of a grid, tiles),
 * numbered 0, 1, ..., balanced across a system's subtasks at run time.
 * The prepare callback deals each subtask a claim, a range of items;
 * in process each subtask takes items with ecs_iter_claim: its own
 * claim's front first, then, once that is empty, the others' backs, the
 * nearest subtask below first (subtask k - 1, k - 2, ..., wrapping),
 * each drained before the next. Every dealt item is taken exactly once
 * per pass, by one subtask; which one depends on timing, so a result
 * must not depend on who takes an item. Each pass starts from the claims
 * as dealt; a subtask dealt nothing holds an empty claim. No lock and
 * no allocation: one atomic word per subtask, held by the ecs. */

/* Deals items [first, end) to that subtask's claim (first <= end),
 * replacing what it was dealt in this step. Only from the system's own
 * prepare callback, for a subtask below ecs_system_subtasks; anything
 * else is a misuse (ECS_ERR_MISUSE, nothing dealt). */
ecs_status ecs_claim_deal(ecs_context *ctx, uint32_t system, uint32_t subtask, uint32_t first,
                          uint32_t end);
/* The next item into *item (required: false without it, a misuse);
 * false once every claim of the system is empty. */
bool ecs_iter_claim(ecs_iter *it, uint32_t *item);

/* Fails the step with status from this subtask (see ecs_step_fail); its
 * first failure of the step is kept. */
void ecs_iter_fail(ecs_iter *it, ecs_status status);

/* Deferred structural changes, applied at refresh; a command whose entity
 * is no longer alive by then is skipped. Payloads are copied, and the copy
 * handed to the callback is aligned for max_align_t (not beyond). */
void ecs_iter_kill(ecs_iter *it, ecs_entity e);
/* Creates an entity at refresh, then calls init(ctx, entity, copy of
 * payload). init may be NULL: the entity is then created with no
 * components (and the payload is not used). */
void ecs_iter_defer_create(ecs_iter *it, ecs_entity_fn init, const void *payload,
                           size_t size);
void ecs_iter_defer_add(ecs_iter *it, ecs_entity e, uint32_t component, const void *value);
void ecs_iter_defer_remove(ecs_iter *it, ecs_entity e, uint32_t component);
void ecs_iter_defer_call(ecs_iter *it, ecs_deferred_fn fn, const void *payload, size_t size);

/* ---- Introspection ------------------------------------------------------ */

/* The system DAG as Graphviz dot. snprintf-like: returns the length of the
 * whole text; writes at most size bytes, NUL-terminated (buf may be NULL
 * only with size 0). */
size_t ecs_dot(const ecs_context *ctx, char *buf, size_t size);

typedef struct ecs_system_stats {
    const char *name;
    double wall_ms;      /* last step: first subtask start to finish callback end */
    uint32_t entities;   /* processed in the last step (its subtasks' ranges) */
    uint32_t subtasks;   /* subtasks in the last step: 0 when it did not run */
} ecs_system_stats;

/* All zero with the name "" for an unknown system id (a misuse). */
ecs_system_stats ecs_system_stats_get(const ecs_context *ctx, uint32_t system);

/* Worker k's share (0..1) of the entities of balanced systems in the
 * next step (ecs_parallelism.balance); 1 / workers until measured, 0 for
 * k >= ecs_worker_count. */
double ecs_worker_share(const ecs_context *ctx, uint32_t worker);

/* ---- Timeline of the last step ------------------------------------------ */

/* Every step records when each subtask and each finish callback ran and on
 * which worker, and when each worker slept (blocked in the kernel, waiting
 * for work); the rest of a worker's time in the step is idle (looking for
 * work, or between jobs). Two clock reads per subtask: cheap enough to stay
 * on, and ecs_set_timeline turns it off. Times are nanoseconds since the
 * system phase began (after the step callback and the refresh before it);
 * wall_ns is that phase's length, up to the last system's completion. */

/* ecs_span.subtask of a finish callback's span. */
#define ECS_SPAN_FINISH UINT32_MAX

typedef struct ecs_span {
    uint64_t start_ns, end_ns;
    uint32_t worker;  /* 0 the owner thread, 1.. the pool's threads */
    uint32_t system;
    uint32_t pass;
    uint32_t subtask; /* ECS_SPAN_FINISH for the system's finish callback */
    /* The subtask's entities: count of them, all with indices in [lo, hi)
     * (the system's subscribed indices in that interval); 0 for a finish. */
    uint32_t count, lo, hi;
    /* A system that deals claims (ecs_claim_deal): the items dealt to the
     * subtask, how many of them it ran itself (the rest another subtask
     * took), and how many it took from the others' claims; all 0 for a
     * finish or a system that deals none. */
    uint32_t claim_dealt, claim_kept, claim_taken;
} ecs_span;

typedef struct ecs_sleep {
    uint64_t start_ns, end_ns; /* clipped to [0, wall_ns]; end: the worker ran again */
    uint32_t worker;
    /* When a push or a notify woke it (start <= woken <= end): from then to
     * end_ns the worker was runnable, waiting for a processor. end_ns where
     * no wake-up was seen (the last sleep of the phase, still going on). */
    uint64_t woken_ns;
} ecs_sleep;

typedef struct ecs_timeline {
    /* When the system phase began on CLOCK_MONOTONIC, to place the step
     * beside other clocks' readings; the spans' times count from it. */
    uint64_t start_ns;
    uint64_t wall_ns;
    uint32_t workers;    /* active workers in that step: worker < workers */
    uint32_t systems;
    const ecs_span *spans; /* by system, then pass, then subtask, the finish last */
    uint32_t span_count;
    const ecs_sleep *sleeps; /* by worker, then start */
    uint32_t sleep_count;
    uint32_t sleeps_lost; /* sleeps of the step not kept (each worker keeps its last 64) */
    /* Per worker (workers of them): the CPU time its thread got in the
     * phase, by the thread's own CPU clock. A worker that neither slept
     * nor got all of its awake time was runnable and not running: the
     * machine ran something else. NULL where the system has no such
     * clock for another thread (Windows) or no system ran. */
    const uint64_t *cpu_ns;
} ecs_timeline;

/* The last step's timeline, valid until the next step (or
 * ecs_set_timeline); out is required (false without it, a misuse).
 * False, with *out zeroed, when no step ran with the
 * timeline on since it was last turned on, when the last step failed
 * before its systems ran, or when recording ran out of memory. */
bool ecs_timeline_get(const ecs_context *ctx, ecs_timeline *out);
/* On by default; between steps only (owner thread, like ecs_set_workers).
 * Off, a step reads no clock per subtask (the balanced split still times
 * its own systems). */
void ecs_set_timeline(ecs_context *ctx, bool on);

/* What a timeline says about the parallelism of its step:
 *   work: the sum of all span lengths (subtasks and finishes);
 *   span: the critical path: the longest chain through the step's DAG
 *         where every pass of a system starts when its dependencies (or
 *         its previous pass) finished, lasts as long as its longest
 *         subtask, then its finish: the step's length on unlimited
 *         workers with no scheduling cost;
 *   available = work / span (what the step offers), achieved = work /
 *   wall (what the run got: at most the worker count);
 *   busy[w] = worker w's span time / wall, for w < busy_count (<= 1);
 *   busy is optional (NULL: not filled).
 * tl is checked before it is read, since a caller may build or alter
 * one: it must have the context's system count, and every span a system
 * of the context, one of its passes, a worker below tl->workers and
 * start_ns <= end_ns <= wall_ns. Else it is a misuse: all zeros (busy
 * too), and ecs_misuse_message names the first such span and field. A
 * NULL tl or one without spans gives zeros. */
typedef struct ecs_profile {
    double work_ms, span_ms, wall_ms;
    double available, achieved;
} ecs_profile;

ecs_profile ecs_timeline_profile(const ecs_context *ctx, const ecs_timeline *tl, double *busy,
                                 uint32_t busy_count);

/* In a finish callback: the pass that just ended (0 for one-pass systems). */
uint32_t ecs_system_pass(const ecs_context *ctx, uint32_t system);

#ifdef __cplusplus
}
#endif
#endif /* ECS_H */
