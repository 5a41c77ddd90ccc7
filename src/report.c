/* report.c: JSON lines for jq, text lines for grep. */
#include "report.h"

#include "board.h"
#include "dead.h"
#include "movegen.h"
#include "rules.h"
#include "san.h"

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

/* strbuf_append() with the common case inline: n > 0 bytes that fit. */
static inline void put(strbuf_t *b, const char *s, size_t n)
{
    if (n && n <= b->cap - b->len) {
        memcpy(b->data + b->len, s, n);
        b->len += n;
    } else {
        strbuf_append(b, s, n);
    }
}

/* A string literal, its length known at compile time. */
#define PUT_LIT(b, lit) put((b), (lit), sizeof(lit) - 1)

static void put_u64(strbuf_t *b, uint64_t v)
{
    char tmp[24];
    size_t n = sizeof tmp;
    do {
        tmp[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put(b, tmp + n, sizeof tmp - n);
}

void report_game_number(strbuf_t *b, uint64_t n)
{
    size_t at = b->len;
    put_u64(b, n);
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
    b->numbers[b->nnumbers++] = (strbuf_number_t){ at, b->len - at, n };
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

/* True if each of the 8 bytes in w is plain (0x20..0x7f, not " or \\):
 * the "byte below n" and "zero byte" tests of Bit Twiddling Hacks, which
 * are exact as a whole, with the high bits ruling out 0x80..0xff. */
static inline bool plain8(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    uint64_t q = w ^ (ones * '"'), bs = w ^ (ones * '\\');
    return ((((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((bs - ones) & ~bs) | w) & high) == 0;
}

/* Writes s[i..n) escaped at o, which has room for it; returns the end. */
static char *json_escape(char *o, const unsigned char *s, size_t i, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    bool tail_tried = n - i < 8;
    for (;;) {
        /* Runs of plain bytes: eight at a time, then one by one. */
        uint64_t w;
        while (n - i >= 8) {
            memcpy(&w, s + i, 8);
            if (!plain8(w))
                break;
            memcpy(o, &w, 8);
            i += 8;
            o += 8;
        }
        if (n - i < 8 && !tail_tried) {
            /* The last eight bytes, if all plain: those before i went out
             * as the last i - (n - 8) bytes, one for one. */
            tail_tried = true;
            memcpy(&w, s + n - 8, 8);
            if (plain8(w)) {
                memcpy(o - (i - (n - 8)), &w, 8);
                return o + (n - i);
            }
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

/* plain8() for four bytes. */
static inline bool plain4(uint32_t w)
{
    const uint32_t ones = 0x01010101u, high = 0x80808080u;
    uint32_t q = w ^ (ones * '"'), bs = w ^ (ones * '\\');
    return ((((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((bs - ones) & ~bs) | w) & high) == 0;
}

/* Writes s[0..n) as a JSON string at o, which has room for 6 * n + 2
 * bytes; returns the end. */
static inline char *json_quoted(char *o, const unsigned char *s, size_t n)
{
    *o++ = '"';
    /* Most strings are short and plain: 4 to 16 bytes as two words, which
     * overlap unless n is 8 or 16. */
    if (n >= 8 && n <= 16) {
        uint64_t w0, w1;
        memcpy(&w0, s, 8);
        memcpy(&w1, s + n - 8, 8);
        if (plain8(w0) && plain8(w1)) {
            memcpy(o, &w0, 8);
            memcpy(o + n - 8, &w1, 8);
            o += n;
        } else {
            o = json_escape(o, s, 0, n);
        }
    } else if (n >= 4 && n < 8) {
        uint32_t w0, w1;
        memcpy(&w0, s, 4);
        memcpy(&w1, s + n - 4, 4);
        if (plain4(w0) && plain4(w1)) {
            memcpy(o, &w0, 4);
            memcpy(o + n - 4, &w1, 4);
            o += n;
        } else {
            o = json_escape(o, s, 0, n);
        }
    } else if (n < 4) {
        size_t i = 0;
        while (i < n && json_plain[s[i]])
            *o++ = (char)s[i++];
        if (i < n)
            o = json_escape(o, s, i, n);
    } else {
        o = json_escape(o, s, 0, n);
    }
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

/* A tag as a member of the tags object, after a comma unless first. */
static void json_tag(strbuf_t *b, const arb_tag *t, bool first)
{
    if (!strbuf_reserve(b, 6 * (t->name_len + t->value_len) + 6))
        return;
    char *o = b->data + b->len;
    if (!first)
        *o++ = ',';
    o = json_quoted(o, (const unsigned char *)t->name, t->name_len);
    *o++ = ':';
    o = json_quoted(o, (const unsigned char *)t->value, t->value_len);
    b->len = (size_t)(o - b->data);
}

static void json_cstr(strbuf_t *b, const char *s)
{
    if (s)
        report_json_string(b, s, strlen(s));
    else
        PUT_LIT(b, "null");
}

static void json_ply(strbuf_t *b, int32_t ply)
{
    if (ply < 0)
        PUT_LIT(b, "null");
    else
        put_u64(b, (uint64_t)ply);
}

void report_json(strbuf_t *b, const arb_game *g, const char *file)
{
    PUT_LIT(b, "{\"file\":");
    json_cstr(b, file);
    PUT_LIT(b, ",\"game\":");
    report_game_number(b, g->number);
    PUT_LIT(b, ",\"line\":");
    put_u64(b, g->where.line);
    PUT_LIT(b, ",\"offset\":");
    put_u64(b, g->where.offset);
    PUT_LIT(b, ",\"tags\":{");
    for (size_t i = 0; i < g->ntags; i++)
        json_tag(b, &g->tags[i], i == 0);
    PUT_LIT(b, "},\"status\":");
    json_cstr(b, arb_status_name(g->status));
    PUT_LIT(b, ",\"error\":");
    if (g->has_error) {
        PUT_LIT(b, "{\"line\":");
        put_u64(b, g->error.line);
        PUT_LIT(b, ",\"col\":");
        put_u64(b, g->error.col);
        PUT_LIT(b, ",\"ply\":");
        put_u64(b, g->error.ply);
        PUT_LIT(b, ",\"move\":");
        json_cstr(b, g->error.move[0] ? g->error.move : NULL);
        PUT_LIT(b, ",\"message\":");
        json_cstr(b, g->error.message);
        PUT_LIT(b, "}");
    } else {
        PUT_LIT(b, "null");
    }
    PUT_LIT(b, ",\"plies\":");
    put_u64(b, g->plies);
    PUT_LIT(b, ",\"result\":");
    json_cstr(b, g->result);
    PUT_LIT(b, ",\"marker\":");
    json_cstr(b, g->marker);
    PUT_LIT(b, ",\"first\":{");
    for (int f = 0; f < ARB_FACT_COUNT; f++) {
        if (f)
            PUT_LIT(b, ",");
        json_cstr(b, arb_fact_name((arb_fact)f));
        PUT_LIT(b, ":");
        json_ply(b, g->first[f]);
    }
    PUT_LIT(b, "},\"end\":");
    if (g->has_end) {
        PUT_LIT(b, "{\"reason\":");
        json_cstr(b, arb_fact_name(g->end_reason));
        PUT_LIT(b, ",\"ply\":");
        json_ply(b, g->end_ply);
        PUT_LIT(b, ",\"move\":");
        json_cstr(b, g->end_move && g->end_move[0] ? g->end_move : NULL);
        PUT_LIT(b, "}");
    } else {
        PUT_LIT(b, "null");
    }
    PUT_LIT(b, ",\"adjudicated\":");
    json_cstr(b, g->adjudicated);
    PUT_LIT(b, ",\"verdict\":");
    json_cstr(b, arb_verdict_name(g->verdict));
    PUT_LIT(b, "}\n");
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

/* Text fields stay on one line and one column: tabs and line ends become spaces. */
static void text_field(strbuf_t *b, const char *s)
{
    if (!s || !*s) {
        strbuf_append(b, "-", 1);
        return;
    }
    size_t start = b->len;
    strbuf_puts(b, s);
    for (size_t i = start; i < b->len; i++)
        if (b->data[i] == '\t' || b->data[i] == '\n' || b->data[i] == '\r')
            b->data[i] = ' ';
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
static const char *const verdict_color[5] = {
    "\033[32m", "\033[1;31m", "\033[33m", "\033[36m", "\033[1;35m",
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
    strbuf_append(b, "\n", 1);
}

/* One problem line. */
static void problem(strbuf_t *b, const char *file, const arb_game *g, uint64_t line, uint32_t col,
                    bool error, bool color, const char *fmt, const char *a, const char *c, const char *d)
{
    char head[96], text[400];
    const char *white = tag_of(g, "White"), *black = tag_of(g, "Black");
    if (color)
        strbuf_puts(b, "\033[1m");
    text_field(b, file);
    snprintf(head, sizeof head, ":%llu:%u:%s %s%s:%s game ", (unsigned long long)(line ? line : g->where.line),
             (unsigned)(col ? col : 1), color ? SGR_RESET : "", color ? (error ? "\033[1;31m" : "\033[1;35m") : "",
             error ? "error" : "warning", color ? SGR_RESET : "");
    strbuf_puts(b, head);
    report_game_number(b, g->number);
    strbuf_puts(b, " (");
    text_field(b, white ? white : "?");
    strbuf_puts(b, " v ");
    text_field(b, black ? black : "?");
    strbuf_puts(b, "): ");
    snprintf(text, sizeof text, fmt, a ? a : "", c ? c : "", d ? d : "");
    text_field(b, text);
    strbuf_append(b, "\n", 1);
}

void report_check(strbuf_t *b, const arb_game *g, const char *file, bool strict, report_counts_t *counts)
{
    report_check_color(b, g, file, strict, false, counts);
}

void report_check_color(strbuf_t *b, const arb_game *g, const char *file, bool strict, bool color,
                        report_counts_t *counts)
{
#define PROBLEM(is_error, line, col, fmt, a, c, d)                                   \
    do {                                                                          \
        bool e_ = (is_error) || strict;                                           \
        problem(b, file, g, (line), (col), e_, color, (fmt), (a), (c), (d));      \
        if (e_) counts->errors++; else counts->warnings++;                        \
    } while (0)
    char ply[24];
    if (g->status == ARB_UNSUPPORTED) {
        PROBLEM(false, g->error.line, g->error.col, "%s; not checked", g->error.message, NULL, NULL);
        return;
    }
    if (g->status != ARB_OK) {
        snprintf(ply, sizeof ply, "%u", (unsigned)g->error.ply);
        if (g->error.move[0])
            PROBLEM(true, g->error.line, g->error.col, "%s: move \"%s\" (ply %s)", g->error.message,
                    g->error.move, ply);
        else
            PROBLEM(true, g->error.line, g->error.col, "%s", g->error.message, NULL, NULL);
        return;
    }
    const arb_span *rt = &g->result_tag;
    bool decided = g->adjudication != NULL;
    if (decided && g->result && g->adjudicated && strcmp(g->result, g->adjudicated) != 0) {
        if (g->has_end) {
            char at[64];
            snprintf(at, sizeof at, "%s at %s", report_end_words(g->end_reason),
                     g->end_move && g->end_move[0] ? g->end_move : "the start");
            PROBLEM(true, rt->line, rt->col, "Result \"%s\" contradicts %s: the result is %s", g->result, at,
                    g->adjudicated);
        } else {
            PROBLEM(true, rt->line, rt->col, "Result \"%s\" contradicts %s: the result is %s", g->result,
                    g->adjudication, g->adjudicated);
        }
    }
    if (!g->result && decided && g->marker && g->adjudicated && strcmp(g->marker, g->adjudicated) != 0)
        PROBLEM(true, g->marker_span.line, g->marker_span.col,
                "termination marker %s contradicts the rules: the result is %s", g->marker, g->adjudicated, NULL);
    if (g->result && strcmp(g->result, "1-0") != 0 && strcmp(g->result, "0-1") != 0 &&
        strcmp(g->result, "1/2-1/2") != 0 && strcmp(g->result, "*") != 0)
        PROBLEM(false, rt->line, rt->col, "Result \"%s\" is not 1-0, 0-1, 1/2-1/2 or *", g->result, NULL, NULL);
    if (g->result && g->marker && strcmp(g->result, g->marker) != 0)
        PROBLEM(true, g->marker_span.line, g->marker_span.col,
                "Result tag \"%s\" contradicts the termination marker %s", g->result, g->marker, NULL);
    if (g->has_end && (uint32_t)g->end_ply < g->plies) {
        unsigned extra = (unsigned)(g->plies - (uint32_t)g->end_ply);
        snprintf(ply, sizeof ply, "%u %s", extra, extra == 1 ? "ply" : "plies");
        PROBLEM(false, g->marker_span.line, g->marker_span.col, "%s recorded after the game ended by %s at %s",
                ply, report_end_words(g->end_reason), g->end_move && g->end_move[0] ? g->end_move : "the start");
    }
    if (!g->result)
        PROBLEM(false, g->where.line, g->where.col, "no Result tag", NULL, NULL, NULL);
    if (!g->marker)
        PROBLEM(false, g->where.line, g->where.col, "no termination marker", NULL, NULL, NULL);
    if (!g->has_end && g->result && strcmp(g->result, "*") == 0)
        PROBLEM(false, rt->line, rt->col, "unfinished game (Result \"*\")", NULL, NULL, NULL);
#undef PROBLEM
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

int report_position(strbuf_t *out, const char *fen, struct dead_search *s, bool json)
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
    for (int c = WHITE; c <= BLACK; c++) {
        move_t line[512];
        int n = 0;
        a[c] = dead_can_win(s, &b, c, line, 512, &n);
        if (a[c] == DEAD_WINNABLE)
            line_text(&lines[c], &b, line, n < 512 ? n : 512);
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
