/* input.h: an input file as a stream of bytes, decompressed if it is
 * gzip or zstd (recognised by magic bytes, so pipes work too). */
#ifndef ARB_INPUT_H
#define ARB_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct input input_t;

/* Opens path ("-" for standard input).  NULL on error, with err filled. */
input_t *input_open(const char *path, char *err, size_t err_cap);

/* Reads up to cap bytes of the (decompressed) stream into buf.  Returns the
 * count, 0 at the end, -1 on a read or decompression error (err filled). */
ssize_t input_read(input_t *in, void *buf, size_t cap, char *err, size_t err_cap);

/* How far the input has been read, in bytes of the file as stored
 * (compressed bytes for gzip and zstd), and its size (0 if unknown: a pipe). */
void input_position(const input_t *in, uint64_t *done, uint64_t *size);

/* True if the input is gzip or zstd. */
bool input_is_compressed(const input_t *in);

/* Closes the input (standard input is left open). */
void input_close(input_t *in);

#endif
