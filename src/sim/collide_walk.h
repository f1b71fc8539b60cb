/* collide_walk.h - the walk of one collision kernel, included once per
 * kernel by collide.c (no include guard, on purpose) with:
 *   WALK_NAME  the function's name
 *   WALK_ATTR  its attributes (a target for the vector kernels)
 *   WALK_TILE  void WALK_TILE(const sim_grid *g, uint32_t i, uint32_t lo,
 *              uint32_t hi, sim_pending *p): appends the touching slots of
 *              [lo, hi) (at most BLOCK of them), ascending, to p
 *   WALK_WIDTH lanes of one vector (0: the kernel has no WALK_PAIR)
 *   WALK_PAIR  void WALK_PAIR(const sim_grid *g, uint32_t i, uint32_t rlo,
 *              uint32_t nr, uint32_t blo, uint32_t nb, bool sparse,
 *              sim_pending *prow, sim_pending *pbelow): both ranges of slot
 *              i, [rlo, rlo + nr) and [blo, blo + nb) with nr + nb <=
 *              WALK_WIDTH, in one vector: the row range's hits to prow,
 *              then the below range's to pbelow (which may be prow); when
 *              sparse, a slot that touches nothing skips the stores (in a
 *              dense grid that branch mispredicts more than the stores cost)
 *   WALK_FLUSH bool WALK_FLUSH(sim_pending *p, sim_contact_list *out): makes
 *              p's contacts, appends them to out, empties p
 * The walk finds every touching pair of the grid whose first item is in
 * the slot range exactly once, over any partition of the slots into
 * ranges, always in the same order: per slot, its row range (the later
 * items of its cell and the whole next cell of the row) and its below
 * range (the three cells below), each tested in blocks, or both in one
 * vector where they fit (sparse cells: most slots); the pairs found wait
 * in a pending buffer per list and become contacts a buffer at a time. */

WALK_ATTR static inline __attribute__((always_inline)) bool
WALK_CAT(WALK_NAME, _range)(const sim_grid *g, uint32_t i, uint32_t lo, uint32_t hi,
                            sim_pending *p, sim_contact_list *out)
{
    while (lo < hi) {
        uint32_t end = hi - lo > BLOCK ? lo + BLOCK : hi;
        if (p->n + BLOCK > PENDING_MAX && !WALK_FLUSH(p, out)) return false;
        WALK_TILE(g, i, lo, end, p);
        lo = end;
    }
    return true;
}

/* The walk for one value of `sparse`, a constant in each of the two
 * copies WALK_NAME makes: a test of it in the loop, where the compiler may
 * order it after the test of the hits, would put a branch that
 * mispredicts (a coin flip in crowded cells) on every slot of a dense
 * grid. */
WALK_ATTR static inline __attribute__((always_inline)) bool
WALK_CAT(WALK_NAME, _walk)(const sim_grid *g, uint32_t from, uint32_t to, sim_contact_list *row,
                           sim_contact_list *below, const bool sparse)
{
    sim_pending pend[2];
    sim_pending *prow = &pend[0], *pbelow = row == below ? prow : &pend[1];
    pend[0].n = pend[1].n = 0;
    /* Slot by slot, a cell's spans read once at its first slot: empty
     * cells cost nothing. */
    uint32_t end = 0, row_end = 0, below_lo = 0, below_hi = 0;
    (void)sparse; /* the scalar kernel has no WALK_PAIR */
    for (uint32_t i = from; i < to; i++) {
        if (i >= end) {
            sim_grid_span sp = sim_grid_span_of(g, i);
            end = sp.end;
            row_end = sp.row_end;
            below_lo = sp.below_lo;
            below_hi = sp.below_hi;
        }
        uint32_t nr = row_end - (i + 1u), nb = below_hi - below_lo;
        if (WALK_WIDTH && nr + nb <= WALK_WIDTH) {
            if ((prow->n + WALK_WIDTH > PENDING_MAX && !WALK_FLUSH(prow, row)) ||
                (pbelow->n + WALK_WIDTH > PENDING_MAX && !WALK_FLUSH(pbelow, below)))
                return false;
            WALK_PAIR(g, i, i + 1u, nr, below_lo, nb, sparse, prow, pbelow);
        } else if (!WALK_CAT(WALK_NAME, _range)(g, i, i + 1u, row_end, prow, row) ||
                   !WALK_CAT(WALK_NAME, _range)(g, i, below_lo, below_hi, pbelow, below)) {
            return false;
        }
    }
    return WALK_FLUSH(prow, row) && (pbelow == prow || WALK_FLUSH(pbelow, below));
}

/* Fewer particles than cells: most slots touch nothing, and a branch that
 * skips their stores pays; in fuller grids touching is a coin flip and the
 * branch-free stores win. */
WALK_ATTR static bool WALK_NAME(const sim_grid *g, uint32_t from, uint32_t to,
                                sim_contact_list *row, sim_contact_list *below)
{
    if (from >= to) return true;
    if (g->count < g->cells) return WALK_CAT(WALK_NAME, _walk)(g, from, to, row, below, true);
    return WALK_CAT(WALK_NAME, _walk)(g, from, to, row, below, false);
}

#undef WALK_NAME
#undef WALK_ATTR
#undef WALK_TILE
#undef WALK_WIDTH
#undef WALK_PAIR
#undef WALK_FLUSH
