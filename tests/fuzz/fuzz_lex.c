/* fuzz_lex: the tokenizer, fed in random chunk sizes.
 *
 * Invariants (lex.h): the token stream does not depend on where the
 * chunks were cut (kinds, positions, text, values, flags all equal to a
 * one-chunk reading); tokens come in stream order without overlap, inside
 * the stream; kept text and values respect the LEX_MAX_* caps; the stream
 * ends with TOK_EOF and stays ended. */
#include "fuzz.h"
#include "lex.h"

typedef struct {
    strbuf_t out;
    uint64_t last_end, count;
} lexlog_t;

static void log_token(lexlog_t *l, const lex_token_t *t, uint64_t total)
{
    FUZZ_CHECK(t->kind > TOK_EOF && t->kind <= TOK_BAD, "kind %d", (int)t->kind);
    FUZZ_CHECK(t->offset <= t->end && t->end <= total, "token %llu-%llu of %llu", (unsigned long long)t->offset,
               (unsigned long long)t->end, (unsigned long long)total);
    FUZZ_CHECK(t->offset >= l->last_end, "token at %llu overlaps the previous one, ending at %llu",
               (unsigned long long)t->offset, (unsigned long long)l->last_end);
    FUZZ_CHECK(t->line >= 1 && t->col >= 1, "position %llu:%u", (unsigned long long)t->line, (unsigned)t->col);
    l->last_end = t->end;
    l->count++;
    fuzz_printf(&l->out, "%d %llu-%llu %llu:%u t%d u%d n%d", (int)t->kind, (unsigned long long)t->offset,
                (unsigned long long)t->end, (unsigned long long)t->line, (unsigned)t->col, (int)t->truncated,
                (int)t->unterminated, t->nag);
    if (t->text) {
        size_t cap = t->kind == TOK_TAG ? LEX_MAX_NAME : LEX_MAX_SYMBOL;
        FUZZ_CHECK(t->len <= cap, "text of %zu bytes (cap %zu)", t->len, cap);
        fuzz_printf(&l->out, " [%zu]", t->len);
        fuzz_put(&l->out, t->text, t->len);
    }
    if (t->value) {
        FUZZ_CHECK(t->kind == TOK_TAG, "a value on kind %d", (int)t->kind);
        FUZZ_CHECK(t->value_len <= LEX_MAX_VALUE, "value of %zu bytes", t->value_len);
        fuzz_printf(&l->out, " = [%zu]", t->value_len);
        fuzz_put(&l->out, t->value, t->value_len);
    }
    if (t->kind == TOK_TAG)
        FUZZ_CHECK(t->text && t->value, "tag without name or value");
    if (t->kind == TOK_NAG)
        FUZZ_CHECK(t->nag >= 0 && t->nag <= 255, "nag %d", t->nag);
    fuzz_put(&l->out, "\n", 1);
}

/* Lexes data in chunks drawn from *seed (NULL: one chunk). */
static void lex_all(const uint8_t *data, size_t size, uint64_t *seed, lexlog_t *l)
{
    lexer_t *lx = lex_new();
    if (!lx)
        abort();
    lex_token_t t;
    size_t pos = 0;
    while (pos < size) {
        size_t n = seed ? fuzz_chunk(seed, size - pos) : size - pos;
        char *chunk = fuzz_dup(data + pos, n);
        lex_feed(lx, chunk, n);
        while (lex_next(lx, &t) != TOK_MORE) {
            FUZZ_CHECK(t.kind != TOK_EOF, "TOK_EOF before lex_finish()");
            log_token(l, &t, size);
        }
        /* The lexer must not look at a chunk it has let go of. */
        memset(chunk, 0xA5, n);
        free(chunk);
        pos += n;
    }
    lex_finish(lx);
    while (lex_next(lx, &t) != TOK_EOF) {
        FUZZ_CHECK(t.kind != TOK_MORE, "TOK_MORE after lex_finish()");
        log_token(l, &t, size);
        FUZZ_CHECK(l->count <= 2 * (uint64_t)size + 2, "more tokens than bytes");
    }
    FUZZ_CHECK(lex_next(lx, &t) == TOK_EOF, "no TOK_EOF after TOK_EOF");
    lex_free(lx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t seed = fuzz_hash(data, size);
    lexlog_t whole = { 0 }, cut = { 0 };
    lex_all(data, size, NULL, &whole);
    lex_all(data, size, &seed, &cut);
    if (whole.out.len != cut.out.len || (whole.out.len && memcmp(whole.out.data, cut.out.data, whole.out.len) != 0)) {
        size_t i = 0;
        while (i < whole.out.len && i < cut.out.len && whole.out.data[i] == cut.out.data[i])
            i++;
        size_t from = i > 200 ? i - 200 : 0;
        fprintf(stderr, "one chunk:\n%.*s\nchunked:\n%.*s\n", (int)(i - from + 200 > whole.out.len - from ? whole.out.len - from : i - from + 200),
                whole.out.data + from, (int)(i - from + 200 > cut.out.len - from ? cut.out.len - from : i - from + 200),
                cut.out.data + from);
        FUZZ_CHECK(false, "the tokens depend on the chunking (first difference at byte %zu of the dump)", i);
    }
    strbuf_free(&whole.out);
    strbuf_free(&cut.out);
    return 0;
}
