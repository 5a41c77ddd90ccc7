/* test_report.c: unit tests for the records of src/report.h: JSON strings
 * (escapes, UTF-8 kept, every kind of invalid UTF-8 replaced byte by byte
 * with U+FFFD), whole JSON and text records, the --check problem lines and
 * their counts, game numbers remembered for renumbering, strbuf growth, and
 * the colour variants (which may add ANSI sequences and nothing else).
 *
 * Records are compared whole; a failure shows both strings with control
 * and non-ASCII bytes made visible. */
#include <check.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "testutil.h"

/* ---- comparing bytes ---- */

/* Fails unless b holds exactly want[0..n). */
static void expect_bytes_at(const char *file, int line, const char *what, const strbuf_t *b, const char *want,
                            size_t n)
{
    CHECK(!b->oom, "%s:%d: %s: the strbuf ran out of memory", file, line, what);
    if (b->len == n && (n == 0 || memcmp(b->data, want, n) == 0))
        return;
    size_t i = 0;
    while (i < b->len && i < n && b->data[i] == want[i])
        i++;
    ck_abort_msg("%s:%d: %s: first difference at byte %zu\n  want (%zu bytes): %s\n  got  (%zu bytes): %s", file,
                 line, what, i, n, tu_vis(want, n), b->len, tu_vis(b->data, b->len));
}
#define BYTES(what, b, want, n) expect_bytes_at(TU_WHERE, (what), (b), (want), (n))
#define TEXT(what, b, want) expect_bytes_at(TU_WHERE, (what), (b), (want), strlen(want))

/* The facts after the eight this suite knows (checkmate .. fifty), as they
 * appear in the "first" object of a record where none of them holds:
 * ",\"name\":null" each, names from arb_fact_name().  Empty while there are
 * eight; it keeps the whole-record comparisons below exact for the facts
 * they spell out when others are added to arb_fact. */
static const char *extra_first_nulls(void)
{
    static char buf[1024];
    size_t at = 0;
    buf[0] = '\0';
    for (int f = 8; f < ARB_FACT_COUNT && at < sizeof buf - 64; f++)
        at += (size_t)snprintf(buf + at, sizeof buf - at, ",\"%s\":null", arb_fact_name((arb_fact)f));
    return buf;
}

/* want with "@EXTRA@" replaced by extra_first_nulls(); free() it. */
static char *with_extra(const char *want)
{
    const char *at = strstr(want, "@EXTRA@"), *extra = extra_first_nulls();
    CHECK(at != NULL, "test bug: no @EXTRA@ in the expected record");
    size_t n = strlen(want) - 7 + strlen(extra);
    char *out = malloc(n + 1);
    CHECK(out != NULL, "out of memory");
    snprintf(out, n + 1, "%.*s%s%s", (int)(at - want), want, extra, at + 7);
    return out;
}

/* Compares b with want after with_extra(). */
static void record_at(const char *file, int line, const char *what, const strbuf_t *b, const char *want)
{
    char *w = with_extra(want);
    expect_bytes_at(file, line, what, b, w, strlen(w));
    free(w);
}
#define RECORD(what, b, want) record_at(TU_WHERE, (what), (b), (want))

/* report_json_string of in[0..n) must give want (a C string). */
static void json_str_at(const char *file, int line, const char *in, size_t n, const char *want)
{
    strbuf_t b = { 0 };
    report_json_string(&b, in, n);
    char what[128];
    snprintf(what, sizeof what, "report_json_string(%s)", tu_vis(in, n));
    expect_bytes_at(file, line, what, &b, want, strlen(want));
    strbuf_free(&b);
}
/* For inputs with NUL bytes: a literal, its length from sizeof. */
#define JSTR(lit, want) json_str_at(TU_WHERE, (lit), sizeof(lit) - 1, (want))

#define FFFD "\xEF\xBF\xBD"

/* ---- report_json_string ---- */

START_TEST(json_string_escapes)
{
    JSTR("", "\"\"");
    JSTR("Carlsen, Magnus", "\"Carlsen, Magnus\"");
    JSTR("say \"hi\"", "\"say \\\"hi\\\"\"");
    JSTR("a\\b", "\"a\\\\b\"");
    JSTR("\\\"", "\"\\\\\\\"\"");
    JSTR("a\nb\rc\td", "\"a\\nb\\rc\\td\"");
    JSTR("/ ~ { } [ ]", "\"/ ~ { } [ ]\"");
    /* Every other control byte, NUL included, as \u00XX in lower case hex. */
    for (int c = 0; c < 0x20; c++) {
        char in[3] = { 'x', (char)c, 'y' }, want[16];
        if (c == '\n' || c == '\r' || c == '\t')
            continue;
        snprintf(want, sizeof want, "\"x\\u%04xy\"", c);
        json_str_at(TU_WHERE, in, 3, want);
    }
    JSTR("\x1f\x01", "\"\\u001f\\u0001\"");
    /* n, not strlen, says where the string ends. */
    json_str_at(TU_WHERE, "abcdef", 3, "\"abc\"");
    json_str_at(TU_WHERE, "a\0b", 3, "\"a\\u0000b\"");
    /* Appends: what the buffer held stays. */
    strbuf_t b = { 0 };
    strbuf_puts(&b, "{\"k\":");
    report_json_string(&b, "v\"", 2);
    strbuf_puts(&b, "}");
    TEXT("append after text", &b, "{\"k\":\"v\\\"\"}");
    strbuf_free(&b);
}
END_TEST

START_TEST(json_string_valid_utf8)
{
    /* The boundaries of each sequence length are kept as they are. */
    JSTR("\xC2\x80", "\"\xC2\x80\"");                 /* U+0080 */
    JSTR("caf\xC3\xA9", "\"caf\xC3\xA9\"");           /* U+00E9 */
    JSTR("\xDF\xBF", "\"\xDF\xBF\"");                 /* U+07FF */
    JSTR("\xE0\xA0\x80", "\"\xE0\xA0\x80\"");         /* U+0800 */
    JSTR("\xE2\x82\xAC", "\"\xE2\x82\xAC\"");         /* U+20AC euro */
    JSTR("\xED\x9F\xBF", "\"\xED\x9F\xBF\"");         /* U+D7FF, below the surrogates */
    JSTR("\xEE\x80\x80", "\"\xEE\x80\x80\"");         /* U+E000, above them */
    JSTR("\xEF\xBF\xBD", "\"\xEF\xBF\xBD\"");         /* U+FFFD itself */
    JSTR("\xEF\xBF\xBF", "\"\xEF\xBF\xBF\"");         /* U+FFFF */
    JSTR("\xF0\x90\x80\x80", "\"\xF0\x90\x80\x80\""); /* U+10000 */
    JSTR("\xF0\x9D\x84\x9E", "\"\xF0\x9D\x84\x9E\""); /* U+1D11E */
    JSTR("\xF4\x8F\xBF\xBF", "\"\xF4\x8F\xBF\xBF\""); /* U+10FFFF, the last */
    JSTR("\xC5\x81\xC3\xB3" "d\xC5\xBA \"\xE6\x97\xA5\"",
         "\"\xC5\x81\xC3\xB3" "d\xC5\xBA \\\"\xE6\x97\xA5\\\"\""); /* mixed with escapes */
}
END_TEST

