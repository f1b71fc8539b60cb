/* hashes.h - --hashes FILE: the state hash of one run after every frame
 * and, with --hashes-systems, the hash of what each system wrote, for
 * `particles diff` (diff.h) to compare.
 *
 * The file is text, one item a line, fields separated by one space:
 *
 *   particles-hashes 1 mode=bench seed=42 entities=1000 world=1440x900 systems=all
 *       threads=4 inner-parallelism=on storage=fixed layout=soa kernel=avx2 loops=avx2
 *   frame state [SYSTEM ...]
 *   0 HASH [- ...]
 *   1 HASH [HASH ...]
 *   ...
 *   end N
 *
 * Line 1 (one line) names the format and its version, then key=value
 * pairs, values without spaces: the mode that ran, then what decides the
 * state (seed, entities, world, systems: those --systems runs, or all),
 * then what must not change it (threads and inner parallelism at the
 * start, storage, layout, kernel, loops). Line 2 names the columns: the
 * state hash (sim_hash) and, with --hashes-systems, each system's hash
 * (sim_hash_written, after it ran) in the order they ran
 * (sim_watch_order). Then a line per frame, frames counted from 0 (the
 * spawned state, before the first step, where the systems' columns are
 * "-"), each hash 16 lowercase hexadecimal digits; then "end N", N the
 * last frame: a file cut short lacks it. The file is written through
 * out.h: whole, or not at all. */
#ifndef APP_HASHES_H
#define APP_HASHES_H

#include <stdbool.h>
#include <stdio.h>

#include "options.h"
#include "out.h"
#include "sim.h"

#define APP_HASHES_MAGIC "particles-hashes"
#define APP_HASHES_VERSION 1

typedef struct app_hashes {
    app_out *out;    /* --hashes, the caller's, staged before the run */
    FILE *f;         /* the run's content; NULL: no --hashes, or not begun */
    bool systems;    /* --hashes-systems */
    uint64_t written[SIM_SYSTEM_COUNT]; /* this frame's, by system id */
} app_hashes;

/* What line 1 says of a run beyond what the world tells. */
typedef struct app_hashes_run {
    const char *mode;    /* "bench", "window" */
    uint32_t entities;   /* the count asked for */
    ecs_storage storage;
    sim_layout layout;
} app_hashes_run;

/* --hashes-systems needs --hashes; in the bench --hashes needs one run:
 * one value of each list and --repeat 1. False after one line naming the
 * flag. */
bool app_hashes_check(const char *prog, const app_options *o);
/* Stages o->hashes into out, the caller's (never standard output), for
 * h: 0, or 2 after one line. */
int app_hashes_stage(app_hashes *h, app_out *out, const char *prog, const app_options *o);
/* Starts the content: lines 1 and 2 and frame 0, of w as created (its
 * systems switched off already). 0, or 1 after one line. Nothing without
 * --hashes. */
int app_hashes_begin(app_hashes *h, sim_world *w, const app_hashes_run *run);
/* One frame: sim_step, or with --hashes-systems sim_step_watched, which
 * takes each system's hash after it ran. Just sim_step when h is NULL or
 * has not begun. */
ecs_status app_hashes_step(app_hashes *h, sim_world *w);
/* The line of the frame just stepped: true with the state hash it wrote
 * in *state_hash, for the caller to reuse; false (nothing written) when
 * not begun. */
bool app_hashes_frame(app_hashes *h, sim_world *w, uint64_t *state_hash);
/* The end line; the content closed, ready for app_out_commit(h->out).
 * 0 (also when not begun), or 1 after one line (a full disk). */
int app_hashes_end(app_hashes *h, sim_world *w);
/* Closes the content where the run did not end it; the caller discards
 * its out. Safe twice. */
void app_hashes_discard(app_hashes *h);

#endif /* APP_HASHES_H */
