/* window_cli.c - the options of the window mode: its own flags; the
 * simulation's are parsed by options.c, one value each. */
#include "window_cli.h"
#include "window_timeline.h"

#include "window_view.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SIZE_MIN 64u
#define SIZE_MAX_PX 16384u

enum {
    OPT_FRAMES = APP_OPT_MODE_FIRST,
    OPT_SCREENSHOT,
    OPT_VSYNC,
    OPT_ASSETS,
    OPT_DRAW,
    OPT_SIZE,
    OPT_TRACE,
    OPT_TRACE_FRAMES,
    OPT_COLOR,
    OPT_ZOOM,
    OPT_CENTER,
    OPT_TIMELINE,
    OPT_TIMELINE_REPORT
};

static const struct option LONGOPTS[] = {
    {"frames", required_argument, NULL, OPT_FRAMES},
    {"screenshot", required_argument, NULL, OPT_SCREENSHOT},
    {"vsync", required_argument, NULL, OPT_VSYNC},
    {"assets", required_argument, NULL, OPT_ASSETS},
    {"draw", required_argument, NULL, OPT_DRAW},
    {"size", required_argument, NULL, OPT_SIZE},
    {"trace", required_argument, NULL, OPT_TRACE},
    {"trace-frames", required_argument, NULL, OPT_TRACE_FRAMES},
    {"color", required_argument, NULL, OPT_COLOR},
    {"zoom", required_argument, NULL, OPT_ZOOM},
    {"center", required_argument, NULL, OPT_CENTER},
    {"timeline", required_argument, NULL, OPT_TIMELINE},
    {"timeline-report", required_argument, NULL, OPT_TIMELINE_REPORT},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};

static const char *const ON_OFF[] = {"off", "on"};
static const char *const DRAWS[] = {"points", "quads"};
static const char *const AUTO_OFF_ON[] = {"auto", "off", "on"};

static window_options defaults(void)
{
    uint32_t cpus = app_online_cpus();
    return (window_options){
        .sim = {.counts = {50000u},
                .count_n = 1,
                .ip_on = {true},
                .ip_n = 1,
                .storages = {ECS_STORAGE_FIXED},
                .storage_n = 1,
                .threads = {cpus},
                .thread_n = 1,
                .fixed_limit = APP_THESIS_FIXED_LIMIT}, /* room to spray */
        .max_threads = cpus,
        .vsync = true,
        .draw = WINDOW_DRAW_POINTS,
        .width = 1440u,
        .height = 900u,
        .trace_frames = {.first = APP_TRACE_FIRST_DEFAULT, .last = APP_TRACE_LAST_DEFAULT},
        .color = WINDOW_COLOR_THESIS,
        .zoom = 1.0f,
    };
}

