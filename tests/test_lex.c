/* test_lex.c: unit tests for the streaming PGN tokenizer (src/lex.c).
 *
 * Every input is lexed whole, byte by byte and in random chunk sizes; each
 * chunk is a fresh heap copy freed as soon as the lexer answers TOK_MORE, so
 * AddressSanitizer catches a token that still points into an old chunk.
 * Each token is also checked against an independent reading of the input:
 * line and column recomputed from the bytes, raw text equal to the input at
 * the token's offset, and only whitespace or % lines between tokens. */

#include "lex.h"

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

/* ck_assert() records every check that passes in a file; in the loops
 * that run per byte or per token only a failure should cost anything. */

/* Printable ASCII as is, other bytes as \xNN. */
static void sb_bytes(sbuf_t *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f)
            sb_putn(b, (const char *)&c, 1);
        else
            sb_printf(b, "\\x%02x", c);
    }
}

static const char *const kind_name[] = {
    "MORE", "EOF", "TAG", "SYMBOL", "MOVENUM", "RESULT",
    "NAG", "COMMENT", "VAR_OPEN", "VAR_CLOSE", "BAD",
};

/* One token: [LINE:COL OFF-END ]KIND [text][ = value][ trunc][ unterm][ nag N] */
static void sb_token(sbuf_t *b, const lex_token_t *t, int full)
{
    if (full)
        sb_printf(b, "%" PRIu64 ":%" PRIu32 " %" PRIu64 "-%" PRIu64 " ", t->line, t->col,
                  t->offset, t->end);
    sb_printf(b, "%s", kind_name[t->kind]);
    if (t->text) {
        sb_putn(b, " ", 1);
        sb_bytes(b, t->text, t->len);
    }
    if (t->value) {
        sb_putn(b, " = ", 3);
        sb_bytes(b, t->value, t->value_len);
    }
    if (t->truncated)
        sb_putn(b, " trunc", 6);
    if (t->unterminated)
        sb_putn(b, " unterm", 7);
    if (t->kind == TOK_NAG)
        sb_printf(b, " %d", t->nag);
}

/* ---- an independent reading of the input, to check every token ---- */

typedef struct {
    const unsigned char *in;
    size_t n;
    size_t pos;        /* bytes read so far */
    uint64_t line;     /* line of pos */
    size_t line_start; /* offset of that line's first byte */
} ref_t;

static void ref_init(ref_t *r, const char *in, size_t n)
{
    r->in = (const unsigned char *)in;
    r->n = n;
    r->pos = 0;
    r->line = 1;
    r->line_start = 0;
    if (n >= 3 && memcmp(in, "\xEF\xBB\xBF", 3) == 0)
        r->pos = r->line_start = 3;
}

static int ref_is_ws(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Reads up to offset to; with gap set, the bytes must be whitespace or
 * lines escaped with % in column 1. */
static void ref_walk(ref_t *r, size_t to, int gap)
{
    CHECK(to >= r->pos && to <= r->n, "token at %zu overlaps (read up to %zu)", to,
                  r->pos);
    int escaped = 0;
    for (; r->pos < to; r->pos++) {
        unsigned char c = r->in[r->pos];
        if (c == '\n' || c == '\r') {
            if (c == '\r' || r->pos == 0 || r->in[r->pos - 1] != '\r')
                r->line++;
            r->line_start = r->pos + 1;
            escaped = 0;
            continue;
        }
        if (!gap || escaped)
            continue;
        if (c == '%' && r->pos == r->line_start)
            escaped = 1;
        else
            CHECK(ref_is_ws(c), "byte 0x%02x at offset %zu is in no token", c, r->pos);
    }
}

static void ref_check(ref_t *r, const lex_token_t *t, size_t consumed)
{
    CHECK(t->offset <= t->end && t->end <= consumed,
                  "%s token %" PRIu64 "-%" PRIu64 " beyond the %zu bytes fed",
                  kind_name[t->kind], t->offset, t->end, consumed);
    ref_walk(r, (size_t)t->offset, 1);
    uint64_t col = t->offset - r->line_start + 1;
    CHECK(t->line == r->line && t->col == col,
                  "%s at offset %" PRIu64 ": lexer says %" PRIu64 ":%" PRIu32 ", bytes say %" PRIu64
                  ":%" PRIu64,
                  kind_name[t->kind], t->offset, t->line, t->col, r->line, col);
    const char *at = (const char *)r->in + t->offset;
    size_t span = (size_t)(t->end - t->offset);
    switch (t->kind) {
    case TOK_SYMBOL:
    case TOK_MOVENUM:
    case TOK_RESULT:
    case TOK_BAD:
        CHECK(t->text != NULL, "%s without text", kind_name[t->kind]);
        if (t->truncated)
            CHECK(t->len <= LEX_MAX_SYMBOL && t->len < span, "bad truncated length");
        else
            CHECK(t->len == span, "%s text length %zu, span %zu", kind_name[t->kind],
                          t->len, span);
        CHECK(memcmp(t->text, at, t->len) == 0, "%s text differs from the input at %" PRIu64,
                      kind_name[t->kind], t->offset);
        break;
    case TOK_TAG:
        CHECK(at[0] == '[' && at[span - 1] == ']', "tag at %" PRIu64 " not [...]", t->offset);
        CHECK(t->text && t->value, "tag without name or value");
        CHECK(t->len <= LEX_MAX_NAME && t->value_len <= LEX_MAX_VALUE, "tag beyond the caps");
        break;
    case TOK_COMMENT:
        CHECK(at[0] == '{' || at[0] == ';', "comment at %" PRIu64 " starts with %c", t->offset, at[0]);
        CHECK(at[0] != '{' || t->unterminated || at[span - 1] == '}', "comment without }");
        break;
    case TOK_NAG:
        CHECK(at[0] == '$' || at[0] == '!' || at[0] == '?', "NAG starts with %c", at[0]);
        CHECK(t->nag >= 0 && t->nag <= 255, "NAG %d", t->nag);
        break;
    case TOK_VAR_OPEN:
        CHECK(span == 1 && at[0] == '(', "VAR_OPEN is not (");
        break;
    case TOK_VAR_CLOSE:
        CHECK(span == 1 && at[0] == ')', "VAR_CLOSE is not )");
        break;
    default:
        ck_abort_msg("unexpected kind %d", (int)t->kind);
    }
    ref_walk(r, (size_t)t->end, 0);
}

/* ---- feeding ---- */

/* How to cut the input: whole, in chunks of a fixed size, or at random. */
typedef struct {
    size_t fixed; /* 0: whole input */
    size_t rmax;  /* random sizes 1..rmax when non-zero */
    uint64_t seed;
} cut_t;

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717u;
}

/* After TOK_MORE: frees the chunk the lexer let go of and feeds the next
 * piece of in[0..n) as cut tells (a fresh heap copy), or finishes. */
static void feed_next(lexer_t *lx, const char *in, size_t n, size_t *fed, char **chunk, cut_t cut,
                      uint64_t *seed)
{
    free(*chunk);
    *chunk = NULL;
    if (*fed == n) {
        lex_finish(lx);
        return;
    }
    size_t want = n - *fed;
    if (cut.rmax)
        want = 1 + (size_t)(next_random(seed) % cut.rmax);
    else if (cut.fixed)
        want = cut.fixed;
    if (want > n - *fed)
        want = n - *fed;
    *chunk = malloc(want);
    CHECK(*chunk != NULL, "out of memory");
    memcpy(*chunk, in + *fed, want);
    lex_feed(lx, *chunk, want);
    *fed += want;
}

/* Lexes in[0..n) cut as told; returns the tokens, one a line (brief or
 * full), after checking each against the input.  Caller frees. */
static char *lex_all(const char *in, size_t n, cut_t cut, int full)
{
    lexer_t *lx = lex_new();
    ck_assert_ptr_nonnull(lx);
    ref_t ref;
    ref_init(&ref, in, n);
    sbuf_t out = {0};
    sb_putn(&out, "", 0);
    char *chunk = NULL;
    size_t fed = 0;
    uint64_t seed = cut.seed | 1;
    int eofs = 0;
    for (;;) {
        lex_token_t t;
        lex_kind_t k = lex_next(lx, &t);
        CHECK(k == t.kind, "lex_next returned %d, token kind %d", (int)k, (int)t.kind);
        if (k == TOK_MORE) {
            CHECK(eofs == 0, "TOK_MORE after TOK_EOF");
            feed_next(lx, in, n, &fed, &chunk, cut, &seed);
            continue;
        }
        if (k == TOK_EOF) {
            CHECK(t.offset == n, "EOF at %" PRIu64 ", stream has %zu bytes", t.offset, n);
            ref_walk(&ref, n, 1);
            CHECK(t.line == ref.line, "EOF line %" PRIu64 ", bytes say %" PRIu64, t.line,
                          ref.line);
            if (++eofs == 3)
                break; /* EOF stays EOF */
            continue;
        }
        CHECK(eofs == 0, "token after TOK_EOF");
        ref_check(&ref, &t, fed);
        if (out.len)
            sb_putn(&out, full ? "\n" : " | ", full ? 1 : 3);
        sb_token(&out, &t, full);
    }
    free(chunk);
    lex_free(lx);
    return out.s;
}

