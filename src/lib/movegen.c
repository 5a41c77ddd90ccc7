/* movegen.c: attack tests and legal move generation on the 0x88 board.
 *
 * Moves are generated pseudo-legally and then filtered: a move is legal if
 * the mover's king is not attacked once it is made on a scratch copy of the
 * squares.  Simple and obviously right; the replay path needs it only where
 * a game ends or a claim is possible (SAN decoding tests single moves). */
#include "movegen.h"

static const int knight_steps[8] = { 33, 31, 18, 14, -14, -18, -31, -33 };
static const int king_steps[8] = { 17, 16, 15, 1, -1, -15, -16, -17 };

#define FILE_A_BITS 0x0101010101010101ULL
#define FILE_H_BITS 0x8080808080808080ULL

/* The squares next to the one of `bit` (bits SQ64). */
static inline uint64_t neighbours(uint64_t bit)
{
    uint64_t side = ((bit << 1) & ~FILE_A_BITS) | ((bit >> 1) & ~FILE_H_BITS), row = bit | side;
    return side | row << 8 | row >> 8;
}

/* Is sq attacked by colour `by` when the squares occ are taken?  occ may
 * differ from b->occ by the side to move's men (a move tried, a king
 * lifted off a line it blocks); the men of `by` are found in b->men, but
 * for those on the squares `gone` (taken by the move tried). */
static bool attacked(const board_t *b, int sq, int by, uint64_t occ, uint64_t gone)
{
    /* Pawns: a white pawn attacks the squares 7 and 9 above it (as SQ64),
     * each but off its own edge file. */
    uint64_t bit = board_sq_bit[sq];
    uint64_t pawn_origins = by == WHITE ? ((bit >> 9) & ~FILE_H_BITS) | ((bit >> 7) & ~FILE_A_BITS)
                                        : ((bit << 7) & ~FILE_H_BITS) | ((bit << 9) & ~FILE_A_BITS);
    if (b->men[MEN_PAWNS(by)] & ~gone & pawn_origins)
        return true;
    if (board_ray_kinds[BOARD_DELTA(b->king[by], sq)] & (1 << KING))
        return true;
    const uint64_t *men = b->men + MEN_PIECES(by);
    if (men[0] & ~gone & board_reach_bits[0][sq])
        return true;
    /* Sliders on a line of their kind through sq: the line must be empty. */
    uint64_t sliders = ((men[BISHOP - KNIGHT] & board_reach_bits[BISHOP - KNIGHT][sq]) |
                        (men[ROOK - KNIGHT] & board_reach_bits[ROOK - KNIGHT][sq]) |
                        (men[QUEEN - KNIGHT] & board_reach_bits[QUEEN - KNIGHT][sq])) & ~gone;
    for (; sliders; sliders &= sliders - 1)
        if (!(board_between(sq, SQ88(board_lsb(sliders))) & occ))
            return true;
    return false;
}

bool movegen_attacked(const board_t *b, int sq, int by)
{
    return attacked(b, sq, by, b->occ, 0);
}

/* Castling squares: king and rook destinations for a right. */
static void castle_targets(int kfrom, int rfrom, int *kto, int *rto)
{
    int rank = SQ_RANK(kfrom);
    bool queenside = SQ_FILE(rfrom) < SQ_FILE(kfrom);
    *kto = SQ(queenside ? 2 : 6, rank);
    *rto = SQ(queenside ? 3 : 5, rank);
}

/* Castling legality (also Chess960): every square the king and rook pass
 * over or land on is empty but for themselves, the king is not in check and
 * crosses no attacked square.  Attacks are taken with king and rook lifted,
 * so a rook shielding its own king's path does not count as a shield. */
