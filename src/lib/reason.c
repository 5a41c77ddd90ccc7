/* reason.c: reason texts to claims, one table for every vocabulary.
 *
 * Sources of each string: the research note behind issue 21 and, per
 * source, cutechess projects/lib/src/board/result.cpp (Result::description),
 * fastchess app/src/matchmaking/match/match.hpp (the same sentences, plus
 * "(Nms overrun)"), c-chess-cli src/game.c (game_decode_state), Banksia
 * src/base/comm.cpp (reasonStrings), lila modules/game/src/main/
 * PgnDump.scala, chess.com's exports, TCEC's archive (TerminationDetails),
 * and the PGN standard 9.8.1. */
#include "reason.h"

#include <string.h>

#include "pgnarbiter.h"
#include "reason_words.h"

/* How an entry's text is matched. */
enum form {
    F_EXACT,  /* the whole text, case-sensitive */
    F_NOCASE, /* the whole text, ASCII case ignored (PGN-standard and Banksia tag words) */
    F_SIDE,   /* "White" or "Black", then the entry's text */
    F_USER    /* a player's name, then the entry's text (chess.com) */
};

/* Where an entry may be read. */
#define IN_T 1u /* Termination */
#define IN_D 2u /* TerminationDetails */
#define IN_C 4u /* the last move's comment */
#define IN_TAGS (IN_T | IN_D)
#define IN_ALL (IN_T | IN_D | IN_C)

/* What an entry says besides its claim. */
#define R_DETAIL 0x001u   /* may go on with ": detail" ("White wins by adjudication: SyzygyTB") */
#define R_PAREN 0x002u    /* may go on with " (...)" (fastchess "(35ms overrun)") */
#define R_LOSER 0x004u    /* the side named lost (else it won) */
#define R_DRAW 0x008u     /* implies 1/2-1/2 */
#define R_DECISIVE 0x010u /* implies a win, for a side not named */
#define R_TB 0x020u       /* a tablebase adjudication */
#define R_CHESSCOM 0x040u /* chess.com's rules */
#define R_LICHESS 0x080u  /* lichess's claim rule */
#define R_RANK0 0x100u    /* says nothing of how the game ended */
#define R_RANK1 0x200u    /* a bare tag word */

typedef struct entry {
    const char *text;
    unsigned char len;   /* strlen(text) */
    unsigned char form;
    unsigned char where;
    unsigned char claim; /* arb_claim */
    unsigned flags;
} entry_t;

#define E(text, form, where, claim, flags) { text, sizeof(text) - 1, form, where, claim, flags }

/* Earlier entries win: case-sensitive sentences before the tag words that
 * ignore case ("Insufficient material" from lichess before c-chess-cli's
 * "insufficient material"). */
