/* explain.c: the account of one game behind --explain.
 *
 * The game is read twice.  arb_reader reads it first: its record (facts,
 * first plies, verdict, adjudication) is the authority for what is said.
 * Then the mainline is replayed here, with the same lexer, SAN reader and
 * rules_t, to keep every position for the diagrams and the repetition
 * lists.  The replay stops at the record's ply count, and its facts are
 * compared with the record's: if the two ever disagree (a mainline only
 * the reader's recovery rules can find), the account keeps the record's
 * words and leaves out what it cannot show. */
#include "explain.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "lex.h"
#include "movegen.h"
#include "rules.h"
#include "san.h"
#include "tagtab.h"

/* One position of the mainline. */
typedef struct ply_pos {
    board_t pos;                 /* the position at this ply */
    char move[RULES_MOVE_TEXT];  /* the move that led here ("34...Kg7"), "" at ply 0 */
    uint32_t window;             /* first ply of its repetition window: the ply the
                                    last irreversible move led to (0 if none), as
                                    python-chess says; no earlier position can recur */
} ply_pos_t;

typedef struct replay {
    const arb_options *opt;
    uint32_t limit;              /* plies the reader replayed: never go further */
    ply_pos_t *ply;              /* ply[0..n): ply[k] is the position at ply k */
    uint32_t n, cap;
    rules_t rules;               /* the same facts, worked out again for the cross-check */
    bool rules_live, oom;
} replay_t;

/* ---- text helpers ------------------------------------------------------ */

static void bprintf(strbuf_t *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        strbuf_append(b, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        b->oom = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    strbuf_append(b, big, (size_t)n);
    free(big);
}

/* Appends text from the input as a terminal may show it, so that a tag
 * value cannot move the cursor or break a line (strbuf_put_text()). */
static void put_clean(strbuf_t *b, const char *s)
{
    strbuf_put_text(b, s, strlen(s));
}

static const char *tag_of(const arb_game *g, const char *name)
{
    for (size_t i = 0; i < g->ntags; i++)
        if (strcmp(g->tags[i].name, name) == 0)
            return g->tags[i].value;
    return NULL;
}

static const char *side_name(int color)
{
    return color == WHITE ? "White" : "Black";
}

/* "34...Kg7": the move m in b as a numbered SAN move. */
static void move_text(const board_t *b, move_t m, char out[RULES_MOVE_TEXT])
{
    char san[16];
    san_format(b, m, san);
    snprintf(out, RULES_MOVE_TEXT, "%u%s%s", (unsigned)b->fullmove, b->stm == WHITE ? "." : "...", san);
}

/* ---- the replay ----------------------------------------------------------- */

static bool replay_push(replay_t *rp, const board_t *pos, const char *move, uint32_t window)
{
    if (rp->n == rp->cap) {
        uint32_t cap = rp->cap ? rp->cap * 2 : 128;
        ply_pos_t *p = realloc(rp->ply, cap * sizeof *p);
        if (!p) {
            rp->oom = true;
            return false;
        }
        rp->ply = p;
        rp->cap = cap;
    }
    ply_pos_t *at = &rp->ply[rp->n++];
    at->pos = *pos;
    snprintf(at->move, sizeof at->move, "%s", move);
    at->window = window;
    return true;
}

/* Plays the move text[0..len); false if it is not a legal move here or the
 * reader's ply count is reached (the replay stops). */
static bool replay_move(replay_t *rp, const char *text, size_t len)
{
    if (rp->n > rp->limit)
        return false;
    san_syntax_t s;
    if (san_parse(text, len, &s) < 0 || s.kind == SAN_DROP)
        return false;
    if (s.kind == SAN_NULLMOVE && !rp->opt->allow_null_moves)
        return false;
    const board_t before = rp->ply[rp->n - 1].pos;
    uint32_t window = rp->ply[rp->n - 1].window;
    move_t m;
    char why[160];
    if (san_resolve(&before, &s, &m, why, sizeof why) != SAN_OK)
        return false;
    if (rules_play(&rp->rules, m) < 0) {
        rp->oom = true;
        return false;
    }
    /* python-chess is_irreversible(): a capture or pawn move, a change of
     * castling rights, or a move from a position with a legal en passant
     * capture starts a new window. */
    const board_t *after = rp->rules.pos;
    bool zeroing = (m.flags & MOVE_CAPTURE) || (!(m.flags & MOVE_NULL) && PIECE_TYPE(before.sq[m.from]) == PAWN);
    if (zeroing || after->castle != before.castle || before.ep_legal)
        window = rp->n;
    char mt[RULES_MOVE_TEXT];
    move_text(&before, m, mt);
    return replay_push(rp, after, mt, window);
}

static bool all_digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return n > 0;
}

