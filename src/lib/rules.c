/* rules.c: rule facts per ply (FIDE Laws 2023; python-chess semantics). */
#include "rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "dead.h"
#include "san.h"
#include "zobrist.h"

static const char *const fact_names[FACT_COUNT] = {
    "checkmate", "stalemate", "insufficient", "dead",
    "fivefold", "seventyfive", "threefold", "fifty",
    "white_cannot_win", "black_cannot_win",
};

const char *rules_fact_name(enum rules_fact f)
{
    return (unsigned)f < FACT_COUNT ? fact_names[f] : "?";
}

/* Bishops of both colours: bit 0 set if one stands on a dark square, bit 1 if on a light one. */
static int bishop_square_colours(const board_t *b)
{
    uint64_t bishops = b->men[MEN_INDEX(PIECE(WHITE, BISHOP))] | b->men[MEN_INDEX(PIECE(BLACK, BISHOP))];
    return (bishops & BOARD_DARK_SQUARES ? 1 : 0) | (bishops & ~BOARD_DARK_SQUARES ? 2 : 0);
}

bool rules_side_insufficient(const board_t *b, int color)
{
    const uint8_t *c = b->count;
    int them = !color;
    if (c[PIECE(color, PAWN)] || c[PIECE(color, ROOK)] || c[PIECE(color, QUEEN)])
        return false;
    int knights = c[PIECE(color, KNIGHT)], bishops = c[PIECE(color, BISHOP)];
    if (knights) {
        /* A lone knight mates only with help: an enemy pawn, knight, bishop
         * or rook can block its own king's flight squares. */
        return knights == 1 && bishops == 0 &&
               !c[PIECE(them, PAWN)] && !c[PIECE(them, KNIGHT)] &&
               !c[PIECE(them, BISHOP)] && !c[PIECE(them, ROOK)];
    }
    if (bishops) {
        /* Bishops all on one colour (both sides' bishops) cannot mate, nor
         * be helped to, unless a pawn or knight can block a flight square. */
        int colours = bishop_square_colours(b);
        return colours != 3 && !c[PIECE(WHITE, PAWN)] && !c[PIECE(BLACK, PAWN)] &&
               !c[PIECE(WHITE, KNIGHT)] && !c[PIECE(BLACK, KNIGHT)];
    }
    return true;
}

bool rules_insufficient(const board_t *b)
{
    return rules_side_insufficient(b, WHITE) && rules_side_insufficient(b, BLACK);
}

/* A side has no pawn, rook or queen: only then can material alone decide. */
static bool material_thin(const board_t *b)
{
    const uint8_t *c = b->count;
    return !(c[PIECE(WHITE, PAWN)] | c[PIECE(WHITE, ROOK)] | c[PIECE(WHITE, QUEEN)]) ||
           !(c[PIECE(BLACK, PAWN)] | c[PIECE(BLACK, ROOK)] | c[PIECE(BLACK, QUEEN)]);
}

/* Sightings in the window of the key `key`, following its slot's chain
 * from the stamp `from` back to the window's start. */
static uint32_t sightings(const rules_t *r, uint64_t key, uint32_t from)
{
    uint32_t n = 0;
    for (uint32_t s = from; s >= r->wlow; s = r->chain[s - r->base])
        n += r->keys[s - r->base] == key;
    return n;
}

/* The window starts afresh at the ply stamped `stamp`: nothing in it has
 * occurred twice. */
static void window_start(rules_t *r, uint32_t stamp)
{
    r->wlow = stamp;
    r->twice[WHITE] = r->twice[BLACK] = 0;
}

int rules_init(rules_t *r, const board_t *start)
{
    r->cap = 256;
    r->keys = malloc(r->cap * sizeof *r->keys);
    r->chain = malloc(r->cap * sizeof *r->chain);
    r->stamps = calloc(RULES_STAMPS, sizeof *r->stamps);
    if (!r->keys || !r->chain || !r->stamps) {
        rules_free(r);
        return -1;
    }
    r->base = 1; /* a stamp of 0 is from no game */
    r->ply = 0;
    rules_restart(r, start);
    return 0;
}