START_TEST(json_string_invalid_utf8)
{
    /* Each byte that is not part of a valid sequence becomes U+FFFD. */
    /* stray continuation bytes */
    JSTR("\x80", "\"" FFFD "\"");
    JSTR("a\xBF" "b", "\"a" FFFD "b\"");
    JSTR("\xC3\xA9\xA9", "\"\xC3\xA9" FFFD "\"");
    /* bytes that never occur */
    JSTR("\xC0", "\"" FFFD "\"");
    JSTR("\xF5\x80\x80\x80", "\"" FFFD FFFD FFFD FFFD "\"");
    JSTR("\xFE\xFF", "\"" FFFD FFFD "\"");
    /* overlong forms: 2-byte (C0 80 = NUL, C1 BF), 3-byte (E0 9F BF =
     * U+07FF, E0 80 80), 4-byte (F0 8F BF BF = U+FFFF, F0 80 80 80) */
    JSTR("\xC0\x80", "\"" FFFD FFFD "\"");
    JSTR("\xC1\xBF", "\"" FFFD FFFD "\"");
    JSTR("\xE0\x9F\xBF", "\"" FFFD FFFD FFFD "\"");
    JSTR("\xE0\x80\x80", "\"" FFFD FFFD FFFD "\"");
    JSTR("\xF0\x8F\xBF\xBF", "\"" FFFD FFFD FFFD FFFD "\"");
    JSTR("\xF0\x80\x80\x80", "\"" FFFD FFFD FFFD FFFD "\"");
    /* surrogates, high and low, alone and paired (CESU-8) */
    JSTR("\xED\xA0\x80", "\"" FFFD FFFD FFFD "\"");
    JSTR("\xED\xBF\xBF", "\"" FFFD FFFD FFFD "\"");
    JSTR("\xED\xA0\xBD\xED\xB8\x80", "\"" FFFD FFFD FFFD FFFD FFFD FFFD "\"");
    /* beyond U+10FFFF */
    JSTR("\xF4\x90\x80\x80", "\"" FFFD FFFD FFFD FFFD "\"");
    JSTR("\xF7\xBF\xBF\xBF", "\"" FFFD FFFD FFFD FFFD "\"");
    /* truncated sequences at the end of the string */
    JSTR("a\xC3", "\"a" FFFD "\"");
    JSTR("a\xE2\x82", "\"a" FFFD FFFD "\"");
    JSTR("a\xF0\x9F\x98", "\"a" FFFD FFFD FFFD "\"");
    /* ... at the end of n, the rest of a valid sequence beyond it */
    json_str_at(TU_WHERE, "\xE2\x82\xAC", 2, "\"" FFFD FFFD "\"");
    json_str_at(TU_WHERE, "\xC3\xA9", 1, "\"" FFFD "\"");
    /* ... and cut short by an ASCII byte, which stays itself */
    JSTR("\xE2\x82x", "\"" FFFD FFFD "x\"");
    JSTR("\xF0\x9F\"", "\"" FFFD FFFD "\\\"\"");
    JSTR("\xC3\n", "\"" FFFD "\\n\"");
    /* a valid sequence right after an invalid byte is kept */
    JSTR("\xFF\xC3\xA9", "\"" FFFD "\xC3\xA9\"");
    JSTR("\xE2\xC3\xA9", "\"" FFFD "\xC3\xA9\"");
    /* Latin-1 text, as old PGN files have it */
    JSTR("Jos\xE9 Ra\xFAl", "\"Jos" FFFD " Ra" FFFD "l\"");
}
END_TEST

/* The escaping rules one byte at a time, to check the word-at-a-time code. */

/* Length of the well-formed UTF-8 sequence of two to four bytes at s (at
 * most n bytes), 0 if none: Unicode's table of well-formed byte sequences
 * (3-7), row by row, a different formulation from the decoder in report.c. */
static size_t ref_utf8(const unsigned char *s, size_t n)
{
    static const struct {
        unsigned char lead_lo, lead_hi, second_lo, second_hi, len;
    } rows[] = {
        { 0xC2, 0xDF, 0x80, 0xBF, 2 }, { 0xE0, 0xE0, 0xA0, 0xBF, 3 }, { 0xE1, 0xEC, 0x80, 0xBF, 3 },
        { 0xED, 0xED, 0x80, 0x9F, 3 }, { 0xEE, 0xEF, 0x80, 0xBF, 3 }, { 0xF0, 0xF0, 0x90, 0xBF, 4 },
        { 0xF1, 0xF3, 0x80, 0xBF, 4 }, { 0xF4, 0xF4, 0x80, 0x8F, 4 },
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        if (s[0] < rows[r].lead_lo || s[0] > rows[r].lead_hi)
            continue;
        size_t len = rows[r].len;
        if (n < len || s[1] < rows[r].second_lo || s[1] > rows[r].second_hi)
            return 0;
        for (size_t i = 2; i < len; i++)
            if (s[i] < 0x80 || s[i] > 0xBF)
                return 0;
        return len;
    }
    return 0;
}

static void ref_json(char *o, const unsigned char *s, size_t n)
{
    *o++ = '"';
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        if (c >= 0x80) {
            size_t k = ref_utf8(s + i, n - i);
            memcpy(o, k ? (const char *)s + i : FFFD, k ? k : 3);
            o += k ? k : 3;
            i += k ? k : 1;
            continue;
        }
        if (c == '"' || c == '\\')
            o += sprintf(o, "\\%c", c);
        else if (c == '\n' || c == '\r' || c == '\t')
            o += sprintf(o, "\\%c", c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
        else if (c < 0x20)
            o += sprintf(o, "\\u%04x", c);
        else
            *o++ = (char)c;
        i++;
    }
    *o++ = '"';
    *o = '\0';
}

START_TEST(json_string_every_length_and_place)
{
    /* Plain runs are copied a word at a time: put each kind of byte at
     * each place of strings of every length up to a few words. */
    static const char *const odd[] = { "\"", "\\", "\n", "\x01", "\x1f", "\x7f", " ", "\x80", "\xC3\xA9",
                                       "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xE2\x82", "\xFF" };
    unsigned char in[48];
    char want[48 * 6 + 3];
    for (size_t n = 0; n <= 40; n++) {
        for (size_t k = 0; k < sizeof odd / sizeof odd[0]; k++) {
            size_t m = strlen(odd[k]);
            for (size_t at = 0; at + m <= n || (at == 0 && n == 0); at++) {
                for (size_t i = 0; i < n; i++)
                    in[i] = (unsigned char)('a' + i % 26);
                if (at + m <= n)
                    memcpy(in + at, odd[k], m);
                ref_json(want, in, n);
                json_str_at(TU_WHERE, (const char *)in, n, want);
                if (n == 0)
                    break;
            }
        }
    }
}
END_TEST

START_TEST(json_string_every_byte)
{
    /* Strings are checked a word at a time with a test that holds for the
     * word as a whole: each of the 256 bytes, alone and beside each other
     * byte, at each place of strings of 1 to 17 bytes. */
    unsigned char in[17];
    char want[17 * 6 + 3];
    for (int c = 0; c < 256; c++) {
        for (int d = 0; d < 256; d += c < 0x80 ? 1 : 17) {
            for (size_t n = 1; n <= 17; n++) {
                for (size_t at = 0; at < n; at++) {
                    memset(in, 'a', n);
                    in[at] = (unsigned char)c;
                    if (at + 1 < n)
                        in[at + 1] = (unsigned char)d;
                    ref_json(want, in, n);
                    json_str_at(TU_WHERE, (const char *)in, n, want);
                }
            }
        }
    }
}
END_TEST

/* ---- strbuf ---- */

