/* window.c - the window mode: the simulation drawn live, with the HUD and
 * the controls (see window_cli_usage). */
#include "window.h"
#include "gfx.h"
#include "sim.h"
#include "window_assets.h"
#include "window_cli.h"
#include "window_colors.h"
#include "window_hud.h"
#include "window_inspect.h"
#include "window_platform.h"
#include "window_rate.h"
#include "window_settings.h"
#include "window_shot.h"
#include "window_stats.h"
#include "window_trace.h"
#include "window_view.h"
#include "window_timeline.h"
#include "hashes.h"
#include "mem_limit.h"
#include "out.h"
#include "state_file.h"
#include "record.h"
#include "stop.h"

#include <SDL.h>

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "particles"
#define SPRAY_PER_FRAME 200u
#define NOTICE_NS 4000000000u
#define PAUSED_WAIT_MS 250
#define WINDOW_ALPHA_FLOOR 0.6f
#define WINDOW_LIFT 0.5f

/* The render system's output goes to the GPU as it is. */
_Static_assert(sizeof(sim_instance) == sizeof(gfx_instance), "instance layouts differ");
_Static_assert(offsetof(sim_instance, x) == offsetof(gfx_instance, x), "instance layouts differ");
_Static_assert(offsetof(sim_instance, y) == offsetof(gfx_instance, y), "instance layouts differ");
_Static_assert(offsetof(sim_instance, radius) == offsetof(gfx_instance, radius),
               "instance layouts differ");
_Static_assert(offsetof(sim_instance, color) == offsetof(gfx_instance, r), "instance layouts differ");

typedef struct window_app {
    window_options opt;
    window_platform plat;
    gfx_renderer *gfx;
    sim_world *world;
    gfx_batch *batches; /* one per render subtask: threads_max */
    app_out shot;       /* --screenshot, staged before the window opens */
    app_out state_out;  /* --save-state, staged before the window opens */
    app_state_file load; /* --load-state, read and checked before it opens */
    window_trace trace; /* --trace */
    app_out hashes_out; /* --hashes, staged before the window opens */
    app_hashes hashes;
    app_record rec;     /* --record */
    app_replay replay;  /* --replay: its inputs instead of the user's */
    window_stats stats;
    window_rate rate;   /* steps per second of wall time (--rate, [ and ]) */
    uint64_t stepped;   /* steps this run: --frames counts them */
    window_timeline timeline;
    window_settings settings; /* the P panel */
    window_inspect inspect; /* the right click's selection */
    float scale;        /* drawable pixels per window coordinate */
    int px_w, px_h;     /* drawable size this frame */
    bool running, paused, step_once, help, highlight, spraying;
    uint32_t shots_requested; /* presses of S not yet saved: a file each */
    bool shot_saved;    /* --screenshot is in place: the run's work is done */
    bool hidden; /* minimised or hidden: nothing to draw, the simulation waits */
    bool replaying;
    float mouse_x, mouse_y; /* window coordinates */
    window_view view;       /* zoom and pan */
    bool dragging;          /* right or middle button held: panning */
    window_color color;     /* how particles are coloured (C) */
    window_colors colors;
    char notice[192];
    uint64_t notice_until;
    /* The HUD as last drawn: where a click finds a system's row. */
    window_hud_layout layout;
    uint32_t hud_figures;
    int status;
} window_app;

static void notify(window_app *a, const char *fmt, ...) APP_PRINTF(2, 3);

static void notify(window_app *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->notice, sizeof a->notice, fmt, ap);
    va_end(ap);
    a->notice_until = window_now_ns() + NOTICE_NS;
}

/* ---- start and stop -------------------------------------------------------- */

/* The parameters the world is made of: the snapshot's (--load-state), the
 * recording's (--replay), or the defaults with --seed and --world. */
static sim_params world_params(const window_app *a)
{
    if (a->load.bytes) return a->load.info.params;
    if (a->replaying) return a->replay.cfg.params;
    sim_params p = sim_default_params();
    p.seed = a->opt.sim.seed;
    if (a->opt.sim.world_w) {
        p.world_w = (float)a->opt.sim.world_w;
        p.world_h = (float)a->opt.sim.world_h;
    }
    return p;
}

/* The world the window makes: the options', or the recording's. */
static sim_config world_config(const window_app *a)
{
    sim_config cfg = sim_default_config();
    cfg.params = world_params(a);
    cfg.particles = a->opt.sim.counts[0];
    cfg.storage = a->opt.sim.storages[0];
    cfg.layout = (sim_layout)a->opt.sim.layouts[0];
    cfg.capacity = a->opt.sim.storages[0] == ECS_STORAGE_FIXED ? a->opt.sim.fixed_limit : 0u;
    cfg.workers = a->opt.sim.threads[0];
    cfg.max_workers = a->opt.threads_max;
    cfg.inner_parallelism_off = !a->opt.sim.ip_on[0];
    cfg.kernel = a->opt.sim.kernel;
    cfg.loops = a->opt.sim.loops;
    if (a->replaying) { /* what the recording's world was made of */
        const sim_config *r = &a->replay.cfg;
        cfg.particles = r->particles;
        cfg.storage = r->storage; /* --storage's, where given (app_replay_load) */
        cfg.capacity = r->capacity;
    }
    return cfg;
}