static bool castle_legal(const board_t *b, int kfrom, int rfrom)
{
    int kto, rto;
    castle_targets(kfrom, rfrom, &kto, &rto);
    int them = !b->stm;
    if (!b->chess960) {
        /* King on e, rook in the corner: lifting them opens no line onto
         * the king's path that would not already give check, so the board
         * itself serves. */
        if (b->in_check || (board_between(kfrom, rfrom) & b->occ))
            return false;
        /* The king crosses one square and lands on the next. */
        int step = rfrom > kfrom ? 1 : -1;
        return !attacked(b, kfrom + step, them, b->occ, 0) && !attacked(b, kto, them, b->occ, 0);
    }
    /* Each path, both ends included (board_between() of a square and
     * itself is that square), empty but for the king and the rook. */
    uint64_t occ = b->occ & ~(board_sq_bit[kfrom] | board_sq_bit[rfrom]);
    uint64_t kpath = board_between(kfrom, kto) | board_sq_bit[kfrom] | board_sq_bit[kto];
    uint64_t rpath = board_between(rfrom, rto) | board_sq_bit[rfrom] | board_sq_bit[rto];
    if (occ & (kpath | rpath))
        return false;
    for (; kpath; kpath &= kpath - 1)
        if (attacked(b, SQ88(board_lsb(kpath)), them, occ, 0))
            return false;
    return true;
}

bool movegen_king_step_legal(const board_t *b, int from, int to)
{
    /* No copy needed: the king only has to leave its own square empty for
     * the lines through it; what it captures attacks nothing. */
    return !attacked(b, to, !b->stm, b->occ & ~board_sq_bit[from], board_sq_bit[to]);
}

bool movegen_is_legal(const board_t *b, move_t m)
{
    if (m.flags & MOVE_CASTLE)
        return castle_legal(b, m.from, m.to);
    int us = b->stm;
    uint8_t piece = b->sq[m.from];
    if (PIECE_TYPE(piece) == KING)
        return movegen_king_step_legal(b, m.from, m.to);
    /* The squares taken after the move, and the men of the other side it
     * takes (an en passant victim off its square). */
    uint64_t occ = (b->occ & ~board_sq_bit[m.from]) | board_sq_bit[m.to];
    uint64_t gone = (m.flags & MOVE_CAPTURE) ? board_sq_bit[m.to] : 0;
    if (m.flags & MOVE_EP) {
        uint64_t victim = board_sq_bit[SQ(SQ_FILE(m.to), SQ_RANK(m.from))];
        gone |= victim;
        occ &= ~victim;
    }
    return !attacked(b, b->king[us], !us, occ, gone);
}

bool movegen_is_legal_known_full(const board_t *b, move_t m, bool in_check)
{
    if ((m.flags & (MOVE_EP | MOVE_CASTLE)) || PIECE_TYPE(b->sq[m.from]) == KING)
        return movegen_is_legal(b, m);
    return movegen_man_legal(b, m, in_check);
}

static int add(move_t *out, int n, int from, int to, int promo, int flags)
{
    out[n].from = (uint8_t)from;
    out[n].to = (uint8_t)to;
    out[n].promo = (uint8_t)promo;
    out[n].flags = (uint8_t)flags;
    return n + 1;
}

static int add_pawn(move_t *out, int n, int from, int to, int flags, int last_rank)
{
    if (SQ_RANK(to) == last_rank) {
        for (int p = QUEEN; p >= KNIGHT; p--)
            n = add(out, n, from, to, p, flags);
        return n;
    }
    return add(out, n, from, to, EMPTY, flags);
}