void window_cli_usage(FILE *f)
{
    const window_options d = defaults();
    fputs("usage: particles [run] [options]\n"
          "Opens a window on the thesis particle simulation, stepped by the ECS on\n"
          "--threads workers and drawn with OpenGL 3.3: a wave of --entities\n"
          "particles falls, collides and fades, and a HUD shows fps, step and render\n"
          "times, the particle count, workers, inner parallelism and storage.\n"
          "\n",
          f);
    app_options_usage(f, 1u, &d.sim);
    fprintf(f,
            "  --frames N                quit after N frames, 0..%u (default 0: when\n"
            "                            the window is closed)\n"
            "  --screenshot FILE         save the last frame at exit, FILE ending in .png;\n"
            "                            checked before the window opens, replaced whole\n"
            "                            through a temporary beside it (a link is\n"
            "                            followed, a FIFO written in place)\n"
            "  --vsync on|off            wait for the display's refresh (default on)\n"
            "  --assets DIR              the shaders and the font (default: next to the\n"
            "                            executable, then the install prefix's share/)\n"
            "  --draw points|quads       point sprites or instanced quads (default points)\n"
            "  --size WxH                the window's size, each %u..%u (default %ux%u)\n"
            "  --trace FILE              write the ECS timeline of frames --trace-frames\n"
            "                            as a Chrome trace (JSON) when the window closes,\n"
            "                            replaced whole; open it in ui.perfetto.dev: one\n"
            "                            track per worker, an event per subtask, finish\n"
            "                            and sleep\n"
            "  --trace-frames A:B        the steps --trace keeps, 1-based, A through B,\n"
            "                            1 <= A <= B, at most %u (default %u:%u); with\n"
            "                            --frames N, B <= N (the default stops at N);\n"
            "                            paused frames are no steps\n"
            "  --color MODE              how particles are coloured at start (C cycles):\n"
            "                            thesis (their own colours, alpha following\n"
            "                            life; default), speed (blue slow to red fast),\n"
            "                            worker (the worker that ran their render\n"
            "                            subtask in the last step), cell (their grid cell)\n"
            "  --zoom Z                  start zoomed in, 1..64 (default 1: the whole world)\n"
            "  --center X,Y              the world point shown at the view's centre at\n"
            "                            start (moved as little as needed to keep the\n"
            "                            zoomed view inside the world)\n"
            "  --timeline auto|off|on    the timeline panel at start (T toggles it); auto\n"
            "                            (default): on in a window of at least %ux%u\n"
            "  --timeline-report FILE    write the timeline shown as text (its figures,\n"
            "                            a line per block drawn, the tooltip): while it\n"
            "                            is frozen (F), each time that changes, and on\n"
            "                            the last frame of --frames; checked before the\n"
            "                            window opens, replaced whole each time\n"
            "  -h, --help                print this and exit\n"
            "\n"
            "A flag that takes a value is given once. A long flag may be shortened to\n"
            "any prefix that names only it (--ent 1000 for --entities 1000; --s is\n"
            "refused: --seed, --storage, --screenshot or --size).\n",
            WINDOW_MAX_FRAMES, SIZE_MIN, SIZE_MAX_PX, (unsigned)d.width, (unsigned)d.height,
            APP_TRACE_MAX_FRAMES, APP_TRACE_FIRST_DEFAULT, APP_TRACE_LAST_DEFAULT,
            WINDOW_TL_DEFAULT_W, WINDOW_TL_DEFAULT_H);
    app_options_usage_numbers(f, 1u);
    fputc('\n', f);
    fprintf(f,
            "Controls:\n"
            "  H                    show/hide this help on screen\n"
            "  I                    toggle inner parallelism\n"
            "  + / -                one worker more / fewer (1..max, live)\n"
            "  Space                pause/resume\n"
            "  N                    one frame while paused\n"
            "  R                    new wave\n"
            "  G                    highlight the grid cell under the mouse and its\n"
            "                       particles, magnified in a corner with the cells it\n"
            "                       is tested against\n"
            "  C                    next colouring: thesis, speed, worker, cell\n"
            "  mouse wheel          zoom in/out about the pointer (1x to 64x); the world\n"
            "                       point under the pointer stays under it\n"
            "  right or middle drag pan the zoomed view\n"
            "  Z or Home            back to the whole world (zoom 1x)\n"
            "  left mouse button    spray particles (through the ECS's deferred creation;\n"
            "                       with fixed storage at its limit the HUD says so)\n"
            "  S                    save a screenshot (particles-YYYYmmdd-HHMMSS.png in the\n"
            "                       current directory; never replaces a file)\n"
            "  T                    show/hide the timeline panel: the last step's subtasks\n"
            "                       per worker over a time axis in us (finish callbacks\n"
            "                       dark and outlined, sleeps a thin grey band, idle\n"
            "                       empty), that step's work, span (critical path),\n"
            "                       available (work/span) and achieved (work/wall)\n"
            "                       parallelism and each worker's busy share; the mouse\n"
            "                       over a block names its system, pass, subtask,\n"
            "                       entities, duration and worker. Shown at start in a\n"
            "                       window of at least %ux%u (--timeline); drawn where\n"
            "                       there is room for a lane per worker\n"
            "  F                    freeze the timeline on the step shown (the simulation\n"
            "                       runs on); F again follows the steps\n"
            "  Esc or closing the window  quit\n"
            "\n"
            "max is the larger of --threads and the online CPUs. With --frames it prints\n"
            "one summary line at exit: frames, mean fps, mean step ms, mean render ms\n"
            "(prepare + upload + draw). Exit status: 0 done, 1 no display / no OpenGL\n"
            "3.3 / a missing or broken shader or font (one line says which) / the\n"
            "screenshot or trace failed while written (a full disk), 2 bad input (an\n"
            "--assets that is not a directory, a --screenshot, --trace or\n"
            "--timeline-report whose file cannot be created, all checked before the\n"
            "window opens), 128+N stopped by signal N (SIGINT, SIGTERM, SIGHUP: no\n"
            "screenshot written, the old one kept). With no display it says so and suggests `particles bench`;\n"
            "SDL_VIDEODRIVER=offscreen is accepted only when set explicitly.\n",
          WINDOW_TL_DEFAULT_W, WINDOW_TL_DEFAULT_H);
}