/* Whether the world fits in the memory this process may take, the
 * snapshot's particles for --load-state (app_mem_check): checked before
 * the window opens. */
static bool world_fits(const window_app *a)
{
    sim_config cfg = world_config(a);
    if (a->load.bytes) app_state_size(&a->load, &cfg);
    const char *flag = a->load.bytes ? "--load-state" : a->replaying ? "--replay" : NULL;
    return app_mem_check(PROG, &cfg, flag, a->load.bytes ? a->opt.load_state : a->opt.replay);
}

static int create_world(window_app *a)
{
    sim_config cfg = world_config(a);
    ecs_error err = {0};
    ecs_status st = a->load.bytes
                        ? sim_load_state(a->load.bytes, a->load.size, &cfg, &a->world, &err)
                        : sim_create(&cfg, &a->world, &err);
    if (st != ECS_OK) {
        app_error(PROG, "the simulation could not start: %s", err.message);
        return 1;
    }
    if (app_record_begin(&a->rec, &cfg, a->world) != 0) return 1;
    a->batches = calloc(a->opt.threads_max + 1u, sizeof *a->batches);
    if (!a->batches || window_colors_init(&a->colors, a->opt.threads_max + 1u) != 0) {
        app_error(PROG, "out of memory");
        return 1;
    }
    return 0;
}

/* --hashes: staged, and not the file of another flag. */
static int stage_hashes(window_app *a)
{
    int rc = app_hashes_stage(&a->hashes, &a->hashes_out, PROG, &a->opt);
    if (rc == 0) rc = app_out_check_pair(&a->hashes_out, &a->shot);
    if (rc == 0) rc = app_out_check_pair(&a->hashes_out, &a->trace.out);
    if (rc == 0 && a->opt.timeline_report) {
        app_out report;
        rc = app_out_stage(&report, PROG, "--timeline-report", a->opt.timeline_report, 0);
        if (rc == 0) rc = app_out_check_pair(&a->hashes_out, &report);
        app_out_discard(&report);
    }
    return rc;
}

static int begin_hashes(window_app *a)
{
    app_hashes_run run = {"window", a->opt.sim.counts[0], a->opt.sim.storages[0],
                          (sim_layout)a->opt.sim.layouts[0]};
    return app_hashes_begin(&a->hashes, a->world, &run);
}

static int commit_hashes(void *out) { return app_out_commit(out); }

/* The run is over (not stopped): the file ended and put in place. */
static int finish_hashes(window_app *a)
{
    int rc = app_hashes_end(&a->hashes, a->world);
    if (rc != 0 || !a->hashes_out.kind) return rc;
    rc = app_stop_unless(commit_hashes, &a->hashes_out);
    return rc < 0 ? app_stop_status() : rc;
}

static int create_renderer(window_app *a, const window_assets *assets)
{
    const sim_params *p = sim_get_params(a->world);
    gfx_def def = gfx_default_def();
    def.load = window_platform_gl_proc;
    for (int s = 0; s < GFX_SHADER_COUNT; s++) def.shaders[s] = window_assets_file(assets, s);
    def.font = window_assets_file(assets, WINDOW_ASSET_FONT);
    def.font_px = 15.0f * a->scale;
    def.world_w = p->world_w;
    def.world_h = p->world_h;
    def.max_radius = p->radius_max;
    def.draw = a->opt.draw == WINDOW_DRAW_QUADS ? GFX_DRAW_QUADS : GFX_DRAW_POINTS;
    /* Faded particles stay visible and the thesis's dull random colours
     * brighter: a per-vertex look that costs no draw time. */
    def.alpha_floor = WINDOW_ALPHA_FLOOR;
    def.lift = WINDOW_LIFT;
    gfx_error err = {0};
    if (gfx_create(&def, &a->gfx, &err) != GFX_OK) {
        app_error(PROG, "%s%s", err.message,
                  err.status == GFX_ERR_GL ? "; try 'particles bench' (headless)" : "");
        return 1;
    }
    return 0;
}

static void update_sizes(window_app *a)
{
    int ww, wh;
    window_platform_sizes(&a->plat, &ww, &wh, &a->px_w, &a->px_h);
    a->scale = ww > 0 ? (float)a->px_w / (float)ww : 1.0f;
}

