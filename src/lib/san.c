/* san.c: move text in and out. */
#include "san.h"

#include <stdio.h>
#include <string.h>

#include "movegen.h"

static const char piece_upper[] = "  NBRQK";

/* Piece type per letter of a piece move (N, B, R, Q, K), EMPTY for others. */
const uint8_t san_letter_piece[256] = {
    ['N'] = KNIGHT, ['B'] = BISHOP, ['R'] = ROOK, ['Q'] = QUEEN, ['K'] = KING,
};

static int piece_of_letter(char c)
{
    return san_letter_piece[(unsigned char)c];
}

static bool is_file(char c) { return c >= 'a' && c <= 'h'; }
static bool is_rank(char c) { return c >= '1' && c <= '8'; }

static bool text_is(const char *t, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(t, lit, n) == 0;
}

/* san_parse() for every shape: suffixes of any kind, castling, null
 * moves, drops, disambiguation, promotion. */
int san_parse_full(const char *text, size_t len, san_syntax_t *out)
{
    out->kind = SAN_MOVE;
    out->piece = EMPTY;
    out->from_file = out->from_rank = -1;
    out->to = 0;
    out->promo = EMPTY;
    out->capture = false;
    /* Suffixes: check and mate marks, annotation glyphs, "e.p.". */
    for (;;) {
        char c = len ? text[len - 1] : '\0';
        if (c == '+' || c == '#' || c == '!' || c == '?')
            len--;
        else if (c == '.' && len >= 4 && memcmp(text + len - 4, "e.p.", 4) == 0)
            len -= 4;
        else
            break;
    }
    if (len == 0)
        return -1;
    char c0 = text[0];
    if (c0 == 'O' || c0 == '0' || c0 == '-' || c0 == 'Z' || c0 == '@') {
        if (text_is(text, len, "O-O") || text_is(text, len, "0-0")) {
            out->kind = SAN_CASTLE_KING;
            return 0;
        }
        if (text_is(text, len, "O-O-O") || text_is(text, len, "0-0-0")) {
            out->kind = SAN_CASTLE_QUEEN;
            return 0;
        }
        if (text_is(text, len, "--") || text_is(text, len, "Z0") || text_is(text, len, "0000") ||
            text_is(text, len, "@@@@")) {
            out->kind = SAN_NULLMOVE;
            return 0;
        }
    }
    /* Crazyhouse drop: [PNBRQK]@square. */
    if ((len == 3 && c0 == '@') || (len == 4 && text[1] == '@' && strchr("PNBRQK", c0))) {
        const char *sq = text + len - 2;
        if (!is_file(sq[0]) || !is_rank(sq[1]))
            return -1;
        out->kind = SAN_DROP;
        out->piece = len == 4 && c0 != 'P' ? (uint8_t)piece_of_letter(c0) : PAWN;
        out->to = SQ(sq[0] - 'a', sq[1] - '1');
        return 0;
    }

    /* [NBRQK]? [a-h]? [1-8]? [-x]? [a-h][1-8] (=?[nbrqkNBRQK])?, read from both ends. */
    size_t i = 0, end = len;
    int piece = piece_of_letter(c0);
    if (piece != EMPTY) {
        out->piece = (uint8_t)piece;
        i = 1;
    }
    char last = text[end - 1];
    if (end >= i + 3 && !is_rank(last)) {
        int promo = piece_of_letter(last >= 'a' ? (char)(last - 'a' + 'A') : last);
        if (promo != EMPTY && (text[end - 2] == '=' || is_rank(text[end - 2]))) {
            out->promo = (uint8_t)promo;
            end--;
            if (text[end - 1] == '=')
                end--;
        }
    }
    if (end < i + 2 || !is_file(text[end - 2]) || !is_rank(text[end - 1]))
        return -1;
    out->to = SQ(text[end - 2] - 'a', text[end - 1] - '1');
    end -= 2;
    if (end > i && (text[end - 1] == 'x' || text[end - 1] == '-')) {
        out->capture = text[end - 1] == 'x';
        end--;
    }
    if (end > i && is_file(text[i]))
        out->from_file = (int8_t)(text[i++] - 'a');
    if (end > i && is_rank(text[i]))
        out->from_rank = (int8_t)(text[i++] - '1');
    if (i != end)
        return -1;
    return 0;
}

