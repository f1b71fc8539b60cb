/* hashes.c - writing a --hashes file (its format: hashes.h). */
#include "hashes.h"
#include "args.h"

#include <inttypes.h>
#include <string.h>

bool app_hashes_check(const char *prog, const app_options *o)
{
    if (!o->hashes) {
        if (!o->hashes_systems) return true;
        app_error(prog, "--hashes-systems adds each system's hash to the --hashes file: give "
                  "--hashes FILE too");
        return false;
    }
    return app_check_one_run(prog, "--hashes", o->hashes, "the hashes", o);
}

int app_hashes_stage(app_hashes *h, app_out *out, const char *prog, const app_options *o)
{
    h->out = out;
    h->systems = o->hashes_systems;
    return app_out_stage(out, prog, "--hashes", o->hashes, 0);
}

/* The systems that run, comma-separated, or "all". */
static void systems_on(const sim_world *w, char *buf, size_t size)
{
    size_t used = 0;
    uint32_t on = 0;
    buf[0] = '\0';
    for (uint32_t s = 0; s < SIM_SYSTEM_COUNT; s++) {
        if (!sim_system_enabled(w, s)) continue;
        on++;
        int n = snprintf(buf + used, size - used, "%s%s", used ? "," : "", sim_system_name(s));
        if (n > 0 && (size_t)n < size - used) used += (size_t)n;
    }
    if (on == SIM_SYSTEM_COUNT) snprintf(buf, size, "all");
    else if (on == 0) snprintf(buf, size, "none");
}

int app_hashes_begin(app_hashes *h, sim_world *w, const app_hashes_run *run)
{
    if (!h || !h->out || !h->out->kind) return 0;
    h->f = app_out_begin(h->out);
    if (!h->f) return 1;
    const sim_params *p = sim_get_params(w);
    char systems[256];
    systems_on(w, systems, sizeof systems);
    fprintf(h->f,
            "%s %d mode=%s seed=%" PRIu32 " entities=%" PRIu32 " world=%gx%g systems=%s "
            "threads=%" PRIu32 " inner-parallelism=%s storage=%s layout=%s kernel=%s loops=%s\n",
            APP_HASHES_MAGIC, APP_HASHES_VERSION, run->mode, p->seed, run->entities,
            (double)p->world_w, (double)p->world_h, systems, sim_workers(w),
            sim_inner_parallelism(w) ? "on" : "off",
            run->storage == ECS_STORAGE_FIXED ? "fixed" : "dynamic", sim_layout_name(run->layout),
            sim_kernel_name(sim_get_kernel(w)), sim_kernel_name(sim_get_loops(w)));
    fputs("frame state", h->f);
    for (uint32_t k = 0; h->systems && k < SIM_SYSTEM_COUNT; k++)
        fprintf(h->f, " %s", sim_system_name(sim_watch_order(k)));
    fprintf(h->f, "\n%" PRIu64 " %016" PRIx64, sim_frame(w), sim_hash(w));
    for (uint32_t k = 0; h->systems && k < SIM_SYSTEM_COUNT; k++) fputs(" -", h->f);
    fputc('\n', h->f);
    return 0;
}

static void keep_written(sim_world *w, uint32_t system, void *user)
{
    app_hashes *h = user;
    h->written[system] = sim_hash_written(w, system);
}

ecs_status app_hashes_step(app_hashes *h, sim_world *w)
{
    if (!h || !h->f || !h->systems) return sim_step(w);
    return sim_step_watched(w, keep_written, h);
}

bool app_hashes_frame(app_hashes *h, sim_world *w, uint64_t *state_hash)
{
    if (!h || !h->f) return false;
    *state_hash = sim_hash(w);
    fprintf(h->f, "%" PRIu64 " %016" PRIx64, sim_frame(w), *state_hash);
    for (uint32_t k = 0; h->systems && k < SIM_SYSTEM_COUNT; k++)
        fprintf(h->f, " %016" PRIx64, h->written[sim_watch_order(k)]);
    fputc('\n', h->f);
    return true;
}

int app_hashes_end(app_hashes *h, sim_world *w)
{
    if (!h || !h->f) return 0;
    fprintf(h->f, "end %" PRIu64 "\n", sim_frame(w));
    FILE *f = h->f;
    h->f = NULL;
    return app_out_end(h->out, f);
}

void app_hashes_discard(app_hashes *h)
{
    if (h->f) fclose(h->f);
    h->f = NULL;
}
