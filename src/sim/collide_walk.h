/* collide_walk.h - the walk of one collision kernel, included once per
 * kernel by collide.c (no include guard, on purpose) with:
 *   WALK_NAME  the function's name
 *   WALK_ATTR  its attributes (a target for the vector kernels)
 *   WALK_TILE  void WALK_TILE(const sim_grid *g, uint32_t i, uint32_t lo,
 *              uint32_t hi, sim_pending *p): appends the touching slots of
 *              [lo, hi) (at most BLOCK of them), ascending, to p
 *   WALK_FLUSH bool WALK_FLUSH(sim_pending *p, sim_contact_list *out): makes
 *              p's contacts, appends them to out, empties p
 * The walk is grid.h's sim_grid_pairs: per slot, its row range (the later
 * items of its cell and the whole next cell of the row) and its below
 * range (the three cells below), each tested in blocks; the pairs found
 * wait in a pending buffer per list and become contacts a buffer at a
 * time. */

WALK_ATTR static bool WALK_CAT(WALK_NAME, _range)(const sim_grid *g, uint32_t i, uint32_t lo,
                                                  uint32_t hi, sim_pending *p,
                                                  sim_contact_list *out)
{
    while (lo < hi) {
        uint32_t end = hi - lo > BLOCK ? lo + BLOCK : hi;
        if (p->n + BLOCK > PENDING_MAX && !WALK_FLUSH(p, out)) return false;
        WALK_TILE(g, i, lo, end, p);
        lo = end;
    }
    return true;
}

WALK_ATTR static bool WALK_NAME(const sim_grid *g, uint32_t from, uint32_t to,
                                sim_contact_list *row, sim_contact_list *below)
{
    if (from >= to) return true;
    sim_pending pend[2];
    sim_pending *prow = &pend[0], *pbelow = row == below ? prow : &pend[1];
    pend[0].n = pend[1].n = 0;
    uint32_t c = cell_of_slot(g, from);
    for (uint32_t i = from; i < to; c++) {
        uint32_t end = g->start[c + 1];
        if (i >= end) continue;
        uint32_t row_end, below_lo, below_hi;
        sim_grid_ranges(g, c, &row_end, &below_lo, &below_hi);
        for (; i < end && i < to; i++) {
            if (!WALK_CAT(WALK_NAME, _range)(g, i, i + 1, row_end, prow, row) ||
                !WALK_CAT(WALK_NAME, _range)(g, i, below_lo, below_hi, pbelow, below))
                return false;
        }
    }
    return WALK_FLUSH(prow, row) && (pbelow == prow || WALK_FLUSH(pbelow, below));
}

#undef WALK_NAME
#undef WALK_ATTR
#undef WALK_TILE
#undef WALK_FLUSH