/* Reports the first line where a and b differ. */
static void assert_same(const char *a, const char *b, const char *what)
{
    if (strcmp(a, b) == 0)
        return;
    size_t i = 0, line = 1, ls = 0;
    while (a[i] && a[i] == b[i]) {
        if (a[i] == '\n') {
            line++;
            ls = i + 1;
        }
        i++;
    }
    ck_abort_msg("%s: token line %zu differs:\n  whole: %.200s\n  other: %.200s", what, line,
                 a + ls, b + ls);
}

/* Lexes whole, byte by byte and in random chunks; all must agree.  Returns
 * the whole-input result (caller frees). */
static char *lex_every_way(const char *in, size_t n, int full)
{
    char *whole = lex_all(in, n, (cut_t){0}, full);
    static const cut_t cuts[] = {
        {.fixed = 1},  {.fixed = 2},  {.fixed = 3},    {.rmax = 5, .seed = 1},
        {.rmax = 17, .seed = 2}, {.rmax = 64, .seed = 3}, {.rmax = 4096, .seed = 4},
    };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        if (cuts[i].fixed + cuts[i].rmax < 10 && n > 20000)
            continue; /* tiny chunks over big inputs are slow under sanitizers */
        char *other = lex_all(in, n, cuts[i], full);
        char what[64];
        snprintf(what, sizeof what, "chunks fixed %zu random 1..%zu", cuts[i].fixed, cuts[i].rmax);
        assert_same(whole, other, what);
        free(other);
    }
    return whole;
}

/* in lexes, however cut, to the brief token list want ("KIND text | ..."). */
static void expect(const char *in, const char *want)
{
    char *got = lex_every_way(in, strlen(in), 0);
    CHECK(strcmp(got, want) == 0, "input \"%s\":\n  want: %s\n  got:  %s", in, want, got);
    free(got);
}

/* Same with positions: "LINE:COL OFF-END KIND text", tokens one a line. */
static void expect_full(const char *in, const char *want)
{
    char *got = lex_every_way(in, strlen(in), 1);
    CHECK(strcmp(got, want) == 0, "want:\n%s\ngot:\n%s", want, got);
    free(got);
}

/* Lexes the given chunks, as cut, to a brief token list. */
static char *lex_parts(const char *const *parts, size_t nparts)
{
    lexer_t *lx = lex_new();
    ck_assert_ptr_nonnull(lx);
    sbuf_t out = {0};
    sb_putn(&out, "", 0);
    size_t i = 0;
    for (;;) {
        lex_token_t t;
        lex_kind_t k = lex_next(lx, &t);
        if (k == TOK_MORE) {
            if (i == nparts)
                lex_finish(lx);
            else {
                lex_feed(lx, parts[i], strlen(parts[i]));
                i++;
            }
            continue;
        }
        if (k == TOK_EOF)
            break;
        if (out.len)
            sb_putn(&out, " | ", 3);
        sb_token(&out, &t, 1);
    }
    lex_free(lx);
    return out.s;
}

/* A lexer with the whole of in fed and finished; for checks on one token. */
static lexer_t *lex_string(const char *in, size_t n)
{
    lexer_t *lx = lex_new();
    ck_assert_ptr_nonnull(lx);
    lex_token_t t;
    ck_assert_int_eq(lex_next(lx, &t), TOK_MORE);
    lex_feed(lx, in, n);
    return lx;
}

static char *repeat(const char *pre, char c, size_t n, const char *post)
{
    size_t a = strlen(pre), z = strlen(post);
    char *s = malloc(a + n + z + 1);
    ck_assert_ptr_nonnull(s);
    memcpy(s, pre, a);
    memset(s + a, c, n);
    memcpy(s + a + n, post, z + 1);
    return s;
}

/* ---- tags ---- */

START_TEST(tag_basic)
{
    expect_full("[Event \"F/S Return Match\"]\n", "1:1 0-26 TAG Event = F/S Return Match");
}
END_TEST

START_TEST(tag_blanks)
{
    expect("[ \tEvent \t \"x y\"  \t]", "TAG Event = x y");
    expect("[Event\"x\"]", "TAG Event = x");
}
END_TEST

START_TEST(tag_empty_value)
{
    expect("[Event \"\"]", "TAG Event = ");
    expect_full("[Event \"\"] [Site \"\"]", "1:1 0-10 TAG Event = \n1:12 11-20 TAG Site = ");
}
END_TEST

START_TEST(tag_name_chars)
{
    expect("[A_b+#=:-9 \"v\"]", "TAG A_b+#=:-9 = v");
    expect("[9 \"v\"]", "TAG 9 = v");
}
END_TEST

START_TEST(tag_escapes)
{
    expect("[White \"New-cfe8\\\"dsadsa\\\"ce842c\"]", "TAG White = New-cfe8\"dsadsa\"ce842c");
    expect("[Site \"C:\\\\games\\\\\"]", "TAG Site = C:\\games\\");
    /* Other backslashes are kept as they are. */
    expect("[Site \"C:\\new\\x\"]", "TAG Site = C:\\new\\x");
}
END_TEST

START_TEST(tag_unescaped_quotes)
{
    expect("[Event \"Tournament \"Championship\" Finals\"]",
           "TAG Event = Tournament \"Championship\" Finals");
    expect("[Site \"Club \"Victory\"\"]", "TAG Site = Club \"Victory\"");
    expect("[Black \"Jones, \"Lightning\" Mike\"]", "TAG Black = Jones, \"Lightning\" Mike");
    /* A quote followed by blanks but no ] is part of the value. */
    expect("[Event \"a\"  b\" ]", "TAG Event = a\"  b");
    expect("[Event \"\"\"]", "TAG Event = \"");
}
END_TEST

START_TEST(tag_brackets_in_value)
{
    expect("[Event \"Batch 10: s20red4c4_t3 vs master[!important]\"]",
           "TAG Event = Batch 10: s20red4c4_t3 vs master[!important]");
    expect("[Variation \"closing ] opening\"]", "TAG Variation = closing ] opening");
    expect("[Variation \"] [\"]", "TAG Variation = ] [");
}
END_TEST

START_TEST(tag_fallback_backslash_end)
{
    /* chess-library backslash_header.pgn: the line ends inside the value. */
    expect_full("[Event \"Tournament \\\"]\n[Site \"Madrid ESP\"]\n",
                "1:1 0-22 TAG Event = Tournament \\\n2:1 23-42 TAG Site = Madrid ESP");
    expect("[Event \"Tournament \\\"]\r\n1. e4", "TAG Event = Tournament \\ | MOVENUM 1. | SYMBOL e4");
    expect("[Event \"x\\\"  \t]\n", "TAG Event = x\\");
}
END_TEST

START_TEST(tag_fallback_last_candidate)
{
    /* The last quote followed by blanks and ]; backslashes stay literal. */
    expect("[A \"x\\\"] y \\\"]\n", "TAG A = x\\\"] y \\");
    expect("[A \"x\\\\\\\"]\n", "TAG A = x\\\\\\");
}
END_TEST

START_TEST(tag_fallback_tail)
{
    /* Bytes after the chosen ] are not lost: they come as TOK_BAD. */
    expect_full("[Event \"a\\\"]  1. e4\ne5",
                "1:1 0-12 TAG Event = a\\\n1:15 14-19 BAD 1. e4\n2:1 20-22 SYMBOL e5");
    expect("[Event \"a\\\"] \t\ne5", "TAG Event = a\\ | SYMBOL e5");
}
END_TEST

START_TEST(tag_fallback_at_eof)
{
    expect("[Event \"a\\\"]", "TAG Event = a\\");
    expect("[Event \"a\\\"] x", "TAG Event = a\\ | BAD x");
}
END_TEST

START_TEST(tag_unclosed_value)
{
    expect_full("[Event \"foo\n1. e4",
                "1:1 0-11 BAD [Event \"foo\n2:1 12-14 MOVENUM 1.\n2:4 15-17 SYMBOL e4");
    expect("[Event \"foo\"\n]", "BAD [Event \"foo\" | BAD ]");
    expect("[Event \"foo\\", "BAD [Event \"foo\\");
    expect("[Event \"fo\\\"o", "BAD [Event \"fo\\\"o");
    expect("[Event \"]\n", "BAD [Event \"]");
}
END_TEST

START_TEST(tag_broken_before_value)
{
    expect("[Event Foo]\n1. e4", "BAD [Event Foo] | MOVENUM 1. | SYMBOL e4");
    expect("[Date 2024.01.01] e4", "BAD [Date 2024.01.01] | SYMBOL e4");
    expect("[] [ ] [\"x\"]", "BAD [] | BAD [ ] | BAD [\"x\"]");
    expect("[Event\n\"x\"]", "BAD [Event | BAD \" | SYMBOL x | BAD \"]");
    expect("[", "BAD [");
    expect("[Ev", "BAD [Ev");
    expect("[Ev ", "BAD [Ev ");
    /* chess.js: a name byte the standard does not allow, then the game. */
    expect("[Great? \"True\"]<br />1. d4", "BAD [Great? \"True\"] | BAD < | SYMBOL br | SYMBOL / | "
                                          "BAD > | MOVENUM 1. | SYMBOL d4");
    /* A ] inside quotes does not end it. */
    expect("[Ev? \"a]b\"] e4", "BAD [Ev? \"a]b\"] | SYMBOL e4");
    expect("[Ev? \"a]b e4\ne5", "BAD [Ev? \"a]b e4 | SYMBOL e5");
}
END_TEST

