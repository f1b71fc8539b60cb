/* window_inspect.c - the inspector: selecting a particle with a right
 * click, following it, its ring and its panel. */
#include "window_inspect.h"

#include "args.h"

#include <math.h>
#include <string.h>

/* The panel's width and its key column, window pixels; no panel in a
 * drawable too narrow for PANEL_MIN_W. */
#define PANEL_W 420.0f
#define PANEL_MIN_W 200.0f
#define KEY_W 110.0f
/* The ring: this many window pixels outside the circle, at least this
 * far from the centre, with ticks this long outside it. */
#define RING_GAP 4.0f
#define RING_MIN 8.0f
#define RING_TICK 14.0f

static const gfx_color RING = {255, 80, 220, 255};
static const gfx_color RING_SHADOW = {0, 0, 0, 255};
static const gfx_color CONTACT_RING = {80, 220, 255, 255};

static void say_selected(const sim_inspection *in, uint64_t frame, FILE *out)
{
    fprintf(out,
            "inspector: entity %u generation %u at %.3f, %.3f radius %.3f cell %u, contacts %u, "
            "frame %llu\n",
            (unsigned)in->entity.index, (unsigned)in->entity.generation, (double)in->position.x,
            (double)in->position.y, (double)in->radius, (unsigned)in->cell,
            (unsigned)in->contact_count, (unsigned long long)frame);
    fflush(out);
}

static void say(FILE *out, const char *what, ecs_entity e)
{
    if (ecs_entity_is_null(e)) fprintf(out, "inspector: %s\n", what);
    else fprintf(out, "inspector: entity %u generation %u %s\n", (unsigned)e.index,
                 (unsigned)e.generation, what);
    fflush(out);
}

/* A click at window point (x, y): the particle there, or none. */
static void click(window_inspect *s, sim_world *w, const gfx_renderer *r, float x, float y,
                  float scale, FILE *out)
{
    float wx, wy;
    ecs_entity e = ECS_NULL_ENTITY;
    if (gfx_pixel_to_world(r, x * scale, y * scale, &wx, &wy)) {
        float reach = WINDOW_INSPECT_REACH_PX * scale / gfx_get_view(r).px_per_unit;
        if (sim_pick(w, wx, wy, reach, &e) != ECS_OK) {
            app_error("particles", "out of memory for the inspector's pick: the selection kept");
            return;
        }
    }
    sim_inspection in;
    if (!ecs_entity_is_null(e) && sim_inspect(w, e, &in)) {
        s->selected = e;
        say_selected(&in, sim_frame(w), out);
    } else if (!ecs_entity_is_null(s->selected)) {
        s->selected = ECS_NULL_ENTITY;
        say(out, "cleared", ECS_NULL_ENTITY);
    }
}

void window_inspect_button(window_inspect *s, sim_world *w, const gfx_renderer *r, bool down,
                           float x, float y, float scale, FILE *out)
{
    if (down) {
        s->pressed = true;
        s->press_x = x;
        s->press_y = y;
        return;
    }
    bool was = s->pressed;
    s->pressed = false;
    if (was && fabsf(x - s->press_x) <= WINDOW_INSPECT_CLICK_PX &&
        fabsf(y - s->press_y) <= WINDOW_INSPECT_CLICK_PX)
        click(s, w, r, x, y, scale, out);
}

/* The lowest contacts' indices, "12 77 903", and how many were left out. */
static void contact_list(const sim_inspection *in, char *buf, size_t size)
{
    uint32_t shown = in->contact_count < SIM_INSPECT_CONTACTS_MAX ? in->contact_count
                                                                 : SIM_INSPECT_CONTACTS_MAX;
    size_t used = 0;
    buf[0] = '\0';
    for (uint32_t k = 0; k < shown && used < size; k++)
        used += (size_t)snprintf(buf + used, size - used, "%s%u", k ? " " : "",
                                 (unsigned)in->contacts[k]);
    if (shown < in->contact_count && used < size)
        snprintf(buf + used, size - used, " (lowest %u)", (unsigned)shown);
}

