/* san.h: move text.  Reading is split in two: san_parse() reads the text
 * alone (no board), san_resolve() finds the one legal move it names. */
#ifndef ARB_SAN_H
#define ARB_SAN_H

#include <stdbool.h>
#include <stddef.h>

#include "board.h"
#include "movegen.h"

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

/* The length of a move text without its check or mate mark, if it has one. */
static inline size_t san_unmarked_len(const char *text, size_t len)
{
    return len - (len && (text[len - 1] == '+' || text[len - 1] == '#'));
}

/* The shapes of nearly every move, read without a call: e4, Nf3, exd5,
 * Nxd5, Nbd7, R1e2, Nbxd7, R1xe2, each perhaps with a check or mate mark.
 * Returns true with *out set, or false for anything else (san_parse_full()
 * reads every shape and gives the same answer for these). */
static inline ARB_ALWAYS_INLINE bool san_parse_usual(const char *text, size_t len, san_syntax_t *out)
{
    size_t n = san_unmarked_len(text, len);
    if (n - 2 > 3)
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
        return false;
    }
    /* A piece move with the file or rank it comes from, the way SAN tells
     * two pieces apart. */
    if (s.piece == EMPTY || (n == 5 && text[2] != 'x'))
        return false;
    unsigned from = (unsigned)(unsigned char)text[1];
    if (from - 'a' < 8u)
        s.from_file = (int8_t)(from - 'a');
    else if (from - '1' < 8u)
        s.from_rank = (int8_t)(from - '1');
    else
        return false;
    s.capture = n == 5;
    *out = s;
    return true;
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

/* What san_resolve_usual() found: the move, or the step that decides. */
enum san_usual {
    SAN_USUAL_OK,   /* *out is the legal move */
    SAN_USUAL_EP,   /* *out is an en passant capture: legal if movegen_is_legal() says so */
    SAN_USUAL_MAN,  /* *out is a man's move in check: movegen_man_legal() decides if it answers the check */
    SAN_USUAL_FULL  /* the full path decides (and words an error) */
};

/* The usual case, straight from the destination: the men of the named
 * type that reach s->to (square sets, and a clear line for a slider).  One
 * candidate, not pinned and out of check, is legal at once; anything else (no
 * candidate, several, a wrong promotion) goes to the full path, which
 * finds the same move or words the error.  Inline in san_resolve() and
 * san_quick(), so that neither pays a call for the usual move. */