START_TEST(tag_several_on_a_line)
{
    expect_full("[White \"a\"] [Black \"b\"][Result \"*\"]",
                "1:1 0-11 TAG White = a\n1:13 12-23 TAG Black = b\n1:24 23-35 TAG Result = *");
}
END_TEST

START_TEST(tag_after_movetext)
{
    expect("48.Rd6+ 1-0[Event \"x\"]", "MOVENUM 48. | SYMBOL Rd6+ | RESULT 1-0 | TAG Event = x");
    expect("e4{c}[Event \"x\"]", "SYMBOL e4 | COMMENT | TAG Event = x");
}
END_TEST

START_TEST(tag_value_bytes_kept)
{
    expect("[White \"Nepomniachtchi, Ян\"]", "TAG White = Nepomniachtchi, \\xd0\\xaf\\xd0\\xbd");
    expect("[White \"\xff\xfe\t\x01\"]", "TAG White = \\xff\\xfe\\x09\\x01");
    static const char nul[] = "[White \"a\0b\"]";
    char *got = lex_every_way(nul, sizeof nul - 1, 0);
    ck_assert_str_eq(got, "TAG White = a\\x00b");
    free(got);
}
END_TEST

START_TEST(tag_crlf)
{
    expect_full("[A \"1\"]\r\n[B \"2\"]\r[C \"3\"]\r\n",
                "1:1 0-7 TAG A = 1\n2:1 9-16 TAG B = 2\n3:1 17-24 TAG C = 3");
}
END_TEST

/* ---- byte order mark ---- */

START_TEST(bom_skipped)
{
    expect_full("\xEF\xBB\xBF[Event \"A\"]\n e4",
                "1:1 3-14 TAG Event = A\n2:2 16-18 SYMBOL e4");
    expect_full("\xEF\xBB\xBF", "");
    expect_full("\xEF\xBB\xBF\xEF\xBB\xBF", "1:1 3-6 SYMBOL \\xef\\xbb\\xbf");
}
END_TEST

START_TEST(bom_partial)
{
    /* Not a whole mark: the bytes are the start of a symbol. */
    expect_full("\xEF\xBBx e4", "1:1 0-3 SYMBOL \\xef\\xbbx\n1:5 4-6 SYMBOL e4");
    expect_full("\xEF\xBB", "1:1 0-2 SYMBOL \\xef\\xbb");
    expect_full("\xEF", "1:1 0-1 SYMBOL \\xef");
    expect_full("\xEF(", "1:1 0-1 SYMBOL \\xef\n1:2 1-2 VAR_OPEN");
    expect_full("\xEF\xBB\n", "1:1 0-2 SYMBOL \\xef\\xbb");
}
END_TEST

START_TEST(bom_not_at_start)
{
    expect("e4 \xEF\xBB\xBF", "SYMBOL e4 | SYMBOL \\xef\\xbb\\xbf");
}
END_TEST

/* ---- lines and columns ---- */

START_TEST(lines_lf_crlf_cr)
{
    expect_full("a\nb\r\nc\rd\n\ne",
                "1:1 0-1 SYMBOL a\n2:1 2-3 SYMBOL b\n3:1 5-6 SYMBOL c\n4:1 7-8 SYMBOL d\n"
                "6:1 10-11 SYMBOL e");
    expect_full("a\n\rb", "1:1 0-1 SYMBOL a\n3:1 3-4 SYMBOL b");
    expect_full("a\r\r\nb", "1:1 0-1 SYMBOL a\n3:1 4-5 SYMBOL b");
}
END_TEST

START_TEST(lines_crlf_split_across_chunks)
{
    static const char *const p1[] = {"a\r", "\nb"};
    char *got = lex_parts(p1, 2);
    ck_assert_str_eq(got, "1:1 0-1 SYMBOL a | 2:1 3-4 SYMBOL b");
    free(got);
    static const char *const p2[] = {"a\r", "", "\n", "\rb"};
    got = lex_parts(p2, 4);
    ck_assert_str_eq(got, "1:1 0-1 SYMBOL a | 3:1 4-5 SYMBOL b");
    free(got);
    static const char *const p3[] = {"{a\r", "\n}b"};
    got = lex_parts(p3, 2);
    ck_assert_str_eq(got, "1:1 0-5 COMMENT | 2:2 5-6 SYMBOL b");
    free(got);
}
END_TEST

START_TEST(lines_in_comments)
{
    expect_full("{x\r\ny\rz\n}e4 {\n\n\n}\n;c\r\nNf3",
                "1:1 0-9 COMMENT\n4:2 9-11 SYMBOL e4\n4:5 12-17 COMMENT\n8:1 18-20 COMMENT\n"
                "9:1 22-25 SYMBOL Nf3");
}
END_TEST

/* Comments long enough for the wide scans that find the closing brace and
 * any line end in one pass (16 and 32 bytes a step, and the bytes after),
 * with a line end (or a tab, which is none) at every place in them: the
 * move after each is on the line and column counted here. */
START_TEST(lines_in_long_comments)
{
    static const char *const breaks[] = { "\n", "\r", "\r\n", "\t" };
    char in[128], want[256];
    for (size_t len = 1; len <= 72; len++) {
        for (size_t k = 0; k < len; k++) {
            for (size_t b = 0; b < sizeof breaks / sizeof breaks[0]; b++) {
                const char *brk = breaks[b];
                size_t w = strlen(brk);
                /* "e4 {" body "} e5": body is len bytes but for the break at k. */
                char body[80];
                memset(body, 'x', sizeof body);
                memcpy(body + k, brk, w);
                size_t blen = k + w > len ? k + w : len;
                snprintf(in, sizeof in, "e4 {%.*s} e5", (int)blen, body);
                size_t close = 4 + blen; /* offset of '}' */
                bool eol = brk[0] != '\t';
                unsigned line = eol ? 2 : 1;
                size_t col = eol ? (close - (k + 4 + w)) + 3 : close + 3;
                snprintf(want, sizeof want, "1:1 0-2 SYMBOL e4\n1:4 3-%zu COMMENT\n%u:%zu %zu-%zu SYMBOL e5", close + 1,
                         line, col, close + 2, close + 4);
                expect_full(in, want);
            }
        }
    }
}
END_TEST

START_TEST(columns_count_bytes)
{
    expect_full("  e4\te5 \xc3\xa9 x",
                "1:3 2-4 SYMBOL e4\n1:6 5-7 SYMBOL e5\n1:9 8-10 SYMBOL \\xc3\\xa9\n1:12 11-12 SYMBOL x");
    expect_full("\f\v e4", "1:4 3-5 SYMBOL e4");
}
END_TEST

/* ---- movetext ---- */

START_TEST(movenum_glued)
{
    expect_full("1.d4 4..Be7 1...e5",
                "1:1 0-2 MOVENUM 1.\n1:3 2-4 SYMBOL d4\n1:6 5-8 MOVENUM 4..\n1:9 8-11 SYMBOL Be7\n"
                "1:13 12-16 MOVENUM 1...\n1:17 16-18 SYMBOL e5");
}
END_TEST

START_TEST(movenum_alone)
{
    expect("34. 12... 1. e4", "MOVENUM 34. | MOVENUM 12... | MOVENUM 1. | SYMBOL e4");
    expect("34.", "MOVENUM 34.");
    expect("1.2.3.", "MOVENUM 1. | MOVENUM 2. | MOVENUM 3.");
    expect("1.!", "MOVENUM 1. | NAG 1");
    expect("1.1-0", "MOVENUM 1. | RESULT 1-0");
}
END_TEST

START_TEST(movenum_not)
{
    expect("1 12a 1-0. .5 a1.", "SYMBOL 1 | SYMBOL 12a | SYMBOL 1-0. | SYMBOL .5 | SYMBOL a1.");
}
END_TEST

START_TEST(results)
{
    expect("1-0 0-1 1/2-1/2 *", "RESULT 1-0 | RESULT 0-1 | RESULT 1/2-1/2 | RESULT *");
    expect("e4* 1-0*", "SYMBOL e4 | RESULT * | RESULT 1-0 | RESULT *");
    expect("**", "RESULT * | RESULT *");
}
END_TEST

START_TEST(results_not)
{
    expect("1/2 \xc2\xbd-\xc2\xbd 1-0-0 0-1+ 1/2-1/2/ - 0",
           "SYMBOL 1/2 | SYMBOL \\xc2\\xbd-\\xc2\\xbd | SYMBOL 1-0-0 | SYMBOL 0-1+ | "
           "SYMBOL 1/2-1/2/ | SYMBOL - | SYMBOL 0");
}
END_TEST

START_TEST(nag_glyphs)
{
    expect("! ? !! ?? !? ?!", "NAG 1 | NAG 2 | NAG 3 | NAG 4 | NAG 5 | NAG 6");
    expect("!!! ?!? e4!? Nf3+!", "SYMBOL !!! | SYMBOL ?!? | SYMBOL e4!? | SYMBOL Nf3+!");
}
END_TEST

