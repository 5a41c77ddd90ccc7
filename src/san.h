/* san.h: move text.  Reading is split in two: san_parse() reads the text
 * alone (no board), san_resolve() finds the one legal move it names. */
#ifndef ARB_SAN_H
#define ARB_SAN_H

#include <stdbool.h>
#include <stddef.h>

#include "board.h"

enum san_kind {
    SAN_MOVE,        /* piece or pawn move, long algebraic and UCI included */
    SAN_CASTLE_KING, /* O-O, 0-0 */
    SAN_CASTLE_QUEEN,/* O-O-O, 0-0-0 */
    SAN_NULLMOVE,    /* --, Z0, 0000, @@@@ */
    SAN_DROP         /* N@f3: a crazyhouse drop, never legal in chess */
};

/* What a move text says, before any board is consulted. */
typedef struct san_syntax {
    uint8_t kind;        /* enum san_kind (a byte: the syntax fits one 8-byte word) */
    uint8_t piece;       /* piece type named, or EMPTY for a pawn / bare square pair */
    int8_t from_file;    /* 0..7 if given, else -1 */
    int8_t from_rank;    /* 0..7 if given, else -1 */
    uint8_t to;          /* 0x88 destination (SAN_MOVE, SAN_DROP) */
    uint8_t promo;       /* piece type after =, EMPTY if none */
    bool capture;        /* an x was written (not checked against the board) */
} san_syntax_t;

/* san_parse() for every shape; the inline part below answers the usual ones. */
int san_parse_full(const char *text, size_t len, san_syntax_t *out);

/* Piece type per letter of a piece move (N, B, R, Q, K), EMPTY for others. */
extern const uint8_t san_letter_piece[256];

/* The shapes of nearly every move, read without a call: e4, Nf3, exd5,
 * Nxd5, each perhaps with a check or mate mark.  Returns true with *out
 * set, or false for anything else (san_parse_full() reads every shape and
 * gives the same answer for these). */
static inline bool san_parse_usual(const char *text, size_t len, san_syntax_t *out)
{
    size_t n = len - (len && (text[len - 1] == '+' || text[len - 1] == '#'));
    if (n - 2 > 2)
        return false;
    unsigned file = (unsigned)(unsigned char)text[n - 2] - 'a';
    unsigned rank = (unsigned)(unsigned char)text[n - 1] - '1';
    if (file >= 8 || rank >= 8)
        return false;
    san_syntax_t s = { SAN_MOVE, EMPTY, -1, -1, SQ(file, rank), EMPTY, false };
    unsigned char c0 = (unsigned char)text[0];
    if (n == 2) {
        *out = s;
        return true;
    }
    s.piece = san_letter_piece[c0];
    if (n == 3 && s.piece != EMPTY) {
        *out = s;
        return true;
    }
    if (n == 4 && text[1] == 'x') {
        if (s.piece == EMPTY && (unsigned)(c0 - 'a') < 8u)
            s.from_file = (int8_t)(c0 - 'a');
        if (s.piece != EMPTY || s.from_file >= 0) {
            s.capture = true;
            *out = s;
            return true;
        }
    }
    return false;
}

/* Reads len bytes of move text: SAN with any of the suffixes + # ! ? !! ??
 * !? ?!, "e.p.", = optional before the promotion piece, superfluous
 * disambiguation, long algebraic (Ng1-f3, Ng1f3) and UCI (e2e4, e7e8q).
 * Returns 0, or -1 if the text is not a move. */
static inline int san_parse(const char *text, size_t len, san_syntax_t *out)
{
    return san_parse_usual(text, len, out) ? 0 : san_parse_full(text, len, out);
}

/* Where python-chess's movetext scanner, which skips what it cannot read,
 * would find the next move or result in text[*pos..len): "Sf3" holds the
 * move "f3", "Rd6+1-0" the move "Rd6" and the result "1-0".  Returns
 * SCAN_MOVE or SCAN_RESULT with the piece at text[*start], *n bytes long,
 * and advances *pos past it; SCAN_NONE when nothing is left. */
enum san_scan { SCAN_NONE, SCAN_MOVE, SCAN_RESULT };
enum san_scan san_scan(const char *text, size_t len, size_t *pos, size_t *start, size_t *n);

enum san_status { SAN_OK = 0, SAN_ILLEGAL = 1, SAN_AMBIGUOUS = 2 };

/* Finds the legal move that s names in b.  On failure writes a sentence a
 * person understands into why ("no knight can reach f3", "Nbd2 and Nfd2
 * both match Nd2") and returns SAN_ILLEGAL or SAN_AMBIGUOUS.  A null move
 * resolves to a move with MOVE_NULL set when the side to move is not in
 * check; a drop never resolves.  why may be NULL if why_cap is 0. */
enum san_status san_resolve(const board_t *b, const san_syntax_t *s, move_t *out,
                            char *why, size_t why_cap);

/* san_parse() and san_resolve() in one call for the usual shapes
 * (san_parse_usual()) and moves the fast path of san_resolve() settles:
 * returns 0 with the legal move in *out, or -1 when the two calls must
 * decide (they then find the same move, or say why there is none). */
int san_quick(const board_t *b, const char *text, size_t len, move_t *out);

/* Writes the standard SAN of the legal move m in b (minimal disambiguation,
 * + or #), NUL-terminated; out needs 8 bytes.  Returns the length. */
size_t san_format(const board_t *b, move_t m, char *out);

/* The same for a caller that knows the position after m: whether it is
 * check and whether the side to move there has a legal move. */
size_t san_format_known(const board_t *b, move_t m, bool check, bool has_move, char *out);

#endif
