/* test_input.c: unit tests for src/input.c: plain, gzip and zstd files
 * read through input_open/input_read/input_close, with the fixtures
 * written at run time (with zlib and libzstd) into a temporary directory:
 *
 *   - every codec gives back the bytes written, read with buffers of
 *     several sizes (1 byte up to more than the whole file), for files
 *     larger than the reading buffer, gzip files of several members and
 *     zstd files of several frames (read as one stream, as gzip -d and
 *     zstd -d do);
 *   - a truncated or corrupt compressed file ends in -1 with a message,
 *     after the bytes that could be decompressed (a prefix of the data);
 *   - a missing file or a directory gives NULL with a message;
 *   - input_position reports the bytes of the file consumed and its size;
 *     input_is_compressed says which inputs are compressed.
 *
 * Standard input is not tested here. */
#include <check.h>
#include <dirent.h>
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

#include "input.h"
#include "testutil.h"

#define WHERE __FILE__, __LINE__

/* ---- fixtures ---- */

static char tmpdir[256];

/* A fresh directory for each test case.  These are unchecked fixtures:
 * they run in the parent process, so that the directory goes away even
 * when the test (in its own process, unless CK_FORK=no) fails. */
static void setup(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/test_input.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "test_input: mkdtemp(%s): %s\n", tmpdir, strerror(errno));
        exit(EXIT_FAILURE);
    }
}

/* Removes the files in the directory (the tests make no subdirectories), then it. */
static void teardown(void)
{
    DIR *d = opendir(tmpdir);
    if (d) {
        struct dirent *e;
        char p[600];
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(p, sizeof p, "%s/%s", tmpdir, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(tmpdir);
}

static const char *path_of(const char *name)
{
    static char p[300];
    snprintf(p, sizeof p, "%s/%s", tmpdir, name);
    return p;
}

static const char *write_file(const char *name, const void *data, size_t len)
{
    const char *p = path_of(name);
    FILE *f = fopen(p, "wb");
    CHECK(f != NULL, "fopen(%s): %s", p, strerror(errno));
    CHECK(len == 0 || fwrite(data, 1, len, f) == len, "fwrite(%s)", p);
    CHECK(fclose(f) == 0, "fclose(%s)", p);
    return p;
}

/* A growable byte buffer. */
typedef struct {
    unsigned char *d;
    size_t len, cap;
} buf_t;

/* Makes room for n more bytes. */
static void buf_reserve(buf_t *b, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        b->d = realloc(b->d, cap);
        CHECK(b->d != NULL, "out of memory");
        b->cap = cap;
    }
}

static void buf_put(buf_t *b, const void *s, size_t n)
{
    buf_reserve(b, n);
    if (n)
        memcpy(b->d + b->len, s, n);
    b->len += n;
}

/* PGN-like text, n bytes, the same for a given seed: compressible, but not
 * so much that a few hundred kilobytes fit in one read of the compressed file. */
static unsigned char *pgn_text(size_t n, uint64_t seed)
{
    static const char *const words[] = { "1.", "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "{a comment}", "Qxd8+",
                                         "O-O", "\n", "[Event \"x\"]\n", "1-0\n\n", "Kh1", "c5", "(2. d4)" };
    unsigned char *t = malloc(n ? n : 1);
    CHECK(t != NULL, "out of memory");
    size_t at = 0;
    while (at < n) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        const char *w = words[(seed >> 33) % 16];
        char num[24];
        if ((seed >> 40) % 5 == 0) {
            snprintf(num, sizeof num, "%u.", (unsigned)((seed >> 20) % 1000));
            w = num;
        } else if ((seed >> 40) % 5 == 1) {
            snprintf(num, sizeof num, "{%05x}", (unsigned)((seed >> 12) & 0xFFFFF));
            w = num;
        }
        for (size_t i = 0; w[i] && at < n; i++)
            t[at++] = (unsigned char)w[i];
        if (at < n)
            t[at++] = ' ';
    }
    return t;
}

/* One gzip member of data[0..n) appended to out. */
static void gzip_member(buf_t *out, const unsigned char *data, size_t n, int level)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    CHECK(deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK, "deflateInit2");
    uLong bound = deflateBound(&z, (uLong)n);
    size_t at = out->len;
    buf_reserve(out, bound);
    z.next_in = (Bytef *)(uintptr_t)data;
    z.avail_in = (uInt)n;
    z.next_out = out->d + at;
    z.avail_out = (uInt)bound;
    CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END, "deflate did not finish");
    out->len = at + z.total_out;
    deflateEnd(&z);
}