static int start(window_app *a, int argc, char **argv)
{
    int rc = window_cli_parse(argc, argv, &a->opt);
    if (rc != 0) return rc;
    if (a->opt.help) {
        rc = app_print_to_stdout(PROG, window_cli_usage);
        return rc ? rc : -1; /* -1: printed, nothing more to do */
    }
    if (app_stdout_was_closed() && a->opt.frames) {
        app_error(PROG, "standard output is closed: the --frames summary could not be printed");
        return 2;
    }
    rc = app_out_stage(&a->shot, PROG, "--screenshot", a->opt.screenshot, 0);
    if (rc == 0)
        rc = app_out_stage(&a->state_out, PROG, "--save-state", a->opt.save_state, 0);
    if (rc == 0) rc = app_out_check_pair(&a->shot, &a->state_out);
    /* Before any input is read: a FIFO among them waits for its writer,
     * and a stop signal ends that wait. */
    app_stop_install();
    if (rc == 0) rc = app_out_check_input(&a->shot, 1, "--load-state", a->opt.load_state);
    if (rc == 0 && a->opt.load_state) {
        rc = app_state_read(PROG, a->opt.load_state, &a->load);
        if (rc == 0) a->opt.sim.counts[0] = a->load.info.particles;
    }
    if (rc == 0) rc = window_trace_stage(&a->trace, &a->opt, &a->shot);
    if (rc == 0) rc = window_timeline_start(&a->timeline, &a->opt, &a->shot, &a->trace.out);
    if (rc == 0) rc = stage_hashes(a);
    if (rc == 0) rc = app_record_stage(&a->rec, PROG, "--record", a->opt.record);
    if (rc == 0) rc = app_out_check_pair(&a->rec.out, &a->shot);
    if (rc == 0) rc = app_out_check_pair(&a->rec.out, &a->trace.out);
    if (rc == 0 && a->opt.replay) {
        rc = app_replay_load(&a->replay, PROG, a->opt.replay, &a->opt);
        a->replaying = rc == 0;
    }
    if (rc == 0) rc = window_cli_check_center(PROG, &a->opt, world_params(a));
    if (rc != 0) return rc;
    if (!world_fits(a)) return 2;
    window_assets assets;
    rc = window_assets_find(a->opt.assets, &assets);
    /* Read before the world's workers start: a stop signal then lands on
     * the thread that waits for a FIFO among them. */
    if (rc == 0) rc = window_assets_read(&assets);
    if (rc != 0) return rc;
    rc = window_platform_open(&a->plat, "particles", (int)a->opt.width, (int)a->opt.height,
                              a->opt.vsync);
    if (rc == 0) {
        update_sizes(a);
        rc = create_world(a);
    }
    if (rc == 0) rc = window_trace_start(&a->trace, &a->opt);
    if (rc == 0) rc = begin_hashes(a);
    if (rc == 0) rc = create_renderer(a, &assets);
    window_assets_free(&assets);
    if (rc == 0) {
        const sim_params *p = sim_get_params(a->world);
        a->view = window_view_whole(p->world_w, p->world_h);
        gfx_begin_frame(a->gfx, a->px_w, a->px_h); /* the fit that --zoom and --center need */
        gfx_view fit = gfx_get_view(a->gfx);
        window_view_set_fit(&a->view, &fit);
        bool c = a->opt.center_given != NULL;
        window_view_set(&a->view, a->opt.zoom, c ? a->opt.center_x : 0.5f * p->world_w,
                        c ? a->opt.center_y : 0.5f * p->world_h);
        a->color = a->opt.color;
        gfx_set_trails(a->gfx, a->opt.trails != 0u);
        a->timeline.gl_renderer = gfx_renderer_name(a->gfx); /* the report names it */
    }
    return rc;
}

static void stop(window_app *a)
{
    sim_destroy(a->world);
    gfx_destroy(a->gfx);
    window_platform_close(&a->plat);
    free(a->batches);
    window_colors_fini(&a->colors);
    app_out_discard(&a->shot);
    app_out_discard(&a->state_out);
    app_state_free(&a->load);
    window_trace_free(&a->trace);
    window_timeline_free(&a->timeline);
    app_hashes_discard(&a->hashes);
    app_out_discard(&a->hashes_out);
    app_record_discard(&a->rec);
    app_replay_free(&a->replay);
}

/* ---- controls ------------------------------------------------------------------ */

/* Applies an input of the user's, recorded with --record; a replay takes
 * those that change the state from the recording only. */
static ecs_status apply(window_app *a, const app_input *in)
{
    bool state = in->kind != APP_INPUT_WORKERS && in->kind != APP_INPUT_IP;
    if (a->replaying && state) {
        notify(a, "replaying %s: sprays, waves, systems and settings come from it",
               a->opt.replay);
        return ECS_ERR_INVALID;
    }
    return app_record_apply(&a->rec, a->world, in);
}

static void change_workers(window_app *a, int delta)
{
    uint32_t n = sim_workers(a->world), max = sim_max_workers(a->world);
    uint32_t want = delta > 0 ? n + 1u : n - 1u;
    if (want > max) {
        /* One line that fits the notice's width: the pool's threads are
         * the larger of --threads and the CPUs (the help says so). */
        notify(a, "at most %u workers, the pool's threads: start with --threads N for more",
               (unsigned)max);
        return;
    }
    if (want < 1u) {
        notify(a, "workers stay 1: at least one worker steps the simulation");
        return;
    }
    apply(a, &(app_input){.kind = APP_INPUT_WORKERS, .n = want});
}

