/* adjudicate.h: from rule facts, the recorded result and a policy to the
 * end of the game, the adjudicated result and a verdict. */
#ifndef ARB_ADJUDICATE_H
#define ARB_ADJUDICATE_H

#include <stdbool.h>

#include "pgnarbiter.h"

/* What the facts alone do not say. */
typedef struct adjudicate_input {
    int start_stm;          /* side to move at ply 0: 0 white, 1 black */
    bool cannot_mate[2];    /* per colour, in the last position: no mate by any series of moves */
    const char *termination;/* the Termination tag, NULL if none */
    char *why;              /* where to write g->adjudication */
    size_t why_cap;
} adjudicate_input_t;

/* Fills g->has_end, end_*, adjudicated, adjudication and verdict from
 * g->status, plies, first[], first_move[] and result. */
void adjudicate(arb_game *g, const adjudicate_input_t *in, arb_policy policy);

#endif
