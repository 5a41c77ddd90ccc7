/* gameid.h: the game id, a fingerprint of a game that survives what an
 * archive does to its file (see arb_game.id in pgnarbiter.h for what it
 * covers and how, byte for byte), and FNV-1a, which it uses for the moves
 * that were not replayed.
 *
 * The reader hands gameid_game() the game's parts at its end and keeps the
 * value in arb_game.id; arb_game_id_text() writes it as "v1:" and sixteen
 * hexadecimal digits.  A change to what is hashed, or how, is a new
 * version, never a new meaning of "v1". */
#ifndef ARB_GAMEID_H
#define ARB_GAMEID_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "pgnarbiter.h"

/* The tags the id covers, in its order: Event, Site, Date, Round, White,
 * Black, SetUp, FEN, Variant. */
#define GAMEID_TAGS 9

/* Bytes that gameid_game() may read past the end of a tag value: the
 * reader's tag memory has them (tagtab.h), so that a value's last block is
 * one load and a mask. */
#define GAMEID_SLACK 16

/* FNV-1a (64 bits) of text[0..len) continued from h. */
#define GAMEID_FNV_BASIS 0xcbf29ce484222325ULL
uint64_t gameid_fnv1a(uint64_t h, const char *text, size_t len);

/* The tail of the id (start from GAMEID_FNV_BASIS) with one more move that
 * was not replayed: its text without its final + # ! ?, and a space. */
uint64_t gameid_tail(uint64_t tail, const char *text, size_t len);

/* The moves' part of the id: folded one move at a time as the replay
 * plays them (from GAMEID_MOVES_BASIS), so that no move is stored and a
 * ply costs a multiply.  A word of the move's four bytes, least
 * significant first: from, to, promo (0 if none), flags. */
#define GAMEID_MOVES_BASIS 0x452821E638D01377ULL
static inline uint64_t gameid_move(uint64_t h, move_t m)
{
    uint64_t w = (uint64_t)m.from | (uint64_t)m.to << 8 | (uint64_t)m.promo << 16 | (uint64_t)m.flags << 24;
    return (h ^ w) * 0x5BD1E995u;
}

/* arb_game.id, version 1: tags[at[i]] is the first tag of the i-th
 * covered name (at[i] == SIZE_MAX: none), each value readable
 * GAMEID_SLACK bytes past its end; failed the text of the move that could
 * not be played ("" if none); moves the plies moves replayed, folded by
 * gameid_move(); tail that of the moves not replayed (gameid_tail()). */
uint64_t gameid_game(const arb_tag *tags, const size_t at[GAMEID_TAGS], const char *failed, uint64_t moves,
                     uint32_t plies, uint64_t tail);

#endif
