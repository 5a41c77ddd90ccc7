/* fuzz_fix: the whole pipeline with --fix (rewrite_game), fed in random
 * chunks as pgn-arbiter does.
 *
 * Invariants (rewrite.h, pgn-arbiter(1) --fix):
 *  - the output differs from the input only in Result tags, termination
 *    markers and Adjudication tags: with those removed from both (and runs
 *    of blanks and line ends taken as one), the bytes are the same;
 *  - both hold the same games, with the same tags (but for Result and
 *    Adjudication), status, moves and facts;
 *  - every readable game of the output has a Result tag and a marker that
 *    agree and that the rules do not contradict;
 *  - --fix applied to its own output changes nothing;
 *  - with --truncate, each game ended by rule keeps exactly the moves up to
 *    its end, and the second pass changes nothing either.
 *
 * Reading a game is what costs (its rule facts, and for a reason such as a
 * loss on time the Article 6.9 search of up to 400,000 positions), so each
 * stream is read once: the input for both passes at once (one reader
 * feeding two rewriters, its games collected meanwhile), each output once
 * for its games and its second pass, and an output that is the input
 * unchanged not at all.  Reading the input four times over and each output
 * twice made a run take about eight readings instead of one to three. */
#include "fuzz.h"
#include "lex.h"
#include "rewrite.h"

/* What the fixed reading of a game must keep. */
typedef struct {
    strbuf_t keep;           /* fields --fix must not change */
    arb_status status;
    uint32_t plies;
    bool has_end;
    int32_t end_ply;
    char result[16], marker[16], target[16];
    bool has_result, has_marker, has_target;
    arb_verdict verdict;
    arb_span marker_span;
    bool open_variation;     /* no marker can be added after an unclosed '(' */
    bool refused;            /* rewrite_game left it as it was (-1): a marker inside a word */
} info_t;

typedef struct {
    info_t *g;
    size_t n, cap;
    bool truncated_mode;      /* compare plies against the end ply */
} games_t;

static void copy_str(char *dst, bool *has, const char *s)
{
    *has = s != NULL;
    snprintf(dst, 16, "%s", s ? s : "");
}

static void collect(const arb_game *g, void *ctx)
{
    games_t *l = ctx;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->g = realloc(l->g, l->cap * sizeof *l->g);
        if (!l->g)
            abort();
    }
    info_t *i = &l->g[l->n++];
    memset(i, 0, sizeof *i);
    i->status = g->status;
    i->plies = g->plies;
    i->has_end = g->has_end;
    i->end_ply = g->end_ply;
    i->verdict = g->verdict;
    i->marker_span = g->marker_span;
    i->open_variation = g->open_variation;
    copy_str(i->result, &i->has_result, g->result);
    copy_str(i->marker, &i->has_marker, g->marker);
    copy_str(i->target, &i->has_target, rewrite_target(g));
    /* has_movetext is not kept: a tag-only game gets a marker. */
    fuzz_printf(&i->keep, "status %d", (int)g->status);
    for (size_t t = 0; t < g->ntags; t++) {
        if (strcmp(g->tags[t].name, "Result") == 0 || strcmp(g->tags[t].name, "Adjudication") == 0)
            continue;
        fuzz_printf(&i->keep, " [%zu]", g->tags[t].name_len);
        fuzz_put(&i->keep, g->tags[t].name, g->tags[t].name_len);
        fuzz_printf(&i->keep, "=[%zu]", g->tags[t].value_len);
        fuzz_put(&i->keep, g->tags[t].value, g->tags[t].value_len);
    }
    if (g->has_error)
        fuzz_printf(&i->keep, " error %s", g->error.message);
}

static void games_free(games_t *l)
{
    for (size_t i = 0; i < l->n; i++)
        strbuf_free(&l->g[i].keep);
    free(l->g);
}

/* Game numbers rewrite_game left as they were, as bits. */
typedef struct {
    uint8_t bits[1024];
} refused_t;

static void refuse(refused_t *r, uint64_t number)
{
    if (r && number < 8 * sizeof r->bits)
        r->bits[number / 8] |= (uint8_t)(1u << (number % 8));
}

