/* shader.c - shader sources: compiled with a version prelude, linked;
 * a failure is one line naming the file and the line with GL's log. */
#include "gfx_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first line number in a driver's log: Mesa writes "0:12(5): error",
 * NVIDIA "0(12) : error". 0 when there is none. */
static long log_line(const char *log)
{
    for (const char *p = log; (p = strchr(p, '0')) != NULL; p++) {
        if ((p[1] == ':' || p[1] == '(') && p[2] >= '0' && p[2] <= '9') return strtol(p + 2, NULL, 10);
    }
    return 0;
}

/* Newlines to "; " and trailing space dropped, so the log fits one line. */
static void one_line(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\r')) s[--n] = '\0';
    for (char *p = s; *p; p++)
        if (*p == '\n' || *p == '\r') *p = ' ';
}

static gfx_status compile(GLenum kind, const gfx_file *f, const char *defines, GLuint *out,
                          gfx_error *err)
{
    if (f->size > INT_MAX)
        return gfx__fail(err, GFX_ERR_INVALID, "%s: a shader of %zu bytes", f->name, f->size);
    /* The file has no #version line: ours, the defines, then "#line 1 0" so
     * the log's line numbers are the file's. */
    const char *parts[4] = {"#version 330 core\n", defines ? defines : "", "#line 1 0\n",
                            (const char *)f->bytes};
    const GLint lengths[4] = {-1, -1, -1, (GLint)f->size};
    GLuint sh = glCreateShader(kind);
    glShaderSource(sh, 4, parts, lengths);
    glCompileShader(sh);
    GLint ok = GL_FALSE;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (ok) {
        *out = sh;
        return GFX_OK;
    }
    char log[512] = "";
    glGetShaderInfoLog(sh, sizeof log, NULL, log);
    glDeleteShader(sh);
    one_line(log);
    return gfx__fail(err, GFX_ERR_SHADER, "%s:%ld: shader does not compile: %s", f->name,
                     log_line(log), log[0] ? log : "(the driver gave no log)");
}

gfx_status gfx__program(const gfx_file *vert, const gfx_file *frag, const char *defines,
                        GLuint *out, gfx_error *err)
{
    GLuint vs = 0, fs = 0;
    gfx_status st = compile(GL_VERTEX_SHADER, vert, defines, &vs, err);
    if (st == GFX_OK) st = compile(GL_FRAGMENT_SHADER, frag, defines, &fs, err);
    if (st != GFX_OK) {
        if (vs) glDeleteShader(vs);
        return st;
    }
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = GL_FALSE;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[512] = "";
        glGetProgramInfoLog(prog, sizeof log, NULL, log);
        glDeleteProgram(prog);
        one_line(log);
        return gfx__fail(err, GFX_ERR_SHADER, "%s + %s: shaders do not link: %s", vert->name, frag->name,
                         log[0] ? log : "(the driver gave no log)");
    }
    *out = prog;
    return GFX_OK;
}
