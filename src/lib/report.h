/* report.h: one game record as a JSON line or a tab-separated text line. */
#ifndef ARB_REPORT_H
#define ARB_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "dead.h"
#include "pgnarbiter.h"

/* Where a game number was written into a buffer. */
typedef struct strbuf_number {
    size_t at, len;   /* byte position and length of its digits */
    uint64_t value;
} strbuf_number_t;

/* A growable byte buffer; zero-initialise, free with strbuf_free().  With
 * track_numbers set, game numbers written by the report functions are
 * remembered, so that a piece of a split input can be renumbered later. */
typedef struct strbuf {
    char *data;
    size_t len, cap;
    bool oom; /* an append failed; data holds what fitted */
    bool track_numbers;
    strbuf_number_t *numbers;
    size_t nnumbers, numbers_cap;
} strbuf_t;

void strbuf_free(strbuf_t *b);
void strbuf_append(strbuf_t *b, const char *s, size_t n);
void strbuf_puts(strbuf_t *b, const char *s);

/* Appends n bytes of text from the input (a tag, a reason, a file name)
 * for a terminal to show: a tab or a line end becomes a space, any other C0
 * control character or DEL becomes '?', so that no escape sequence gets
 * through.  Every text output but JSON, SARIF and JUnit, which escape
 * them, writes input text this way. */
void strbuf_put_text(strbuf_t *b, const char *s, size_t n);

/* Empties the buffer (keeping its memory). */
void strbuf_clear(strbuf_t *b);

/* Appends a game number in decimal (remembered if b->track_numbers). */
void report_game_number(strbuf_t *b, uint64_t n);

/* Appends s as a JSON string: quotes, escapes, control characters as
 * \u00XX, and each byte that is not part of valid UTF-8 as U+FFFD. */
void report_json_string(strbuf_t *b, const char *s, size_t n);

/* Appends the JSON record of g (one line, ending in "\n"); file is the
 * input's name as given, "-" for standard input. */
void report_json(strbuf_t *b, const arb_game *g, const char *file);

/* Appends the text record: FILE:LINE, game, White, Black, result,
 * adjudicated, verdict, facts; tab-separated, one line. */
void report_text(strbuf_t *b, const arb_game *g, const char *file);

/* The same, with the verdict in ANSI colour when color is true. */
void report_text_color(strbuf_t *b, const arb_game *g, const char *file, bool color);

/* Problems found in one game, counted by kind. */
typedef struct report_counts {
    unsigned long long errors, warnings;
    unsigned long long accepted; /* (the program's) problems accepted, counted in neither */
} report_counts_t;

/* The kinds of problem that --check reports: each has a stable rule id
 * (the SARIF rule, the JUnit failure type, the GitHub annotation's tag), a
 * level (true: an error, false: a warning, which --strict makes an error)
 * and a one-line description.  A new kind is one line here, in the order
 * the kinds are listed in reports, and its PROBLEM in report_problems(). */
#define REPORT_RULES(X)                                                                                     \
    X(REPORT_WRONG_RESULT, "wrong-result", true, "The Result tag contradicts the result the rules give")   \
    X(REPORT_MARKER_CONTRADICTS_RULES, "marker-contradicts-rules", true,                                    \
      "The termination marker contradicts the result the rules give")                                       \
    X(REPORT_BAD_RESULT, "bad-result", false, "The Result tag is not 1-0, 0-1, 1/2-1/2 or *")              \
    X(REPORT_MARKER_CONTRADICTS_RESULT, "marker-contradicts-result", true,                                  \
      "The Result tag contradicts the termination marker")                                                  \
    X(REPORT_MOVES_AFTER_END, "moves-after-end", false, "Moves are recorded after the game ended by rule") \
    X(REPORT_MISSING_RESULT, "missing-result", false, "The game has no Result tag")                        \
    X(REPORT_NO_MARKER, "no-marker", false, "The movetext has no termination marker")                      \
    X(REPORT_UNFINISHED, "unfinished", false, "The game is unfinished (Result \"*\") and no rule ended it")  \
    X(REPORT_ILLEGAL_MOVE, "illegal-move", true, "An illegal, ambiguous or null move in the mainline")     \
    X(REPORT_SYNTAX, "syntax", true, "Text that cannot be read as PGN")                                    \
    X(REPORT_BAD_FEN, "bad-fen", true, "The FEN tag is not a position that can occur")                     \
    X(REPORT_UNSUPPORTED_VARIANT, "unsupported-variant", false,                                             \
      "A variant other than standard chess and Chess960, not checked")                                      \
    X(REPORT_WRONG_REASON, "wrong-reason", true, "The recorded reason the game ended contradicts the board") \
    X(REPORT_REASON_SITE_RULE, "reason-site-rule", false,                                                    \
      "The recorded reason holds under the site's own rule, not under FIDE's")                              \
    X(REPORT_REASON_SUPERSEDED, "reason-superseded", false,                                                  \
      "The game had already ended by rule before the recorded reason")                                     \
    X(REPORT_REASON_DISAGREES, "reason-disagrees", false,                                                    \
      "A further reason text of the game disagrees with the reason or with the board")                      \
    X(REPORT_ACCEPT_UNKNOWN, "accept-unknown", false, "An ArbiterAccept tag names a rule that --check does not have") \
    X(REPORT_ACCEPT_UNUSED, "accept-unused", false, "An ArbiterAccept tag accepts a problem its game does not have")  \
    X(REPORT_BASELINE_STALE, "baseline-stale", false, "A baseline entry accepts a problem that no longer occurs")