/* One zstd frame of data[0..n) appended to out, with or without a checksum. */
static void zstd_frame(buf_t *out, const unsigned char *data, size_t n, bool checksum)
{
    size_t bound = ZSTD_compressBound(n);
    size_t at = out->len;
    buf_reserve(out, bound);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    CHECK(cc != NULL, "ZSTD_createCCtx");
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 3);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, checksum ? 1 : 0);
    size_t k = ZSTD_compress2(cc, out->d + at, bound, data, n);
    CHECK(!ZSTD_isError(k), "ZSTD_compress2: %s", ZSTD_getErrorName(k));
    out->len = at + k;
    ZSTD_freeCCtx(cc);
}

/* ---- reading ---- */

typedef struct {
    buf_t data;        /* every byte read */
    ssize_t last;      /* the last input_read return value */
    char err[256];     /* its message when -1 */
    bool compressed;
    uint64_t size;     /* from input_position */
} got_t;

/* Reads path to the end (0) or an error (-1) with reads of cap bytes;
 * checks on the way that input_position never goes back nor past the size
 * and, for a plain file, equals the bytes delivered. */
static got_t read_all_at(const char *file, int line, const char *path, size_t cap)
{
    got_t g;
    memset(&g, 0, sizeof g);
    char err[256] = "";
    input_t *in = input_open(path, err, sizeof err);
    CHECK(in != NULL, "%s:%d: input_open(%s) failed: %s", file, line, path, err);
    g.compressed = input_is_compressed(in);
    unsigned char *buf = malloc(cap);
    CHECK(buf != NULL, "out of memory");
    uint64_t done = 0, size = 0, before = 0;
    input_position(in, &done, &size);
    g.size = size;
    for (unsigned long reads = 0;; reads++) {
        CHECK(reads < 100000000UL, "%s:%d: input_read never ends", file, line);
        memset(g.err, 0, sizeof g.err);
        ssize_t n = input_read(in, buf, cap, g.err, sizeof g.err);
        g.last = n;
        CHECK(n >= -1 && n <= (ssize_t)cap, "%s:%d: input_read(cap %zu) returned %zd", file, line, cap, n);
        if (n <= 0)
            break;
        buf_put(&g.data, buf, (size_t)n);
        before = done;
        input_position(in, &done, &size);
        CHECK(done >= before && size == g.size && (size == 0 || done <= size),
              "%s:%d: after %zu bytes: position %llu (was %llu), size %llu (was %llu)", file, line, g.data.len,
              (unsigned long long)done, (unsigned long long)before, (unsigned long long)size,
              (unsigned long long)g.size);
        if (!g.compressed)
            CHECK(done == g.data.len, "%s:%d: plain file: position %llu after %zu bytes read", file, line,
                  (unsigned long long)done, g.data.len);
    }
    if (g.last == 0) {
        input_position(in, &done, &size);
        CHECK(done == size, "%s:%d: at the end: position %llu, size %llu", file, line, (unsigned long long)done,
              (unsigned long long)size);
    }
    free(buf);
    input_close(in);
    return g;
}
#define READ_ALL(path, cap) read_all_at(WHERE, (path), (cap))

/* Fails unless path reads back as want[0..n) with every buffer size. */
static void reads_back_at(const char *file, int line, const char *path, const unsigned char *want, size_t n,
                          bool compressed, uint64_t file_size)
{
    static const size_t caps[] = { 1, 7, 4096, 65536, 300000, 4u << 20 };
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        got_t g = read_all_at(file, line, path, caps[i]);
        CHECK(g.last == 0, "%s:%d: %s, reads of %zu: input_read returned -1 after %zu bytes: %s", file, line, path,
              caps[i], g.data.len, g.err);
        CHECK(g.compressed == compressed, "%s:%d: %s: input_is_compressed is %d", file, line, path, (int)g.compressed);
        CHECK(g.size == file_size, "%s:%d: %s: size %llu, the file has %llu bytes", file, line, path,
              (unsigned long long)g.size, (unsigned long long)file_size);
        size_t k = 0;
        while (k < g.data.len && k < n && g.data.d[k] == want[k])
            k++;
        CHECK(g.data.len == n && k == n, "%s:%d: %s, reads of %zu: %zu bytes read, %zu expected; first difference at %zu",
              file, line, path, caps[i], g.data.len, n, k);
        free(g.data.d);
    }
}
#define READS_BACK(path, want, n, compressed, size) reads_back_at(WHERE, (path), (want), (n), (compressed), (size))

