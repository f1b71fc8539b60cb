/* replay.c - a recording read back, checked line by line, and replayed
 * frame by frame against its state hashes (record.h). */
#include "record.h"
#include "record_internal.h"
#include "app_grow.h"
#include "args.h"
#include "read_file.h"
#include "stop.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_BYTES 200u
/* The largest recording read: a line of the most bytes for every frame
 * the end line can count, and then some. */
#define RECORDING_MAX_BYTES ((uint64_t)1 << 40)
#define WORDS_MAX 4
#define NOT_A_RECORDING "not a recording: the first line is not '" APP_RECORD_MAGIC " VERSION'"

/* The header's lines, in order: a key and how many values it takes, or a
 * param (its word and count those of APP_PARAM_NAMES, APP_PARAM_VALUES). */
enum { H_WORLD, H_RADIUS, H_SPEED, H_ACCELERATION, H_LIFE, H_DT, H_ALPHA, H_SEED, H_PARTICLES,
       H_STORAGE, H_THREADS, H_IP, H_LAYOUT, H_KERNEL, H_LOOPS, H_COUNT };
#define KEY_LINE(key, values) {(key), (values), APP_PARAM_COUNT}
#define PARAM_LINE(param) {NULL, 0, (param)}
static const struct {
    const char *key;
    int values;
    app_param param; /* APP_PARAM_COUNT: none */
} HEADER[H_COUNT] = {KEY_LINE("world", 2), PARAM_LINE(APP_PARAM_RADIUS),
                     PARAM_LINE(APP_PARAM_SPEED), PARAM_LINE(APP_PARAM_ACCELERATION),
                     PARAM_LINE(APP_PARAM_LIFE), KEY_LINE("dt", 1), KEY_LINE("alpha-per-life", 1),
                     KEY_LINE("seed", 1), PARAM_LINE(APP_PARAM_PARTICLES), KEY_LINE("storage", 2),
                     KEY_LINE("threads", 1), KEY_LINE("inner-parallelism", 1),
                     KEY_LINE("layout", 1), KEY_LINE("kernel", 1), KEY_LINE("loops", 1)};

static const char *const INPUT_NAMES[] = {"spray", "wave", "system", "workers",
                                          "inner-parallelism", "param"};
#define INPUT_COUNT ((uint32_t)(sizeof INPUT_NAMES / sizeof INPUT_NAMES[0]))

/* The reader's place in the file. */
typedef struct reader {
    app_replay *r;
    const app_options *o; /* the run's: its --storage */
    size_t line;  /* 1-based */
    uint32_t version;
    char *w[WORDS_MAX];
    int n;        /* words on the line */
    /* The parameters and wave size the lines so far leave: the header's,
     * then changed by each "param" line, which is checked on it. */
    sim_workload now;
    char why[320];
} reader;

/* Splits s at single spaces: false for an empty word or too many. */
static bool split(reader *rd, char *s)
{
    rd->n = 0;
    for (;;) {
        if (rd->n == WORDS_MAX || *s == ' ' || *s == '\0') return false;
        rd->w[rd->n++] = s;
        s = strchr(s, ' ');
        if (!s) return true;
        *s++ = '\0';
    }
}

static bool bad(reader *rd, const char *what)
{
    snprintf(rd->why, sizeof rd->why, "%s", what);
    return false;
}

/* A finite float as %.9g writes it. */
static bool real(const char *s, float *out)
{
    if (strspn(s, "0123456789.eE+-") != strlen(s) || *s == '\0') return false;
    char *end;
    errno = 0;
    float v = strtof(s, &end);
    if (*end != '\0' || errno != 0 || !isfinite(v)) return false;
    *out = v;
    return true;
}

static bool count(const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
    return app_scan_u32(s, strlen(s), lo, hi, out);
}

static bool word(const char *s, const char *const *names, uint32_t n, uint32_t *out)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = i;
            return true;
        }
    return false;
}