static bool was_refused(const refused_t *r, uint64_t number)
{
    return number < 8 * sizeof r->bits && (r->bits[number / 8] >> (number % 8) & 1);
}

/* One --fix of a stream: its options, output, the games changed and those
 * left as they were. */
typedef struct {
    rewrite_options_t ro;
    strbuf_t out;
    uint64_t changed;
    refused_t *refused;
} pass_t;

/* pgn-arbiter --fix on data, in chunks from *seed, for each of the n
 * passes at once: one reader feeds a rewriter per pass, and games (if not
 * NULL) collects the games read.  Reading is what costs (a game's rule
 * facts and the Article 6.9 analysis of its reason), so a stream is read
 * once for all that is asked of it. */
static void fix(const uint8_t *data, size_t size, const arb_options *opt, uint64_t *seed, pass_t *p, int n,
                games_t *games)
{
    arb_reader *r = arb_reader_new(opt);
    rewriter_t *w[2] = { NULL, NULL };
    if (!r || n > 2)
        abort();
    for (int i = 0; i < n; i++)
        if (!(w[i] = rewrite_new(p[i].ro)))
            abort();
    size_t pos = 0;
    bool oom = false, last = false;
    const arb_game *g;
    while (!last) {
        last = pos >= size;
        size_t len = last ? 0 : fuzz_chunk(seed, size - pos);
        char *chunk = last ? NULL : fuzz_dup(data + pos, len);
        if (last) {
            arb_reader_finish(r);
        } else {
            arb_reader_feed(r, chunk, len);
            for (int i = 0; i < n; i++)
                FUZZ_CHECK(rewrite_feed(w[i], chunk, len) == 0, "rewriter out of memory");
        }
        while ((g = arb_reader_next(r, &oom)) != NULL) {
            if (games)
                collect(g, games);
            for (int i = 0; i < n; i++) {
                int c = rewrite_game(w[i], g, &p[i].out);
                p[i].changed += c > 0;
                if (c < 0)
                    refuse(p[i].refused, g->number);
            }
        }
        free(chunk);
        pos += len;
    }
    for (int i = 0; i < n; i++) {
        rewrite_finish(w[i], &p[i].out);
        FUZZ_CHECK(!p[i].out.oom, "out of memory");
        rewrite_free(w[i]);
    }
    FUZZ_CHECK(!oom, "out of memory");
    /* Exhausted stays exhausted. */
    FUZZ_CHECK(arb_reader_next(r, &oom) == NULL, "a game after the end");
    arb_reader_free(r);
}

/* Bytes a free-text result may be written with: 1 - 0, 1/2-1/2, ½-½. */
static bool result_text(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!strchr("012/-* \t\r\n", c) && c != 0xC2 && c != 0xBD)
            return false;
    }
    return true;
}

/* What --fix must keep of data: the tokens but for Result and
 * Adjudication tags and termination markers (kinds, text and values, in
 * order), then every other byte that is not a blank.  Blanks may change
 * next to what --fix adds or replaces, so they count only as token
 * separators; line ends are counted, for they may be added, never lost. */
