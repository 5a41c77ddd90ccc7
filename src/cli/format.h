/* format.h: the --check problems in the formats that CI systems read:
 * gnu (compiler-style lines), github (workflow commands that become
 * annotations), sarif (one SARIF 2.1.0 log) and junit (JUnit XML).
 *
 * gnu and github are lines, written as the games are read.  sarif and
 * junit are whole documents: while the inputs are read, each game's part
 * of the document and a line before and after each input are held in a
 * file (format_input_begin(), format_input_end()), in input order whatever
 * the threads; at the end format_document() writes the document from it.
 * Memory stays bounded however many problems there are. */
#ifndef ARB_CLI_FORMAT_H
#define ARB_CLI_FORMAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report.h"

typedef enum cli_format {
    CLI_FORMAT_GNU,    /* FILE:LINE:COL: error: game N (White v Black): ... */
    CLI_FORMAT_GITHUB, /* ::error file=F,line=L,col=C,title=T::message */
    CLI_FORMAT_SARIF,  /* SARIF 2.1.0 */
    CLI_FORMAT_JUNIT   /* JUnit XML */
} cli_format_t;

/* The format called name ("gnu", "github", "sarif", "junit"); -1 if none. */
int format_parse(const char *name);

/* True for the formats that are one document (sarif, junit). */
bool format_is_document(cli_format_t f);

/* Appends game g's part of the --check output of input `name` to b (game
 * numbers through report_game_number(), so that a piece's output can be
 * renumbered) and adds its problems to counts.  strict: every warning is an
 * error; color: ANSI colour (gnu only).  For junit every game has a part,
 * for the others only a game with problems. */
void format_game(strbuf_t *b, cli_format_t f, bool strict, bool color, const char *name, const arb_game *g,
                 report_counts_t *counts);

/* What became of one problem of a game: accepted (by an ArbiterAccept tag
 * of the game, or by an entry of the baseline) or not. */
typedef enum format_accepted {
    FORMAT_NOT_ACCEPTED,
    FORMAT_IN_SOURCE, /* the game's ArbiterAccept tag (SARIF suppression kind inSource) */
    FORMAT_EXTERNAL   /* the baseline (SARIF kind external) */
} format_accepted_t;

typedef struct format_verdict {
    format_accepted_t accepted;
    const char *why; /* the justification, NUL-terminated ("" if none); valid during the call */
} format_verdict_t;

/* Says what became of problem p of game g (sets *v). */
typedef void format_accept_fn(void *ctx, const arb_game *g, const report_problem_t *p, format_verdict_t *v);

/* After the problems of g: hands fn the problems that acceptance itself
 * finds (an ArbiterAccept tag naming an unknown rule, or accepting nothing). */
typedef void format_more_fn(void *ctx, const arb_game *g, report_problem_fn *fn, void *fn_ctx);

/* How format_game_accepting() writes a game. */
typedef struct format_options {
    bool strict, color;   /* as for format_game() */
    bool show_accepted;   /* gnu, github: write the accepted problems too, as notes */
    bool baseline;        /* a baseline is in use: SARIF results say their baselineState */
    format_accept_fn *accept; /* NULL: nothing is accepted */
    format_more_fn *more;     /* NULL: no more problems */
    void *ctx;                /* for accept and more */
} format_options_t;

/* format_game() with acceptance: an accepted problem is counted in
 * counts->accepted, not as an error or warning; SARIF gives it with its
 * suppression, JUnit as a skipped test case (unless the game has a
 * failure), gnu and github only with show_accepted. */
void format_game_accepting(strbuf_t *b, cli_format_t f, const format_options_t *opt, const char *name,
                           const arb_game *g, report_counts_t *counts);

/* Document formats: the line before an input's games in the held file,
 * and the one after them: whether the input was read to its end, its
 * games and problems, and the message that said why not (NULL if ok). */
void format_input_begin(FILE *held, const char *name);
void format_input_end(FILE *held, bool ok, uint64_t games, const report_counts_t *problems, const char *failure);

/* Writes the document of format f to out from the held file (read from
 * its start).  False, with errno set, if reading or writing failed. */
bool format_document(cli_format_t f, FILE *held, FILE *out);

/* Escapers, exposed for the unit tests. */

/* Appends s for a GitHub workflow command: % CR LF escaped as %25 %0D
 * %0A, and in a property (property true) also : and , as %3A %2C. */
void format_github_escape(strbuf_t *b, const char *s, bool property);

/* Appends s[0..n) as XML character data that is also a valid attribute
 * value: & < > " ' as entities, tab CR LF as character references, other
 * control characters and bytes that are not UTF-8 as U+FFFD. */
void format_xml_escape(strbuf_t *b, const char *s, size_t n);

/* Appends the path of input `path` as a reference relative to the
 * working directory: leading "./" dropped, an absolute path under the
 * working directory made relative.  With uri true it is a URI reference: bytes
 * other than letters, digits and -._~/!$&'()*+,;=:@ percent-encoded, and
 * an absolute path outside cwd as a file:// URI. */
void format_path(strbuf_t *b, const char *path, bool uri);

#endif
