/* report.c: JSON lines for jq, text lines for grep. */
#include "report.h"

#include "adjudicate.h"
#include "board.h"
#include "dead.h"
#include "movegen.h"
#include "rules.h"
#include "san.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void strbuf_free(strbuf_t *b)
{
    free(b->data);
    free(b->numbers);
    b->data = NULL;
    b->numbers = NULL;
    b->len = b->cap = b->nnumbers = b->numbers_cap = 0;
}

void strbuf_clear(strbuf_t *b)
{
    b->len = 0;
    b->nnumbers = 0;
}

static bool strbuf_reserve(strbuf_t *b, size_t n)
{
    if (b->len + n <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n)
        cap *= 2;
    char *d = realloc(b->data, cap);
    if (!d) {
        b->oom = true;
        return false;
    }
    b->data = d;
    b->cap = cap;
    return true;
}

void strbuf_append(strbuf_t *b, const char *s, size_t n)
{
    /* Nothing to add: b->data may still be NULL, and NULL + 0 is undefined. */
    if (n == 0 || !strbuf_reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

void strbuf_puts(strbuf_t *b, const char *s)
{
    strbuf_append(b, s, strlen(s));
}

void strbuf_put_text(strbuf_t *b, const char *s, size_t n)
{
    if (n == 0 || !strbuf_reserve(b, n))
        return;
    char *o = b->data + b->len;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        o[i] = c == '\t' || c == '\n' || c == '\r' ? ' ' : c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    b->len += n;
}

/* A string literal written at o, which has room for it; the end. */
#define LIT(o, lit) (memcpy((o), (lit), sizeof(lit) - 1), (o) + sizeof(lit) - 1)

/* Writes v in decimal at o, which has room for 20 bytes; returns the end.
 * The digits go in from the last, two at a time; a number below 10^8
 * (every line, column, ply and game number in practice) counts its digits
 * by comparisons and divides in 32 bits. */
static char *write_u64(char *o, uint64_t v)
{
    static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";
    if (v < 100000000) {
        uint32_t x = (uint32_t)v;
        size_t len = x < 10000 ? (x < 100 ? (x < 10 ? 1 : 2) : (x < 1000 ? 3 : 4))
                               : (x < 1000000 ? (x < 100000 ? 5 : 6) : (x < 10000000 ? 7 : 8));
        char *p = o + len;
        for (; x >= 100; x /= 100) {
            p -= 2;
            memcpy(p, pairs + x % 100 * 2, 2);
        }
        if (x >= 10)
            memcpy(p - 2, pairs + x * 2, 2);
        else
            p[-1] = (char)('0' + x);
        return o + len;
    }
    size_t len = 2; /* two digits a hundredfold, less one if the first pair has one */
    uint64_t t = v;
    for (; t >= 100; t /= 100)
        len += 2;
    len -= t < 10;
    char *p = o + len;
    for (; v >= 100; v /= 100) {
        p -= 2;
        memcpy(p, pairs + v % 100 * 2, 2);
    }
    if (v >= 10)
        memcpy(p - 2, pairs + v * 2, 2);
    else
        p[-1] = (char)('0' + v);
    return o + len;
}

static void put_u64(strbuf_t *b, uint64_t v)
{
    if (strbuf_reserve(b, 20))
        b->len = (size_t)(write_u64(b->data + b->len, v) - b->data);
}

/* Remembers a game number written at b->data[at..at+len), if b tracks them. */
static void note_number(strbuf_t *b, size_t at, size_t len, uint64_t n)
{
    if (!b->track_numbers || b->oom)
        return;
    if (b->nnumbers == b->numbers_cap) {
        size_t cap = b->numbers_cap ? b->numbers_cap * 2 : 256;
        strbuf_number_t *p = realloc(b->numbers, cap * sizeof *p);
        if (!p) {
            b->oom = true;
            return;
        }
        b->numbers = p;
        b->numbers_cap = cap;
    }
    b->numbers[b->nnumbers++] = (strbuf_number_t){ at, len, n };
}

void report_game_number(strbuf_t *b, uint64_t n)
{
    size_t at = b->len;
    put_u64(b, n);
    note_number(b, at, b->len - at, n);
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_valid(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    uint32_t cp;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) { len = 2; cp = c & 0x1F; }
    else if (c >= 0xE0 && c <= 0xEF) { len = 3; cp = c & 0x0F; }
    else if (c >= 0xF0 && c <= 0xF4) { len = 4; cp = c & 0x07; }
    else return 0;
    if (n < len) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

/* Bytes that a JSON string may hold as they are: printable ASCII but for " and \\. */
static const unsigned char json_plain[256] = {
    /* 00 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 10 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 20 */ 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    /* 30 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    /* 40 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    /* 50 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
    /* 60 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    /* 70 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    /* 80..ff: 0 */
};

/* Nonzero if a byte of w is not plain: below 0x20, " (b ^ 2 is below 0x21
 * just for these), \\, or above 0x7f.  Exact for the word as a whole, as the
 * "byte below n" test of Bit Twiddling Hacks is: a borrow only runs on from
 * a byte that is not plain itself. */
static inline uint64_t not_plain(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101u;
    return (((w ^ ones * 2) - ones * 0x21) | ((w ^ ones * '\\') - ones) | w) & ones * 0x80;
}

/* Writes s[0..n) escaped at o, which has room for 6 * n bytes; returns the end. */
static ARB_NOINLINE char *json_escape(char *o, const unsigned char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t i = 0;
    for (;;) {
        /* Runs of plain bytes: eight at a time, then one by one. */
        uint64_t w;
        while (n - i >= 8) {
            memcpy(&w, s + i, 8);
            if (not_plain(w))
                break;
            memcpy(o, &w, 8);
            i += 8;
            o += 8;
        }
        while (i < n && json_plain[s[i]])
            *o++ = (char)s[i++];
        if (i == n)
            return o;
        unsigned char c = s[i];
        if (c >= 0x80) {
            size_t k = utf8_valid(s + i, n - i);
            if (k) {
                memcpy(o, s + i, k);
                o += k;
                i += k;
            } else {
                memcpy(o, "\xEF\xBF\xBD", 3);
                o += 3;
                i++;
            }
            continue;
        }
        *o++ = '\\';
        switch (c) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '\n': *o++ = 'n'; break;
        case '\r': *o++ = 'r'; break;
        case '\t': *o++ = 't'; break;
        default:
            *o++ = 'u';
            *o++ = '0';
            *o++ = '0';
            *o++ = hex[c >> 4];
            *o++ = hex[c & 15];
        }
        i++;
    }
}

/* copy_plain() for more than 16 bytes: whole words, then the last eight. */
static ARB_NOINLINE uint64_t copy_plain_long(char *o, const unsigned char *s, size_t n)
{
    uint64_t w, bad = 0;
    for (size_t i = 0; i + 8 < n && !bad; i += 8) {
        memcpy(&w, s + i, 8);
        memcpy(o + i, &w, 8);
        bad = not_plain(w);
    }
    memcpy(&w, s + n - 8, 8);
    memcpy(o + n - 8, &w, 8);
    return bad | not_plain(w);
}

/* Copies s[0..n) to o as it is; nonzero if a byte of it is not plain, and
 * then o[0..n) holds no more than some of it.  Most strings are short: up
 * to 16 bytes take two loads that overlap, up to 3 bytes three that may. */
static inline uint64_t copy_plain(char *o, const unsigned char *s, size_t n)
{
    if (n >= 8 && n <= 16) {
        uint64_t a, z;
        memcpy(&a, s, 8);
        memcpy(&z, s + n - 8, 8);
        memcpy(o, &a, 8);
        memcpy(o + n - 8, &z, 8);
        return not_plain(a) | not_plain(z);
    }
    if (n >= 4 && n < 8) {
        uint32_t a, z;
        memcpy(&a, s, 4);
        memcpy(&z, s + n - 4, 4);
        memcpy(o, &a, 4);
        memcpy(o + n - 4, &z, 4);
        return not_plain(a | (uint64_t)z << 32);
    }
    if (n > 0 && n < 4) {
        /* s[0], s[n / 2] and s[n - 1] are every byte; spaces fill the word. */
        o[0] = (char)s[0];
        o[n / 2] = (char)s[n / 2];
        o[n - 1] = (char)s[n - 1];
        return not_plain(0x2020202020000000u | (uint64_t)s[0] << 16 | (uint64_t)s[n / 2] << 8 | s[n - 1]);
    }
    return n ? copy_plain_long(o, s, n) : 0;
}

/* Writes s[0..n) as a JSON string at o, which has room for 6 * n + 2
 * bytes; returns the end. */
static char *json_quoted(char *o, const unsigned char *s, size_t n)
{
    *o++ = '"';
    o = copy_plain(o, s, n) ? json_escape(o, s, n) : o + n;
    *o++ = '"';
    return o;
}

void report_json_string(strbuf_t *b, const char *s, size_t n)
{
    /* Worst case: six bytes out per byte in, plus the quotes. */
    if (!strbuf_reserve(b, 6 * n + 2))
        return;
    char *o = json_quoted(b->data + b->len, (const unsigned char *)s, n);
    b->len = (size_t)(o - b->data);
}

/* Writes a tag as a member of the tags object ("name":"value") at o, which
 * has room for 6 * (name_len + value_len) + 5 bytes; returns the end.  The
 * usual plain tag goes out in one pass. */
static inline char *json_tag(char *o, const arb_tag *t)
{
    const unsigned char *name = (const unsigned char *)t->name, *value = (const unsigned char *)t->value;
    char *start = o;
    *o++ = '"';
    uint64_t bad = copy_plain(o, name, t->name_len);
    o = LIT(o + t->name_len, "\":\"");
    bad |= copy_plain(o, value, t->value_len);
    o += t->value_len;
    *o++ = '"';
    if (!bad)
        return o;
    o = json_quoted(start, name, t->name_len);
    *o++ = ':';
    return json_quoted(o, value, t->value_len);
}

/* Writes s (s_len bytes) as a JSON string at o, or null if s is NULL. */
static char *json_cstr(char *o, const char *s, size_t s_len)
{
    return s ? json_quoted(o, (const unsigned char *)s, s_len) : LIT(o, "null");
}

static char *json_ply(char *o, int32_t ply)
{
    return ply < 0 ? LIT(o, "null") : write_u64(o, (uint64_t)ply);
}

/* The keys of the "first" object: arb_fact_name()'s names, in order
 * (test_report.c checks them); and the object when no fact holds, the usual
 * case, as one constant.  Both begin with a comma, where the object has its
 * opening brace. */
#define FACT_KEYS(X)                                                                                 \
    X("checkmate") X("stalemate") X("insufficient") X("dead") X("fivefold") X("seventyfive")          \
    X("threefold") X("fifty") X("white_cannot_win") X("black_cannot_win")
#define FIRST_KEY(name) { ",\"" name "\":", sizeof(",\"" name "\":") - 1 },
#define FIRST_NULL(name) ",\"" name "\":null"
static const struct {
    const char *text;
    size_t len;
} first_keys[ARB_FACT_COUNT] = { FACT_KEYS(FIRST_KEY) };
static const char first_none[] = FACT_KEYS(FIRST_NULL) "}";

static size_t len_or_0(const char *s)
{
    return s ? strlen(s) : 0;
}

/* Room for the keys, punctuation, numbers and nulls of a record, the
 * strings aside: more than enough. */
enum { JSON_RECORD_ROOM = 1024 + ARB_FACT_COUNT * 48 };

/* Room for one reason object's keys, names and numbers, the strings aside. */
enum { REASON_ROOM = 320 };

/* Writes a reason object at o without its closing brace (others goes
 * there for the first); an other says whether it disagrees with the first. */
static char *json_reason(char *o, const arb_reason *r, bool other)
{
    /* The names as JSON strings, with the keys before them: each a copy of
     * 32 bytes (two moves, no call), the record's room allowing for the
     * bytes beyond the name, which the next key overwrites. */
#define NAMED(s) { s, sizeof(s) - 1 }
    typedef struct { char s[32]; size_t n; } named_t;
    /* The claim with how it was read, "exact" (or "words", as long, written
     * over it): one copy of 48 bytes. */
#define CLAIM(c) { ",\"claim\":\"" c "\",\"read\":\"exact\"", sizeof(",\"claim\":\"" c "\",\"read\":\"exact\"") - 1 }
    typedef struct { char s[48]; size_t n; } claim_t;
    static const claim_t claim[ARB_CLAIM_COUNT] = {
        CLAIM("checkmate"), CLAIM("stalemate"),
        CLAIM("threefold"), CLAIM("fifty"),
        CLAIM("insufficient"), CLAIM("time"),
        CLAIM("time-insufficient"), CLAIM("resignation"),
        CLAIM("agreement"), CLAIM("adjudication"),
        CLAIM("abandoned"), CLAIM("illegal-move"),
        CLAIM("normal"), CLAIM("unterminated"),
        CLAIM("other"), CLAIM("fivefold"),
        CLAIM("seventyfive"),
    };
#undef CLAIM
    static const named_t from[] = {
        NAMED(",\"from\":\"Termination\""), NAMED(",\"from\":\"TerminationDetails\""),
        NAMED(",\"from\":\"comment\""),
    }, winner[3] = {
        NAMED(",\"winner\":null"), NAMED(",\"winner\":\"white\""), NAMED(",\"winner\":\"black\""),
    }, check[ARB_CHECK_COUNT] = {
        NAMED(",\"check\":\"confirmed\""), NAMED(",\"check\":\"contradicted\""),
        NAMED(",\"check\":\"site-rule\""), NAMED(",\"check\":\"superseded\""),
        NAMED(",\"check\":\"unverifiable\""),
    };
#undef NAMED
    o = LIT(o, "{\"text\":");
    o = json_quoted(o, (const unsigned char *)r->text, r->text_len);
    memcpy(o, from[r->from].s, 32);
    o = LIT(o + from[r->from].n, ",\"line\":");
    o = write_u64(o, r->line);
    o = LIT(o, ",\"col\":");
    if (r->col < 10)
        *o++ = (char)('0' + r->col); /* a tag's [ at the line start: column 1 */
    else
        o = write_u64(o, r->col);
    memcpy(o, claim[r->claim].s, 48);
    o += claim[r->claim].n;
    if (r->reading == ARB_READ_WORDS)
        memcpy(o - 6, "words", 5); /* read by its words, not matched as a known source wrote it */
    int w = r->winner == 0 ? 1 : r->winner == 1 ? 2 : 0;
    memcpy(o, winner[w].s, 32);
    o += winner[w].n;
    memcpy(o, check[r->check].s, 32);
    o += check[r->check].n;
    if (r->message[0]) {
        o = LIT(o, ",\"message\":");
        o = json_quoted(o, (const unsigned char *)r->message, strlen(r->message));
    } else {
        o = LIT(o, ",\"message\":\"\"");
    }
    if (other)
        o = r->disagrees ? LIT(o, ",\"disagrees\":true") : LIT(o, ",\"disagrees\":false");
    return o;
}

/* The record goes out into one reservation: room for the fixed part, and
 * for each string six bytes out per byte in at worst, with its quotes. */
void report_json(strbuf_t *b, const arb_game *g, const char *file)
{
    const char *status = arb_status_name(g->status), *verdict = arb_verdict_name(g->verdict);
    const char *move = g->error.move[0] ? g->error.move : NULL;
    const char *end_reason = g->has_end ? arb_fact_name(g->end_reason) : NULL;
    const char *end_move = g->has_end && g->end_move && g->end_move[0] ? g->end_move : NULL;
    size_t file_len = strlen(file), status_len = strlen(status), verdict_len = strlen(verdict);
    size_t result_len = len_or_0(g->result), marker_len = len_or_0(g->marker),
           adjudicated_len = len_or_0(g->adjudicated);
    size_t move_len = 0, message_len = 0, end_reason_len = 0, end_move_len = 0;
    if (g->has_error) {
        move_len = len_or_0(move);
        message_len = strlen(g->error.message);
    }
    if (g->has_end) {
        end_reason_len = strlen(end_reason);
        end_move_len = len_or_0(end_move);
    }
    size_t room = JSON_RECORD_ROOM + 6 * (file_len + status_len + verdict_len + result_len + marker_len +
                                          adjudicated_len + move_len + message_len + end_reason_len + end_move_len);
    for (size_t i = 0; i < g->ntags; i++)
        room += 6 * (g->tags[i].name_len + g->tags[i].value_len) + 6;
    for (size_t i = 0; i < g->nreasons; i++) {
        const char *m = g->reasons[i].message; /* mostly empty: no call then */
        room += REASON_ROOM + 6 * (g->reasons[i].text_len + (m[0] ? strlen(m) : 0));
    }
    if (!strbuf_reserve(b, room))
        return;

    char *o = b->data + b->len, *number;
    o = LIT(o, "{\"file\":");
    o = json_cstr(o, file, file_len);
    o = LIT(o, ",\"game\":");
    number = o;
    o = write_u64(o, g->number);
    note_number(b, (size_t)(number - b->data), (size_t)(o - number), g->number);
    o = LIT(o, ",\"id\":\"");
    arb_game_id_text(g, o);
    o = LIT(o + ARB_ID_TEXT - 1, "\",\"line\":");
    o = write_u64(o, g->where.line);
    o = LIT(o, ",\"offset\":");
    o = write_u64(o, g->where.offset);
    o = LIT(o, ",\"tags\":{");
    for (size_t i = 0; i < g->ntags; i++) {
        if (i)
            *o++ = ',';
        o = json_tag(o, &g->tags[i]);
    }
    o = LIT(o, "},\"status\":");
    o = json_cstr(o, status, status_len);
    o = LIT(o, ",\"error\":");
    if (g->has_error) {
        o = LIT(o, "{\"line\":");
        o = write_u64(o, g->error.line);
        o = LIT(o, ",\"col\":");
        o = write_u64(o, g->error.col);
        o = LIT(o, ",\"ply\":");
        o = write_u64(o, g->error.ply);
        o = LIT(o, ",\"move\":");
        o = json_cstr(o, move, move_len);
        o = LIT(o, ",\"message\":");
        o = json_cstr(o, g->error.message, message_len);
        *o++ = '}';
    } else {
        o = LIT(o, "null");
    }
    o = LIT(o, ",\"plies\":");
    o = write_u64(o, g->plies);
    o = LIT(o, ",\"result\":");
    o = json_cstr(o, g->result, result_len);
    o = LIT(o, ",\"marker\":");
    o = json_cstr(o, g->marker, marker_len);
    o = LIT(o, ",\"first\":");
    char *first = o;
    bool none = true;
    for (int f = 0; f < ARB_FACT_COUNT; f++)
        none = none && g->first[f] < 0;
    if (none) {
        o = LIT(o, first_none);
    } else {
        for (int f = 0; f < ARB_FACT_COUNT; f++) {
            memcpy(o, first_keys[f].text, first_keys[f].len);
            o = json_ply(o + first_keys[f].len, g->first[f]);
        }
        *o++ = '}';
    }
    *first = '{';
    o = LIT(o, ",\"end\":");
    if (g->has_end) {
        o = LIT(o, "{\"reason\":");
        o = json_cstr(o, end_reason, end_reason_len);
        o = LIT(o, ",\"ply\":");
        o = json_ply(o, g->end_ply);
        o = LIT(o, ",\"move\":");
        o = json_cstr(o, end_move, end_move_len);
        *o++ = '}';
    } else {
        o = LIT(o, "null");
    }
    o = LIT(o, ",\"reason\":");
    if (g->nreasons) {
        o = json_reason(o, &g->reasons[0], false);
        o = LIT(o, ",\"others\":[");
        for (size_t i = 1; i < g->nreasons; i++) {
            if (i > 1)
                *o++ = ',';
            o = json_reason(o, &g->reasons[i], true);
            *o++ = '}';
        }
        o = LIT(o, "]}");
    } else {
        o = LIT(o, "null");
    }
    o = LIT(o, ",\"adjudicated\":");
    o = json_cstr(o, g->adjudicated, adjudicated_len);
    o = LIT(o, ",\"verdict\":");
    o = json_cstr(o, verdict, verdict_len);
    o = LIT(o, "}\n");
    assert((size_t)(o - b->data) - b->len <= room);
    b->len = (size_t)(o - b->data);
}

const char *report_fact_words(arb_fact f)
{
    static const char *const words[ARB_FACT_COUNT] = {
        "checkmate", "stalemate", "insufficient material", "dead position",
        "fivefold repetition", "seventy-five-move rule", "threefold claimable",
        "fifty-move claimable", "White cannot win", "Black cannot win",
    };
    return (unsigned)f < ARB_FACT_COUNT ? words[f] : "?";
}

const char *report_end_words(arb_fact f)
{
    if (f == ARB_THREEFOLD)
        return "threefold repetition claimed";
    if (f == ARB_FIFTY)
        return "fifty-move rule claimed";
    return report_fact_words(f);
}

/* Text fields stay on one line and one column, and safe for a terminal
 * (strbuf_put_text()). */
static void text_field(strbuf_t *b, const char *s)
{
    if (!s || !*s) {
        strbuf_append(b, "-", 1);
        return;
    }
    strbuf_put_text(b, s, strlen(s));
}

static const char *tag_of(const arb_game *g, const char *name)
{
    for (size_t i = 0; i < g->ntags; i++)
        if (strcmp(g->tags[i].name, name) == 0)
            return g->tags[i].value;
    return NULL;
}

void report_text(strbuf_t *b, const arb_game *g, const char *file)
{
    report_text_color(b, g, file, false);
}

/* ANSI colours for terminals, as compilers use them. */
#define SGR_RESET "\033[0m"
static const char *const verdict_color[ARB_VERDICT_COUNT] = {
    "\033[32m", "\033[1;31m", "\033[31m", "\033[33m", "\033[36m", "\033[1;35m", "\033[1;31m",
};

void report_text_color(strbuf_t *b, const arb_game *g, const char *file, bool color)
{
    char tmp[64];
    text_field(b, file);
    strbuf_append(b, ":", 1);
    put_u64(b, g->where.line);
    strbuf_append(b, "\t", 1);
    report_game_number(b, g->number);
    strbuf_append(b, "\t", 1);
    text_field(b, tag_of(g, "White"));
    strbuf_append(b, "\t", 1);
    text_field(b, tag_of(g, "Black"));
    strbuf_append(b, "\t", 1);
    text_field(b, g->result);
    strbuf_append(b, "\t", 1);
    text_field(b, g->adjudicated);
    strbuf_append(b, "\t", 1);
    if (color)
        strbuf_puts(b, verdict_color[g->verdict]);
    strbuf_puts(b, arb_verdict_name(g->verdict));
    if (color)
        strbuf_puts(b, SGR_RESET);
    strbuf_append(b, "\t", 1);

    bool any = false;
    if (g->has_error) {
        snprintf(tmp, sizeof tmp, "%s at %llu:%u: ", arb_status_name(g->status),
                 (unsigned long long)g->error.line, (unsigned)g->error.col);
        strbuf_puts(b, tmp);
        text_field(b, g->error.message);
        any = true;
    }
    /* Facts in the order they happened; dead is left out where it only repeats insufficient. */
    bool done[ARB_FACT_COUNT] = { false };
    for (;;) {
        int best = -1;
        for (int f = 0; f < ARB_FACT_COUNT; f++) {
            if (done[f] || g->first[f] < 0)
                continue;
            if (best < 0 || g->first[f] < g->first[best])
                best = f;
        }
        if (best < 0)
            break;
        done[best] = true;
        if (best == ARB_DEAD && g->first[ARB_INSUFFICIENT] == g->first[ARB_DEAD])
            continue;
        if (any)
            strbuf_append(b, ", ", 2);
        strbuf_puts(b, report_fact_words((arb_fact)best));
        strbuf_puts(b, " at ");
        strbuf_puts(b, g->first_move[best][0] ? g->first_move[best] : "start");
        any = true;
    }
    if (!any)
        strbuf_append(b, "-", 1);
    /* The reason and its check: threefold "Game drawn by repetition" contradicted;
     * one reservation for the field. */
    if (g->nreasons) {
        const arb_reason *r = &g->reasons[0];
        const char *claim = arb_claim_name(r->claim), *check = arb_check_name(r->check);
        size_t nc = strlen(claim), nk = strlen(check);
        if (strbuf_reserve(b, r->text_len + nc + nk + 8)) {
            char *o = b->data + b->len;
            *o++ = '\t';
            memcpy(o, claim, nc);
            o = LIT(o + nc, " \"");
            b->len = (size_t)(o - b->data);
            strbuf_put_text(b, r->text, r->text_len);
            o = LIT(b->data + b->len, "\" ");
            memcpy(o, check, nk);
            o[nk] = '\n';
            b->len = (size_t)(o + nk + 1 - b->data);
        }
    } else {
        strbuf_append(b, "\t-\n", 3);
    }
}

/* The kinds of problem, in the order of report_rule_t. */
static const report_rule_info_t rule_info[REPORT_RULE_COUNT] = {
#define REPORT_RULE_INFO(e, id, err, desc) { id, err, desc },
    REPORT_RULES(REPORT_RULE_INFO)
#undef REPORT_RULE_INFO
};

const report_rule_info_t *report_rule_info(report_rule_t r)
{
    assert((unsigned)r < REPORT_RULE_COUNT);
    return &rule_info[r];
}

const char *report_tag(const arb_game *g, const char *name)
{
    return tag_of(g, name);
}

void report_problem_line(strbuf_t *b, const char *file, const arb_game *g, const report_problem_t *p, bool color)
{
    char head[96];
    const char *white = tag_of(g, "White"), *black = tag_of(g, "Black");
    if (color)
        strbuf_puts(b, "\033[1m");
    text_field(b, file);
    snprintf(head, sizeof head, ":%llu:%u:%s %s%s:%s game ", (unsigned long long)p->line, (unsigned)p->col,
             color ? SGR_RESET : "", color ? (p->error ? "\033[1;31m" : "\033[1;35m") : "",
             p->error ? "error" : "warning", color ? SGR_RESET : "");
    strbuf_puts(b, head);
    report_game_number(b, g->number);
    strbuf_puts(b, " (");
    text_field(b, white ? white : "?");
    strbuf_puts(b, " v ");
    text_field(b, black ? black : "?");
    strbuf_puts(b, "): ");
    text_field(b, p->message);
    strbuf_append(b, "\n", 1);
}

/* Hands one problem to fn: where it is (the game's first line, column 1,
 * where the input gives none), its level and its message in words. */
static void problem(report_problem_fn *fn, void *ctx, const arb_game *g, report_rule_t rule, bool strict,
                    uint64_t line, uint32_t col, const char *fmt, const char *a, const char *c, const char *d)
{
    char text[400];
    snprintf(text, sizeof text, fmt, a ? a : "", c ? c : "", d ? d : "");
    report_problem_t p = {
        .rule = rule,
        .error = rule_info[rule].error || strict,
        .game = g->number,
        .line = line ? line : g->where.line,
        .col = col ? col : 1,
        .message = text,
    };
    fn(ctx, g, &p);
}

void report_problems(const arb_game *g, bool strict, report_problem_fn *fn, void *ctx)
{
#define PROBLEM(rule, line, col, fmt, a, c, d) problem(fn, ctx, g, (rule), strict, (line), (col), (fmt), (a), (c), (d))
    char ply[24];
    if (g->status == ARB_UNSUPPORTED) {
        PROBLEM(REPORT_UNSUPPORTED_VARIANT, g->error.line, g->error.col, "%s; not checked", g->error.message, NULL,
                NULL);
        return;
    }
    if (g->status != ARB_OK) {
        report_rule_t rule = g->status == ARB_ILLEGAL  ? REPORT_ILLEGAL_MOVE
                             : g->status == ARB_BADFEN ? REPORT_BAD_FEN
                                                       : REPORT_SYNTAX;
        snprintf(ply, sizeof ply, "%u", (unsigned)g->error.ply);
        if (g->error.move[0])
            PROBLEM(rule, g->error.line, g->error.col, "%s: move \"%s\" (ply %s)", g->error.message, g->error.move,
                    ply);
        else
            PROBLEM(rule, g->error.line, g->error.col, "%s", g->error.message, NULL, NULL);
        return;
    }
    const arb_span *rt = &g->result_tag;
    bool decided = g->adjudication != NULL;
    if (decided && g->result && g->adjudicated && strcmp(g->result, g->adjudicated) != 0) {
        if (g->has_end) {
            char at[64];
            snprintf(at, sizeof at, "%s at %s", report_end_words(g->end_reason),
                     g->end_move && g->end_move[0] ? g->end_move : "the start");
            PROBLEM(REPORT_WRONG_RESULT, rt->line, rt->col, "Result \"%s\" contradicts %s: the result is %s",
                    g->result, at, g->adjudicated);
        } else {
            PROBLEM(REPORT_WRONG_RESULT, rt->line, rt->col, "Result \"%s\" contradicts %s: the result is %s",
                    g->result, g->adjudication, g->adjudicated);
        }
    }
    if (!g->result && decided && g->marker && g->adjudicated && strcmp(g->marker, g->adjudicated) != 0)
        PROBLEM(REPORT_MARKER_CONTRADICTS_RULES, g->marker_span.line, g->marker_span.col,
                "termination marker %s contradicts the rules: the result is %s", g->marker, g->adjudicated, NULL);
    if (g->result && strcmp(g->result, "1-0") != 0 && strcmp(g->result, "0-1") != 0 &&
        strcmp(g->result, "1/2-1/2") != 0 && strcmp(g->result, "*") != 0)
        PROBLEM(REPORT_BAD_RESULT, rt->line, rt->col, "Result \"%s\" is not 1-0, 0-1, 1/2-1/2 or *", g->result,
                NULL, NULL);
    if (g->result && g->marker && strcmp(g->result, g->marker) != 0)
        PROBLEM(REPORT_MARKER_CONTRADICTS_RESULT, g->marker_span.line, g->marker_span.col,
                "Result tag \"%s\" contradicts the termination marker %s", g->result, g->marker, NULL);
    if (g->has_end && (uint32_t)g->end_ply < g->plies) {
        unsigned extra = (unsigned)(g->plies - (uint32_t)g->end_ply);
        snprintf(ply, sizeof ply, "%u %s", extra, extra == 1 ? "ply" : "plies");
        PROBLEM(REPORT_MOVES_AFTER_END, g->marker_span.line, g->marker_span.col,
                "%s recorded after the game ended by %s at %s", ply, report_end_words(g->end_reason),
                g->end_move && g->end_move[0] ? g->end_move : "the start");
    }
    if (!g->result)
        PROBLEM(REPORT_MISSING_RESULT, g->where.line, g->where.col, "no Result tag", NULL, NULL, NULL);
    if (!g->marker)
        PROBLEM(REPORT_NO_MARKER, g->where.line, g->where.col, "no termination marker", NULL, NULL, NULL);
    if (!g->has_end && g->result && strcmp(g->result, "*") == 0)
        PROBLEM(REPORT_UNFINISHED, rt->line, rt->col, "unfinished game (Result \"*\")", NULL, NULL, NULL);
    /* The reason: errors and warnings by its check.  Another text: a
     * warning where it disagrees with the reason, or is contradicted while
     * the reason is not. */
    for (size_t i = 0; i < g->nreasons; i++) {
        const arb_reason *r = &g->reasons[i];
        char what[200];
        snprintf(what, sizeof what, "%s \"%.*s\"", r->from == ARB_FROM_COMMENT ? "final comment" : arb_reason_from_name(r->from),
                 (int)(r->text_len > 120 ? 120 : r->text_len), r->text);
        if (i > 0) {
            const arb_reason *f = &g->reasons[0];
            char first[200];
            snprintf(first, sizeof first, "%s \"%.*s\"",
                     f->from == ARB_FROM_COMMENT ? "final comment" : arb_reason_from_name(f->from),
                     (int)(f->text_len > 120 ? 120 : f->text_len), f->text);
            if (r->disagrees)
                PROBLEM(REPORT_REASON_DISAGREES, r->line, r->col, "%s disagrees with %s", what, first, NULL);
            else if (r->check == ARB_CHECK_CONTRADICTED && f->check != ARB_CHECK_CONTRADICTED)
                PROBLEM(REPORT_REASON_DISAGREES, r->line, r->col, "%s contradicts %s", what,
                        r->result_conflict ? "the result recorded" : "the board", NULL);
            continue;
        }
        switch (r->check) {
        case ARB_CHECK_CONTRADICTED:
            if (r->result_conflict) {
                char rec[64];
                if (adjudicate_is_result(g->result))
                    snprintf(rec, sizeof rec, "Result \"%s\"", g->result);
                else
                    snprintf(rec, sizeof rec, "the termination marker %s", g->marker ? g->marker : "?");
                PROBLEM(REPORT_WRONG_REASON, r->line, r->col, "%s contradicts %s", what, rec, NULL);
            } else if (!(r->claim == ARB_CLAIM_TIME && g->verdict == ARB_WRONG_RESULT)) {
                /* (A loss on time that Article 6.9 makes a draw has its error above.) */
                PROBLEM(REPORT_WRONG_REASON, r->line, r->col, "%s contradicts the board: %s", what, r->message, NULL);
            }
            break;
        case ARB_CHECK_SITE_RULE:
            PROBLEM(REPORT_REASON_SITE_RULE, r->line, r->col, "%s holds only under chess.com's rule: %s", what, r->message, NULL);
            break;
        case ARB_CHECK_SUPERSEDED:
            PROBLEM(REPORT_REASON_SUPERSEDED, r->line, r->col, "%s: %s", what, r->message, NULL);
            break;
        default:
            break;
        }
    }
#undef PROBLEM
}

/* report_check_color()'s way with each problem: a line, and a count. */
typedef struct {
    strbuf_t *b;
    const char *file;
    bool color;
    report_counts_t *counts;
} check_lines_t;

static void check_line(void *ctx, const arb_game *g, const report_problem_t *p)
{
    check_lines_t *c = ctx;
    report_problem_line(c->b, c->file, g, p, c->color);
    if (p->error)
        c->counts->errors++;
    else
        c->counts->warnings++;
}

void report_check(strbuf_t *b, const arb_game *g, const char *file, bool strict, report_counts_t *counts)
{
    report_check_color(b, g, file, strict, false, counts);
}

void report_check_color(strbuf_t *b, const arb_game *g, const char *file, bool strict, bool color,
                        report_counts_t *counts)
{
    check_lines_t c = { b, file, color, counts };
    report_problems(g, strict, check_line, &c);
}

/* A helpmate line in move notation ("1.Kc2 Kb1 2.Qb2#"), played from b. */
static void line_text(strbuf_t *out, const board_t *start, const move_t *line, int n)
{
    board_t b = *start, next;
    for (int i = 0; i < n; i++) {
        char san[16], num[24];
        if (i)
            strbuf_append(out, " ", 1);
        if (b.stm == WHITE || i == 0) {
            snprintf(num, sizeof num, "%u%s", (unsigned)b.fullmove, b.stm == WHITE ? "." : "...");
            strbuf_puts(out, num);
        }
        san_format(&b, line[i], san);
        strbuf_puts(out, san);
        board_make_move(&b, line[i], &next);
        b = next;
    }
}

void report_side(dead_search_t *s, const board_t *b, int color, report_side_t *out)
{
    out->len = 0;
    out->answer = dead_can_win(s, b, color, out->line, REPORT_LINE_CAP, &out->len);
}

/* report_position()'s analysis: both sides with one handle, one after the
 * other. */
static void sides_in_turn(void *ctx, const board_t *b, report_side_t side[2])
{
    for (int c = WHITE; c <= BLACK; c++)
        report_side(ctx, b, c, &side[c]);
}

int report_position(strbuf_t *out, const char *fen, dead_search_t *s, bool json)
{
    return report_position_with(out, fen, sides_in_turn, s, json);
}

int report_position_with(strbuf_t *out, const char *fen, report_sides_fn *analyse, void *ctx, bool json)
{
    static const char *const answers[] = { "winnable", "unwinnable", "undetermined" };
    board_t b;
    board_error_t why;
    /* Standard castling first; X-FEN or Shredder-FEN castling means Chess960. */
    if (board_from_fen(&b, fen, false, &why) < 0 && board_from_fen(&b, fen, true, &why) < 0) {
        if (json) {
            strbuf_puts(out, "{\"fen\":");
            report_json_string(out, fen, strlen(fen));
            strbuf_puts(out, ",\"error\":");
            report_json_string(out, why, strlen(why));
            strbuf_puts(out, "}\n");
        } else {
            text_field(out, fen);
            strbuf_puts(out, "\terror: ");
            strbuf_puts(out, why);
            strbuf_puts(out, "\n");
        }
        return -1;
    }
    move_t moves[MAX_MOVES];
    int legal = movegen_legal(&b, moves);
    bool check = board_in_check(&b), insufficient = rules_insufficient(&b);
    enum dead_answer a[2];
    strbuf_t lines[2] = { { 0 }, { 0 } };
    report_side_t side[2];
    analyse(ctx, &b, side);
    for (int c = WHITE; c <= BLACK; c++) {
        a[c] = side[c].answer;
        if (a[c] == DEAD_WINNABLE)
            line_text(&lines[c], &b, side[c].line, side[c].len < REPORT_LINE_CAP ? side[c].len : REPORT_LINE_CAP);
    }
    bool dead = a[WHITE] == DEAD_UNWINNABLE && a[BLACK] == DEAD_UNWINNABLE;
    char num[64];
    if (json) {
        strbuf_puts(out, "{\"fen\":");
        report_json_string(out, fen, strlen(fen));
        snprintf(num, sizeof num, ",\"error\":null,\"legal\":%d,\"check\":%s", legal, check ? "true" : "false");
        strbuf_puts(out, num);
        strbuf_puts(out, legal ? "" : (check ? ",\"checkmate\":true" : ",\"stalemate\":true"));
        strbuf_puts(out, insufficient ? ",\"insufficient\":true" : ",\"insufficient\":false");
        for (int c = WHITE; c <= BLACK; c++) {
            strbuf_puts(out, c == WHITE ? ",\"white\":{\"answer\":\"" : ",\"black\":{\"answer\":\"");
            strbuf_puts(out, answers[a[c]]);
            strbuf_puts(out, "\",\"helpmate\":");
            if (a[c] == DEAD_WINNABLE)
                report_json_string(out, lines[c].data ? lines[c].data : "", lines[c].len);
            else
                strbuf_puts(out, "null");
            strbuf_puts(out, "}");
        }
        strbuf_puts(out, dead ? ",\"dead\":true}\n" : ",\"dead\":false}\n");
    } else {
        text_field(out, fen);
        snprintf(num, sizeof num, "\tlegal %d\t%s\t", legal,
                 legal ? (check ? "check" : "-") : (check ? "checkmate" : "stalemate"));
        strbuf_puts(out, num);
        strbuf_puts(out, insufficient ? "insufficient material" : "-");
        for (int c = WHITE; c <= BLACK; c++) {
            strbuf_puts(out, c == WHITE ? "\twhite " : "\tblack ");
            strbuf_puts(out, answers[a[c]]);
            if (a[c] == DEAD_WINNABLE && lines[c].len) {
                strbuf_puts(out, " (");
                strbuf_append(out, lines[c].data, lines[c].len);
                strbuf_puts(out, ")");
            }
        }
        strbuf_puts(out, dead ? "\tdead\n" : "\t-\n");
    }
    strbuf_free(&lines[0]);
    strbuf_free(&lines[1]);
    return 0;
}
