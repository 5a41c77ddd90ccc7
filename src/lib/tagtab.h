/* tagtab.h: a game's tags as the reader keeps them, names and values in
 * one block of memory that serves game after game. */
#ifndef ARB_TAGTAB_H
#define ARB_TAGTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lex.h"
#include "pgnarbiter.h"

#define TAGTAB_MAX_TAGS 4096       /* tags kept per game; more are read and dropped */
#define TAGTAB_MAX_TEXT (8u << 20) /* bytes of tag text kept per game */

/* The tags the reader itself looks at: those the game id covers, in its
 * order (K_EVENT..K_VARIANT, the first six the Seven Tag Roster's less
 * Result), then the others. */
enum known {
    K_OTHER,
    K_EVENT, K_SITE, K_DATE, K_ROUND, K_WHITE, K_BLACK, K_FEN, K_VARIANT,
    K_RESULT, K_TERMINATION, K_ADJUDICATION, K_DETAILS, K_ACCEPT,
    K_COUNT
};

/* Is k one of the Seven Tag Roster but Result? */
static inline bool known_roster(enum known k)
{
    return k >= K_EVENT && k <= K_BLACK;
}

/* Which of them a name is. */
enum known tag_kind(const char *s, size_t n);

/* The rules a Variant tag's value names, read without regard to case,
 * blanks, hyphens and underscores ("Chess 960", "fischerandom"). */
enum variant { VARIANT_STANDARD, VARIANT_CHESS960, VARIANT_OTHER };
enum variant tag_variant(const char *value);

/* Bytes of the arena past its last, readable and set: a value can be read
 * a block at a time beyond its end (the game id's GAMEID_SLACK). */
#define TAGTAB_SLACK 16

typedef struct tagtab {
    arb_tag *tags;     /* names and values in the arena, each NUL-terminated */
    size_t n, cap;     /* tags kept; room in tags */
    char *arena;       /* arena_cap + TAGTAB_SLACK bytes */
    size_t len, arena_cap;
    size_t count;      /* the tag text counted against TAGTAB_MAX_TEXT: names, values, gaps, NULs */
} tagtab_t;

void tagtab_free(tagtab_t *tt);

/* Forgets the tags kept (the memory stays for the next game). */
static inline void tagtab_clear(tagtab_t *tt)
{
    tt->n = tt->len = tt->count = 0;
}

/* Keeps tag t, unless a limit drops it (and force is false: force keeps
 * it past the limits); in_chunk: t is a plain tag whose name and value lie
 * in one buffer.  Returns 1 if kept, 0 if dropped, -1 out of memory. */
int tagtab_add(tagtab_t *tt, const lex_token_t *t, bool in_chunk, bool force);

/* Keeps the n tags of a run as tagtab_add() would keep each, with one copy
 * of the run's bytes.  Returns 1 if all were kept, 0 if one would be dropped
 * (none kept: the caller adds them one at a time), -1 out of memory. */
int tagtab_add_run(tagtab_t *tt, const lex_tag_run_t *run, const lex_tag_at_t *at, size_t n);

/* The index of the first tag named name[0..len), SIZE_MAX if none. */
size_t tagtab_find(const tagtab_t *tt, const char *name, size_t len);

#endif