static inline ARB_ALWAYS_INLINE enum san_usual san_resolve_usual(const board_t *b, const san_syntax_t *s, move_t *out)
{
    const uint8_t *sq = b->sq;
    int us = b->stm, to = s->to;
    uint8_t target = sq[to];
    if (target != EMPTY && PIECE_COLOR(target) == us)
        return SAN_USUAL_FULL;
    move_t m = { 0, (uint8_t)to, EMPTY, (uint8_t)(target != EMPTY ? MOVE_CAPTURE : 0) };
    if (s->piece == EMPTY) {
        if (s->from_file >= 0 && s->from_rank >= 0)
            return SAN_USUAL_FULL; /* a move by squares (e2e4) */
        int down = us == WHITE ? -16 : 16;
        uint8_t pawn = PIECE(us, PAWN);
        bool last = SQ_RANK(to) == (us == WHITE ? 7 : 0);
        if (last != (s->promo != EMPTY) || s->promo == KING)
            return SAN_USUAL_FULL;
        m.promo = s->promo;
        int from;
        if (s->from_file < 0 || s->from_file == SQ_FILE(to)) {
            /* A push: a pawn capture needs its file written (python-chess). */
            from = to + down;
            if (target != EMPTY || SQ_OFFBOARD(from))
                return SAN_USUAL_FULL;
            if (sq[from] != pawn) {
                if (sq[from] != EMPTY || SQ_RANK(to) != (us == WHITE ? 3 : 4) || sq[from + down] != pawn)
                    return SAN_USUAL_FULL;
                from += down;
                m.flags = MOVE_DOUBLE;
            }
        } else {
            int side = s->from_file - SQ_FILE(to);
            from = to + down + side;
            if ((side != 1 && side != -1) || SQ_OFFBOARD(from) || sq[from] != pawn)
                return SAN_USUAL_FULL;
            if (target == EMPTY) {
                if (to != b->ep)
                    return SAN_USUAL_FULL;
                m.flags = MOVE_CAPTURE | MOVE_EP;
            }
        }
        if (s->from_rank >= 0 && SQ_RANK(from) != s->from_rank)
            return SAN_USUAL_FULL;
        m.from = (uint8_t)from;
    } else {
        if (s->promo != EMPTY)
            return SAN_USUAL_FULL;
        int t = s->piece, from = -1;
        if (t == KING) {
            from = b->king[us];
            if (!(board_ray_kinds[BOARD_DELTA(from, to)] & (1 << KING)) ||
                (s->from_file >= 0 && SQ_FILE(from) != s->from_file) ||
                (s->from_rank >= 0 && SQ_RANK(from) != s->from_rank))
                return SAN_USUAL_FULL;
            m.from = (uint8_t)from;
            if (!movegen_king_step_legal(b, from, to))
                return SAN_USUAL_FULL;
            *out = board_move(m.from, m.to, m.promo, m.flags);
            return SAN_USUAL_OK;
        }
        /* Each man of the kind that reaches `to` on an empty board, with the
         * line between clear and the written file or rank. */
        uint64_t x = b->men[MEN_PIECES(us) + t - KNIGHT] & board_reach_bits[t - KNIGHT][to];
        for (; x; x &= x - 1) {
            int f = SQ88(board_lsb(x));
            if (t != KNIGHT && (board_between(f, to) & b->occ))
                continue;
            if ((s->from_file >= 0 && SQ_FILE(f) != s->from_file) ||
                (s->from_rank >= 0 && SQ_RANK(f) != s->from_rank))
                continue;
            if (from >= 0)
                return SAN_USUAL_FULL; /* two: the full path picks */
            from = f;
        }
        if (from < 0)
            return SAN_USUAL_FULL;
        m.from = (uint8_t)from;
    }
    *out = board_move(m.from, m.to, m.promo, m.flags);
    if (m.flags & MOVE_EP)
        return SAN_USUAL_EP;
    if (b->in_check)
        return SAN_USUAL_MAN;
    /* Out of check, the pin test of movegen_man_legal(): a pinned man may
     * only stay on its line. */
    int pin = movegen_pin_dir(b, m.from);
    if (pin != BOARD_DIR_NONE && board_ray_dir[BOARD_DELTA(b->king[us], to)] != pin)
        return SAN_USUAL_FULL;
    return SAN_USUAL_OK;
}

/* san_quick()'s last step for an en passant capture or a move in check:
 * 0 with *out = m if m is legal, -1 otherwise. */
int san_quick_legal(const board_t *b, move_t m, move_t *out);

/* san_quick() for O-O and O-O-O (with + or #): 0 with *out the castling
 * move if it is legal, -1 otherwise (the full path words why). */
int san_quick_castle(const board_t *b, const char *text, size_t len, move_t *out);

/* san_parse() and san_resolve() in one call for the usual shapes
 * (san_parse_usual()) and moves the fast path of san_resolve() settles:
 * returns 0 with the legal move in *out, or -1 when the two calls must
 * decide (they then find the same move, or say why there is none).
 * Inline: the replay's loop calls it every move, and a call saved and
 * restored half a dozen registers each time. */
static inline int san_quick(const board_t *b, const char *text, size_t len, move_t *out)
{
    san_syntax_t s;
    move_t m;
    if (!san_parse_usual(text, len, &s))
        return len && text[0] == 'O' ? san_quick_castle(b, text, len, out) : -1;
    switch (san_resolve_usual(b, &s, &m)) {
    case SAN_USUAL_OK:
        *out = m;
        return 0;
    case SAN_USUAL_EP:
    case SAN_USUAL_MAN:
        return san_quick_legal(b, m, out);
    default:
        return -1;
    }
}

/* Writes the standard SAN of the legal move m in b (minimal disambiguation,
 * + or #), NUL-terminated; out needs 8 bytes.  Returns the length. */
size_t san_format(const board_t *b, move_t m, char *out);

/* The same for a caller that knows the position after m: whether it is
 * check and whether the side to move there has a legal move. */
size_t san_format_known(const board_t *b, move_t m, bool check, bool has_move, char *out);

#endif
