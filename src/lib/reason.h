/* reason.h: what a recorded reason text claims ended the game.
 *
 * Three places hold such texts: the Termination tag (PGN standard 9.8.1,
 * lichess, chess.com, c-chess-cli, Banksia, TCEC 2010), TCEC's
 * TerminationDetails tag, and the sentence that cutechess, fastchess and
 * TCEC add at the end of the last move's comment ("{-8.11/24 5.0s, White
 * wins by adjudication}").  reason_parse() reads one text into a claim, the
 * side it names as winner and the result it implies; it is pure and driven
 * by one immutable table (reason.c), which pgn-arbiter(1) lists in full.
 * What the board says of the claim is reason_check.h's business. */
#ifndef ARB_REASON_H
#define ARB_REASON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lex.h"
#include "pgnarbiter.h"

/* The result a text implies. */
enum reason_implies {
    IMPLIES_NOTHING,
    IMPLIES_WHITE,   /* White won */
    IMPLIES_BLACK,   /* Black won */
    IMPLIES_DRAW,
    IMPLIES_DECISIVE /* someone won, the text does not say who ("TCEC win rule") */
};

/* Whose rule the claim follows where the site's and FIDE's differ. */
enum reason_site {
    SITE_FIDE,     /* the engine managers, TCEC, the PGN standard */
    SITE_CHESSCOM, /* chess.com's insufficient-material and timeout rules */
    SITE_LICHESS   /* lichess's "Insufficient material": a claim that one side cannot mate */
};

typedef struct reason_parsed {
    arb_claim claim;
    int winner;                  /* the side the text names as winner: 0 White, 1 Black, -1 none */
    enum reason_implies implies;
    enum reason_site site;
    bool tablebase;              /* a tablebase adjudication (SyzygyTB, TB position) */
    int rank;                    /* how much the text says: 0 nothing (lichess Normal, an unknown
                                    value), 1 a bare tag word ("time forfeit"), 2 a claim the
                                    board can weigh or a sentence naming a side */
    size_t start, len;           /* the sentence within the text given */
    size_t user_start, user_len; /* chess.com "<user> won ...": the name; user_len 0 if none.
                                    The caller matches it against White and Black and sets
                                    winner (and implies) from it */
    bool user_loses;             /* the name is the loser's ("ann resigned"; words only) */
    bool words;                  /* read by its words (reason_words.h), not matched as a known
                                    source's sentence */
} reason_parsed_t;

/* Reads text[0..len) (need not be NUL-terminated) read from `from`.  A tag
 * value is always a reason: one the table does not know is read by its
 * words (reason_words.h), and is ARB_CLAIM_OTHER with rank 0 when they make
 * no claim; only an empty (or blank) value is none.  A comment is a reason
 * only when its last sentence (after the last ", ", else the whole comment,
 * blanks trimmed) is one of the sentences the table knows, or makes a claim
 * read strictly by its words.  recorded is the result
 * recorded (NULL if none): a bare "time forfeit" or "timeout" drawn is a
 * time-insufficient claim.  Returns true and fills *out, or false. */
bool reason_parse(const char *text, size_t len, arb_reason_from from, const char *recorded,
                  reason_parsed_t *out);

/* The readings of the last few tag values parsed, for the next game that
 * carries one of them: an export repeats a handful of Termination values
 * ("Normal", "Time forfeit") game after game.  reason_parse() of a tag
 * value depends on nothing but the value, the tag and whether the result
 * recorded is a draw, which make the key.  Zero-initialised: empty. */
typedef struct reason_memo {
    struct {
        char value[32];
        unsigned char len;   /* 0: nothing kept */
        unsigned char from;  /* arb_reason_from */
        bool draw;
        reason_parsed_t parsed; /* kept only where reason_parse() found a reason */
    } e[4];
    unsigned next;           /* the entry to replace next */
} reason_memo_t;

/* Is the result recorded a draw?  All that a reading takes from it. */
static inline bool reason_recorded_draw(const char *recorded)
{
    return recorded && recorded[0] == '1' && recorded[1] == '/' && strcmp(recorded, "1/2-1/2") == 0;
}

/* Are a[0..n) and b[0..n) the same bytes?  The usual values ("Normal",
 * "Time forfeit") as two overlapping words, without a call. */
static inline bool reason_same_bytes(const char *a, const char *b, size_t n)
{
    if (n >= 8 && n <= 16) {
        uint64_t a0, a1, b0, b1;
        memcpy(&a0, a, 8);
        memcpy(&b0, b, 8);
        memcpy(&a1, a + n - 8, 8);
        memcpy(&b1, b + n - 8, 8);
        return ((a0 ^ b0) | (a1 ^ b1)) == 0;
    }
    if (n >= 4 && n < 8) {
        uint32_t a0, a1, b0, b1;
        memcpy(&a0, a, 4);
        memcpy(&b0, b, 4);
        memcpy(&a1, a + n - 4, 4);
        memcpy(&b1, b + n - 4, 4);
        return ((a0 ^ b0) | (a1 ^ b1)) == 0;
    }
    return memcmp(a, b, n) == 0;
}

/* reason_parse() of a value the memo does not hold; keeps the reading in
 * place of the oldest. */
bool reason_memo_miss(reason_memo_t *m, const char *text, size_t len, arb_reason_from from, const char *recorded,
                      reason_parsed_t *out);

/* reason_parse() of a tag value, through memo m (owned by the caller, one
 * per thread): the same answer, computed once per distinct key; a value
 * seen before costs a few compares and a copy, without a call. */
static inline bool reason_parse_tag(reason_memo_t *m, const char *text, size_t len, arb_reason_from from,
                                    const char *recorded, reason_parsed_t *out)
{
    bool draw = reason_recorded_draw(recorded);
    for (size_t i = 0; i < sizeof m->e / sizeof m->e[0]; i++)
        if (m->e[i].len == len && m->e[i].from == from && m->e[i].draw == draw && len &&
            reason_same_bytes(m->e[i].value, text, len)) {
            *out = m->e[i].parsed;
            return true;
        }
    return reason_memo_miss(m, text, len, from, recorded, out);
}

/* The sentence that closes comment c, if it is one the table knows (as
 * reason_parse() reads a comment): the comment's kept end, blanks and line
 * ends as one space, goes to buf (LEX_COMMENT_TAIL + 1 bytes, owned by the
 * caller); out->text points into it, with the sentence's line and column in
 * the input.  Returns true and fills *p and *out, or false. */
bool reason_from_comment(const lex_comment_t *c, const char *recorded, char *buf, reason_parsed_t *p,
                         arb_reason *out);

/* chess.com "<user> won ...": the winner (and the result implied) when the
 * user named at the start of text (the sentence, p->user_len bytes) is the
 * White or the Black player (either may be NULL); a name that is neither
 * leaves no winner.  A name read by the words may be the loser's and is
 * matched whatever its case.  user_start becomes relative to text. */
void reason_name_winner(reason_parsed_t *p, const char *text, const char *white, const char *black);

#endif