/* [ and ]: the rate halved or doubled within --rate's range; it changes
 * when steps run, never what they do, so it is not recorded. */
static void change_rate(window_app *a, bool faster)
{
    if (!a->rate.period_ns) {
        notify(a, "--rate max steps once per drawn frame: start with --rate N for [ and ]");
        return;
    }
    if (window_rate_change(&a->rate, faster))
        notify(a, "rate %g steps/s", window_rate_per_s(&a->rate));
    else
        notify(a, "rate stays %g steps/s: [ and ] keep it within %u..%u",
               window_rate_per_s(&a->rate), WINDOW_RATE_MIN, WINDOW_RATE_MAX);
}

static void new_wave(window_app *a, const char *why)
{
    ecs_status st = apply(a, &(app_input){.kind = APP_INPUT_WAVE});
    if (st == ECS_ERR_INVALID) return; /* replaying */
    if (st != ECS_OK) {
        app_error(PROG, "a new wave could not start: %s", ecs_status_name(st));
        a->status = 1;
        a->running = false;
        return;
    }
    notify(a, "%s: wave %u", why, (unsigned)sim_wave(a->world) + 1u);
}

/* The W key: the state now, to --save-state's file, or without it to
 * particles-frame<N>.state in the current directory (never replacing a
 * file). A notice says where, or that it failed (the terminal says why). */
static void save_state_now(window_app *a)
{
    char name[64];
    const char *path = a->opt.save_state;
    if (!path) {
        snprintf(name, sizeof name, "particles-frame%llu.state",
                 (unsigned long long)sim_frame(a->world));
        path = name;
    }
    app_out o;
    unsigned options = a->opt.save_state ? 0u : APP_OUT_NEW_ONLY;
    const char *flag = a->opt.save_state ? "--save-state" : "the W key's state";
    int rc = app_out_stage(&o, PROG, flag, path, options);
    if (rc == 0) rc = app_state_write(&o, a->world);
    if (rc == 0) rc = app_out_commit(&o);
    app_out_discard(&o);
    unsigned long long frame = (unsigned long long)sim_frame(a->world);
    if (rc == 0) notify(a, "state of frame %llu saved: %s", frame, path);
    else notify(a, "state not saved: see the terminal");
}

/* --save-state at the end: the state after the last frame stepped. */
static int save_state_at_exit(window_app *a)
{
    if (!a->state_out.kind) return 0;
    int rc = app_state_write(&a->state_out, a->world);
    return rc == 0 ? app_out_commit(&a->state_out) : rc;
}

/* Switches a system off or on from the next step (keys 1-9, a click on
 * its row of the HUD's chart). */
static void toggle_system(window_app *a, uint32_t system)
{
    bool on = !sim_system_enabled(a->world, system);
    if (apply(a, &(app_input){.kind = APP_INPUT_SYSTEM, .n = system, .on = on}) != ECS_OK)
        return;
    notify(a, "%s %s", ecs_system_stats_get(sim_ecs(a->world), system).name, on ? "on" : "off");
}

/* What the settings panel made of a key or a click: applied and told;
 * true when the panel took the event. */
static bool settings_done(window_app *a, const window_settings_change *c)
{
    if (c->apply && apply(a, &c->in) != ECS_OK) return true;
    if (c->notice[0]) notify(a, "%s", c->notice);
    return c->taken;
}

static void key(window_app *a, const SDL_KeyboardEvent *k)
{
    bool repeat = k->repeat != 0;
    SDL_Keycode sym = k->keysym.sym;
    window_settings_change set = {0};
    if (a->settings.shown)
        set = window_settings_key(&a->settings, a->world, sym, (k->keysym.mod & KMOD_SHIFT) != 0);
    if (settings_done(a, &set)) return;
    if (sym >= SDLK_1 && sym < SDLK_1 + SIM_SYSTEM_COUNT) { /* the chart's rows, top down */
        if (!repeat) toggle_system(a, (uint32_t)(sym - SDLK_1));
        return;
    }
    switch (sym) {
    case SDLK_ESCAPE: a->running = false; break;
    case SDLK_h: if (!repeat) a->help = !a->help; break;
    case SDLK_i:
        if (!repeat)
            apply(a, &(app_input){.kind = APP_INPUT_IP, .on = !sim_inner_parallelism(a->world)});
        break;
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS: change_workers(a, +1); break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS: change_workers(a, -1); break;
    case SDLK_SPACE: if (!repeat) a->paused = !a->paused; break;
    case SDLK_LEFTBRACKET: change_rate(a, false); break;
    case SDLK_RIGHTBRACKET: change_rate(a, true); break;
    case SDLK_n: if (a->paused) a->step_once = true; break;
    case SDLK_r: if (!repeat) new_wave(a, "new wave"); break;
    case SDLK_g: if (!repeat) a->highlight = !a->highlight; break;
    case SDLK_s: if (!repeat) a->shots_requested++; break;
    case SDLK_c:
        if (!repeat) {
            a->color = (window_color)((a->color + 1u) % WINDOW_COLOR_COUNT);
            notify(a, "colour: %s", WINDOW_COLOR_NAMES[a->color]);
            gfx_trails_clear(a->gfx); /* the trails would keep the old colours */
        }
        break;
    case SDLK_m:
        if (!repeat) {
            a->opt.trails = !a->opt.trails;
            gfx_set_trails(a->gfx, a->opt.trails != 0u);
            notify(a, "motion trails %s", a->opt.trails ? "on" : "off");
        }
        break;
    case SDLK_z:
    case SDLK_HOME: window_view_reset(&a->view); break;
    case SDLK_t: if (!repeat) a->timeline.shown = !a->timeline.shown; break;
    case SDLK_f: if (!repeat) window_timeline_freeze(&a->timeline); break;
    case SDLK_LEFT: window_timeline_pick(&a->timeline, +1); break;
    case SDLK_RIGHT: window_timeline_pick(&a->timeline, -1); break;
    case SDLK_a: if (!repeat) window_timeline_refit(&a->timeline); break;
    case SDLK_w: if (!repeat) save_state_now(a); break;
    case SDLK_p: if (!repeat) a->settings.shown = !a->settings.shown; break;
    default: break;
    }
}