START_TEST(strbuf_growth)
{
    /* Appends far beyond the first allocation, in pieces and at once. */
    enum { BIG = 3 << 20 };
    char *src = malloc(BIG);
    CHECK(src != NULL, "out of memory");
    for (size_t i = 0; i < BIG; i++)
        src[i] = (char)('a' + i * 7 % 26);
    strbuf_t b = { 0 };
    size_t at = 0, step = 1;
    while (at < BIG) {
        size_t n = step < BIG - at ? step : BIG - at;
        strbuf_append(&b, src + at, n);
        at += n;
        step = step * 3 + 1;
    }
    CHECK(!b.oom && b.len == BIG && b.cap >= b.len, "len %zu cap %zu oom %d after %d bytes", b.len, b.cap,
          (int)b.oom, BIG);
    CHECK(memcmp(b.data, src, BIG) == 0, "the bytes differ after growing");
    strbuf_append(&b, src, BIG);
    CHECK(b.len == 2u * BIG && memcmp(b.data + BIG, src, BIG) == 0 && memcmp(b.data, src, BIG) == 0,
          "a second large append: len %zu", b.len);

    /* strbuf_clear empties and keeps the memory. */
    size_t cap = b.cap;
    char *data = b.data;
    strbuf_clear(&b);
    CHECK(b.len == 0 && b.cap == cap && b.data == data, "strbuf_clear: len %zu cap %zu (was %zu)", b.len, b.cap,
          cap);
    strbuf_puts(&b, "abc");
    TEXT("after clear", &b, "abc");
    strbuf_free(&b);
    CHECK(b.data == NULL && b.len == 0 && b.cap == 0, "strbuf_free leaves an empty buffer");
    strbuf_puts(&b, "again");
    TEXT("after free", &b, "again");
    strbuf_free(&b);

    /* A JSON string whose escapes need six times its length. */
    size_t n = 300000;
    memset(src, 1, n);
    strbuf_puts(&b, "x");
    report_json_string(&b, src, n);
    CHECK(!b.oom && b.len == 1 + 6 * n + 2, "json of %zu control bytes: %zu bytes, expected %zu", n, b.len,
          1 + 6 * n + 2);
    bool ok = b.data[0] == 'x' && b.data[1] == '"' && b.data[b.len - 1] == '"';
    for (size_t i = 0; ok && i < n; i++)
        ok = memcmp(b.data + 2 + 6 * i, "\\u0001", 6) == 0;
    CHECK(ok, "json of %zu control bytes: wrong bytes", n);
    /* And invalid bytes, three out for one in. */
    strbuf_clear(&b);
    memset(src, 0xFF, n);
    report_json_string(&b, src, n);
    CHECK(!b.oom && b.len == 3 * n + 2, "json of %zu bytes 0xFF: %zu bytes, expected %zu", n, b.len, 3 * n + 2);
    ok = true;
    for (size_t i = 0; ok && i < n; i++)
        ok = memcmp(b.data + 1 + 3 * i, FFFD, 3) == 0;
    CHECK(ok, "json of %zu bytes 0xFF: wrong bytes", n);
    strbuf_free(&b);
    free(src);
}
END_TEST

/* ---- records ---- */

/* A game record with its own storage for the tags and moves. */
typedef struct {
    arb_game g;
    arb_tag tags[8];
} rec_t;

static void rec_init(rec_t *r)
{
    memset(r, 0, sizeof *r);
    r->g.tags = r->tags;
    for (int f = 0; f < ARB_FACT_COUNT; f++) {
        r->g.first[f] = -1;
        r->g.first_move[f] = "";
    }
}

static void rec_tag(rec_t *r, const char *name, const char *value)
{
    arb_tag *t = &r->tags[r->g.ntags++];
    t->name = name;
    t->value = value;
    t->name_len = strlen(name);
    t->value_len = strlen(value);
}

static void rec_fact(rec_t *r, arb_fact f, int32_t ply, const char *move)
{
    r->g.first[f] = ply;
    r->g.first_move[f] = move;
}

/* Fool's mate recorded as a draw: an end, a wrong result. */
static void rec_fools_mate(rec_t *r)
{
    rec_init(r);
    r->g.number = 2;
    r->g.where = (arb_span){ 120, 200, 9, 1 };
    rec_tag(r, "White", "Ann");
    rec_tag(r, "Black", "Bob");
    rec_tag(r, "Result", "1/2-1/2");
    r->g.status = ARB_OK;
    r->g.has_movetext = true;
    r->g.plies = 4;
    r->g.result = "1/2-1/2";
    r->g.marker = "1/2-1/2";
    rec_fact(r, ARB_CHECKMATE, 4, "2...Qh4#");
    r->g.has_end = true;
    r->g.end_reason = ARB_CHECKMATE;
    r->g.end_ply = 4;
    r->g.end_move = "2...Qh4#";
    r->g.adjudicated = "0-1";
    r->g.adjudication = "checkmate at 2...Qh4#; recorded 1/2-1/2";
    r->g.verdict = ARB_WRONG_RESULT;
    r->g.result_tag = (arb_span){ 150, 169, 11, 1 };
    r->g.marker_span = (arb_span){ 193, 200, 13, 20 };
}

START_TEST(json_record_without_error_and_end)
{
    rec_t r;
    rec_init(&r);
    r.g.number = 3;
    r.g.id = 0x0123456789abcdefULL;
    r.g.where = (arb_span){ 345, 900, 12, 1 };
    rec_tag(&r, "White", "A \"B\"\\C");
    rec_tag(&r, "Black", "Ca\xC3\xB1\xFF");
    rec_tag(&r, "Result", "1-0");
    r.g.status = ARB_OK;
    r.g.plies = 40;
    r.g.result = "1-0";
    r.g.marker = "1-0";
    rec_fact(&r, ARB_THREEFOLD, 12, "6...Ng8");
    r.g.adjudicated = "1-0";
    r.g.verdict = ARB_CONSISTENT;
    strbuf_t b = { 0 };
    report_json(&b, &r.g, "a.pgn");
    RECORD("report_json", &b,
         "{\"file\":\"a.pgn\",\"game\":3,\"id\":\"v1:0123456789abcdef\",\"line\":12,\"offset\":345,"
         "\"tags\":{\"White\":\"A \\\"B\\\"\\\\C\",\"Black\":\"Ca\xC3\xB1" FFFD "\",\"Result\":\"1-0\"},"
         "\"status\":\"ok\",\"error\":null,\"plies\":40,\"result\":\"1-0\",\"marker\":\"1-0\","
         "\"first\":{\"checkmate\":null,\"stalemate\":null,\"insufficient\":null,\"dead\":null,"
         "\"fivefold\":null,\"seventyfive\":null,\"threefold\":12,\"fifty\":null@EXTRA@},"
         "\"end\":null,\"reason\":null,\"adjudicated\":\"1-0\",\"verdict\":\"consistent\"}\n");

    /* No tags, no result, no marker, no adjudicated result; the file name escaped. */
    rec_init(&r);
    r.g.number = UINT64_MAX;
    r.g.where = (arb_span){ 0, 5, 1, 1 };
    r.g.status = ARB_OK;
    r.g.verdict = ARB_UNFINISHED;
    strbuf_clear(&b);
    report_json(&b, &r.g, "dir\\we\"ird\n.pgn");
    RECORD("report_json, empty record", &b,
         "{\"file\":\"dir\\\\we\\\"ird\\n.pgn\",\"game\":18446744073709551615,\"id\":\"v1:0000000000000000\",\"line\":1,\"offset\":0,"
         "\"tags\":{},\"status\":\"ok\",\"error\":null,\"plies\":0,\"result\":null,\"marker\":null,"
         "\"first\":{\"checkmate\":null,\"stalemate\":null,\"insufficient\":null,\"dead\":null,"
         "\"fivefold\":null,\"seventyfive\":null,\"threefold\":null,\"fifty\":null@EXTRA@},"
         "\"end\":null,\"reason\":null,\"adjudicated\":null,\"verdict\":\"unfinished\"}\n");
    strbuf_free(&b);
}
END_TEST