static bool kernel(const char *s)
{
    for (uint32_t k = 0; k < SIM_KERNEL_COUNT; k++)
        if (strcmp(s, sim_kernel_name((sim_kernel)k)) == 0) return true;
    return false;
}

/* The values of a param, as the header and a "param" line write them
 * into in (its param set). */
static bool param_values(app_param param, char *const *v, int n, app_input *in)
{
    in->kind = APP_INPUT_PARAM;
    in->param = param;
    if (n != APP_PARAM_VALUES[param]) return false;
    if (param == APP_PARAM_PARTICLES) return count(v[0], 0u, ECS_MAX_ENTITIES, &in->n);
    return real(v[0], &in->x) && (n == 1 || real(v[1], &in->y));
}

static bool header_line(reader *rd, int h)
{
    sim_config *c = &rd->r->cfg;
    sim_params *p = &c->params;
    char *const *v = rd->w + 1;
    uint32_t u = 0;
    bool is_param = HEADER[h].param != APP_PARAM_COUNT;
    const char *key = is_param ? APP_PARAM_NAMES[HEADER[h].param] : HEADER[h].key;
    int values = is_param ? APP_PARAM_VALUES[HEADER[h].param] : HEADER[h].values;
    if (rd->n != values + 1 || strcmp(rd->w[0], key) != 0) {
        snprintf(rd->why, sizeof rd->why, "expected '%s' and %d value%s", key, values,
                 values == 1 ? "" : "s");
        return false;
    }
    bool ok = true;
    app_input in = {0};
    switch (h) {
    case H_WORLD: ok = real(v[0], &p->world_w) && real(v[1], &p->world_h); break;
    case H_DT: ok = real(v[0], &p->dt); break;
    case H_ALPHA: ok = real(v[0], &p->alpha_per_life); break;
    case H_SEED: ok = count(v[0], 0u, UINT32_MAX, &p->seed); break;
    case H_STORAGE: {
        static const char *const kinds[] = {"dynamic", "fixed"}; /* ecs_storage order */
        ok = word(v[0], kinds, 2, &u) && count(v[1], 0u, ECS_MAX_ENTITIES, &c->capacity);
        c->storage = (ecs_storage)u;
        break;
    }
    case H_THREADS: ok = count(v[0], 1u, ECS_MAX_WORKERS, &c->workers); break;
    case H_IP:
        ok = word(v[0], APP_ON_OFF, 2, &u);
        c->inner_parallelism_off = u == 0u;
        break;
    case H_LAYOUT: {
        const char *names[SIM_LAYOUT_COUNT];
        for (uint32_t l = 0; l < SIM_LAYOUT_COUNT; l++) names[l] = sim_layout_name((sim_layout)l);
        ok = word(v[0], names, SIM_LAYOUT_COUNT, &u);
        c->layout = (sim_layout)u;
        break;
    }
    case H_KERNEL:
    case H_LOOPS: ok = kernel(v[0]); break; /* this machine picks its own */
    default: /* a param */
        ok = param_values(HEADER[h].param, v, values, &in);
        if (ok) app_param_put(&in, p, &c->particles);
        break;
    }
    if (!ok) snprintf(rd->why, sizeof rd->why, "'%s' has a value that does not read", key);
    char msg[200];
    if (ok && h == H_ALPHA && !sim_params_check(p, msg, sizeof msg)) {
        snprintf(rd->why, sizeof rd->why, "the parameters: %s", msg);
        ok = false;
    }
    if (ok && h == H_COUNT - 1) {
        /* The world the replay runs on: the run's storage where it gives
         * another; the waves it spawns judged on it from the first. */
        ecs_storage given = (ecs_storage)rd->o->sim.storages[0];
        if (app_options_given(rd->o, "storage") && given != c->storage) {
            c->storage = given;
            c->capacity = given == ECS_STORAGE_FIXED ? rd->o->sim.fixed_limit : 0u;
        }
        rd->now = sim_config_workload(c);
        if (!sim_workload_takes_wave_size(&rd->now, c->particles, msg, sizeof msg)) {
            snprintf(rd->why, sizeof rd->why, "the world it makes: %s", msg);
            ok = false;
        }
    }
    return ok;
}

