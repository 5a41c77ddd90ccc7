/* report.h: one game record as a JSON line or a tab-separated text line. */
#ifndef ARB_REPORT_H
#define ARB_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
} report_counts_t;

/* Appends the problems of g, one per line in compiler style
 * ("FILE:LINE:COL: error: game N (White v Black): ..."), and counts them;
 * strict makes every warning an error.  Errors: unreadable game, illegal
 * move, bad FEN, a Result the rules contradict, a Result tag that
 * contradicts the marker.  Warnings: moves after the end, a missing Result
 * tag or marker, an unfinished game, an unsupported variant. */
void report_check(strbuf_t *b, const arb_game *g, const char *file, bool strict, report_counts_t *counts);

/* The same, with "error" and "warning" in ANSI colour when color is true. */
void report_check_color(strbuf_t *b, const arb_game *g, const char *file, bool strict, bool color,
                        report_counts_t *counts);

struct dead_search;

/* Appends the facts of the position in FEN (one line, text or JSON): legal
 * moves, check, insufficient material, whether each side can still mate
 * (with a helpmate line when it can), and whether the position is dead.
 * s is the analysis to use.  Returns 0, or -1 if the FEN is not a legal
 * position (the line then says why). */
int report_position(strbuf_t *b, const char *fen, struct dead_search *s, bool json);

/* The check that stands for g's reasons as a whole (g->nreasons > 0):
 * contradicted if any text is, else the check of reasons[0]. */
arb_check report_reason_check(const arb_game *g);

/* Words for a fact as the reason a game ended ("fivefold repetition",
 * "threefold repetition claimed"). */
const char *report_end_words(arb_fact f);

/* Words for a fact in text output ("threefold claimable"). */
const char *report_fact_words(arb_fact f);

#endif