START_TEST(json_record_with_error_and_end)
{
    /* An illegal move after a mate: the error object, the end object. */
    rec_t r;
    rec_fools_mate(&r);
    r.g.status = ARB_ILLEGAL;
    r.g.has_error = true;
    r.g.error.line = 13;
    r.g.error.col = 7;
    r.g.error.ply = 5;
    snprintf(r.g.error.move, sizeof r.g.error.move, "Nf9");
    snprintf(r.g.error.message, sizeof r.g.error.message, "no \"Nf9\"\there");
    r.g.verdict = ARB_UNREADABLE;
    strbuf_t b = { 0 };
    report_json(&b, &r.g, "-");
    RECORD("report_json", &b,
         "{\"file\":\"-\",\"game\":2,\"id\":\"v1:0000000000000000\",\"line\":9,\"offset\":120,"
         "\"tags\":{\"White\":\"Ann\",\"Black\":\"Bob\",\"Result\":\"1/2-1/2\"},"
         "\"status\":\"illegal\",\"error\":{\"line\":13,\"col\":7,\"ply\":5,\"move\":\"Nf9\","
         "\"message\":\"no \\\"Nf9\\\"\\there\"},\"plies\":4,\"result\":\"1/2-1/2\",\"marker\":\"1/2-1/2\","
         "\"first\":{\"checkmate\":4,\"stalemate\":null,\"insufficient\":null,\"dead\":null,"
         "\"fivefold\":null,\"seventyfive\":null,\"threefold\":null,\"fifty\":null@EXTRA@},"
         "\"end\":{\"reason\":\"checkmate\",\"ply\":4,\"move\":\"2...Qh4#\"},"
         "\"reason\":null,\"adjudicated\":\"0-1\",\"verdict\":\"unreadable\"}\n");

    /* An error without a move: "move":null.  An end at ply 0: "move":null. */
    rec_init(&r);
    r.g.number = 1;
    r.g.where = (arb_span){ 0, 60, 1, 1 };
    r.g.status = ARB_BADFEN;
    r.g.has_error = true;
    r.g.error.line = 2;
    r.g.error.col = 1;
    r.g.error.ply = 0;
    snprintf(r.g.error.message, sizeof r.g.error.message, "bad FEN: no white king");
    rec_fact(&r, ARB_INSUFFICIENT, 0, "");
    rec_fact(&r, ARB_DEAD, 0, "");
    r.g.has_end = true;
    r.g.end_reason = ARB_DEAD;
    r.g.end_ply = 0;
    r.g.end_move = "";
    r.g.result = "1-0";
    r.g.adjudicated = "1/2-1/2";
    r.g.verdict = ARB_UNREADABLE;
    strbuf_clear(&b);
    report_json(&b, &r.g, "x.pgn");
    RECORD("report_json", &b,
         "{\"file\":\"x.pgn\",\"game\":1,\"id\":\"v1:0000000000000000\",\"line\":1,\"offset\":0,\"tags\":{},"
         "\"status\":\"badfen\",\"error\":{\"line\":2,\"col\":1,\"ply\":0,\"move\":null,"
         "\"message\":\"bad FEN: no white king\"},\"plies\":0,\"result\":\"1-0\",\"marker\":null,"
         "\"first\":{\"checkmate\":null,\"stalemate\":null,\"insufficient\":0,\"dead\":0,"
         "\"fivefold\":null,\"seventyfive\":null,\"threefold\":null,\"fifty\":null@EXTRA@},"
         "\"end\":{\"reason\":\"dead\",\"ply\":0,\"move\":null},"
         "\"reason\":null,\"adjudicated\":\"1/2-1/2\",\"verdict\":\"unreadable\"}\n");

    /* Two records append one line each. */
    size_t one = b.len;
    report_json(&b, &r.g, "x.pgn");
    CHECK(b.len == 2 * one && memcmp(b.data, b.data + one, one) == 0, "a second record appends the same line");
    strbuf_free(&b);
}
END_TEST

/* The record of r with tags {tags} (what goes between the braces) instead of none. */
static char *with_tags(rec_t *r, const char *tags)
{
    size_t ntags = r->g.ntags;
    r->g.ntags = 0;
    strbuf_t b = { 0 };
    report_json(&b, &r->g, "t.pgn");
    r->g.ntags = ntags;
    strbuf_append(&b, "", 1);
    const char *at = strstr(b.data, "\"tags\":{}");
    CHECK(at != NULL, "no empty tags object in %s", tu_vis(b.data, b.len));
    size_t head = (size_t)(at - b.data) + 8, n = b.len + strlen(tags);
    char *out = malloc(n);
    CHECK(out != NULL, "out of memory");
    snprintf(out, n, "%.*s%s%s", (int)head, b.data, tags, b.data + head);
    strbuf_free(&b);
    return out;
}

START_TEST(json_tags_every_length)
{
    /* A tag's name and value go out in one pass when both are plain, each
     * escaped by itself when not: names and values of lengths around the
     * word sizes, plain, or with a byte to escape first or last in one of
     * them.  The tags before and after it show where it ends. */
    static const size_t lens[] = { 0, 1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 24, 25, 40 };
    static const char odd[] = "\"\\\n\x01\xE9";
    enum { NL = sizeof lens / sizeof lens[0], NODD = sizeof odd - 1 };
    char name[48], value[48], qn[48 * 6 + 3], qv[48 * 6 + 3], tags[3 * sizeof qv + 64], what[64];
    for (size_t i = 0; i < NL; i++) {
        for (size_t j = 0; j < NL; j++) {
            /* k: none (-1), else which odd byte, in the name or the value, first or last */
            for (int k = -1; k < 4 * NODD; k++) {
                size_t nl = lens[i], vl = lens[j];
                for (size_t x = 0; x < nl; x++)
                    name[x] = (char)('A' + x % 26);
                for (size_t x = 0; x < vl; x++)
                    value[x] = (char)('a' + x % 26);
                if (k >= 0) {
                    bool in_value = k / NODD % 2, last = k / (2 * NODD);
                    char *s = in_value ? value : name;
                    size_t len = in_value ? vl : nl;
                    if (len == 0)
                        continue;
                    s[last ? len - 1 : 0] = odd[k % NODD];
                }
                name[nl] = value[vl] = '\0';
                rec_t r;
                rec_init(&r);
                r.g.number = 1;
                r.g.status = ARB_OK;
                rec_tag(&r, "Before", "x");
                rec_tag(&r, name, value);
                rec_tag(&r, "After", value);
                ref_json(qn, (const unsigned char *)name, nl);
                ref_json(qv, (const unsigned char *)value, vl);
                snprintf(tags, sizeof tags, "\"Before\":\"x\",%s:%s,\"After\":%s", qn, qv, qv);
                char *want = with_tags(&r, tags);
                strbuf_t b = { 0 };
                report_json(&b, &r.g, "t.pgn");
                snprintf(what, sizeof what, "a tag of %zu and %zu bytes, odd byte %d", nl, vl, k);
                expect_bytes_at(TU_WHERE, what, &b, want, strlen(want));
                strbuf_free(&b);
                free(want);
            }
        }
    }
}
END_TEST

START_TEST(json_first_every_fact)
{
    /* The "first" object, with no fact (a constant) and with each fact
     * alone: every name is arb_fact_name()'s, in order. */
    for (int only = -1; only < ARB_FACT_COUNT; only++) {
        rec_t r;
        rec_init(&r);
        r.g.number = 1;
        r.g.status = ARB_OK;
        if (only >= 0)
            rec_fact(&r, (arb_fact)only, 2147483647, "1.e4");
        char want[2048];
        size_t at = (size_t)snprintf(want, sizeof want, "\"first\":{");
        for (int f = 0; f < ARB_FACT_COUNT; f++)
            at += (size_t)snprintf(want + at, sizeof want - at, "%s\"%s\":%s", f ? "," : "",
                                   arb_fact_name((arb_fact)f), f == only ? "2147483647" : "null");
        snprintf(want + at, sizeof want - at, "},\"end\":");
        strbuf_t b = { 0 };
        report_json(&b, &r.g, "f.pgn");
        strbuf_append(&b, "", 1);
        CHECK(strstr(b.data, want) != NULL, "fact %d: no %s in %s", only, want, b.data);
        strbuf_free(&b);
    }
}
END_TEST

START_TEST(text_record)
{
    rec_t r;
    rec_fools_mate(&r);
    strbuf_t b = { 0 };
    report_text(&b, &r.g, "games.pgn");
    TEXT("report_text", &b, "games.pgn:9\t2\tAnn\tBob\t1/2-1/2\t0-1\twrong-result\tcheckmate at 2...Qh4#\t-\n");

    /* Tabs and line ends in fields become spaces; missing values are "-". */
    rec_init(&r);
    r.g.number = 7;
    r.g.where = (arb_span){ 10, 20, 4, 1 };
    rec_tag(&r, "White", "Tab\there");
    rec_tag(&r, "Black", "line\r\nend\n");
    r.g.status = ARB_OK;
    r.g.verdict = ARB_UNFINISHED;
    strbuf_clear(&b);
    report_text(&b, &r.g, "my\tfile.pgn");
    TEXT("report_text, odd names", &b, "my file.pgn:4\t7\tTab here\tline  end \t-\t-\tunfinished\t-\t-\n");

    /* Empty White, no Black, an empty Result tag. */
    rec_init(&r);
    r.g.number = 1;
    r.g.where = (arb_span){ 0, 20, 1, 1 };
    rec_tag(&r, "White", "");
    r.g.status = ARB_OK;
    r.g.result = "";
    r.g.adjudicated = "";
    r.g.verdict = ARB_CONSISTENT;
    strbuf_clear(&b);
    report_text(&b, &r.g, "-");
    TEXT("report_text, empty fields", &b, "-:1\t1\t-\t-\t-\t-\tconsistent\t-\t-\n");
    strbuf_free(&b);
}
END_TEST