static bool add_input(reader *rd, const app_input *in)
{
    app_replay *r = rd->r;
    if (!app_reserve((void **)&r->inputs, &r->input_cap, r->input_n + 1u, sizeof *in))
        return bad(rd, "out of memory");
    r->inputs[r->input_n++] = *in;
    return true;
}

/* The inputs since the last frame belong to this one. */
static bool add_frame(reader *rd)
{
    app_replay *r = rd->r;
    uint64_t frame = r->frame_n + 1u, hash = 0;
    char *end;
    errno = 0;
    if (rd->n != 3 || strspn(rd->w[1], "0123456789") != strlen(rd->w[1]) ||
        strtoull(rd->w[1], &end, 10) != frame || errno != 0 || strlen(rd->w[2]) != 16u ||
        strspn(rd->w[2], "0123456789abcdef") != 16u) {
        snprintf(rd->why, sizeof rd->why, "expected 'frame %" PRIu64 " HASH' (16 hex digits)",
                 frame);
        return false;
    }
    hash = strtoull(rd->w[2], NULL, 16);
    if (!app_reserve((void **)&r->frames, &r->frame_cap, r->frame_n + 1u, sizeof *r->frames))
        return bad(rd, "out of memory");
    size_t first = r->frame_n ? r->frames[r->frame_n - 1u].first + r->frames[r->frame_n - 1u].count
                              : 0u;
    r->frames[r->frame_n++] =
        (app_replay_frame){.frame = frame, .hash = hash, .first = first, .count = r->input_n - first};
    return true;
}

/* Whether the world would take the "param" line in, as the replay will
 * apply it after the lines above (sim.h's judgement, on rd->now); else
 * rd->why names the line and what is allowed. */
static bool workload_takes(reader *rd, const app_input *in)
{
    sim_workload next = rd->now;
    app_param_put(in, &next.params, &next.wave_size);
    char msg[200];
    bool ok = in->param == APP_PARAM_PARTICLES
                  ? sim_workload_takes_wave_size(&rd->now, in->n, msg, sizeof msg)
                  : sim_workload_takes_params(&rd->now, &next.params, msg, sizeof msg);
    if (!ok) {
        for (int i = 1; i < rd->n; i++) rd->w[i][-1] = ' '; /* the words back into one line */
        snprintf(rd->why, sizeof rd->why, "%s: %s", rd->w[0], msg);
        return false;
    }
    rd->now = next;
    return true;
}

static bool body_line(reader *rd)
{
    const char *k = rd->w[0];
    char *const *v = rd->w + 1;
    app_input in = {0};
    uint32_t u = 0;
    if (strcmp(k, "frame") == 0) return add_frame(rd);
    if (!word(k, INPUT_NAMES, rd->version > 1u ? INPUT_COUNT : INPUT_COUNT - 1u, &u))
        return bad(rd, rd->version > 1u
                           ? "not an input (spray, wave, system, workers, inner-parallelism, "
                             "param), a frame or the end"
                           : "not an input of version 1 (spray, wave, system, workers, "
                             "inner-parallelism), a frame or the end");
    in.kind = (app_input_kind)u;
    bool ok = false;
    switch (in.kind) {
    case APP_INPUT_SPRAY:
        ok = rd->n == 4 && real(v[0], &in.x) && real(v[1], &in.y) &&
             count(v[2], 1u, SIM_SPRAY_MAX, &in.n);
        break;
    case APP_INPUT_WAVE: ok = rd->n == 1; break;
    case APP_INPUT_SYSTEM: {
        const char *names[SIM_SYSTEM_COUNT];
        for (uint32_t s = 0; s < SIM_SYSTEM_COUNT; s++) names[s] = sim_system_name(s);
        ok = rd->n == 3 && word(v[0], names, SIM_SYSTEM_COUNT, &in.n) &&
             word(v[1], APP_ON_OFF, 2, &u);
        in.on = u != 0u;
        break;
    }
    case APP_INPUT_WORKERS: ok = rd->n == 2 && count(v[0], 1u, ECS_MAX_WORKERS, &in.n); break;
    case APP_INPUT_IP:
        ok = rd->n == 2 && word(v[0], APP_ON_OFF, 2, &u);
        in.on = u != 0u;
        break;
    case APP_INPUT_PARAM:
        ok = rd->n >= 3 && word(v[0], APP_PARAM_NAMES, APP_PARAM_COUNT, &u) &&
             param_values((app_param)u, v + 1, rd->n - 2, &in);
        break;
    }
    if (!ok) {
        snprintf(rd->why, sizeof rd->why, "'%s' with values that do not read", k);
        return false;
    }
    return (in.kind != APP_INPUT_PARAM || workload_takes(rd, &in)) && add_input(rd, &in);
}

