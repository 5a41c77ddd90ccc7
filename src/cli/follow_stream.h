/* follow_stream.h: --follow on a stream (standard input, a FIFO, a
 * socket): PGN that arrives as it is played, each game sent again whole
 * as it grows (the lichess broadcast stream, relay tools, pipes). */
#ifndef ARB_CLI_FOLLOW_STREAM_H
#define ARB_CLI_FOLLOW_STREAM_H

#include <stdbool.h>

#include "cli.h"

/* True if path names a stream that --follow reads as it arrives rather
 * than a file it reads again whole: "-" (standard input), or an existing
 * path that is neither a regular file nor a directory. */
bool follow_is_stream(const char *path);

/* Reads the stream path ("-": standard input) until it ends, and writes to
 * standard output, flushed after each batch, the events (events.h) of each
 * game as its copies arrive.  A game is complete when the next one starts
 * or when an empty line follows its termination marker; what a game not
 * yet complete shows falsely waits for cli->settle_ms.  At the end of the
 * stream the events still waiting are written at once (not those of a game
 * the end cut off, which is said on standard error); SIGINT and SIGTERM
 * stop it with what is certain written, as for files.  Returns the exit status: 0
 * at the end of the stream (even one broken off: the message says so) or
 * on a signal; 2 if the stream cannot be opened, on memory or on an error
 * writing standard output. */
int follow_stream_run(const char *path, const cli_t *cli);

#endif
