/* window_timeline_report.c - the panel's state and --timeline-report: the
 * timeline shown, as text, replaced whole through the output module. */
#include "window_timeline.h"
#include "stop.h"
#include "window_cli.h"

#include <stdlib.h>
#include <string.h>

#define PROG "particles"
#define FLAG "--timeline-report"

int window_timeline_start(window_timeline *t, const window_options *o, const app_out *shot,
                          const app_out *trace)
{
    memset(t, 0, sizeof *t);
    t->shown = o->timeline == WINDOW_AUTO ? window_timeline_default_shown(o->width, o->height)
                                          : o->timeline == WINDOW_ON;
    const char *report = o->timeline_report;
    if (!report) return 0;
    /* Checked now, before the window opens; written later, each time
     * through a fresh temporary. */
    app_out out;
    int rc = app_out_stage(&out, PROG, FLAG, report, 0);
    if (rc == 0) rc = app_out_check_pair(&out, shot);
    if (rc == 0) rc = app_out_check_pair(&out, trace);
    app_out_discard(&out);
    t->report_path = report;
    return rc;
}

void window_timeline_free(window_timeline *t)
{
    window_tl_history_free(&t->history);
    free(t->blocks);
    free(t->report_last);
    memset(t, 0, sizeof *t);
}

void window_tl_report(FILE *f, const window_timeline *t, const window_tl_layout *l,
                      double full_us, int32_t hover, const float tip[4])
{
    static const window_tl_data none = {0};
    const window_tl_data *d = window_timeline_shown_step(t);
    if (!d) d = &none;
    uint32_t finishes = 0;
    for (uint32_t k = 0; k < d->span_count; k++) finishes += d->spans[k].subtask == ECS_SPAN_FINISH;
    fprintf(f, "particles timeline report\n");
    if (t->gl_renderer) fprintf(f, "gl_renderer %s\n", t->gl_renderer);
    fprintf(f, "step %llu\nfrozen %s\nshown %s\n", (unsigned long long)d->step,
            t->frozen ? "yes" : "no", t->shown && l->fits ? "yes" : "no");
    const window_tl_data *oldest = window_tl_history_back(&t->history, t->history.count - 1u),
                         *newest = window_tl_history_back(&t->history, 0);
    fprintf(f, "history %u of %u steps %llu..%llu back %u kib %.0f\n",
            (unsigned)t->history.count, WINDOW_TL_HISTORY,
            (unsigned long long)(oldest ? oldest->step : 0u),
            (unsigned long long)(newest ? newest->step : 0u), (unsigned)t->back,
            (double)window_tl_history_bytes(&t->history) / 1024.0);
    fprintf(f, "workers %u\nwall_us %.1f\n", (unsigned)d->workers, (double)d->wall_ns / 1e3);
    fprintf(f, "spans %u subtasks %u finishes %u\n", (unsigned)d->span_count,
            (unsigned)(d->span_count - finishes), (unsigned)finishes);
    fprintf(f, "blocks %u\n", (unsigned)t->drawn);
    /* The strip's box (none where the panel was not drawn): the bar `back`
     * steps before the newest is the (WINDOW_TL_HISTORY - 1 - back)-th of
     * WINDOW_TL_HISTORY across it. */
    if (l->fits)
        fprintf(f, "strip x %.1f y %.1f w %.1f h %.1f\n", (double)l->t_x, (double)l->strip_y,
                (double)l->t_w, (double)l->strip_h);
    else
        fprintf(f, "strip none\n");
    fprintf(f, "sleeps %u lost %u\n", (unsigned)d->sleep_count, (unsigned)d->sleeps_lost);
    double ticks[WINDOW_TL_MAX_TICKS];
    uint32_t n = window_tl_ticks(full_us, ticks);
    fprintf(f, "scale_us %g\nticks_us", full_us);
    for (uint32_t i = 0; i < n; i++) fprintf(f, " %g", ticks[i]);
    fprintf(f, "\nwork_ms %.3f\nspan_ms %.3f\navailable %.2f\nachieved %.2f\nbusy_pct",
            d->profile.work_ms, d->profile.span_ms, d->profile.available, d->profile.achieved);
    for (uint32_t w = 0; w < d->workers; w++) fprintf(f, " %.1f", 100.0 * d->busy[w]);
    fprintf(f, "\nwake_us");
    for (uint32_t w = 0; w < d->workers; w++) {
        window_tl_wake wk = window_tl_wake_of(d, w);
        if (wk.ran) fprintf(f, " %.1f", (double)wk.delay_ns / 1e3);
        else fprintf(f, " -");
    }
    fprintf(f, "\nwake_asleep_us");
    for (uint32_t w = 0; w < d->workers; w++)
        fprintf(f, " %.1f", (double)window_tl_wake_of(d, w).asleep_ns / 1e3);
    fprintf(f, "\nwake_woken_us");
    for (uint32_t w = 0; w < d->workers; w++)
        fprintf(f, " %.1f", (double)window_tl_wake_of(d, w).waiting_ns / 1e3);
    fprintf(f, "\ncpu_us");
    for (uint32_t w = 0; w < d->workers; w++)
        if (d->cpu_known) fprintf(f, " %.1f", (double)d->cpu_ns[w] / 1e3);
        else fprintf(f, " -");
    window_tl_machine mach = window_tl_machine_of(d);
    if (!mach.known) {
        fprintf(f, "\nmachine unknown");
    } else if (!mach.busy) {
        fprintf(f, "\nmachine ran %.3f quiet", mach.ran);
    } else {
        char line[96];
        window_tl_machine_line(&mach, line, sizeof line);
        fprintf(f, "\nmachine ran %.3f busy worst w%u %.3f lost_ms %.3f workers %u cpus %u: %s",
                mach.ran, (unsigned)mach.worst, mach.worst_ran, (double)mach.lost_ns / 1e6,
                (unsigned)d->workers, (unsigned)ecs_cpu_count(), line);
    }
    if (hover >= 0) {
        char lines[WINDOW_TL_TIP_LINES][96];
        window_tl_tooltip(d, (uint32_t)hover, lines);
        fprintf(f, "\ntooltip span %d x %.0f y %.0f w %.0f h %.0f:", (int)hover, (double)tip[0],
                (double)tip[1], (double)tip[2], (double)tip[3]);
        for (uint32_t i = 0; i < WINDOW_TL_TIP_LINES; i++)
            fprintf(f, "%s%s", i ? " | " : " ", lines[i]);
        fputc('\n', f);
    } else {
        fprintf(f, "\ntooltip none\n");
    }
    for (uint32_t i = 0; i < t->drawn; i++) {
        const window_tl_block *b = &t->blocks[i];
        const ecs_span *sp = &d->spans[b->span];
        char sub[16];
        if (sp->subtask == ECS_SPAN_FINISH) snprintf(sub, sizeof sub, "finish");
        else snprintf(sub, sizeof sub, "%u", (unsigned)sp->subtask);
        fprintf(f,
                "block %u span %u system %s pass %u subtask %s worker %u entities %u lo %u hi %u "
                "start_us %.1f end_us %.1f x %.1f y %.1f w %.1f h %.1f claim_dealt %u kept %u "
                "taken %u\n",
                (unsigned)i, (unsigned)b->span, d->names[sp->system], (unsigned)sp->pass, sub,
                (unsigned)sp->worker, (unsigned)sp->count, (unsigned)sp->lo, (unsigned)sp->hi,
                (double)sp->start_ns / 1e3, (double)sp->end_ns / 1e3, (double)b->x, (double)b->y,
                (double)b->w, (double)b->h, (unsigned)sp->claim_dealt, (unsigned)sp->claim_kept,
                (unsigned)sp->claim_taken);
    }
}

static int commit(void *out) { return app_out_commit(out); }

static int put(const char *path, const char *text, size_t len)
{
    app_out out;
    int rc = app_out_stage(&out, PROG, FLAG, path, 0);
    FILE *f = rc == 0 ? app_out_begin(&out) : NULL;
    if (f) {
        fwrite(text, 1, len, f);
        rc = app_out_end(&out, f);
        if (rc == 0) rc = app_stop_unless(commit, &out) > 0;
    } else {
        rc = 1;
    }
    app_out_discard(&out);
    return rc;
}

int window_tl_report_write(window_timeline *t, const window_tl_layout *l, double full_us,
                           int32_t hover, const float tip[4])
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        app_error(PROG, "%s %s: out of memory for the report", FLAG, t->report_path);
        return 1;
    }
    window_tl_report(mem, t, l, full_us, hover, tip);
    if (fclose(mem) != 0 || !text) {
        free(text);
        app_error(PROG, "%s %s: out of memory for the report", FLAG, t->report_path);
        return 1;
    }
    if (t->report_last && strcmp(t->report_last, text) == 0) {
        free(text);
        return 0;
    }
    int rc = put(t->report_path, text, len);
    free(t->report_last);
    t->report_last = text;
    return rc;
}
