/* sim.h - the thesis particle simulation on the ecs module: the one public
 * header of src/sim.
 *
 * Six components (position, velocity, acceleration, color, circle, life)
 * and nine systems wired as the thesis's DAG plus the fade -> render edge:
 *
 *     acceleration -> velocity -> keep_in_bounds -> spatial_partition
 *                  -> collision -> solve_contacts -> render
 *     life -> fade -> render
 *
 * The contact order. collision finds every touching pair once, by grid
 * cell: a particle with the later ones of its cell, the next cell of its
 * row and the three cells below ("detection order": cells row-major, a
 * particle's partners in that order). The grid's rows are cut into bands
 * of 4 rows (the last may be shorter), fixed by the world size and the
 * largest radius alone. solve_contacts then solves, each list in
 * detection order: first the contacts inside every band (both particles
 * in its rows), band by band, then the contacts crossing each band border
 * (from a band's last row to the next band's first), border by border.
 * No two inner lists share a particle, nor two border lists, and a border
 * list shares particles only with the inner lists of its two bands; so
 * the bands are solved in parallel, each border list once both its bands'
 * inner lists are done, and the result is the same as solving every list
 * one after the other in that order: bit for bit, for any worker count.
 *
 * The walls. keep_in_bounds puts every circle crossing a wall back against
 * it before the grid is built, as in the thesis; a contact's push can then
 * move a circle past a wall again (in crowded worlds far past it). So
 * solve_contacts ends, once each grid row's last contact is solved, by
 * putting every circle of the row that crossed a wall back as
 * keep_in_bounds does: after every step each circle lies inside the world,
 * [r, w - r] x [r, h - r], and a window draws what the state holds. Each
 * row is walked once, by one subtask, after its final push, so the state
 * stays the same for any worker count, inner parallelism and kernel.
 *
 * One sim_step is one frame of fixed dt. The state after N frames depends
 * only on the parameters, the seed and the calls that add particles (sprays,
 * new waves): never on the worker count, inner parallelism or the storage
 * kind, even when workers and inner parallelism change between frames.
 *
 * What the module gives, besides stepping: live threading (sim_set_workers
 * up to max_workers threads started once, sim_set_inner_parallelism),
 * spraying particles at a point (sim_spray, created in the next step,
 * sim_spray_dropped when fixed storage is full), new waves (sim_new_wave),
 * the broadphase grid's layout for a UI (sim_get_grid_layout,
 * sim_cell_at) and one particle picked and inspected (sim_pick,
 * sim_inspect). All of these are owner-thread calls between steps.
 */
#ifndef SIM_H
#define SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Component ids (indices into the ecs context's component table). */
enum sim_component {
    SIM_C_POSITION,     /* sim_vec2 */
    SIM_C_VELOCITY,     /* sim_vec2 */
    SIM_C_ACCELERATION, /* sim_vec2 */
    SIM_C_COLOR,        /* sim_rgba */
    SIM_C_CIRCLE,       /* float radius */
    SIM_C_LIFE,         /* float seconds left */
    SIM_COMPONENT_COUNT
};

/* System ids, in declaration order. */
enum sim_system {
    SIM_S_ACCELERATION,
    SIM_S_VELOCITY,
    SIM_S_KEEP_IN_BOUNDS,
    SIM_S_SPATIAL_PARTITION,
    SIM_S_COLLISION,
    SIM_S_SOLVE_CONTACTS,
    SIM_S_RENDER,
    SIM_S_LIFE,
    SIM_S_FADE,
    SIM_SYSTEM_COUNT
};

typedef struct sim_vec2 {
    float x, y;
} sim_vec2;

typedef struct sim_rgba {
    uint8_t r, g, b, a;
} sim_rgba;

/* What the render system emits per particle, one array per subtask: what
 * the GPU draws (a window) or what a headless run builds and drops. */
typedef struct sim_instance {
    float x, y, radius;
    sim_rgba color; /* alpha already faded */
} sim_instance;

/* The workload. sim_default_params() is the thesis's (workload.md). */
typedef struct sim_params {
    float world_w, world_h;       /* bounds: [0, w] x [0, h] */
    float radius_min, radius_max; /* spawn radius, uniform */
    float speed_max;              /* spawn velocity per axis, uniform in [-s, s] */
    sim_vec2 acceleration;        /* the same for every particle */
    float life_min, life_max;     /* spawn life, uniform */
    float dt;                     /* fixed time step per frame */
    float alpha_per_life;         /* fade: alpha = min(255, life * this) */
    uint32_t seed;                /* Park-Miller seed; 0 behaves as 1 */
} sim_params;

