/* cli.h: what main.c and parallel.c share: the options, the totals, and
 * what is done with each game. */
#ifndef ARB_CLI_H
#define ARB_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "input.h"
#include "progress.h"
#include "pgnarbiter.h"
#include "report.h"
#include "rewrite.h"

/* A plain file smaller than this is replayed on one thread: cutting it
 * into pieces costs more than the pieces save (measured: -j2 breaks even
 * at about 512 KiB).  With several inputs, such files are shared out
 * whole among the threads instead (cli_process_files()). */
#define CLI_SMALL_INPUT (512u << 10)

typedef struct cli {
    bool json, summary, check, fix, in_place, strict;
    unsigned only;                 /* bit per arb_fact; 0 = keep every game */
    unsigned long long max_errors; /* 0 = no limit */
    unsigned threads;              /* -j: 1 = no worker threads */
    bool color_out;                /* ANSI colour in text reports and --check lines */
    bool color_problems;           /* ... in --check lines (they go to stderr with --fix) */
    int progress;                  /* -1 never (-q), 0 when stderr is a terminal, 1 always */
    const char *explain;           /* --explain: a game number or Tag=value, NULL if not */
    bool ascii;                    /* --ascii: diagrams in letters */
    const char *fen;               /* --fen: a position to judge, "-" for stdin, NULL if not */
    size_t held_max;               /* cli_stream() stops once it has written this much (0: no
                                      limit): a worker's file, held in memory until its turn */
    rewrite_options_t rewrite;
    arb_options lib;
} cli_t;

typedef struct stats {
    uint64_t games, files_failed, rewritten;
    uint64_t status[5], verdict[5], fact[ARB_FACT_COUNT];
    report_counts_t problems;
    bool stop;                     /* --max-errors reached, or held_over */
    bool held_over;                /* stopped at cli_t.held_max */
    progress_t progress;           /* the progress line of the input being read */
    uint64_t games_before;         /* games read before the input being read */
} stats_t;

/* Records game g of input `name`: totals into st, the report or rewritten
 * PGN into out, --check problems into problems, per-game diagnostics into
 * diag; w is the rewriter with --fix, else NULL. */
void cli_handle_game(const cli_t *cli, stats_t *st, const char *name, const arb_game *g,
                     strbuf_t *out, strbuf_t *problems, strbuf_t *diag, rewriter_t *w);

/* Adds the totals of one piece of work to st. */
void cli_add_stats(stats_t *st, const stats_t *piece);

/* Writes b to f with every tracked game number raised by base, then
 * empties b.  False on a write error. */
bool cli_write(strbuf_t *b, uint64_t base, FILE *f);

/* Reads input `in` (named `name` in messages) on this thread to its end:
 * first the pre_len bytes at pre, which start at stream offset `offset`,
 * line `line` (after the line end eol_before, when offset > 0), then the
 * rest of in.  Game numbers are raised by base.  Writes reports or
 * rewritten PGN to dest, and messages (diagnostics, errors, and with --fix
 * the problems) to msgs.  False on an I/O error (reported on msgs). */
bool cli_stream(input_t *in, const char *name, const cli_t *cli, stats_t *st, FILE *dest, FILE *msgs,
                const char *pre, size_t pre_len, uint64_t offset, uint64_t line, const char *eol_before,
                uint64_t base);

/* Reads the input at path ("-": standard input) to its end, on
 * cli->threads threads; reports or rewritten PGN go to dest, messages to
 * msgs (with --explain, -j or a progress line, stderr).  False on an I/O
 * error. */
bool cli_process(const char *path, const cli_t *cli, stats_t *st, FILE *dest, FILE *msgs);

/* Several inputs, in order: small files are replayed whole on worker
 * threads at once, the others as cli_process() does, each after the
 * inputs before it are written.  The output is the one-thread output,
 * byte for byte. */
void cli_process_files(char *const *paths, size_t n, const cli_t *cli, stats_t *st);

/* The same with cli->threads workers: the output is the one-thread
 * output, byte for byte. */
bool cli_process_parallel(input_t *in, const char *name, const cli_t *cli, stats_t *st, FILE *dest);

#endif