void rules_restart(rules_t *r, const board_t *start)
{
    if (r->base + r->ply >= UINT32_MAX / 2) {
        memset(r->stamps, 0, RULES_STAMPS * sizeof *r->stamps);
        r->base = 1;
    } else {
        r->base += r->ply + 1; /* above the last game's stamps */
    }
    r->board = *start;
    r->pos = &r->board;
    r->ply = 0;
    for (int f = 0; f < FACT_COUNT; f++) {
        r->first[f] = -1;
        r->first_move[f][0] = '\0';
    }
    r->keys[0] = start->key;
    uint32_t *slot = &r->stamps[rules_stamp_slot(start->key)];
    r->chain[0] = *slot; /* from an earlier game: below the window */
    *slot = r->base;
    window_start(r, r->base);
    r->seen = 1;
    r->pending = true;
    r->remarkable = true;
    r->material_changed = true;
    r->pawns_changed = false;
    r->insufficient = false;
    r->thin = material_thin(start);
    r->cannot_win[WHITE] = r->cannot_win[BLACK] = false;
    r->last = (move_t){ 0 };
    r->legality_only = false;
    r->dead = NULL;
}

void rules_free(rules_t *r)
{
    free(r->keys);
    free(r->chain);
    free(r->stamps);
    r->keys = NULL;
    r->chain = NULL;
    r->stamps = NULL;
    r->cap = 0;
}

/* Does the quiet move of the man on `from` (piece code pc) to `to` lead to
 * a position that occurred twice in the window?  The key after the move is
 * computed without making it (base: the other side moves, an en passant
 * chance lapses; castling rights drop if the king or a castling rook
 * moves); the filter answers most, legality is tested last. */
static bool repeats_after(const rules_t *r, uint64_t base, int from, int to, uint8_t pc)
{
    const board_t *b = r->pos;
    uint8_t castle = b->castle;
    if (castle) {
        for (int k = 0; k < 4; k++)
            if ((castle & (1 << k)) && (b->castle_rook[k] == from || (PIECE_TYPE(pc) == KING && k / 2 == b->stm)))
                castle &= (uint8_t)~(1 << k);
    }
    uint64_t key = base ^ zobrist_piece[pc][from] ^ zobrist_piece[pc][to] ^ zobrist_castle[b->castle] ^
                   zobrist_castle[castle];
    if (!(r->twice[!b->stm] & (1ULL << (key >> 58))))
        return false;
    move_t m = { (uint8_t)from, (uint8_t)to, EMPTY, 0 };
    return sightings(r, key, r->stamps[rules_stamp_slot(key)]) >= 2 && movegen_is_legal_known(b, m, b->in_check);
}

/* FIDE 9.2.1(a): the player to move declares a move after which the
 * position will have occurred a third time.  Only quiet piece moves can
 * lead back into the window: captures, pawn moves and castling change
 * material, pawns or rights.  So only the king's and the other men's
 * steps to empty squares are tried. */
static bool threefold_by_declared_move(const rules_t *r)
{
    static const int knight_steps[8] = { 33, 31, 18, 14, -14, -18, -31, -33 };
    static const int king_steps[8] = { 17, 16, 15, 1, -15, -1, -17, -16 };
    const board_t *b = r->pos;
    const uint8_t *sq = b->sq;
    int us = b->stm;
    uint64_t base = b->key ^ zobrist_black ^ (b->ep_legal ? zobrist_ep[SQ_FILE(b->ep)] : 0);
    int k = b->king[us];
    for (int i = 0; i < 8; i++) {
        int t = k + king_steps[i];
        if (!SQ_OFFBOARD(t) && sq[t] == EMPTY && repeats_after(r, base, k, t, PIECE(us, KING)))
            return true;
    }
    const uint64_t *men = b->men + MEN_INDEX(PIECE(us, KNIGHT));
    for (uint64_t x = men[0] | men[1] | men[2] | men[3]; x; x &= x - 1) {
        int f = SQ88(board_lsb(x));
        uint8_t pc = sq[f];
        int type = PIECE_TYPE(pc);
        if (type == KNIGHT) {
            for (int i = 0; i < 8; i++) {
                int t = f + knight_steps[i];
                if (!SQ_OFFBOARD(t) && sq[t] == EMPTY && repeats_after(r, base, f, t, pc))
                    return true;
            }
            continue;
        }
        /* king_steps lists diagonals at even indices, ranks and files at odd. */
        for (int i = type == ROOK ? 1 : 0; i < 8; i += type == QUEEN ? 1 : 2) {
            for (int t = f + king_steps[i]; !SQ_OFFBOARD(t) && sq[t] == EMPTY; t += king_steps[i])
                if (repeats_after(r, base, f, t, pc))
                    return true;
        }
    }
    return false;
}

