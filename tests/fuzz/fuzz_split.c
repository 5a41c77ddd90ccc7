/* fuzz_split: a stream read in two pieces, as pgn-arbiter -j N reads it.
 *
 * Invariant (pgnarbiter.h, arb_reader_set_origin and
 * arb_reader_between_games; rewrite_set_origin; src/parallel.c): when the
 * stream is cut where parallel.c may cut, before a line that is one plain
 * tag pair, and the reader says it is between games there (the reader of
 * the whole stream, fed in chunks that end at the cuts, and that of the
 * first piece), the two pieces (the second read with its origin set) give
 * the same games, field by field (game numbers shifted), and the same
 * --fix output as the whole stream read at once.  (Cutting before any '[' line broke
 * this: a malformed tag line stays in the game under way.) */
#include "fuzz.h"
#include "lex.h"
#include "rewrite.h"

typedef struct {
    strbuf_t out;
    uint64_t base, total;
    rewriter_t *w;
    strbuf_t fixed;
} splitlog_t;

static void log_game(const arb_game *g, void *ctx)
{
    splitlog_t *l = ctx;
    arb_game copy = *g;
    copy.number += l->base;
    fuzz_dump_game(&l->out, &copy, l->total);
    if (l->w)
        rewrite_game(l->w, g, &l->fixed);
}

/* Reads data[from, to) as one piece of a stream that starts at origin
 * (from, line), fed in one chunk, or (ncuts > 0) in chunks that end at
 * each of cuts[0..ncuts), ascending, where between[i] notes whether the
 * reader was then between games.  Returns whether it ended between games
 * (before arb_reader_finish). */
static bool read_piece(const uint8_t *data, size_t from, size_t to, uint64_t line, splitlog_t *l, uint64_t *games,
                       const size_t *cuts, size_t ncuts, bool *between)
{
    arb_reader *r = arb_reader_new(NULL);
    l->w = rewrite_new((rewrite_options_t){ .annotate = true, .truncate = false });
    if (!r || !l->w)
        abort();
    if (from) {
        arb_reader_set_origin(r, from, line);
        /* As src/parallel.c does: the line end before the cut. */
        rewrite_set_origin(l->w, from, from >= 2 && data[from - 2] == '\r' ? "\r\n" : "\n");
    }
    char *chunk = fuzz_dup(data + from, to - from);
    const arb_game *g;
    bool oom = false;
    uint64_t n = 0;
    for (size_t c = 0, at = from; at < to; c++) {
        size_t end = c < ncuts ? cuts[c] : to;
        arb_reader_feed(r, chunk + (at - from), end - at);
        FUZZ_CHECK(rewrite_feed(l->w, chunk + (at - from), end - at) == 0, "out of memory");
        while ((g = arb_reader_next(r, &oom)) != NULL) {
            log_game(g, l);
            n++;
        }
        if (c < ncuts)
            between[c] = arb_reader_between_games(r);
        at = end;
    }
    bool ends_between = arb_reader_between_games(r);
    arb_reader_finish(r);
    while ((g = arb_reader_next(r, &oom)) != NULL) {
        log_game(g, l);
        n++;
    }
    rewrite_finish(l->w, &l->fixed);
    FUZZ_CHECK(!oom, "out of memory");
    free(chunk);
    rewrite_free(l->w);
    l->w = NULL;
    arb_reader_free(r);
    *games = n;
    return ends_between;
}

static bool same(const strbuf_t *a, const strbuf_t *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The first six places where -j N may cut: a plain tag line.  Lines end
     * at \n, \r\n and a lone \r (lex.h). */
    enum { CUTS_MAX = 6 };
    size_t cut[CUTS_MAX] = { 0 };
    uint64_t cut_line[CUTS_MAX];
    bool between[CUTS_MAX];
    size_t ncuts = 0;
    uint64_t line = 1;
    for (size_t k = 1; k < size && ncuts < CUTS_MAX; k++) {
        if (data[k - 1] == '\n' || (data[k - 1] == '\r' && data[k] != '\n'))
            line++;
        if (data[k] != '[' || data[k - 1] != '\n' || !lex_plain_tag_line((const char *)data, k, size))
            continue;
        cut_line[ncuts] = line;
        cut[ncuts++] = k;
    }
    /* The whole stream, fed in chunks that end at the cuts: the reader says
     * at each whether it is between games.  Reading is what a run costs (a
     * game's facts, and the Article 6.9 search for a loss on time), and most
     * cuts fall inside a tag section, where a first piece read only to be
     * told so took two readers in three.  Only the cuts between games are
     * tried. */
    splitlog_t whole = { .total = size };
    uint64_t n;
    read_piece(data, 0, size, 1, &whole, &n, cut, ncuts, between);
    for (size_t c = 0; c < ncuts; c++) {
        if (!between[c])
            continue;
        size_t k = cut[c];
        line = cut_line[c];
        splitlog_t two = { .total = size };
        uint64_t first;
        if (!read_piece(data, 0, k, 1, &two, &first, NULL, 0, NULL)) {
            strbuf_free(&two.out);
            strbuf_free(&two.fixed);
            continue;
        }
        two.base = first;
        read_piece(data, k, size, line, &two, &n, NULL, 0, NULL);
        if (!same(&whole.out, &two.out)) {
            fprintf(stderr, "cut at byte %zu, line %llu\nwhole:\n%.*s\npieces:\n%.*s\n", k, (unsigned long long)line,
                    (int)(whole.out.len > 3000 ? 3000 : whole.out.len), whole.out.data,
                    (int)(two.out.len > 3000 ? 3000 : two.out.len), two.out.data);
            FUZZ_CHECK(false, "the games differ when the stream is read in two pieces");
        }
        if (!same(&whole.fixed, &two.fixed)) {
            fprintf(stderr, "cut at byte %zu\nwhole:\n%.*s\npieces:\n%.*s\n", k,
                    (int)(whole.fixed.len > 3000 ? 3000 : whole.fixed.len), whole.fixed.data,
                    (int)(two.fixed.len > 3000 ? 3000 : two.fixed.len), two.fixed.data);
            FUZZ_CHECK(false, "--fix output differs when the stream is read in two pieces");
        }
        strbuf_free(&two.out);
        strbuf_free(&two.fixed);
    }
    strbuf_free(&whole.out);
    strbuf_free(&whole.fixed);
    return 0;
}