/* Each click up zooms in by WINDOW_VIEW_WHEEL_STEP about the pointer. */
static void wheel(window_app *a, const SDL_MouseWheelEvent *w)
{
    int clicks = w->direction == SDL_MOUSEWHEEL_FLIPPED ? -w->y : w->y;
    if (clicks != 0)
        window_view_zoom_at(&a->view, a->mouse_x * a->scale, a->mouse_y * a->scale,
                            powf(WINDOW_VIEW_WHEEL_STEP, (float)clicks));
}

static void handle(window_app *a, const SDL_Event *e)
{
    switch (e->type) {
    case SDL_QUIT: a->running = false; break;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_MINIMIZED || e->window.event == SDL_WINDOWEVENT_HIDDEN)
            a->hidden = true;
        else if (e->window.event == SDL_WINDOWEVENT_RESTORED ||
                 e->window.event == SDL_WINDOWEVENT_SHOWN ||
                 e->window.event == SDL_WINDOWEVENT_EXPOSED)
            a->hidden = false;
        break;
    case SDL_KEYDOWN: key(a, &e->key); break;
    case SDL_MOUSEMOTION:
        a->mouse_x = (float)e->motion.x;
        a->mouse_y = (float)e->motion.y;
        if (a->dragging)
            window_view_pan(&a->view, (float)e->motion.xrel * a->scale,
                            (float)e->motion.yrel * a->scale);
        break;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
        if (e->type == SDL_MOUSEBUTTONDOWN && e->button.button == SDL_BUTTON_LEFT) {
            window_settings_change c = window_settings_click(&a->settings, a->world,
                                                             (float)e->button.x * a->scale,
                                                             (float)e->button.y * a->scale);
            if (settings_done(a, &c)) break;
            /* a step picked from the history: no spray */
            if (window_timeline_click(&a->timeline, (float)e->button.x * a->scale,
                                      (float)e->button.y * a->scale))
                break;
        }
        if (e->button.button == SDL_BUTTON_LEFT) {
            int system = window_hud_system_at(&a->layout, a->help, a->hud_figures,
                                              (float)e->button.x * a->scale,
                                              (float)e->button.y * a->scale);
            bool down = e->type == SDL_MOUSEBUTTONDOWN;
            if (down && system >= 0) toggle_system(a, (uint32_t)system); /* no spray */
            a->spraying = down && system < 0;
        }
        if (e->button.button == SDL_BUTTON_RIGHT || e->button.button == SDL_BUTTON_MIDDLE)
            a->dragging = e->type == SDL_MOUSEBUTTONDOWN;
        if (e->button.button == SDL_BUTTON_RIGHT)
            window_inspect_button(&a->inspect, a->world, a->gfx, e->type == SDL_MOUSEBUTTONDOWN,
                                  (float)e->button.x, (float)e->button.y, a->scale, stdout);
        a->mouse_x = (float)e->button.x;
        a->mouse_y = (float)e->button.y;
        break;
    case SDL_MOUSEWHEEL: wheel(a, &e->wheel); break;
    default: break;
    }
}

/* Drains the events; while paused with nothing to do, or hidden, blocks
 * for the next one (or a HUD refresh) instead of spinning. */
static void poll_events(window_app *a)
{
    SDL_Event e;
    bool idle = (a->paused && !a->step_once) || a->hidden;
    if (idle && SDL_WaitEventTimeout(&e, PAUSED_WAIT_MS)) handle(a, &e);
    while (SDL_PollEvent(&e)) handle(a, &e);
}

static bool mouse_world(const window_app *a, float *wx, float *wy)
{
    return gfx_pixel_to_world(a->gfx, a->mouse_x * a->scale, a->mouse_y * a->scale, wx, wy);
}

/* ---- a frame ----------------------------------------------------------------- */