/* A mainline symbol, read as reader.c reads it: a move; a move number
 * without its dot or a piece of a result written as free text ("1 - 0",
 * "1/2", "½-½"), skipped; or text scanned for moves ("Sf3" holds f3). */
static bool replay_symbol(replay_t *rp, const lex_token_t *t)
{
    unsigned char c0 = (unsigned char)t->text[0];
    if (all_digits(t->text, t->len) || c0 == 0xc2 || (t->len == 1 && c0 == '-') ||
        (t->len == 3 && memcmp(t->text, "1/2", 3) == 0))
        return true;
    san_syntax_t s;
    if (san_parse(t->text, t->len, &s) == 0 || strchr("NBRQKO", c0) || (c0 >= 'a' && c0 <= 'h'))
        return replay_move(rp, t->text, t->len);
    size_t pos = 0, start, n;
    enum san_scan kind;
    while ((kind = san_scan(t->text, t->len, &pos, &start, &n)) != SCAN_NONE)
        if (kind == SCAN_RESULT || !replay_move(rp, t->text + start, n))
            return false;
    return true;
}

/* Replays the mainline of the first game of pgn[0..len) from start. */
static void replay_game(replay_t *rp, const char *pgn, size_t len, const board_t *start)
{
    if (rules_init(&rp->rules, start) < 0) {
        rp->oom = true;
        return;
    }
    rp->rules_live = true;
    if (!replay_push(rp, start, "", 0))
        return;
    lexer_t *lx = lex_new();
    if (!lx) {
        rp->oom = true;
        return;
    }
    lex_feed(lx, pgn, len);
    lex_finish(lx);
    bool movetext = false;
    int depth = 0;
    lex_token_t t;
    while (rp->n <= rp->limit) {
        lex_kind_t k = lex_next(lx, &t);
        if (k == TOK_EOF || k == TOK_MORE || (k == TOK_TAG && movetext))
            break;
        if (k == TOK_TAG || k == TOK_COMMENT)
            continue;
        movetext = true;
        if (k == TOK_VAR_OPEN) {
            depth++;
        } else if (k == TOK_VAR_CLOSE) {
            depth -= depth > 0;
        } else if (depth == 0 && k == TOK_RESULT) {
            break;
        } else if (depth == 0 && k == TOK_SYMBOL && !replay_symbol(rp, &t)) {
            break;
        }
    }
    lex_free(lx);
    rules_finish(&rp->rules);
}

/* The start position as reader.c's setup() chooses it; false if the record
 * says it could not be set up. */
static bool start_position(const arb_game *g, board_t *start)
{
    if (g->status == ARB_BADFEN || g->status == ARB_UNSUPPORTED)
        return false;
    const char *variant = tag_of(g, "Variant");
    bool c960 = variant && tag_variant(variant) == VARIANT_CHESS960;
    const char *fen = tag_of(g, "FEN");
    if (fen) {
        board_error_t why;
        return board_from_fen(start, fen, c960, &why) == 0;
    }
    board_start(start);
    start->chess960 = c960;
    return true;
}

/* True if the replay found what the reader found: the same number of
 * plies and the same first ply for every fact. */