sim_params sim_default_params(void);

/* The longest world side, and the most grid cells a world may need (its
 * area over the cell's, the cell a little wider than the largest circle). */
#define SIM_WORLD_SIDE_MAX 100000u
#define SIM_GRID_CELLS_MAX (UINT32_C(1) << 26)

/* Checks that parameters describe a runnable world (finite, ordered ranges,
 * the largest circle fits). Returns false and writes one line to msg. */
bool sim_params_check(const sim_params *p, char *msg, size_t msg_size);

/* ---- Density: how many particles a world holds ----------------------------
 *
 * The rule: the particles' circles, at their mean area (pi times the mean
 * of r^2 over the spawn radius range), may cover at most SIM_COVERAGE_MAX
 * times the world's area. sim_max_particles gives the count that reaches
 * it; the command line refuses more (--entities with --world).
 *
 * Why. Every touching pair is a contact that collision stores (20 bytes)
 * and solve_contacts solves each frame. Particles spawn uniformly over the
 * world, so a particle touches about 1.9 x coverage others (the area
 * within r_i + r_j of its center over the area per particle), and a frame
 * holds about that many contacts per particle: they grow with the square
 * of the count in a given world. The densest packing of circles covers
 * about 0.91 of the plane, so above a coverage of about 1 the circles can
 * never all be apart and every particle more only adds contacts. The
 * thesis's densest wave (200 000 in 1440x900, and the same density scaled
 * up, e.g. 1 000 000 in 3220x2012) covers 1.25 times its world. At 4 a
 * particle's contacts (about 7.5, 150 bytes) weigh about what the rest of
 * its state does, and a step's memory and time per particle stay within a
 * small multiple of the thesis's. Far past it memory runs out: 5 000 000
 * particles in 1440x900 (coverage 31) make some 300 million contacts a
 * frame, 100 000 in 5x5 (coverage over 30 000) billions. At the thesis's
 * radii [0.5, 2.5] the mean circle area is about 8.1 square units, so
 * 1440x900 holds at most 638 755 particles and 5x5 holds 12.
 *
 * sim_create itself takes any count (a test may crowd a world on purpose):
 * past the rule a step may run out of memory, and sim_step_error says so. */
#define SIM_COVERAGE_MAX 4.0

/* The most particles the rule allows in p's world (p as sim_params_check
 * accepts; 0 for a world that holds none), at most UINT32_MAX. */
uint32_t sim_max_particles(const sim_params *p);

/* An instruction level a part of the step is compiled for: the collision
 * kernel (sim_config.kernel: how a particle is tested against its
 * candidates) and, set apart from it, the element-wise loops
 * (sim_config.loops: life, fade, keep_in_bounds). Every level gives
 * exactly the same contacts in the same order and the same state, bit for
 * bit; they differ in speed only. The vector levels exist on x86-64 where
 * the CPU has the instructions; AUTO picks the widest one there is. */
typedef enum sim_kernel {
    SIM_KERNEL_AUTO = 0,
    SIM_KERNEL_SCALAR,
    SIM_KERNEL_AVX2,
    SIM_KERNEL_AVX512,
    SIM_KERNEL_COUNT
} sim_kernel;

/* "auto", "scalar", "avx2", "avx512". */
const char *sim_kernel_name(sim_kernel k);
/* Whether this build on this CPU has the level (AUTO: always). */
bool sim_kernel_available(sim_kernel k);
/* The level AUTO stands for here; any other level as it is. */
sim_kernel sim_kernel_resolve(sim_kernel k);

/* How the particles' components are stored in the ecs (docs/ecs.md,
 * "Storage kinds"). The state is the same, bit for bit, in both. */
typedef enum sim_layout {
    SIM_LAYOUT_SOA = 0, /* a column per component */
    SIM_LAYOUT_THESIS,  /* circle and color interleaved in one group, as the
                           thesis stores them; the rest in columns */
    SIM_LAYOUT_COUNT
} sim_layout;

/* "soa", "thesis"; "?" for a value past SIM_LAYOUT_COUNT. */
const char *sim_layout_name(sim_layout l);

