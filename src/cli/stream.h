/* stream.h: one input read on the calling thread, from its first byte (or
 * from a piece's) to its end. */
#ifndef ARB_CLI_STREAM_H
#define ARB_CLI_STREAM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "input.h"

/* Bytes asked of an input at a time. */
#define CLI_CHUNK (256u << 10)

/* Reads input `in` (named `name` in messages) on this thread to its end:
 * first the pre_len bytes at pre, which start at stream offset `offset`,
 * line `line` (after the line end eol_before, when offset > 0), then the
 * rest of in.  Game numbers are raised by base.  Writes reports or
 * rewritten PGN to dest, and messages (diagnostics, errors, and with --fix
 * the problems) to msgs.  False on an I/O error (reported on msgs). */
bool cli_stream(input_t *in, const char *name, const cli_t *cli, stats_t *st, FILE *dest, FILE *msgs,
                const char *pre, size_t pre_len, uint64_t offset, uint64_t line, const char *eol_before,
                uint64_t base);

#endif
