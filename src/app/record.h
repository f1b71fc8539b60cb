/* record.h - recordings: the inputs that change a world, applied
 * through one call that the window and a replay share, written to a
 * recording (--record) and read back to replay it bit for bit (--replay).
 *
 * A recording is text, a line each (docs/determinism.md, "Recordings"):
 * a header with what recreates the world (parameters, seed,
 * particles, storage), then per step the inputs applied before it and
 * "frame N HASH" (sim_hash after the step), and an end line with the
 * frame count and the POSIX cksum of every line above it. It is written
 * through out.h: replaced whole when the run ends, or not at all. */
#ifndef APP_RECORD_H
#define APP_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"
#include "out.h"
#include "sim.h"

/* The version written; every version from 1 up to it is read (1: no
 * "param" lines). */
#define APP_RECORD_VERSION 2u

/* What one input does. SPRAY, WAVE, SYSTEM and PARAM change the state;
 * WORKERS and IP do not (the state never depends on them): they are recorded for
 * the reader and a replay leaves them out. */
typedef enum app_input_kind {
    APP_INPUT_SPRAY,   /* sim_spray(x, y, n) */
    APP_INPUT_WAVE,    /* sim_new_wave */
    APP_INPUT_SYSTEM,  /* sim_enable_system(n, on) */
    APP_INPUT_WORKERS, /* sim_set_workers(n) */
    APP_INPUT_IP,      /* sim_set_inner_parallelism(on) */
    APP_INPUT_PARAM    /* sim_set_params or sim_set_wave_size: one app_param */
} app_input_kind;

/* The workload's values a PARAM input sets, named as the recording's
 * header names them (APP_PARAM_NAMES). */
typedef enum app_param {
    APP_PARAM_ACCELERATION, /* x, y */
    APP_PARAM_RADIUS,       /* x: radius_min, y: radius_max */
    APP_PARAM_SPEED,        /* x: speed_max */
    APP_PARAM_LIFE,         /* x: life_min, y: life_max */
    APP_PARAM_PARTICLES,    /* n: the wave size */
    APP_PARAM_COUNT
} app_param;

extern const char *const APP_PARAM_NAMES[APP_PARAM_COUNT];

typedef struct app_input {
    app_input_kind kind;
    app_param param; /* PARAM */
    float x, y; /* SPRAY: the world point; PARAM: the values */
    uint32_t n; /* SPRAY: particles; SYSTEM: the system id; WORKERS: the count;
                   PARAM: the wave size */
    bool on;    /* SYSTEM, IP */
} app_input;

/* The PARAM input that sets param to its value in p (or, for the
 * particles, to wave_size). */
app_input app_param_input(app_param param, const sim_params *p, uint32_t wave_size);
/* w's parameters with in's PARAM values put in (the wave size is no
 * parameter: *p as it is). */
void app_input_params(const sim_world *w, const app_input *in, sim_params *p);

/* Applies one input to w between steps: what sim.h's call returns. */
ecs_status app_input_apply(sim_world *w, const app_input *in);

/* A recording being written. Zero: none (every call below then does
 * nothing and returns 0). */
typedef struct app_record {
    app_out out;
    FILE *f;
    uint32_t crc;   /* POSIX cksum of the bytes written, before the length */
    uint64_t bytes;
    uint64_t frames;
} app_record;

/* Checks and stages path (NULL: none) for flag before anything runs:
 * 0, or 2 after one line naming the flag and the file. */
int app_record_stage(app_record *r, const char *prog, const char *flag, const char *path);
/* Writes the header: cfg as the world was created from it, w that world
 * (its kernel and loop levels). 0, or 1 after one line. */
int app_record_begin(app_record *r, const sim_config *cfg, const sim_world *w);
/* Applies in to w and, where sim.h's call succeeded, records it. */
ecs_status app_record_apply(app_record *r, sim_world *w, const app_input *in);
/* Records the step just taken: "frame N HASH". */
void app_record_frame(app_record *r, const sim_world *w);
/* Ends the file and puts it in place whole. 0, or 1 after one line
 * (nothing replaced). */
int app_record_finish(app_record *r);
/* Drops a recording not finished (the old file stays); safe twice. */
void app_record_discard(app_record *r);

/* A recording read back. */
typedef struct app_replay_frame {
    uint64_t frame, hash;
    size_t first, count; /* its inputs: inputs[first .. first + count) */
} app_replay_frame;

typedef struct app_replay {
    const char *prog, *path;
    sim_config cfg; /* the header's; threads, IP, layout and levels are the caller's */
    app_input *inputs;
    size_t input_n, input_cap;
    app_replay_frame *frames;
    size_t frame_n, frame_cap;
    size_t next; /* the frame app_replay_inputs applies next */
} app_replay;

/* Reads the recording at path for a run with options o: where o gives a
 * --storage other than the recording's, the replay runs on it (with
 * o's --fixed-limit, for fixed), and r->cfg says so. Every change of the
 * workload it records (the wave size, "param" lines) is judged against
 * that world as it reads. 0, or 2 after one line naming the file and
 * what is wrong (missing, not a recording, another version, a line that
 * does not read or a value the world would refuse, truncated, a checksum
 * that differs). */
int app_replay_load(app_replay *r, const char *prog, const char *path, const app_options *o);
/* Applies the state-changing inputs of the next frame to w. 0, or 1 after
 * one line naming the frame and the input sim.h refused. */
int app_replay_inputs(app_replay *r, sim_world *w);
/* After the step (status st) of the frame app_replay_inputs prepared:
 * checks its frame number and state hash and moves on. 0, or 1 after one
 * line "replay: frame N: state hash X, recorded Y" (or the step's error). */
int app_replay_check(app_replay *r, sim_world *w, ecs_status st);
/* Whether every frame was replayed. */
bool app_replay_done(const app_replay *r);
/* Prints "replay: N frames, every hash matched" to f, or, for a replay
 * quit before its end, "replay: stopped after K of N frames, every hash
 * so far matched". */
void app_replay_print_end(const app_replay *r, FILE *f);
/* Every frame, stepped as fast as it goes: 0 when every hash matched
 * (printed), else 1 after the line naming the first frame that did not. */
int app_replay_run(app_replay *r, sim_world *w);
void app_replay_free(app_replay *r);

#endif /* APP_RECORD_H */