static bool replay_agrees(const replay_t *rp, const arb_game *g)
{
    if (!rp->rules_live || rp->oom || rp->n != g->plies + 1)
        return false;
    for (int f = 0; f < ARB_FACT_COUNT; f++)
        if (rp->rules.first[f] != g->first[f])
            return false;
    return true;
}

/* ---- pieces of the account ------------------------------------------- */

/* Eight ranks from White's side, then the file letters. */
static void diagram(strbuf_t *out, const board_t *b, bool ascii)
{
    static const char *const figures[2][7] = {
        { "\xC2\xB7", "\xE2\x99\x99", "\xE2\x99\x98", "\xE2\x99\x97", "\xE2\x99\x96", "\xE2\x99\x95", "\xE2\x99\x94" },
        { "\xC2\xB7", "\xE2\x99\x9F", "\xE2\x99\x9E", "\xE2\x99\x9D", "\xE2\x99\x9C", "\xE2\x99\x9B", "\xE2\x99\x9A" },
    };
    static const char letters[2][8] = { ".PNBRQK", ".pnbrqk" };
    for (int rank = 7; rank >= 0; rank--) {
        bprintf(out, "    %d", rank + 1);
        for (int file = 0; file < 8; file++) {
            uint8_t p = b->sq[SQ(file, rank)];
            int color = p ? PIECE_COLOR(p) : WHITE, type = PIECE_TYPE(p);
            strbuf_append(out, " ", 1);
            if (ascii)
                strbuf_append(out, &letters[color][type], 1);
            else
                strbuf_puts(out, figures[color][type]);
        }
        strbuf_append(out, "\n", 1);
    }
    strbuf_puts(out, "      a b c d e f g h\n");
}

/* "White K B, Black K N": the pieces of each side, strongest first. */
static void material(strbuf_t *out, const board_t *b)
{
    static const char order[] = { KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN };
    for (int c = WHITE; c <= BLACK; c++) {
        bprintf(out, "%s%s", c == WHITE ? "" : ", ", side_name(c));
        for (size_t i = 0; i < sizeof order; i++)
            for (int k = 0; k < b->count[PIECE(c, order[i])]; k++)
                bprintf(out, " %c", " PNBRQK"[(int)order[i]]);
    }
}

static void occurrence(strbuf_t *out, const replay_t *rp, uint32_t q, const char *note)
{
    bprintf(out, "      ply %-4u %s%s\n", (unsigned)q, q == 0 ? "the start position" : rp->ply[q].move, note);
}

/* Every ply of p's window, p itself included, whose position has key and
 * stands at the given parity from p (0: same side to move as p). */
static int occurrences(strbuf_t *out, const replay_t *rp, uint32_t p, uint64_t key, uint32_t parity)
{
    int n = 0;
    for (uint32_t q = rp->ply[p].window; q <= p; q++)
        if ((p - q) % 2 == parity && rp->ply[q].pos.key == key) {
            if (out)
                occurrence(out, rp, q, "");
            n++;
        }
    return n;
}

/* FIDE 9.2.1.1: a move from ply p after which the position occurs a third
 * time (quiet piece moves only, as rules.c looks for them).  Prefers the
 * move played.  Returns false if there is none. */
static bool declared_repetition(const replay_t *rp, uint32_t p, move_t *out, board_t *next)
{
    const board_t *b = &rp->ply[p].pos;
    move_t moves[MAX_MOVES];
    int n = movegen_legal(b, moves), found = -1;
    for (int i = 0; i < n; i++) {
        move_t m = moves[i];
        if ((m.flags & (MOVE_CAPTURE | MOVE_CASTLE)) || PIECE_TYPE(b->sq[m.from]) == PAWN)
            continue;
        board_t after;
        board_make_move(b, m, &after);
        if (occurrences(NULL, rp, p, after.key, 1) < 2)
            continue;
        if (found < 0 || (p + 1 < rp->n && after.key == rp->ply[p + 1].pos.key)) {
            found = i;
            *next = after;
        }
    }
    if (found < 0)
        return false;
    *out = moves[found];
    return true;
}

