/* reason_check.c: what the board says of a recorded reason (FIDE Laws
 * 2023; the sites' own rules where they differ). */
#include "reason_check.h"

#include <stdio.h>
#include <string.h>

#include "board.h"

static const char *const side_name[2] = { "White", "Black" };

/* Does the result the text implies differ from the recorded one, code c
 * (result_code(): 1, 2 or 3)? */
static bool implies_other(enum reason_implies im, int c)
{
    bool white = c == 1, black = c == 2, draw = c == 3;
    switch (im) {
    case IMPLIES_WHITE: return !white;
    case IMPLIES_BLACK: return !black;
    case IMPLIES_DRAW: return !draw;
    case IMPLIES_DECISIVE: return draw;
    default: return false;
    }
}

bool reason_disagree(const reason_parsed_t *a, const reason_parsed_t *b)
{
    if (a->rank >= 1 && b->rank >= 1 && a->claim != b->claim)
        return true;
    enum reason_implies x = a->implies, y = b->implies;
    if (x == IMPLIES_NOTHING || y == IMPLIES_NOTHING || x == y)
        return false;
    if (x == IMPLIES_DECISIVE || y == IMPLIES_DECISIVE)
        return x == IMPLIES_DRAW || y == IMPLIES_DRAW;
    return true;
}

/* Men on the board, kings included. */
static int men(const board_t *b)
{
    int n = 0;
    for (uint64_t x = b->occ; x; x &= x - 1)
        n++;
    return n;
}

/* chess.com's own-material test for a timeout: the side has a king, and
 * at most one bishop or one knight besides (support.chess.com 8557986). */
static bool chesscom_lone_minor(const board_t *b, int c)
{
    const uint8_t *k = b->count;
    return !k[PIECE(c, PAWN)] && !k[PIECE(c, ROOK)] && !k[PIECE(c, QUEEN)] &&
           k[PIECE(c, KNIGHT)] + k[PIECE(c, BISHOP)] <= 1;
}

/* Has colour c a queen, a rook or a pawn: what every site counts as
 * mating material for a flag fall? */
static bool heavy_material(const board_t *b, int c)
{
    const uint8_t *k = b->count;
    return k[PIECE(c, PAWN)] || k[PIECE(c, ROOK)] || k[PIECE(c, QUEEN)];
}

/* chess.com's automatic insufficient-material draw (support.chess.com
 * 8705277): no pawns, each side K, K+B or K+N; or K+N+N against a bare king. */
static bool chesscom_insufficient(const board_t *b)
{
    const uint8_t *k = b->count;
    if (chesscom_lone_minor(b, WHITE) && chesscom_lone_minor(b, BLACK))
        return true;
    for (int c = WHITE; c <= BLACK; c++) {
        int o = !c;
        if (!k[PIECE(c, PAWN)] && !k[PIECE(c, ROOK)] && !k[PIECE(c, QUEEN)] && !k[PIECE(c, BISHOP)] &&
            k[PIECE(c, KNIGHT)] == 2 && men(b) == 4 && k[PIECE(o, KING)] == 1)
            return true;
    }
    return false;
}

/* Can colour c mate in the last position by some series of legal moves?
 * DEAD_UNWINNABLE when proved not (the replay's proofs, or the analysis
 * when full), DEAD_WINNABLE when the analysis found a helpmate,
 * DEAD_UNDETERMINED otherwise. */
static enum dead_answer can_mate(const reason_board_t *b, int c, bool full)
{
    if (b->cannot_mate[c])
        return DEAD_UNWINNABLE;
    if (!b->dead)
        return DEAD_UNDETERMINED;
    enum dead_answer a = dead_probe(b->dead, b->rules->pos, c);
    if (a != DEAD_UNDETERMINED || !full)
        return a;
    return dead_can_win(b->dead, b->rules->pos, c, NULL, 0, NULL);
}

/* Did the game end by a rule of its own (FIDE 5.1, 5.2, 9.6) before the
 * event the text records, or at the ply it records it? */
