/* parallel.h: one large input cut into pieces between games, the pieces
 * replayed on worker threads and written back in order. */
#ifndef ARB_CLI_PARALLEL_H
#define ARB_CLI_PARALLEL_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "input.h"

/* Reads `in` as cli_stream() does, with cli->threads workers: the output
 * is the one-thread output, byte for byte.  Messages go to msgs.  False
 * on an I/O error. */
bool cli_process_parallel(input_t *in, const char *name, const cli_t *cli, stats_t *st, FILE *dest,
                          FILE *msgs);

#endif
