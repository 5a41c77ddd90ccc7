/* baseline.c: reading, matching and writing the baseline (baseline.h). */
#include "baseline.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct entry {
    uint64_t id;
    report_rule_t rule;
    uint64_t line;         /* in the baseline, 1.. */
    bool used;
    uint64_t game;         /* as written, for the stale list; 0 if none */
    char *file, *white, *black; /* as written, "" if none */
} entry_t;

typedef struct key {
    uint64_t id;
    report_rule_t rule;
    size_t at; /* index in baseline.e: in the file's order */
} key_t;

struct baseline {
    char *path;
    entry_t *e;
    size_t n, cap;
    key_t *order;  /* the entries sorted by (id, rule, line) */
    strbuf_t inputs; /* the inputs of this run as entries name them, each NUL-terminated */
};

/* ---- one line: a JSON object of strings and numbers ---- */

typedef struct cursor {
    const char *p, *end;
    char *err;
    size_t errcap;
} cursor_t;

static bool fail(cursor_t *c, const char *what)
{
    snprintf(c->err, c->errcap, "%s", what);
    return false;
}

static void blank(cursor_t *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
        c->p++;
}

static void put_utf8(strbuf_t *b, uint32_t cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) { u[0] = (char)cp; n = 1; }
    else if (cp < 0x800) { u[0] = (char)(0xC0 | cp >> 6); u[1] = (char)(0x80 | (cp & 63)); n = 2; }
    else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | cp >> 12); u[1] = (char)(0x80 | (cp >> 6 & 63)); u[2] = (char)(0x80 | (cp & 63)); n = 3;
    } else {
        u[0] = (char)(0xF0 | cp >> 18); u[1] = (char)(0x80 | (cp >> 12 & 63));
        u[2] = (char)(0x80 | (cp >> 6 & 63)); u[3] = (char)(0x80 | (cp & 63)); n = 4;
    }
    strbuf_append(b, u, n);
}

static bool hex4(cursor_t *c, uint32_t *v)
{
    *v = 0;
    if (c->end - c->p < 4)
        return false;
    for (int i = 0; i < 4; i++) {
        char h = *c->p++;
        int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
        if (d < 0)
            return false;
        *v = *v << 4 | (uint32_t)d;
    }
    return true;
}

/* A JSON string at c->p into out (NUL-terminated). */
static bool string(cursor_t *c, strbuf_t *out)
{
    if (c->p >= c->end || *c->p != '"')
        return fail(c, "a string was expected");
    c->p++;
    while (c->p < c->end && *c->p != '"') {
        unsigned char ch = (unsigned char)*c->p;
        if (ch < 0x20)
            return fail(c, "a control character in a string");
        if (ch != '\\') {
            strbuf_append(out, c->p++, 1);
            continue;
        }
        if (++c->p >= c->end)
            break;
        char e = *c->p++;
        const char *simple = strchr("\"\\/bfnrt", e);
        if (e && simple) {
            static const char to[] = "\"\\/\b\f\n\r\t";
            strbuf_append(out, &to[simple - "\"\\/bfnrt"], 1);
            continue;
        }
        uint32_t cp, lo;
        if (e != 'u' || !hex4(c, &cp))
            return fail(c, "a bad escape in a string");
        if (cp >= 0xD800 && cp < 0xDC00) {
            if (c->end - c->p < 2 || c->p[0] != '\\' || c->p[1] != 'u')
                return fail(c, "a lone surrogate in a string");
            c->p += 2;
            if (!hex4(c, &lo) || lo < 0xDC00 || lo > 0xDFFF)
                return fail(c, "a lone surrogate in a string");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else if (cp >= 0xDC00 && cp < 0xE000) {
            return fail(c, "a lone surrogate in a string");
        }
        put_utf8(out, cp);
    }
    if (c->p >= c->end)
        return fail(c, "a string is not closed");
    c->p++;
    strbuf_append(out, "", 1);
    return !out->oom || fail(c, "out of memory");
}

/* A JSON value other than a string, object or array: a number, true,
 * false or null; *num gets a non-negative integer's value (else -1). */
static bool scalar(cursor_t *c, int64_t *num)
{
    *num = -1;
    static const char *const words[] = { "true", "false", "null" };
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(words[i]);
        if ((size_t)(c->end - c->p) >= n && memcmp(c->p, words[i], n) == 0) {
            c->p += n;
            return true;
        }
    }
    const char *s = c->p;
    if (c->p < c->end && *c->p == '-')
        c->p++;
    if (c->p >= c->end || *c->p < '0' || *c->p > '9')
        return fail(c, "a value was expected");
    uint64_t v = 0;
    bool big = false;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
        big = big || v > (UINT64_MAX >> 4);
        v = v * 10 + (uint64_t)(*c->p++ - '0');
    }
    bool integer = *s != '-' && !big;
    if (c->p < c->end && *c->p == '.') {
        integer = false;
        for (c->p++; c->p < c->end && *c->p >= '0' && *c->p <= '9'; c->p++) {}
    }
    if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
        integer = false;
        c->p++;
        if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
            c->p++;
        for (; c->p < c->end && *c->p >= '0' && *c->p <= '9'; c->p++) {}
    }
    if (integer)
        *num = (int64_t)v;
    return true;
}

