/* fuzz_reason: reason texts, read alone and through the reader.
 *
 * Input: byte 0 says where the text goes (bits 0-1: the Termination tag,
 * the TerminationDetails tag, the last move's comment, or all three) and
 * which result is recorded (bits 2-3: 1-0, 0-1, 1/2-1/2, *); the rest is
 * the text (a tag value loses its quotes, backslashes and line ends).
 *
 * Invariants: reason_parse() stays in the text it is given (ASan), names a
 * claim and a site in range, a winner of -1, 0 or 1, and a sentence and a
 * user name inside the text; a comment is read only as a sentence the table
 * knows (rank 1 or more); the same text parses the same way twice, and
 * a tag value the same way through reason_parse_tag()'s memo as alone.  Through
 * the reader, in a short game (Fool's mate, or 1. e4 e5): every reason has
 * its text NUL-terminated after text_len bytes, a claim, a check and a source in range, a
 * position of line 1.. and column 1.., and a message; the game's reasons
 * are the same (texts, positions, claims, checks) whether the input comes
 * whole or in random chunks; report_json() of the record is one line. */
#include "fuzz.h"
#include "reason.h"

static const char *const results[4] = { "1-0", "0-1", "1/2-1/2", "*" };

/* The game: tags, moves, the comment, the marker. */
static size_t build(char *o, size_t cap, unsigned where, const char *res, const char *text, size_t n)
{
    char tagtext[512], comment[600];
    size_t t = 0, c = 0;
    for (size_t i = 0; i < n && t < sizeof tagtext - 1; i++) {
        char ch = text[i];
        if (ch != '"' && ch != '\\' && ch != '\n' && ch != '\r' && ch != ']')
            tagtext[t++] = ch;
    }
    tagtext[t] = '\0';
    for (size_t i = 0; i < n && c < sizeof comment - 1; i++)
        if (text[i] != '}')
            comment[c++] = text[i];
    comment[c] = '\0';
    int k = snprintf(o, cap, "[White \"ann\"]\n[Black \"bob\"]\n[Result \"%s\"]\n", res);
    if ((where & 3) == 0 || (where & 3) == 3)
        k += snprintf(o + k, cap - (size_t)k, "[Termination \"%s\"]\n", tagtext);
    if ((where & 3) == 1 || (where & 3) == 3)
        k += snprintf(o + k, cap - (size_t)k, "[TerminationDetails \"%s\"]\n", tagtext);
    k += snprintf(o + k, cap - (size_t)k, "\n%s", where & 16 ? "1. e4 e5" : "1. f3 e5 2. g4 Qh4#");
    if ((where & 3) >= 2)
        k += snprintf(o + k, cap - (size_t)k, " {%s}", comment);
    k += snprintf(o + k, cap - (size_t)k, " %s\n", res);
    return (size_t)k;
}

/* One game read from pgn[0..n), in chunks from the seed s (0: whole). */
typedef struct {
    size_t nreasons;
    char text[ARB_MAX_REASONS][200];
    uint64_t line[ARB_MAX_REASONS];
    uint32_t col[ARB_MAX_REASONS];
    int claim[ARB_MAX_REASONS], check[ARB_MAX_REASONS];
} seen_t;

static void read_game(const char *pgn, size_t n, uint64_t s, seen_t *out)
{
    arb_reader *r = arb_reader_new(NULL);
    FUZZ_CHECK(r != NULL, "out of memory");
    const arb_game *g = NULL;
    memset(out, 0, sizeof *out);
    size_t at = 0;
    for (;;) {
        size_t k = n - at;
        if (s && k)
            k = fuzz_chunk(&s, k);
        if (k) {
            arb_reader_feed(r, pgn + at, k);
            at += k;
        } else {
            arb_reader_finish(r);
        }
        while ((g = arb_reader_next(r, NULL)) != NULL) {
            if (out->nreasons == 0 && g->nreasons) {
                out->nreasons = g->nreasons;
                for (size_t i = 0; i < g->nreasons; i++) {
                    const arb_reason *e = &g->reasons[i];
                    FUZZ_CHECK(e->text && e->text[e->text_len] == '\0', "text of %zu bytes not terminated", e->text_len);
                    FUZZ_CHECK((unsigned)e->claim < ARB_CLAIM_COUNT && (unsigned)e->check < ARB_CHECK_COUNT &&
                                   (unsigned)e->from <= ARB_FROM_COMMENT,
                               "claim %d check %d from %d", (int)e->claim, (int)e->check, (int)e->from);
                    FUZZ_CHECK(e->line >= 1 && e->col >= 1, "position %llu:%u", (unsigned long long)e->line,
                               (unsigned)e->col);
                    FUZZ_CHECK(e->winner >= -1 && e->winner <= 1 && e->message, "winner %d", e->winner);
                    FUZZ_CHECK(i > 0 || !e->disagrees, "the first text disagrees with itself");
                    snprintf(out->text[i], sizeof out->text[i], "%s", e->text);
                    out->line[i] = e->line;
                    out->col[i] = e->col;
                    out->claim[i] = (int)e->claim;
                    out->check[i] = (int)e->check;
                }
                strbuf_t b = { 0 };
                report_json(&b, g, "f.pgn");
                FUZZ_CHECK(b.len > 0 && memchr(b.data, '\n', b.len) == b.data + b.len - 1, "JSON is one line");
                strbuf_clear(&b);
                report_check(&b, g, "f.pgn", false, &(report_counts_t){ 0, 0 });
                strbuf_free(&b);
            }
        }
        if (k == 0)
            break;
    }
    arb_reader_free(r);
}