static void normalise(const char *data, size_t size, const games_t *games, strbuf_t *out, size_t eols[2])
{
    char *drop = calloc(size + 1, 1);
    lexer_t *lx = lex_new();
    if (!drop || !lx)
        abort();
    for (size_t i = 0; i < games->n; i++) {
        arb_span m = games->g[i].marker_span;
        if (m.end > m.offset && result_text(data + m.offset, (size_t)(m.end - m.offset)))
            memset(drop + m.offset, 1, (size_t)(m.end - m.offset));
    }
    lex_feed(lx, data, size);
    lex_finish(lx);
    lex_token_t t;
    while (lex_next(lx, &t) != TOK_EOF) {
        bool out_ = t.kind == TOK_RESULT ||
                    (t.kind == TOK_TAG && ((t.len == 6 && memcmp(t.text, "Result", 6) == 0) ||
                                           (t.len == 12 && memcmp(t.text, "Adjudication", 12) == 0)));
        if (out_)
            memset(drop + t.offset, 1, (size_t)(t.end - t.offset));
        if (out_ || (t.end > t.offset && drop[t.offset]))
            continue;
        fuzz_printf(out, "%d", (int)t.kind);
        if (t.text && t.kind == TOK_SYMBOL && t.len == (size_t)(t.end - t.offset)) {
            /* A marker read inside a longer word ("Rd6+1-0") is dropped from it. */
            size_t kept = 0;
            for (size_t k = 0; k < t.len; k++)
                kept += !drop[t.offset + k];
            fuzz_printf(out, "[%zu]", kept);
            for (size_t k = 0; k < t.len; k++)
                if (!drop[t.offset + k])
                    fuzz_put(out, t.text + k, 1);
        } else if (t.text) {
            fuzz_printf(out, "[%zu]", t.len);
            fuzz_put(out, t.text, t.len);
        }
        if (t.value) {
            fuzz_printf(out, "=[%zu]", t.value_len);
            fuzz_put(out, t.value, t.value_len);
        }
        fuzz_put(out, "\n", 1);
    }
    lex_free(lx);
    fuzz_put(out, "--\n", 3);
    eols[0] = eols[1] = 0;
    for (size_t i = 0; i < size; i++) {
        char c = data[i];
        eols[0] += c == '\r';
        eols[1] += c == '\n';
        if (!drop[i] && c != ' ' && c != '\t' && c != '\r' && c != '\n')
            fuzz_put(out, &c, 1);
    }
    free(drop);
}

static void show_diff(const char *what, const strbuf_t *a, const strbuf_t *b)
{
    size_t i = 0;
    while (i < a->len && i < b->len && a->data[i] == b->data[i])
        i++;
    size_t from = i > 120 ? i - 120 : 0;
    size_t an = a->len - from < 300 ? a->len - from : 300, bn = b->len - from < 300 ? b->len - from : 300;
    fprintf(stderr, "%s differ at byte %zu:\n--- before\n%.*s\n--- after\n%.*s\n---\n", what, i, (int)an,
            a->data + from, (int)bn, b->data + from);
}