/* FIDE 9.3.1: at clock 99, a move that is neither a capture nor a pawn
 * move and after which the game goes on.  Prefers the move played. */
static bool declared_fifty(const replay_t *rp, uint32_t p, move_t *out)
{
    const uint64_t *played = p + 1 < rp->n ? &rp->ply[p + 1].pos.key : NULL;
    return rules_fifty_declarable(&rp->ply[p].pos, played, out);
}

static void explain_repetition(strbuf_t *out, const replay_t *rp, uint32_t p, bool fivefold)
{
    const board_t *b = &rp->ply[p].pos;
    const char *who = side_name(b->stm);
    if (fivefold) {
        strbuf_puts(out, "  Fivefold repetition (FIDE 9.6.1): the game is drawn.\n"
                         "    This position has now occurred five times, at:\n");
        occurrences(out, rp, p, b->key, 0);
        return;
    }
    if (occurrences(NULL, rp, p, b->key, 0) >= 3) {
        bprintf(out, "  Threefold repetition claimable (FIDE 9.2.1.2): %s, to move, may claim a draw.\n"
                     "    This position has now occurred three times, at:\n", who);
        occurrences(out, rp, p, b->key, 0);
        return;
    }
    move_t m;
    board_t next;
    if (!declared_repetition(rp, p, &m, &next)) {
        bprintf(out, "  Threefold repetition claimable (FIDE 9.2.1): %s, to move, may claim a draw.\n", who);
        return;
    }
    char mt[RULES_MOVE_TEXT];
    move_text(b, m, mt);
    bool played = p + 1 < rp->n && rp->ply[p + 1].pos.key == next.key;
    bprintf(out, "  Threefold repetition claimable (FIDE 9.2.1.1): %s may declare %s,\n"
                 "    after which the position occurs for the third time; it occurred at:\n", who, mt);
    occurrences(out, rp, p, next.key, 1);
    bprintf(out, "      ply %-4u %s (%s)\n", (unsigned)p + 1, mt, played ? "declared, and played" : "declared");
}

static void explain_fifty(strbuf_t *out, const replay_t *rp, uint32_t p)
{
    const board_t *b = &rp->ply[p].pos;
    const char *who = side_name(b->stm);
    move_t m;
    if (b->halfmove >= 100) {
        bprintf(out, "  Fifty-move rule claimable (FIDE 9.3.2): %s, to move, may claim a draw.\n"
                     "    The halfmove clock is %u: 50 moves by each player without a capture\n"
                     "    or a pawn move.\n", who, (unsigned)b->halfmove);
    } else if (b->halfmove == 99 && declared_fifty(rp, p, &m)) {
        char mt[RULES_MOVE_TEXT];
        move_text(b, m, mt);
        bprintf(out, "  Fifty-move rule claimable (FIDE 9.3.1): %s may declare %s, which\n"
                     "    takes the halfmove clock from 99 to 100, and claim a draw.\n", who, mt);
    } else {
        bprintf(out, "  Fifty-move rule claimable (FIDE 9.3): %s, to move, may claim a draw.\n", who);
    }
}

