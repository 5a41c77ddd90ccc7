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

/* The rest of a plain regular file, mapped into memory so that threads
 * can read it in place: a pointer to stream offset 0, its length in *len.
 * Only before the first input_read(), which then returns 0 (the end).
 * NULL if the input is compressed, not a regular file, empty, or cannot
 * be mapped: input_read() goes on as before.  If the file shrinks while
 * mapped, reading the lost bytes raises SIGBUS. */
const char *input_map(input_t *in, size_t *len);

/* input_read() goes on from stream offset `at` of the map, copying from
 * it and giving its pages back as it goes: for a caller that stops reading
 * the map in place.  `at` must not be below what input_release() gave back. */
void input_read_from(input_t *in, size_t at);

/* Bytes [0, upto) of the map will not be read again: the whole pages
 * among them go back to the system (memory stays bounded however large
 * the file), and input_position() counts them as read. */
void input_release(input_t *in, size_t upto);

/* True if the input is gzip or zstd. */
bool input_is_compressed(const input_t *in);

/* Closes the input (standard input is left open). */
void input_close(input_t *in);

#endif
