/* inspect.c - one particle for an inspector: picking it at a point, and
 * what it holds and what happened to it in the last step. */
#include "world.h"

/* The slots of grid row `row`, from the cell left of column cx to the one
 * right of it (clamped to the grid): a row of the 3 x 3 block around
 * (cx, row). Cells are row-major, so they are one run of slots. */
static void block_row(const sim_grid *g, uint32_t cx, uint32_t row, uint32_t *lo, uint32_t *hi)
{
    uint32_t first = row * g->cols + (cx > 0u ? cx - 1u : 0u);
    uint32_t last = row * g->cols + (cx + 1u < g->cols ? cx + 1u : cx);
    *lo = sim_grid_start(g, first);
    *hi = sim_grid_start(g, last + 1u);
}

/* The grid rows of the 3 x 3 block around row cy. */
static void block_rows(const sim_grid *g, uint32_t cy, uint32_t *first, uint32_t *end)
{
    *first = cy > 0u ? cy - 1u : 0u;
    *end = cy + 2u < g->rows ? cy + 2u : g->rows;
}

/* The slot entity e was built into, UINT32_MAX if none. Since the build
 * only the contacts' pushes moved it, so the cells around its position
 * now are searched first, then the whole grid. */
static uint32_t slot_of(const sim_grid *g, uint32_t e, sim_vec2 now)
{
    uint32_t cx, cy, r, end, lo, hi;
    sim_grid_cell_xy(g, now.x, now.y, &cx, &cy);
    for (block_rows(g, cy, &r, &end); r < end; r++) {
        block_row(g, cx, r, &lo, &hi);
        for (uint32_t s = lo; s < hi; s++)
            if (g->entity[s] == e) return s;
    }
    for (uint32_t s = 0; s < g->count; s++)
        if (g->entity[s] == e) return s;
    return UINT32_MAX;
}

/* Adds index e to the ascending list of the lowest SIM_INSPECT_CONTACTS_MAX. */
static void list_contact(sim_inspection *in, uint32_t e)
{
    uint32_t n = in->contact_count < SIM_INSPECT_CONTACTS_MAX ? in->contact_count
                                                             : SIM_INSPECT_CONTACTS_MAX;
    in->contact_count++;
    if (n == SIM_INSPECT_CONTACTS_MAX && e > in->contacts[n - 1u]) return;
    uint32_t k = n < SIM_INSPECT_CONTACTS_MAX ? n : n - 1u; /* the last drops off */
    for (; k > 0u && in->contacts[k - 1u] > e; k--) in->contacts[k] = in->contacts[k - 1u];
    in->contacts[k] = e;
}

/* Collision pairs a slot with the later slots of its cell, the next cell
 * of its row and the three cells below; so the partners of slot i, in
 * whichever order they were found, are the touching slots of the 3 x 3
 * block around its cell. The cell is the one the build filed it in (from
 * its position then, as the sort computed it). */
static void contacts_of(const sim_grid *g, uint32_t i, sim_inspection *in)
{
    uint32_t cx, cy, r, end, lo, hi;
    sim_grid_cell_xy(g, g->x[i], g->y[i], &cx, &cy);
    for (block_rows(g, cy, &r, &end); r < end; r++) {
        block_row(g, cx, r, &lo, &hi);
        for (uint32_t s = lo; s < hi; s++)
            if (s != i && sim_touching(g->x[s] - g->x[i], g->y[s] - g->y[i], g->r[i] + g->r[s]))
                list_contact(in, g->entity[s]);
    }
}

/* The velocity subtask whose range held index e in the last step. */
static void mover_of(ecs_context *ctx, uint32_t e, sim_inspection *in)
{
    ecs_timeline tl;
    if (!ecs_timeline_get(ctx, &tl)) return;
    for (uint32_t k = 0; k < tl.span_count; k++) {
        const ecs_span *sp = &tl.spans[k];
        if (sp->system == SIM_S_VELOCITY && sp->subtask != ECS_SPAN_FINISH && e >= sp->lo &&
            e < sp->hi) {
            in->moved = true;
            in->subtask = sp->subtask;
            in->subtasks = ecs_system_subtasks(ctx, SIM_S_VELOCITY);
            in->worker = sp->worker;
            return;
        }
    }
}

bool sim_inspect(sim_world *w, ecs_entity e, sim_inspection *out)
{
    ecs_context *ctx = w->ctx;
    if (!ecs_alive(ctx, e)) return false;
    sim_inspection in = {.entity = e};
    in.position = *(const sim_vec2 *)ecs_get(ctx, e, SIM_C_POSITION);
    in.velocity = *(const sim_vec2 *)ecs_get(ctx, e, SIM_C_VELOCITY);
    in.acceleration = *(const sim_vec2 *)ecs_get(ctx, e, SIM_C_ACCELERATION);
    in.color = *(const sim_rgba *)ecs_get(ctx, e, SIM_C_COLOR);
    in.radius = *(const float *)ecs_get(ctx, e, SIM_C_CIRCLE);
    in.life = *(const float *)ecs_get(ctx, e, SIM_C_LIFE);
    sim_grid_cell_xy(&w->grid, in.position.x, in.position.y, &in.cell_x, &in.cell_y);
    in.cell = in.cell_y * w->grid.cols + in.cell_x;
    in.stepped = w->stepped;
    if (in.stepped) {
        uint32_t slot = w->collided ? slot_of(&w->grid, e.index, in.position) : UINT32_MAX;
        if (slot != UINT32_MAX) contacts_of(&w->grid, slot, &in);
        mover_of(ctx, e.index, &in);
    }
    *out = in;
    return true;
}

ecs_status sim_pick(sim_world *w, float x, float y, float reach, ecs_entity *out)
{
    *out = ECS_NULL_ENTITY;
    ecs_query q;
    const ecs_query_def def = {.all = ECS_IDS(SIM_C_POSITION, SIM_C_CIRCLE)};
    ecs_status st = ecs_query_create(w->ctx, &def, &q);
    if (st != ECS_OK) return st;
    float best = INFINITY;
    uint32_t found = UINT32_MAX;
    ecs_query_iter it = ecs_query_iter_begin(w->ctx, q);
    while (ecs_query_next(&it)) {
        size_t ps, rs; /* strides: the circle may sit in a group (sim_layout) */
        const char *pos = ecs_query_column(&it, SIM_C_POSITION, &ps);
        const char *rad = ecs_query_column(&it, SIM_C_CIRCLE, &rs);
        for (uint32_t i = it.first; i < it.first + it.count; i++) {
            const sim_vec2 *p = (const sim_vec2 *)(const void *)(pos + i * ps);
            float r = *(const float *)(const void *)(rad + i * rs), within = r > reach ? r : reach;
            float dx = p->x - x, dy = p->y - y, d2 = dx * dx + dy * dy;
            if (d2 <= within * within && d2 < best) {
                best = d2;
                found = i;
            }
        }
    }
    ecs_query_destroy(w->ctx, q);
    if (found != UINT32_MAX) *out = ecs_handle(w->ctx, found);
    return ECS_OK;
}