typedef struct sim_config {
    sim_params params;
    sim_kernel kernel;          /* AUTO by default; an unavailable one is
                                   rejected by sim_create (ECS_ERR_INVALID) */
    /* The vector level of the element-wise loops (life, fade and
     * keep_in_bounds), apart from the collision kernel: AUTO by default,
     * the widest this CPU has. At AVX512 they walk their columns densely
     * under masks; below it, the index lists (the same state, bit for
     * bit). An unavailable one is rejected like kernel. */
    sim_kernel loops;
    uint32_t particles;         /* spawned before the first frame */
    ecs_storage storage;        /* fixed: capacity is the limit */
    uint32_t capacity;          /* fixed: the limit (0: particles); dynamic: the
                                   initial size (0: the ecs default, then grows) */
    uint32_t workers;           /* 0: online CPUs */
    uint32_t max_workers;       /* threads started once, the most sim_set_workers
                                   accepts (0: workers; below workers: rejected) */
    bool inner_parallelism_off; /* every system as one subtask */
    /* Split every system into one subtask per worker even past the
     * processors (tests of the splits); by default at most one per
     * processor (ecs_config.split_within_cpus). The state is the same. */
    bool split_every_worker;
    bool thesis_dag;            /* declare the thesis's DAG exactly (no fade ->
                                   render): validation must reject it */
    sim_layout layout;          /* SOA by default; past SIM_LAYOUT_COUNT:
                                   rejected by sim_create (ECS_ERR_INVALID) */
} sim_config;

sim_config sim_default_config(void);

typedef struct sim_world sim_world;

/* About the most memory, in bytes, a world of cfg holds at once while it
 * is made and stepped (what it touches, so what counts against a memory
 * limit): each particle's state in the ecs, the grid built for it, the
 * larger of the spawn's scratch and the contacts a frame at this density
 * finds (about 1.9 per particle at each unit of coverage, see
 * SIM_COVERAGE_MAX). cfg->params as sim_params_check accepts. Meant for a
 * check before sim_create: a world past it is refused rather than killed
 * when the memory runs out. */
uint64_t sim_memory_needed(const sim_config *cfg);

/* Builds the ecs context, its systems and the particles. On failure *out is
 * NULL and err says why (ECS_ERR_FULL: more particles than a fixed limit;
 * ECS_ERR_INVALID: bad parameters; a validation status for the DAG). */
ecs_status sim_create(const sim_config *cfg, sim_world **out, ecs_error *err);
void sim_destroy(sim_world *w);

/* One frame: every system along the DAG, then the refresh that removes the
 * particles whose life ran out. */
ecs_status sim_step(sim_world *w);
/* Why the last sim_step failed, one line without a final newline: what ran
 * out of memory and, when the world is past the density rule, that it is
 * too dense for that many particles; "" after a step that succeeded. */
const char *sim_step_error(const sim_world *w);

uint32_t sim_alive(const sim_world *w);
/* The collision kernel the world runs (never AUTO). */
sim_kernel sim_get_kernel(const sim_world *w);
/* The level of its element-wise loops (never AUTO). */
sim_kernel sim_get_loops(const sim_world *w);
uint64_t sim_frame(const sim_world *w);
/* The name of system id `system` (enum sim_system) as the ecs knows it,
 * e.g. "collision"; NULL for an id >= SIM_SYSTEM_COUNT. Needs no world. */
const char *sim_system_name(uint32_t system);
/* Contacts the collision system found in the last frame. */
uint32_t sim_contacts(const sim_world *w);
/* The state hash: XXH3 (64 bits) over the frame count and, for every live
 * particle in index order, its index and its components' fields, each
 * written as little-endian bytes, so equal states hash equal on every
 * processor. Uses the world's own hashing state: not to be called from
 * two threads at once on one world, nor while a step runs. */
uint64_t sim_hash(const sim_world *w);
const sim_params *sim_get_params(const sim_world *w);

/* ---- Watching the systems one by one (finding a divergence) ----------- */

/* Called by sim_step_watched after each system, with the system's id. */
typedef void (*sim_watch_fn)(sim_world *w, uint32_t system, void *user);

/* Position k (< SIM_SYSTEM_COUNT) of the order sim_step_watched runs the
 * systems in, one order of the DAG: acceleration, velocity,
 * keep_in_bounds, spatial_partition, collision, solve_contacts, life,
 * fade, render (life after the solve, so that the particles it kills
 * still collide in their last frame, as in sim_step); SIM_SYSTEM_COUNT
 * for k past the end. */
uint32_t sim_watch_order(uint32_t k);