/* The end line: the frame count and the cksum of every line above it. */
static bool end_line(reader *rd, uint32_t sum)
{
    uint32_t frames = 0, recorded = 0;
    if (rd->n != 3 || !count(rd->w[1], 0u, UINT32_MAX, &frames) ||
        !count(rd->w[2], 0u, UINT32_MAX, &recorded))
        return bad(rd, "expected 'end FRAMES CKSUM'");
    if (frames != rd->r->frame_n) {
        snprintf(rd->why, sizeof rd->why, "the end line counts %" PRIu32 " frames, the file "
                 "holds %zu", frames, rd->r->frame_n);
        return false;
    }
    if (recorded != sum) {
        snprintf(rd->why, sizeof rd->why, "damaged: the lines above sum to %" PRIu32
                 " (cksum), the end line says %" PRIu32, sum, recorded);
        return false;
    }
    return true;
}

/* Checks every line of text[0..size); false with rd->why (and rd->line) set. */
static bool read_all(reader *rd, char *text, size_t size)
{
    uint32_t crc = 0;
    uint64_t bytes = 0;
    bool ended = false, ok = true;
    size_t at = 0, len;
    for (char *buf; ok && (buf = app_next_line(text, size, &at, &len));) {
        rd->line++;
        if (ended) {
            ok = bad(rd, "a line after the end line");
            break;
        }
        bool is_text = len <= LINE_MAX_BYTES && !memchr(buf, '\0', len);
        if (rd->line == 1 && (!is_text || buf[len - 1] != '\n')) {
            ok = bad(rd, NOT_A_RECORDING);
            break;
        }
        if (buf[len - 1] != '\n') {
            ok = bad(rd, "truncated: the last line has no end");
            break;
        }
        if (!is_text) {
            ok = bad(rd, "not a line of a recording (too long, or not text)");
            break;
        }
        bool is_end = rd->line > 1u + H_COUNT && strncmp(buf, "end", 3) == 0 &&
                      (buf[3] == ' ' || buf[3] == '\n');
        if (!is_end) { /* the end line is no part of its own checksum */
            crc = app_cksum_add(crc, buf, len);
            bytes += len;
        }
        buf[len - 1] = '\0';
        if (rd->line == 1) {
            uint32_t v = 0;
            if (!split(rd, buf) || rd->n != 2 || strcmp(rd->w[0], APP_RECORD_MAGIC) != 0) {
                ok = bad(rd, NOT_A_RECORDING);
            } else if (!count(rd->w[1], 1u, APP_RECORD_VERSION, &v)) {
                snprintf(rd->why, sizeof rd->why, "a recording of version %s; this build "
                         "reads versions 1 to %u", rd->w[1], APP_RECORD_VERSION);
                ok = false;
            }
            rd->version = v;
        } else if (!split(rd, buf)) {
            ok = bad(rd, "words not separated by single spaces");
        } else if (is_end) {
            ok = end_line(rd, app_cksum_end(crc, bytes));
            ended = true;
        } else {
            ok = rd->line <= 1u + H_COUNT ? header_line(rd, (int)rd->line - 2) : body_line(rd);
        }
    }
    if (ok && rd->line == 0) ok = bad(rd, "not a recording: the file is empty");
    if (ok && !ended) {
        snprintf(rd->why, sizeof rd->why, "truncated: no end line after line %zu (frame %zu)",
                 rd->line, rd->r->frame_n);
        rd->line = 0;
        ok = false;
    }
    return ok;
}

