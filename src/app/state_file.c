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

int app_state_write(app_out *o, const sim_world *w)
{
    size_t n = sim_state_size(w);
    if (n == 0) {
        app_error(o->prog, "%s %s: spatial_partition is disabled: the grid collision would "
                  "test is an earlier frame's, which a snapshot does not hold", o->flag, o->path);
        return 1;
    }
    unsigned char *b = malloc(n);
    if (!b) {
        app_error(o->prog, "%s %s: out of memory for %zu bytes", o->flag, o->path, n);
        return 1;
    }
    (void)sim_save_state(w, b, n);
    FILE *f = app_out_begin(o);
    int rc = 1;
    if (f) {
        size_t put = fwrite(b, 1, n, f);
        rc = app_out_end(o, f);
        if (rc == 0 && put != n) {
            app_error(o->prog, "%s %s: %s", o->flag, o->path, strerror(errno));
            rc = 1;
        }
    }
    free(b);
    return rc;
}