/* What one fact at ply p means; the replay's positions are used if known. */
static void explain_fact(strbuf_t *out, const replay_t *rp, bool known, arb_fact f, uint32_t p)
{
    const board_t *b = known ? &rp->ply[p].pos : NULL;
    int stm = b ? b->stm : -1;
    switch (f) {
    case ARB_CHECKMATE:
        if (b)
            bprintf(out, "  Checkmate (FIDE 5.1.1): %s is in check and has no legal move;\n"
                         "    %s wins, %s.\n", side_name(stm), side_name(!stm), stm == WHITE ? "0-1" : "1-0");
        else
            strbuf_puts(out, "  Checkmate (FIDE 5.1.1): the side to move is mated.\n");
        if (b && b->halfmove >= 150)
            strbuf_puts(out, "    The halfmove clock reached 150 with this move: checkmate\n"
                             "    takes precedence over the seventy-five-move rule (FIDE 9.6.2).\n");
        break;
    case ARB_STALEMATE:
        bprintf(out, "  Stalemate (FIDE 5.2.1): %s has no legal move and is not in check;\n"
                     "    the game is drawn.\n", b ? side_name(stm) : "the side to move");
        break;
    case ARB_INSUFFICIENT:
        strbuf_puts(out, "  Insufficient material: neither side can checkmate");
        if (b) {
            strbuf_puts(out, " (");
            material(out, b);
            strbuf_puts(out, ")");
        }
        strbuf_puts(out, ".\n");
        break;
    case ARB_DEAD:
        strbuf_puts(out, "  Dead position (FIDE 5.2.2): no series of legal moves can end in\n"
                         "    checkmate; the game is drawn.\n");
        break;
    case ARB_FIVEFOLD:
    case ARB_THREEFOLD:
        if (b)
            explain_repetition(out, rp, p, f == ARB_FIVEFOLD);
        else
            bprintf(out, "  %s.\n", f == ARB_FIVEFOLD ? "Fivefold repetition (FIDE 9.6.1): the game is drawn"
                                                       : "Threefold repetition claimable (FIDE 9.2.1)");
        break;
    case ARB_SEVENTYFIVE:
        if (b)
            bprintf(out, "  Seventy-five-move rule (FIDE 9.6.2): the halfmove clock is %u: 75 moves\n"
                         "    by each player without a capture or a pawn move; the game is drawn.\n",
                    (unsigned)b->halfmove);
        else
            strbuf_puts(out, "  Seventy-five-move rule (FIDE 9.6.2): the game is drawn.\n");
        break;
    case ARB_FIFTY:
        if (b)
            explain_fifty(out, rp, p);
        else
            strbuf_puts(out, "  Fifty-move rule claimable (FIDE 9.3).\n");
        break;
    default:
        break;
    }
}

static const char *verdict_words(arb_verdict v)
{
    switch (v) {
    case ARB_CONSISTENT: return "the recorded result stands";
    case ARB_WRONG_RESULT: return "the rules decided the game and the Result tag says otherwise";
    case ARB_WRONG_REASON: return "the recorded reason the game ended is contradicted, the result stands";
    case ARB_MOVES_AFTER_END: return "moves were recorded after the game had ended by rule";
    case ARB_UNFINISHED: return "no result was recorded and the game did not end by rule";
    case ARB_UNREADABLE: return "the game could not be replayed";
    case ARB_SELF_CONTRADICTORY: return "the Result tag and the termination marker give different results";
    default: return "?";
    }
}

static void field(strbuf_t *out, const char *label, const char *value)
{
    bprintf(out, "  %-12s ", label);
    put_clean(out, value ? value : "?");
    strbuf_append(out, "\n", 1);
}

/* One recorded reason: where it is written, its text, what it claims and
 * what the board says of it. */
static void reason_line(strbuf_t *out, const arb_reason *r, const char *label)
{
    bprintf(out, "  %-12s %s \"", label, r->from == ARB_FROM_COMMENT ? "final comment" : arb_reason_from_name(r->from));
    put_clean(out, r->text);
    bprintf(out, "\" (line %llu): %s", (unsigned long long)r->line, arb_claim_name(r->claim));
    if (r->winner >= 0)
        bprintf(out, " by %s", side_name(r->winner));
    if (r->reading == ARB_READ_WORDS)
        strbuf_puts(out, r->claim == ARB_CLAIM_OTHER ? " (read by its words, which name no end surely)" : " (read by its words)");
    bprintf(out, ", %s", arb_check_name(r->check));
    if (r->disagrees)
        strbuf_puts(out, ", disagrees with the reason");
    if (r->message && r->message[0]) {
        strbuf_puts(out, ": ");
        put_clean(out, r->message);
    }
    strbuf_puts(out, "\n");
}