static const entry_t table[] = {
    /* lichess's two usual values first: most games of an export carry one */
    E("Normal", F_EXACT, IN_T, ARB_CLAIM_NORMAL, R_RANK0),
    E("Time forfeit", F_EXACT, IN_T, ARB_CLAIM_TIME, R_RANK1 | R_LICHESS),
    /* cutechess, fastchess, TCEC: sentences naming a side */
    E(" mates", F_SIDE, IN_ALL, ARB_CLAIM_CHECKMATE, 0),
    E(" loses on time", F_SIDE, IN_ALL, ARB_CLAIM_TIME, R_LOSER | R_PAREN),
    E(" resigns", F_SIDE, IN_ALL, ARB_CLAIM_RESIGNATION, R_LOSER),
    E(" wins by adjudication", F_SIDE, IN_ALL, ARB_CLAIM_ADJUDICATION, R_DETAIL),
    E(" makes an illegal move", F_SIDE, IN_ALL, ARB_CLAIM_ILLEGAL_MOVE, R_LOSER | R_DETAIL),
    E(" disconnects", F_SIDE, IN_ALL, ARB_CLAIM_ABANDONED, R_LOSER),
    E("'s connection stalls", F_SIDE, IN_ALL, ARB_CLAIM_ABANDONED, R_LOSER),
    E(" wins by agreement", F_SIDE, IN_ALL, ARB_CLAIM_AGREEMENT, 0),
    E(" wins", F_SIDE, IN_ALL, ARB_CLAIM_OTHER, R_RANK1),
    E(" in infinite loop", F_SIDE, IN_TAGS, ARB_CLAIM_ABANDONED, R_LOSER),
    E(" forfeits on time", F_SIDE, IN_ALL, ARB_CLAIM_TIME, R_LOSER), /* FICS */
    /* cutechess, fastchess, TCEC: draws and the rest */
    E("Draw by stalemate", F_EXACT, IN_ALL, ARB_CLAIM_STALEMATE, R_DRAW),
    E("Draw by 3-fold repetition", F_EXACT, IN_ALL, ARB_CLAIM_THREEFOLD, R_DRAW),
    E("Draw by fifty moves rule", F_EXACT, IN_ALL, ARB_CLAIM_FIFTY, R_DRAW),
    E("Draw by insufficient mating material", F_EXACT, IN_ALL, ARB_CLAIM_INSUFFICIENT, R_DRAW),
    E("Draw by timeout", F_EXACT, IN_ALL, ARB_CLAIM_TIME_INSUFFICIENT, R_DRAW),
    E("Draw by adjudication", F_EXACT, IN_ALL, ARB_CLAIM_ADJUDICATION, R_DRAW | R_DETAIL),
    E("Draw by disconnection", F_EXACT, IN_ALL, ARB_CLAIM_ABANDONED, R_DRAW),
    E("Draw by stalled connection", F_EXACT, IN_ALL, ARB_CLAIM_ABANDONED, R_DRAW),
    E("Draw by agreement", F_EXACT, IN_ALL, ARB_CLAIM_AGREEMENT, R_DRAW),
    E("Drawn game", F_EXACT, IN_ALL, ARB_CLAIM_OTHER, R_DRAW | R_RANK1),
    E("No result", F_EXACT, IN_ALL, ARB_CLAIM_UNTERMINATED, R_RANK1),
    E("Result error", F_EXACT, IN_ALL, ARB_CLAIM_OTHER, R_RANK1),
    E("Adjudication", F_EXACT, IN_ALL, ARB_CLAIM_ADJUDICATION, R_DETAIL), /* TCEC: "Adjudication: TCEC draw rule" */
    /* TCEC TerminationDetails (and the same text closing the last comment) */
    E("3-Fold repetition", F_EXACT, IN_D | IN_C, ARB_CLAIM_THREEFOLD, R_DRAW),
    E("3-fold repetition", F_EXACT, IN_D | IN_C, ARB_CLAIM_THREEFOLD, R_DRAW),
    E("Fifty moves rule", F_EXACT, IN_D | IN_C, ARB_CLAIM_FIFTY, R_DRAW),
    E("Stalemate", F_EXACT, IN_D | IN_C, ARB_CLAIM_STALEMATE, R_DRAW),
    E("Insufficient material", F_EXACT, IN_D | IN_C, ARB_CLAIM_INSUFFICIENT, R_DRAW),
    E("SyzygyTB", F_EXACT, IN_D | IN_C, ARB_CLAIM_ADJUDICATION, R_TB),
    E("TB position", F_EXACT, IN_D | IN_C, ARB_CLAIM_ADJUDICATION, R_TB),
    E("TCEC win rule", F_EXACT, IN_D | IN_C, ARB_CLAIM_ADJUDICATION, R_DECISIVE),
    E("TCEC draw rule", F_EXACT, IN_D | IN_C, ARB_CLAIM_ADJUDICATION, R_DRAW),
    E("Manual adjudication", F_NOCASE, IN_ALL, ARB_CLAIM_ADJUDICATION, 0),
    E("Manual draw adjudication", F_NOCASE, IN_ALL, ARB_CLAIM_ADJUDICATION, R_DRAW),
    E("TCEC adjudication", F_NOCASE, IN_D | IN_C, ARB_CLAIM_ADJUDICATION, 0),
    /* chess.com Termination */
    E(" won by checkmate", F_USER, IN_T, ARB_CLAIM_CHECKMATE, R_CHESSCOM),
    E(" won by resignation", F_USER, IN_T, ARB_CLAIM_RESIGNATION, R_CHESSCOM),
    E(" won on time", F_USER, IN_T, ARB_CLAIM_TIME, R_CHESSCOM),
    E(" won - game abandoned", F_USER, IN_T, ARB_CLAIM_ABANDONED, R_CHESSCOM),
    E("Game drawn by agreement", F_EXACT, IN_T, ARB_CLAIM_AGREEMENT, R_DRAW | R_CHESSCOM),
    E("Game drawn by repetition", F_EXACT, IN_T, ARB_CLAIM_THREEFOLD, R_DRAW | R_CHESSCOM),
    E("Game drawn by stalemate", F_EXACT, IN_T, ARB_CLAIM_STALEMATE, R_DRAW | R_CHESSCOM),
    E("Game drawn by insufficient material", F_EXACT, IN_T, ARB_CLAIM_INSUFFICIENT, R_DRAW | R_CHESSCOM),
    E("Game drawn by 50-move rule", F_EXACT, IN_T, ARB_CLAIM_FIFTY, R_DRAW | R_CHESSCOM),
    E("Game drawn by timeout vs insufficient material", F_EXACT, IN_T, ARB_CLAIM_TIME_INSUFFICIENT,
      R_DRAW | R_CHESSCOM),
    /* chess.com with a dash for "by" (exports of 2012, 2018, 2024) */
    E("Game drawn - insufficient material", F_EXACT, IN_T, ARB_CLAIM_INSUFFICIENT, R_DRAW | R_CHESSCOM),
    E("Game drawn - timeout vs insufficient material", F_EXACT, IN_T, ARB_CLAIM_TIME_INSUFFICIENT,
      R_DRAW | R_CHESSCOM),
    /* lichess Termination, before the tag words that ignore case */
    E("Insufficient material", F_EXACT, IN_T, ARB_CLAIM_INSUFFICIENT, R_DRAW | R_LICHESS),
    E("Unknown", F_EXACT, IN_T, ARB_CLAIM_OTHER, R_RANK0),
    /* TCEC 2010 Termination */
    E("3-fold rep", F_EXACT, IN_TAGS, ARB_CLAIM_THREEFOLD, R_DRAW),
    E("50-move rule", F_EXACT, IN_TAGS, ARB_CLAIM_FIFTY, R_DRAW),
    E("GUI adjudication", F_EXACT, IN_TAGS, ARB_CLAIM_ADJUDICATION, 0),
    E("User adjudication", F_EXACT, IN_TAGS, ARB_CLAIM_ADJUDICATION, 0),
    E("User adjudication - GUI crash", F_EXACT, IN_TAGS, ARB_CLAIM_ADJUDICATION, 0),
    /* XBoard and FICS final comments */
    E("Draw agreed", F_EXACT, IN_ALL, ARB_CLAIM_AGREEMENT, R_DRAW),
    E("Draw claim: 3-fold repetition", F_EXACT, IN_ALL, ARB_CLAIM_THREEFOLD, R_DRAW),
    E("Draw claim: 50-move rule", F_EXACT, IN_ALL, ARB_CLAIM_FIFTY, R_DRAW),
    E("Draw claim: insufficient mating material", F_EXACT, IN_ALL, ARB_CLAIM_INSUFFICIENT, R_DRAW),
    E("Game drawn by the 50 move rule", F_EXACT, IN_ALL, ARB_CLAIM_FIFTY, R_DRAW),
    E("Neither player has mating material", F_EXACT, IN_ALL, ARB_CLAIM_INSUFFICIENT, R_DRAW),
    E("Xboard adjudication", F_EXACT, IN_ALL, ARB_CLAIM_ADJUDICATION, R_DETAIL),
    /* Tag words: the PGN standard, cutechess, fastchess, c-chess-cli, Banksia, lichess */
    E("normal", F_NOCASE, IN_TAGS, ARB_CLAIM_NORMAL, R_RANK0),
    E("unterminated", F_NOCASE, IN_TAGS, ARB_CLAIM_UNTERMINATED, R_RANK0),
    E("*", F_NOCASE, IN_TAGS, ARB_CLAIM_OTHER, R_RANK0),
    E("death", F_NOCASE, IN_TAGS, ARB_CLAIM_OTHER, R_RANK1),
    E("emergency", F_NOCASE, IN_TAGS, ARB_CLAIM_OTHER, R_RANK1),
    E("abandoned", F_NOCASE, IN_TAGS, ARB_CLAIM_ABANDONED, R_RANK1),
    E("stalled connection", F_NOCASE, IN_TAGS, ARB_CLAIM_ABANDONED, R_RANK1),
    E("crash", F_NOCASE, IN_TAGS, ARB_CLAIM_ABANDONED, R_RANK1),
    E("adjudication", F_NOCASE, IN_TAGS, ARB_CLAIM_ADJUDICATION, R_RANK1),
    E("time forfeit", F_NOCASE, IN_TAGS, ARB_CLAIM_TIME, R_RANK1),
    E("timeout", F_NOCASE, IN_TAGS, ARB_CLAIM_TIME, R_RANK1),
    E("rules infraction", F_NOCASE, IN_TAGS, ARB_CLAIM_ILLEGAL_MOVE, R_RANK1),
    E("illegal move", F_NOCASE, IN_TAGS, ARB_CLAIM_ILLEGAL_MOVE, R_RANK1 | R_DETAIL),
    E("resign", F_NOCASE, IN_TAGS, ARB_CLAIM_RESIGNATION, R_RANK1),
    E("checkmate", F_NOCASE, IN_TAGS, ARB_CLAIM_CHECKMATE, 0),
    E("mate", F_NOCASE, IN_TAGS, ARB_CLAIM_CHECKMATE, 0),
    E("stalemate", F_NOCASE, IN_TAGS, ARB_CLAIM_STALEMATE, R_DRAW),
    E("3-fold repetition", F_NOCASE, IN_TAGS, ARB_CLAIM_THREEFOLD, R_DRAW),
    E("repetition", F_NOCASE, IN_TAGS, ARB_CLAIM_THREEFOLD, R_DRAW),
    E("50 moves rule", F_NOCASE, IN_TAGS, ARB_CLAIM_FIFTY, R_DRAW),
    E("fifty moves", F_NOCASE, IN_TAGS, ARB_CLAIM_FIFTY, R_DRAW),
    E("insufficient material", F_NOCASE, IN_TAGS, ARB_CLAIM_INSUFFICIENT, R_DRAW),
};

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c + ('a' - 'A')) : c;
}

