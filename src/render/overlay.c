/* overlay.c - heads-up display quads (solid or textured from the font
 * atlas), queued during the frame and drawn in one call at its end. */
#include "gfx_internal.h"

#include <stdlib.h>

gfx_status gfx__overlay_init(gfx_renderer *r, gfx_error *err)
{
    gfx_status st = gfx__program(&r->def.shaders[GFX_OVERLAY_VERT],
                                 &r->def.shaders[GFX_OVERLAY_FRAG], NULL, &r->overlay_program, err);
    if (st == GFX_OK)
        st = gfx__program(&r->def.shaders[GFX_OVERLAY_VERT], &r->def.shaders[GFX_OVERLAY_FRAG],
                          "#define GFX_SOLID 1\n", &r->solid_program, err);
    if (st != GFX_OK) return st;
    r->u_solid_proj = glGetUniformLocation(r->solid_program, "u_proj");
    r->u_overlay_proj = glGetUniformLocation(r->overlay_program, "u_proj");
    r->u_overlay_atlas = glGetUniformLocation(r->overlay_program, "u_atlas");
    glGenVertexArrays(1, &r->overlay_vao);
    glGenBuffers(1, &r->overlay_vbo);
    glBindVertexArray(r->overlay_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->overlay_vbo);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof(gfx_overlay_vertex), (void *)0);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(gfx_overlay_vertex),
                          (void *)offsetof(gfx_overlay_vertex, c));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glBindVertexArray(0);
    return GFX_OK;
}

void gfx__overlay_fini(gfx_renderer *r)
{
    if (r->overlay_program) glDeleteProgram(r->overlay_program);
    if (r->solid_program) glDeleteProgram(r->solid_program);
    if (r->overlay_vao) glDeleteVertexArrays(1, &r->overlay_vao);
    if (r->overlay_vbo) glDeleteBuffers(1, &r->overlay_vbo);
}

/* Two triangles per quad. When memory runs out the quad is dropped: the
 * HUD is a view, never worth failing a frame for. */
void gfx__overlay_quad(gfx_renderer *r, float x0, float y0, float x1, float y1, float u0,
                       float v0, float u1, float v1, gfx_color c)
{
    if (r->overlay_count + 6u > r->overlay_cap) {
        size_t cap = r->overlay_cap ? r->overlay_cap * 2u : 6u * 1024u;
        gfx_overlay_vertex *grown = realloc(r->overlay, cap * sizeof *grown);
        if (!grown) return;
        r->overlay = grown;
        r->overlay_cap = cap;
    }
    gfx_overlay_vertex *v = r->overlay + r->overlay_count;
    v[0] = (gfx_overlay_vertex){x0, y0, u0, v0, c};
    v[1] = (gfx_overlay_vertex){x1, y0, u1, v0, c};
    v[2] = (gfx_overlay_vertex){x0, y1, u0, v1, c};
    v[3] = v[2];
    v[4] = v[1];
    v[5] = (gfx_overlay_vertex){x1, y1, u1, v1, c};
    r->overlay_count += 6u;
}

void gfx_rect(gfx_renderer *r, float x, float y, float w, float h, gfx_color c)
{
    if (w > 0.0f && h > 0.0f) gfx__overlay_quad(r, x, y, x + w, y + h, -1.0f, 0.0f, -1.0f, 0.0f, c);
}

void gfx_frame(gfx_renderer *r, float x, float y, float w, float h, float t, gfx_color c)
{
    gfx_rect(r, x, y, w, t, c);
    gfx_rect(r, x, y + h - t, w, t, c);
    gfx_rect(r, x, y + t, t, h - 2.0f * t, c);
    gfx_rect(r, x + w - t, y + t, t, h - 2.0f * t, c);
}

/* Uploads vertices [from, overlay_count) and draws them with program
 * (its projection uniform proj), then drops them from the queue. */
static void flush(gfx_renderer *r, size_t from, GLuint program, GLint proj)
{
    size_t n = r->overlay_count - from;
    glUseProgram(program);
    glUniformMatrix4fv(proj, 1, GL_FALSE, r->proj_pixels);
    glBindVertexArray(r->overlay_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->overlay_vbo);
    /* Orphan (grown to the queue's capacity when needed), then fill: no
     * wait for the draw of the buffer's last contents. */
    if (r->overlay_cap > r->overlay_vbo_cap) r->overlay_vbo_cap = r->overlay_cap;
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(r->overlay_vbo_cap * sizeof(gfx_overlay_vertex)),
                 NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(n * sizeof(gfx_overlay_vertex)),
                    r->overlay + from);
    glDrawArrays(GL_TRIANGLES, 0, (GLsizei)n);
    glBindVertexArray(0);
    r->overlay_count = from;
}

void gfx__overlay_draw_solid_since(gfx_renderer *r, size_t from)
{
    if (r->overlay_count > from) flush(r, from, r->solid_program, r->u_solid_proj);
}

void gfx_end_frame(gfx_renderer *r)
{
    if (r->overlay_count == 0) return;
    glUseProgram(r->overlay_program);
    glUniform1i(r->u_overlay_atlas, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, r->font.texture);
    flush(r, 0, r->overlay_program, r->u_overlay_proj);
}
