/* files.h: many inputs under -j, small files shared out whole among the
 * worker threads. */
#ifndef ARB_CLI_FILES_H
#define ARB_CLI_FILES_H

#include <stddef.h>
#include <stdio.h>

#include "cli.h"

/* Several inputs, in order: small files are replayed whole on worker
 * threads at once, the others as cli_process() does, each after the
 * inputs before it are written, to dest.  The output is the one-thread
 * output, byte for byte. */
void cli_process_files(char *const *paths, size_t n, const cli_t *cli, stats_t *st, FILE *dest);

#endif
