/* fault_alloc.h - test-only allocation failures: linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=aligned_alloc,
 * --wrap=free (and --wrap=mmap), every
 * allocation of the project's own code (ecs, sim, app) is counted and the
 * k-th one can be made to fail. libc's own allocations are not touched.
 *
 * In a process run by a script: PARTICLES_FAIL_ALLOC=k fails the k-th
 * allocation; PARTICLES_ALLOC_REPORT=FILE writes "COUNT LARGEST LIVE" at
 * exit (allocations made, the largest size asked, blocks not freed). */
#ifndef FAULT_ALLOC_H
#define FAULT_ALLOC_H

#include <stddef.h>

/* Starts counting from zero; the k-th allocation from now fails (0: none). */
void fault_alloc_reset(unsigned long fail_at);
/* Allocations since the reset. */
unsigned long fault_alloc_count(void);
/* Blocks allocated and not freed since the reset. */
long fault_alloc_live(void);
/* Whether the armed failure happened. */
int fault_alloc_fired(void);
/* The largest single allocation asked since the reset (bytes). */
size_t fault_alloc_largest(void);

#endif