START_TEST(text_facts)
{
    /* Facts in ply order, whatever their order in first[]; ties in enum order;
     * ply 0 is "start". */
    rec_t r;
    rec_init(&r);
    r.g.number = 1;
    r.g.where = (arb_span){ 0, 20, 1, 1 };
    r.g.status = ARB_OK;
    r.g.result = "1/2-1/2";
    r.g.adjudicated = "1/2-1/2";
    r.g.verdict = ARB_MOVES_AFTER_END;
    rec_fact(&r, ARB_FIFTY, 0, "");
    rec_fact(&r, ARB_THREEFOLD, 8, "4...Ng8");
    rec_fact(&r, ARB_FIVEFOLD, 16, "8...Ng8");
    rec_fact(&r, ARB_SEVENTYFIVE, 16, "8...Ng8");
    rec_fact(&r, ARB_STALEMATE, 30, "15...Kh8");
    strbuf_t b = { 0 };
    report_text(&b, &r.g, "f");
    TEXT("report_text, facts", &b,
         "f:1\t1\t-\t-\t1/2-1/2\t1/2-1/2\tmoves-after-end\tfifty-move claimable at start, "
         "threefold claimable at 4...Ng8, fivefold repetition at 8...Ng8, seventy-five-move rule at 8...Ng8, "
         "stalemate at 15...Kh8\t-\n");

    /* Dead at the same ply as insufficient material is left out ... */
    rec_init(&r);
    r.g.number = 1;
    r.g.where = (arb_span){ 0, 20, 1, 1 };
    r.g.verdict = ARB_CONSISTENT;
    rec_fact(&r, ARB_INSUFFICIENT, 61, "31.Kxd4");
    rec_fact(&r, ARB_DEAD, 61, "31.Kxd4");
    strbuf_clear(&b);
    report_text(&b, &r.g, "f");
    TEXT("report_text, dead = insufficient", &b,
         "f:1\t1\t-\t-\t-\t-\tconsistent\tinsufficient material at 31.Kxd4\t-\n");
    /* ... but not when it comes earlier, or alone. */
    rec_fact(&r, ARB_DEAD, 40, "20...Bxc3");
    strbuf_clear(&b);
    report_text(&b, &r.g, "f");
    TEXT("report_text, dead before insufficient", &b,
         "f:1\t1\t-\t-\t-\t-\tconsistent\tdead position at 20...Bxc3, insufficient material at 31.Kxd4\t-\n");
    rec_fact(&r, ARB_INSUFFICIENT, -1, "");
    rec_fact(&r, ARB_DEAD, 0, "");
    strbuf_clear(&b);
    report_text(&b, &r.g, "f");
    TEXT("report_text, dead alone", &b, "f:1\t1\t-\t-\t-\t-\tconsistent\tdead position at start\t-\n");
    rec_fact(&r, ARB_INSUFFICIENT, 0, "");
    strbuf_clear(&b);
    report_text(&b, &r.g, "f");
    TEXT("report_text, both at start", &b, "f:1\t1\t-\t-\t-\t-\tconsistent\tinsufficient material at start\t-\n");

    /* An unreadable game: the error first, then the facts before it. */
    rec_init(&r);
    r.g.number = 3;
    r.g.where = (arb_span){ 0, 20, 21, 1 };
    rec_tag(&r, "White", "W");
    rec_tag(&r, "Black", "B");
    r.g.status = ARB_ILLEGAL;
    r.g.has_error = true;
    r.g.error.line = 25;
    r.g.error.col = 14;
    snprintf(r.g.error.message, sizeof r.g.error.message, "illegal move\tNf9");
    rec_fact(&r, ARB_THREEFOLD, 8, "4...Ng8");
    r.g.result = "1-0";
    r.g.adjudicated = "1-0";
    r.g.verdict = ARB_UNREADABLE;
    strbuf_clear(&b);
    report_text(&b, &r.g, "f");
    TEXT("report_text, error", &b,
         "f:21\t3\tW\tB\t1-0\t1-0\tunreadable\tillegal at 25:14: illegal move Nf9, threefold claimable at 4...Ng8\t-\n");
    strbuf_free(&b);
}
END_TEST

/* ---- --check lines ---- */

/* report_check of g must give want, and add errors/warnings to fresh counts;
 * with strict, every line says error and every warning counts as one. */
static void check_at(const char *file, int line, const arb_game *g, bool strict, const char *want,
                     unsigned long long errors, unsigned long long warnings)
{
    strbuf_t b = { 0 };
    report_counts_t c = { 0, 0, 0 };
    report_check(&b, g, "f.pgn", strict, &c);
    char what[64];
    snprintf(what, sizeof what, "report_check (strict %s)", strict ? "on" : "off");
    expect_bytes_at(file, line, what, &b, want, strlen(want));
    CHECK(c.errors == errors && c.warnings == warnings, "%s:%d: %s: %llu errors and %llu warnings, expected %llu and %llu",
          file, line, what, c.errors, c.warnings, errors, warnings);
    strbuf_free(&b);
}

/* Both ways: as given (strict off), and with strict on, where "warning"
 * becomes "error" and the warnings count as errors. */
static void check_both_at(const char *file, int line, const arb_game *g, const char *want,
                          unsigned long long errors, unsigned long long warnings)
{
    check_at(file, line, g, false, want, errors, warnings);
    char strict[4096];
    size_t at = 0;
    for (const char *p = want; *p && at < sizeof strict - 8;) {
        if (strncmp(p, ": warning: ", 11) == 0) {
            memcpy(strict + at, ": error: ", 9);
            at += 9;
            p += 11;
        } else {
            strict[at++] = *p++;
        }
    }
    strict[at] = '\0';
    check_at(file, line, g, true, strict, errors + warnings, 0);
}
#define CHECK_LINES(g, want, e, w) check_both_at(TU_WHERE, (g), (want), (e), (w))

/* A clean game, to be spoilt one way at a time. */
static void rec_clean(rec_t *r)
{
    rec_init(r);
    r->g.number = 5;
    r->g.where = (arb_span){ 100, 200, 20, 1 };
    rec_tag(r, "White", "Ann");
    rec_tag(r, "Black", "Bob");
    rec_tag(r, "Result", "1-0");
    r->g.status = ARB_OK;
    r->g.has_movetext = true;
    r->g.plies = 41;
    r->g.result = "1-0";
    r->g.marker = "1-0";
    r->g.adjudicated = "1-0";
    r->g.verdict = ARB_CONSISTENT;
    r->g.result_tag = (arb_span){ 120, 135, 22, 1 };
    r->g.marker_span = (arb_span){ 190, 193, 26, 30 };
}

START_TEST(check_clean_game)
{
    rec_t r;
    rec_clean(&r);
    CHECK_LINES(&r.g, "", 0, 0);
    /* A right result confirmed by the rules, ended on the last ply. */
    rec_fact(&r, ARB_CHECKMATE, 41, "21.Qxf7#");
    r.g.has_end = true;
    r.g.end_reason = ARB_CHECKMATE;
    r.g.end_ply = 41;
    r.g.end_move = "21.Qxf7#";
    CHECK_LINES(&r.g, "", 0, 0);
}
END_TEST