/* Pseudo-legal moves of the piece of the side to move on `from`. */
static int piece_moves(const board_t *b, int from, move_t *out)
{
    const uint8_t *s = b->sq;
    int us = b->stm, n = 0;
    int up = us == WHITE ? 16 : -16;
    int start_rank = us == WHITE ? 1 : 6, last_rank = us == WHITE ? 7 : 0;
    uint8_t pc = s[from];
    switch (PIECE_TYPE(pc)) {
    case PAWN: {
        int to = from + up;
        if (!SQ_OFFBOARD(to) && s[to] == EMPTY) {
            n = add_pawn(out, n, from, to, 0, last_rank);
            if (SQ_RANK(from) == start_rank && s[to + up] == EMPTY)
                n = add(out, n, from, to + up, EMPTY, MOVE_DOUBLE);
        }
        for (int side = -1; side <= 1; side += 2) {
            to = from + up + side;
            if (SQ_OFFBOARD(to))
                continue;
            if (s[to] != EMPTY && PIECE_COLOR(s[to]) != us)
                n = add_pawn(out, n, from, to, MOVE_CAPTURE, last_rank);
            else if (to == b->ep && s[to] == EMPTY)
                n = add(out, n, from, to, EMPTY, MOVE_CAPTURE | MOVE_EP);
        }
        break;
    }
    case KNIGHT:
    case KING: {
        const int *steps = PIECE_TYPE(pc) == KNIGHT ? knight_steps : king_steps;
        for (int i = 0; i < 8; i++) {
            int to = from + steps[i];
            if (SQ_OFFBOARD(to))
                continue;
            if (s[to] == EMPTY)
                n = add(out, n, from, to, EMPTY, 0);
            else if (PIECE_COLOR(s[to]) != us)
                n = add(out, n, from, to, EMPTY, MOVE_CAPTURE);
        }
        break;
    }
    default: {
        int t = PIECE_TYPE(pc);
        for (int i = 0; i < 8; i++) {
            int d = king_steps[i];
            bool diagonal = (d == 17 || d == 15 || d == -15 || d == -17);
            if ((t == BISHOP && !diagonal) || (t == ROOK && diagonal))
                continue;
            for (int to = from + d; !SQ_OFFBOARD(to); to += d) {
                if (s[to] == EMPTY) {
                    n = add(out, n, from, to, EMPTY, 0);
                    continue;
                }
                if (PIECE_COLOR(s[to]) != us)
                    n = add(out, n, from, to, EMPTY, MOVE_CAPTURE);
                break;
            }
        }
        break;
    }
    }
    return n;
}

/* Castling moves of the side to move (legal or not). */
static int castle_moves(const board_t *b, move_t *out)
{
    int us = b->stm, n = 0;
    for (int q = 0; q < 2; q++) {
        int idx = CASTLE_INDEX(us, q);
        if (b->castle & (1 << idx))
            n = add(out, n, b->king[us], b->castle_rook[idx], EMPTY, MOVE_CASTLE);
    }
    return n;
}

/* All pseudo-legal moves of the side to move. */
static int pseudo_moves(const board_t *b, move_t *out)
{
    int us = b->stm, n = 0;
    for (int from = 0; from < 128; from++) {
        if (SQ_OFFBOARD(from)) {
            from += 7;
            continue;
        }
        uint8_t pc = b->sq[from];
        if (pc != EMPTY && PIECE_COLOR(pc) == us)
            n += piece_moves(b, from, out + n);
    }
    return n + castle_moves(b, out + n);
}

int movegen_pseudo(const board_t *b, move_t out[MAX_MOVES])
{
    return pseudo_moves(b, out);
}

int movegen_legal(const board_t *b, move_t out[MAX_MOVES])
{
    move_t pseudo[MAX_MOVES];
    int np = pseudo_moves(b, pseudo), n = 0;
    for (int i = 0; i < np; i++) {
        if (movegen_is_legal_known(b, pseudo[i], b->in_check))
            out[n++] = pseudo[i];
    }
    return n;
}

/* movegen_has_legal() in check: a king step, or a man that takes the one
 * checker or steps between it and the king (a legal en passant capture is
 * known already: b->ep_legal). */