/* One frame as sim_step, but each system as a step of its own
 * (ecs_step_systems, the sprays created before the first), in
 * sim_watch_order, calling watch(w, system, user) after each (a disabled
 * system too). The state after it is the same, bit for bit, as after
 * sim_step, and the step returns what sim_step would (the first failure;
 * sim_step_error says why). Slower: a refresh after every system, and the
 * last step's statistics and timeline are those of render alone. */
ecs_status sim_step_watched(sim_world *w, sim_watch_fn watch, void *user);

/* A hash of what system `system` writes, as it is now: the components it
 * writes of every live particle (its index, then the values, in index
 * order), the resources it writes (the grid's slots; the contact lists,
 * band by band) and its output (render's instances, in batch order).
 * The same for any worker count, inner parallelism, storage, layout and
 * kernel, like sim_hash. 0 for an id >= SIM_SYSTEM_COUNT. */
uint64_t sim_hash_written(const sim_world *w, uint32_t system);

/* The last frame's render output: batches in subtask order. */
uint32_t sim_render_batches(const sim_world *w);
const sim_instance *sim_render_batch(const sim_world *w, uint32_t batch, uint32_t *count);

/* ---- Threading (between steps; the state never depends on it) -------- */

/* Threads running the next steps, 1 <= workers <= sim_max_workers: the
 * rest are parked. ECS_ERR_INVALID (nothing changes) otherwise. */
ecs_status sim_set_workers(sim_world *w, uint32_t workers);
uint32_t sim_workers(const sim_world *w);
uint32_t sim_max_workers(const sim_world *w);
/* Systems split into subtasks (on) or run as one subtask each (off). */
void sim_set_inner_parallelism(sim_world *w, bool on);
bool sim_inner_parallelism(const sim_world *w);

/* ---- Systems on and off (between steps) ------------------------------- */

/* Enables or disables one system (enum sim_system) from the next step
 * on, as ecs_system_enable: a disabled system does not run, the others
 * still run in the DAG's order, and what it builds is not refreshed: the
 * render output is empty, the contacts are emptied (with collision off
 * nothing is pushed apart), and the grid keeps its last build (collision
 * then tests the positions of that step). The state
 * then depends on which systems ran in which frames, never on the worker
 * count. ECS_ERR_INVALID (nothing changes) for system >= SIM_SYSTEM_COUNT. */
ecs_status sim_enable_system(sim_world *w, uint32_t system, bool on);
bool sim_system_enabled(const sim_world *w, uint32_t system);

/* ---- Adding particles (between steps) ---------------------------------- */

/* Most spray particles waiting for the next step. */
#define SIM_SPRAY_MAX 65536u
/* Sprayed particles land within this distance of the sprayed point. */
#define SIM_SPRAY_RADIUS 20.0f

/* Queues n particles around world point (x, y): each uniform within
 * SIM_SPRAY_RADIUS of it, the point first moved so that the whole spray
 * (circles included) lies inside the world, so a spray at a wall or corner
 * keeps its shape instead of piling circles on the wall line;
 * radius, velocity, color and life as the workload draws them. They come
 * from the world's own spray generator (a stream of the seed), so a run
 * with the same seed and the same calls is the same. The next sim_step
 * creates them in call order before its systems run (from its step
 * callback), so that frame already moves, collides and ages them.
 * ECS_ERR_INVALID for n == 0 or a non-finite point; ECS_ERR_FULL, queueing
 * none, when more than SIM_SPRAY_MAX would wait; ECS_ERR_NOMEM. */
ecs_status sim_spray(sim_world *w, float x, float y, uint32_t n);
/* Spray particles queued for the next step. */
uint32_t sim_spray_pending(const sim_world *w);
/* Particles of the last step's sprays that were not created: fixed storage
 * was full (that step returned ECS_ERR_FULL; the world is intact). */
uint32_t sim_spray_dropped(const sim_world *w);

/* Kills every particle, then spawns the configured count again as
 * sim_create does (drawn in generator order, created in grid order), from
 * the generator stream of the next wave. Wave 0 is what sim_create spawned;
 * the frame count goes on; pending sprays are dropped. ECS_ERR_NOMEM (the
 * wave is then partial). */
ecs_status sim_new_wave(sim_world *w);
/* The current wave: 0 after sim_create, + 1 per sim_new_wave. */
uint32_t sim_wave(const sim_world *w);