/* The position that decides the reason's check: where the game had ended
 * by rule for a reason that came after that end, else the final one; -1
 * when the board says nothing of the claim (resignation, agreement, ...). */
static int32_t reason_ply(const arb_game *g)
{
    if (!g->nreasons || g->status != ARB_OK)
        return -1;
    const arb_reason *r = &g->reasons[0];
    if (r->check == ARB_CHECK_SUPERSEDED && g->has_end)
        return g->end_ply;
    if (r->check == ARB_CHECK_UNVERIFIABLE && !r->result_conflict)
        return -1;
    return (int32_t)g->plies;
}

static void header(strbuf_t *out, const arb_game *g, const replay_t *rp, bool known, const char *name,
                   const arb_options *opt)
{
    strbuf_puts(out, "== ");
    put_clean(out, name ? name : "game");
    strbuf_puts(out, " ==\n");
    static const char *const tags[] = { "Event", "Site", "Date", "Round", "White", "Black" };
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) {
        const char *v = tag_of(g, tags[i]);
        if (v || i >= 4)
            field(out, tags[i], v);
    }
    if (tag_of(g, "Variant"))
        field(out, "Variant", tag_of(g, "Variant"));
    if (tag_of(g, "FEN"))
        field(out, "FEN", tag_of(g, "FEN"));

    bprintf(out, "  %-12s ", "Recorded");
    if (g->result) {
        strbuf_puts(out, "Result tag \"");
        put_clean(out, g->result);
        strbuf_puts(out, "\"");
    } else {
        strbuf_puts(out, "no Result tag");
    }
    bprintf(out, ", %s%s\n", g->marker ? "termination marker " : "no termination marker",
            g->marker ? g->marker : "");
    bprintf(out, "  %-12s %s", "Adjudicated", g->adjudicated ? g->adjudicated : "unknown");
    if (g->adjudication) {
        strbuf_puts(out, ": ");
        put_clean(out, g->adjudication);
    }
    bprintf(out, " (--rules=%s)\n", opt->policy == ARB_RULES_CLAIM ? "claim" : "fide");
    bprintf(out, "  %-12s %s: %s\n", "Verdict", arb_verdict_name(g->verdict), verdict_words(g->verdict));
    for (size_t i = 0; i < g->nreasons; i++)
        reason_line(out, &g->reasons[i], i == 0 ? "Reason" : "Also");
    bprintf(out, "  %-12s %u %s, status %s\n", "Replayed", (unsigned)g->plies, g->plies == 1 ? "ply" : "plies",
            arb_status_name(g->status));
    if (g->has_end) {
        /* Under --rules=claim a claim ends the game at its first chance. */
        const char *how = g->end_reason == ARB_THREEFOLD ? "a threefold repetition claim"
                          : g->end_reason == ARB_FIFTY   ? "a fifty-move rule claim"
                                                         : report_fact_words(g->end_reason);
        bprintf(out, "  %-12s by %s at ply %d", "Ended", how, (int)g->end_ply);
        if (g->end_move && g->end_move[0])
            bprintf(out, " (%s)", g->end_move);
        uint32_t after = g->plies - (uint32_t)g->end_ply;
        if (after)
            bprintf(out, "; %u %s recorded after the end", (unsigned)after, after == 1 ? "ply" : "plies");
        strbuf_append(out, "\n", 1);
    }
    /* The halfmove clock reaching 100 (fifty-move claim) and 150 (automatic draw). */
    if (known) {
        static const unsigned marks[] = { 100, 150 };
        bool any = false;
        for (int i = 0; i < 2; i++) {
            uint32_t q = 0;
            while (q < rp->n && rp->ply[q].pos.halfmove < marks[i])
                q++;
            if (q == rp->n)
                continue;
            bprintf(out, "%s%u ", any ? "; " : "  Clock        ", marks[i]);
            if (q == 0)
                bprintf(out, "already at the start (%u)", (unsigned)rp->ply[0].pos.halfmove);
            else
                bprintf(out, "at ply %u (%s)", (unsigned)q, rp->ply[q].move);
            any = true;
        }
        if (any)
            strbuf_append(out, "\n", 1);
    }
}