bool rules_fifty_declarable(const board_t *b, const uint64_t *prefer, move_t *out)
{
    move_t moves[MAX_MOVES];
    int n = movegen_legal(b, moves), found = -1;
    for (int i = 0; i < n; i++) {
        move_t m = moves[i];
        if ((m.flags & MOVE_CAPTURE) || PIECE_TYPE(b->sq[m.from]) == PAWN)
            continue;
        board_t next;
        board_make_move(b, m, &next);
        if (!movegen_has_legal(&next))
            continue;
        if (found < 0 || (prefer && next.key == *prefer))
            found = i;
        if (!prefer)
            break;
    }
    if (found >= 0 && out)
        *out = moves[found];
    return found >= 0;
}

static void note(rules_t *r, enum rules_fact f, bool has_move)
{
    if (r->first[f] >= 0)
        return;
    r->first[f] = (int32_t)r->ply;
    char *out = r->first_move[f];
    if (r->ply == 0) {
        out[0] = '\0';
        return;
    }
    char san[16];
    board_t before = *r->pos;
    board_unplay(&before, r->last, &r->undo);
    /* r->pos is the position after the move: its check and has_move give the suffix. */
    size_t len = san_format_known(&before, r->last, board_in_check(r->pos), has_move, san);
    /* "%u.%s" or "%u...%s" without snprintf(), which costs more than the
     * rest of the note: at most 5 + 3 + 7 bytes, within RULES_MOVE_TEXT. */
    char digits[8];
    int k = 0;
    unsigned n = before.fullmove;
    do {
        digits[k++] = (char)('0' + n % 10);
        n /= 10;
    } while (n);
    while (k)
        *out++ = digits[--k];
    int dots = before.stm == WHITE ? 1 : 3;
    memcpy(out, "...", (size_t)dots);
    memcpy(out + dots, san, len + 1);
}

/* May the position be dead beyond material, so that the analysis is worth a
 * call?  Every pawn stands blocked by an enemy pawn: the locked chains of
 * 5.2.2.  (Other dead positions are found where the game ends.) */
static bool dead_candidate(const board_t *b)
{
    uint64_t white = b->men[MEN_INDEX(PIECE(WHITE, PAWN))], black = b->men[MEN_INDEX(PIECE(BLACK, PAWN))];
    /* As many pawns each, and a black one on the square ahead of each white one. */
    return white && b->count[PIECE(WHITE, PAWN)] == b->count[PIECE(BLACK, PAWN)] && !((white << 8) & ~black);
}

/* Can a change of material or pawns at b bring a verdict of its own?  While
 * each side keeps a pawn, rook or queen, neither has insufficient material
 * (rules_side_insufficient(), dead_quick() say so at once), so only the
 * locked-pawn analysis is left to ask. */
