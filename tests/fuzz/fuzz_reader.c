/* fuzz_reader: the game reader, fed in random chunk sizes.
 *
 * Invariants (pgnarbiter.h): every record is the same, field by field,
 * whether the stream came in one chunk or in many; games are numbered
 * 1, 2, ... in stream order and do not overlap; every span lies in the
 * stream; a record's strings are terminated; facts lie within the plies
 * replayed; the reader never runs out of memory on small inputs. */
#include "fuzz.h"

typedef struct {
    strbuf_t out;
    uint64_t total, games, last_end;
} readlog_t;

static void log_game(const arb_game *g, void *ctx)
{
    readlog_t *l = ctx;
    FUZZ_CHECK(g->number == l->games + 1, "game %llu after game %llu", (unsigned long long)g->number,
               (unsigned long long)l->games);
    FUZZ_CHECK(g->where.offset >= l->last_end, "game %llu starts at %llu, inside the previous game (ends %llu)",
               (unsigned long long)g->number, (unsigned long long)g->where.offset,
               (unsigned long long)l->last_end);
    l->games = g->number;
    l->last_end = g->where.end;
    fuzz_dump_game(&l->out, g, l->total);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t seed = fuzz_hash(data, size);
    arb_options opt = { .allow_null_moves = seed & 2, .policy = seed & 4 ? ARB_RULES_CLAIM : ARB_RULES_FIDE };
    readlog_t whole = { .total = size }, cut = { .total = size };
    fuzz_read(data, size, &opt, NULL, log_game, &whole);
    fuzz_read(data, size, &opt, &seed, log_game, &cut);
    if (whole.out.len != cut.out.len || (whole.out.len && memcmp(whole.out.data, cut.out.data, whole.out.len) != 0)) {
        fprintf(stderr, "one chunk:\n%.*s\nchunked:\n%.*s\n", (int)(whole.out.len > 4000 ? 4000 : whole.out.len),
                whole.out.data, (int)(cut.out.len > 4000 ? 4000 : cut.out.len), cut.out.data);
        FUZZ_CHECK(false, "the games depend on the chunking");
    }
    strbuf_free(&whole.out);
    strbuf_free(&cut.out);
    return 0;
}