/* The plies where facts first hold, each once, ascending; returns the count. */
static int fact_plies(const arb_game *g, int32_t out[ARB_FACT_COUNT])
{
    int n = 0;
    for (int f = 0; f < ARB_FACT_COUNT; f++) {
        int32_t p = g->first[f];
        if (p < 0)
            continue;
        int i = 0;
        while (i < n && out[i] < p)
            i++;
        if (i < n && out[i] == p)
            continue;
        memmove(&out[i + 1], &out[i], (size_t)(n - i) * sizeof out[0]);
        out[i] = p;
        n++;
    }
    return n;
}

static void account(strbuf_t *out, const arb_game *g, const replay_t *rp, bool known, const char *name,
                    bool ascii, const arb_options *opt)
{
    header(out, g, rp, known, name, opt);

    if (g->has_error) {
        /* No line and column: pgn[] may be one game cut out of a file, and
         * the caller's diagnostics already say where it is. */
        strbuf_puts(out, "\nError");
        if (g->error.move[0]) {
            bprintf(out, " at ply %u, move \"", (unsigned)g->error.ply);
            put_clean(out, g->error.move);
            strbuf_puts(out, "\"");
        }
        strbuf_puts(out, ":\n  ");
        put_clean(out, g->error.message);
        strbuf_puts(out, "\n");
        /* The position the failed move was tried in: the last one replayed. */
        if (g->status == ARB_ILLEGAL || g->status == ARB_SYNTAX) {
            if (rp->rules_live && rp->n == g->plies + 1 && !rp->oom) {
                const board_t *b = &rp->ply[rp->n - 1].pos;
                bprintf(out, "  The position at ply %u, %s to move:\n", (unsigned)g->plies, side_name(b->stm));
                diagram(out, b, ascii);
            }
        }
    }

    int32_t plies[ARB_FACT_COUNT];
    int n = fact_plies(g, plies);
    for (int i = 0; i < n; i++) {
        uint32_t p = (uint32_t)plies[i];
        const char *move = "";
        for (int f = 0; f < ARB_FACT_COUNT && !move[0]; f++)
            if (g->first[f] == plies[i])
                move = g->first_move[f] ? g->first_move[f] : "";
        if (p == 0)
            strbuf_puts(out, "\nPly 0, the start position");
        else
            bprintf(out, "\nPly %u, after %s", (unsigned)p, move);
        if (known)
            bprintf(out, " (%s to move, halfmove clock %u)", side_name(rp->ply[p].pos.stm),
                    (unsigned)rp->ply[p].pos.halfmove);
        strbuf_puts(out, "\n");
        for (int f = 0; f < ARB_FACT_COUNT; f++)
            if (g->first[f] == plies[i])
                explain_fact(out, rp, known, (arb_fact)f, p);
        if (known)
            diagram(out, &rp->ply[p].pos, ascii);
    }
    if (n == 0 && g->status == ARB_OK)
        strbuf_puts(out, "\nNo rule of the Laws ended the game or allowed a claim.\n");
    int32_t rq = reason_ply(g);
    if (rq >= 0) {
        const arb_reason *r = &g->reasons[0];
        bprintf(out, "\nThe reason (%s, %s) ", arb_claim_name(r->claim), arb_check_name(r->check));
        if (known && (uint32_t)rq < rp->n) {
            const board_t *b = &rp->ply[rq].pos;
            if (rq == 0)
                bprintf(out, "against the start position, %s to move:\n", side_name(b->stm));
            else
                bprintf(out, "against the position at ply %d, after %s, %s to move:\n", (int)rq, rp->ply[rq].move,
                        side_name(b->stm));
            diagram(out, b, ascii);
        } else {
            bprintf(out, "against the position at ply %d.\n", (int)rq);
        }
    }
    if (!known && n > 0 && g->status == ARB_OK)
        strbuf_puts(out, "\n(The positions could not be replayed again; no diagrams.)\n");
}