static bool same_nocase(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (lower(a[i]) != lower(b[i]))
            return false;
    return true;
}

/* Does s[0..n) end with what an entry with these flags may add after its
 * text?  Sets *detail to the detail after ": " (n 0 if none). */
static bool tail_ok(const char *s, size_t n, unsigned flags, const char **detail, size_t *detail_len)
{
    *detail = NULL;
    *detail_len = 0;
    if (n == 0)
        return true;
    if ((flags & R_DETAIL) && n > 2 && s[0] == ':' && s[1] == ' ') {
        *detail = s + 2;
        *detail_len = n - 2;
        return true;
    }
    return (flags & R_PAREN) && n > 3 && s[0] == ' ' && s[1] == '(' && s[n - 1] == ')';
}

static bool is_text(const char *s, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    return n == k && memcmp(s, lit, k) == 0;
}

/* TCEC records an illegal move in TerminationDetails as the bare move,
 * capitalised: "D7c7", "A1a1", "0000". */
static bool bare_move(const char *s, size_t n)
{
    if (is_text(s, n, "0000"))
        return true;
    if (n != 4 && n != 5)
        return false;
    char f0 = lower(s[0]), f1 = lower(s[2]);
    return f0 >= 'a' && f0 <= 'h' && s[1] >= '1' && s[1] <= '8' && f1 >= 'a' && f1 <= 'h' && s[3] >= '1' &&
           s[3] <= '8' && (n == 4 || strchr("qrbnQRBN", s[4]));
}

