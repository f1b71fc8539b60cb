/* inspect.c - the system DAG as Graphviz dot text. */
#include "ecs_internal.h"

#include <stdarg.h>
#include <stdio.h>

typedef struct text {
    char *buf;
    size_t size, len;
} text;

static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *at = t->len < t->size ? t->buf + t->len : NULL;
    int n = vsnprintf(at, at ? t->size - t->len : 0, fmt, ap);
    va_end(ap);
    if (n > 0) t->len += (size_t)n;
}

static const char *split_label(const ecs_parallelism *p)
{
    switch (p->split) {
    case ECS_SPLIT_PER_WORKER: return "split per worker";
    case ECS_SPLIT_CHUNKS: return "split in chunks";
    case ECS_SPLIT_NONE: break;
    }
    return "single subtask";
}

static void put_components(text *t, const ecs_context *ctx, ecs_ids ids)
{
    for (uint32_t i = 0; i < ids.count; i++)
        put(t, "%s%s", i ? ", " : "", ctx->components[ids.ids[i]].name ? ctx->components[ids.ids[i]].name : "?");
}

/* A line of resources, where the system declares any. */
static void put_resources(text *t, const ecs_context *ctx, const char *what, ecs_ids ids)
{
    if (ids.count == 0) return;
    put(t, "\\n%s: ", what);
    for (uint32_t i = 0; i < ids.count; i++) {
        const char *name = ctx->resources[ids.ids[i]].name;
        put(t, "%s%s", i ? ", " : "", name ? name : "?");
    }
}

size_t ecs_dot(const ecs_context *ctx, char *buf, size_t size)
{
    if (!buf && size) { /* nowhere to write: measure only */
        ecs__misuse((ecs_context *)ctx, "ecs_dot given a size of %zu bytes but no buffer", size);
        size = 0;
    }
    text t = {buf, size, 0};
    put(&t, "digraph systems {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\"];\n");
    for (uint32_t s = 0; s < ctx->system_count; s++) {
        const ecs_system_def *d = &ctx->systems[s].def;
        put(&t, "  s%u [label=\"%s\\nreads: ", s, d->name ? d->name : "?");
        put_components(&t, ctx, d->reads);
        put(&t, "\\nwrites: ");
        put_components(&t, ctx, d->writes);
        put_resources(&t, ctx, "resources read", d->resource_reads);
        put_resources(&t, ctx, "resources written", d->resource_writes);
        put(&t, "\\n%s\"];\n", split_label(&d->parallelism));
    }
    for (uint32_t s = 0; s < ctx->system_count; s++) {
        const ecs_system_def *d = &ctx->systems[s].def;
        for (uint32_t i = 0; i < d->after.count; i++) put(&t, "  s%u -> s%u;\n", d->after.ids[i], s);
    }
    put(&t, "}\n");
    if (size) buf[t.len < size ? t.len : size - 1] = '\0';
    return t.len;
}
