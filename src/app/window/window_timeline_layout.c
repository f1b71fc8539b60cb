/* window_timeline_layout.c - where the timeline panel goes, its blocks,
 * what lies under the mouse and what the tooltip says. */
#include "window_timeline.h"

#include <math.h>
#include <stdio.h>

window_tl_layout window_tl_layout_fit(const window_hud_layout *hud, bool lens,
                                      const window_tl_metrics *m, uint32_t lanes, int px_w,
                                      int px_h)
{
    float s = hud->scale, gap = hud->x, lh = m->line_h;
    window_tl_layout l = {.scale = s, .pad = hud->pad, .line_h = lh, .lanes = lanes};
    l.lane_h = roundf(1.3f * lh);
    float top = gap;
    if (hud->rows) top = fmaxf(top, hud->y + hud->h + gap);
    if (hud->help_rows) top = fmaxf(top, hud->help_y + hud->help_h + gap);
    float bottom = fminf(hud->notice_y, (float)px_h) - gap;
    float right = (float)px_w - gap;
    if (lens && hud->lens_side > 0.0f) right = fminf(right, fminf(hud->cap_x, hud->lens_x - 2.0f) - gap);
    l.x = gap;
    l.w = fminf(right - l.x, WINDOW_TL_MAX_W * s);
    l.strip_h = roundf(lh + 4.0f * s);
    l.h = 2.0f * l.pad + 2.0f * lh + 4.0f * s + l.strip_h + 4.0f * s + (float)lanes * l.lane_h +
          4.0f * s + lh;
    l.fits = lanes > 0 && l.w >= WINDOW_TL_MIN_W * s && bottom - top >= l.h;
    if (!l.fits) return l;
    l.y = bottom - l.h;
    l.title_y = l.y + l.pad;
    l.figures_y = l.title_y + lh;
    l.strip_y = l.figures_y + lh + 4.0f * s;
    l.lanes_y = l.strip_y + l.strip_h + 4.0f * s;
    l.label_x = l.x + l.pad;
    l.t_x = l.label_x + m->label_w + 10.0f * s;
    l.busy_x = l.x + l.w - l.pad - m->busy_w;
    l.t_w = l.busy_x - 12.0f * s - l.t_x;
    l.axis_y = l.lanes_y + (float)lanes * l.lane_h;
    return l;
}

/* WINDOW_TL_HISTORY bars across the time axis's width, a pixel apart
 * where there is room. */
void window_tl_strip_bar(const window_tl_layout *l, uint32_t back, double wall_us, double full_us,
                         float box[4])
{
    float pitch = l->t_w / (float)WINDOW_TL_HISTORY;
    double f = full_us > 0.0 ? fmin(wall_us / full_us, 1.0) : 1.0;
    float h = fmaxf(1.0f, l->strip_h * (float)f);
    box[0] = l->t_x + (float)(WINDOW_TL_HISTORY - 1u - back) * pitch;
    box[1] = l->strip_y + l->strip_h - h;
    box[2] = pitch >= 2.0f ? pitch - 1.0f : pitch;
    box[3] = h;
}

int32_t window_tl_strip_hit(const window_tl_layout *l, uint32_t count, float px, float py)
{
    if (!l->fits || py < l->strip_y || py >= l->strip_y + l->strip_h || px < l->t_x ||
        px >= l->t_x + l->t_w)
        return -1;
    float pitch = l->t_w / (float)WINDOW_TL_HISTORY;
    uint32_t slot = (uint32_t)((px - l->t_x) / pitch);
    if (slot >= WINDOW_TL_HISTORY) slot = WINDOW_TL_HISTORY - 1u;
    uint32_t back = WINDOW_TL_HISTORY - 1u - slot;
    return back < count ? (int32_t)back : -1;
}

float window_tl_x(const window_tl_layout *l, double full_us, uint64_t ns)
{
    double f = full_us > 0.0 ? (double)ns / 1e3 / full_us : 0.0;
    if (f > 1.0) f = 1.0;
    return l->t_x + (float)f * l->t_w;
}

uint32_t window_tl_blocks(const window_tl_layout *l, const window_tl_data *d, double full_us,
                          window_tl_block *out)
{
    uint32_t n = 0;
    float inset = 2.0f * l->scale;
    for (uint32_t k = 0; k < d->span_count; k++) {
        const ecs_span *sp = &d->spans[k];
        if (sp->worker >= l->lanes) continue; /* never: lanes are the step's workers */
        float x0 = window_tl_x(l, full_us, sp->start_ns), x1 = window_tl_x(l, full_us, sp->end_ns);
        out[n++] = (window_tl_block){
            .x = x0,
            .y = l->lanes_y + (float)sp->worker * l->lane_h + inset,
            .w = fmaxf(1.0f, x1 - x0),
            .h = l->lane_h - 2.0f * inset,
            .span = k,
        };
    }
    return n;
}

int32_t window_tl_hit(const window_tl_block *b, uint32_t n, float px, float py)
{
    for (uint32_t i = n; i-- > 0;)
        if (px >= b[i].x && px < b[i].x + b[i].w && py >= b[i].y && py < b[i].y + b[i].h)
            return (int32_t)i;
    return -1;
}

void window_tl_tooltip(const window_tl_data *d, uint32_t k, char lines[][96])
{
    const ecs_span *sp = &d->spans[k];
    const char *name = sp->system < d->systems ? d->names[sp->system] : "?";
    char count[32];
    if (sp->subtask == ECS_SPAN_FINISH) {
        snprintf(lines[0], 96, "%s, pass %u, finish", name, (unsigned)sp->pass);
        snprintf(lines[1], 96, "finish callback: no entities");
    } else {
        snprintf(lines[0], 96, "%s, pass %u, subtask %u", name, (unsigned)sp->pass,
                 (unsigned)sp->subtask);
        if (sp->claim_dealt || sp->claim_taken)
            /* Claims are taken at run time: its entities say nothing of its work. */
            snprintf(lines[1], 96, "claims: ran %u of its %u items, others took %u, it took %u",
                     (unsigned)sp->claim_kept, (unsigned)sp->claim_dealt,
                     (unsigned)(sp->claim_dealt - sp->claim_kept), (unsigned)sp->claim_taken);
        else if (sp->count)
            snprintf(lines[1], 96, "%s entities, indices %u..%u",
                     window_hud_count(count, sizeof count, sp->count), (unsigned)sp->lo,
                     (unsigned)(sp->hi - 1u));
        else
            snprintf(lines[1], 96, "no entities");
    }
    snprintf(lines[2], 96, "%.1f us, from %.1f to %.1f us",
             (double)(sp->end_ns - sp->start_ns) / 1e3, (double)sp->start_ns / 1e3,
             (double)sp->end_ns / 1e3);
    snprintf(lines[3], 96, "worker %u%s", (unsigned)sp->worker, sp->worker == 0 ? " (main)" : "");
}