/* ---- Changing the workload (between steps) ------------------------------
 *
 * A running world takes new values for part of its parameters: the
 * acceleration, at once (every live particle's and every particle's made
 * from then on); radius_min, speed_max, life_min and life_max, for the
 * particles drawn from then on (sprays queued after the call, new waves);
 * and the count each new wave spawns. The world's size, radius_max (the
 * grid's cells and the walls' reach are built on it), dt, alpha_per_life
 * and the seed stay as the world was made. A change is state: the frames
 * after it depend on it (never on the worker count), and a snapshot holds
 * it. Owner-thread calls between steps. */

/* Whether w takes p: the fixed fields as they are, p as sim_params_check
 * accepts, and, where radius_min changes, the wave size still within
 * sim_wave_size_max for p. false with one line in msg otherwise (the
 * value refused and what is allowed). */
bool sim_params_settable(const sim_world *w, const sim_params *p, char *msg, size_t msg_size);
/* Puts p in place (sim_params_settable) from now on, as the block above
 * says. ECS_ERR_INVALID, nothing changed, for parameters it refuses. */
ecs_status sim_set_params(sim_world *w, const sim_params *p);

/* The most particles a wave of p's world may hold in w: the density rule
 * (sim_max_particles) and, with fixed storage, the entity limit. */
uint32_t sim_wave_size_max(const sim_world *w, const sim_params *p);
/* Whether w takes a wave size of particles: 1 to sim_wave_size_max;
 * false with one line in msg (the bound and what sets it) otherwise. */
bool sim_wave_size_settable(const sim_world *w, uint32_t particles, char *msg, size_t msg_size);
/* The count every sim_new_wave spawns from now on (sim_config.particles
 * at first): 1 .. sim_wave_size_max(w, sim_get_params(w)), else
 * ECS_ERR_INVALID and nothing changes. */
ecs_status sim_set_wave_size(sim_world *w, uint32_t particles);
uint32_t sim_wave_size(const sim_world *w);

/* A world's workload as the calls above judge a change: its parameters
 * and wave size now, and its fixed storage's entity limit (0: dynamic).
 * sim_config_workload gives the one sim_create(cfg) starts with, so that
 * changes recorded for such a world can be checked, in order, before it is
 * made (a replay's reader). */
typedef struct sim_workload {
    sim_params params;
    uint32_t wave_size;
    uint32_t fixed_limit;
} sim_workload;

sim_workload sim_config_workload(const sim_config *cfg);
/* sim_params_settable's and sim_set_wave_size's judgement of a change to
 * the workload now: true, or false with one line in msg naming the value
 * refused and what is allowed. */
bool sim_workload_takes_params(const sim_workload *now, const sim_params *p, char *msg,
                               size_t msg_size);
bool sim_workload_takes_wave_size(const sim_workload *now, uint32_t particles, char *msg,
                                  size_t msg_size);

/* ---- Snapshots (docs/determinism.md, "Snapshots") ----------------------
 *
 * A snapshot holds what the next frames depend on: the parameters, the
 * frame, the wave, the spray generator, every live particle's components
 * at its index, which systems are enabled and the pending sprays; not the
 * worker count, inner parallelism, storage, layout or kernels, which never
 * change the state. A world loaded from it, under any of those, steps on
 * bit for bit as the saved one would have. Owner-thread calls between
 * steps. */

/* The version written; the loader reads every version from
 * SIM_STATE_VERSION_OLDEST on (2: a particle's radius may lie below
 * radius_min, which the settings may have raised after it spawned; the
 * layout is version 1's). */
#define SIM_STATE_VERSION 2u
#define SIM_STATE_VERSION_OLDEST 1u

/* Bytes of w's snapshot; 0 when w cannot be saved: spatial_partition is
 * disabled, so collision would test a grid of an earlier frame, which a
 * snapshot does not hold. */
size_t sim_state_size(const sim_world *w);
/* Where sim_save_state hands a snapshot's bytes: the next n (n > 0) of
 * them, in order. false stops the save. */
typedef bool (*sim_state_sink)(void *ctx, const void *bytes, size_t n);
/* Encodes w's snapshot into buf[0..size) (size > 0), handing buf to
 * put(ctx, ...) each time it is full and once more for the rest, so that
 * a snapshot of any size passes through a buffer of a fixed one. put must
 * not call into w. Returns the snapshot's size (sim_state_size), or 0:
 * that is 0 (nothing handed to put), or put returned false. */
size_t sim_save_state(const sim_world *w, void *buf, size_t size, sim_state_sink put, void *ctx);

