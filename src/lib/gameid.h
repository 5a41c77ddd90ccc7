/* gameid.h: the game id, a fingerprint of a game that survives what an
 * archive does to its file (see arb_game.id in pgnarbiter.h for what it
 * covers), and the 64-bit hash it is made with: XXH64, as its published
 * specification (xxHash, "xxhash_spec.md", Yann Collet) defines it.
 *
 * The reader feeds a gameid_t the game's parts in the order of version 1
 * and keeps the value in arb_game.id; arb_game_id_text() writes it as
 * "v1:" and sixteen hexadecimal digits.  A change to what is hashed, or
 * how, is a new version, never a new meaning of "v1". */
#ifndef ARB_GAMEID_H
#define ARB_GAMEID_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "pgnarbiter.h"

/* XXH64 fed in pieces: gameid_init(), gameid_update() any number of times,
 * gameid_digest().  Equal to XXH64 of the pieces' concatenation. */
typedef struct gameid {
    uint64_t v[4];            /* the four accumulators */
    uint64_t total;           /* bytes fed, 0.. */
    unsigned char buf[32];    /* a stripe under way */
    size_t used;              /* bytes of buf in use, 0..31 */
    uint64_t seed;
} gameid_t;

void gameid_init(gameid_t *h, uint64_t seed);
void gameid_update(gameid_t *h, const void *data, size_t len);
uint64_t gameid_digest(const gameid_t *h);

/* XXH64 of data[0..len) with seed, in one call. */
uint64_t gameid_xxh64(const void *data, size_t len, uint64_t seed);

/* Feeds a tag value as version 1 has it: its length in four bytes, least
 * significant first, then its bytes; an absent tag (value NULL) as the
 * length 0xFFFFFFFF alone. */
void gameid_string(gameid_t *h, const char *value, size_t len);

/* FNV-1a (64 bits) of text[0..len) continued from h. */
#define GAMEID_FNV_BASIS 0xcbf29ce484222325ULL
uint64_t gameid_fnv1a(uint64_t h, const char *text, size_t len);

/* The tail of the id (start from GAMEID_FNV_BASIS) with one more move that
 * was not replayed: its text without its final + # ! ?, and a space. */
uint64_t gameid_tail(uint64_t tail, const char *text, size_t len);

/* arb_game.id, version 1, of g (its tags and error.move), the plies it
 * replayed (moves[0..plies): the moves of plies 1..plies) and the tail of
 * the moves it did not. */
uint64_t gameid_game(const arb_game *g, const move_t *moves, uint32_t plies, uint64_t tail);

#endif