static void step(window_app *a, window_frame *f)
{
    float wx, wy;
    if (a->replaying && app_replay_done(&a->replay)) { /* a recording of no frame */
        a->running = false;
        return;
    }
    if (a->replaying && app_replay_inputs(&a->replay, a->world) != 0) {
        a->status = 1;
        a->running = false;
        return;
    }
    if (a->spraying && !a->replaying && mouse_world(a, &wx, &wy))
        apply(a, &(app_input){.kind = APP_INPUT_SPRAY, .x = wx, .y = wy, .n = SPRAY_PER_FRAME});
    app_trace_step_start(a->trace.trace);
    uint64_t t0 = window_now_ns();
    ecs_status st = app_hashes_step(&a->hashes, a->world);
    f->step_ms += (double)(window_now_ns() - t0) / 1e6;
    app_trace_step_end(a->trace.trace, sim_ecs(a->world));
    f->steps++;
    a->stepped++;
    ecs_context *ctx = sim_ecs(a->world);
    for (uint32_t s = 0; s < SIM_SYSTEM_COUNT; s++)
        f->system_ms[s] += ecs_system_stats_get(ctx, s).wall_ms;
    window_timeline_record(&a->timeline, ctx, sim_frame(a->world));
    uint64_t hash;
    if (st == ECS_OK || st == ECS_ERR_FULL) (void)app_hashes_frame(&a->hashes, a->world, &hash);
    if (a->replaying && app_replay_check(&a->replay, a->world, st) != 0) {
        a->status = 1;
        a->running = false;
        return;
    }
    if (st == ECS_OK || st == ECS_ERR_FULL) app_record_frame(&a->rec, a->world);
    if (st == ECS_ERR_FULL) {
        char limit[32], dropped[32];
        notify(a, "storage full (fixed limit %s): %s sprayed particles dropped",
               window_hud_count(limit, sizeof limit, a->opt.sim.fixed_limit),
               window_hud_count(dropped, sizeof dropped, sim_spray_dropped(a->world)));
    } else if (st != ECS_OK) {
        app_error(PROG, "the simulation step failed: %s", sim_step_error(a->world));
        a->status = 1;
        a->running = false;
        return;
    }
    if (sim_alive(a->world) == 0 && !a->replaying) new_wave(a, "every particle died");
}

static uint32_t count_in(const gfx_batch *batches, uint32_t n, const float rect[4])
{
    uint32_t count = 0;
    for (uint32_t b = 0; b < n; b++)
        for (uint32_t i = 0; i < batches[b].count; i++) {
            const gfx_instance *p = &batches[b].items[i];
            count += p->x >= rect[0] && p->y >= rect[1] && p->x < rect[2] && p->y < rect[3];
        }
    return count;
}

/* G: the grid cell under the mouse, its particles highlighted (the shader
 * uses the same rectangle), outlined and magnified. */
static bool highlighted_cell(window_app *a, uint32_t *cell, float rect[4])
{
    float wx, wy;
    bool on = a->highlight && mouse_world(a, &wx, &wy);
    if (on) {
        sim_grid_layout g = sim_get_grid_layout(a->world);
        *cell = sim_cell_at(a->world, wx, wy);
        window_hud_cell_rect(&g, *cell, rect);
    }
    gfx_set_highlight(a->gfx, on, rect[0], rect[1], rect[2], rect[3]);
    return on;
}

static void draw_cell(window_app *a, uint32_t cell, const float rect[4], uint32_t batch_count,
                      const window_hud_layout *l)
{
    sim_grid_layout g = sim_get_grid_layout(a->world);
    const sim_params *p = sim_get_params(a->world);
    window_hud_cell_view v = {.grid = &g,
                              .cell = cell,
                              .count = count_in(a->batches, batch_count, rect),
                              .world_w = p->world_w,
                              .world_h = p->world_h};
    window_hud_cell(a->gfx, &v, l);
}

static void hud(window_app *a, const window_hud_layout *l)
{
    window_color_key key[WINDOW_COLOR_KEY_MAX];
    window_hud h = {
        .stats = &a->stats,
        .alive = sim_alive(a->world),
        .contacts = sim_contacts(a->world),
        .wave = sim_wave(a->world) + 1u, /* the first wave is wave 1 */
        .color = WINDOW_COLOR_NAMES[a->color],
        .zoom = a->view.zoom,
        .key = key,
        .key_n = window_colors_key(&a->colors, a->color, a->world, key),
        .key_unit = window_colors_key_unit(a->color),
        .frame = sim_frame(a->world),
        .workers = sim_workers(a->world),
        .max_workers = sim_max_workers(a->world),
        .ip_on = sim_inner_parallelism(a->world),
        .kernel = sim_kernel_name(sim_get_kernel(a->world)),
        .storage = a->opt.sim.storages[0],
        .fixed_limit = a->opt.sim.fixed_limit,
        .paused = a->paused,
        .rate = window_rate_per_s(&a->rate),
        .help = a->help,
        .vsync_on = a->plat.vsync_on,
        .draw = gfx_drawn_path(a->gfx),
        .gl_renderer = gfx_renderer_name(a->gfx),
        .gl_software = gfx_renderer_software(a->gfx),
        .notice = window_now_ns() < a->notice_until ? a->notice : NULL,
    };
    const sim_params *p = sim_get_params(a->world);
    gfx_view view = gfx_get_view(a->gfx);
    char warning[128];
    if (window_hud_view_warning(&view, p->world_w, p->world_h, warning, sizeof warning) ||
        window_hud_behind(a->stats.last.dropped ? &a->stats.last : NULL, h.rate, warning,
                          sizeof warning))
        h.warning = warning;
    ecs_context *ctx = sim_ecs(a->world);
    for (uint32_t s = 0; s < SIM_SYSTEM_COUNT; s++) {
        h.system_names[s] = ecs_system_stats_get(ctx, s).name;
        h.system_off[s] = !sim_system_enabled(a->world, s);
    }
    window_hud_draw(a->gfx, &h, l);
    a->layout = *l;
    a->hud_figures = window_hud_figure_count(h.warning != NULL);
}

