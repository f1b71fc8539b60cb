/* flags.c - the table of every flag of `particles` (options.h), and the
 * readers of the values no kind of row covers. */
#include "options.h"
#include "bench/bench_machine.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define AT(field) offsetof(app_options, field)

const char *const APP_COLOR_NAMES[4] = {"thesis", "speed", "worker", "cell"};
static const char *const OFF_ON[] = {"off", "on"};
static const char *const STORAGES[] = {"dynamic", "fixed"}; /* ecs_storage order */
static const char *const LAYOUTS[] = {"soa", "thesis"};      /* sim_layout order */
static const char *const DRAWS[] = {"points", "quads"};
static const char *const AUTO_OFF_ON[] = {"auto", "off", "on"};
static const char *const PNG[] = {".png"};
static const char *const PNG_SVG[] = {".png", ".svg"};

/* ---- values of their own form --------------------------------------------- */

static bool parse_kernel_of(const char *prog, const char *flag, const char *arg, uint32_t *out)
{
    const char *names[SIM_KERNEL_COUNT];
    for (uint32_t k = 0; k < SIM_KERNEL_COUNT; k++) names[k] = sim_kernel_name((sim_kernel)k);
    const app_mode_cli cli = {prog};
    if (!app_parse_word(&cli, flag, arg, names, SIM_KERNEL_COUNT, out)) return false;
    if (sim_kernel_available((sim_kernel)*out)) return true;
    app_error(prog, "%s: %s is not available on this CPU or build (try auto)", flag, arg);
    return false;
}

static bool parse_kernel(const char *prog, const char *arg, app_options *o)
{
    return parse_kernel_of(prog, "--kernel", arg, &o->sim.kernel);
}

static bool parse_loops(const char *prog, const char *arg, app_options *o)
{
    return parse_kernel_of(prog, "--loops", arg, &o->sim.loops);
}

/* --world WxH: each side from the largest circle's diameter to
 * SIM_WORLD_SIDE_MAX, and a grid the simulation holds. */
static bool parse_world(const char *prog, const char *arg, app_options *o)
{
    size_t w = strcspn(arg, "x");
    const char *h = arg + w + (arg[w] != '\0');
    sim_params p = sim_default_params();
    uint32_t lo = (uint32_t)ceilf(2.0f * p.radius_max), hi = SIM_WORLD_SIDE_MAX;
    const char *digits = "0123456789";
    size_t hn = strlen(h);
    if (arg[w] == '\0' || w == 0 || hn == 0 || strspn(arg, digits) != w ||
        strspn(h, digits) != hn) {
        app_error(prog, "--world: '%s' is not WIDTHxHEIGHT, two whole numbers (e.g. 3220x2012)",
                  arg);
        return false;
    }
    if (!app_scan_u32(arg, w, lo, hi, &o->sim.world_w) ||
        !app_scan_u32(h, hn, lo, hi, &o->sim.world_h)) {
        app_error(prog, "--world: '%s': each side must be from %u to %u units", arg, (unsigned)lo,
                  (unsigned)hi);
        return false;
    }
    p.world_w = (float)o->sim.world_w;
    p.world_h = (float)o->sim.world_h;
    char msg[200] = "";
    if (sim_params_check(&p, msg, sizeof msg)) return true;
    app_error(prog, "--world: '%s': %s", arg, msg); /* too many grid cells */
    return false;
}

/* --rate N (steps per second) or max. */
static bool parse_rate(const char *prog, const char *arg, app_options *o)
{
    if (strcmp(arg, "max") == 0) {
        o->rate = 0u;
        return true;
    }
    if (app_scan_u32(arg, strlen(arg), APP_RATE_MIN, APP_RATE_MAX, &o->rate)) return true;
    app_error(prog, "--rate: '%s' is not a whole number of steps per second from %u to %u, "
              "or max", arg, APP_RATE_MIN, APP_RATE_MAX);
    return false;
}