START_TEST(nag_dollar)
{
    expect_full("e4 $1 $0 $255 $014",
                "1:1 0-2 SYMBOL e4\n1:4 3-5 NAG 1\n1:7 6-8 NAG 0\n1:10 9-13 NAG 255\n"
                "1:15 14-18 NAG 14");
    expect("e4$2$3", "SYMBOL e4 | NAG 2 | NAG 3");
    expect("$1a", "NAG 1 | SYMBOL a");
}
END_TEST

START_TEST(nag_dollar_bad)
{
    expect("$256 $ $x $99999999999999999999999",
           "BAD $256 | BAD $ | BAD $ | SYMBOL x | BAD $99999999999999999999999");
    /* 2^32 and 2^64 would wrap to 0 in a plain accumulator. */
    expect("$4294967296 $18446744073709551616", "BAD $4294967296 | BAD $18446744073709551616");
}
END_TEST

START_TEST(symbols_odd)
{
    expect("O-O 0-0-0 -- Z0 @@@@ N@f3 exd6e.p. e8=Q+ Nf3# P@e4 g1f3 _~:",
           "SYMBOL O-O | SYMBOL 0-0-0 | SYMBOL -- | SYMBOL Z0 | SYMBOL @@@@ | SYMBOL N@f3 | "
           "SYMBOL exd6e.p. | SYMBOL e8=Q+ | SYMBOL Nf3# | SYMBOL P@e4 | SYMBOL g1f3 | "
           "SYMBOL _~:");
}
END_TEST

START_TEST(comment_brace)
{
    expect_full("e4 {a comment} e5",
                "1:1 0-2 SYMBOL e4\n1:4 3-14 COMMENT\n1:16 15-17 SYMBOL e5");
    expect("{}{}", "COMMENT | COMMENT");
    expect("{ [%clk 0:03:00] }", "COMMENT");
}
END_TEST

START_TEST(comment_brace_no_nesting)
{
    /* pgn-extract nested-comment.pgn: the first } ends the comment. */
    expect("e4 { a { nested } b } *", "SYMBOL e4 | COMMENT | SYMBOL b | BAD } | RESULT *");
    expect("{ ; not a line comment } e4", "COMMENT | SYMBOL e4");
    expect("{ % [Event \"x\"] \n%x }e4", "COMMENT | SYMBOL e4");
}
END_TEST

START_TEST(comment_brace_unterminated)
{
    expect_full("e4 {never\nends", "1:1 0-2 SYMBOL e4\n1:4 3-14 COMMENT unterm");
    expect("{", "COMMENT unterm");
}
END_TEST

START_TEST(comment_semicolon)
{
    expect_full("e4 ; rest {of} the } line\ne5",
                "1:1 0-2 SYMBOL e4\n1:4 3-25 COMMENT\n2:1 26-28 SYMBOL e5");
    expect_full(";a\r\n;b\r;c", "1:1 0-2 COMMENT\n2:1 4-6 COMMENT\n3:1 7-9 COMMENT");
    expect(";", "COMMENT");
    expect("e4;x", "SYMBOL e4 | COMMENT");
}
END_TEST

START_TEST(percent_escape)
{
    expect_full("%skip [Event \"x\"] {\ne4\n%\n%x\r\ne5 %y\n",
                "2:1 20-22 SYMBOL e4\n5:1 29-31 SYMBOL e5\n5:4 32-33 BAD %\n5:5 33-34 SYMBOL y");
    expect("%only", "");
    expect("  %x", "BAD % | SYMBOL x");
    expect(" %<>", "BAD %<>");
    expect("e4\r%x\ne5", "SYMBOL e4 | SYMBOL e5");
    expect("\xEF\xBB\xBF%x\ne4", "SYMBOL e4");
}
END_TEST

START_TEST(variations)
{
    expect_full("1. e4 (1. d4 (1. c4)) e5",
                "1:1 0-2 MOVENUM 1.\n1:4 3-5 SYMBOL e4\n1:7 6-7 VAR_OPEN\n1:8 7-9 MOVENUM 1.\n"
                "1:11 10-12 SYMBOL d4\n1:14 13-14 VAR_OPEN\n1:15 14-16 MOVENUM 1.\n"
                "1:18 17-19 SYMBOL c4\n1:20 19-20 VAR_CLOSE\n1:21 20-21 VAR_CLOSE\n"
                "1:23 22-24 SYMBOL e5");
}
END_TEST

START_TEST(junk_runs)
{
    expect_full("e4 <>\"\\}] ,'&^`|\x7f e5",
                "1:1 0-2 SYMBOL e4\n1:4 3-9 BAD <>\"\\}]\n1:11 10-17 BAD ,'&^`|\\x7f\n"
                "1:19 18-20 SYMBOL e5");
    static const char ctl[] = "e4\0\x01\x02\x1b\x00" "e5 \x00";
    char *got = lex_every_way(ctl, sizeof ctl - 1, 0);
    ck_assert_str_eq(got, "SYMBOL e4 | BAD \\x00\\x01\\x02\\x1b\\x00 | SYMBOL e5 | BAD \\x00");
    free(got);
    /* A junk run stops at every byte that starts a token. */
    expect("<(<)<[<{}<;", "BAD < | VAR_OPEN | BAD < | VAR_CLOSE | BAD < | BAD [<{}<;");
    expect("<*<$1<e4", "BAD < | RESULT * | BAD < | NAG 1 | BAD < | SYMBOL e4");
}
END_TEST

START_TEST(binary_junk_is_few_tokens)
{
    /* 64 KiB of control bytes separated by a newline every 4 KiB. */
    size_t n = 65536;
    char *s = malloc(n);
    ck_assert_ptr_nonnull(s);
    for (size_t i = 0; i < n; i++)
        s[i] = (char)((i % 4096 == 4095) ? '\n' : (char)(i % 7 + 1));
    char *got = lex_all(s, n, (cut_t){.rmax = 1000, .seed = 9}, 0);
    size_t bars = 0;
    for (char *q = got; (q = strstr(q, " | ")); q++)
        bars++;
    ck_assert_uint_eq(bars + 1, 16);
    free(got);
    free(s);
}
END_TEST

/* ---- the streaming contract ---- */

START_TEST(finish_completes_token)
{
    lexer_t *lx = lex_string("e4", 2);
    lex_token_t t;
    ck_assert_int_eq(lex_next(lx, &t), TOK_MORE);
    ck_assert_int_eq(lex_next(lx, &t), TOK_MORE); /* asking again is harmless */
    lex_finish(lx);
    ck_assert_int_eq(lex_next(lx, &t), TOK_SYMBOL);
    ck_assert_uint_eq(t.len, 2);
    ck_assert_mem_eq(t.text, "e4", 2);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(lex_next(lx, &t), TOK_EOF);
        ck_assert_uint_eq(t.offset, 2);
        ck_assert_uint_eq(t.line, 1);
        ck_assert_uint_eq(t.col, 3);
    }
    lex_free(lx);
}
END_TEST

START_TEST(finish_empty_stream)
{
    lexer_t *lx = lex_new();
    lex_token_t t;
    ck_assert_int_eq(lex_next(lx, &t), TOK_MORE);
    lex_finish(lx);
    ck_assert_int_eq(lex_next(lx, &t), TOK_EOF);
    ck_assert_uint_eq(t.offset, 0);
    ck_assert_uint_eq(t.line, 1);
    ck_assert_uint_eq(t.col, 1);
    lex_free(lx);
    lex_free(NULL);
}
END_TEST

START_TEST(empty_chunks)
{
    static const char *const parts[] = {"", "1.", "", "", "e4", "", " *", ""};
    char *got = lex_parts(parts, 8);
    ck_assert_str_eq(got, "1:1 0-2 MOVENUM 1. | 1:3 2-4 SYMBOL e4 | 1:6 5-6 RESULT *");
    free(got);
    lexer_t *lx = lex_new();
    lex_token_t t;
    ck_assert_int_eq(lex_next(lx, &t), TOK_MORE);
    lex_feed(lx, NULL, 0);
    ck_assert_int_eq(lex_next(lx, &t), TOK_MORE);
    lex_finish(lx);
    ck_assert_int_eq(lex_next(lx, &t), TOK_EOF);
    lex_free(lx);
}
END_TEST

START_TEST(text_points_into_chunk)
{
    /* Tokens that lie within the chunk are not copied. */
    static const char in[] = "[Event \"Rated\"] 1. Nf3 {c} $1 e4 <> 1-0";
    lexer_t *lx = lex_string(in, sizeof in - 1);
    lex_token_t t;
    int n = 0;
    while (lex_next(lx, &t) != TOK_MORE) {
        if (t.text)
            ck_assert_msg(t.text == in + t.offset || (t.kind == TOK_TAG && t.text == in + 1),
                          "%s text at offset %" PRIu64 " was copied", kind_name[t.kind], t.offset);
        if (t.value)
            ck_assert(t.value == in + 8);
        n++;
    }
    ck_assert_int_eq(n, 7); /* 1-0 ends with the chunk: it waits for more */
    lex_free(lx);
}
END_TEST