/* ---- plain ---- */

START_TEST(plain_file)
{
    size_t n = 700000; /* more than one read of the input's buffer */
    unsigned char *t = pgn_text(n, 1);
    const char *p = write_file("plain.pgn", t, n);
    READS_BACK(p, t, n, false, n);
    free(t);
}
END_TEST

START_TEST(plain_small_files)
{
    /* Shorter than the magic numbers, empty, and a start that looks like
     * a magic number but is not one. */
    static const struct {
        const char *name, *data;
        size_t len;
    } files[] = {
        { "empty.pgn", "", 0 },
        { "one.pgn", "x", 1 },
        { "three.pgn", "1. ", 3 },
        { "notgz.pgn", "\x1f" "abc", 4 },
        { "notzstd.pgn", "\x28\xb5\x2f" "x [Event]", 12 },
        { "zstd3.pgn", "\x28\xb5\x2f", 3 },
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        const char *p = write_file(files[i].name, files[i].data, files[i].len);
        READS_BACK(p, (const unsigned char *)files[i].data, files[i].len, false, files[i].len);
    }
}
END_TEST

/* ---- gzip ---- */

START_TEST(gzip_members)
{
    size_t n = 900000;
    unsigned char *t = pgn_text(n, 2);
    buf_t z = { 0 };
    /* Four members of uneven sizes, one of them empty, levels differ. */
    gzip_member(&z, t, 1000, 9);
    gzip_member(&z, t + 1000, 0, 6);
    gzip_member(&z, t + 1000, 500000, 1);
    gzip_member(&z, t + 501000, n - 501000, 6);
    CHECK(z.len > (256u << 10), "test bug: the gzip file (%zu bytes) should be larger than one read", z.len);
    const char *p = write_file("multi.pgn.gz", z.d, z.len);
    READS_BACK(p, t, n, true, z.len);
    /* A single small member. */
    buf_t one = { 0 };
    gzip_member(&one, (const unsigned char *)"1. e4 *\n", 8, 6);
    p = write_file("one.pgn.gz", one.d, one.len);
    READS_BACK(p, (const unsigned char *)"1. e4 *\n", 8, true, one.len);
    /* An empty member only. */
    buf_t none = { 0 };
    gzip_member(&none, (const unsigned char *)"", 0, 6);
    p = write_file("empty.pgn.gz", none.d, none.len);
    READS_BACK(p, (const unsigned char *)"", 0, true, none.len);
    free(none.d);
    free(one.d);
    free(z.d);
    free(t);
}
END_TEST

/* Reading path with reads of cap bytes must end in -1 with a message
 * (containing words, if not NULL); the bytes read before must be a prefix
 * of want[0..n) (unless want is NULL: corrupt data may decode to anything). */
static void fails_after_prefix_at(const char *file, int line, const char *path, const unsigned char *want,
                                  size_t n, size_t cap, const char *words)
{
    got_t g = read_all_at(file, line, path, cap);
    CHECK(g.last == -1, "%s:%d: %s, reads of %zu: expected -1, got %zd after %zu bytes", file, line, path, cap,
          g.last, g.data.len);
    CHECK(g.err[0] != '\0', "%s:%d: %s: -1 without a message", file, line, path);
    CHECK(!words || strstr(g.err, words) != NULL, "%s:%d: %s: the message \"%s\" does not say \"%s\"", file, line,
          path, g.err, words);
    CHECK(!want || (g.data.len <= n && (g.data.len == 0 || memcmp(g.data.d, want, g.data.len) == 0)),
          "%s:%d: %s: the %zu bytes read before the error are not the start of the data", file, line, path,
          g.data.len);
    free(g.data.d);
}
#define FAILS_AFTER_PREFIX(path, want, n, cap, words) fails_after_prefix_at(WHERE, (path), (want), (n), (cap), (words))