static bool ended_by_rule(const arb_game *g)
{
    if (!g->has_end)
        return false;
    switch (g->end_reason) {
    case ARB_CHECKMATE: case ARB_STALEMATE: case ARB_DEAD: case ARB_FIVEFOLD: case ARB_SEVENTYFIVE:
        return true;
    default:
        return false;
    }
}

static const char *end_words(arb_fact f)
{
    switch (f) {
    case ARB_CHECKMATE: return "checkmate";
    case ARB_STALEMATE: return "stalemate";
    case ARB_DEAD: return "a dead position";
    case ARB_FIVEFOLD: return "fivefold repetition";
    case ARB_SEVENTYFIVE: return "the seventy-five-move rule";
    default: return "rule";
    }
}

static void superseded(const arb_game *g, arb_reason *out, char *msg, size_t cap)
{
    out->check = ARB_CHECK_SUPERSEDED;
    snprintf(msg, cap, "the game had already ended by %s at %s", end_words(g->end_reason),
             g->end_move && g->end_move[0] ? g->end_move : "the start");
}

/* A claim of an automatic draw (9.6): the fact f (fivefold, seventy-five
 * moves) held at some ply of the game, as the replay noted it. */
static void automatic_draw(const arb_game *g, arb_fact f, const rules_t *r, arb_reason *out, char *msg, size_t cap)
{
    if (g->first[f] >= 0) {
        out->check = ARB_CHECK_CONFIRMED;
        snprintf(msg, cap, "%s at %s", end_words(f), g->first_move[f][0] ? g->first_move[f] : "the start");
    } else if (ended_by_rule(g)) {
        superseded(g, out, msg, cap);
    } else {
        rules_final_t fin;
        rules_final(r, &fin);
        out->check = ARB_CHECK_CONTRADICTED;
        if (f == ARB_FIVEFOLD)
            snprintf(msg, cap, "no position occurred five times; the final one occurred %u %s",
                     (unsigned)fin.occurrences, fin.occurrences == 1 ? "time" : "times");
        else
            snprintf(msg, cap, "the halfmove clock never reached 150; it is %u", fin.halfmove);
    }
}

/* chess.com's "Game drawn by insufficient material" of 2015 and before
 * also for a flag fall: the side to move flagged, and its opponent, with
 * time left, cannot mate (Article 6.9; a = can_mate() of that side, full)
 * or has only what chess.com's own-material rule counts as insufficient.
 * True when that reading holds, with *out checked as the later wording
 * "timeout vs insufficient material" is. */
static bool chesscom_flag_fall(const reason_board_t *b, enum dead_answer a, arb_reason *out, char *msg, size_t cap)
{
    int other = !b->rules->pos->stm;
    if (a == DEAD_UNWINNABLE) {
        out->check = ARB_CHECK_CONFIRMED;
        snprintf(msg, cap, "%s cannot checkmate: a flag fall by %s, drawn (Article 6.9)", side_name[other],
                 side_name[!other]);
        return true;
    }
    if (chesscom_lone_minor(b->rules->pos, other)) {
        out->check = ARB_CHECK_SITE_RULE;
        snprintf(msg, cap, "a flag fall by %s against at most a king and a minor piece, which chess.com scores "
                           "as a draw; Article 6.9 would give %s",
                 side_name[!other], other == WHITE ? "1-0" : "0-1");
        return true;
    }
    return false;
}

