/* follow_util.h: what the two loops of --follow share (follow.c for files,
 * follow_stream.c for a stream): the stop signals and the descriptor that
 * wakes poll() when one arrives, the clock of the settle times, and the
 * write of each batch of events. */
#ifndef ARB_CLI_FOLLOW_UTIL_H
#define ARB_CLI_FOLLOW_UTIL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli.h"

/* Catches SIGINT and SIGTERM (without SA_RESTART, so that a blocking call
 * gives way): each sets the stop flag and makes follow_wake_fd() readable.
 * False, said on standard error, if the pipe behind it cannot be made. */
bool follow_catch_stop(void);

/* The descriptor poll() watches to wake at a stop signal; -1 before
 * follow_catch_stop(). */
int follow_wake_fd(void);

/* True once SIGINT or SIGTERM has arrived. */
bool follow_stop_requested(void);

/* The stop flag itself, non-zero once SIGINT or SIGTERM has arrived: for
 * a reader that checks it between games (events_set_stop()). */
const volatile sig_atomic_t *follow_stop_flag(void);

/* Closes the pipe of follow_catch_stop() (the handlers stay). */
void follow_release_stop(void);

/* A monotonic clock, in seconds. */
double follow_monotonic(void);

/* Writes out to standard output, empties it and flushes standard output
 * (notifiers read line by line).  False on an error. */
bool follow_flush_out(strbuf_t *out);

/* True if s[from..to) holds only blanks and line ends. */
bool follow_only_space(const char *s, size_t from, size_t to);

#endif