START_TEST(gzip_truncated)
{
    size_t n = 400000;
    unsigned char *t = pgn_text(n, 3);
    buf_t z = { 0 };
    gzip_member(&z, t, n / 2, 6);
    size_t first = z.len;
    gzip_member(&z, t + n / 2, n - n / 2, 6);
    /* Cut: in the header, in the middle of the data, in the trailer, in
     * the second member's header. */
    const size_t cuts[] = { 5, z.len / 2, z.len - 4, z.len - 1, first + 3 };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "cut%zu.pgn.gz", i);
        const char *p = write_file(name, z.d, cuts[i]);
        FAILS_AFTER_PREFIX(p, t, n, 65536, "truncated");
        FAILS_AFTER_PREFIX(p, t, n, 7, "truncated");
    }
    /* Only the magic number. */
    const char *p = write_file("magic.pgn.gz", "\x1f\x8b", 2);
    FAILS_AFTER_PREFIX(p, t, n, 4096, NULL);
    free(z.d);
    free(t);
}
END_TEST

START_TEST(gzip_corrupt)
{
    size_t n = 200000;
    unsigned char *t = pgn_text(n, 4);
    buf_t z = { 0 };
    gzip_member(&z, t, n, 6);
    /* A wrong CRC in the trailer: all the data, then the error. */
    z.d[z.len - 8] ^= 0x55;
    const char *p = write_file("crc.pgn.gz", z.d, z.len);
    FAILS_AFTER_PREFIX(p, t, n, 65536, "gzip");
    /* Garbage in the middle of the deflate data. */
    z.d[z.len - 8] ^= 0x55;
    memset(z.d + z.len / 2, 0xFF, 64);
    p = write_file("garbage.pgn.gz", z.d, z.len);
    FAILS_AFTER_PREFIX(p, NULL, n, 65536, "gzip");
    free(z.d);
    free(t);
}
END_TEST

/* ---- zstd ---- */

START_TEST(zstd_frames)
{
    size_t n = 1200000;
    unsigned char *t = pgn_text(n, 5);
    buf_t z = { 0 };
    /* Three frames, with and without checksums, and an empty one. */
    zstd_frame(&z, t, 300000, true);
    zstd_frame(&z, t + 300000, 0, false);
    zstd_frame(&z, t + 300000, 600000, false);
    zstd_frame(&z, t + 900000, n - 900000, true);
    CHECK(z.len > (256u << 10), "test bug: the zstd file (%zu bytes) should be larger than one read", z.len);
    const char *p = write_file("multi.pgn.zst", z.d, z.len);
    READS_BACK(p, t, n, true, z.len);
    buf_t one = { 0 };
    zstd_frame(&one, (const unsigned char *)"1. e4 *\n", 8, false);
    p = write_file("one.pgn.zst", one.d, one.len);
    READS_BACK(p, (const unsigned char *)"1. e4 *\n", 8, true, one.len);
    free(one.d);
    free(z.d);
    free(t);
}
END_TEST

START_TEST(zstd_small_reads)
{
    /* A frame whose last block decompresses to more than one read asks for:
     * the rest must come out of the decoder at the next reads, although
     * all the file has been consumed (not "truncated"). */
    size_t n = 100000;
    unsigned char *t = pgn_text(n, 6);
    buf_t z = { 0 };
    zstd_frame(&z, t, n, false);
    const char *p = write_file("small.pgn.zst", z.d, z.len);
    static const size_t caps[] = { 1, 1000, 65536 };
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        got_t g = READ_ALL(p, caps[i]);
        CHECK(g.last == 0 && g.data.len == n && memcmp(g.data.d, t, n) == 0,
              "reads of %zu bytes: input_read returned %zd after %zu of %zu bytes%s%s", caps[i], g.last, g.data.len,
              n, g.last < 0 ? ": " : "", g.last < 0 ? g.err : "");
        free(g.data.d);
    }
    free(z.d);
    free(t);
}
END_TEST

START_TEST(zstd_truncated)
{
    size_t n = 400000;
    unsigned char *t = pgn_text(n, 7);
    buf_t z = { 0 };
    zstd_frame(&z, t, n / 2, true);
    size_t first = z.len;
    zstd_frame(&z, t + n / 2, n - n / 2, true);
    const size_t cuts[] = { 6, z.len / 2, z.len - 2, z.len - 1, first + 4 };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "cut%zu.pgn.zst", i);
        const char *p = write_file(name, z.d, cuts[i]);
        FAILS_AFTER_PREFIX(p, t, n, 65536, "truncated");
        FAILS_AFTER_PREFIX(p, t, n, 1000, "truncated");
    }
    /* Only the magic number. */
    const char *p = write_file("magic.pgn.zst", "\x28\xb5\x2f\xfd", 4);
    FAILS_AFTER_PREFIX(p, t, n, 4096, NULL);
    /* A corrupt checksum. */
    z.d[z.len - 1] ^= 0x55;
    p = write_file("sum.pgn.zst", z.d, z.len);
    FAILS_AFTER_PREFIX(p, t, n, 65536, "zstd");
    free(z.d);
    free(t);
}
END_TEST