void window_inspect_describe(const sim_inspection *in, window_inspect_text *t)
{
    static const char *const keys[WINDOW_INSPECT_ROWS] = {
        "position", "velocity", "acceleration", "color", "circle",
        "life",     "cell",     "contacts",     "",      "moved by"};
    char (*x)[96] = t->text;
    float speed = sqrtf(in->velocity.x * in->velocity.x + in->velocity.y * in->velocity.y);
    snprintf(t->title, sizeof t->title, "entity %u, generation %u", (unsigned)in->entity.index,
             (unsigned)in->entity.generation);
    snprintf(x[0], 96, "%.3f, %.3f", (double)in->position.x, (double)in->position.y);
    snprintf(x[1], 96, "%.3f, %.3f (%.3f u/s)", (double)in->velocity.x, (double)in->velocity.y,
             (double)speed);
    snprintf(x[2], 96, "%.3f, %.3f", (double)in->acceleration.x, (double)in->acceleration.y);
    snprintf(x[3], 96, "r %u g %u b %u, alpha %u", (unsigned)in->color.r, (unsigned)in->color.g,
             (unsigned)in->color.b, (unsigned)in->color.a);
    snprintf(x[4], 96, "radius %.3f", (double)in->radius);
    snprintf(x[5], 96, "%.2f s left", (double)in->life);
    snprintf(x[6], 96, "column %u, row %u (cell %u)", (unsigned)in->cell_x, (unsigned)in->cell_y,
             (unsigned)in->cell);
    if (!in->stepped) {
        snprintf(x[7], 96, "no step yet");
        snprintf(x[9], 96, "no step yet");
        x[8][0] = '\0';
    } else {
        snprintf(x[7], 96, "%u in the last step", (unsigned)in->contact_count);
        contact_list(in, x[8], 96);
        if (in->moved)
            snprintf(x[9], 96, "velocity subtask %u of %u, worker %u%s", (unsigned)in->subtask,
                     (unsigned)in->subtasks, (unsigned)in->worker, in->worker ? "" : " (main)");
        else
            snprintf(x[9], 96, "no velocity subtask in the last step");
    }
    for (uint32_t k = 0; k < WINDOW_INSPECT_ROWS; k++) t->rows[k] = (window_hud_row){keys[k], x[k]};
}

window_hud_box window_inspect_place(const window_hud_layout *l, bool lens, int px_w,
                                    const float timeline[4], const float settings[4],
                                    uint32_t *rows)
{
    float s = l->scale;
    window_hud_side d = {.w = PANEL_W * s, .min_w = PANEL_MIN_W * s, .head = 1.5f,
                         .most = WINDOW_INSPECT_ROWS};
    memcpy(d.above, settings, sizeof d.above);
    memcpy(d.below, timeline, sizeof d.below);
    window_hud_box b = window_hud_side_place(l, lens, px_w, &d, rows);
    b.key_w = KEY_W * s;
    return b;
}

/* A square ring around a circle, `width` pixels thick (times the scale)
 * and shadowed so that it shows on any colour; with ticks, so that a
 * circle too small to see is found. */
static void ring(gfx_renderer *r, float wx, float wy, float radius, float scale, gfx_color c,
                 float width, bool ticks)
{
    float px, py, ppu = gfx_get_view(r).px_per_unit;
    gfx_world_to_pixel(r, wx, wy, &px, &py);
    float h = fmaxf(radius * ppu + RING_GAP * scale, RING_MIN * scale), t = fmaxf(1.0f, scale);
    float w = width * t;
    gfx_frame(r, px - h - t, py - h - t, 2.0f * (h + t), 2.0f * (h + t), w + 2.0f * t, RING_SHADOW);
    gfx_frame(r, px - h, py - h, 2.0f * h, 2.0f * h, w, c);
    if (!ticks) return;
    float len = RING_TICK * scale;
    gfx_rect(r, px - h - len, py - w / 2.0f, len, w, c);
    gfx_rect(r, px + h, py - w / 2.0f, len, w, c);
    gfx_rect(r, px - w / 2.0f, py - h - len, w, len, c);
    gfx_rect(r, px - w / 2.0f, py + h, w, len, c);
}

void window_inspect_draw(window_inspect *s, sim_world *w, gfx_renderer *r,
                         const window_hud_layout *l, bool lens, int px_w,
                         const float timeline[4], const float settings[4], FILE *out)
{
    if (ecs_entity_is_null(s->selected)) return;
    sim_inspection in;
    if (!sim_inspect(w, s->selected, &in)) {
        say(out, "died", s->selected);
        s->selected = ECS_NULL_ENTITY;
        return;
    }
    ecs_context *ctx = sim_ecs(w);
    uint32_t shown = in.contact_count < SIM_INSPECT_CONTACTS_MAX ? in.contact_count
                                                                : SIM_INSPECT_CONTACTS_MAX;
    for (uint32_t k = 0; k < shown; k++) {
        sim_inspection c;
        if (sim_inspect(w, ecs_handle(ctx, in.contacts[k]), &c))
            ring(r, c.position.x, c.position.y, c.radius, l->scale, CONTACT_RING, 1.0f, false);
    }
    ring(r, in.position.x, in.position.y, in.radius, l->scale, RING, 3.0f, true);
    window_inspect_text t;
    window_inspect_describe(&in, &t);
    uint32_t rows;
    window_hud_box b = window_inspect_place(l, lens, px_w, timeline, settings, &rows);
    if (b.h > 0.0f) window_hud_table(r, l, &b, t.title, t.rows, rows);
}