static uint32_t gather_batches(window_app *a)
{
    uint32_t n = sim_render_batches(a->world);
    if (n > a->opt.threads_max + 1u) n = a->opt.threads_max + 1u; /* never: render splits per worker */
    for (uint32_t b = 0; b < n; b++) {
        uint32_t count = 0;
        const sim_instance *items = sim_render_batch(a->world, b, &count);
        a->batches[b] = (gfx_batch){(const gfx_instance *)(const void *)items, count};
    }
    return n;
}

/* --screenshot's failure is the run's (exit 1); the S key's (name given)
 * is only told. */
static void shot_done(window_app *a, int rc, const char *name)
{
    if (rc != 0) {
        if (!name) a->status = 1;
        notify(a, "screenshot failed: see the terminal");
    } else if (name) {
        notify(a, "saved %s", name);
    }
}

/* Saves what this frame drew, before the swap: the S key's file, and
 * --screenshot's on the last frame. Returns the time it took, which is
 * no part of rendering. */
static uint64_t screenshots(window_app *a, bool last)
{
    uint64_t t0 = window_now_ns();
    for (; a->shots_requested > 0; a->shots_requested--) { /* several presses in one frame */
        char name[64];
        shot_done(a, window_shot_key(a->gfx, a->px_w, a->px_h, name, sizeof name), name);
    }
    if (last && a->shot.kind && !app_stop_signal()) {
        int rc = window_shot_save(a->gfx, a->px_w, a->px_h, &a->shot);
        a->shot_saved = rc == 0;
        shot_done(a, rc, NULL);
    }
    return window_now_ns() - t0;
}

static void draw(window_app *a, window_frame *f, bool last)
{
    uint64_t t0 = window_now_ns();
    update_sizes(a);
    gfx_begin_frame(a->gfx, a->px_w, a->px_h);
    gfx_view fit = gfx_get_view(a->gfx);
    window_view_set_fit(&a->view, &fit);
    gfx_view zoomed = window_view_get(&a->view);
    gfx_set_view(a->gfx, &zoomed);
    window_hud_layout layout = window_hud_layout_of(a->gfx, a->help, a->px_w, a->px_h, a->scale);
    uint32_t n = gather_batches(a), shown_n = n;
    const gfx_batch *shown =
        window_colors_apply(&a->colors, a->color, a->world, a->batches, n, &shown_n);
    if (!shown) {
        notify(a, "out of memory for the %s colours: the thesis's shown",
               WINDOW_COLOR_NAMES[a->color]);
        a->color = WINDOW_COLOR_THESIS;
        shown = a->batches;
        shown_n = n;
    }
    uint64_t t1 = window_now_ns();
    if (gfx_upload(a->gfx, shown, shown_n) != GFX_OK) notify(a, "the instance buffer could not be filled");
    uint64_t t2 = window_now_ns();
    gfx_trails_advance(a->gfx, f->steps);
    uint32_t cell = 0;
    float rect[4] = {0};
    bool lens = highlighted_cell(a, &cell, rect);
    gfx_draw_particles(a->gfx);
    if (a->highlight) {
        sim_grid_layout grid = sim_get_grid_layout(a->world);
        window_hud_grid_lines(a->gfx, &grid, &fit);
    }
    if (lens) draw_cell(a, cell, rect, n, &layout);
    uint64_t t3 = window_now_ns();
    hud(a, &layout);
    /* The timeline panel is placed first, the settings panel in the top
     * right corner next, the inspector's below it: each right-hand panel
     * ends above the timeline panel. */
    window_tl_layout tl =
        window_timeline_place(&a->timeline, a->gfx, &layout, lens, a->px_w, a->px_h);
    float tl_box[4] = {tl.x, tl.y, tl.fits ? tl.w : 0.0f, tl.h};
    window_settings_draw(&a->settings, a->gfx, a->world, &layout, lens, a->px_w, tl_box);
    if (window_timeline_draw(&a->timeline, a->gfx, &layout, lens, &tl, a->mouse_x * a->scale,
                             a->mouse_y * a->scale, a->px_w, a->px_h, last))
        a->status = 1;
    const window_settings *set = &a->settings;
    window_inspect_draw(&a->inspect, a->world, a->gfx, &layout, lens, a->px_w, tl_box,
                        (float[4]){set->x, set->y, set->w, set->h}, stdout);
    uint64_t t4 = window_now_ns();
    gfx_end_frame(a->gfx);
    uint64_t shots = screenshots(a, last);
    window_platform_swap(&a->plat);
    uint64_t t5 = window_now_ns();
    f->prepare_ms = (double)((t1 - t0) + (t4 - t3)) / 1e6;
    f->upload_ms = (double)(t2 - t1) / 1e6;
    f->draw_ms = (double)((t3 - t2) + (t5 - t4 - shots)) / 1e6;
    f->paused = a->paused; /* the HUD's step figures keep still meanwhile */
}