/* "WxH", each within [SIZE_MIN, SIZE_MAX_PX]. */
static bool parse_size(const app_mode_cli *cli, const char *arg, window_options *o)
{
    size_t w = strcspn(arg, "xX");
    const char *h = arg + w + (arg[w] != '\0');
    if (arg[w] == '\0' || !app_scan_u32(arg, w, SIZE_MIN, SIZE_MAX_PX, &o->width) ||
        !app_scan_u32(h, strlen(h), SIZE_MIN, SIZE_MAX_PX, &o->height)) {
        app_error(cli->prog, "--size: '%s' is not WIDTHxHEIGHT with each from %u to %u "
                  "(e.g. 1440x900)", arg, SIZE_MIN, SIZE_MAX_PX);
        return false;
    }
    return true;
}

/* A finite decimal number spanning the n bytes at s: digits, one point,
 * an exponent (no hexadecimal, no "inf" or "nan", no spaces). */
static bool scan_double(const char *s, size_t n, double *out)
{
    char buf[64];
    if (n == 0 || n >= sizeof buf) return false;
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (strspn(buf, "0123456789.eE+-") != n) return false;
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (*end != '\0' || errno != 0 || !isfinite(v)) return false;
    *out = v;
    return true;
}

static bool parse_zoom(const app_mode_cli *cli, const char *arg, window_options *o)
{
    double z;
    if (!scan_double(arg, strlen(arg), &z) || !(z >= WINDOW_VIEW_ZOOM_MIN) ||
        !(z <= WINDOW_VIEW_ZOOM_MAX)) {
        app_error(cli->prog, "--zoom: '%s' is not a number from %g to %g (1: the whole world)", arg,
                  (double)WINDOW_VIEW_ZOOM_MIN, (double)WINDOW_VIEW_ZOOM_MAX);
        return false;
    }
    o->zoom = (float)z;
    return true;
}

/* "X,Y": world units; the world's bounds are checked once it exists. */
static bool parse_center(const app_mode_cli *cli, const char *arg, window_options *o)
{
    size_t x = strcspn(arg, ",");
    const char *y = arg + x + (arg[x] != '\0');
    double cx, cy;
    if (arg[x] == '\0' || !scan_double(arg, x, &cx) || !scan_double(y, strlen(y), &cy) ||
        cx < 0.0 || cy < 0.0) {
        app_error(cli->prog, "--center: '%s' is not X,Y with each a world coordinate of 0 or more "
                  "(e.g. 720,450)", arg);
        return false;
    }
    o->center_x = (float)cx;
    o->center_y = (float)cy;
    o->center_given = arg;
    return true;
}