static const arb_options default_options = { .allow_null_moves = false, .policy = ARB_RULES_FIDE };

/* A reader with *opt (the defaults if NULL, and *opt then points to them)
 * that has read pgn[0..len) whole; its first game goes to *g, NULL if there
 * is none or memory ran out (*oom).  NULL if no reader could be made. */
static arb_reader *read_first(const char *pgn, size_t len, const arb_options **opt, const arb_game **g, bool *oom)
{
    if (!*opt)
        *opt = &default_options;
    arb_reader *r = arb_reader_new(*opt);
    if (!r)
        return NULL;
    *oom = false;
    arb_reader_feed(r, pgn, len);
    arb_reader_finish(r);
    *g = arb_reader_next(r, oom);
    return r;
}

/* Replays g, the game of pgn[0..len), from its start position, up to
 * rp->limit plies. */
static void replay_from_start(replay_t *rp, const arb_game *g, const char *pgn, size_t len)
{
    board_t start;
    if (start_position(g, &start))
        replay_game(rp, pgn, len, &start);
}

static void replay_free(replay_t *rp)
{
    if (rp->rules_live)
        rules_free(&rp->rules);
    free(rp->ply);
}

int explain_game_opt(const char *pgn, size_t len, const char *name, bool ascii, const arb_options *opt,
                     strbuf_t *out)
{
    const arb_game *g;
    bool oom;
    arb_reader *r = read_first(pgn, len, &opt, &g, &oom);
    if (!r)
        return -1;
    if (oom || !g) {
        arb_reader_free(r);
        return oom ? -1 : 1;
    }

    replay_t rp = { .opt = opt, .limit = g->plies };
    replay_from_start(&rp, g, pgn, len);
    bool known = replay_agrees(&rp, g);
    account(out, g, &rp, known, name, ascii, opt);
    replay_free(&rp);
    arb_reader_free(r);
    return rp.oom || out->oom ? -1 : 0;
}

int explain_game(const char *pgn, size_t len, const char *name, bool ascii, strbuf_t *out)
{
    return explain_game_opt(pgn, len, name, ascii, NULL, out);
}

_Static_assert(RULES_MOVE_TEXT == 24, "explain_claim() declares its move buffer as char[24]");

int explain_claim(const char *pgn, size_t len, const arb_options *opt, arb_fact f, uint32_t p, int *side,
                  char declared[24])
{
    const arb_game *g;
    bool oom;
    arb_reader *r = read_first(pgn, len, &opt, &g, &oom);
    if (!r)
        return -1;
    int rc = oom ? -1 : 1;
    replay_t rp = { .opt = opt };
    if (g && (f == ARB_THREEFOLD || f == ARB_FIFTY) && g->first[f] == (int32_t)p) {
        rp.limit = g->plies;
        replay_from_start(&rp, g, pgn, len);
        if (rp.oom)
            rc = -1;
        else if (replay_agrees(&rp, g))
            rc = 0;
    }
    if (rc == 0) {
        const board_t *b = &rp.ply[p].pos;
        move_t m;
        board_t next;
        *side = b->stm;
        declared[0] = '\0';
        if (f == ARB_THREEFOLD && occurrences(NULL, &rp, p, b->key, 0) < 3 && declared_repetition(&rp, p, &m, &next))
            move_text(b, m, declared);
        if (f == ARB_FIFTY && b->halfmove < 100 && declared_fifty(&rp, p, &m))
            move_text(b, m, declared);
    }
    replay_free(&rp);
    arb_reader_free(r);
    return rc;
}