START_TEST(check_unreadable)
{
    rec_t r;
    rec_clean(&r);
    r.g.status = ARB_ILLEGAL;
    r.g.has_error = true;
    r.g.error.line = 25;
    r.g.error.col = 14;
    r.g.error.ply = 9;
    snprintf(r.g.error.move, sizeof r.g.error.move, "Nf9");
    snprintf(r.g.error.message, sizeof r.g.error.message, "illegal move");
    r.g.verdict = ARB_UNREADABLE;
    /* Only the error: nothing else is said of an unreadable game. */
    r.g.marker = NULL;
    CHECK_LINES(&r.g, "f.pgn:25:14: error: game 5 (Ann v Bob): illegal move: move \"Nf9\" (ply 9)\n", 1, 0);
    /* Without a move. */
    r.g.status = ARB_BADFEN;
    r.g.error.move[0] = '\0';
    snprintf(r.g.error.message, sizeof r.g.error.message, "bad FEN: two white kings");
    CHECK_LINES(&r.g, "f.pgn:25:14: error: game 5 (Ann v Bob): bad FEN: two white kings\n", 1, 0);
    /* An unsupported variant is a warning. */
    r.g.status = ARB_UNSUPPORTED;
    r.g.error.line = 21;
    r.g.error.col = 1;
    snprintf(r.g.error.message, sizeof r.g.error.message, "variant \"crazyhouse\" is not supported");
    CHECK_LINES(&r.g, "f.pgn:21:1: warning: game 5 (Ann v Bob): variant \"crazyhouse\" is not supported; not checked\n",
                0, 1);
}
END_TEST

START_TEST(check_wrong_result)
{
    rec_t r;
    rec_fools_mate(&r);
    r.g.plies = 4;
    CHECK_LINES(&r.g,
                "f.pgn:11:1: error: game 2 (Ann v Bob): Result \"1/2-1/2\" contradicts checkmate at 2...Qh4#: "
                "the result is 0-1\n",
                1, 0);
    /* At ply 0: "the start". */
    rec_clean(&r);
    rec_fact(&r, ARB_INSUFFICIENT, 0, "");
    rec_fact(&r, ARB_DEAD, 0, "");
    r.g.plies = 0;
    r.g.has_end = true;
    r.g.end_reason = ARB_DEAD;
    r.g.end_ply = 0;
    r.g.end_move = "";
    r.g.adjudicated = "1/2-1/2";
    r.g.adjudication = "dead position at the start; recorded 1-0";
    r.g.verdict = ARB_WRONG_RESULT;
    r.g.marker = "1/2-1/2";
    CHECK_LINES(&r.g,
                "f.pgn:22:1: error: game 5 (Ann v Bob): Result \"1-0\" contradicts dead position at the start: "
                "the result is 1/2-1/2\n"
                "f.pgn:26:30: error: game 5 (Ann v Bob): Result tag \"1-0\" contradicts the termination marker 1/2-1/2\n",
                2, 0);
    /* Claimed draws say "claimed". */
    rec_clean(&r);
    rec_fact(&r, ARB_THREEFOLD, 8, "4...Ng8");
    r.g.plies = 8;
    r.g.has_end = true;
    r.g.end_reason = ARB_THREEFOLD;
    r.g.end_ply = 8;
    r.g.end_move = "4...Ng8";
    r.g.adjudicated = "1/2-1/2";
    r.g.adjudication = "threefold repetition claimed at 4...Ng8; recorded 1-0";
    r.g.verdict = ARB_WRONG_RESULT;
    r.g.marker = NULL;
    CHECK_LINES(&r.g,
                "f.pgn:22:1: error: game 5 (Ann v Bob): Result \"1-0\" contradicts threefold repetition claimed at "
                "4...Ng8: the result is 1/2-1/2\n"
                "f.pgn:20:1: warning: game 5 (Ann v Bob): no termination marker\n",
                1, 1);
    /* Article 6.9. */
    rec_clean(&r);
    r.g.adjudicated = "1/2-1/2";
    r.g.adjudication = "Article 6.9: White cannot checkmate; recorded 1-0 on time";
    r.g.verdict = ARB_WRONG_RESULT;
    r.g.marker = "1/2-1/2";
    CHECK_LINES(&r.g,
                "f.pgn:22:1: error: game 5 (Ann v Bob): Result \"1-0\" contradicts Article 6.9: White cannot "
                "checkmate; recorded 1-0 on time: the result is 1/2-1/2\n"
                "f.pgn:26:30: error: game 5 (Ann v Bob): Result tag \"1-0\" contradicts the termination marker 1/2-1/2\n",
                2, 0);
    /* No Result tag: the marker that the rules contradict. */
    rec_fools_mate(&r);
    r.g.ntags = 2; /* White, Black */
    r.g.result = NULL;
    r.g.result_tag = (arb_span){ 0, 0, 0, 0 };
    r.g.adjudication = "checkmate at 2...Qh4#";
    CHECK_LINES(&r.g,
                "f.pgn:13:20: error: game 2 (Ann v Bob): termination marker 1/2-1/2 contradicts the rules: "
                "the result is 0-1\n"
                "f.pgn:9:1: warning: game 2 (Ann v Bob): no Result tag\n",
                1, 1);
    /* ... a marker that agrees: only the missing tag. */
    r.g.marker = "0-1";
    CHECK_LINES(&r.g, "f.pgn:9:1: warning: game 2 (Ann v Bob): no Result tag\n", 0, 1);
}
END_TEST

START_TEST(check_tags_and_marker)
{
    rec_t r;
    /* A Result that is not one of the four. */
    rec_clean(&r);
    r.g.result = r.g.adjudicated = "1-0 (forfeit)";
    CHECK_LINES(&r.g,
                "f.pgn:22:1: warning: game 5 (Ann v Bob): Result \"1-0 (forfeit)\" is not 1-0, 0-1, 1/2-1/2 or *\n"
                "f.pgn:26:30: error: game 5 (Ann v Bob): Result tag \"1-0 (forfeit)\" contradicts the termination "
                "marker 1-0\n",
                1, 1);
    /* The Result tag against the marker. */
    rec_clean(&r);
    r.g.marker = "0-1";
    CHECK_LINES(&r.g,
                "f.pgn:26:30: error: game 5 (Ann v Bob): Result tag \"1-0\" contradicts the termination marker 0-1\n",
                1, 0);
    /* No Result tag, no marker; a missing place is the start of the game. */
    rec_clean(&r);
    r.g.result = r.g.adjudicated = NULL;
    r.g.marker = NULL;
    r.g.result_tag = r.g.marker_span = (arb_span){ 0, 0, 0, 0 };
    r.g.verdict = ARB_UNFINISHED;
    CHECK_LINES(&r.g,
                "f.pgn:20:1: warning: game 5 (Ann v Bob): no Result tag\n"
                "f.pgn:20:1: warning: game 5 (Ann v Bob): no termination marker\n",
                0, 2);
    /* Unfinished, with "*". */
    rec_clean(&r);
    r.g.result = r.g.adjudicated = r.g.marker = "*";
    r.g.verdict = ARB_UNFINISHED;
    CHECK_LINES(&r.g, "f.pgn:22:1: warning: game 5 (Ann v Bob): unfinished game (Result \"*\")\n", 0, 1);
    /* Missing names are "?"; tabs in them become spaces; no place at all is line 20, column 1. */
    rec_clean(&r);
    r.tags[0].value = "A\tnn";
    r.tags[1].name = "Blackish";
    r.g.marker = "0-1";
    r.g.marker_span = (arb_span){ 0, 0, 0, 0 };
    CHECK_LINES(&r.g,
                "f.pgn:20:1: error: game 5 (A nn v ?): Result tag \"1-0\" contradicts the termination marker 0-1\n",
                1, 0);
}
END_TEST

