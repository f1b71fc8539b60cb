/* state_file.c - snapshot files: read whole and checked, or written
 * through a staged output. */
#include "state_file.h"

#include "args.h"
#include "read_file.h"
#include "stop.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest snapshot read: every entity the ECS can hold, at far more
 * bytes each than a snapshot spends on one. */
#define STATE_MAX_BYTES ((uint64_t)ECS_MAX_ENTITIES * 256u)

bool app_state_check_options(const char *prog, const app_options *o)
{
    static const char *const held[] = {"entities", "seed", "world"};
    for (size_t i = 0; o->load_state && i < sizeof held / sizeof held[0]; i++) {
        if (!app_options_given(o, held[i])) continue;
        app_error(prog, "--load-state %s: the snapshot holds the parameters, particles and "
                  "seed; --%s does not apply", o->load_state, held[i]);
        return false;
    }
    return true;
}

int app_state_read(const char *prog, const char *path, app_state_file *out)
{
    *out = (app_state_file){0};
    unsigned char *b;
    size_t n;
    char why[120], msg[240];
    app_read_status st = app_read_file(path, STATE_MAX_BYTES, &b, &n, why, sizeof why);
    if (st == APP_READ_STOPPED) return app_stop_status();
    if (st != APP_READ_OK) {
        app_error(prog, "--load-state %s: %s", path, why);
        return 2;
    }
    if (!sim_state_check(b, n, &out->info, msg, sizeof msg)) {
        app_error(prog, "--load-state %s: %s", path, msg);
        free(b);
        return 2;
    }
    out->bytes = b;
    out->size = n;
    return 0;
}

void app_state_free(app_state_file *f)
{
    free(f->bytes);
    *f = (app_state_file){0};
}

/* The bytes of a snapshot on their way: encoded a chunk at a time, so the
 * memory a save takes does not grow with the world. */
enum { STATE_CHUNK = 1u << 20 };

typedef struct state_sink {
    FILE *f;
    int err; /* errno of the write that failed */
} state_sink;

static bool sink_put(void *ctx, const void *bytes, size_t n)
{
    state_sink *s = ctx;
    if (fwrite(bytes, 1, n, s->f) == n) return true;
    s->err = errno;
    return false;
}

int app_state_write(app_out *o, const sim_world *w)
{
    if (sim_state_size(w) == 0) {
        app_error(o->prog, "%s %s: spatial_partition is disabled: the grid collision would "
                  "test is an earlier frame's, which a snapshot does not hold", o->flag, o->path);
        return 1;
    }
    unsigned char *b = malloc(STATE_CHUNK);
    if (!b) {
        app_error(o->prog, "%s %s: out of memory for %u bytes", o->flag, o->path,
                  (unsigned)STATE_CHUNK);
        return 1;
    }
    state_sink s = {app_out_begin(o), 0};
    int rc = 1;
    if (s.f) {
        bool put = sim_save_state(w, b, STATE_CHUNK, sink_put, &s) != 0;
        rc = app_out_end(o, s.f);
        if (rc == 0 && !put) {
            app_error(o->prog, "%s %s: %s", o->flag, o->path, strerror(s.err ? s.err : EIO));
            rc = 1;
        }
    }
    free(b);
    return rc;
}

void app_state_size(const app_state_file *f, sim_config *cfg)
{
    const sim_state_info *i = &f->info;
    cfg->params = i->params;
    cfg->particles = i->span > i->particles ? i->span : i->particles;
}