/* What a snapshot holds, from its header. */
typedef struct sim_state_info {
    sim_params params;
    uint32_t particles; /* what a new wave spawns */
    uint32_t alive;     /* live particles */
    uint32_t span;      /* one past the highest live index */
    uint32_t sprays;    /* pending sprays */
    uint64_t frame;
} sim_state_info;

/* Checks buf[0..size) whole before anything is made: the magic, the
 * version, every count against the size, the checksum, the parameters
 * (sim_params_check), and every particle inside the world with finite
 * values and a radius in (0, radius_max]. false, with one line in msg
 * (what is wrong: truncated, damaged, not a snapshot, a newer version,
 * values out of range); true and *info (may be NULL) otherwise. */
bool sim_state_check(const void *buf, size_t size, sim_state_info *info, char *msg,
                     size_t msg_size);
/* Makes a world from a snapshot: the parameters, particles and frame are
 * the snapshot's (cfg's params and particles are not read); the rest of
 * cfg (workers, max_workers, inner parallelism, storage, capacity, layout,
 * kernels) as sim_create takes it. Fixed storage with capacity 0 takes the
 * larger of the wave's count and the snapshot's index span. ECS_ERR_INVALID
 * with sim_state_check's line for a bad snapshot; ECS_ERR_FULL when the
 * fixed limit is below the highest index the snapshot uses; ECS_ERR_NOMEM;
 * sim_create's failures. */
ecs_status sim_load_state(const void *buf, size_t size, const sim_config *cfg, sim_world **out,
                          ecs_error *err);

/* ---- The broadphase grid, for a UI ------------------------------------- */

/* Square cells of side cell_size, cols x rows of them from (0, 0), indexed
 * row-major (y * cols + x). A particle belongs to the cell of its center. */
typedef struct sim_grid_layout {
    float cell_size;
    uint32_t cols, rows;
} sim_grid_layout;

sim_grid_layout sim_get_grid_layout(const sim_world *w);
/* The row-major cell of world point (x, y); points outside the world fall
 * in the nearest border cell, as in the grid itself. */
uint32_t sim_cell_at(const sim_world *w, float x, float y);

/* ---- One particle, for an inspector (between steps) ---------------------- */

/* The live particle at world point (x, y) into *out: of those whose
 * centre lies within max(radius, reach) of it, the nearest (of equals,
 * the lowest index); the null handle when there is none. reach (world
 * units, >= 0) lets a UI pick a circle drawn smaller than a few pixels.
 * Walks an ECS query over position and circle, made for the call.
 * ECS_ERR_NOMEM (the query could not be made: *out null). */
ecs_status sim_pick(sim_world *w, float x, float y, float reach, ecs_entity *out);

/* Contacts sim_inspect lists at most (it counts every one). */
#define SIM_INSPECT_CONTACTS_MAX 8u

/* What sim_inspect tells of one particle. */
typedef struct sim_inspection {
    ecs_entity entity;
    sim_vec2 position, velocity, acceleration;
    sim_rgba color;
    float radius, life;
    uint32_t cell, cell_x, cell_y; /* the grid cell of its position now (sim_cell_at) */
    /* It was in the last step: false before the first step and for the
     * particles of a wave made since. What follows holds only when true. */
    bool stepped;
    /* Its contacts in that step: the particles collision found touching it
     * (none when collision was off), counted, and the lowest
     * SIM_INSPECT_CONTACTS_MAX entity indices of them, ascending. Found
     * again from the grid that step built: the circles of its cell and the
     * eight around it, the cells collision pairs it with, under
     * collision's own rule (centres at most the radii's sum apart). */
    uint32_t contact_count;
    uint32_t contacts[SIM_INSPECT_CONTACTS_MAX];
    /* The velocity system's subtask (of `subtasks`) whose entity range held
     * it in that step, and the worker that ran it, from the ECS's timeline
     * of the step; moved false where the timeline holds none (velocity
     * off, the timeline off, a watched step). */
    bool moved;
    uint32_t subtask, subtasks, worker;
} sim_inspection;

/* Fills *out for particle e and returns true while e is alive; false (out
 * untouched) once its handle is stale: the particle died. */
bool sim_inspect(sim_world *w, ecs_entity e, sim_inspection *out);

/* The underlying context, for statistics (ecs_system_stats_get), the DAG
 * (ecs_dot) and inspection. Owned by the world. */
ecs_context *sim_ecs(sim_world *w);

#ifdef __cplusplus
}
#endif
#endif /* SIM_H */