/* ---- opening ---- */

START_TEST(open_errors)
{
    char err[256];
    memset(err, 0, sizeof err);
    const char *p = path_of("no-such-file.pgn");
    input_t *in = input_open(p, err, sizeof err);
    CHECK(in == NULL, "input_open(%s) of a missing file did not fail", p);
    CHECK(strstr(err, strerror(ENOENT)) != NULL, "a missing file: the message \"%s\" does not say \"%s\"", err,
          strerror(ENOENT));
    /* A directory opens but cannot be read. */
    memset(err, 0, sizeof err);
    in = input_open(tmpdir, err, sizeof err);
    CHECK(in == NULL, "input_open(%s) of a directory did not fail", tmpdir);
    CHECK(err[0] != '\0', "a directory: no message");
    /* input_close(NULL) is harmless. */
    input_close(NULL);
}
END_TEST

START_TEST(position_and_size)
{
    /* A plain file read in 10-byte steps: the position is what was read. */
    size_t n = 1000;
    unsigned char *t = pgn_text(n, 8);
    const char *p = write_file("pos.pgn", t, n);
    char err[256];
    input_t *in = input_open(p, err, sizeof err);
    CHECK(in != NULL, "input_open: %s", err);
    uint64_t done = 99, size = 99;
    input_position(in, &done, &size);
    CHECK(done == 0 && size == n, "before reading: position %llu size %llu, expected 0 and %zu",
          (unsigned long long)done, (unsigned long long)size, n);
    unsigned char buf[10];
    for (size_t total = 10; total <= n; total += 10) {
        ssize_t k = input_read(in, buf, sizeof buf, err, sizeof err);
        CHECK(k == 10, "input_read returned %zd", k);
        input_position(in, &done, &size);
        CHECK(done == total && size == n, "after %zu bytes: position %llu size %llu", total, (unsigned long long)done,
              (unsigned long long)size);
    }
    CHECK(input_read(in, buf, sizeof buf, err, sizeof err) == 0, "the end");
    input_close(in);

    /* A compressed file: after the first read, some but not all of it (a
     * file larger than one read of the input's buffer); at the end, all. */
    size_t big = 900000;
    unsigned char *bt = pgn_text(big, 9);
    buf_t z = { 0 };
    gzip_member(&z, bt, big, 6);
    p = write_file("pos.pgn.gz", z.d, z.len);
    in = input_open(p, err, sizeof err);
    CHECK(in != NULL, "input_open: %s", err);
    CHECK(input_is_compressed(in), "a gzip file is compressed");
    input_position(in, &done, &size);
    CHECK(done == 0 && size == z.len, "gzip before reading: position %llu size %llu (file %zu)",
          (unsigned long long)done, (unsigned long long)size, z.len);
    CHECK(input_read(in, buf, sizeof buf, err, sizeof err) == 10, "gzip: first read");
    input_position(in, &done, &size);
    CHECK(done > 0 && done < z.len, "gzip: after 10 bytes out, position %llu of %zu", (unsigned long long)done, z.len);
    input_close(in);
    free(z.d);
    free(bt);
    free(t);
}
END_TEST

/* ---- mapped ---- */