static bool same(const strbuf_t *a, const strbuf_t *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

/* Whether the stream ends inside a { comment: no marker can follow. */
static bool ends_in_comment(const uint8_t *data, size_t size)
{
    lexer_t *lx = lex_new();
    if (!lx)
        abort();
    lex_feed(lx, (const char *)data, size);
    lex_finish(lx);
    lex_token_t t;
    bool open = false;
    while (lex_next(lx, &t) != TOK_EOF)
        open = t.kind == TOK_COMMENT && t.unterminated;
    lex_free(lx);
    return open;
}

/* The checks of one pass p of --fix over data, whose games are in. */
static void check_mode(const uint8_t *data, size_t size, const arb_options *opt, const pass_t *p, const games_t *in,
                       uint64_t *seed)
{
    rewrite_options_t ro = p->ro;
    const strbuf_t once = p->out;
    const refused_t refused = *p->refused;
    uint64_t changed = p->changed;
    bool unchanged = same(&once, &(strbuf_t){ .data = (char *)data, .len = size });
    if (changed == 0 && !unchanged)
        FUZZ_CHECK(false, "no game changed, yet the output differs from the input");
    /* The output read, and fixed again; the input as it is needs neither. */
    games_t fixed = { 0 };
    pass_t again_pass = { .ro = ro };
    if (unchanged && changed == 0)
        fixed = *in;
    else
        fix((const uint8_t *)once.data, once.len, opt, seed, &again_pass, 1, &fixed);

    FUZZ_CHECK(in->n == fixed.n, "%zu games in, %zu games out", in->n, fixed.n);
    bool open_end = ends_in_comment(data, size);
    for (size_t i = 0; i < in->n; i++) {
        const info_t *a = &in->g[i], *b = &fixed.g[i];
        if (!same(&a->keep, &b->keep)) {
            show_diff("game", &a->keep, &b->keep);
            FUZZ_CHECK(false, "game %zu changed beyond its result", i + 1);
        }
        if (a->status != ARB_OK)
            continue;
        /* A game left as it is must be one whose marker had to change or
         * whose moves had to be cut (inside a word), and is the same game
         * (checked above and below). */
        if (was_refused(&refused, i + 1)) {
            FUZZ_CHECK((a->marker_span.end && a->has_target && strcmp(a->marker, a->target) != 0) ||
                           (ro.truncate && a->has_end && (uint32_t)a->end_ply < a->plies),
                       "game %zu: left as it is, with neither a marker nor a cut to make", i + 1);
            continue;
        }
        /* A marker written as free text is replaced whole: its span holds
         * all of "1 - 0", not the last "0" alone. */
        arb_span m = a->marker_span;
        const char *mt = (const char *)data + m.offset;
        size_t ml = (size_t)(m.end - m.offset);
        if (ml && result_text(mt, ml))
            FUZZ_CHECK(memchr(mt, '-', ml) || (ml == 1 && *mt == '*'), "game %zu: marker span \"%.*s\" is part of a result",
                       i + 1, (int)ml, mt);
        bool no_marker = (i == in->n - 1 && open_end) || (!a->has_marker && a->open_variation);
        FUZZ_CHECK(b->has_result && (b->has_marker ? strcmp(b->result, b->marker) == 0 : no_marker),
                   "game %zu: Result \"%s\" and marker \"%s\" after --fix", i + 1, b->result, b->marker);
        FUZZ_CHECK(a->has_target && strcmp(b->result, a->target) == 0, "game %zu: result %s, --fix meant %s", i + 1,
                   b->result, a->target);
        FUZZ_CHECK(b->verdict != ARB_WRONG_RESULT, "game %zu: still a wrong result after --fix", i + 1);
        if (ro.truncate && a->has_end) {
            FUZZ_CHECK(b->plies == (uint32_t)a->end_ply, "game %zu: %u plies after --truncate, ended at %d", i + 1,
                       (unsigned)b->plies, (int)a->end_ply);
            FUZZ_CHECK(b->verdict != ARB_MOVES_AFTER_END, "game %zu: moves after the end after --truncate", i + 1);
        } else {
            FUZZ_CHECK(b->plies == a->plies, "game %zu: %u plies, then %u", i + 1, (unsigned)a->plies,
                       (unsigned)b->plies);
        }
    }

    if (!ro.truncate) {
        strbuf_t na = { 0 }, nb = { 0 };
        size_t ea[2], eb[2];
        normalise((const char *)data, size, in, &na, ea);
        normalise(once.data, once.len, &fixed, &nb, eb);
        if (!same(&na, &nb)) {
            show_diff("text beyond results", &na, &nb);
            FUZZ_CHECK(false, "--fix changed more than Result tags, markers and Adjudication tags");
        }
        FUZZ_CHECK(eb[0] >= ea[0] && eb[1] >= ea[1], "line ends lost: %zu CR %zu LF before, %zu CR %zu LF after",
                   ea[0], ea[1], eb[0], eb[1]);
        strbuf_free(&na);
        strbuf_free(&nb);
    }

    if (!(unchanged && changed == 0)) {
        if (again_pass.changed || !same(&once, &again_pass.out)) {
            show_diff("output", &once, &again_pass.out);
            FUZZ_CHECK(false, "--fix%s changes its own output (%llu games)", ro.truncate ? " --truncate" : "",
                       (unsigned long long)again_pass.changed);
        }
        games_free(&fixed);
    }
    strbuf_free(&again_pass.out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t seed = fuzz_hash(data, size);
    arb_options opt = { .allow_null_moves = seed & 2, .policy = seed & 4 ? ARB_RULES_CLAIM : ARB_RULES_FIDE };
    refused_t refused[2] = { { { 0 } }, { { 0 } } };
    pass_t pass[2] = {
        { .ro = { .annotate = !(seed & 8), .truncate = false }, .refused = &refused[0] },
        { .ro = { .annotate = true, .truncate = true }, .refused = &refused[1] },
    };
    games_t in = { 0 };
    fix(data, size, &opt, &seed, pass, 2, &in);
    for (int i = 0; i < 2; i++) {
        check_mode(data, size, &opt, &pass[i], &in, &seed);
        strbuf_free(&pass[i].out);
    }
    games_free(&in);
    return 0;
}