/* [NBKRQ]?[a-h]?[1-8]?[-x]?[a-h][1-8](=?[nbrqkNBRQK])? at t[i], with the
 * regex engine's backtracking order: each optional part is first taken,
 * then left out.  Returns the length matched, 0 if none. */
static size_t scan_san_at(const char *t, size_t len, size_t i)
{
#define AT(k) ((k) < len ? t[(k)] : '\0')
    for (int p = 1; p >= 0; p--) {
        if (p && !(AT(i) && strchr("NBKRQ", AT(i))))
            continue;
        size_t j1 = i + (size_t)p;
        for (int f = 1; f >= 0; f--) {
            if (f && !is_file(AT(j1)))
                continue;
            size_t j2 = j1 + (size_t)f;
            for (int r = 1; r >= 0; r--) {
                if (r && !is_rank(AT(j2)))
                    continue;
                size_t j3 = j2 + (size_t)r;
                for (int s = 1; s >= 0; s--) {
                    if (s && AT(j3) != '-' && AT(j3) != 'x')
                        continue;
                    size_t j4 = j3 + (size_t)s;
                    if (!is_file(AT(j4)) || !is_rank(AT(j4 + 1)))
                        continue;
                    size_t end = j4 + 2;
                    if (AT(end) == '=' && AT(end + 1) && strchr("nbrqkNBRQK", AT(end + 1)))
                        end += 2;
                    else if (AT(end) && strchr("nbrqkNBRQK", AT(end)))
                        end += 1;
                    return end - i;
                }
            }
        }
    }
    return 0;
#undef AT
}

static bool is_drop_at(const char *t, size_t len, size_t a)
{
    return a + 3 <= len && t[a] == '@' && is_file(t[a + 1]) && is_rank(t[a + 2]);
}

static size_t scan_literal(const char *t, size_t len, size_t i, const char *lit)
{
    size_t n = strlen(lit);
    return len - i >= n && memcmp(t + i, lit, n) == 0 ? n : 0;
}

enum san_scan san_scan(const char *t, size_t len, size_t *pos, size_t *start, size_t *n)
{
    static const char *const moves[] = { "--", "Z0", "0000", "@@@@", "O-O-O", "O-O", "0-0-0", "0-0", NULL };
    static const char *const results[] = { "*", "1-0", "0-1", "1/2-1/2", NULL };
    for (size_t i = *pos; i < len; i++) {
        size_t k = scan_san_at(t, len, i);
        /* A drop: [PNBRQK]?@[a-h][1-8], the piece letter tried first. */
        if (!k && t[i] && strchr("PNBRQK", t[i]) && is_drop_at(t, len, i + 1))
            k = 4;
        if (!k && is_drop_at(t, len, i))
            k = 3;
        for (int m = 0; !k && moves[m]; m++)
            k = scan_literal(t, len, i, moves[m]);
        if (k) {
            *start = i;
            *n = k;
            *pos = i + k;
            return SCAN_MOVE;
        }
        for (int m = 0; results[m]; m++) {
            if ((k = scan_literal(t, len, i, results[m])) != 0) {
                *start = i;
                *n = k;
                *pos = i + k;
                return SCAN_RESULT;
            }
        }
    }
    *pos = len;
    return SCAN_NONE;
}

static const char *const piece_names[] = { "", "pawn", "knight", "bishop", "rook", "queen", "king" };

static void square_name(int sq, char out[3])
{
    out[0] = (char)('a' + SQ_FILE(sq));
    out[1] = (char)('1' + SQ_RANK(sq));
    out[2] = '\0';
}