/* "v1:" and sixteen lowercase hexadecimal digits. */
static bool parse_id(const char *s, uint64_t *id)
{
    if (strncmp(s, "v1:", 3) != 0 || strlen(s) != 19)
        return false;
    uint64_t v = 0;
    for (int i = 3; i < 19; i++) {
        char h = s[i];
        int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : -1;
        if (d < 0)
            return false;
        v = v << 4 | (uint64_t)d;
    }
    *id = v;
    return true;
}

static bool rule_named(const char *s, report_rule_t *rule)
{
    for (int r = 0; r < REPORT_RULE_COUNT; r++)
        if (strcmp(report_rule_info((report_rule_t)r)->id, s) == 0) {
            *rule = (report_rule_t)r;
            return true;
        }
    return false;
}

/* One line into *e (strings malloc'd); false with why in c->err. */
static bool parse_entry(cursor_t *c, entry_t *e)
{
    strbuf_t key = { 0 }, val = { 0 };
    bool ok = false, has_id = false, has_rule = false;
    blank(c);
    if (c->p >= c->end || *c->p++ != '{') {
        fail(c, "not a JSON object");
        goto out;
    }
    blank(c);
    bool first = true;
    while (c->p < c->end && *c->p != '}') {
        if (!first) {
            if (*c->p++ != ',') {
                fail(c, "',' or '}' was expected");
                goto out;
            }
            blank(c);
        }
        first = false;
        strbuf_clear(&key);
        if (!string(c, &key))
            goto out;
        blank(c);
        if (c->p >= c->end || *c->p++ != ':') {
            fail(c, "':' was expected");
            goto out;
        }
        blank(c);
        strbuf_clear(&val);
        int64_t num = -1;
        bool is_string = c->p < c->end && *c->p == '"';
        if (is_string ? !string(c, &val) : !scalar(c, &num))
            goto out;
        blank(c);
        const char *k = key.data, *v = is_string ? val.data : NULL;
        char **field = NULL;
        if (strcmp(k, "id") == 0) {
            if (!v || !parse_id(v, &e->id)) {
                fail(c, "\"id\" is not a game id (\"v1:\" and sixteen hexadecimal digits)");
                goto out;
            }
            has_id = true;
        } else if (strcmp(k, "rule") == 0) {
            if (!v || !rule_named(v, &e->rule)) {
                fail(c, "\"rule\" is not a rule of --check");
                goto out;
            }
            has_rule = true;
        } else if (strcmp(k, "game") == 0) {
            e->game = num > 0 ? (uint64_t)num : 0;
        } else if (strcmp(k, "file") == 0) {
            field = &e->file;
        } else if (strcmp(k, "white") == 0) {
            field = &e->white;
        } else if (strcmp(k, "black") == 0) {
            field = &e->black;
        }
        if (field && v) {
            free(*field);
            if (!(*field = strdup(v))) {
                fail(c, "out of memory");
                goto out;
            }
        }
    }
    if (c->p >= c->end) {
        fail(c, "the object is not closed");
        goto out;
    }
    c->p++;
    blank(c);
    if (c->p < c->end)
        fail(c, "text after the object");
    else if (!has_id || !has_rule)
        fail(c, has_id ? "no \"rule\"" : "no \"id\"");
    else
        ok = true;
out:
    strbuf_free(&key);
    strbuf_free(&val);
    return ok;
}

bool baseline_parse_line(const char *line, size_t len, uint64_t *id, report_rule_t *rule, char *err, size_t errcap)
{
    cursor_t c = { line, line + len, err, errcap };
    entry_t e = { 0 };
    bool ok = parse_entry(&c, &e);
    free(e.file);
    free(e.white);
    free(e.black);
    if (ok) {
        *id = e.id;
        *rule = e.rule;
    }
    return ok;
}

/* ---- the file ---- */

