/* input.c: plain, gzip and zstd input through one read function. */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define RAW_SIZE (256u << 10)

enum codec { PLAIN, GZIP, ZSTD };

struct input {
    int fd;
    enum codec codec;
    unsigned char *raw;       /* compressed bytes read but not yet consumed */
    size_t raw_pos, raw_len;
    bool raw_eof;
    z_stream z;
    ZSTD_DStream *zs;
    bool frame_open;          /* inside a compressed frame: EOF now means truncated */
    char failure[160];        /* an error to report at the next read, "" if none */
    uint64_t consumed;        /* bytes read from the file */
    uint64_t size;            /* size of a regular file, 0 otherwise */
};

static ssize_t fill(input_t *in, char *err, size_t cap)
{
    if (in->raw_pos < in->raw_len || in->raw_eof)
        return (ssize_t)(in->raw_len - in->raw_pos);
    for (;;) {
        ssize_t n = read(in->fd, in->raw, RAW_SIZE);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            snprintf(err, cap, "read error: %s", strerror(errno));
            return -1;
        }
        in->raw_pos = 0;
        in->raw_len = (size_t)n;
        in->consumed += (uint64_t)n;
        if (n == 0)
            in->raw_eof = true;
        return n;
    }
}

input_t *input_open(const char *path, char *err, size_t cap)
{
    input_t *in = calloc(1, sizeof *in);
    if (!in || !(in->raw = malloc(RAW_SIZE))) {
        snprintf(err, cap, "out of memory");
        free(in);
        return NULL;
    }
    if (strcmp(path, "-") == 0) {
        in->fd = 0;
    } else if ((in->fd = open(path, O_RDONLY)) < 0) {
        snprintf(err, cap, "%s", strerror(errno));
        free(in->raw);
        free(in);
        return NULL;
    }
    /* Read until four bytes are known (or the end) to see the magic. */
    while (!in->raw_eof && in->raw_len < 4) {
        ssize_t n = read(in->fd, in->raw + in->raw_len, RAW_SIZE - in->raw_len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            snprintf(err, cap, "%s", strerror(errno));
            input_close(in);
            return NULL;
        }
        if (n == 0)
            in->raw_eof = true;
        in->raw_len += (size_t)n;
        in->consumed += (uint64_t)n;
    }
    struct stat sb;
    if (fstat(in->fd, &sb) == 0 && S_ISREG(sb.st_mode))
        in->size = (uint64_t)sb.st_size;
    const unsigned char *m = in->raw;
    if (in->raw_len >= 2 && m[0] == 0x1f && m[1] == 0x8b) {
        in->codec = GZIP;
        if (inflateInit2(&in->z, 15 + 32) != Z_OK) {
            snprintf(err, cap, "cannot start gzip decompression");
            input_close(in);
            return NULL;
        }
    } else if (in->raw_len >= 4 && m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd) {
        in->codec = ZSTD;
        if (!(in->zs = ZSTD_createDStream()) || ZSTD_isError(ZSTD_initDStream(in->zs))) {
            snprintf(err, cap, "cannot start zstd decompression");
            input_close(in);
            return NULL;
        }
    }
    return in;
}

static ssize_t read_plain(input_t *in, unsigned char *buf, size_t cap, char *err, size_t ecap)
{
    if (in->raw_pos < in->raw_len) {
        size_t n = in->raw_len - in->raw_pos;
        if (n > cap)
            n = cap;
        memcpy(buf, in->raw + in->raw_pos, n);
        in->raw_pos += n;
        return (ssize_t)n;
    }
    if (in->raw_eof)
        return 0;
    for (;;) {
        ssize_t n = read(in->fd, buf, cap);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            snprintf(err, ecap, "read error: %s", strerror(errno));
        if (n == 0)
            in->raw_eof = true;
        if (n > 0)
            in->consumed += (uint64_t)n;
        return n;
    }
}

/* A decompression error after `produced` bytes came out of this read:
 * those bytes (the games before the damage) are delivered first, and the
 * error at the next read. */
static ssize_t fail_after(input_t *in, size_t produced, const char *err)
{
    if (produced == 0)
        return -1;
    snprintf(in->failure, sizeof in->failure, "%s", err);
    return (ssize_t)produced;
}

static ssize_t read_gzip(input_t *in, unsigned char *buf, size_t cap, char *err, size_t ecap)
{
    if (cap > (1u << 30))
        cap = 1u << 30;
    in->z.next_out = buf;
    in->z.avail_out = (uInt)cap;
    while (in->z.avail_out == cap) {
        ssize_t avail = fill(in, err, ecap);
        if (avail < 0)
            return -1;
        if (avail == 0) {
            if (in->frame_open) {
                snprintf(err, ecap, "the gzip stream is truncated");
                return -1;
            }
            break;
        }
        in->z.next_in = in->raw + in->raw_pos;
        in->z.avail_in = (uInt)avail;
        int rc = inflate(&in->z, Z_NO_FLUSH);
        in->raw_pos = in->raw_len - in->z.avail_in;
        in->frame_open = true;
        if (rc == Z_STREAM_END) {
            /* Concatenated gzip members are one stream (as gzip -d reads them). */
            inflateReset(&in->z);
            in->frame_open = false;
        } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
            snprintf(err, ecap, "gzip data error: %s", in->z.msg ? in->z.msg : "corrupt input");
            return fail_after(in, cap - in->z.avail_out, err);
        }
    }
    return (ssize_t)(cap - in->z.avail_out);
}

static ssize_t read_zstd(input_t *in, unsigned char *buf, size_t cap, char *err, size_t ecap)
{
    ZSTD_outBuffer out = { buf, cap, 0 };
    while (out.pos == 0) {
        ssize_t avail = fill(in, err, ecap);
        if (avail < 0)
            return -1;
        if (avail == 0) {
            if (in->frame_open) {
                snprintf(err, ecap, "the zstd stream is truncated");
                return -1;
            }
            break;
        }
        ZSTD_inBuffer inb = { in->raw + in->raw_pos, (size_t)avail, 0 };
        size_t rc = ZSTD_decompressStream(in->zs, &out, &inb);
        in->raw_pos += inb.pos;
        if (ZSTD_isError(rc)) {
            snprintf(err, ecap, "zstd data error: %s", ZSTD_getErrorName(rc));
            return fail_after(in, out.pos, err);
        }
        in->frame_open = rc != 0;
    }
    return (ssize_t)out.pos;
}

ssize_t input_read(input_t *in, void *buf, size_t cap, char *err, size_t ecap)
{
    if (in->failure[0]) {
        snprintf(err, ecap, "%s", in->failure);
        return -1;
    }
    switch (in->codec) {
    case GZIP: return read_gzip(in, buf, cap, err, ecap);
    case ZSTD: return read_zstd(in, buf, cap, err, ecap);
    default: return read_plain(in, buf, cap, err, ecap);
    }
}

void input_position(const input_t *in, uint64_t *done, uint64_t *size)
{
    *done = in->consumed - (in->raw_len - in->raw_pos);
    *size = in->size;
}

bool input_is_compressed(const input_t *in)
{
    return in->codec != PLAIN;
}

void input_close(input_t *in)
{
    if (!in)
        return;
    if (in->codec == GZIP)
        inflateEnd(&in->z);
    ZSTD_freeDStream(in->zs);
    if (in->fd > 0)
        close(in->fd);
    free(in->raw);
    free(in);
}