/* Castling for the side to move, king- or queenside. */
static enum san_status resolve_castle(const board_t *b, bool queenside, move_t *out, char *why, size_t cap)
{
    int idx = CASTLE_INDEX(b->stm, queenside);
    const char *name = queenside ? "O-O-O" : "O-O";
    if (!(b->castle & (1 << idx))) {
        snprintf(why, cap, "%s: %s has no right to castle on that side", name,
                 b->stm == WHITE ? "White" : "Black");
        return SAN_ILLEGAL;
    }
    move_t m = { b->king[b->stm], b->castle_rook[idx], EMPTY, MOVE_CASTLE };
    if (!movegen_is_legal(b, m)) {
        snprintf(why, cap, "%s: the way is blocked, or the king is in check or would cross or land on an attacked square", name);
        return SAN_ILLEGAL;
    }
    *out = m;
    return SAN_OK;
}

/* Squares from which a piece of type t could move to `to` (geometry and
 * occupancy only), written to from[]; returns how many.  Pawns: pushes and
 * captures, en passant included. */
static int origins(const board_t *b, int t, int to, uint8_t from[16], int flags_out[16])
{
    static const int knight_steps[8] = { 33, 31, 18, 14, -14, -18, -31, -33 };
    static const int king_steps[8] = { 17, 16, 15, 1, -15, -1, -17, -16 };
    const uint8_t *s = b->sq;
    int us = b->stm, n = 0;
    uint8_t want = PIECE(us, t);
    if (s[to] != EMPTY && PIECE_COLOR(s[to]) == us)
        return 0;
    bool capture = s[to] != EMPTY;
    if (t == PAWN) {
        int down = us == WHITE ? -16 : 16;
        if (!capture) {
            int f = to + down;
            if (!SQ_OFFBOARD(f) && s[f] == want) {
                from[n] = (uint8_t)f;
                flags_out[n++] = 0;
            } else if (!SQ_OFFBOARD(f) && s[f] == EMPTY && SQ_RANK(to) == (us == WHITE ? 3 : 4) &&
                       s[f + down] == want) {
                from[n] = (uint8_t)(f + down);
                flags_out[n++] = MOVE_DOUBLE;
            }
        }
        if (capture || to == b->ep) {
            for (int side = -1; side <= 1; side += 2) {
                int f = to + down + side;
                if (!SQ_OFFBOARD(f) && s[f] == want) {
                    from[n] = (uint8_t)f;
                    flags_out[n++] = capture ? MOVE_CAPTURE : MOVE_CAPTURE | MOVE_EP;
                }
            }
        }
        return n;
    }
    int cflag = capture ? MOVE_CAPTURE : 0;
    if (t == KNIGHT || t == KING) {
        const int *steps = t == KNIGHT ? knight_steps : king_steps;
        for (int i = 0; i < 8; i++) {
            int f = to + steps[i];
            if (!SQ_OFFBOARD(f) && s[f] == want && n < 16) {
                from[n] = (uint8_t)f;
                flags_out[n++] = cflag;
            }
        }
        return n;
    }
    /* king_steps lists diagonal steps at even indices, straight ones at odd. */
    int first = t == ROOK ? 1 : 0, stride = t == QUEEN ? 1 : 2;
    for (int i = first; i < 8; i += stride) {
        int d = king_steps[i];
        for (int f = to + d; !SQ_OFFBOARD(f); f += d) {
            if (s[f] == EMPTY)
                continue;
            if (s[f] == want && n < 16) {
                from[n] = (uint8_t)f;
                flags_out[n++] = cflag;
            }
            break;
        }
    }
    return n;
}

/* A move given by origin and destination only (e2e4, g1f3, e1g1): whatever
 * stands on the origin moves, as python-chess's find_move does. */