START_TEST(line_done)
{
    /* After each tag: whether the lexer already knows that the rest of the
     * tag's line is blank (so the next token starts on a later line). */
    static const struct {
        const char *in;
        bool done;
    } cases[] = {
        { "[A \"b\"]\n1. e4", true },
        { "[A \"b\"] \t\v\r\n1. e4", true },
        { "[A \"b\"]\r1. e4", true },
        { "[A \"b\"] {c}\n", false },
        { "[A \"b\"] [C \"d\"]\n", false },
        { "[A \"b\"]", false },      /* the chunk ends: not known yet */
        { "[A \"b\"]   ", false },
        { "[A \"b\\\" ] x\n", false }, /* a fallback tag, the rest of its line pending */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lexer_t *lx = lex_string(cases[i].in, strlen(cases[i].in));
        lex_token_t t;
        ck_assert_int_eq(lex_next(lx, &t), TOK_TAG);
        ck_assert_msg(lex_line_done(lx) == cases[i].done, "lex_line_done after %s", cases[i].in);
        lex_free(lx);
    }
}
END_TEST

START_TEST(plain_tag_line)
{
    /* Lines -j may cut before: one plain tag pair alone on its line. */
    static const struct {
        const char *in;
        bool plain;
    } cases[] = {
        { "[Event \"x\"]\n", true },
        { "[Event  \"x y\"] \t\r\n", true },
        { "[Event \"x\"]", false },          /* the line end is not in the buffer */
        { "[Event \"x\"]\r", false },        /* nor here: a lone CR may be CRLF */
        { "[Event \"a\\\"b\"]\n", false },  /* a backslash in the value */
        { "[Event \"x\"] [Site \"y\"]\n", false },
        { "[Event \"x\"] {c}\n", false },
        { "[Event\"x\"]\n", false },
        { "[ Event \"x\"]\n", false },
        { "[Event \"x\n\"]\n", false },
        { "[Resultf3 e5\n", false },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_msg(lex_plain_tag_line(cases[i].in, 0, strlen(cases[i].in)) == cases[i].plain, "%s",
                      cases[i].in);
}
END_TEST

START_TEST(token_spans_many_chunks)
{
    /* A tag of 5000 value bytes fed 7 bytes at a time, name cut too. */
    char *value = repeat("", 'v', 5000, "");
    value[0] = '\\';
    value[1] = '"';
    sbuf_t in = {0};
    sb_printf(&in, "[LongishName \"");
    sb_putn(&in, value, 5000);
    sb_printf(&in, "\"]\n1.e4");
    char *got = lex_all(in.s, in.len, (cut_t){.fixed = 7}, 0);
    sbuf_t want = {0};
    sb_printf(&want, "TAG LongishName = \"");
    sb_putn(&want, value + 2, 4998);
    sb_printf(&want, " | MOVENUM 1. | SYMBOL e4");
    ck_assert_str_eq(got, want.s);
    free(got);
    free(want.s);
    free(in.s);
    free(value);
}
END_TEST

START_TEST(lookahead_across_chunks)
{
    /* Every decision that needs the next bytes, cut right there. */
    static const char *const a[] = {"[A \"x\"", "  ", "]"};
    char *got = lex_parts(a, 3);
    ck_assert_str_eq(got, "1:1 0-9 TAG A = x");
    free(got);
    static const char *const b[] = {"[A \"x\" ", " y\"]"};
    got = lex_parts(b, 2);
    ck_assert_str_eq(got, "1:1 0-11 TAG A = x\"  y");
    free(got);
    static const char *const c[] = {"[A \"x\\", "\"", "]", "\n"};
    got = lex_parts(c, 4);
    ck_assert_str_eq(got, "1:1 0-8 TAG A = x\\");
    free(got);
    static const char *const d[] = {"1", "2", ".", ".", "e", "4"};
    got = lex_parts(d, 6);
    ck_assert_str_eq(got, "1:1 0-4 MOVENUM 12.. | 1:5 4-6 SYMBOL e4");
    free(got);
    static const char *const e[] = {"1/2-1", "/2", " 1-", "0"};
    got = lex_parts(e, 4);
    ck_assert_str_eq(got, "1:1 0-7 RESULT 1/2-1/2 | 1:9 8-11 RESULT 1-0");
    free(got);
    static const char *const f[] = {"\xEF", "\xBB", "\xBF", "e4"};
    got = lex_parts(f, 4);
    ck_assert_str_eq(got, "1:1 3-5 SYMBOL e4");
    free(got);
    static const char *const g[] = {"\xEF", "\xBB", "e4"};
    got = lex_parts(g, 3);
    ck_assert_str_eq(got, "1:1 0-4 SYMBOL \\xef\\xbbe4");
    free(got);
}
END_TEST

/* ---- caps ---- */

START_TEST(cap_tag_value)
{
    char *in = repeat("[Event \"", 'a', 100000, "\"] e4");
    char *got = lex_every_way(in, strlen(in), 1);
    ck_assert_msg(strncmp(got, "1:1 0-100010 TAG Event = aaaa", 29) == 0, "got %.40s", got);
    const char *nl = strchr(got, '\n');
    ck_assert_ptr_nonnull(nl);
    ck_assert_str_eq(nl, "\n1:100012 100011-100013 SYMBOL e4");
    ck_assert_msg(strstr(got, " trunc\n") != NULL, "value not marked truncated");
    free(got);
    /* Direct look at the value. */
    lexer_t *lx = lex_string(in, strlen(in));
    lex_token_t t;
    ck_assert_int_eq(lex_next(lx, &t), TOK_TAG);
    ck_assert_uint_eq(t.value_len, LEX_MAX_VALUE);
    ck_assert(t.truncated);
    ck_assert(t.value[0] == 'a' && t.value[LEX_MAX_VALUE - 1] == 'a');
    lex_free(lx);
    free(in);
}
END_TEST

START_TEST(cap_tag_value_exact)
{
    for (size_t n = LEX_MAX_VALUE - 1; n <= LEX_MAX_VALUE + 1; n++) {
        char *in = repeat("[E \"", 'b', n, "\"]");
        char *got = lex_every_way(in, strlen(in), 0);
        size_t len = strlen(got);
        int trunc = len > 6 && strcmp(got + len - 6, " trunc") == 0;
        ck_assert_msg(trunc == (n > LEX_MAX_VALUE), "value of %zu bytes: truncated %d", n, trunc);
        ck_assert_uint_eq(len, strlen("TAG E = ") + (n > LEX_MAX_VALUE ? LEX_MAX_VALUE : n) +
                                   (trunc ? 6 : 0));
        free(got);
        free(in);
    }
}
END_TEST

START_TEST(cap_escaped_value)
{
    /* 70000 escaped quotes: 140000 raw bytes, 70000 unescaped. */
    sbuf_t in = {0};
    sb_printf(&in, "[E \"");
    for (int i = 0; i < 70000; i++)
        sb_putn(&in, "\\\"", 2);
    sb_printf(&in, "\"]");
    char *whole = lex_every_way(in.s, in.len, 0);
    lexer_t *lx = lex_string(in.s, in.len);
    lex_token_t t;
    ck_assert_int_eq(lex_next(lx, &t), TOK_TAG);
    ck_assert_uint_eq(t.value_len, LEX_MAX_VALUE);
    ck_assert(t.truncated);
    for (size_t i = 0; i < t.value_len; i++)
        CHECK(t.value[i] == '"', "value byte %zu is 0x%02x", i, (unsigned char)t.value[i]);
    lex_free(lx);
    free(whole);
    free(in.s);
    /* 40000 escaped backslashes: 80000 raw, 40000 unescaped, not truncated. */
    sbuf_t in2 = {0};
    sb_printf(&in2, "[E \"");
    for (int i = 0; i < 40000; i++)
        sb_putn(&in2, "\\\\", 2);
    sb_printf(&in2, "\"]");
    free(lex_every_way(in2.s, in2.len, 0));
    lx = lex_string(in2.s, in2.len);
    ck_assert_int_eq(lex_next(lx, &t), TOK_TAG);
    ck_assert_uint_eq(t.value_len, 40000);
    ck_assert(!t.truncated);
    lex_free(lx);
    free(in2.s);
}
END_TEST

START_TEST(cap_tag_name)
{
    char *in = repeat("[", 'N', 1000, " \"v\"] e4");
    char *got = lex_every_way(in, strlen(in), 0);
    char *want = repeat("TAG ", 'N', LEX_MAX_NAME, " = v trunc | SYMBOL e4");
    ck_assert_str_eq(got, want);
    free(want);
    free(got);
    free(in);
}
END_TEST

START_TEST(cap_symbol)
{
    size_t n = 1 << 20;
    char *in = repeat("e4 ", 'x', n, " e5");
    char *got = lex_every_way(in, strlen(in), 1);
    char *want = repeat("1:1 0-2 SYMBOL e4\n1:4 3-1048579 SYMBOL ", 'x', LEX_MAX_SYMBOL,
                        " trunc\n1:1048581 1048580-1048582 SYMBOL e5");
    ck_assert_str_eq(got, want);
    free(want);
    free(got);
    free(in);
    /* Digits then a dot: still a move number, truncated. */
    in = repeat("", '7', 100000, ". e4");
    got = lex_every_way(in, strlen(in), 0);
    want = repeat("MOVENUM ", '7', LEX_MAX_SYMBOL, " trunc | SYMBOL e4");
    ck_assert_str_eq(got, want);
    free(want);
    free(got);
    free(in);
    /* A truncated symbol is never a NAG or a result. */
    in = repeat("", '!', 1000, "");
    got = lex_every_way(in, strlen(in), 0);
    want = repeat("SYMBOL ", '!', LEX_MAX_SYMBOL, " trunc");
    ck_assert_str_eq(got, want);
    free(want);
    free(got);
    free(in);
}
END_TEST

START_TEST(cap_bad_and_nag)
{
    char *in = repeat("", '<', 100000, " e4");
    char *got = lex_every_way(in, strlen(in), 0);
    char *want = repeat("BAD ", '<', LEX_MAX_SYMBOL, " trunc | SYMBOL e4");
    ck_assert_str_eq(got, want);
    free(want);
    free(got);
    free(in);
    in = repeat("$", '9', 5000, "");
    got = lex_every_way(in, strlen(in), 0);
    want = repeat("BAD $", '9', LEX_MAX_SYMBOL - 1, " trunc");
    ck_assert_str_eq(got, want);
    free(want);
    free(got);
    free(in);
}
END_TEST

START_TEST(cap_fallback_long_line)
{
    /* The fallback on a line longer than the raw bytes kept. */
    char *in = repeat("[E \"", 'c', 200000, "\\\"]\ne4");
    char *got = lex_every_way(in, strlen(in), 0);
    char *want = repeat("TAG E = ", 'c', LEX_MAX_VALUE, " trunc | SYMBOL e4");
    ck_assert_str_eq(got, want);
    free(want);
    free(got);
    free(in);
    /* Bad tag line far longer than the text kept. */
    in = repeat("[E \"", 'd', 200000, "\ne4");
    got = lex_every_way(in, strlen(in), 1);
    ck_assert_msg(strstr(got, "1:1 0-200004 BAD [E \"ddd") == got, "got %.60s", got);
    ck_assert_msg(strstr(got, "d trunc\n2:1 200005-200007 SYMBOL e4") != NULL, "got ...%s",
                  got + strlen(got) - 60);
    free(got);
    free(in);
}
END_TEST

START_TEST(long_comment)
{
    size_t n = 8u << 20;
    char *in = repeat("{", 'z', n, "} e4");
    for (size_t i = 1000; i < n; i += 1000)
        in[i] = '\n';
    char *got = lex_all(in, strlen(in), (cut_t){.fixed = 65536}, 1);
    char want[128];
    size_t last_lf = (n - 1) / 1000 * 1000; /* offsets of the newlines: 1000, 2000... */
    snprintf(want, sizeof want, "1:1 0-%zu COMMENT\n%zu:%zu %zu-%zu SYMBOL e4", n + 2,
             1 + (n - 1) / 1000, n + 3 - last_lf, n + 3, n + 5);
    ck_assert_str_eq(got, want);
    free(got);
    free(in);
}
END_TEST

/* ---- chunk invariance on corpus-like text ---- */

static const char *const corpus_like[] = {
    /* lichess export */
    "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/ttgKfhyW\"]\n"
    "[White \"Bfx-de-Blr\"]\n[Result \"1-0\"]\n[WhiteElo \"1801\"]\n\n"
    "1. e4 { [%clk 0:03:00] } 1... Nf6 { [%clk 0:03:00] } 2. e5?! Nd5 3. d4 d6 "
    "4. c4 Nb6 5. Nf3 g6 34. Qxd8 1-0\n\n\n",
    /* TCEC with CRLF and engine comments */
    "[Event \"TCEC Cup 10\"]\r\n[Round \"1.1\"]\r\n[Result \"1/2-1/2\"]\r\n\r\n"
    "{WhiteEngineOptions: Protocol=uci; Threads=104; Hash=65536;}\r\n"
    "1. e4 {book, mb=+0+0+0+0+0,} b6 {d=33, sd=33, mt=37918, pv=d4 e6 Bd3,\r\n"
    "tb=0, h=0.0}\r\n2. Nc3 {book} Bb7 1/2-1/2\r\n",
    /* mixed line endings, annotations, variations, escapes */
    "\xEF\xBB\xBF[Event \"Tournament \\\"]\r[Site \"C:\\\\x\"]\n[White \"Smith, \"The King\"\"]\r\n"
    "%escaped line\n1.d4!? $14 (1.e4 e5?! (1...c5!!) 2.Nf3) 1...Nf6 ; rest\r"
    "2.c4 e6 {a { b} 3.Nc3 Bb4 4.Qc2 O-O 5.a3 Bxc3+ 6.Qxc3 b6 7.Bg5 Bb7 *",
    /* junk, odd symbols, bad tags */
    "[Event Foo]\n[Ev? \"]\"] [\"x\"]\n1. e4 <br/> \x01\x02 e5 ,, 2. Nf3 -- 3. Z0 @@ N@f3 "
    "exd6e.p. 1/2 \xc2\xbd-\xc2\xbd $999 $ }]) ( e4* 0-1",
    /* fallback with tail, ; and % interplay, unterminated comment */
    "[A \"x\\\"] y \\\"] z\n;{ not a comment start\n%[B \"y\"]\n {x\n\r\ny",
};

START_TEST(chunks_corpus_like)
{
    for (size_t i = 0; i < sizeof corpus_like / sizeof corpus_like[0]; i++) {
        const char *in = corpus_like[i];
        char *whole = lex_every_way(in, strlen(in), 1);
        for (uint64_t seed = 1; seed <= 40; seed++) {
            char *other = lex_all(in, strlen(in), (cut_t){.rmax = 1 + seed % 9, .seed = seed}, 1);
            char what[64];
            snprintf(what, sizeof what, "text %zu, seed %" PRIu64, i, seed);
            assert_same(whole, other, what);
            free(other);
        }
        free(whole);
    }
}
END_TEST

START_TEST(chunks_fuzz)
{
    /* Random strings over the bytes that matter to the lexer. */
    static const char alphabet[] = "[]\"\\ \t\r\n{};%$()*!?.-/e41Nx0<\xEF\xBB\xBF\x80";
    uint64_t seed = 12345;
    char in[160];
    for (int round = 0; round < 3000; round++) {
        size_t n = (size_t)(next_random(&seed) % sizeof in);
        for (size_t i = 0; i < n; i++)
            in[i] = alphabet[next_random(&seed) % (sizeof alphabet - 1)];
        char *whole = lex_all(in, n, (cut_t){0}, 1);
        static const cut_t cuts[] = {{.fixed = 1}, {.rmax = 4, .seed = 7}, {.rmax = 16, .seed = 8}};
        for (size_t c = 0; c < 3; c++) {
            char *other = lex_all(in, n, cuts[c], 1);
            if (strcmp(whole, other) != 0) {
                sbuf_t shown = {0};
                sb_bytes(&shown, in, n);
                ck_abort_msg("round %d, cut %zu, input \"%s\":\nwhole:\n%s\nother:\n%s", round, c,
                             shown.s, whole, other);
            }
            free(other);
        }
        free(whole);
    }
}
END_TEST

/* ---- the mainline readings ---- */

/* How the reader in the mainline reads: lex_next() with move numbers,
 * comments and glyphs dropped (the reference), lex_next_mainline(), or runs
 * of lex_next_moves() of at most `run` symbols with lex_next_mainline() for
 * what they stop at.  One line per token kept, then the end of the last
 * token read, kept or not. */
enum reading { BY_LEX_NEXT, BY_MAINLINE, BY_RUNS };

static void sb_brief(sbuf_t *b, lex_kind_t kind, uint64_t off, uint64_t end, uint64_t line, uint32_t col,
                     const char *text, size_t len)
{
    sb_printf(b, "%d %" PRIu64 "-%" PRIu64 " %" PRIu64 ":%u ", (int)kind, off, end, line, (unsigned)col);
    if (text)
        sb_bytes(b, text, len);
    sb_putn(b, "\n", 1);
}

static char *lex_reading(const char *in, size_t n, cut_t cut, enum reading how, size_t run)
{
    const unsigned skipped = 1u << TOK_MOVENUM | 1u << TOK_COMMENT | 1u << TOK_NAG;
    lexer_t *lx = lex_new();
    ck_assert_ptr_nonnull(lx);
    sbuf_t out = {0};
    sb_putn(&out, "", 0);
    char *chunk = NULL;
    size_t fed = 0;
    uint64_t seed = cut.seed | 1, where = 0;
    lex_move_t moves[8];
    for (;;) {
        if (how == BY_RUNS) {
            uint64_t passed = 0;
            size_t got = lex_next_moves(lx, moves, run, &passed);
            CHECK(got <= run, "%zu symbols for room for %zu", got, run);
            for (size_t i = 0; i < got; i++) {
                const lex_move_t *m = &moves[i];
                CHECK(m->end >= where, "run symbol ends at %" PRIu64 ", before %" PRIu64, m->end, where);
                sb_brief(&out, TOK_SYMBOL, m->end - m->len, m->end, m->line, lex_move_col(lx, m), m->text,
                         m->len);
                where = m->end;
            }
            if (passed > where)
                where = passed;
            if (got == run)
                continue;
        }
        lex_token_t t;
        uint64_t passed = 0;
        lex_kind_t k = how == BY_LEX_NEXT ? lex_next(lx, &t) : lex_next_mainline(lx, &t, &passed);
        CHECK(passed == 0 || passed >= where, "passed over up to %" PRIu64 ", after %" PRIu64, passed, where);
        if (passed > where)
            where = passed;
        if (k == TOK_MORE) {
            feed_next(lx, in, n, &fed, &chunk, cut, &seed);
            continue;
        }
        if (k == TOK_EOF)
            break;
        CHECK(how == BY_LEX_NEXT || !(skipped >> k & 1), "kind %d handed out in the mainline", (int)k);
        where = t.end;
        if (!(skipped >> k & 1))
            sb_brief(&out, k, t.offset, t.end, t.line, t.col, t.text, t.len);
    }
    sb_printf(&out, "read up to %" PRIu64 "\n", where);
    free(chunk);
    lex_free(lx);
    return out.s;
}

/* Fails, showing both and the input, unless the reading got (freed here)
 * is the reading by lex_next() alone, want. */
static void same_reading(const char *want, char *got, const char *in, size_t n, const char *what)
{
    if (strcmp(want, got) != 0) {
        sbuf_t shown = {0};
        sb_bytes(&shown, in, n < 300 ? n : 300);
        ck_abort_msg("%s, input \"%s\":\nlex_next:\n%s\nthis reading:\n%s", what, shown.s, want, got);
    }
    free(got);
}

/* The three readings agree, however the input is cut. */
static void mainline_readings_agree(const char *in, size_t n, uint64_t seeds)
{
    char *want = lex_reading(in, n, (cut_t){0}, BY_LEX_NEXT, 0);
    for (uint64_t seed = 0; seed <= seeds; seed++) {
        cut_t cut = seed ? (cut_t){.rmax = 1 + seed % 23, .seed = seed} : (cut_t){0};
        for (int how = BY_MAINLINE; how <= BY_RUNS; how++) {
            size_t run = how == BY_RUNS ? 1 + (size_t)(seed % 8) : 0;
            char what[64];
            snprintf(what, sizeof what, "reading %d (runs of %zu), seed %" PRIu64, how, run, seed);
            same_reading(want, lex_reading(in, n, cut, (enum reading)how, run), in, n, what);
        }
    }
    free(want);
}

START_TEST(mainline_corpus_like)
{
    for (size_t i = 0; i < sizeof corpus_like / sizeof corpus_like[0]; i++)
        mainline_readings_agree(corpus_like[i], strlen(corpus_like[i]), 60);
    /* A result glued to a move ends a run; the symbols after it are read anew. */
    const char *glued = "1. e4 e5 2. Rd6+1-0 Nf3 3. Bb5/ a6 1/2-1/2 Ke2 {x} 0-1";
    mainline_readings_agree(glued, strlen(glued), 60);
    lex_move_t moves[8];
    uint64_t passed = 0;
    lexer_t *lx = lex_new();
    lex_feed(lx, glued, strlen(glued));
    lex_token_t t;
    ck_assert_uint_eq(lex_next_moves(lx, moves, 8, &passed), 0); /* the stream start: a mark may come */
    ck_assert_int_eq(lex_next_mainline(lx, &t, &passed), TOK_SYMBOL); /* e4 */
    ck_assert_uint_eq(lex_next_moves(lx, moves, 8, &passed), 2);
    ck_assert_uint_eq(moves[1].len, 7); /* Rd6+1-0, the last of its run */
    ck_assert_uint_eq(passed, 11);       /* the end of "2." */
    ck_assert_uint_eq(lex_next_moves(lx, moves, 8, &passed), 2); /* Nf3, Bb5/ */
    ck_assert_uint_eq(lex_next_moves(lx, moves, 8, &passed), 1); /* a6, then a result */
    ck_assert_uint_eq(lex_next_moves(lx, moves, 8, &passed), 0);
    lex_free(lx);
    /* The same with sixteen bytes and more after the symbol, where whole
     * moves are read sixteen bytes at a time: a 0 still ends the run. */
    const char *zero = "1. e4 e5 2. Nf3+0 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. Qe2 *";
    mainline_readings_agree(zero, strlen(zero), 20);
    lx = lex_new();
    lex_feed(lx, zero, strlen(zero));
    ck_assert_uint_eq(lex_next_moves(lx, moves, 8, &passed), 0);
    ck_assert_int_eq(lex_next_mainline(lx, &t, &passed), TOK_SYMBOL); /* e4 */
    ck_assert_uint_eq(lex_next_moves(lx, moves, 8, &passed), 2);
    ck_assert_uint_eq(moves[1].len, 5); /* Nf3+0 */
    ck_assert_uint_eq(lex_next_moves(lx, moves, 8, &passed), 6); /* Nc6 ... Qe2 */
    ck_assert_uint_eq(moves[5].len, 3);
    lex_free(lx);
}
END_TEST

/* Asks agree(in, n, 4) of 1500 random inputs of fewer than 120 bytes
 * drawn from alphabet. */
static void random_inputs(const char *alphabet, uint64_t seed, void (*agree)(const char *, size_t, uint64_t))
{
    char in[120];
    size_t letters = strlen(alphabet);
    for (int round = 0; round < 1500; round++) {
        size_t n = (size_t)(next_random(&seed) % sizeof in);
        for (size_t i = 0; i < n; i++)
            in[i] = alphabet[next_random(&seed) % letters];
        agree(in, n, 4);
    }
}

START_TEST(mainline_fuzz)
{
    random_inputs(" \n\r{}()$!?.-/0123e4xNO=+#*;[]\"%\xc2\xbd", 777, mainline_readings_agree);
}
END_TEST

/* lex_next_tags() with each tag of the run as lex_next() gives it. */
static size_t next_tag_tokens(lexer_t *lx, lex_token_t *tags, size_t max, uint64_t seen[4])
{
    lex_tag_run_t run;
    lex_tag_at_t at[8];
    ck_assert_uint_le(max, 8);
    size_t n = lex_next_tags(lx, &run, at, max, seen);
    for (size_t i = 0; i < n; i++) {
        lex_tag_token(&run, &at[i], &tags[i]);
        /* One copy takes the run: every tag lies in it, in order. */
        ck_assert(i == 0 ? at[i].at == 0 : at[i].at > at[i - 1].close);
        ck_assert(at[i].name > at[i].at && at[i].value > at[i].name && at[i].close >= at[i].value + at[i].value_len);
    }
    return n;
}

/* Reads in[0..n) cut as told, every token in full: with lex_next() alone
 * (run 0), or asking lex_next_tags() for up to run tags first each time,
 * with a set of names that starts empty at each other token (or holds
 * every name, with full_seen).  Checks what lex_next_tags() promises: tags
 * only, their line blank after them, no name whose bit was set. */
static char *lex_tag_reading(const char *in, size_t n, cut_t cut, size_t run, bool full_seen)
{
    lexer_t *lx = lex_new();
    ck_assert_ptr_nonnull(lx);
    sbuf_t out = {0};
    sb_putn(&out, "", 0);
    char *chunk = NULL;
    size_t fed = 0;
    uint64_t seed = cut.seed | 1, seen[4] = {0, 0, 0, 0};
    lex_token_t tags[8];
    for (;;) {
        if (full_seen)
            memset(seen, 0xff, sizeof seen);
        if (run) {
            uint64_t before[4];
            memcpy(before, seen, sizeof seen);
            size_t got = next_tag_tokens(lx, tags, run, seen);
            CHECK(got <= run && (!full_seen || got == 0), "%zu tags for room for %zu", got, run);
            for (size_t i = 0; i < got; i++) {
                const lex_token_t *t = &tags[i];
                unsigned bit = lex_name_bit(t->text, t->len);
                CHECK(t->kind == TOK_TAG && !(before[bit >> 6] >> (bit & 63) & 1), "tag %zu of a run", i);
                CHECK(seen[bit >> 6] >> (bit & 63) & 1, "the bit of a tag handed out is not set");
                before[bit >> 6] |= (uint64_t)1 << (bit & 63);
                CHECK(lx != NULL && t->end <= n, "tag past the input");
                size_t k = (size_t)t->end;
                while (k < n && (in[k] == ' ' || in[k] == '\t' || in[k] == '\v' || in[k] == '\f'))
                    k++;
                CHECK(k < n && (in[k] == '\n' || in[k] == '\r'), "a run tag with more on its line");
                if (out.len)
                    sb_putn(&out, "\n", 1);
                sb_token(&out, t, 1);
            }
            if (got == run)
                continue;
        }
        lex_token_t t;
        lex_kind_t k = lex_next(lx, &t);
        if (k == TOK_MORE) {
            feed_next(lx, in, n, &fed, &chunk, cut, &seed);
            continue;
        }
        if (k == TOK_EOF)
            break;
        if (k != TOK_TAG)
            memset(seen, 0, sizeof seen);
        if (out.len)
            sb_putn(&out, "\n", 1);
        sb_token(&out, &t, 1);
    }
    free(chunk);
    lex_free(lx);
    return out.s;
}

/* Runs of tags read the same tokens as lex_next(), however the input is cut. */
static void tag_readings_agree(const char *in, size_t n, uint64_t seeds)
{
    char *want = lex_tag_reading(in, n, (cut_t){0}, 0, false);
    for (uint64_t seed = 0; seed <= seeds; seed++) {
        cut_t cut = seed ? (cut_t){.rmax = 1 + seed % 41, .seed = seed} : (cut_t){0};
        size_t run = 1 + (size_t)(seed % 8);
        for (int full = 0; full <= 1; full++) {
            char what[64];
            snprintf(what, sizeof what, "runs of %zu tags%s, seed %" PRIu64, run, full ? " (every name seen)" : "",
                     seed);
            same_reading(want, lex_tag_reading(in, n, cut, run, full), in, n, what);
        }
    }
    free(want);
}

START_TEST(tags_corpus_like)
{
    for (size_t i = 0; i < sizeof corpus_like / sizeof corpus_like[0]; i++)
        tag_readings_agree(corpus_like[i], strlen(corpus_like[i]), 60);
    /* A run stops before what a reader must look at itself: a name it may
     * have, a tag with more on its line, an escape, a line end not yet fed. */
    const char *in = "[Event \"a\"]\r\n[Site \"b\"]\n[Event \"c\"]\n[D \"e\"] {x}\n[F \"\\\"\"]\n[G \"h\"]";
    tag_readings_agree(in, strlen(in), 60);
    lexer_t *lx = lex_new();
    lex_feed(lx, in, strlen(in));
    lex_token_t tags[8], t;
    uint64_t seen[4] = {0, 0, 0, 0};
    ck_assert_uint_eq(next_tag_tokens(lx, tags, 8, seen), 0); /* the stream start: a mark may come */
    ck_assert_int_eq(lex_next(lx, &t), TOK_TAG);
    unsigned bit = lex_name_bit(t.text, t.len);
    seen[bit >> 6] |= (uint64_t)1 << (bit & 63);
    ck_assert_uint_eq(next_tag_tokens(lx, tags, 8, seen), 1);
    ck_assert_uint_eq(tags[0].line, 2);
    ck_assert_uint_eq(tags[0].col, 1);
    ck_assert_uint_eq(tags[0].offset, 13);
    ck_assert_uint_eq(tags[0].value_len, 1);
    ck_assert_uint_eq(next_tag_tokens(lx, tags, 8, seen), 0); /* Event again */
    memset(seen, 0, sizeof seen);
    ck_assert_uint_eq(next_tag_tokens(lx, tags, 8, seen), 1); /* Event "c" */
    ck_assert_uint_eq(next_tag_tokens(lx, tags, 8, seen), 0); /* D: a comment follows */
    ck_assert_int_eq(lex_next(lx, &t), TOK_TAG);
    ck_assert_int_eq(lex_next(lx, &t), TOK_COMMENT);
    ck_assert_uint_eq(next_tag_tokens(lx, tags, 8, seen), 0); /* F: an escape */
    ck_assert_int_eq(lex_next(lx, &t), TOK_TAG);
    ck_assert_uint_eq(next_tag_tokens(lx, tags, 8, seen), 0); /* G: its line end is not here yet */
    lex_free(lx);
}
END_TEST

START_TEST(tags_fuzz)
{
    random_inputs("[[[]]]\"\"\"  \n\n\r\tAbA_1\\{}e4.;%", 4711, tag_readings_agree);
}
END_TEST

/* Tag sections that repeat the names of the one before, as exports do: a
 * run reads a line that starts as the name that followed last time did
 * ([Name ") by one compare, and must still read every shape of it as
 * lex_next() does: a quote inside the value, blanks before the ']', an
 * escape, more on the line, a name that is the start of another (White,
 * WhiteElo, WhiteABx"), no ']', \r\n, a value too long to keep, and a
 * line cut by the chunk's end. */
START_TEST(tags_known_names)
{
    static const char *const variants[] = {
        "[Event \"e\"]\n[Site \"s\"]\n[White \"w\"]\n[WhiteElo \"1\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n",
        "[Event \"e\"]\n[Site \"a\"b\"]\n[White \"w\" ]\n[WhiteElo \"2\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n",
        "[Event \"e\"]\r\n[Site \"s\\\"\"]\r\n[White \"w\"] x\r\n[WhiteElo \"3\"]\r\n[Result \"0-1\"]\r\n\r\n1. e4 0-1\r\n\r\n",
        "[Event \"e\"]\n[Site  \"s\"]\n[WhiteElo \"4\"]\n[White \"w\"]\n[Result \"*\"]\n\n*\n\n",
        "[Event \"e\"]\n[Site \"s\"]\n[White \"w\"]\n[WhiteElo \"5\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n",
        "[Event \"e\"]\n[Site \"\"]\n[White \"\"\"]\n[WhiteElo \"\\\\\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n",
        "[Event \"e\"]\n[Site \"s\"]\n[White \"w\"]\n[WhiteElo \"6\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n",
        "[Event \"e\"]\n[Site \"s\"]\n[White \"w\"\n\n[WhiteElo \"7\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n",
        "[Event \"e\"]\n[Site \"s\"]\n[WhiteABx\"]\n[WhiteElo \"8\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n",
        "[Event \"e\"]\n[Site \"s\"]\n[White \"w\"]\n[WhiteElo \"9\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n",
    };
    size_t cap = 3 * LEX_MAX_VALUE + 4096, n = 0;
    char *in = malloc(cap);
    ck_assert_ptr_nonnull(in);
    for (int round = 0; round < 3; round++)
        for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
            n += (size_t)sprintf(in + n, "%s", variants[i]);
    /* A value one byte over the cap, then one at it, on a known name. */
    for (int over = 1; over >= 0; over--) {
        n += (size_t)sprintf(in + n, "[Event \"e\"]\n[Site \"");
        memset(in + n, 'v', (size_t)LEX_MAX_VALUE + (size_t)over);
        n += (size_t)LEX_MAX_VALUE + (size_t)over;
        n += (size_t)sprintf(in + n, "\"]\n[White \"w\"]\n\n*\n\n");
    }
    n += (size_t)sprintf(in + n, "%s", variants[0]);
    /* The last line is cut short: its value runs to the end of the input. */
    n += (size_t)sprintf(in + n, "[Event \"e\"]\n[Site \"s\"]\n[White \"w");
    tag_readings_agree(in, n, 12);
    free(in);
}
END_TEST

static Suite *lex_suite(void)
{
    Suite *s = suite_create("lex");
    struct {
        const char *name;
        const TTest *test;
    } cases[] = {
#define CASE(t) {#t, t}
        CASE(tag_basic),
        CASE(tag_blanks),
        CASE(tag_empty_value),
        CASE(tag_name_chars),
        CASE(tag_escapes),
        CASE(tag_unescaped_quotes),
        CASE(tag_brackets_in_value),
        CASE(tag_fallback_backslash_end),
        CASE(tag_fallback_last_candidate),
        CASE(tag_fallback_tail),
        CASE(tag_fallback_at_eof),
        CASE(tag_unclosed_value),
        CASE(tag_broken_before_value),
        CASE(tag_several_on_a_line),
        CASE(tag_after_movetext),
        CASE(tag_value_bytes_kept),
        CASE(tag_crlf),
        CASE(bom_skipped),
        CASE(bom_partial),
        CASE(bom_not_at_start),
        CASE(lines_lf_crlf_cr),
        CASE(lines_crlf_split_across_chunks),
        CASE(lines_in_comments),
        CASE(lines_in_long_comments),
        CASE(columns_count_bytes),
        CASE(movenum_glued),
        CASE(movenum_alone),
        CASE(movenum_not),
        CASE(results),
        CASE(results_not),
        CASE(nag_glyphs),
        CASE(nag_dollar),
        CASE(nag_dollar_bad),
        CASE(symbols_odd),
        CASE(comment_brace),
        CASE(comment_brace_no_nesting),
        CASE(comment_brace_unterminated),
        CASE(comment_semicolon),
        CASE(percent_escape),
        CASE(variations),
        CASE(junk_runs),
        CASE(binary_junk_is_few_tokens),
        CASE(finish_completes_token),
        CASE(finish_empty_stream),
        CASE(empty_chunks),
        CASE(text_points_into_chunk),
        CASE(line_done),
        CASE(plain_tag_line),
        CASE(token_spans_many_chunks),
        CASE(lookahead_across_chunks),
        CASE(cap_tag_value),
        CASE(cap_tag_value_exact),
        CASE(cap_escaped_value),
        CASE(cap_tag_name),
        CASE(cap_symbol),
        CASE(cap_bad_and_nag),
        CASE(cap_fallback_long_line),
        CASE(long_comment),
        CASE(chunks_corpus_like),
        CASE(chunks_fuzz),
        CASE(mainline_corpus_like),
        CASE(mainline_fuzz),
        CASE(tags_corpus_like),
        CASE(tags_fuzz),
        CASE(tags_known_names),
#undef CASE
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TCase *tc = tcase_create(cases[i].name);
        tcase_add_test(tc, cases[i].test);
        tcase_set_timeout(tc, 120);
        suite_add_tcase(s, tc);
    }
    return s;
}

int main(void)
{
    return tu_run(lex_suite());
}