/* Matches entry e against s[0..n); sets the side named (-1 none) and the
 * user name's length (chess.com). */
static bool match(const entry_t *e, const char *s, size_t n, int *side, size_t *user_len, const char **detail,
                  size_t *detail_len)
{
    size_t k = e->len;
    *side = -1;
    *user_len = 0;
    *detail = NULL;
    *detail_len = 0;
    switch (e->form) {
    case F_EXACT:
        return n >= k && memcmp(s, e->text, k) == 0 && tail_ok(s + k, n - k, e->flags, detail, detail_len);
    case F_NOCASE:
        return n >= k && same_nocase(s, e->text, k) && tail_ok(s + k, n - k, e->flags, detail, detail_len);
    case F_SIDE:
        if (n < 5 + k)
            return false;
        if (memcmp(s, "White", 5) == 0)
            *side = 0;
        else if (memcmp(s, "Black", 5) == 0)
            *side = 1;
        else
            return false;
        return memcmp(s + 5, e->text, k) == 0 && tail_ok(s + 5 + k, n - 5 - k, e->flags, detail, detail_len);
    case F_USER:
        /* The name is everything before the text, which ends the value. */
        if (n <= k || memcmp(s + n - k, e->text, k) != 0)
            return false;
        *user_len = n - k;
        return true;
    default:
        return false;
    }
}

