/* window_cli.c - the options of the window mode: its defaults, its flags
 * (the table's, options.h) checked against the world, and --help. */
#include "window_cli.h"
#include "hashes.h"
#include "state_file.h"
#include "trace.h"
#include "window_colors.h"
#include "window_timeline.h"
#include "window_rate.h"
#include "window_view.h"

#include <string.h>

_Static_assert((int)WINDOW_VIEW_ZOOM_MIN == 1 && (int)WINDOW_VIEW_ZOOM_MAX == APP_ZOOM_MAX,
               "--zoom's range (flags.c) is the view's");
_Static_assert(APP_RATE_MIN == WINDOW_RATE_MIN && APP_RATE_MAX == WINDOW_RATE_MAX,
               "--rate's range (flags.c) is the rate's");

static window_options defaults(void)
{
    uint32_t cpus = app_online_cpus();
    return (window_options){
        .sim = {.counts = {50000u},
                .count_n = 1,
                .ip_on = {1u},
                .ip_n = 1,
                .storages = {ECS_STORAGE_FIXED},
                .storage_n = 1,
                .layouts = {SIM_LAYOUT_SOA},
                .layout_n = 1,
                .threads = {cpus},
                .thread_n = 1,
                .fixed_limit = APP_THESIS_FIXED_LIMIT}, /* room to spray */
        .threads_max = cpus,
        .vsync = 1u,
        .trails = 1u,
        .draw = WINDOW_DRAW_POINTS,
        .width = 1440u,
        .height = 900u,
        .rate = 25u,
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
          "--threads threads and drawn with OpenGL 3.3: a wave of --entities\n"
          "particles falls, collides and fades, and a HUD shows fps, step and render\n"
          "times, the particle count, workers, inner parallelism and storage.\n"
          "\n",
          f);
    app_options_usage(f, APP_WINDOW, &d);
    fputc('\n', f);
    fprintf(f,
            "Controls:\n"
            "  H                    show/hide this help on screen\n"
            "  I                    toggle inner parallelism\n"
            "  + / -                one thread more / fewer (1..max, live)\n"
            "  Space                pause/resume\n"
            "  N                    one frame while paused (one step)\n"
            "  [ / ]                half / double the steps per second (--rate), within\n"
            "                       1..1000; never with --rate max\n"
            "  R                    new wave\n"
            "  G                    highlight the grid cell under the mouse and its\n"
            "                       particles, magnified in a corner with the cells it\n"
            "                       is tested against\n"
            "  C                    next colouring: thesis, speed, worker, cell\n"
            "  M                    motion trails on/off (--trails): each step fades the\n"
            "                       picture towards the background before the particles\n"
            "                       are drawn over it\n"
            "  P                    show/hide the settings panel: gravity, wave size and\n"
            "                       the spawn ranges, changed live and recorded by --record\n"
            "  Up / Down            with the settings panel shown: pick a row; Left / Right\n"
            "                       or a click on its -/+ change its value (Shift: bigger\n"
            "                       steps)\n"
            "  mouse wheel          zoom in/out about the pointer (1x to 64x); the world\n"
            "                       point under the pointer stays under it\n"
            "  right or middle drag pan the zoomed view\n"
            "  right click          inspect the particle under the pointer: a ring marks\n"
            "                       it and a panel shows its components, grid cell,\n"
            "                       contacts and the worker that moved it, until it dies;\n"
            "                       on empty space, none (a line on stdout each time)\n"
            "  Z or Home            back to the whole world (zoom 1x)\n"
            "  left mouse button    spray particles (through the ECS's deferred creation;\n"
            "                       with fixed storage at its limit the HUD says so)\n"
            "  S                    save a screenshot (particles-YYYYmmdd-HHMMSS.png in the\n"
            "                       current directory; never replaces a file)\n"
            "  W                    write the simulation's state (--save-state's file, or\n"
            "                       particles-frameN.state); --load-state resumes from it\n"
            "  1 - 9                switch that system off / on (or click its row of the\n"
            "                       HUD's chart), from the next step\n"
            "  T                    show/hide the timeline panel: the last step's subtasks\n"
            "                       per worker over a time axis in us, its work, span and\n"
            "                       parallelism, each worker's busy share and wake-up\n"
            "                       delay, a line when the machine was busy; above, a bar\n"
            "                       per step of the last 300 (a click shows that step);\n"
            "                       the mouse over a block names it. Shown at start in a\n"
            "                       window of at least %ux%u (--timeline)\n"
            "  F                    freeze the timeline on the step shown (the simulation\n"
            "                       runs on); F again follows the steps\n"
            "  Left / Right         while frozen: the step before / after the one shown\n"
            "                       (with the settings panel open, its values)\n"
            "  A                    fit the timeline's axis to the step shown\n"
            "  Esc or closing the window  quit\n",
            WINDOW_TL_DEFAULT_W, WINDOW_TL_DEFAULT_H);
    fputs("\n"
          "max is the larger of --threads and the online CPUs. The simulation steps\n"
          "--rate times a second whatever the frame rate: a drawn frame runs the steps\n"
          "the time since the last one owes, at most a quarter second's worth and\n"
          "100 ms of stepping; where the machine cannot keep up the rest is dropped\n"
          "and the HUD says 'behind'.\n"
          "--frames N quits after N steps. With --frames it prints a summary line at\n"
          "exit: frames (steps), mean fps, mean step ms, mean render ms (prepare +\n"
          "upload + draw); then a line with the rate, the steps and wall time,\n"
          "steps/s, frames drawn and steps dropped.\n"
          "Exit status: 0 done, 1 no display / no OpenGL\n"
          "3.3 / a missing or broken shader or font (one line says which) / the\n"
          "screenshot, trace or hashes failed while written (a full disk), 2 bad\n"
          "input (an --assets that is not a directory, a --screenshot, --trace,\n"
          "--timeline-report or --hashes whose file cannot be created, all checked\n"
          "before the window opens), 128+N stopped by signal N (SIGINT, SIGTERM, SIGHUP: no\n"
          "screenshot written, the old one kept). With no display it says so and suggests `particles bench`;\n"
          "SDL_VIDEODRIVER=offscreen is accepted only when set explicitly.\n",
          f);
}

int window_cli_check_center(const char *prog, const window_options *o, sim_params world)
{
    if (!o->center_given || (o->center_x <= world.world_w && o->center_y <= world.world_h))
        return 0;
    app_error(prog, "--center: %s is outside the world (0..%g, 0..%g)", o->center_given,
              (double)world.world_w, (double)world.world_h);
    return 2;
}

int window_cli_parse(int argc, char **argv, window_options *o)
{
    *o = defaults();
    const char *prog = argc > 0 && strcmp(argv[0], "run") == 0 ? "particles run" : "particles";
    int rc = app_options_parse(argc, argv, APP_WINDOW, prog, o);
    if (rc != 0 || o->help) return rc;
    if (!app_state_check_options(prog, o)) return 2;
    if (!app_replay_check_flags(prog, o, APP_WINDOW)) return 2;
    uint32_t cpus = app_online_cpus();
    o->threads_max = o->sim.threads[0] > cpus ? o->sim.threads[0] : cpus;
    return app_trace_check_options(prog, o->trace, &o->trace_frames, o->frames) &&
                   app_hashes_check(prog, o)
               ? 0
               : 2;
}