static bool parse_png(const app_mode_cli *cli, const char *arg, window_options *o)
{
    size_t n = strlen(arg);
    if (n <= 4 || strcasecmp(arg + n - 4, ".png") != 0) {
        app_error(cli->prog, "--screenshot: '%s' is not a file name ending in .png", arg);
        return false;
    }
    o->screenshot = arg;
    return true;
}

typedef struct window_parse {
    app_mode_cli cli;
    window_options *o;
} window_parse;

static bool apply(int c, const char *arg, void *ctx)
{
    const window_parse *p = ctx;
    const app_mode_cli *cli = &p->cli;
    window_options *o = p->o;
    uint32_t i;
    switch (c) {
    case OPT_FRAMES: return app_parse_u32(cli, "--frames", arg, 0u, WINDOW_MAX_FRAMES, &o->frames);
    case OPT_SCREENSHOT: return parse_png(cli, arg, o);
    case OPT_VSYNC:
        if (!app_parse_word(cli, "--vsync", arg, ON_OFF, 2, &i)) return false;
        o->vsync = i == 1u;
        return true;
    case OPT_ASSETS:
        if (arg[0] == '\0') {
            app_error(cli->prog, "--assets: '' is not a directory name");
            return false;
        }
        o->assets = arg;
        return true;
    case OPT_DRAW:
        if (!app_parse_word(cli, "--draw", arg, DRAWS, 2, &i)) return false;
        o->draw = i == 1u ? WINDOW_DRAW_QUADS : WINDOW_DRAW_POINTS;
        return true;
    case OPT_SIZE: return parse_size(cli, arg, o);
    case OPT_TRACE: return app_parse_file(cli, "--trace", arg, &o->trace);
    case OPT_TRACE_FRAMES: return app_trace_parse_frames(cli, arg, &o->trace_frames);
    case OPT_COLOR:
        if (!app_parse_word(cli, "--color", arg, WINDOW_COLOR_NAMES, WINDOW_COLOR_COUNT, &i))
            return false;
        o->color = (window_color)i;
        return true;
    case OPT_ZOOM: return parse_zoom(cli, arg, o);
    case OPT_CENTER: return parse_center(cli, arg, o);
    case OPT_TIMELINE:
        if (!app_parse_word(cli, "--timeline", arg, AUTO_OFF_ON, 3, &i)) return false;
        o->timeline = i == 0u ? WINDOW_AUTO : i == 1u ? WINDOW_OFF : WINDOW_ON;
        return true;
    case OPT_TIMELINE_REPORT: return app_parse_file(cli, "--timeline-report", arg, &o->timeline_report);
    case 'h': o->help = true; return true;
    default: return false;
    }
}

int window_cli_parse(int argc, char **argv, window_options *o)
{
    *o = defaults();
    bool run = argc > 0 && strcmp(argv[0], "run") == 0;
    static const char *const bench_flags[] = {"repeat",    "csv",       "json",     "chart",
                                              "quiet",     "cpu-probe", "print-dag", "baseline",
                                              "compare",   "weak",      NULL};
    window_parse p = {{run ? "particles run" : "particles", 1u, LONGOPTS, apply, NULL,
                       "particles bench", bench_flags},
                      o};
    p.cli.mode_options = &p;
    int rc = app_options_parse(argc, argv, &p.cli, &o->sim);
    if (rc != 0) return rc;
    if (o->center_given) {
        sim_params d = sim_default_params();
        float ww = o->sim.world_w ? (float)o->sim.world_w : d.world_w;
        float wh = o->sim.world_h ? (float)o->sim.world_h : d.world_h;
        if (o->center_x > ww || o->center_y > wh) {
            app_error(p.cli.prog, "--center: %s is outside the world (0..%g, 0..%g)",
                      o->center_given, (double)ww, (double)wh);
            return 2;
        }
    }
    uint32_t cpus = app_online_cpus();
    o->max_threads = o->sim.threads[0] > cpus ? o->sim.threads[0] : cpus;
    return app_trace_check_options(p.cli.prog, o->trace, &o->trace_frames, o->frames) ? 0 : 2;
}