START_TEST(check_moves_after_end)
{
    rec_t r;
    rec_clean(&r);
    r.g.result = r.g.marker = r.g.adjudicated = "1/2-1/2";
    rec_fact(&r, ARB_FIVEFOLD, 16, "8...Ng8");
    r.g.plies = 19;
    r.g.has_end = true;
    r.g.end_reason = ARB_FIVEFOLD;
    r.g.end_ply = 16;
    r.g.end_move = "8...Ng8";
    r.g.verdict = ARB_MOVES_AFTER_END;
    CHECK_LINES(&r.g,
                "f.pgn:26:30: warning: game 5 (Ann v Bob): 3 plies recorded after the game ended by fivefold "
                "repetition at 8...Ng8\n",
                0, 1);
    r.g.plies = 17;
    CHECK_LINES(&r.g,
                "f.pgn:26:30: warning: game 5 (Ann v Bob): 1 ply recorded after the game ended by fivefold "
                "repetition at 8...Ng8\n",
                0, 1);
    /* From the start, with no marker: at the start of the game, with the marker warning. */
    r.g.end_reason = ARB_DEAD;
    r.g.end_ply = 0;
    r.g.end_move = "";
    r.g.plies = 2;
    r.g.marker = NULL;
    r.g.marker_span = (arb_span){ 0, 0, 0, 0 };
    CHECK_LINES(&r.g,
                "f.pgn:20:1: warning: game 5 (Ann v Bob): 2 plies recorded after the game ended by dead position "
                "at the start\n"
                "f.pgn:20:1: warning: game 5 (Ann v Bob): no termination marker\n",
                0, 2);
}
END_TEST

START_TEST(check_counts_add_up)
{
    /* The counts are added to, never reset, across games. */
    rec_t r;
    rec_clean(&r);
    r.g.result = r.g.adjudicated = NULL;
    r.g.marker = NULL;
    strbuf_t b = { 0 };
    report_counts_t c = { 10, 20, 0 };
    report_check(&b, &r.g, "f.pgn", false, &c);
    report_check(&b, &r.g, "f.pgn", false, &c);
    CHECK(c.errors == 10 && c.warnings == 24, "counts %llu/%llu, expected 10/24", c.errors, c.warnings);
    report_check(&b, &r.g, "f.pgn", true, &c);
    CHECK(c.errors == 12 && c.warnings == 24, "counts %llu/%llu, expected 12/24", c.errors, c.warnings);
    size_t lines = 0;
    for (size_t i = 0; i < b.len; i++)
        lines += b.data[i] == '\n';
    CHECK(lines == 6, "six lines, got %zu:\n%s", lines, tu_vis(b.data, b.len));
    strbuf_free(&b);
}
END_TEST

/* ---- game numbers ---- */

/* Every remembered number must sit at its place in b, as its digits. */
static void numbers_ok_at(const char *file, int line, const strbuf_t *b, size_t want_count, uint64_t value)
{
    CHECK(b->nnumbers == want_count, "%s:%d: %zu numbers remembered, expected %zu in:\n%s", file, line, b->nnumbers,
          want_count, tu_vis(b->data, b->len));
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)value);
    for (size_t i = 0; i < b->nnumbers; i++) {
        const strbuf_number_t *p = &b->numbers[i];
        CHECK(p->value == value && p->len == (size_t)n && p->at + p->len <= b->len &&
                  memcmp(b->data + p->at, digits, (size_t)n) == 0 && (i == 0 || p->at > b->numbers[i - 1].at),
              "%s:%d: number %zu: at %zu len %zu value %llu; the buffer has \"%s\" there", file, line, i, p->at,
              p->len, (unsigned long long)p->value, p->at + p->len <= b->len ? tu_vis(b->data + p->at, p->len) : "?");
    }
}
#define NUMBERS_OK(b, count, value) numbers_ok_at(TU_WHERE, (b), (count), (value))

START_TEST(game_numbers_tracked)
{
    strbuf_t b = { 0 };
    report_game_number(&b, 42);
    strbuf_puts(&b, "--");
    report_game_number(&b, 0);
    report_game_number(&b, UINT64_MAX);
    TEXT("untracked", &b, "42--018446744073709551615");
    CHECK(b.nnumbers == 0, "numbers remembered without track_numbers: %zu", b.nnumbers);
    strbuf_free(&b);

    b.track_numbers = true;
    strbuf_puts(&b, "x");
    report_game_number(&b, 42);
    strbuf_puts(&b, "yy");
    report_game_number(&b, 7);
    TEXT("tracked", &b, "x42yy7");
    CHECK(b.nnumbers == 2 && b.numbers[0].at == 1 && b.numbers[0].len == 2 && b.numbers[0].value == 42 &&
              b.numbers[1].at == 5 && b.numbers[1].len == 1 && b.numbers[1].value == 7,
          "numbers: %zu, [0] at %zu len %zu value %llu, [1] at %zu len %zu value %llu", b.nnumbers,
          b.numbers[0].at, b.numbers[0].len, (unsigned long long)b.numbers[0].value, b.numbers[1].at,
          b.numbers[1].len, (unsigned long long)b.numbers[1].value);
    strbuf_clear(&b);
    CHECK(b.nnumbers == 0 && b.len == 0, "strbuf_clear forgets the numbers");

    /* Each report function remembers the game number it writes, once per
     * record or problem line, and nothing else (tags and lines hold digits too). */
    rec_t r;
    rec_fools_mate(&r);
    r.g.number = 1234;
    r.g.where.line = 1234;
    r.g.where.offset = 1234;
    r.tags[0].value = "1234";
    r.tags[0].value_len = 4;
    report_json(&b, &r.g, "1234.pgn");
    NUMBERS_OK(&b, 1, 1234);
    report_text(&b, &r.g, "1234.pgn");
    NUMBERS_OK(&b, 2, 1234);
    report_counts_t c = { 0, 0, 0 };
    r.g.marker = NULL;
    report_check(&b, &r.g, "1234.pgn", false, &c);
    NUMBERS_OK(&b, 4, 1234); /* wrong result, no marker */
    report_text_color(&b, &r.g, "1234.pgn", true);
    report_check_color(&b, &r.g, "1234.pgn", false, true, &c);
    NUMBERS_OK(&b, 7, 1234);
    /* Many: the list grows. */
    strbuf_clear(&b);
    for (int i = 0; i < 5000; i++) {
        report_game_number(&b, 1234);
        strbuf_puts(&b, "\n");
    }
    NUMBERS_OK(&b, 5000, 1234);
    strbuf_free(&b);
    CHECK(b.numbers == NULL && b.nnumbers == 0, "strbuf_free frees the numbers");
}
END_TEST

/* ---- colour ---- */

/* s without its ANSI SGR sequences (ESC [ digits/; m); counts them. */
static char *strip_sgr(const char *s, size_t n, size_t *len, int *count)
{
    char *o = malloc(n + 1);
    CHECK(o != NULL, "out of memory");
    size_t k = 0;
    *count = 0;
    for (size_t i = 0; i < n;) {
        if (s[i] == '\033' && i + 1 < n && s[i + 1] == '[') {
            size_t j = i + 2;
            while (j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == ';'))
                j++;
            CHECK(j < n && s[j] == 'm', "an escape sequence that is not SGR at byte %zu: %s", i, tu_vis(s + i, n - i));
            i = j + 1;
            (*count)++;
            continue;
        }
        o[k++] = s[i++];
    }
    o[k] = '\0';
    *len = k;
    return o;
}

START_TEST(colour_text)
{
    static const char *const colour[] = { "\033[32m", "\033[1;31m", "\033[31m",   "\033[33m",
                                          "\033[36m", "\033[1;35m", "\033[1;31m" };
    CHECK(sizeof colour / sizeof colour[0] == ARB_VERDICT_COUNT, "a colour for each verdict");
    rec_t r;
    rec_fools_mate(&r);
    for (int v = 0; v < ARB_VERDICT_COUNT; v++) {
        r.g.verdict = (arb_verdict)v;
        strbuf_t plain = { 0 }, off = { 0 }, on = { 0 };
        report_text(&plain, &r.g, "f.pgn");
        report_text_color(&off, &r.g, "f.pgn", false);
        report_text_color(&on, &r.g, "f.pgn", true);
        strbuf_append(&on, "", 1); /* a C string for strstr, not counted below */
        on.len--;
        BYTES("report_text_color(false) is report_text", &off, plain.data, plain.len);
        size_t n;
        int count;
        char *stripped = strip_sgr(on.data, on.len, &n, &count);
        CHECK(n == plain.len && memcmp(stripped, plain.data, n) == 0,
              "verdict %s: colour adds more than ANSI sequences:\n  plain: %s\n  colour: %s",
              arb_verdict_name((arb_verdict)v), tu_vis(plain.data, plain.len), tu_vis(on.data, on.len));
        char want[64];
        snprintf(want, sizeof want, "\t%s%s\033[0m\t", colour[v], arb_verdict_name((arb_verdict)v));
        CHECK(count == 2 && strstr(on.data, want) != NULL, "verdict %s: expected \"%s\" (2 sequences, got %d) in %s",
              arb_verdict_name((arb_verdict)v), tu_vis(want, strlen(want)), count, tu_vis(on.data, on.len));
        free(stripped);
        strbuf_free(&plain);
        strbuf_free(&off);
        strbuf_free(&on);
    }
}
END_TEST

