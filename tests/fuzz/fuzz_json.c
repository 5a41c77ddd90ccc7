/* fuzz_json: the whole pipeline with --json output.
 *
 * The stream is read in random chunks; each game goes through report_json,
 * report_text and report_check as pgn-arbiter does.  Invariants
 * (report.h): each JSON record is one line holding one valid JSON object
 * (RFC 8259: no raw control bytes, valid escapes, valid UTF-8 only); a text
 * record is one line; a check record is whole lines. */
#include "fuzz.h"

/* A strict JSON validator over [p, end): returns the position after one
 * value, or NULL.  Depth is bounded: report_json nests three deep. */
static const unsigned char *json_value(const unsigned char *p, const unsigned char *end, int depth);

static const unsigned char *json_ws(const unsigned char *p, const unsigned char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

static bool hex4(const unsigned char *p, const unsigned char *end, unsigned *v)
{
    *v = 0;
    if (end - p < 4)
        return false;
    for (int i = 0; i < 4; i++) {
        unsigned c = p[i], d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return false;
        *v = *v * 16 + d;
    }
    return true;
}

static const unsigned char *json_string(const unsigned char *p, const unsigned char *end)
{
    if (p >= end || *p != '"')
        return NULL;
    p++;
    while (p < end) {
        unsigned c = *p;
        if (c == '"')
            return p + 1;
        if (c < 0x20)
            return NULL;
        if (c == '\\') {
            if (++p >= end)
                return NULL;
            if (*p == 'u') {
                unsigned v;
                if (!hex4(p + 1, end, &v))
                    return NULL;
                p += 5;
                if (v >= 0xD800 && v <= 0xDBFF) {
                    unsigned w;
                    if (end - p < 6 || p[0] != '\\' || p[1] != 'u' || !hex4(p + 2, end, &w) || w < 0xDC00 || w > 0xDFFF)
                        return NULL;
                    p += 6;
                } else if (v >= 0xDC00 && v <= 0xDFFF) {
                    return NULL;
                }
                continue;
            }
            if (!strchr("\"\\/bfnrt", *p) || *p == 0)
                return NULL;
            p++;
            continue;
        }
        if (c < 0x80) {
            p++;
            continue;
        }
        /* UTF-8 (RFC 3629): no overlongs, no surrogates, at most U+10FFFF. */
        size_t len;
        unsigned cp;
        if (c >= 0xC2 && c <= 0xDF) { len = 2; cp = c & 0x1F; }
        else if (c >= 0xE0 && c <= 0xEF) { len = 3; cp = c & 0x0F; }
        else if (c >= 0xF0 && c <= 0xF4) { len = 4; cp = c & 0x07; }
        else return NULL;
        if ((size_t)(end - p) < len)
            return NULL;
        for (size_t i = 1; i < len; i++) {
            if ((p[i] & 0xC0) != 0x80)
                return NULL;
            cp = cp << 6 | (p[i] & 0x3F);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
            return NULL;
        p += len;
    }
    return NULL;
}

static const unsigned char *json_number(const unsigned char *p, const unsigned char *end)
{
    if (p < end && *p == '-')
        p++;
    if (p >= end || *p < '0' || *p > '9')
        return NULL;
    if (*p == '0')
        p++;
    else
        while (p < end && *p >= '0' && *p <= '9')
            p++;
    if (p < end && *p == '.') {
        p++;
        if (p >= end || *p < '0' || *p > '9')
            return NULL;
        while (p < end && *p >= '0' && *p <= '9')
            p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        if (p >= end || *p < '0' || *p > '9')
            return NULL;
        while (p < end && *p >= '0' && *p <= '9')
            p++;
    }
    return p;
}

static const unsigned char *json_lit(const unsigned char *p, const unsigned char *end, const char *lit)
{
    size_t n = strlen(lit);
    return (size_t)(end - p) >= n && memcmp(p, lit, n) == 0 ? p + n : NULL;
}

static const unsigned char *json_value(const unsigned char *p, const unsigned char *end, int depth)
{
    if (depth > 8)
        return NULL;
    p = json_ws(p, end);
    if (p >= end)
        return NULL;
    switch (*p) {
    case '"': return json_string(p, end);
    case 't': return json_lit(p, end, "true");
    case 'f': return json_lit(p, end, "false");
    case 'n': return json_lit(p, end, "null");
    case '{':
    case '[': {
        unsigned char close = *p == '{' ? '}' : ']';
        bool object = *p == '{';
        p = json_ws(p + 1, end);
        if (p < end && *p == close)
            return p + 1;
        for (;;) {
            if (object) {
                p = json_string(json_ws(p, end), end);
                if (!p)
                    return NULL;
                p = json_ws(p, end);
                if (p >= end || *p != ':')
                    return NULL;
                p++;
            }
            p = json_value(p, end, depth + 1);
            if (!p)
                return NULL;
            p = json_ws(p, end);
            if (p < end && *p == ',') {
                p++;
                continue;
            }
            return p < end && *p == close ? p + 1 : NULL;
        }
    }
    default: return json_number(p, end);
    }
}

typedef struct {
    strbuf_t json, text, check;
    report_counts_t counts;
    const char *file;
} jsonlog_t;

static void one_line(const strbuf_t *b, size_t from, const char *what)
{
    const char *s = b->data + from;
    size_t n = b->len - from;
    FUZZ_CHECK(n > 0 && s[n - 1] == '\n', "%s record does not end its line", what);
    FUZZ_CHECK(memchr(s, '\n', n - 1) == NULL && memchr(s, '\r', n) == NULL, "%s record of more than one line: %.*s",
               what, (int)(n > 300 ? 300 : n), s);
}

static void each_game(const arb_game *g, void *ctx)
{
    jsonlog_t *l = ctx;
    strbuf_t dump = { 0 };
    fuzz_dump_game(&dump, g, UINT64_MAX);
    strbuf_free(&dump);

    size_t at = l->json.len;
    report_json(&l->json, g, l->file);
    FUZZ_CHECK(!l->json.oom, "out of memory");
    one_line(&l->json, at, "JSON");
    const unsigned char *s = (const unsigned char *)l->json.data + at, *end = (const unsigned char *)l->json.data + l->json.len - 1;
    FUZZ_CHECK(*s == '{', "JSON record is not an object");
    const unsigned char *after = json_value(s, end, 0);
    FUZZ_CHECK(after == end, "invalid JSON (at byte %d): %.*s", after ? (int)(after - s) : -1,
               (int)(end - s > 2000 ? 2000 : end - s), (const char *)s);
    l->json.len = 0;

    at = l->text.len;
    report_text(&l->text, g, l->file);
    one_line(&l->text, at, "text");
    size_t tabs = 0;
    for (size_t i = at; i < l->text.len; i++)
        tabs += l->text.data[i] == '\t';
    FUZZ_CHECK(tabs == 8, "text record of %zu fields", tabs + 1);
    l->text.len = 0;

    at = l->check.len;
    report_counts_t before = l->counts;
    report_check(&l->check, g, l->file, g->number & 1, &l->counts);
    size_t lines = 0;
    for (size_t i = at; i < l->check.len; i++)
        lines += l->check.data[i] == '\n';
    FUZZ_CHECK(at == l->check.len || l->check.data[l->check.len - 1] == '\n', "check output not in whole lines");
    FUZZ_CHECK(lines == (l->counts.errors - before.errors) + (l->counts.warnings - before.warnings),
               "%zu check lines for %llu problems", lines,
               (l->counts.errors - before.errors) + (l->counts.warnings - before.warnings));
    FUZZ_CHECK((g->status == ARB_OK) || l->counts.errors + l->counts.warnings > before.errors + before.warnings,
               "an unreadable game without a problem reported");
    l->check.len = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t seed = fuzz_hash(data, size);
    arb_options opt = { .allow_null_moves = seed & 2, .policy = seed & 4 ? ARB_RULES_CLAIM : ARB_RULES_FIDE };
    jsonlog_t l = { .file = seed & 8 ? "-" : "d\xc3\xa9j\xe0 \"vu\"\\\t\n.pgn" };
    fuzz_read(data, size, &opt, &seed, each_game, &l);
    strbuf_free(&l.json);
    strbuf_free(&l.text);
    strbuf_free(&l.check);
    return 0;
}