void reason_check_full(const arb_game *g, const reason_parsed_t *p, const reason_board_t *b, arb_reason *out,
                       char *msg, size_t cap)
{
    msg[0] = '\0';
    out->message = msg;
    out->result_conflict = false;
    if (p->claim == ARB_CLAIM_NORMAL && p->implies == IMPLIES_NOTHING && !p->user_len) {
        /* lichess's Normal, most games of an export: it implies no result
         * and names no one, so only the end by rule below can tell. */
        out->check = ARB_CHECK_UNVERIFIABLE;
        if (g->status != ARB_OK || !b->rules)
            snprintf(msg, cap, "the game could not be replayed");
        else if (ended_by_rule(g) && (uint32_t)g->end_ply < g->plies)
            superseded(g, out, msg, cap);
        return;
    }
    const char *rec = p->implies != IMPLIES_NOTHING || p->claim == ARB_CLAIM_CHECKMATE ||
                              p->claim == ARB_CLAIM_TIME || p->claim == ARB_CLAIM_ADJUDICATION
                          ? reason_recorded(g)
                          : NULL;
    int code = reason_result_code(rec);
    if (code >= 1 && code <= 3 && implies_other(p->implies, code)) {
        out->check = ARB_CHECK_CONTRADICTED;
        out->result_conflict = true;
        snprintf(msg, cap, "the result recorded is %s", rec);
        return;
    }
    if (p->user_len && out->winner < 0 && !p->words) {
        out->check = ARB_CHECK_CONTRADICTED;
        snprintf(msg, cap, "\"%.*s\" is neither the White nor the Black player", (int)(p->user_len > 60 ? 60 : p->user_len),
                 out->text + p->user_start);
        return;
    }
    out->check = ARB_CHECK_UNVERIFIABLE;
    if (g->status != ARB_OK || !b->rules) {
        snprintf(msg, cap, "the game could not be replayed");
        return;
    }
    const rules_t *r = b->rules;
    const board_t *pos = r->pos;
    int32_t last = (int32_t)r->ply;
    int stm = pos->stm;
    bool mate = g->first[ARB_CHECKMATE] == last, stalemate = g->first[ARB_STALEMATE] == last;
    int winner = out->winner >= 0 ? out->winner : code == 1 ? 0 : code == 2 ? 1 : -1;
    rules_final_t fin;

    switch (p->claim) {
    case ARB_CLAIM_CHECKMATE:
        if (!mate) {
            out->check = ARB_CHECK_CONTRADICTED;
            snprintf(msg, cap, "the final position is %s", stalemate ? "stalemate, not checkmate" : "not checkmate");
        } else if (winner >= 0 && winner == stm) {
            out->check = ARB_CHECK_CONTRADICTED;
            snprintf(msg, cap, "the final position is checkmate by %s", side_name[!stm]);
        } else {
            static const char *const mates[2] = { "the final position is checkmate by White",
                                                  "the final position is checkmate by Black" };
            out->check = ARB_CHECK_CONFIRMED;
            out->message = mates[!stm];
        }
        return;
    case ARB_CLAIM_STALEMATE:
        out->check = stalemate ? ARB_CHECK_CONFIRMED : ARB_CHECK_CONTRADICTED;
        snprintf(msg, cap, "the final position is %s", stalemate ? "stalemate" : mate ? "checkmate" : "not stalemate");
        return;
    case ARB_CLAIM_THREEFOLD:
        rules_final(r, &fin);
        if (fin.threefold || fin.fivefold) {
            out->check = ARB_CHECK_CONFIRMED;
            if (fin.occurrences >= 3 || fin.fivefold)
                snprintf(msg, cap, "the final position occurred %u times", (unsigned)(fin.occurrences < 3 ? 5 : fin.occurrences));
            else
                snprintf(msg, cap, "the final position occurred %u %s and a move reaches a third occurrence",
                         (unsigned)fin.occurrences, fin.occurrences == 1 ? "time" : "times");
        } else {
            out->check = ARB_CHECK_CONTRADICTED;
            snprintf(msg, cap, "the final position occurred %u %s and no move reaches a third",
                     (unsigned)fin.occurrences, fin.occurrences == 1 ? "time" : "times");
        }
        return;
    case ARB_CLAIM_FIFTY:
        rules_final(r, &fin);
        out->check = fin.fifty ? ARB_CHECK_CONFIRMED : ARB_CHECK_CONTRADICTED;
        if (mate)
            snprintf(msg, cap, "the final position is checkmate");
        else if (fin.fifty && fin.halfmove < 100)
            snprintf(msg, cap, "the halfmove clock is %u and a quiet move reaches 100", fin.halfmove);
        else
            snprintf(msg, cap, "the halfmove clock is %u%s", fin.halfmove, fin.fifty ? "" : " (a claim needs 100)");
        return;
    case ARB_CLAIM_FIVEFOLD:
    case ARB_CLAIM_SEVENTYFIVE:
        automatic_draw(g, p->claim == ARB_CLAIM_FIVEFOLD ? ARB_FIVEFOLD : ARB_SEVENTYFIVE, r, out, msg, cap);
        return;
    case ARB_CLAIM_INSUFFICIENT: {
        enum dead_answer w = can_mate(b, WHITE, false), k = can_mate(b, BLACK, false);
        if (p->site != SITE_LICHESS || (w != DEAD_UNWINNABLE && k != DEAD_UNWINNABLE)) {
            /* The cheap proofs did not settle it: the full analysis. */
            if (w == DEAD_UNDETERMINED)
                w = can_mate(b, WHITE, true);
            if (k == DEAD_UNDETERMINED && (p->site != SITE_LICHESS || w != DEAD_UNWINNABLE))
                k = can_mate(b, BLACK, true);
        }
        if (p->site == SITE_LICHESS) {
            /* A claim that the opponent cannot win: one side unable to mate will do. */
            if (w == DEAD_UNWINNABLE || k == DEAD_UNWINNABLE) {
                out->check = ARB_CHECK_CONFIRMED;
                snprintf(msg, cap, "%s cannot checkmate", side_name[w == DEAD_UNWINNABLE ? WHITE : BLACK]);
            } else if (w == DEAD_WINNABLE && k == DEAD_WINNABLE) {
                out->check = ARB_CHECK_CONTRADICTED;
                snprintf(msg, cap, "both sides can checkmate");
            } else {
                snprintf(msg, cap, "neither side is shown unable to checkmate");
            }
            return;
        }
        if (w == DEAD_UNWINNABLE && k == DEAD_UNWINNABLE) {
            out->check = ARB_CHECK_CONFIRMED;
            snprintf(msg, cap, "the final position is dead: neither side can checkmate");
            return;
        }
        int can = w == DEAD_WINNABLE ? WHITE : k == DEAD_WINNABLE ? BLACK : -1;
        if (p->site == SITE_CHESSCOM && chesscom_insufficient(pos)) {
            out->check = ARB_CHECK_SITE_RULE;
            if (can >= 0)
                snprintf(msg, cap, "%s can checkmate, so the position is not dead", side_name[can]);
            else
                snprintf(msg, cap, "the final position is not shown dead");
        } else if (p->site == SITE_CHESSCOM && chesscom_flag_fall(b, (stm == WHITE ? k : w), out, msg, cap)) {
            /* done: chess.com's wording of 2015 and before for a flag fall */
        } else if (can >= 0 && p->words && !heavy_material(pos, WHITE) && !heavy_material(pos, BLACK)) {
            /* Read by its words, from a site unknown: minor pieces alone are
             * insufficient by some sites' rules, though not dead. */
            snprintf(msg, cap, "%s can checkmate, so the position is not dead (minor pieces only)", side_name[can]);
        } else if (can >= 0) {
            out->check = ARB_CHECK_CONTRADICTED;
            snprintf(msg, cap, "%s can checkmate, so the position is not dead", side_name[can]);
        } else {
            snprintf(msg, cap, "the final position is not shown dead");
        }
        return;
    }
    case ARB_CLAIM_TIME:
        if (ended_by_rule(g)) {
            superseded(g, out, msg, cap);
            return;
        }
        if (winner < 0)
            return;
        if (b->cannot_mate[winner]) {
            /* Article 6.9: the flag fall is a draw (adjudicate() has made it one). */
            out->check = ARB_CHECK_CONTRADICTED;
            snprintf(msg, cap, "%s cannot checkmate: Article 6.9 makes the game a draw", side_name[winner]);
        } else if (p->site == SITE_CHESSCOM && chesscom_lone_minor(pos, winner)) {
            out->check = ARB_CHECK_SITE_RULE;
            snprintf(msg, cap, "%s has at most a king and a minor piece, which chess.com scores as a draw; "
                               "under Article 6.9 the loss stands", side_name[winner]);
        } else {
            /* Most games lost on time end here: a constant, no formatting. */
            static const char *const stands[2] = { "White is not shown unable to checkmate (Article 6.9)",
                                                   "Black is not shown unable to checkmate (Article 6.9)" };
            out->check = ARB_CHECK_CONFIRMED;
            out->message = stands[winner];
        }
        return;
    case ARB_CLAIM_TIME_INSUFFICIENT: {
        if (g->has_end && g->end_reason != ARB_DEAD && ended_by_rule(g)) {
            superseded(g, out, msg, cap);
            return;
        }
        /* The side that flagged is the side to move; its opponent must be unable to mate. */
        int other = !stm;
        /* lichess's tag covers a forced draw after the opponent left as well:
         * only the cheap proofs there, as a failure proves nothing. */
        enum dead_answer a = can_mate(b, other, p->site != SITE_LICHESS);
        if (a == DEAD_UNWINNABLE) {
            out->check = ARB_CHECK_CONFIRMED;
            snprintf(msg, cap, "%s cannot checkmate", side_name[other]);
        } else if (p->site == SITE_CHESSCOM && chesscom_lone_minor(pos, other)) {
            out->check = ARB_CHECK_SITE_RULE;
            snprintf(msg, cap, "%s %s checkmate; Article 6.9 would give %s", side_name[other],
                     a == DEAD_WINNABLE ? "can" : "is not shown unable to", other == WHITE ? "1-0" : "0-1");
        } else if (a == DEAD_WINNABLE && p->site != SITE_LICHESS && (!p->words || heavy_material(pos, other))) {
            /* A text read by its words comes from a site whose own rule may
             * draw against a minor piece: false by every rule only where the
             * side with time has a queen, a rook or a pawn. */
            out->check = ARB_CHECK_CONTRADICTED;
            snprintf(msg, cap, "%s can checkmate; Article 6.9 gives %s", side_name[other],
                     other == WHITE ? "1-0" : "0-1");
        } else {
            snprintf(msg, cap, "%s is not shown unable to checkmate", side_name[other]);
        }
        return;
    }
    case ARB_CLAIM_ADJUDICATION: {
        int n = men(pos);
        if (p->tablebase && n > 7) {
            out->check = ARB_CHECK_CONTRADICTED;
            snprintf(msg, cap, "%d men on the board (tablebases cover 7)", n);
            return;
        }
        if (winner >= 0 && b->cannot_mate[winner]) {
            out->check = ARB_CHECK_CONTRADICTED;
            snprintf(msg, cap, "%s cannot checkmate", side_name[winner]);
            return;
        }
        if (winner >= 0) {
            out->check = ARB_CHECK_CONFIRMED;
            snprintf(msg, cap, "%s is not shown unable to checkmate%s", side_name[winner],
                     p->tablebase ? "; a tablebase position" : "");
        } else if (p->tablebase) {
            out->check = ARB_CHECK_CONFIRMED;
            snprintf(msg, cap, "%d men on the board, a tablebase position", n);
        }
        return;
    }
    case ARB_CLAIM_RESIGNATION:
    case ARB_CLAIM_AGREEMENT:
    case ARB_CLAIM_ABANDONED:
        if (ended_by_rule(g))
            superseded(g, out, msg, cap);
        return;
    case ARB_CLAIM_NORMAL:
        /* lichess's Normal covers the ends by rule; only moves after one tell. */
        if (ended_by_rule(g) && (uint32_t)g->end_ply < g->plies)
            superseded(g, out, msg, cap);
        return;
    default:
        return;
    }
}