typedef enum report_rule {
#define REPORT_RULE_ENUM(e, id, err, desc) e,
    REPORT_RULES(REPORT_RULE_ENUM)
#undef REPORT_RULE_ENUM
    REPORT_RULE_COUNT
} report_rule_t;

typedef struct report_rule_info {
    const char *id;          /* "wrong-result": lowercase words and hyphens, never changed */
    bool error;              /* an error unless --strict is off and this is false */
    const char *description; /* one sentence, no final stop */
} report_rule_info_t;

/* The table entry of r (static storage). */
const report_rule_info_t *report_rule_info(report_rule_t r);

/* One problem of a game, as report_problems() hands it out. */
typedef struct report_problem {
    report_rule_t rule;
    bool error;          /* error, or warning; with strict every problem is an error */
    uint64_t game;       /* the game's number in its stream, 1.. */
    uint64_t line;       /* where the problem is: 1-based line, */
    uint32_t col;        /* and 1-based column in bytes (the game's start if the input gives none) */
    const char *message; /* in words, NUL-terminated, without the game's number or players;
                            valid during the call only */
} report_problem_t;

/* Called for each problem; g is the game (for its tags). */
typedef void report_problem_fn(void *ctx, const arb_game *g, const report_problem_t *p);

/* Hands each problem of g to fn, in the order of the --check lines; strict
 * makes every warning an error.  Errors: unreadable game, illegal move,
 * bad FEN, a Result the rules contradict, a Result tag that contradicts
 * the marker.  Warnings: moves after the end, a missing Result tag or
 * marker, an unfinished game, an unsupported variant. */
void report_problems(const arb_game *g, bool strict, report_problem_fn *fn, void *ctx);

/* Appends p, a problem of g in input `file`, as one compiler-style line
 * ("FILE:LINE:COL: error: game N (White v Black): ..."), with "error" and
 * "warning" in ANSI colour when color is true. */
void report_problem_line(strbuf_t *b, const char *file, const arb_game *g, const report_problem_t *p, bool color);

/* The value of g's first tag called name, NULL if none. */
const char *report_tag(const arb_game *g, const char *name);

/* Appends the problems of g (report_problems()), one line each
 * (report_problem_line()), and counts them. */
void report_check(strbuf_t *b, const arb_game *g, const char *file, bool strict, report_counts_t *counts);

/* The same, with "error" and "warning" in ANSI colour when color is true. */
void report_check_color(strbuf_t *b, const arb_game *g, const char *file, bool strict, bool color,
                        report_counts_t *counts);

/* Appends the facts of the position in FEN (one line, text or JSON): legal
 * moves, check, insufficient material, whether each side can still mate
 * (with a helpmate line when it can), and whether the position is dead.
 * s is the analysis to use, White's side first, then Black's.  Returns 0,
 * or -1 if the FEN is not a legal position (the line then says why). */
int report_position(strbuf_t *b, const char *fen, dead_search_t *s, bool json);

/* One side of a position, as report_position() writes it: the answer of
 * dead_can_win() for that colour, and for a winnable side the helpmate
 * line (len plies, the first REPORT_LINE_CAP of them in line). */
#define REPORT_LINE_CAP 512
typedef struct report_side {
    enum dead_answer answer;
    int len;
    move_t line[REPORT_LINE_CAP];
} report_side_t;

/* Answers one side of b (WHITE or BLACK) with s into *out. */
void report_side(dead_search_t *s, const board_t *b, int color, report_side_t *out);

/* How report_position_with() has a position analysed: side[WHITE] and
 * side[BLACK] filled as report_side() fills them, in any order or at
 * once, each side with a search handle of its own or one for both (the
 * answers depend on the position and the budget alone). */
typedef void report_sides_fn(void *ctx, const board_t *b, report_side_t side[2]);

/* report_position() with the analysis of both sides left to analyse(ctx,
 * ...): the same line, byte for byte. */
int report_position_with(strbuf_t *b, const char *fen, report_sides_fn *analyse, void *ctx, bool json);

/* The check that stands for g's reasons as a whole: the check of the
 * reason, reasons[0] (the other texts are only compared with it);
 * unverifiable when there is none.  Inline: --summary asks it of every
 * game. */
static inline arb_check report_reason_check(const arb_game *g)
{
    return g->nreasons ? g->reasons[0].check : ARB_CHECK_UNVERIFIABLE;
}

/* Words for a fact as the reason a game ended ("fivefold repetition",
 * "threefold repetition claimed"). */
const char *report_end_words(arb_fact f);

/* Words for a fact in text output ("threefold claimable"). */
const char *report_fact_words(arb_fact f);

#endif