static enum san_status resolve_squares(const board_t *b, const san_syntax_t *s, move_t *out, char *why, size_t cap)
{
    int from = SQ(s->from_file, s->from_rank), to = s->to, us = b->stm;
    uint8_t pc = b->sq[from];
    char fn[3], tn[3];
    square_name(from, fn);
    square_name(to, tn);
    if (pc == EMPTY || PIECE_COLOR(pc) != us) {
        snprintf(why, cap, "%s%s: no %s piece on %s", fn, tn, us == WHITE ? "white" : "black", fn);
        return SAN_ILLEGAL;
    }
    if (PIECE_TYPE(pc) == KING) {
        /* Castling written as the king's two-square step or as king-takes-rook. */
        for (int q = 0; q < 2; q++) {
            int idx = CASTLE_INDEX(us, q);
            if (!(b->castle & (1 << idx)) || from != b->king[us])
                continue;
            int rook = b->castle_rook[idx];
            int kto = SQ(q ? 2 : 6, SQ_RANK(from));
            if (to == rook || (!b->chess960 && to == kto && to != from))
                return resolve_castle(b, q, out, why, cap);
        }
    }
    san_syntax_t t = *s;
    t.piece = PIECE_TYPE(pc);
    (void)t;
    uint8_t cand[16];
    int flags[16];
    int n = origins(b, PIECE_TYPE(pc), to, cand, flags);
    for (int i = 0; i < n; i++) {
        if (cand[i] != from)
            continue;
        bool last = SQ_RANK(to) == (us == WHITE ? 7 : 0);
        if (PIECE_TYPE(pc) == PAWN && last != (s->promo != EMPTY)) {
            snprintf(why, cap, "%s%s: %s", fn, tn, last ? "a pawn reaching the last rank must promote" : "only a pawn reaching the last rank promotes");
            return SAN_ILLEGAL;
        }
        if (PIECE_TYPE(pc) != PAWN && s->promo != EMPTY)
            break;
        if (s->promo == KING || s->promo == PAWN)
            break;
        move_t m = { (uint8_t)from, (uint8_t)to, s->promo, (uint8_t)flags[i] };
        if (!movegen_is_legal(b, m)) {
            snprintf(why, cap, "%s%s would leave the king in check", fn, tn);
            return SAN_ILLEGAL;
        }
        *out = m;
        return SAN_OK;
    }
    snprintf(why, cap, "%s%s: the %s on %s cannot move to %s", fn, tn, piece_names[PIECE_TYPE(pc)], fn, tn);
    return SAN_ILLEGAL;
}

/* san_resolve() past the usual case: castling, null moves, drops, moves
 * by squares, and every move that fails or is ambiguous (the words why). */
