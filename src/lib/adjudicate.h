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
    bool time_claim;        /* a recorded reason says the game was lost on time (any
                               convention): Article 6.9 applies as for "time forfeit" */
    char *why;              /* where to write g->adjudication */
    size_t why_cap;
} adjudicate_input_t;

/* True if s is the text of a result: 1-0, 0-1, 1/2-1/2 or *. */
bool adjudicate_is_result(const char *s);

/* The colour (0 white, 1 black) that game g records as winning on time:
 * termination (the Termination tag, NULL if none) says "time forfeit" and
 * the result recorded, the Result tag's or the marker's when the tag holds
 * no result ("5-1"), is decisive.  -1 otherwise.  Article 6.9 asks then
 * whether that colour could mate at all. */
int adjudicate_time_winner(const arb_game *g, const char *termination);

/* Fills g->has_end, end_*, adjudicated, adjudication and verdict from
 * g->status, plies, first[], first_move[] and result. */
void adjudicate(arb_game *g, const adjudicate_input_t *in, arb_policy policy);

#endif