static bool material_matters(const rules_t *r, const board_t *b, int landed)
{
    const uint8_t *c = b->count;
    if (r->thin)
        return true;
    /* Locked chains need as many pawns on each side (dead_candidate()). */
    if (!r->dead || !c[PIECE(WHITE, PAWN)] || c[PIECE(WHITE, PAWN)] != c[PIECE(BLACK, PAWN)])
        return false;
    /* A pawn that just moved and stands free breaks the lock at once: with
     * as many pawns on each side, every pawn faces an enemy pawn. */
    uint8_t pc = b->sq[landed];
    if (PIECE_TYPE(pc) == PAWN) {
        int ahead = landed + (PIECE_COLOR(pc) == WHITE ? 16 : -16);
        if (SQ_OFFBOARD(ahead) || b->sq[ahead] != PIECE(!PIECE_COLOR(pc), PAWN))
            return false;
    }
    return dead_candidate(b);
}

/* Per-side verdicts for r->pos after material or pawns changed: material
 * first, then the analysis's cheap proofs where the position may be dead. */
static void judge_winnability(rules_t *r, bool material)
{
    const board_t *b = r->pos;
    bool candidate = r->dead && dead_candidate(b);
    for (int c = WHITE; c <= BLACK; c++) {
        /* What no series of moves can reach stays out of reach: a proof holds for the rest of the game. */
        if (r->cannot_win[c])
            continue;
        enum dead_answer a = DEAD_UNDETERMINED;
        if (material)
            a = rules_side_insufficient(b, c) ? DEAD_UNWINNABLE : dead_quick(b, c);
        if (a != DEAD_UNWINNABLE && candidate)
            a = dead_probe(r->dead, b, c);
        r->cannot_win[c] = a == DEAD_UNWINNABLE;
    }
}

/* Records the facts of r->pos, knowing whether the side to move has a move. */
static void settle(rules_t *r, bool has_move)
{
    const board_t *b = &r->board;
    uint32_t seen = r->seen;
    r->seen = 1; /* until a scan finds the next position again */
    /* Most plies: a move exists, material and the clock are unremarkable,
     * and nothing in the window has occurred twice. */
    if (has_move && !r->material_changed && !r->pawns_changed && b->halfmove < 99 &&
        seen < 3 && !r->twice[!b->stm])
        return; /* material facts change only with material or pawns, and were noted then */
    if (!has_move)
        note(r, board_in_check(b) ? FACT_CHECKMATE : FACT_STALEMATE, has_move);
    if (r->material_changed) {
        r->insufficient = rules_insufficient(b);
    }
    if (r->material_changed || r->pawns_changed) {
        judge_winnability(r, r->material_changed);
        r->material_changed = r->pawns_changed = false;
    }
    /* The side that has mated has won.  The proofs hold for positions a
     * game can reach; a start such as a double check by two bishops of one
     * colour is none, and --fen calls that side winnable there too. */
    if (!has_move && board_in_check(b))
        r->cannot_win[!b->stm] = false;
    if (r->insufficient)
        note(r, FACT_INSUFFICIENT, has_move);
    if (r->cannot_win[WHITE])
        note(r, FACT_WHITE_CANNOT_WIN, has_move);
    if (r->cannot_win[BLACK])
        note(r, FACT_BLACK_CANNOT_WIN, has_move);
    if (r->insufficient || (r->cannot_win[WHITE] && r->cannot_win[BLACK]))
        note(r, FACT_DEAD, has_move);
    if (seen >= 5)
        note(r, FACT_FIVEFOLD, has_move);
    if (has_move && b->halfmove >= 150)
        note(r, FACT_SEVENTYFIVE, has_move);
    if (r->first[FACT_THREEFOLD] < 0) {
        if (seen >= 3 || (has_move && r->twice[!b->stm] && threefold_by_declared_move(r)))
            note(r, FACT_THREEFOLD, has_move);
    }
    if (r->first[FACT_FIFTY] < 0 && has_move) {
        if (b->halfmove >= 100 || (b->halfmove == 99 && rules_fifty_declarable(b, NULL, NULL)))
            note(r, FACT_FIFTY, has_move);
    }
}

/* rules_play() after a capture or pawn move: material and pawns may bring
 * verdicts. */
