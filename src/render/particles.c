/* particles.c - the instance buffer and the two draw paths over it: point
 * sprites (one vertex per particle) and instanced quads (a triangle strip
 * of four per particle). Both read the same 16-byte gfx_instance. */
#include "gfx_internal.h"

#include <string.h>

_Static_assert(sizeof(gfx_instance) == 16, "the shaders read 16-byte instances");

static const char *const DEFINES[2] = {"#define GFX_POINTS 1\n", "#define GFX_QUADS 1\n"};

static void bind_attributes(GLuint divisor)
{
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(gfx_instance), (void *)0);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(gfx_instance),
                          (void *)offsetof(gfx_instance, r));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glVertexAttribDivisor(0, divisor);
    glVertexAttribDivisor(1, divisor);
}

gfx_status gfx__particles_init(gfx_renderer *r, gfx_error *err)
{
    for (int d = 0; d < 2; d++) {
        gfx_particle_prog *p = &r->prog[d];
        gfx_status st = gfx__program(&r->def.shaders[GFX_PARTICLES_VERT],
                                     &r->def.shaders[GFX_PARTICLES_FRAG], DEFINES[d],
                                     &p->program, err);
        if (st != GFX_OK) return st;
        p->u_proj = glGetUniformLocation(p->program, "u_proj");
        p->u_px_per_unit = glGetUniformLocation(p->program, "u_px_per_unit");
        p->u_highlight = glGetUniformLocation(p->program, "u_highlight");
        p->u_highlight_on = glGetUniformLocation(p->program, "u_highlight_on");
        p->u_alpha_floor = glGetUniformLocation(p->program, "u_alpha_floor");
        p->u_lift = glGetUniformLocation(p->program, "u_lift");
    }
    glGenBuffers(1, &r->instances);
    glGenVertexArrays(2, r->vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->instances);
    for (int d = 0; d < 2; d++) {
        glBindVertexArray(r->vao[d]);
        bind_attributes(d == GFX_DRAW_QUADS ? 1u : 0u);
    }
    glBindVertexArray(0);
    /* Point sprites sized by the vertex shader. */
    glEnable(GL_PROGRAM_POINT_SIZE);
    return glGetError() == GL_NO_ERROR
               ? GFX_OK
               : gfx__fail(err, GFX_ERR_GL, "setting up the particle buffers failed");
}

void gfx__particles_fini(gfx_renderer *r)
{
    for (int d = 0; d < 2; d++)
        if (r->prog[d].program) glDeleteProgram(r->prog[d].program);
    if (r->vao[0]) glDeleteVertexArrays(2, r->vao);
    if (r->instances) glDeleteBuffers(1, &r->instances);
}

gfx_status gfx_upload(gfx_renderer *r, const gfx_batch *batches, uint32_t batch_count)
{
    size_t total = 0;
    for (uint32_t b = 0; b < batch_count; b++) total += batches[b].count;
    r->instance_count = 0;
    if (total == 0) return GFX_OK;
    if (total > UINT32_MAX / 2u) return GFX_ERR_NOMEM;
    glBindBuffer(GL_ARRAY_BUFFER, r->instances);
    if (total > r->instance_cap) { /* grows, never shrinks: warm frames reuse it */
        uint32_t cap = r->instance_cap ? r->instance_cap : 4096u;
        while (cap < total) cap *= 2u;
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)cap * (GLsizeiptr)sizeof(gfx_instance), NULL,
                     GL_STREAM_DRAW);
        if (glGetError() != GL_NO_ERROR) {
            r->instance_cap = 0;
            return GFX_ERR_NOMEM;
        }
        r->instance_cap = cap;
    }
    /* Invalidating the whole buffer orphans last frame's data: the driver
     * hands out fresh memory instead of waiting for the GPU to finish it. */
    unsigned char *dst = glMapBufferRange(GL_ARRAY_BUFFER, 0,
                                          (GLsizeiptr)(total * sizeof(gfx_instance)),
                                          GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
    if (!dst) return GFX_ERR_NOMEM;
    for (uint32_t b = 0; b < batch_count; b++) {
        size_t bytes = (size_t)batches[b].count * sizeof(gfx_instance);
        if (bytes) memcpy(dst, batches[b].items, bytes);
        dst += bytes;
    }
    if (glUnmapBuffer(GL_ARRAY_BUFFER) != GL_TRUE) return GFX_ERR_NOMEM; /* contents lost */
    r->instance_count = (uint32_t)total;
    return GFX_OK;
}

void gfx_set_highlight(gfx_renderer *r, bool on, float x0, float y0, float x1, float y1)
{
    if (on != r->highlight_on || (on && (x0 != r->highlight[0] || y0 != r->highlight[1] ||
                                         x1 != r->highlight[2] || y1 != r->highlight[3])))
        r->trail_dirty = true; /* the trails would keep the old look */
    r->highlight_on = on;
    r->highlight[0] = x0;
    r->highlight[1] = y0;
    r->highlight[2] = x1;
    r->highlight[3] = y1;
}

/* Points, unless the largest circle of this world would be wider than the
 * driver's largest point (GL_POINT_SIZE_RANGE; some drivers allow only a
 * few hundred pixels): then quads. */
static gfx_draw draw_path(const gfx_renderer *r, float px_per_unit)
{
    if (r->def.draw == GFX_DRAW_QUADS) return GFX_DRAW_QUADS;
    float widest = 2.0f * (r->def.max_radius * px_per_unit + 1.0f);
    return widest <= r->max_point_px ? GFX_DRAW_POINTS : GFX_DRAW_QUADS;
}

void gfx__particles_draw(gfx_renderer *r, const float proj[16], float px_per_unit)
{
    if (r->instance_count == 0) return;
    gfx_draw d = draw_path(r, px_per_unit);
    r->last_draw = d;
    const gfx_particle_prog *p = &r->prog[d];
    glUseProgram(p->program);
    glUniformMatrix4fv(p->u_proj, 1, GL_FALSE, proj);
    glUniform1f(p->u_px_per_unit, px_per_unit);
    glUniform4fv(p->u_highlight, 1, r->highlight);
    glUniform1i(p->u_highlight_on, r->highlight_on ? 1 : 0);
    glUniform1f(p->u_alpha_floor, r->def.alpha_floor);
    glUniform1f(p->u_lift, r->def.lift);
    glBindVertexArray(r->vao[d]);
    if (d == GFX_DRAW_POINTS)
        glDrawArrays(GL_POINTS, 0, (GLsizei)r->instance_count);
    else
        glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, (GLsizei)r->instance_count);
    glBindVertexArray(0);
}
