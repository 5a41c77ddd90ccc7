/* fuzz.h: what the fuzz harnesses share.
 *
 * Each harness is one file defining LLVMFuzzerTestOneInput.  Built with
 * clang -fsanitize=fuzzer it is a libFuzzer target (tests/fuzz/run.sh);
 * linked with standalone.c it is a plain program that replays files, so the
 * regression inputs run in `make check`, under ASan and under valgrind, with
 * any compiler.
 *
 * A broken invariant is reported on stderr and abort()s: libFuzzer saves
 * the input as a crash, and the replayer dies with SIGABRT.  assert() is not
 * used because NDEBUG would silence it. */
#ifndef ARB_FUZZ_H
#define ARB_FUZZ_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgnarbiter.h"
#include "report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond, ...)                                                       \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "%s:%d: invariant broken: %s\n  ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                           \
            fputc('\n', stderr);                                                    \
            abort();                                                                \
        }                                                                           \
    } while (0)

/* FNV-1a of the input: the seed of everything a harness varies (chunk
 * sizes, options), so that an input replays the same way everywhere. */
static inline uint64_t fuzz_hash(const uint8_t *d, size_t n)
{
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ d[i]) * 1099511628211u;
    return h | 1;
}

/* xorshift64* */
static inline uint64_t fuzz_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717u;
}

/* The next chunk size: mostly tiny (every token boundary gets cut), some
 * medium, a few large. */
static inline size_t fuzz_chunk(uint64_t *s, size_t left)
{
    uint64_t r = fuzz_rand(s);
    size_t n;
    switch (r & 3) {
    case 0: n = 1; break;
    case 1: n = 1 + (size_t)((r >> 8) % 8); break;
    case 2: n = 1 + (size_t)((r >> 8) % 64); break;
    default: n = 1 + (size_t)((r >> 8) % 4096); break;
    }
    return n < left ? n : left;
}

/* A copy of [p, p + n) in a buffer of exactly n bytes (at least one), so
 * that ASan sees any read past a chunk or of a freed one. */
static inline char *fuzz_dup(const void *p, size_t n)
{
    char *c = malloc(n ? n : 1);
    if (!c)
        abort();
    if (n)
        memcpy(c, p, n);
    return c;
}

static inline void fuzz_put(strbuf_t *b, const char *s, size_t n)
{
    strbuf_append(b, s, n);
    if (b->oom)
        abort();
}