/* The steps this drawn frame runs: those the rate owes, one for N while
 * paused, none past --frames. */
static uint32_t steps_due(window_app *a, window_frame *f)
{
    uint64_t now = window_now_ns();
    uint32_t due;
    if (a->paused) {
        window_rate_hold(&a->rate, now);
        due = a->step_once ? 1u : 0u;
    } else {
        due = window_rate_due(&a->rate, now, &f->dropped);
    }
    a->step_once = false;
    if (a->opt.frames && due > a->opt.frames - a->stepped)
        due = (uint32_t)(a->opt.frames - a->stepped);
    size_t left = a->replaying ? a->replay.frame_n - a->replay.next : SIZE_MAX;
    return left < due ? (uint32_t)left : due;
}

/* The frame's steps; those still due once stepping took
 * WINDOW_RATE_BUDGET_NS are dropped, so that drawing and the keys keep
 * up where the steps cannot. */
static void run_steps(window_app *a, window_frame *f)
{
    uint32_t due = steps_due(a, f);
    /* The workers slept while the last frame drew: woken now, they are
     * looking for work when the step's first pass is pushed. */
    if (due > 0u) ecs_wake_workers(sim_ecs(a->world));
    uint64_t t0 = window_now_ns();
    for (; due > 0u && a->running; due--) {
        if (f->steps && window_now_ns() - t0 > WINDOW_RATE_BUDGET_NS) {
            f->dropped += due;
            break;
        }
        step(a, f);
    }
}

static void run(window_app *a)
{
    uint64_t now = window_now_ns();
    window_stats_init(&a->stats, now);
    window_rate_start(&a->rate, a->opt.rate, now);
    a->running = true;
    while (a->running && !app_stop_signal()) {
        poll_events(a);
        window_frame f = {0};
        if (!a->running) {
            /* Quit by the user before --frames: --screenshot still gets
             * the picture on screen (one more draw, not counted). */
            if (a->shot.kind) draw(a, &f, true);
            break;
        }
        if (a->hidden) {
            window_rate_hold(&a->rate, window_now_ns());
            continue;
        }
        run_steps(a, &f);
        if (!a->running) break;
        bool last = (a->opt.frames && a->stepped >= a->opt.frames) ||
                    (a->replaying && app_replay_done(&a->replay));
        draw(a, &f, last);
        window_stats_add(&a->stats, &f, window_now_ns());
        if (last) a->running = false;
    }
}

/* The systems switched off now, "collision, render", or "". */
static const char *systems_off(const window_app *a, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (uint32_t s = 0; s < SIM_SYSTEM_COUNT && used < size; s++)
        if (!sim_system_enabled(a->world, s))
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
                                     ecs_system_stats_get(sim_ecs(a->world), s).name);
    return buf;
}

int window_main(int argc, char **argv)
{
    window_app a;
    memset(&a, 0, sizeof a);
    int rc = start(&a, argc, argv);
    if (rc == 0) {
        run(&a);
        /* The recording holds every frame stepped, however the run ended. */
        int rec_rc = app_record_finish(&a.rec);
        /* A signal after --screenshot was put in place finds the run done:
         * exit 128+N promises the old file was kept. */
        if (app_stop_signal() && !a.shot_saved) {
            rc = app_stop_status();
        } else {
            int trace_rc = a.status ? 0 : window_trace_finish(&a.trace);
            if (trace_rc == 0 && a.status == 0) trace_rc = finish_hashes(&a);
            if (trace_rc == 0 && !a.status) trace_rc = save_state_at_exit(&a);
            char off[256];
            if (a.opt.frames)
                window_stats_print_summary(&a.stats, systems_off(&a, off, sizeof off),
                                           window_rate_per_s(&a.rate), stdout);
            if (a.replaying && !a.status) app_replay_print_end(&a.replay, stdout);
            if (!a.status) a.status = rec_rc;
            rc = a.status ? a.status : trace_rc ? trace_rc : app_stdout_finish(PROG);
        }
    }
    stop(&a);
    return rc < 0 ? 0 : rc;
}
