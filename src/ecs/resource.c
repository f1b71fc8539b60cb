/* resource.c - the context's resources: their storage, and access to them
 * checked against the declarations of the system that asks. */
#include "ecs_internal.h"

#include "alloc.h"

#include <string.h>

ecs_status ecs__resources_init(ecs_context *ctx, const ecs_config *cfg, ecs_error *err)
{
    uint32_t n = cfg->resource_count;
    ctx->resources = ecs_alloc((n + 1u) * sizeof *ctx->resources, 0);
    ctx->resource_data = ecs_alloc((n + 1u) * sizeof *ctx->resource_data, 0);
    if (!ctx->resources || !ctx->resource_data)
        return ecs__fail(err, ECS_ERR_NOMEM, "out of memory");
    if (n) memcpy(ctx->resources, cfg->resources, n * sizeof *ctx->resources);
    ctx->resource_count = n;
    for (uint32_t r = 0; r < n; r++) {
        ecs_resource_def *d = &ctx->resources[r];
        if (!d->size) {
            ctx->resource_data[r] = d->ptr;
            continue;
        }
        if (d->align == 0) d->align = _Alignof(max_align_t);
        ctx->resource_data[r] = ecs_alloc(d->size, d->align);
        if (!ctx->resource_data[r])
            return ecs__fail(err, ECS_ERR_NOMEM, "out of memory for resource '%s' (%zu bytes)",
                             d->name ? d->name : "(unnamed)", d->size);
    }
    return ECS_OK;
}

void ecs__resources_fini(ecs_context *ctx)
{
    for (uint32_t r = 0; ctx->resource_data && r < ctx->resource_count; r++)
        if (ctx->resources[r].size) ecs_free(ctx->resource_data[r]);
    ecs_free(ctx->resource_data);
    ecs_free(ctx->resources);
}

uint32_t ecs_resource_count(const ecs_context *ctx) { return ctx->resource_count; }

static const char *res_name(const ecs_context *ctx, uint32_t resource)
{
    const char *n = ctx->resources[resource].name;
    return n ? n : "(unnamed)";
}

/* The data if sys (NULL: owner code outside the system phase) may use the
 * resource as asked; else a misuse naming the system (or fn) and the
 * resource. One compare and one mask test on the valid path. */
static void *resource_at(const ecs_context *ctx, const ecs_sys *sys, uint32_t resource, bool write,
                    const char *fn)
{
    ecs_context *c = (ecs_context *)ctx; /* misuse recording only */
    if (__builtin_expect(resource >= ctx->resource_count, 0)) {
        if (sys)
            ecs__misuse(c, "system '%s' asked for resource %u, which does not exist (%u declared)",
                        ecs__sys_name(sys), (unsigned)resource, (unsigned)ctx->resource_count);
        else
            ecs__misuse(c, "%s: resource %u does not exist (%u declared)", fn, (unsigned)resource,
                        (unsigned)ctx->resource_count);
        return NULL;
    }
    if (!sys) return ctx->resource_data[resource];
    uint64_t mask = write ? sys->res_write_mask : sys->res_read_mask | sys->res_write_mask;
    if (__builtin_expect(mask >> resource & 1u, 1)) return ctx->resource_data[resource];
    ecs__misuse(c, "system '%s' asked to %s resource '%s', which it %s", ecs__sys_name(sys),
                write ? "write" : "read", res_name(ctx, resource),
                sys->res_read_mask >> resource & 1u ? "only reads" : "does not declare");
    return NULL;
}

/* Who asks through the context: a system of ctx whose callback this thread
 * runs, or the owner outside the system phase; NULL in *sys for the owner.
 * False (a misuse recorded) for anyone else while systems run. */
static bool context_caller(const ecs_context *ctx, uint32_t resource, const char *fn,
                           const ecs_sys **sys)
{
    const ecs_sys *caller = ecs__caller.sys;
    *sys = caller && caller->ctx == ctx ? caller : NULL;
    if (*sys || !ctx->in_systems) return true;
    if (resource < ctx->resource_count)
        ecs__misuse((ecs_context *)ctx,
                    "%s of resource '%s' called while systems run, outside the callbacks of "
                    "the systems that declare it",
                    fn, res_name(ctx, resource));
    else
        ecs__misuse((ecs_context *)ctx, "%s: resource %u does not exist (%u declared)", fn,
                    (unsigned)resource, (unsigned)ctx->resource_count);
    return false;
}

void *ecs_resource(ecs_context *ctx, uint32_t resource)
{
    const ecs_sys *sys;
    if (!context_caller(ctx, resource, "ecs_resource", &sys)) return NULL;
    return resource_at(ctx, sys, resource, true, "ecs_resource");
}

const void *ecs_resource_read(const ecs_context *ctx, uint32_t resource)
{
    const ecs_sys *sys;
    if (!context_caller(ctx, resource, "ecs_resource_read", &sys)) return NULL;
    return resource_at(ctx, sys, resource, false, "ecs_resource_read");
}

const void *ecs_iter_resource_read(const ecs_iter *it, uint32_t resource)
{
    return resource_at(it->ctx, it->sub_->sys, resource, false, "ecs_iter_resource_read");
}

void *ecs_iter_resource_write(const ecs_iter *it, uint32_t resource)
{
    return resource_at(it->ctx, it->sub_->sys, resource, true, "ecs_iter_resource_write");
}