static inline void fuzz_printf(strbuf_t *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        abort();
    fuzz_put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* Appends a NUL-terminated string (or "(null)") with its length. */
static inline void fuzz_cstr(strbuf_t *b, const char *s)
{
    if (!s) {
        fuzz_put(b, "(null)", 6);
        return;
    }
    size_t n = strlen(s);
    fuzz_printf(b, "[%zu]", n);
    fuzz_put(b, s, n);
}

static inline void fuzz_span(strbuf_t *b, const char *name, arb_span s)
{
    fuzz_printf(b, " %s=%llu-%llu@%llu:%u", name, (unsigned long long)s.offset, (unsigned long long)s.end,
                (unsigned long long)s.line, (unsigned)s.col);
}

/* Every field of a game record, so that two readings can be compared, and
 * a sanity check of each while at it (strings NUL-terminated, indexes in
 * range, spans inside the stream of total bytes). */
static inline void fuzz_dump_game(strbuf_t *b, const arb_game *g, uint64_t total)
{
    FUZZ_CHECK(g->status <= ARB_UNSUPPORTED && g->verdict < ARB_VERDICT_COUNT, "status %d verdict %d",
               (int)g->status, (int)g->verdict);
    FUZZ_CHECK(g->where.offset <= g->where.end && g->where.end <= total, "where %llu-%llu of %llu",
               (unsigned long long)g->where.offset, (unsigned long long)g->where.end,
               (unsigned long long)total);
    FUZZ_CHECK((g->status == ARB_OK) == !g->has_error, "status %d has_error %d", (int)g->status,
               (int)g->has_error);
    FUZZ_CHECK((g->status == ARB_OK) == (g->verdict != ARB_UNREADABLE), "status %d verdict %d",
               (int)g->status, (int)g->verdict);
    fuzz_printf(b, "game %llu status %d verdict %d movetext %d plies %u", (unsigned long long)g->number,
                (int)g->status, (int)g->verdict, (int)g->has_movetext, (unsigned)g->plies);
    fuzz_span(b, "where", g->where);
    fuzz_span(b, "result_tag", g->result_tag);
    fuzz_span(b, "marker", g->marker_span);
    fuzz_span(b, "tags_end", g->tags_end);
    fuzz_span(b, "roster_end", g->roster_end);
    fuzz_span(b, "adj_tag", g->adjudication_tag);
    fuzz_span(b, "end_move", g->end_move_span);
    const arb_span *spans[] = { &g->result_tag, &g->marker_span, &g->tags_end, &g->roster_end,
                                &g->adjudication_tag, &g->end_move_span };
    for (size_t i = 0; i < sizeof spans / sizeof spans[0]; i++)
        FUZZ_CHECK(spans[i]->offset <= spans[i]->end && spans[i]->end <= total, "span %zu: %llu-%llu of %llu",
                   i, (unsigned long long)spans[i]->offset, (unsigned long long)spans[i]->end,
                   (unsigned long long)total);
    fuzz_printf(b, "\n tags %zu:", g->ntags);
    for (size_t i = 0; i < g->ntags; i++) {
        const arb_tag *t = &g->tags[i];
        FUZZ_CHECK(t->name[t->name_len] == '\0' && t->value[t->value_len] == '\0', "tag %zu not terminated", i);
        fuzz_printf(b, " [%zu]", t->name_len);
        fuzz_put(b, t->name, t->name_len);
        fuzz_printf(b, "=[%zu]", t->value_len);
        fuzz_put(b, t->value, t->value_len);
    }
    if (g->has_error) {
        FUZZ_CHECK(memchr(g->error.move, 0, sizeof g->error.move) && memchr(g->error.message, 0, sizeof g->error.message),
                   "error text not terminated");
        fuzz_printf(b, "\n error %llu:%u ply %u move ", (unsigned long long)g->error.line, (unsigned)g->error.col,
                    (unsigned)g->error.ply);
        fuzz_cstr(b, g->error.move);
        fuzz_put(b, " message ", 9);
        fuzz_cstr(b, g->error.message);
    }
    fuzz_put(b, "\n result ", 9);
    fuzz_cstr(b, g->result);
    fuzz_put(b, " marker ", 8);
    fuzz_cstr(b, g->marker);
    for (int f = 0; f < ARB_FACT_COUNT; f++) {
        FUZZ_CHECK(g->first[f] >= -1 && (g->first[f] < 0 || (uint32_t)g->first[f] <= g->plies),
                   "fact %d at ply %d of %u", f, (int)g->first[f], (unsigned)g->plies);
        fuzz_printf(b, " f%d=%d:", f, (int)g->first[f]);
        fuzz_cstr(b, g->first_move[f]);
    }
    if (g->has_end) {
        FUZZ_CHECK(g->end_ply >= 0 && (uint32_t)g->end_ply <= g->plies, "end at ply %d of %u", (int)g->end_ply,
                   (unsigned)g->plies);
        fuzz_printf(b, "\n end %d ply %d move ", (int)g->end_reason, (int)g->end_ply);
        fuzz_cstr(b, g->end_move);
    }
    fuzz_put(b, "\n adjudicated ", 14);
    fuzz_cstr(b, g->adjudicated);
    fuzz_put(b, " because ", 9);
    fuzz_cstr(b, g->adjudication);
    fuzz_put(b, "\n", 1);
}

/* Reads the whole of data[0..size) with a fresh reader, fed in chunks
 * drawn from *seed (0: one chunk), each chunk a buffer of its own freed as
 * soon as the reader is done with it.  Calls each(game, ctx) for every game. */
typedef void fuzz_game_fn(const arb_game *g, void *ctx);
static inline void fuzz_read(const uint8_t *data, size_t size, const arb_options *opt, uint64_t *seed,
                             fuzz_game_fn *each, void *ctx)
{
    arb_reader *r = arb_reader_new(opt);
    if (!r)
        abort();
    size_t pos = 0;
    bool oom = false;
    const arb_game *g;
    while (pos < size) {
        size_t n = seed ? fuzz_chunk(seed, size - pos) : size - pos;
        char *chunk = fuzz_dup(data + pos, n);
        arb_reader_feed(r, chunk, n);
        while ((g = arb_reader_next(r, &oom)) != NULL)
            each(g, ctx);
        FUZZ_CHECK(!oom, "reader out of memory");
        free(chunk);
        pos += n;
    }
    arb_reader_finish(r);
    while ((g = arb_reader_next(r, &oom)) != NULL)
        each(g, ctx);
    FUZZ_CHECK(!oom, "reader out of memory");
    /* Exhausted stays exhausted. */
    FUZZ_CHECK(arb_reader_next(r, &oom) == NULL, "a game after the end");
    arb_reader_free(r);
}

#endif
