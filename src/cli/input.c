/* input.c: plain, gzip and zstd input through one read function.
 *
 * Compressed input is decompressed on a thread of its own, a few blocks
 * ahead of the reader, so that decompression overlaps the replay instead of
 * adding to it.  Plain input needs no thread: the kernel reads ahead.
 * Plain files can also be mapped, for threads that read pieces in place. */
#define _GNU_SOURCE 1 /* F_SETPIPE_SZ, where Linux has it */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define RAW_SIZE (256u << 10)
#define BLOCK_SIZE (128u << 10)
#define BLOCKS 4
#define PIPE_SIZE (1u << 20) /* asked of a pipe we read: fewer, larger reads */

enum codec { PLAIN, GZIP, ZSTD };

/* One block of decompressed bytes on its way from the thread to the reader.
 * A block ends the stream when it is short: `error` then says why (""
 * for a clean end). */
typedef struct {
    unsigned char data[BLOCK_SIZE];
    size_t len;
    bool last;
    char error[160];
    uint64_t done;            /* input_position's `done` after this block */
} block_t;

/* The ring between the decompression thread (producer) and input_read. */
typedef struct {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t filled, emptied;
    block_t *blocks;
    unsigned head, count;     /* oldest full block, number of full blocks */
    size_t pos;               /* bytes of blocks[head] already read */
    atomic_bool stop;         /* input_close: the thread must end */
    bool ended;               /* the last block has been read */
    uint64_t done;            /* position after the blocks read so far */
} ring_t;

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
    uint64_t start;           /* a regular file's offset of the stream's first byte */
    ring_t *ring;             /* compressed input: the decompression thread */
    char *map;                /* input_map(): the mapping, from a page start */
    size_t map_len;           /* its length */
    size_t map_skip;          /* bytes before stream offset 0 (start within its page) */
    size_t map_page;          /* the system's page size */
    size_t map_released;      /* bytes at the mapping's start given back */
    size_t map_read;          /* the stream offset input_read() serves from the map */
};

static ssize_t decompress(input_t *in, unsigned char *buf, size_t cap, char *err, size_t ecap);
static bool ring_start(input_t *in);

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
    off_t at = lseek(in->fd, 0, SEEK_CUR); /* standard input may start inside a file */
    in->start = at > 0 ? (uint64_t)at : 0;
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
    bool stat_ok = fstat(in->fd, &sb) == 0;
    if (stat_ok && S_ISREG(sb.st_mode))
        in->size = (uint64_t)sb.st_size;
#ifdef F_SETPIPE_SZ
    /* A pipe's 64 KiB means a wake-up of writer and reader every 64 KiB;
     * a larger one lets them run longer each.  Best effort: the system may
     * refuse (a lower limit), and the pipe stays as it was. */
    if (stat_ok && S_ISFIFO(sb.st_mode) && fcntl(in->fd, F_GETPIPE_SZ) < (int)PIPE_SIZE)
        (void)fcntl(in->fd, F_SETPIPE_SZ, (int)PIPE_SIZE);
#endif
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
    if (in->codec != PLAIN && !ring_start(in)) {
        snprintf(err, cap, "cannot start the decompression thread");
        input_close(in);
        return NULL;
    }
    return in;
}

static ssize_t read_plain(input_t *in, unsigned char *buf, size_t cap, char *err, size_t ecap)
{
    if (in->map) {
        /* Copied from the map, whose pages behind go back as they are read. */
        size_t n = in->map_len - in->map_skip - in->map_read;
        if (n == 0)
            return 0;
        if (n > cap)
            n = cap;
        memcpy(buf, in->map + in->map_skip + in->map_read, n);
        in->map_read += n;
        input_release(in, in->map_read);
        return (ssize_t)n;
    }
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

/* What input_read did before there was a thread: one read of the stream. */
static ssize_t decompress(input_t *in, unsigned char *buf, size_t cap, char *err, size_t ecap)
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

/* Fills one block: full, or short and last (end or error).  Gives up
 * early when input_close wants the thread to end (a slow pipe). */
static void fill_block(input_t *in, ring_t *r, block_t *b)
{
    b->len = 0;
    b->last = false;
    b->error[0] = '\0';
    while (b->len < BLOCK_SIZE && !atomic_load(&r->stop)) {
        ssize_t n = decompress(in, b->data + b->len, BLOCK_SIZE - b->len, b->error, sizeof b->error);
        if (n <= 0) {
            b->last = true;
            if (n == 0)
                b->error[0] = '\0';
            break;
        }
        b->len += (size_t)n;
    }
    b->done = in->consumed - (in->raw_len - in->raw_pos);
}

static void *ring_thread(void *arg)
{
    input_t *in = arg;
    ring_t *r = in->ring;
    unsigned tail = 0;
    for (;;) {
        pthread_mutex_lock(&r->lock);
        while (r->count == BLOCKS && !r->stop)
            pthread_cond_wait(&r->emptied, &r->lock);
        bool stop = r->stop;
        pthread_mutex_unlock(&r->lock);
        if (stop)
            return NULL;
        /* The block at tail is free: only this thread touches it now. */
        block_t *b = &r->blocks[tail];
        fill_block(in, r, b);
        pthread_mutex_lock(&r->lock);
        r->count++;
        pthread_cond_signal(&r->filled);
        pthread_mutex_unlock(&r->lock);
        if (b->last)
            return NULL;
        tail = (tail + 1) % BLOCKS;
    }
}

static bool ring_start(input_t *in)
{
    ring_t *r = calloc(1, sizeof *r);
    if (!r || !(r->blocks = malloc(BLOCKS * sizeof *r->blocks))) {
        free(r);
        return false;
    }
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->filled, NULL);
    pthread_cond_init(&r->emptied, NULL);
    in->ring = r;
    if (pthread_create(&r->thread, NULL, ring_thread, in) != 0) {
        in->ring = NULL;
        pthread_mutex_destroy(&r->lock);
        pthread_cond_destroy(&r->filled);
        pthread_cond_destroy(&r->emptied);
        free(r->blocks);
        free(r);
        return false;
    }
    return true;
}

