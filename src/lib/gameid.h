/* gameid.h: the game id, a fingerprint of a game that survives what an
 * archive does to its file (see arb_game.id in pgnarbiter.h for what it
 * covers and how, step by step), and FNV-1a, which it uses for the moves
 * that were not replayed.
 *
 * The reader folds the moves as it plays them, hands gameid_rest() and
 * gameid_game() the game's parts at its end and keeps the value in
 * arb_game.id, or only the part that is not the tags, for arb_game_id()
 * to finish when a game is asked for its id; arb_id_text() writes it as
 * "v1:" and sixteen hexadecimal digits.  A change to what is hashed, or
 * how, is a new version, never a new meaning of "v1". */
#ifndef ARB_GAMEID_H
#define ARB_GAMEID_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "pgnarbiter.h"
#include "tagtab.h"

/* The tags the id covers, in its order: Event, Site, Date, Round, White,
 * Black, FEN, Variant (the last as gameid_variant() gives it). */
#define GAMEID_TAGS 8

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

/* The step of the hash: the 128-bit product's halves XOR-ed. */
static inline uint64_t gameid_fold(uint64_t x, uint64_t y)
{
#ifdef ARB_HAVE_UINT128
    unsigned __int128 p = (unsigned __int128)x * y;
    return (uint64_t)p ^ (uint64_t)(p >> 64);
#else
    uint64_t xl = x & 0xFFFFFFFFu, xh = x >> 32, yl = y & 0xFFFFFFFFu, yh = y >> 32;
    uint64_t ll = xl * yl, lh = xl * yh, hl = xh * yl;
    uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);
    uint64_t lo = (ll & 0xFFFFFFFFu) | mid << 32;
    uint64_t hi = xh * yh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    return lo ^ hi;
#endif
}

#define GAMEID_K 0x9E3779B97F4A7C15ULL /* 2^64 divided by the golden ratio */
#define GAMEID_C144 (289 * GAMEID_K)   /* C(144) of the block keys (gameid.c) */

/* What of the id is not the tags (arb_game.id_rest): moves the plies
 * moves replayed, folded by gameid_move(); tail that of the moves not
 * replayed (gameid_tail()), then of the text of the move that could not
 * be played, if any (gameid_fnv1a()).  Made for every game: it is one
 * multiply, and arb_game_id() needs it when the id was not made at once. */
static inline uint64_t gameid_rest(uint64_t moves, uint32_t plies, uint64_t tail)
{
    return gameid_fold(moves ^ GAMEID_C144, tail ^ plies);
}

/* The Variant tag v (of reading kind) as the id covers it: NULL (none)
 * for standard chess, whatever its spelling, so that an archive adding or
 * dropping [Variant "Standard"] leaves the id as it is; one spelling for
 * Chess960; v itself for any other. */
extern const arb_tag gameid_chess960;
static inline const arb_tag *gameid_variant(const arb_tag *v, enum variant kind)
{
    return kind == VARIANT_STANDARD ? NULL : kind == VARIANT_CHESS960 ? &gameid_chess960 : v;
}

/* arb_game.id, version 1: tags[at[i]] is the first tag of the i-th
 * covered name from Event to FEN (at[i] == SIZE_MAX: none), variant the
 * Variant tag as gameid_variant() gives it, each value readable
 * GAMEID_SLACK bytes past its end; rest from gameid_rest(). */
uint64_t gameid_game(const arb_tag *tags, const size_t at[GAMEID_TAGS - 1], const arb_tag *variant, uint64_t rest);

#endif