static bool has_legal_in_check(const board_t *b)
{
    int us = b->stm, them = !us, k = b->king[us];
    for (int i = 0; i < 8; i++) {
        int t = k + king_steps[i];
        if (SQ_OFFBOARD(t) || (b->sq[t] != EMPTY && PIECE_COLOR(b->sq[t]) == us))
            continue;
        if (!attacked(b, t, them, b->occ & ~board_sq_bit[k], board_sq_bit[t]))
            return true;
    }
    int c = b->checker;
    if (c == SQ_NONE)
        return false; /* double check */
    if (b->ep_legal)
        return true;
    int dc = board_line_step(k, c), up = us == WHITE ? 16 : -16;
    uint8_t pawn = PIECE(us, PAWN);
    const uint64_t *men = b->men + MEN_PIECES(us);
    uint64_t ours = men[0] | men[1] | men[2] | men[3];
    for (int t = dc ? k + dc : c;; t += dc) {
        bool capture = t == c;
        if (capture) {
            for (int side = -1; side <= 1; side += 2) {
                int f = t - up + side;
                if (!SQ_OFFBOARD(f) && b->sq[f] == pawn &&
                    movegen_is_legal_known(b, (move_t){ (uint8_t)f, (uint8_t)t, EMPTY, MOVE_CAPTURE }, true))
                    return true;
            }
        } else {
            int f = t - up;
            if (!SQ_OFFBOARD(f) && b->sq[f] == pawn) {
                if (movegen_is_legal_known(b, (move_t){ (uint8_t)f, (uint8_t)t, EMPTY, 0 }, true))
                    return true;
            } else if (!SQ_OFFBOARD(f) && b->sq[f] == EMPTY && SQ_RANK(t) == (us == WHITE ? 3 : 4) &&
                       b->sq[f - up] == pawn &&
                       movegen_is_legal_known(b, (move_t){ (uint8_t)(f - up), (uint8_t)t, EMPTY, MOVE_DOUBLE }, true)) {
                return true;
            }
        }
        for (uint64_t x = ours; x; x &= x - 1) {
            int p = SQ88(board_lsb(x)), type = PIECE_TYPE(b->sq[p]);
            if (!(board_ray_kinds[BOARD_DELTA(p, t)] & (1 << type)))
                continue;
            if (type != KNIGHT) {
                int step = board_ray_step[BOARD_DELTA(p, t)], q = p + step;
                while (q != t && b->sq[q] == EMPTY)
                    q += step;
                if (q != t)
                    continue;
            }
            if (movegen_is_legal_known(b, (move_t){ (uint8_t)p, (uint8_t)t, EMPTY, capture ? MOVE_CAPTURE : 0 }, true))
                return true;
        }
        if (capture)
            return false;
    }
}

bool movegen_has_legal(const board_t *b)
{
    if (b->in_check)
        return has_legal_in_check(b);
    /* Piece by piece, so that the first legal move ends the search: the
     * knights, bishops, rooks and queens first, found from their square
     * sets (one of them nearly always has a move), then the pawns and the
     * king. */
    move_t moves[32];
    int us = b->stm, k = b->king[us];
    const uint64_t *men = b->men + MEN_PIECES(us);
    uint64_t pieces = men[0] | men[1] | men[2] | men[3];
    uint64_t rest = b->men[MEN_PAWNS(us)] | board_sq_bit[k], ours = pieces | rest;
    for (uint64_t x = pieces; x; x &= x - 1) {
        int from = SQ88(board_lsb(x));
        /* Out of check, each move of a man that is not pinned is legal,
         * and it has one if a square next to it on its lines (for a
         * knight, a square it jumps to) is empty or an enemy's. */
        if (movegen_pin_dir(b, from) == BOARD_DIR_NONE) {
            int type = PIECE_TYPE(b->sq[from]);
            uint64_t to = board_reach_bits[type - KNIGHT][from];
            if (type != KNIGHT)
                to &= neighbours(board_sq_bit[from]);
            if (to & ~ours)
                return true;
            continue;
        }
        int n = piece_moves(b, from, moves);
        for (int i = 0; i < n; i++)
            if (movegen_is_legal_known(b, moves[i], false))
                return true;
    }
    for (; rest; rest &= rest - 1) {
        int n = piece_moves(b, SQ88(board_lsb(rest)), moves);
        for (int i = 0; i < n; i++)
            if (movegen_is_legal_known(b, moves[i], false))
                return true;
    }
    int n = castle_moves(b, moves);
    for (int i = 0; i < n; i++)
        if (movegen_is_legal(b, moves[i]))
            return true;
    return false;
}

bool movegen_ep_capture_legal(const board_t *b)
{
    if (b->ep == SQ_NONE)
        return false;
    int us = b->stm;
    int behind = us == WHITE ? -16 : 16;
    for (int side = -1; side <= 1; side += 2) {
        int from = b->ep + behind + side;
        if (SQ_OFFBOARD(from) || b->sq[from] != PIECE(us, PAWN))
            continue;
        move_t m = { (uint8_t)from, b->ep, EMPTY, MOVE_CAPTURE | MOVE_EP };
        if (movegen_is_legal(b, m))
            return true;
    }
    return false;
}

uint64_t movegen_perft(const board_t *b, int depth)
{
    move_t moves[MAX_MOVES];
    int n = movegen_legal(b, moves);
    if (depth <= 1)
        return depth == 1 ? (uint64_t)n : 1;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        board_t next;
        board_make_move(b, moves[i], &next);
        total += movegen_perft(&next, depth - 1);
    }
    return total;
}