ARB_NOINLINE static enum san_status resolve_full(const board_t *b, const san_syntax_t *s, move_t *out, char *why,
                                                 size_t cap)
{
    char tn[3];
    switch (s->kind) {
    case SAN_CASTLE_KING:
    case SAN_CASTLE_QUEEN:
        return resolve_castle(b, s->kind == SAN_CASTLE_QUEEN, out, why, cap);
    case SAN_NULLMOVE:
        if (board_in_check(b)) {
            snprintf(why, cap, "a null move while in check");
            return SAN_ILLEGAL;
        }
        out->from = out->to = b->king[b->stm];
        out->promo = EMPTY;
        out->flags = MOVE_NULL;
        return SAN_OK;
    case SAN_DROP:
        snprintf(why, cap, "piece drops are not moves of chess");
        return SAN_ILLEGAL;
    case SAN_MOVE:
        break;
    }
    if (s->piece == EMPTY && s->from_file >= 0 && s->from_rank >= 0)
        return resolve_squares(b, s, out, why, cap);

    int t = s->piece == EMPTY ? PAWN : s->piece;
    int us = b->stm;
    bool in_check = b->in_check;
    uint8_t cand[16];
    int flags[16];
    int n = origins(b, t, s->to, cand, flags);
    int found = 0, illegal = 0, ep_illegal = 0;
    move_t match[2];
    bool last = SQ_RANK(s->to) == (us == WHITE ? 7 : 0);
    for (int i = 0; i < n; i++) {
        int f = cand[i];
        if (s->from_file >= 0 && SQ_FILE(f) != s->from_file)
            continue;
        if (s->from_rank >= 0 && SQ_RANK(f) != s->from_rank)
            continue;
        /* A pawn moving straight must be on the destination's file unless a
         * file is given; a pawn capture needs its file (python-chess). */
        if (t == PAWN && s->from_file < 0 && SQ_FILE(f) != SQ_FILE(s->to))
            continue;
        move_t m = { (uint8_t)f, s->to, EMPTY, (uint8_t)flags[i] };
        if (!movegen_is_legal_known(b, m, in_check)) {
            illegal++;
            if (flags[i] & MOVE_EP)
                ep_illegal++;
            continue;
        }
        if (found < 2)
            match[found] = m;
        found++;
    }
    square_name(s->to, tn);
    if (found == 1) {
        move_t m = match[0];
        if (t == PAWN && last) {
            if (s->promo == EMPTY) {
                snprintf(why, cap, "a pawn reaching %s must promote: write =Q, =R, =B or =N", tn);
                return SAN_ILLEGAL;
            }
            if (s->promo == KING) {
                snprintf(why, cap, "a pawn cannot promote to a king");
                return SAN_ILLEGAL;
            }
            m.promo = s->promo;
        } else if (s->promo != EMPTY) {
            snprintf(why, cap, "only a pawn reaching the last rank promotes");
            return SAN_ILLEGAL;
        }
        *out = m;
        return SAN_OK;
    }
    if (found > 1) {
        char a[8], c[8], w[8];
        board_t tmp = *b;
        san_format(&tmp, match[0], a);
        san_format(&tmp, match[1], c);
        /* The written move, rebuilt minimally for the message. */
        int k = 0;
        if (t != PAWN) w[k++] = piece_upper[t];
        if (s->from_file >= 0) w[k++] = (char)('a' + s->from_file);
        if (s->from_rank >= 0) w[k++] = (char)('1' + s->from_rank);
        w[k++] = tn[0];
        w[k++] = tn[1];
        w[k] = '\0';
        snprintf(why, cap, "%s and %s both match %s", a, c, w);
        return SAN_AMBIGUOUS;
    }
    if (ep_illegal)
        snprintf(why, cap, "e.p. capture on %s would expose the king", tn);
    else if (illegal)
        snprintf(why, cap, "the %s move to %s would leave the king in check", piece_names[t], tn);
    else
        snprintf(why, cap, "no %s can reach %s", piece_names[t], tn);
    return SAN_ILLEGAL;
}

/* The usual case's last step for en passant: m if legal, else the full
 * path words why. */
ARB_NOINLINE static enum san_status take_special(const board_t *b, const san_syntax_t *s, move_t m, move_t *out,
                                                 char *why, size_t cap)
{
    if (movegen_is_legal(b, m)) {
        *out = m;
        return SAN_OK;
    }
    return resolve_full(b, s, out, why, cap);
}

/* The usual case's last step when m, a man's move, may be pinned or the
 * side is in check: the same, with the pin test inline (no call but the
 * full path's). */
ARB_NOINLINE static enum san_status take_man(const board_t *b, const san_syntax_t *s, move_t m, move_t *out,
                                             char *why, size_t cap)
{
    if (movegen_man_legal(b, m, b->in_check)) {
        *out = m;
        return SAN_OK;
    }
    return resolve_full(b, s, out, why, cap);
}

enum san_status san_resolve(const board_t *b, const san_syntax_t *s, move_t *out, char *why, size_t cap)
{
    if (s->kind != SAN_MOVE)
        return resolve_full(b, s, out, why, cap);
    move_t m;
    switch (san_resolve_usual(b, s, &m)) {
    case SAN_USUAL_OK:
        *out = m;
        return SAN_OK;
    case SAN_USUAL_EP:
        return take_special(b, s, m, out, why, cap);
    case SAN_USUAL_MAN:
        return take_man(b, s, m, out, why, cap);
    default:
        return resolve_full(b, s, out, why, cap);
    }
}

