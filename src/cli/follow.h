/* follow.h: --follow, the live arbiter: files watched as broadcast
 * software rewrites them, and each new fact written as an event line. */
#ifndef ARB_CLI_FOLLOW_H
#define ARB_CLI_FOLLOW_H

#include <stddef.h>

#include "cli.h"

/* Reads each of the plain files paths[0..n), then re-reads it whenever it
 * changes (inotify on its directory where the system has it, else a stat()
 * every cli->interval_ms), and writes the events of each read to standard
 * output (events.h), flushed after each batch.  Runs until SIGINT or
 * SIGTERM.  Messages go to standard error.  Returns the exit status: 0
 * when stopped by a signal, 2 if following could not start or go on (a
 * directory that cannot be watched, memory, standard output). */
int follow_run(char *const *paths, size_t n, const cli_t *cli);

#endif