static bool same_parse(bool ok, const reason_parsed_t *p, bool ok2, const reason_parsed_t *q)
{
    return ok == ok2 && (!ok || (p->claim == q->claim && p->winner == q->winner && p->implies == q->implies &&
                                 p->site == q->site && p->tablebase == q->tablebase && p->rank == q->rank &&
                                 p->start == q->start && p->len == q->len && p->user_start == q->user_start &&
                                 p->user_len == q->user_len));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    unsigned where = data[0];
    const char *res = results[(where >> 2) & 3];
    const char *text = (const char *)data + 1;
    size_t n = size - 1;

    /* Alone: from each source, twice. */
    for (int f = ARB_FROM_TERMINATION; f <= ARB_FROM_COMMENT; f++) {
        reason_parsed_t p, q;
        bool ok = reason_parse(text, n, (arb_reason_from)f, res, &p);
        bool again = reason_parse(text, n, (arb_reason_from)f, res, &q);
        FUZZ_CHECK(same_parse(ok, &p, again, &q), "not the same twice");
        if (f != ARB_FROM_COMMENT) {
            /* Through a tag memo: under each result, twice, between the
             * lichess values; always the reading alone. */
            reason_memo_t m = { 0 };
            static const char *const usual[2] = { "Normal", "Time forfeit" };
            for (int round = 0; round < 2; round++)
                for (int k = 0; k < 4; k++) {
                    reason_parsed_t u, w;
                    bool oku = reason_parse_tag(&m, usual[k & 1], strlen(usual[k & 1]), (arb_reason_from)f, results[k], &u);
                    FUZZ_CHECK(same_parse(oku, &u, reason_parse(usual[k & 1], strlen(usual[k & 1]), (arb_reason_from)f,
                                                                results[k], &w), &w),
                               "memo: \"%s\" read otherwise", usual[k & 1]);
                    bool okm = reason_parse_tag(&m, text, n, (arb_reason_from)f, results[k], &u);
                    bool okp = reason_parse(text, n, (arb_reason_from)f, results[k], &w);
                    FUZZ_CHECK(same_parse(okm, &u, okp, &w), "memo: read otherwise under %s", results[k]);
                }
        }
        if (!ok)
            continue;
        FUZZ_CHECK((unsigned)p.claim < ARB_CLAIM_COUNT && p.winner >= -1 && p.winner <= 1 &&
                       p.rank >= 0 && p.rank <= 2 && p.site <= SITE_LICHESS && p.implies <= IMPLIES_DECISIVE,
                   "fields out of range");
        FUZZ_CHECK(p.len > 0 && p.start + p.len <= n, "sentence %zu+%zu of %zu", p.start, p.len, n);
        FUZZ_CHECK(p.user_start + p.user_len <= n, "user %zu+%zu of %zu", p.user_start, p.user_len, n);
        FUZZ_CHECK(f != ARB_FROM_COMMENT || p.rank >= 1, "a comment read as a bare word");
    }

    /* Through the reader, whole and in chunks. */
    static char pgn[8192];
    size_t len = build(pgn, sizeof pgn, where, res, text, n);
    seen_t whole, chunked;
    read_game(pgn, len, 0, &whole);
    read_game(pgn, len, fuzz_hash(data, size), &chunked);
    FUZZ_CHECK(whole.nreasons == chunked.nreasons, "%zu reasons whole, %zu in chunks", whole.nreasons,
               chunked.nreasons);
    for (size_t i = 0; i < whole.nreasons; i++)
        FUZZ_CHECK(strcmp(whole.text[i], chunked.text[i]) == 0 && whole.line[i] == chunked.line[i] &&
                       whole.col[i] == chunked.col[i] && whole.claim[i] == chunked.claim[i] &&
                       whole.check[i] == chunked.check[i],
                   "reason %zu: \"%s\" %llu:%u whole, \"%s\" %llu:%u in chunks", i, whole.text[i],
                   (unsigned long long)whole.line[i], (unsigned)whole.col[i], chunked.text[i],
                   (unsigned long long)chunked.line[i], (unsigned)chunked.col[i]);
    return 0;
}
