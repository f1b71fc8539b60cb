/* mem.h - private: memory the simulation is about to write whole.
 *
 * Fresh memory faults in one trap per 4 KiB page as it is first written,
 * and on virtual machines each trap is slow enough that a short run spends
 * a noticeable share of its time in them. Populating the pages first, in
 * one system call, costs a fraction of that. */
#ifndef SIM_MEM_H
#define SIM_MEM_H

#include <stddef.h>

/* Maps the whole pages of [p, p + size) now (a hint: errors ignored;
 * nothing below 64 KiB, nor where the system has no such call). */
void sim__prefault(void *p, size_t size);
/* malloc, with the block prefaulted. */
void *sim__malloc_written(size_t size);

#endif