/* cutechess writes "time forfeit" for "Draw by timeout" too; lichess its
 * "Time forfeit" for a flag against a side that cannot be mated: a loss on
 * time naming no winner, drawn, is a timeout draw. */
static void time_drawn(reason_parsed_t *p, const char *recorded)
{
    if (p->claim == ARB_CLAIM_TIME && p->winner < 0 && reason_recorded_draw(recorded))
        p->claim = ARB_CLAIM_TIME_INSUFFICIENT;
}

/* Is s[0..n) one of the table's whole sentences (not a tag word, not a
 * name's), in any place? */
static bool elsewhere(const char *s, size_t n)
{
    size_t detail_len;
    const char *detail;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const entry_t *e = &table[i];
        /* As match() reads F_EXACT, without a call to it: match() stays
         * inline in reason_parse()'s loop, which every comment takes. */
        if (e->form == F_EXACT && n >= e->len && memcmp(s, e->text, e->len) == 0 &&
            tail_ok(s + e->len, n - e->len, e->flags, &detail, &detail_len))
            return true;
    }
    return false;
}

bool reason_parse(const char *text, size_t len, arb_reason_from from, const char *recorded,
                  reason_parsed_t *out)
{
    unsigned where = from == ARB_FROM_TERMINATION ? IN_T : from == ARB_FROM_TERMINATION_DETAILS ? IN_D : IN_C;
    size_t a = 0, z = len;
    if (from == ARB_FROM_COMMENT) {
        /* The sentence after the last ", " (a comma and a blank). */
        for (size_t i = len; i-- > 1;)
            if (text[i - 1] == ',' && blank(text[i])) {
                a = i;
                break;
            }
    }
    while (a < z && blank(text[a]))
        a++;
    while (z > a && blank(text[z - 1]))
        z--;
    if (a == z)
        return false;
    const char *s = text + a;
    size_t n = z - a;
    *out = (reason_parsed_t){ .winner = -1, .start = a, .len = n };
    if (n == 6 && where == IN_T && memcmp(s, "Normal", 6) == 0) {
        /* lichess's usual value, as the table's first entry reads it, for less. */
        out->claim = ARB_CLAIM_NORMAL;
        return true;
    }

    const entry_t *hit = NULL;
    int side = -1;
    size_t user_len = 0, detail_len = 0;
    const char *detail = NULL;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const entry_t *e = &table[i];
        /* Most entries fail on the first byte (or the length, for whole texts). */
        if (!(e->where & where) || (e->form <= F_NOCASE && (n < e->len || lower(s[0]) != lower(e->text[0]))))
            continue;
        if (match(e, s, n, &side, &user_len, &detail, &detail_len)) {
            hit = e;
            break;
        }
    }
    if (!hit) {
        if (from == ARB_FROM_TERMINATION_DETAILS && bare_move(s, n)) {
            out->claim = ARB_CLAIM_ILLEGAL_MOVE;
            out->rank = 1;
            return true;
        }
        /* Behind the table, the words; in a comment only a claim counts, and
         * not a sentence the table keeps for another place (chess.com's). */
        bool claimed = reason_words(s, n, from == ARB_FROM_COMMENT, out);
        if (from == ARB_FROM_COMMENT && (!claimed || elsewhere(s, n)))
            return false;
        if (out->user_len)
            out->user_start += a;
        time_drawn(out, recorded);
        return true;
    }
    unsigned flags = hit->flags;
    out->claim = (arb_claim)hit->claim;
    out->rank = flags & R_RANK0 ? 0 : flags & R_RANK1 ? 1 : 2;
    out->site = flags & R_CHESSCOM ? SITE_CHESSCOM : flags & R_LICHESS ? SITE_LICHESS : SITE_FIDE;
    out->tablebase = (flags & R_TB) != 0;
    if (user_len) {
        out->user_start = a;
        out->user_len = user_len;
    }
    if (side >= 0)
        out->winner = flags & R_LOSER ? !side : side;
    /* "Draw by adjudication: TB position", "Adjudication: TCEC draw rule". */
    if (detail) {
        if (is_text(detail, detail_len, "SyzygyTB") || is_text(detail, detail_len, "TB position"))
            out->tablebase = true;
        else if (is_text(detail, detail_len, "TCEC draw rule"))
            flags |= R_DRAW;
        else if (is_text(detail, detail_len, "TCEC win rule"))
            flags |= R_DECISIVE;
    }
    if (out->winner >= 0)
        out->implies = out->winner == 0 ? IMPLIES_WHITE : IMPLIES_BLACK;
    else if (flags & R_DRAW)
        out->implies = IMPLIES_DRAW;
    else if (flags & R_DECISIVE)
        out->implies = IMPLIES_DECISIVE;
    time_drawn(out, recorded);
    return true;
}

