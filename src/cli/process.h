/* process.h: one input named on the command line, opened and read to its
 * end in the way that suits it: on this thread, in pieces on worker
 * threads, or told game by game (--explain). */
#ifndef ARB_CLI_PROCESS_H
#define ARB_CLI_PROCESS_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"

/* Reads the input at path ("-": standard input) to its end, on
 * cli->threads threads; reports or rewritten PGN go to dest, messages to
 * msgs (with --explain, stderr).  With a document --format (sarif, junit)
 * dest is the held file, and the input's games are put between
 * format_input_begin() and format_input_end().  False on an I/O error. */
bool cli_process(const char *path, const cli_t *cli, stats_t *st, FILE *dest, FILE *msgs);

#endif