static int by_key(const void *a, const void *b)
{
    const key_t *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    if (x->rule != y->rule)
        return x->rule < y->rule ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

void baseline_free(baseline_t *bl)
{
    if (!bl)
        return;
    for (size_t i = 0; i < bl->n; i++) {
        free(bl->e[i].file);
        free(bl->e[i].white);
        free(bl->e[i].black);
    }
    free(bl->e);
    free(bl->order);
    strbuf_free(&bl->inputs);
    free(bl->path);
    free(bl);
}

baseline_t *baseline_load(const char *path, char *err, size_t errcap)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errcap, "%s: %s", path, strerror(errno));
        return NULL;
    }
    baseline_t *bl = calloc(1, sizeof *bl);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    uint64_t lineno = 0;
    bool ok = bl && (bl->path = strdup(path));
    if (!ok)
        snprintf(err, errcap, "%s: out of memory", path);
    while (ok && (n = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            n--;
        size_t k = 0;
        while (k < (size_t)n && (line[k] == ' ' || line[k] == '\t'))
            k++;
        if (k == (size_t)n)
            continue; /* a blank line */
        if (bl->n == bl->cap) {
            size_t c2 = bl->cap ? 2 * bl->cap : 64;
            entry_t *e = realloc(bl->e, c2 * sizeof *e);
            if (!e) {
                snprintf(err, errcap, "%s: out of memory", path);
                ok = false;
                break;
            }
            bl->e = e;
            bl->cap = c2;
        }
        entry_t *e = &bl->e[bl->n];
        *e = (entry_t){ .line = lineno };
        char why[160];
        cursor_t c = { line, line + n, why, sizeof why };
        ok = parse_entry(&c, e);
        bl->n++;
        if (!ok)
            snprintf(err, errcap, "%s:%" PRIu64 ": not a baseline entry: %s", path, lineno, why);
    }
    if (ok && ferror(f)) {
        snprintf(err, errcap, "%s: %s", path, strerror(errno));
        ok = false;
    }
    fclose(f);
    free(line);
    if (ok && bl->n && !(bl->order = malloc(bl->n * sizeof *bl->order))) {
        snprintf(err, errcap, "%s: out of memory", path);
        ok = false;
    }
    if (!ok) {
        baseline_free(bl);
        return NULL;
    }
    for (size_t i = 0; i < bl->n; i++)
        bl->order[i] = (key_t){ bl->e[i].id, bl->e[i].rule, i };
    if (bl->n)
        qsort(bl->order, bl->n, sizeof *bl->order, by_key);
    return bl;
}

const char *baseline_path(const baseline_t *bl)
{
    return bl->path;
}

bool baseline_take(baseline_t *bl, uint64_t id, report_rule_t rule)
{
    size_t lo = 0, hi = bl->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const key_t *e = &bl->order[mid];
        if (e->id < id || (e->id == id && e->rule < rule))
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < bl->n; lo++) {
        const key_t *k = &bl->order[lo];
        entry_t *e = &bl->e[k->at];
        if (k->id != id || k->rule != rule)
            break;
        if (!e->used) {
            e->used = true;
            return true;
        }
    }
    return false;
}

/* ---- writing ---- */

static void json_member(strbuf_t *b, const char *key, const char *value)
{
    strbuf_puts(b, ",\"");
    strbuf_puts(b, key);
    strbuf_puts(b, "\":");
    report_json_string(b, value, strlen(value));
}

void baseline_entry(strbuf_t *b, const char *name, const arb_game *g, const report_problem_t *p)
{
    char id[ARB_ID_TEXT], num[32];
    arb_game_id_text(g, id);
    strbuf_puts(b, "{\"id\":\"");
    strbuf_puts(b, id);
    strbuf_puts(b, "\",\"rule\":\"");
    strbuf_puts(b, report_rule_info(p->rule)->id);
    strbuf_puts(b, "\"");
    strbuf_t path = { 0 };
    format_path(&path, name, false);
    strbuf_append(&path, "", 1);
    json_member(b, "file", path.oom ? name : path.data);
    strbuf_free(&path);
    snprintf(num, sizeof num, ",\"game\":%" PRIu64, g->number);
    strbuf_puts(b, num);
    const char *white = report_tag(g, "White"), *black = report_tag(g, "Black");
    json_member(b, "white", white ? white : "?");
    json_member(b, "black", black ? black : "?");
    json_member(b, "message", p->message);
    strbuf_puts(b, "}\n");
}

/* ---- the stale entries ---- */

static const char *or_q(const char *s)
{
    return s && *s ? s : "?";
}