bool reason_memo_miss(reason_memo_t *m, const char *text, size_t len, arb_reason_from from, const char *recorded,
                      reason_parsed_t *out)
{
    bool found = reason_parse(text, len, from, recorded, out);
    if (found && len <= sizeof m->e[0].value) {
        unsigned i = m->next++ % (sizeof m->e / sizeof m->e[0]);
        memcpy(m->e[i].value, text, len);
        m->e[i].len = (unsigned char)len;
        m->e[i].from = (unsigned char)from;
        m->e[i].draw = reason_recorded_draw(recorded);
        m->e[i].parsed = *out;
    }
    return found;
}

/* Line and column of byte i of the comment's kept end c (see lex.h): the
 * text after it up to the comment's end says how many lines back it is; a
 * line start inside the kept end, or the comment's own start, the column.
 * A line start further back than the kept end leaves the comment's
 * position. */
static void comment_position(const lex_comment_t *c, size_t i, uint64_t *line, uint32_t *col)
{
    uint64_t back = 0;
    for (size_t j = i; j < c->len; j++)
        back += c->text[j] == '\n' || (c->text[j] == '\r' && (j + 1 == c->len || c->text[j + 1] != '\n'));
    if (back == 0) {
        *line = c->end_line;
        *col = c->end_col - (uint32_t)(c->len - i);
        return;
    }
    for (size_t j = i; j-- > 0;)
        if (c->text[j] == '\n' || c->text[j] == '\r') {
            *line = c->end_line - back;
            *col = (uint32_t)(i - j);
            return;
        }
    *line = c->line;
    *col = c->whole ? c->col + 1 + (uint32_t)i : c->col;
}

bool reason_from_comment(const lex_comment_t *c, const char *recorded, char *buf, reason_parsed_t *p,
                         arb_reason *out)
{
    /* The sentence starts after the last comma that a blank follows (as
     * reason_parse() reads a comment): only the bytes from there are
     * looked at, which in an engine's comment ("d=19, ..., wv=3.19,, White
     * mates") is the end alone. */
    size_t from = 0;
    bool comma = false;
    for (size_t i = c->len; i-- > 1;)
        if (c->text[i - 1] == ',' && blank(c->text[i])) {
            from = i;
            comma = true;
            break;
        }
    /* Blanks and line ends as one space; map[] leads back to c->text. */
    unsigned char map[LEX_COMMENT_TAIL];
    size_t n = 0;
    for (size_t i = from; i < c->len; i++) {
        char ch = c->text[i];
        bool b = blank(ch);
        if (b && n > 0 && buf[n - 1] == ' ')
            continue;
        map[n] = (unsigned char)i;
        buf[n++] = b ? ' ' : ch;
    }
    /* A comment cut short is read only after a ", " of its own. */
    if ((!c->whole && !comma) || !reason_parse(buf, n, ARB_FROM_COMMENT, recorded, p))
        return false;
    buf[p->start + p->len] = '\0';
    out->text = buf + p->start;
    out->text_len = p->len;
    out->from = ARB_FROM_COMMENT;
    comment_position(c, map[p->start], &out->line, &out->col);
    return true;
}


/* Is the player's name the n bytes at u (whatever their case when read by the words)? */
static bool is_player(const char *name, const char *u, size_t n, bool words)
{
    return name && strlen(name) == n && (words ? same_nocase(name, u, n) : memcmp(name, u, n) == 0);
}

void reason_name_winner(reason_parsed_t *p, const char *text, const char *white, const char *black)
{
    const char *u = text + (p->user_start - p->start);
    int side = is_player(white, u, p->user_len, p->words) ? 0 : is_player(black, u, p->user_len, p->words) ? 1 : -1;
    if (side >= 0)
        p->winner = p->user_loses ? !side : side;
    if (p->winner >= 0)
        p->implies = p->winner == 0 ? IMPLIES_WHITE : IMPLIES_BLACK;
    p->user_start = 0;
}
