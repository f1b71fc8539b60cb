/* window_stats.c - accumulating frame timings per second and per run. */
#include "window_stats.h"

#include <string.h>

#define SECOND_NS 1000000000u

static void span_reset(window_span *s, uint64_t now_ns)
{
    memset(s, 0, sizeof *s);
    s->start_ns = s->end_ns = now_ns;
}

static void span_add(window_span *s, const window_frame *f, uint64_t now_ns)
{
    s->end_ns = now_ns;
    s->frames++;
    s->prepare_ms += f->prepare_ms;
    s->upload_ms += f->upload_ms;
    s->draw_ms += f->draw_ms;
    s->dropped += f->dropped;
    s->steps += f->steps;
    s->step_ms += f->step_ms;
    for (uint32_t i = 0; i < SIM_SYSTEM_COUNT; i++) s->system_ms[i] += f->system_ms[i];
}

/* What window_stats_shown returns: the frame figures of the last whole
 * second of wall time, the step figures of the last of running time. */
static void update_shown(window_stats *s)
{
    const window_span *frames = s->last.frames ? &s->last : &s->current;
    const window_span *steps = s->steps_last.steps ? &s->steps_last : &s->steps;
    s->shown = *frames;
    s->shown.steps = steps->steps;
    s->shown.step_ms = steps->step_ms;
    memcpy(s->shown.system_ms, steps->system_ms, sizeof s->shown.system_ms);
}

void window_stats_init(window_stats *s, uint64_t now_ns)
{
    span_reset(&s->current, now_ns);
    span_reset(&s->last, now_ns);
    span_reset(&s->run, now_ns);
    span_reset(&s->steps, now_ns);
    span_reset(&s->steps_last, now_ns);
    s->steps_ns = 0;
    update_shown(s);
}

void window_stats_add(window_stats *s, const window_frame *f, uint64_t now_ns)
{
    uint64_t frame_ns = now_ns - s->run.end_ns;
    span_add(&s->current, f, now_ns);
    span_add(&s->run, f, now_ns);
    if (now_ns - s->current.start_ns >= SECOND_NS) {
        s->last = s->current;
        span_reset(&s->current, now_ns);
    }
    span_add(&s->steps, f, now_ns); /* N while paused: its step, no time */
    if (!f->paused) s->steps_ns += frame_ns;
    if (s->steps_ns >= SECOND_NS) {
        s->steps_last = s->steps;
        span_reset(&s->steps, now_ns);
        s->steps_ns = 0;
    }
    update_shown(s);
}

double window_span_fps(const window_span *s)
{
    uint64_t ns = s->end_ns - s->start_ns;
    return ns ? (double)s->frames * 1e9 / (double)ns : 0.0;
}

double window_span_steps_per_s(const window_span *s)
{
    uint64_t ns = s->end_ns - s->start_ns;
    return ns ? (double)s->steps * 1e9 / (double)ns : 0.0;
}

double window_span_step_ms(const window_span *s) { return s->steps ? s->step_ms / s->steps : 0.0; }

double window_span_system_ms(const window_span *s, uint32_t system)
{
    return s->steps ? s->system_ms[system] / s->steps : 0.0;
}

double window_span_mean(const window_span *s, double sum) { return s->frames ? sum / s->frames : 0.0; }

void window_stats_print_summary(const window_stats *s, const char *off, double rate_per_s,
                                FILE *f)
{
    const window_span *r = &s->run;
    double prep = window_span_mean(r, r->prepare_ms), up = window_span_mean(r, r->upload_ms),
           draw = window_span_mean(r, r->draw_ms);
    fprintf(f,
            "frames %u, mean fps %.1f, mean step %.2f ms, mean render %.2f ms "
            "(prepare %.2f + upload %.2f + draw %.2f)%s%s\n",
            (unsigned)r->steps, window_span_fps(r), window_span_step_ms(r), prep + up + draw,
            prep, up, draw, off && off[0] ? ", systems off: " : "", off ? off : "");
    char rate[32] = "max";
    if (rate_per_s > 0.0) snprintf(rate, sizeof rate, "%g steps/s", rate_per_s);
    fprintf(f, "rate %s: %u steps in %.3f s, %.2f steps/s, %u frames drawn, %llu steps dropped\n",
            rate, (unsigned)r->steps, (double)(r->end_ns - r->start_ns) / 1e9,
            window_span_steps_per_s(r), (unsigned)r->frames, (unsigned long long)r->dropped);
}

const window_span *window_stats_shown(const window_stats *s) { return &s->shown; }