static void stale_one(const baseline_t *bl, const entry_t *e, cli_format_t f, bool strict, strbuf_t *b)
{
    const char *rule = report_rule_info(e->rule)->id;
    char msg[512], title[400], num[160];
    snprintf(title, sizeof title, "game %" PRIu64 " (%s v %s)", e->game, or_q(e->white), or_q(e->black));
    char id[ARB_ID_TEXT];
    arb_id_text(e->id, id);
    snprintf(msg, sizeof msg, "stale baseline entry: the %s problem of game %s in %s no longer occurs; remove the entry",
             rule, id, or_q(e->file));
    const char *level = strict ? "error" : "warning";
    strbuf_t path = { 0 };
    format_path(&path, bl->path, f == CLI_FORMAT_SARIF);
    strbuf_append(&path, "", 1);
    const char *where = path.oom ? bl->path : path.data;
    switch (f) {
    case CLI_FORMAT_GNU:
        snprintf(num, sizeof num, ":%" PRIu64 ":1: %s: ", e->line, level);
        strbuf_puts(b, where);
        strbuf_puts(b, num);
        strbuf_puts(b, title);
        strbuf_puts(b, ": ");
        strbuf_puts(b, msg);
        strbuf_puts(b, "\n");
        break;
    case CLI_FORMAT_GITHUB:
        strbuf_puts(b, strict ? "::error file=" : "::warning file=");
        format_github_escape(b, where, true);
        snprintf(num, sizeof num, ",line=%" PRIu64 ",col=1,title=", e->line);
        strbuf_puts(b, num);
        format_github_escape(b, title, true);
        strbuf_puts(b, "::");
        format_github_escape(b, msg, false);
        strbuf_puts(b, " [baseline-stale]\n");
        break;
    case CLI_FORMAT_SARIF:
        /* The result the baseline held, absent from this run. */
        snprintf(num, sizeof num, "        {\"ruleId\":\"%s\",\"ruleIndex\":%d,\"level\":\"%s\",\"message\":{\"text\":",
                 rule, (int)e->rule, level);
        strbuf_puts(b, num);
        strbuf_t text = { 0 };
        strbuf_puts(&text, title);
        strbuf_puts(&text, ": ");
        strbuf_puts(&text, msg);
        strbuf_append(&text, "", 1);
        report_json_string(b, text.oom ? "" : text.data, text.oom ? 0 : text.len - 1);
        strbuf_free(&text);
        strbuf_puts(b, "},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":");
        report_json_string(b, where, strlen(where));
        snprintf(num, sizeof num, "},\"region\":{\"startLine\":%" PRIu64 ",\"startColumn\":1}}}],", e->line);
        strbuf_puts(b, num);
        strbuf_puts(b, "\"partialFingerprints\":{\"gameId/v1\":\"");
        strbuf_puts(b, id);
        strbuf_puts(b, "\",\"ruleId/v1\":\"");
        strbuf_puts(b, rule);
        snprintf(num, sizeof num, "\"},\"baselineState\":\"absent\",\"properties\":{\"game\":%" PRIu64 "}}\n",
                 e->game);
        strbuf_puts(b, num);
        break;
    case CLI_FORMAT_JUNIT:
        strbuf_puts(b, "    <testcase classname=\"");
        format_xml_escape(b, where, strlen(where));
        snprintf(num, sizeof num, "\" name=\"entry %" PRIu64 ": ", e->line);
        strbuf_puts(b, num);
        format_xml_escape(b, title, strlen(title));
        strbuf_puts(b, "\">\n");
        snprintf(num, sizeof num, ":%" PRIu64 ":1: %s: ", e->line, level);
        strbuf_puts(b, strict ? "      <failure type=\"baseline-stale\" message=\"" : "      <system-out>");
        if (strict) {
            format_xml_escape(b, msg, strlen(msg));
            strbuf_puts(b, "\">");
        }
        format_xml_escape(b, where, strlen(where));
        strbuf_puts(b, num);
        format_xml_escape(b, msg, strlen(msg));
        strbuf_puts(b, " [baseline-stale]");
        strbuf_puts(b, strict ? "</failure>\n" : "</system-out>\n");
        strbuf_puts(b, "    </testcase>\n");
        break;
    }
    b->oom = b->oom || path.oom;
    strbuf_free(&path);
}

void baseline_input(baseline_t *bl, const char *name)
{
    format_path(&bl->inputs, name, false);
    strbuf_append(&bl->inputs, "", 1);
}

/* Can entry e be stale: was its file read, or is it gone?  (A file not
 * read, as when a hook checks only the files of a commit, says nothing of
 * its games.) */
static bool in_question(const baseline_t *bl, const entry_t *e)
{
    if (!e->file || !*e->file || access(e->file, F_OK) != 0)
        return true;
    for (size_t at = 0; at < bl->inputs.len; at += strlen(bl->inputs.data + at) + 1)
        if (strcmp(bl->inputs.data + at, e->file) == 0)
            return true;
    return false;
}

size_t baseline_stale(const baseline_t *bl, cli_format_t f, bool strict, strbuf_t *b, report_counts_t *counts)
{
    size_t n = 0;
    for (size_t i = 0; i < bl->n; i++) {
        if (bl->e[i].used || !in_question(bl, &bl->e[i]))
            continue;
        stale_one(bl, &bl->e[i], f, strict, b);
        n++;
        if (strict)
            counts->errors++;
        else
            counts->warnings++;
    }
    return n;
}