START_TEST(mapped_plain_file)
{
    /* The map holds the file; input_read() then says the end, until
     * input_read_from() hands it back; released bytes count as read. */
    size_t n = 300000; /* many pages */
    unsigned char *t = pgn_text(n, 10);
    const char *p = write_file("map.pgn", t, n);
    char err[256];
    input_t *in = input_open(p, err, sizeof err);
    CHECK(in != NULL, "input_open: %s", err);
    size_t len = 0;
    const char *m = input_map(in, &len);
    CHECK(m != NULL && len == n, "input_map: %p, %zu bytes of %zu", (const void *)m, len, n);
    CHECK(memcmp(m, t, n) == 0, "the map is not the file");
    CHECK(input_map(in, &len) == NULL, "a second input_map");
    unsigned char buf[4096];
    CHECK(input_read(in, buf, sizeof buf, err, sizeof err) == 0, "input_read after input_map is the end");
    uint64_t done = 99, size = 0;
    input_position(in, &done, &size);
    CHECK(done == 0 && size == n, "mapped, nothing released: position %llu size %llu", (unsigned long long)done,
          (unsigned long long)size);
    input_release(in, 100001);
    input_position(in, &done, &size);
    CHECK(done == 100001, "after releasing 100001 bytes: position %llu", (unsigned long long)done);
    /* What is not released is still there. */
    CHECK(memcmp(m + 100001, t + 100001, n - 100001) == 0, "the map after a release");
    input_read_from(in, 123457);
    buf_t got = { 0 };
    ssize_t k;
    while ((k = input_read(in, buf, sizeof buf, err, sizeof err)) > 0) {
        buf_put(&got, buf, (size_t)k);
        input_position(in, &done, &size);
        CHECK(done == 123457 + got.len, "reading from the map: position %llu after %zu bytes",
              (unsigned long long)done, got.len);
    }
    CHECK(k == 0 && got.len == n - 123457 && memcmp(got.d, t + 123457, got.len) == 0,
          "input_read_from(123457): %zd, %zu bytes, expected %zu", k, got.len, n - 123457);
    input_close(in);
    free(got.d);
    free(t);
}
END_TEST

START_TEST(mapped_from_offset)
{
    /* Standard input left inside a file (a shell's `{ head; prog; } <f`):
     * the map starts where the stream does, inside a page. */
    size_t n = 20000, at = 4097 + 1000;
    unsigned char *t = pgn_text(n, 11);
    const char *p = write_file("offset.pgn", t, n);
    int saved = dup(0);
    int fd = open(p, O_RDONLY);
    CHECK(saved >= 0 && fd >= 0 && dup2(fd, 0) == 0 && lseek(0, (off_t)at, SEEK_SET) == (off_t)at,
          "standard input from %s at %zu", p, at);
    close(fd);
    char err[256];
    input_t *in = input_open("-", err, sizeof err);
    CHECK(in != NULL, "input_open(-): %s", err);
    size_t len = 0;
    const char *m = input_map(in, &len);
    CHECK(m != NULL && len == n - at && memcmp(m, t + at, len) == 0, "input_map from offset %zu: %zu bytes", at,
          len);
    input_close(in);
    CHECK(dup2(saved, 0) == 0, "standard input back");
    close(saved);
    free(t);
}
END_TEST

START_TEST(mapped_refused)
{
    /* Compressed, empty, or already read: no map, and reading goes on. */
    char err[256];
    size_t len = 99;
    size_t n = 5000;
    unsigned char *t = pgn_text(n, 12);
    buf_t z = { 0 };
    gzip_member(&z, t, n, 6);
    const char *names[] = { "refused.pgn.gz", "refused-empty.pgn", "refused-read.pgn" };
    const void *data[] = { z.d, "", t };
    size_t lens[] = { z.len, 0, n };
    for (int i = 0; i < 3; i++) {
        const char *p = write_file(names[i], data[i], lens[i]);
        input_t *in = input_open(p, err, sizeof err);
        CHECK(in != NULL, "input_open(%s): %s", p, err);
        unsigned char buf[16];
        ssize_t first = i == 2 ? input_read(in, buf, sizeof buf, err, sizeof err) : 0;
        CHECK(input_map(in, &len) == NULL, "%s: mapped", names[i]);
        if (i != 1) {
            ssize_t k = input_read(in, buf, sizeof buf, err, sizeof err);
            CHECK(k == 16 && memcmp(buf, t + (first > 0 ? first : 0), 16) == 0, "%s: reading after a refused map",
                  names[i]);
        }
        input_close(in);
    }
    free(z.d);
    free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("input");
    const struct {
        const char *name;
        const TTest *test;
    } cases[] = {
#define CASE(fn) { #fn, fn }
        CASE(plain_file), CASE(plain_small_files), CASE(gzip_members), CASE(gzip_truncated), CASE(gzip_corrupt),
        CASE(zstd_frames), CASE(zstd_small_reads), CASE(zstd_truncated), CASE(open_errors), CASE(position_and_size),
        CASE(mapped_plain_file), CASE(mapped_from_offset), CASE(mapped_refused),
#undef CASE
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TCase *tc = tcase_create(cases[i].name);
        tcase_add_unchecked_fixture(tc, setup, teardown);
        tcase_add_test(tc, cases[i].test);
        tcase_set_timeout(tc, 300);
        suite_add_tcase(s, tc);
    }
    return tu_run(s);
}