int san_quick_castle(const board_t *b, const char *text, size_t len, move_t *out)
{
    size_t n = san_unmarked_len(text, len);
    bool queenside;
    /* Byte by byte: a call to memcmp() cost more than the test. */
    if (n < 3 || text[0] != 'O' || text[1] != '-' || text[2] != 'O')
        return -1;
    if (n == 3)
        queenside = false;
    else if (n == 5 && text[3] == '-' && text[4] == 'O')
        queenside = true;
    else
        return -1;
    return resolve_castle(b, queenside, out, NULL, 0) == SAN_OK ? 0 : -1;
}

int san_quick_legal(const board_t *b, move_t m, move_t *out)
{
    if (!((m.flags & MOVE_EP) ? movegen_is_legal(b, m) : movegen_man_legal(b, m, b->in_check)))
        return -1;
    *out = m;
    return 0;
}

/* The SAN of m in b without the check or mate mark; NUL not written. */
static size_t format_body(const board_t *b, move_t m, char *out)
{
    size_t n = 0;
    if (m.flags & MOVE_CASTLE) {
        const char *c = SQ_FILE(m.to) < SQ_FILE(m.from) ? "O-O-O" : "O-O";
        n = strlen(c);
        memcpy(out, c, n);
    } else {
        int t = PIECE_TYPE(b->sq[m.from]);
        if (t == PAWN) {
            if (m.flags & MOVE_CAPTURE) {
                out[n++] = (char)('a' + SQ_FILE(m.from));
                out[n++] = 'x';
            }
        } else {
            out[n++] = piece_upper[t];
            /* Disambiguate among other pieces of the type that can legally go there. */
            uint8_t cand[16];
            int flags[16];
            int k = origins(b, t, m.to, cand, flags);
            bool other = false, same_file = false, same_rank = false;
            for (int i = 0; i < k; i++) {
                if (cand[i] == m.from)
                    continue;
                move_t o = { cand[i], m.to, EMPTY, (uint8_t)flags[i] };
                if (!movegen_is_legal(b, o))
                    continue;
                other = true;
                if (SQ_FILE(cand[i]) == SQ_FILE(m.from)) same_file = true;
                if (SQ_RANK(cand[i]) == SQ_RANK(m.from)) same_rank = true;
            }
            if (other) {
                if (!same_file) {
                    out[n++] = (char)('a' + SQ_FILE(m.from));
                } else if (!same_rank) {
                    out[n++] = (char)('1' + SQ_RANK(m.from));
                } else {
                    out[n++] = (char)('a' + SQ_FILE(m.from));
                    out[n++] = (char)('1' + SQ_RANK(m.from));
                }
            }
            if (m.flags & MOVE_CAPTURE)
                out[n++] = 'x';
        }
        out[n++] = (char)('a' + SQ_FILE(m.to));
        out[n++] = (char)('1' + SQ_RANK(m.to));
        if (m.promo) {
            out[n++] = '=';
            out[n++] = piece_upper[m.promo];
        }
    }
    return n;
}

size_t san_format(const board_t *b, move_t m, char *out)
{
    if (m.flags & MOVE_NULL) {
        memcpy(out, "--", 3);
        return 2;
    }
    size_t n = format_body(b, m, out);
    board_t next;
    board_make_move(b, m, &next);
    if (board_in_check(&next))
        out[n++] = movegen_has_legal(&next) ? '+' : '#';
    out[n] = '\0';
    return n;
}

size_t san_format_known(const board_t *b, move_t m, bool check, bool has_move, char *out)
{
    if (m.flags & MOVE_NULL) {
        memcpy(out, "--", 3);
        return 2;
    }
    size_t n = format_body(b, m, out);
    if (check)
        out[n++] = has_move ? '+' : '#';
    out[n] = '\0';
    return n;
}