START_TEST(colour_check)
{
    /* One error and two warnings, strict off and on. */
    rec_t r;
    rec_fools_mate(&r);
    r.g.marker = NULL;
    r.g.plies = 6;
    for (int strict = 0; strict < 2; strict++) {
        strbuf_t plain = { 0 }, off = { 0 }, on = { 0 };
        report_counts_t c1 = { 0, 0, 0 }, c2 = { 0, 0, 0 }, c3 = { 0, 0, 0 };
        report_check(&plain, &r.g, "f.pgn", strict, &c1);
        report_check_color(&off, &r.g, "f.pgn", strict, false, &c2);
        report_check_color(&on, &r.g, "f.pgn", strict, true, &c3);
        BYTES("report_check_color(false) is report_check", &off, plain.data, plain.len);
        CHECK(c1.errors == c2.errors && c1.errors == c3.errors && c1.warnings == c2.warnings &&
                  c1.warnings == c3.warnings && c1.errors + c1.warnings == 3,
              "strict %d: counts %llu/%llu, %llu/%llu, %llu/%llu", strict, c1.errors, c1.warnings, c2.errors,
              c2.warnings, c3.errors, c3.warnings);
        size_t n;
        int count;
        strbuf_append(&on, "", 1);
        char *stripped = strip_sgr(on.data, on.len - 1, &n, &count);
        CHECK(n == plain.len && memcmp(stripped, plain.data, n) == 0,
              "strict %d: colour adds more than ANSI sequences:\n  plain: %s\n  colour: %s", strict,
              tu_vis(plain.data, plain.len), tu_vis(on.data, on.len));
        /* Each line: bold place, reset, coloured kind, reset. */
        CHECK(count == 3 * 4, "strict %d: %d sequences, expected 12 in %s", strict, count, tu_vis(on.data, on.len));
        const char *err = "\033[1mf.pgn:11:1:\033[0m \033[1;31merror:\033[0m game 2";
        const char *warn = strict ? "\033[1mf.pgn:9:1:\033[0m \033[1;31merror:\033[0m game 2 (Ann v Bob): no termination"
                                  : "\033[1mf.pgn:9:1:\033[0m \033[1;35mwarning:\033[0m game 2 (Ann v Bob): no termination";
        CHECK(strstr(on.data, err) && strstr(on.data, warn), "strict %d: expected %s and %s in %s", strict,
              tu_vis(err, strlen(err)), tu_vis(warn, strlen(warn)), tu_vis(on.data, on.len));
        free(stripped);
        strbuf_free(&plain);
        strbuf_free(&off);
        strbuf_free(&on);
    }
}
END_TEST

START_TEST(words)
{
    /* The eight facts this suite knows; words for facts added later are
     * checked only to be words. */
    static const char *const fact[] = {
        "checkmate", "stalemate", "insufficient material", "dead position", "fivefold repetition",
        "seventy-five-move rule", "threefold claimable", "fifty-move claimable" };
    static const char *const end[] = {
        "checkmate", "stalemate", "insufficient material", "dead position", "fivefold repetition",
        "seventy-five-move rule", "threefold repetition claimed", "fifty-move rule claimed" };
    for (int f = 0; f < (int)(sizeof fact / sizeof fact[0]); f++) {
        CHECK(strcmp(report_fact_words((arb_fact)f), fact[f]) == 0, "report_fact_words(%d) = \"%s\", expected \"%s\"",
              f, report_fact_words((arb_fact)f), fact[f]);
        CHECK(strcmp(report_end_words((arb_fact)f), end[f]) == 0, "report_end_words(%d) = \"%s\", expected \"%s\"", f,
              report_end_words((arb_fact)f), end[f]);
    }
    for (int f = 8; f < ARB_FACT_COUNT; f++)
        CHECK(report_fact_words((arb_fact)f)[0] != '?' && report_end_words((arb_fact)f)[0] != '?',
              "fact %d (%s) has no words", f, arb_fact_name((arb_fact)f));
    CHECK(strcmp(report_fact_words(ARB_FACT_COUNT), "?") == 0, "report_fact_words(ARB_FACT_COUNT) is \"?\"");
}
END_TEST

/* report_position_with()'s analysis for position_sides: Black's side
 * first, each side with a handle of its own (the two of ctx), as --fen
 * asks them on two threads. */
static void sides_apart(void *ctx, const board_t *b, report_side_t side[2])
{
    dead_search_t **h = ctx;
    report_side(h[BLACK], b, BLACK, &side[BLACK]);
    report_side(h[WHITE], b, WHITE, &side[WHITE]);
}

START_TEST(position_sides)
{
    /* Labelled WB, W-, WB, -- and WB in the D3-Chess test vector, and a
     * FEN that is refused.  A handle's answers depend on the position and
     * the budget alone, not on what it was asked before: one handle asked
     * both sides in turn and a handle per side, Black's first, write the
     * same lines, text and JSON. */
    static const char *const fens[] = {
        "8/2pN4/3p4/3k4/r7/8/6K1/8 w - -",
        "6k1/6P1/6K1/6P1/8/8/8/8 w - -",
        "5k2/4pP2/3pP3/2pP4/1pPK4/pP6/P7/8 w - -",
        "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - -",
        "8/8/8/B7/2k5/1p6/1K6/8 b - -",
        "not a fen",
    };
    dead_search_t *one = dead_search_new(20000), *two[2] = { dead_search_new(20000), dead_search_new(20000) };
    CHECK(one && two[0] && two[1], "dead_search_new");
    for (int json = 0; json <= 1; json++) {
        strbuf_t a = { 0 }, b = { 0 };
        for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
            int ra = report_position(&a, fens[i], one, json);
            int rb = report_position_with(&b, fens[i], sides_apart, two, json);
            CHECK(ra == rb && ra == (i == 5 ? -1 : 0), "%s: returns %d and %d", fens[i], ra, rb);
        }
        strbuf_append(&a, "", 1);
        CHECK(strstr(a.data, "Ra2 7.Kh1 Ra1#") != NULL, "no helpmate line in %s", a.data);
        BYTES(json ? "JSON" : "text", &b, a.data, a.len - 1);
        strbuf_free(&a);
        strbuf_free(&b);
    }
    dead_search_free(one);
    dead_search_free(two[0]);
    dead_search_free(two[1]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("report");
    TU_CASE(s, json_string_escapes, 60);
    TU_CASE(s, json_string_valid_utf8, 60);
    TU_CASE(s, json_string_invalid_utf8, 60);
    TU_CASE(s, json_string_every_length_and_place, 60);
    TU_CASE(s, json_string_every_byte, 120);
    TU_CASE(s, strbuf_growth, 120);
    TU_CASE(s, json_record_without_error_and_end, 60);
    TU_CASE(s, json_record_with_error_and_end, 60);
    TU_CASE(s, json_tags_every_length, 60);
    TU_CASE(s, json_first_every_fact, 60);
    TU_CASE(s, text_record, 60);
    TU_CASE(s, text_facts, 60);
    TU_CASE(s, check_clean_game, 60);
    TU_CASE(s, check_unreadable, 60);
    TU_CASE(s, check_wrong_result, 60);
    TU_CASE(s, check_tags_and_marker, 60);
    TU_CASE(s, check_moves_after_end, 60);
    TU_CASE(s, check_counts_add_up, 60);
    TU_CASE(s, game_numbers_tracked, 60);
    TU_CASE(s, colour_text, 60);
    TU_CASE(s, colour_check, 60);
    TU_CASE(s, words, 60);
    TU_CASE(s, position_sides, 60);
    return tu_run(s);
}