static bool parse_size(const char *prog, const char *arg, app_options *o)
{
    size_t w = strcspn(arg, "xX");
    const char *h = arg + w + (arg[w] != '\0');
    uint32_t lo = APP_WINDOW_SIZE_MIN, hi = APP_WINDOW_SIZE_MAX;
    if (arg[w] != '\0' && app_scan_u32(arg, w, lo, hi, &o->width) &&
        app_scan_u32(h, strlen(h), lo, hi, &o->height))
        return true;
    app_error(prog, "--size: '%s' is not WIDTHxHEIGHT with each from %u to %u (e.g. 1440x900)",
              arg, (unsigned)lo, (unsigned)hi);
    return false;
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

static bool parse_zoom(const char *prog, const char *arg, app_options *o)
{
    double z;
    if (scan_double(arg, strlen(arg), &z) && z >= 1.0 && z <= APP_ZOOM_MAX) {
        o->zoom = (float)z;
        return true;
    }
    app_error(prog, "--zoom: '%s' is not a number from 1 to %u (1: the whole world)", arg,
              APP_ZOOM_MAX);
    return false;
}

/* "X,Y": world units; the window checks them against the world. */
static bool parse_center(const char *prog, const char *arg, app_options *o)
{
    size_t x = strcspn(arg, ",");
    const char *y = arg + x + (arg[x] != '\0');
    double cx, cy;
    if (arg[x] == '\0' || !scan_double(arg, x, &cx) || !scan_double(y, strlen(y), &cy) ||
        cx < 0.0 || cy < 0.0) {
        app_error(prog, "--center: '%s' is not X,Y with each a world coordinate of 0 or more "
                  "(e.g. 720,450)", arg);
        return false;
    }
    o->center_x = (float)cx;
    o->center_y = (float)cy;
    o->center_given = arg;
    return true;
}

/* --trace-frames A:B: plain digits, 1 <= A <= B, at most
 * APP_TRACE_MAX_FRAMES frames. */
static bool parse_trace_frames(const char *prog, const char *arg, app_options *o)
{
    size_t a = strcspn(arg, ":");
    const char *b = arg + a + (arg[a] != '\0');
    uint32_t first, last;
    if (arg[a] != ':' || !app_scan_u32(arg, a, 0u, UINT32_MAX, &first) ||
        !app_scan_u32(b, strlen(b), 0u, UINT32_MAX, &last)) {
        app_error(prog, "--trace-frames: '%s' is not A:B, two frame numbers in digits, "
                  "1 <= A <= B (e.g. 1:5)", arg);
        return false;
    }
    if (first == 0u) {
        app_error(prog, "--trace-frames: '%s': frames count from 1 (the first step); A >= 1", arg);
        return false;
    }
    if (last < first) {
        app_error(prog, "--trace-frames: '%s': B (%u) is below A (%u); A <= B", arg,
                  (unsigned)last, (unsigned)first);
        return false;
    }
    if (last - first >= APP_TRACE_MAX_FRAMES) {
        app_error(prog, "--trace-frames: '%s' is %llu frames; at most %u (B - A < %u), which "
                  "keeps a trace file to tens of MB", arg, (unsigned long long)last - first + 1u,
                  APP_TRACE_MAX_FRAMES, APP_TRACE_MAX_FRAMES);
        return false;
    }
    o->trace_frames = (app_trace_frames){.first = first, .last = last, .given = true};
    return true;
}

/* --systems a,b: names of systems (sim_system_name), each once, not empty. */
static bool parse_systems(const char *prog, const char *arg, app_options *o)
{
    char allowed[256] = "";
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT; k++) {
        size_t used = strlen(allowed);
        snprintf(allowed + used, sizeof allowed - used, "%s%s", k ? ", " : "", sim_system_name(k));
    }
    bool on[SIM_SYSTEM_COUNT] = {false};
    for (const char *s = arg;; s++) {
        size_t len = strcspn(s, ",");
        uint32_t k = 0;
        while (k < SIM_SYSTEM_COUNT &&
               (strlen(sim_system_name(k)) != len || strncmp(sim_system_name(k), s, len) != 0))
            k++;
        if (len == 0) {
            app_error(prog, "--systems: empty item in '%s'", arg);
            return false;
        }
        if (k == SIM_SYSTEM_COUNT) {
            app_error(prog, "--systems: '%.*s' is not a system; give some of %s, comma-separated",
                      (int)len, s, allowed);
            return false;
        }
        if (on[k]) {
            app_error(prog, "--systems: '%.*s' is listed twice", (int)len, s);
            return false;
        }
        on[k] = true;
        s += len;
        if (*s == '\0') break;
    }
    memcpy(o->system_on, on, sizeof on);
    return true;
}

/* ---- the table ------------------------------------------------------------ */

#define WORDS(w) .words = (w), .word_n = sizeof(w) / sizeof((w)[0])

