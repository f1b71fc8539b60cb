/* collide.h - the collision kernels: every touching pair of a grid slot
 * range, appended to growable contact lists. Private to src/sim.
 *
 * One walk over the cell-sorted grid (grid.h), compiled once per kernel:
 * scalar (everywhere), AVX2 and AVX-512 (x86-64, picked at run time with
 * __builtin_cpu_supports, each function built with its own target
 * attribute, so the binary runs on any x86-64). A kernel differs only in
 * how it tests slot i against a tile of candidates: grid.h's sim_touching,
 * the vector ones lane by lane with the same operations in the same order.
 * The contacts of the hits are made by one function for every kernel,
 * grid.h's sim_contacts_of, which the compiler vectorises for each
 * kernel's target. So every kernel yields exactly the same contacts in
 * the same order, bit for bit (the build never contracts into FMA). */
#ifndef SIM_COLLIDE_H
#define SIM_COLLIDE_H

#include <stdbool.h>
#include <stdint.h>

#include "grid.h"

/* Where the vector kernels are built: x86-64 with GCC or clang (target
 * attributes, intrinsics). The dense walks (walk.c) follow the same rule,
 * since the avx512 kernel selects them. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SIM_X86_KERNELS 1
#endif

/* A growable contact list; a warm one allocates nothing. */
typedef struct sim_contact_list {
    sim_contact *v;
    uint32_t n, cap;
} sim_contact_list;

void sim_contact_list_free(sim_contact_list *l);
/* Room for `more` appends; false when out of memory. */
bool sim_contact_list_grow(sim_contact_list *l, uint32_t more);

static inline bool sim_contact_list_reserve(sim_contact_list *l, uint32_t more)
{
    return l->cap - l->n >= more || sim_contact_list_grow(l, more);
}

/* Appends every touching pair whose first item is in slots [from, to), in
 * detection order (slot by slot; per slot its partners in ascending slot
 * order): the partners in the slot's own row (the later items of its cell
 * and the next cell) to `row`, those in the row below to `below` (which
 * may be `row`). False when a list ran out of memory. */
typedef bool (*sim_collide_fn)(const sim_grid *g, uint32_t from, uint32_t to,
                               sim_contact_list *row, sim_contact_list *below);

/* The kernel's function, or NULL where it is not available (this CPU, this
 * build). SIM_KERNEL_AUTO is resolved first. */
sim_collide_fn sim__collide_fn(sim_kernel k);

#endif /* SIM_COLLIDE_H */