int app_replay_load(app_replay *r, const char *prog, const char *path, const app_options *o)
{
    memset(r, 0, sizeof *r);
    r->prog = prog;
    r->path = path;
    r->cfg = sim_default_config();
    unsigned char *text;
    size_t size;
    char why[120];
    app_read_status st = app_read_file(path, RECORDING_MAX_BYTES, &text, &size, why, sizeof why);
    if (st == APP_READ_STOPPED) return app_stop_status();
    if (st != APP_READ_OK) {
        app_error(prog, "--replay %s: %s", path, why);
        return 2;
    }
    reader rd = {.r = r, .o = o};
    bool ok = read_all(&rd, (char *)text, size);
    free(text);
    if (ok) return 0;
    if (rd.line)
        app_error(prog, "--replay %s: line %zu: %s", path, rd.line, rd.why);
    else
        app_error(prog, "--replay %s: %s", path, rd.why);
    app_replay_free(r);
    return 2;
}

/* ---- replaying ------------------------------------------------------------- */

int app_replay_inputs(app_replay *r, sim_world *w)
{
    const app_replay_frame *f = &r->frames[r->next];
    for (size_t i = f->first; i < f->first + f->count; i++) {
        const app_input *in = &r->inputs[i];
        if (in->kind == APP_INPUT_WORKERS || in->kind == APP_INPUT_IP) continue; /* no state */
        ecs_status st = app_input_apply(w, in);
        if (st != ECS_OK) {
            app_error(r->prog, "replay: frame %" PRIu64 ": the recorded %s could not be "
                      "applied: %s", f->frame, INPUT_NAMES[in->kind], ecs_status_name(st));
            return 1;
        }
    }
    return 0;
}

int app_replay_check(app_replay *r, sim_world *w, ecs_status st)
{
    const app_replay_frame *f = &r->frames[r->next++];
    if (st != ECS_OK && st != ECS_ERR_FULL) { /* FULL: sprays dropped, as recorded */
        app_error(r->prog, "replay: frame %" PRIu64 ": the step failed: %s", f->frame,
                  sim_step_error(w));
        return 1;
    }
    uint64_t hash = sim_hash(w);
    if (sim_frame(w) != f->frame || hash != f->hash) {
        app_error(r->prog, "replay: frame %" PRIu64 ": state hash %016" PRIx64 ", recorded %016"
                  PRIx64, f->frame, hash, f->hash);
        return 1;
    }
    return 0;
}

bool app_replay_done(const app_replay *r) { return r->next == r->frame_n; }

void app_replay_print_end(const app_replay *r, FILE *f)
{
    if (app_replay_done(r))
        fprintf(f, "replay: %zu frames, every hash matched\n", r->frame_n);
    else
        fprintf(f, "replay: stopped after %zu of %zu frames, every hash so far matched\n", r->next,
                r->frame_n);
}

int app_replay_run(app_replay *r, sim_world *w)
{
    while (!app_replay_done(r)) {
        if (app_stop_signal()) return app_stop_status();
        if (app_replay_inputs(r, w) != 0) return 1;
        ecs_status st = sim_step(w);
        if (app_replay_check(r, w, st) != 0) return 1;
    }
    app_replay_print_end(r, stdout);
    return 0;
}

void app_replay_free(app_replay *r)
{
    free(r->inputs);
    free(r->frames);
    r->inputs = NULL;
    r->frames = NULL;
    r->input_n = r->frame_n = r->input_cap = r->frame_cap = r->next = 0;
}
