/* mem.c - prefaulting memory that is about to be written (see mem.h). */
#include "mem.h"

#include "ecs.h"

#include <stdlib.h>

void sim__prefault(void *p, size_t size) { ecs_prefault(p, size); }

void *sim__malloc_written(size_t size)
{
    void *p = malloc(size);
    sim__prefault(p, size);
    return p;
}