static ssize_t ring_read(ring_t *r, unsigned char *buf, size_t cap, char *err, size_t ecap)
{
    if (r->ended)
        return 0;
    pthread_mutex_lock(&r->lock);
    while (r->count == 0)
        pthread_cond_wait(&r->filled, &r->lock);
    pthread_mutex_unlock(&r->lock);
    /* blocks[head] is full and belongs to the reader until released. */
    block_t *b = &r->blocks[r->head];
    r->done = b->done;        /* the file read so far for the bytes handed out */
    size_t n = b->len - r->pos;
    if (n > cap)
        n = cap;
    memcpy(buf, b->data + r->pos, n);
    r->pos += n;
    if (r->pos < b->len)
        return (ssize_t)n;
    /* The block is used up: its error (if any) comes at the next read,
     * after the bytes before the damage. */
    if (b->last) {
        if (n > 0)
            return (ssize_t)n;
        r->ended = true;
        if (b->error[0]) {
            snprintf(err, ecap, "%s", b->error);
            return -1;
        }
        return 0;
    }
    pthread_mutex_lock(&r->lock);
    r->head = (r->head + 1) % BLOCKS;
    r->pos = 0;
    r->count--;
    pthread_cond_signal(&r->emptied);
    pthread_mutex_unlock(&r->lock);
    return n > 0 ? (ssize_t)n : ring_read(r, buf, cap, err, ecap);
}

ssize_t input_read(input_t *in, void *buf, size_t cap, char *err, size_t ecap)
{
    if (in->ring)
        return ring_read(in->ring, buf, cap, err, ecap);
    return decompress(in, buf, cap, err, ecap);
}

void input_position(const input_t *in, uint64_t *done, uint64_t *size)
{
    if (in->ring) {
        *done = in->ring->done;     /* the reader's own copy: no lock needed */
    } else {
        *done = in->consumed - (in->raw_len - in->raw_pos);
    }
    *size = in->size;
}

const char *input_map(input_t *in, size_t *len)
{
    struct stat sb;
    if (in->codec != PLAIN || in->map || in->raw_pos != 0 || fstat(in->fd, &sb) != 0 || !S_ISREG(sb.st_mode))
        return NULL;
    /* The size now, not at input_open(): what the map holds is the stream. */
    uint64_t size = (uint64_t)sb.st_size;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0 || size <= in->start || size - in->start > SIZE_MAX / 2)
        return NULL;
    uint64_t from = in->start - in->start % (uint64_t)page;
    size_t skip = (size_t)(in->start - from), length = (size_t)(size - from);
    void *p = mmap(NULL, length, PROT_READ, MAP_PRIVATE, in->fd, (off_t)from);
    if (p == MAP_FAILED)
        return NULL;
    (void)posix_madvise(p, length, POSIX_MADV_SEQUENTIAL); /* read-ahead, as read() has */
    in->map = p;
    in->map_len = length;
    in->map_skip = skip;
    in->map_page = (size_t)page;
    in->map_released = 0;
    in->map_read = length - skip; /* all of it is the caller's */
    in->size = size;
    in->consumed = 0;
    in->raw_pos = in->raw_len = 0; /* the sniffed bytes are in the map too */
    in->raw_eof = true;
    *len = length - skip;
    return in->map + skip;
}

void input_read_from(input_t *in, size_t at)
{
    if (!in->map)
        return;
    size_t len = in->map_len - in->map_skip;
    in->map_read = at < len ? at : len;
}

void input_release(input_t *in, size_t upto)
{
    if (!in->map)
        return;
    size_t end = in->map_skip + upto;
    if (end > in->map_len)
        end = in->map_len;
    in->consumed = end - in->map_skip;
    end -= end % in->map_page; /* whole pages only */
    if (end > in->map_released && munmap(in->map + in->map_released, end - in->map_released) == 0)
        in->map_released = end;
}

bool input_is_compressed(const input_t *in)
{
    return in->codec != PLAIN;
}

void input_close(input_t *in)
{
    if (!in)
        return;
    ring_t *r = in->ring;
    if (r) {
        pthread_mutex_lock(&r->lock);
        r->stop = true;
        pthread_cond_signal(&r->emptied);
        pthread_mutex_unlock(&r->lock);
        pthread_join(r->thread, NULL);
        pthread_mutex_destroy(&r->lock);
        pthread_cond_destroy(&r->filled);
        pthread_cond_destroy(&r->emptied);
        free(r->blocks);
        free(r);
    }
    if (in->codec == GZIP)
        inflateEnd(&in->z);
    ZSTD_freeDStream(in->zs);
    if (in->map && in->map_released < in->map_len)
        munmap(in->map + in->map_released, in->map_len - in->map_released);
    if (in->fd > 0)
        close(in->fd);
    free(in->raw);
    free(in);
}