ARB_NOINLINE static int track_material(rules_t *r)
{
    board_t *b = &r->board;
    move_t m = r->last;
    bool remarkable = false;
    r->material_changed = (m.flags & MOVE_CAPTURE) || m.promo;
    r->pawns_changed = true;
    if (r->material_changed)
        r->thin = material_thin(b);
    if (material_matters(r, b, m.to)) {
        remarkable = true;
    } else {
        /* Nothing to judge: settle() would find what it found before (a
         * proof once made is kept, and was noted when made). */
        r->insufficient = false;
        r->material_changed = r->pawns_changed = false;
    }
    r->remarkable = remarkable;
    return 0;
}

/* rules_play() after a capture or pawn move: the window starts afresh
 * with this position alone.  A pawn push keeps the material: unless a
 * side was thin already or the pawn now stands blocked by an enemy pawn
 * (a lock may form), there is nothing to judge (see material_matters()). */
int rules_after_zeroing(rules_t *r, uint32_t stamp)
{
    const board_t *b = &r->board;
    move_t m = r->last;
    int stm = b->stm;
    window_start(r, stamp);
    if ((m.flags & MOVE_CAPTURE) || m.promo || r->thin ||
        (r->dead && b->sq[m.to + (stm == BLACK ? 16 : -16)] == PIECE(stm, PAWN)))
        return track_material(r);
    r->insufficient = false;
    r->material_changed = r->pawns_changed = false;
    r->remarkable = false;
    return 0;
}

/* Doubles the room for keys and chain, before the ply that would not fit. */
int rules_keys_grow(rules_t *r)
{
    uint32_t cap = r->cap * 2;
    uint64_t *k = realloc(r->keys, cap * sizeof *k);
    if (!k)
        return -1;
    r->keys = k;
    uint32_t *c = realloc(r->chain, cap * sizeof *c);
    if (!c)
        return -1;
    r->chain = c;
    r->cap = cap;
    return 0;
}

/* rules_play() when the filter says that the position just reached may
 * have occurred before in the window: counts its occurrences, following
 * the sightings of its slot from `before`, the one before this ply's.
 * Once fivefold is known, threefold is too and nothing needs counting:
 * the window then starts afresh instead. */
int rules_after_sighting(rules_t *r, uint64_t key, int stm, uint32_t stamp, uint32_t before)
{
    if (r->first[FACT_FIVEFOLD] >= 0) {
        window_start(r, stamp);
        return 0;
    }
    uint32_t seen = 1 + sightings(r, key, before);
    r->seen = seen;
    if (seen >= 2) {
        r->twice[stm] |= 1ULL << (key >> 58);
        r->remarkable = true; /* settle() looks again which side the repetition concerns */
    }
    return 0;
}

/* Settles the position before the move about to be played; the next ply
 * stays remarkable while a position of the window occurred twice. */
void rules_settle_before(rules_t *r)
{
    if (!r->legality_only)
        settle(r, true);
    r->remarkable = (r->twice[WHITE] | r->twice[BLACK]) != 0;
}

void rules_finish(rules_t *r)
{
    if (r->pending && !r->legality_only)
        settle(r, movegen_has_legal(&r->board));
    r->pending = false;
}

void rules_final(const rules_t *r, rules_final_t *out)
{
    const board_t *b = r->pos;
    bool has_move = r->first[FACT_CHECKMATE] != (int32_t)r->ply && r->first[FACT_STALEMATE] != (int32_t)r->ply;
    bool mate = r->first[FACT_CHECKMATE] == (int32_t)r->ply;
    out->occurrences = sightings(r, b->key, r->base + r->ply);
    out->fivefold = r->first[FACT_FIVEFOLD] >= 0;
    out->declared_threefold =
        out->occurrences < 3 && has_move && r->twice[!b->stm] && threefold_by_declared_move(r);
    out->threefold = out->occurrences >= 3 || out->declared_threefold;
    out->halfmove = b->halfmove;
    out->fifty = !mate && (b->halfmove >= 100 || (b->halfmove == 99 && has_move && rules_fifty_declarable(b, NULL, NULL)));
}