const app_flag APP_FLAGS[] = {
    /* the simulation's: a list in the bench */
    {"entities", "N", APP_BOTH, APP_COUNTS, AT(sim.counts), AT(sim.count_n), 1u, ECS_MAX_ENTITIES,
     .help = "particles, each {lo}..{hi} and at most what the world holds (circles covering 4 "
             "times its area); the bench: comma-separated counts"},
    {"inner-parallelism", "IP", APP_BOTH, APP_WORDS, AT(sim.ip_on), AT(sim.ip_n), WORDS(OFF_ON),
     .help = "each system's entities split over the threads: on or off; the bench: on, off, "
             "or both (= on,off)"},
    {"storage", "KIND", APP_BOTH, APP_WORDS, AT(sim.storages), AT(sim.storage_n), WORDS(STORAGES),
     .help = "the ECS's component storage: fixed (at most --fixed-limit entities) or dynamic "
             "(grows by doubling); the bench: fixed, dynamic, or both (= fixed,dynamic)"},
    {"layout", "LAYOUT", APP_BOTH, APP_WORDS, AT(sim.layouts), AT(sim.layout_n), WORDS(LAYOUTS),
     .help = "how the particles' components are stored: soa (a column per component) or "
             "thesis (circle and color interleaved in one group, as the thesis); the state is "
             "the same in both; the bench: soa, thesis, or both (= thesis,soa)"},
    {"threads", "N", APP_BOTH, APP_COUNTS, AT(sim.threads), AT(sim.thread_n), 1u, APP_MAX_THREADS,
     .ranges = true,
     .help = "threads that step the simulation, the caller included, {lo}..{hi} (default: the "
             "online CPUs, here {default}); the bench: counts comma-separated (1,2,4,8) or "
             "ranges LOW..HIGH, every count in between (1..16), mixed (1..4,8), at most {list} "
             "counts in all"},
    {"seed", "S", APP_BOTH, APP_COUNT, AT(sim.seed), 0, 0u, APP_SEED_MAX,
     .help = "Park-Miller seed, {lo}..{hi}: the generator's own range, every seed distinct but "
             "0, which it maps to 1 as the thesis"},
    {"fixed-limit", "N", APP_BOTH, APP_COUNT, AT(sim.fixed_limit), 0, 1u, ECS_MAX_ENTITIES,
     .help = "entity limit of fixed storage, {lo}..{hi} (default {default}, the thesis's); with "
             "fixed storage selected every count of --entities must be <= N"},
    {"kernel", "K", APP_BOTH, APP_CUSTOM, .parse = parse_kernel,
     .help = "collision kernel: scalar, avx2, avx512 or auto (default auto: the widest this "
             "CPU has)"},
    {"loops", "K", APP_BOTH, APP_CUSTOM, .parse = parse_loops,
     .help = "vector level of the element-wise loops (life, fade, keep_in_bounds): scalar, "
             "avx2, avx512 or auto (default auto), apart from --kernel; every level gives the "
             "same state"},
    {"world", "WxH", APP_BOTH, APP_CUSTOM, .hi = SIM_WORLD_SIDE_MAX, .parse = parse_world,
     .help = "world size in units, each side a whole number from the largest circle's diameter "
             "to {hi} and the grid (cells of 5.05 units) one the simulation holds (default "
             "1440x900, the thesis's; e.g. 3220x2012 holds 1000000 particles at the density of "
             "200000 in the default world)"},
    /* both modes' */
    {"frames", "N", APP_WINDOW, APP_COUNT, AT(frames), 0, 0u, APP_WINDOW_MAX_FRAMES,
     .help = "quit after N frames (simulation steps, at --rate), {lo}..{hi} (default "
             "{default}: when the window is closed)"},
    {"frames", "N", APP_BENCH, APP_COUNT, AT(frames), 0, 0u, APP_BENCH_MAX_FRAMES,
     .help = "stop after N frames, {lo}..{hi} (default {default}: run until every particle "
             "died, as the thesis); a run also ends early once every particle died"},
    {"save-state", "FILE", APP_BOTH, APP_FILE, AT(save_state),
     .help = "write the simulation's state after the last frame, to resume with --load-state "
             "(the bench: one configuration, one repeat; docs/determinism.md, \"Snapshots\")"},
    {"load-state", "FILE", APP_BOTH, APP_FILE, AT(load_state),
     .help = "start from a state --save-state wrote: its parameters, particles and frame, "
             "under any threads, inner parallelism, storage and layout; the frames after it "
             "are those an unbroken run would have (not with --entities, --seed, --world)"},
    {"repeat", "R", APP_BENCH, APP_COUNT, AT(repeat), 0, 1u, APP_BENCH_MAX_REPEAT,
     .help = "repeats per configuration, {lo}..{hi}"},
    {"csv", "FILE", APP_BENCH, APP_FILE, AT(csv), .help = "write one row per run (- : standard "
                                                           "output)"},
    {"json", "FILE", APP_BENCH, APP_FILE, AT(json),
     .help = "write machine, options, runs and per-configuration mean, sd and median (- : "
             "standard output)"},
    {"chart", "FILE", APP_BENCH, APP_FILE, AT(chart), WORDS(PNG_SVG),
     .help = "draw mean total ms per count with sd error bars; with several thread counts, "
             "speedup (--weak: efficiency) against threads per (count, IP, storage) with the "
             "ideal line; FILE ending in .png or .svg (needs gnuplot)"},
    {"weak", NULL, APP_BENCH, APP_SWITCH, AT(weak),
     .help = "weak scaling, with two or more thread counts: --entities and --world are what "
             "the smallest thread count B runs; at T threads the particles are scaled by T/B "
             "and each world side by sqrt(T/B) (both rounded): constant density"},
    {"quiet", NULL, APP_BENCH, APP_SWITCH, AT(quiet),
     .help = "no progress line and no tables on stdout; files are still written"},
    {"cpu-probe", "MS", APP_BENCH, APP_COUNT, AT(cpu_probe_ms), 0, 0u, BENCH_PROBE_MAX_MS,
     .help = "before the runs and after each repeat, time each CPU (the first 64 this process "
             "may use) for MS ms, all at once, {lo}..{hi} (default {default}; 0: not at all): "
             "half a chain of dependent multiply-adds, half a sweep of loads and stores over "
             "256 KiB; their speeds go under the header and into the JSON (not probed when "
             "neither is written). A shared virtual machine's cores can differ for minutes, "
             "which caps any speedup from threads"},
    {"baseline", "FILE", APP_BENCH, APP_FILE, AT(baseline),
     .help = "compare each configuration's total ms with the same configuration (particles, "
             "IP, storage) in FILE, a JSON an earlier run wrote with --json: the medians, their "
             "change, and whether it is beyond the noise (see Baseline below)"},
    {"compare", "FILE", APP_BENCH, APP_FILE, AT(compare),
     .help = "with --baseline: compare FILE, a later --json, with the baseline instead of "
             "running; takes no other option"},
    {"trace", "FILE", APP_BENCH, APP_FILE, AT(trace),
     .help = "write the ECS timeline of frames --trace-frames of each configuration's first "
             "repeat as a Chrome trace, JSON (- : standard output; see Traces)"},
    {"trace", "FILE", APP_WINDOW, APP_FILE, AT(trace),
     .help = "write the ECS timeline of frames --trace-frames as a Chrome trace (JSON) when the "
             "window closes, replaced whole; open it in ui.perfetto.dev: one track per worker, "
             "an event per subtask, finish and sleep"},
    {"trace-frames", "A:B", APP_BOTH, APP_CUSTOM, .hi = APP_TRACE_MAX_FRAMES,
     .parse = parse_trace_frames,
     .help = "the steps --trace keeps, 1-based, A through B, 1 <= A <= B, at most {hi} "
             "(default 1:5); with --frames N, B <= N (the default stops at N)"},
    {"hashes", "FILE", APP_BOTH, APP_FILE, AT(hashes),
     .help = "write the state hash (sim_hash) of the spawned state and after every frame to "
             "FILE, for `particles diff`; the bench: of one run (one value of each list, "
             "--repeat 1); written whole at the end (see docs/determinism.md)"},
    {"hashes-systems", NULL, APP_BOTH, APP_SWITCH, AT(hashes_systems),
     .help = "with --hashes: per frame also the hash of what each system wrote, the systems "
             "then stepped one at a time (the same state, slower: times are not the "
             "normal step's), so that `particles diff` names the first system that differs"},
    {"replay", "FILE", APP_BENCH, APP_FILE, AT(replay),
     .help = "replay the recording FILE (the window's --record) as fast as it steps, checking "
             "every frame's state hash: one run with the recording's world, seed, particles "
             "and storage, on --threads, --inner-parallelism, --layout, --kernel and --loops "
             "(one value each; --storage too); exit 0 when every hash matched, 1 naming the "
             "first frame that did not"},
    {"systems", "LIST", APP_BENCH, APP_CUSTOM, .parse = parse_systems,
     .help = "run only these systems each frame, the others disabled from the first frame: "
             "names comma-separated, each once, of acceleration, velocity, keep_in_bounds, "
             "spatial_partition, collision, solve_contacts, render, life, fade (default: all); "
             "the state then differs from a run of all; without life no particle dies, so "
             "--frames is needed"},
    {"print-dag", NULL, APP_BENCH, APP_SWITCH, AT(print_dag),
     .help = "print the system DAG as Graphviz dot and exit; takes no other option"},
    {"window-args", NULL, APP_BENCH, APP_SWITCH, AT(window_args),
     .help = "given first: the rest is a command line of the window, run as the quick "
             "benchmark (--entities 50000 --inner-parallelism off,on --storage fixed,dynamic "
             "--repeat 1 unless given), the window's own flags left out and named on stderr "
             "(run.sh does this where there is no display)"},
    /* the window's */
    {"screenshot", "FILE", APP_WINDOW, APP_FILE, AT(screenshot), WORDS(PNG),
     .help = "save the last frame at exit, FILE ending in .png; checked before the window "
             "opens, replaced whole through a temporary beside it (a link is followed, a FIFO "
             "written in place)"},
    {"vsync", "on|off", APP_WINDOW, APP_WORD, AT(vsync), WORDS(OFF_ON),
     .help = "wait for the display's refresh"},
    {"trails", "on|off", APP_WINDOW, APP_WORD, AT(trails), WORDS(OFF_ON),
     .help = "motion trails: each step fades the picture a little towards the background and "
             "draws the particles over it, so that falls, bounces and collisions show as "
             "short fading streaks (default on; M toggles; off: each frame the particles "
             "alone)"},
    {"assets", "DIR", APP_WINDOW, APP_FILE, AT(assets),
     .help = "the shaders and the font (default: next to the executable, then the install "
             "prefix's share/)"},
    {"draw", "points|quads", APP_WINDOW, APP_WORD, AT(draw), WORDS(DRAWS),
     .help = "point sprites or instanced quads"},
    {"rate", "N|max", APP_WINDOW, APP_CUSTOM, .lo = APP_RATE_MIN, .hi = APP_RATE_MAX,
     .parse = parse_rate,
     .help = "simulation steps per second of wall time, {lo}..{hi}, whatever the frame rate "
             "(default 25: a step's dt of 0.04 s in real time; [ and ] halve and double it); "
             "max: one step per drawn frame, as fast as it draws"},
    {"size", "WxH", APP_WINDOW, APP_CUSTOM, .lo = APP_WINDOW_SIZE_MIN, .hi = APP_WINDOW_SIZE_MAX,
     .parse = parse_size, .help = "the window's size, each {lo}..{hi} (default 1440x900)"},
    {"color", "MODE", APP_WINDOW, APP_WORD, AT(color), WORDS(APP_COLOR_NAMES),
     .help = "how particles are coloured at start (C cycles): thesis (their own colours, "
             "alpha following life), speed (blue slow to red fast), worker (the worker that "
             "ran their render subtask in the last step), cell (their grid cell)"},
    {"zoom", "Z", APP_WINDOW, APP_CUSTOM, .lo = 1u, .hi = APP_ZOOM_MAX, .parse = parse_zoom,
     .help = "start zoomed in, {lo}..{hi} (default 1: the whole world)"},
    {"center", "X,Y", APP_WINDOW, APP_CUSTOM, .parse = parse_center,
     .help = "the world point shown at the view's centre at start (moved as little as needed "
             "to keep the zoomed view inside the world)"},
    {"timeline", "auto|off|on", APP_WINDOW, APP_WORD, AT(timeline), WORDS(AUTO_OFF_ON),
     .help = "the timeline panel at start (T toggles it); auto: on in a window large enough "
             "(see T below)"},
    {"timeline-report", "FILE", APP_WINDOW, APP_FILE, AT(timeline_report),
     .help = "write the timeline shown as text (its figures, a line per block drawn, the "
             "tooltip): while it is frozen (F), each time that changes, and on the last frame "
             "of --frames; checked before the window opens, replaced whole each time"},
    {"record", "FILE", APP_WINDOW, APP_FILE, AT(record),
     .help = "write every input that changes the simulation (sprays, new waves, systems on "
             "and off, settings) and each frame's state hash to FILE, a recording that `particles bench "
             "--replay FILE` replays bit for bit; put in place whole when the window closes "
             "(Esc, the close button, SIGINT, SIGTERM, --frames), checked before it opens"},
    {"replay", "FILE", APP_WINDOW, APP_FILE, AT(replay),
     .help = "show the recording FILE: the recording's world, seed, particles, storage and "
             "inputs at --rate (the mouse and keys change only the view, pause, the rate, "
             "workers and inner parallelism), every frame's state hash checked; quits after its last frame, "
             "exit 0 when every hash matched, 1 at the first that did not"},
    {"help", NULL, APP_BOTH, APP_SWITCH, AT(help), .help = "print this and exit"},
};

const uint32_t APP_FLAG_COUNT = sizeof APP_FLAGS / sizeof APP_FLAGS[0];
_Static_assert(sizeof APP_FLAGS / sizeof APP_FLAGS[0] <= 64, "app_options.given has 64 bits");
