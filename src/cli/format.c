/* format.c: the --check problems as gnu lines, GitHub workflow commands,
 * a SARIF 2.1.0 log or JUnit XML (format.h).
 *
 * The held file of the document formats is made of lines: a line that
 * starts with a space is the document's own text, written as it is (a
 * SARIF result, a JUnit test case), "F" + name starts an input, and
 * "E" + "OK GAMES ERRORS WARNINGS MESSAGE" ends it.  Names and messages
 * there have % CR LF written as %25 %0D %0A, so a line is always one line. */
#define _XOPEN_SOURCE 700 /* getcwd */
#include "format.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const format_names[] = { "gnu", "github", "sarif", "junit" };

int format_parse(const char *name)
{
    for (int i = 0; i < (int)(sizeof format_names / sizeof format_names[0]); i++)
        if (strcmp(name, format_names[i]) == 0)
            return i;
    return -1;
}

bool format_is_document(cli_format_t f)
{
    return f == CLI_FORMAT_SARIF || f == CLI_FORMAT_JUNIT;
}

/* ---- escapers ---- */

void format_github_escape(strbuf_t *b, const char *s, bool property)
{
    for (; *s; s++) {
        switch (*s) {
        case '%': strbuf_puts(b, "%25"); break;
        case '\r': strbuf_puts(b, "%0D"); break;
        case '\n': strbuf_puts(b, "%0A"); break;
        case ':':
            if (property)
                strbuf_puts(b, "%3A");
            else
                strbuf_append(b, s, 1);
            break;
        case ',':
            if (property)
                strbuf_puts(b, "%2C");
            else
                strbuf_append(b, s, 1);
            break;
        default: strbuf_put_text(b, s, 1);
        }
    }
}

/* Length of the UTF-8 sequence at s (at most n bytes) that XML 1.0 allows
 * as a character, 0 if there is none there. */
static size_t xml_char(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    uint32_t cp;
    if (c < 0x80)
        return c >= 0x20 || c == '\t' || c == '\n' || c == '\r';
    if (c >= 0xC2 && c <= 0xDF) { len = 2; cp = c & 0x1Fu; }
    else if (c >= 0xE0 && c <= 0xEF) { len = 3; cp = c & 0x0Fu; }
    else if (c >= 0xF0 && c <= 0xF4) { len = 4; cp = c & 0x07u; }
    else return 0;
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3Fu);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)
        return 0;
    return len;
}

void format_xml_escape(strbuf_t *b, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t k = xml_char(u + i, n - i);
        if (!k) {
            strbuf_puts(b, "\xEF\xBF\xBD");
            i++;
            continue;
        }
        switch (u[i]) {
        case '&': strbuf_puts(b, "&amp;"); break;
        case '<': strbuf_puts(b, "&lt;"); break;
        case '>': strbuf_puts(b, "&gt;"); break;
        case '"': strbuf_puts(b, "&quot;"); break;
        case '\'': strbuf_puts(b, "&apos;"); break;
        case '\t': strbuf_puts(b, "&#9;"); break;
        case '\n': strbuf_puts(b, "&#10;"); break;
        case '\r': strbuf_puts(b, "&#13;"); break;
        default: strbuf_append(b, s + i, k);
        }
        i += k;
    }
}

static void xml_puts(strbuf_t *b, const char *s)
{
    format_xml_escape(b, s, strlen(s));
}

/* Appends s as the inside of a JSON string (report_json_string() without
 * the quotes). */
static void json_inner(strbuf_t *b, const char *s)
{
    size_t n = strlen(s);
    /* The quoted string goes at the end of b; its quotes are then taken out. */
    size_t at = b->len;
    report_json_string(b, s, n);
    if (b->oom || b->len < at + 2)
        return;
    memmove(b->data + at, b->data + at + 1, b->len - at - 2);
    b->len -= 2;
}

/* May byte c stand as it is in a URI reference's path? */
static bool uri_plain(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c && strchr("-._~/!$&'()*+,;=:@", c) != NULL);
}

static void path_part(strbuf_t *b, const char *s, bool uri)
{
    static const char hex[] = "0123456789ABCDEF";
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (!uri || uri_plain(c)) {
            strbuf_append(b, s, 1);
        } else {
            char esc[3] = { '%', hex[c >> 4], hex[c & 15] };
            strbuf_append(b, esc, 3);
        }
    }
}

/* A relative path as a URI reference: one whose first segment holds a
 * ':' ("c:x.pgn") would read as a scheme (RFC 3986, 4.2), so it goes
 * after "./". */
static void relative_part(strbuf_t *b, const char *s, bool uri)
{
    if (uri && strcspn(s, "/") > strcspn(s, ":"))
        strbuf_puts(b, "./");
    path_part(b, s, uri);
}

void format_path(strbuf_t *b, const char *path, bool uri)
{
    while (path[0] == '.' && path[1] == '/') {
        path += 2;
        while (*path == '/')
            path++;
    }
    if (path[0] == '/') {
        char *cwd = getcwd(NULL, 0);
        size_t n = cwd ? strlen(cwd) : 0;
        if (cwd && n > 1 && strncmp(path, cwd, n) == 0 && path[n] == '/' && path[n + 1]) {
            relative_part(b, path + n + 1, uri);
            free(cwd);
            return;
        }
        free(cwd);
        if (uri)
            strbuf_puts(b, "file://");
        path_part(b, path, uri);
        return;
    }
    relative_part(b, path, uri);
}

/* ---- one game ---- */

/* A player's name as the gnu lines give it: "?" if the tag is missing,
 * "-" if it is empty. */
static const char *player(const arb_game *g, const char *tag)
{
    const char *v = report_tag(g, tag);
    return !v ? "?" : *v ? v : "-";
}

typedef struct sink {
    strbuf_t *b;
    cli_format_t f;
    bool color;
    const char *name;
    report_counts_t *counts;
    const format_options_t *opt;
    format_verdict_t v;  /* what became of the problem being written */
    strbuf_t fail, warn; /* junit: the failures and warnings of the game */
    strbuf_t skip;       /* junit: its accepted problems */
} sink_t;

/* " (accepted by its ArbiterAccept tag: WHY)" or " (accepted by the
 * baseline)", after an accepted problem's message. */
static void accepted_note(strbuf_t *b, const format_verdict_t *v, void (*put)(strbuf_t *, const char *))
{
    strbuf_puts(b, v->accepted == FORMAT_IN_SOURCE ? " (accepted by its ArbiterAccept tag" : " (accepted by the baseline");
    if (v->why[0]) {
        strbuf_puts(b, ": ");
        put(b, v->why);
    }
    strbuf_puts(b, ")");
}

static void github_message(strbuf_t *b, const char *s)
{
    format_github_escape(b, s, false);
}

static void github_problem(sink_t *s, const arb_game *g, const report_problem_t *p)
{
    strbuf_t *b = s->b;
    char num[64];
    strbuf_puts(b, s->v.accepted ? "::notice file=" : p->error ? "::error file=" : "::warning file=");
    strbuf_t path = { 0 };
    format_path(&path, s->name, false);
    strbuf_append(&path, "", 1);
    format_github_escape(b, path.oom ? s->name : path.data, true);
    strbuf_free(&path);
    snprintf(num, sizeof num, ",line=%" PRIu64 ",col=%" PRIu32 ",title=game ", p->line, p->col);
    strbuf_puts(b, num);
    report_game_number(b, g->number);
    strbuf_puts(b, " (");
    format_github_escape(b, player(g, "White"), true);
    strbuf_puts(b, " v ");
    format_github_escape(b, player(g, "Black"), true);
    strbuf_puts(b, ")::");
    format_github_escape(b, p->message, false);
    strbuf_puts(b, " [");
    strbuf_puts(b, report_rule_info(p->rule)->id);
    strbuf_puts(b, "]");
    if (s->v.accepted)
        accepted_note(b, &s->v, github_message);
    strbuf_puts(b, "\n");
}

/* An accepted problem as a gnu line: "note" for its level, why after it. */
static void gnu_accepted(sink_t *s, const arb_game *g, const report_problem_t *p)
{
    strbuf_t line = { 0 };
    report_problem_line(&line, s->name, g, p, false);
    const char *level = p->error ? ": error: " : ": warning: ";
    size_t skip = strlen(s->name), n = strlen(level);
    for (size_t i = skip < line.len ? skip : 0; !line.oom && i + n <= line.len; i++) {
        if (memcmp(line.data + i, level, n) == 0) {
            strbuf_append(s->b, line.data, i);
            strbuf_puts(s->b, ": note: ");
            size_t rest = i + n;
            strbuf_append(s->b, line.data + rest, line.len - rest - 1); /* without its line end */
            strbuf_puts(s->b, " [");
            strbuf_puts(s->b, report_rule_info(p->rule)->id);
            strbuf_puts(s->b, "]");
            accepted_note(s->b, &s->v, strbuf_puts);
            strbuf_puts(s->b, "\n");
            break;
        }
    }
    s->b->oom = s->b->oom || line.oom;
    strbuf_free(&line);
}

/* A SARIF result's fingerprints (the game id and the rule), its
 * baselineState with a baseline, and its suppression if accepted; each
 * member followed by a comma. */
static void sarif_acceptance(sink_t *s, const arb_game *g, const report_problem_t *p)
{
    strbuf_t *b = s->b;
    char id[ARB_ID_TEXT];
    arb_game_id_text(g, id);
    strbuf_puts(b, "\"partialFingerprints\":{\"gameId/v1\":\"");
    strbuf_puts(b, id);
    strbuf_puts(b, "\",\"ruleId/v1\":\"");
    strbuf_puts(b, report_rule_info(p->rule)->id);
    strbuf_puts(b, "\"},");
    if (s->opt && s->opt->baseline)
        strbuf_puts(b, s->v.accepted == FORMAT_EXTERNAL ? "\"baselineState\":\"unchanged\","
                                                        : "\"baselineState\":\"new\",");
    if (s->v.accepted) {
        strbuf_puts(b, s->v.accepted == FORMAT_IN_SOURCE ? "\"suppressions\":[{\"kind\":\"inSource\""
                                                         : "\"suppressions\":[{\"kind\":\"external\"");
        strbuf_puts(b, ",\"status\":\"accepted\"");
        if (s->v.why[0]) {
            strbuf_puts(b, ",\"justification\":\"");
            json_inner(b, s->v.why);
            strbuf_puts(b, "\"");
        }
        strbuf_puts(b, "}],");
    }
}

static void sarif_problem(sink_t *s, const arb_game *g, const report_problem_t *p)
{
    strbuf_t *b = s->b;
    char num[96];
    strbuf_puts(b, "        {\"ruleId\":\"");
    strbuf_puts(b, report_rule_info(p->rule)->id); /* plain words and hyphens */
    snprintf(num, sizeof num, "\",\"ruleIndex\":%d,\"level\":\"%s\",\"message\":{\"text\":\"game ", (int)p->rule,
             p->error ? "error" : "warning");
    strbuf_puts(b, num);
    report_game_number(b, g->number);
    strbuf_puts(b, " (");
    json_inner(b, player(g, "White"));
    strbuf_puts(b, " v ");
    json_inner(b, player(g, "Black"));
    strbuf_puts(b, "): ");
    json_inner(b, p->message);
    strbuf_puts(b, "\"},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"");
    strbuf_t uri = { 0 };
    format_path(&uri, s->name, true);
    strbuf_append(&uri, "", 1);
    json_inner(b, uri.oom ? "" : uri.data);
    strbuf_free(&uri);
    snprintf(num, sizeof num, "\"},\"region\":{\"startLine\":%" PRIu64 ",\"startColumn\":%" PRIu32 "}}}],",
             p->line, p->col);
    strbuf_puts(b, num);
    sarif_acceptance(s, g, p);
    strbuf_puts(b, "\"properties\":{\"game\":");
    report_game_number(b, g->number);
    strbuf_puts(b, "}}\n");
}

/* A junit failure (an error) or a line of the test case's output (a
 * warning): "PATH:LINE:COL: error: MESSAGE", the game being the test case. */
static void junit_problem(sink_t *s, const report_problem_t *p)
{
    char num[64];
    strbuf_t *t = s->v.accepted ? &s->skip : p->error ? &s->fail : &s->warn;
    if (s->v.accepted) {
        if (t->len)
            strbuf_puts(t, "&#10;");
    } else if (p->error) {
        strbuf_puts(t, "      <failure type=\"");
        strbuf_puts(t, report_rule_info(p->rule)->id);
        strbuf_puts(t, "\" message=\"");
        xml_puts(t, p->message);
        strbuf_puts(t, "\">");
    } else if (t->len) {
        strbuf_puts(t, "&#10;");
    }
    strbuf_t path = { 0 };
    format_path(&path, s->name, false);
    strbuf_append(&path, "", 1);
    xml_puts(t, path.oom ? s->name : path.data);
    strbuf_free(&path);
    snprintf(num, sizeof num, ":%" PRIu64 ":%" PRIu32 ": %s: ", p->line, p->col, p->error ? "error" : "warning");
    strbuf_puts(t, num);
    xml_puts(t, p->message);
    strbuf_puts(t, " [");
    strbuf_puts(t, report_rule_info(p->rule)->id);
    strbuf_puts(t, "]");
    if (s->v.accepted)
        accepted_note(t, &s->v, xml_puts);
    else if (p->error)
        strbuf_puts(t, "</failure>\n");
}

static void one_problem(void *ctx, const arb_game *g, const report_problem_t *p)
{
    sink_t *s = ctx;
    s->v = (format_verdict_t){ FORMAT_NOT_ACCEPTED, "" };
    if (s->opt && s->opt->accept)
        s->opt->accept(s->opt->ctx, g, p, &s->v);
    if (s->v.accepted)
        s->counts->accepted++;
    else if (p->error)
        s->counts->errors++;
    else
        s->counts->warnings++;
    bool shown = !s->v.accepted || (s->opt && s->opt->show_accepted);
    switch (s->f) {
    case CLI_FORMAT_GNU:
        if (!s->v.accepted)
            report_problem_line(s->b, s->name, g, p, s->color);
        else if (shown)
            gnu_accepted(s, g, p);
        break;
    case CLI_FORMAT_GITHUB:
        if (shown)
            github_problem(s, g, p);
        break;
    case CLI_FORMAT_SARIF: sarif_problem(s, g, p); break;
    case CLI_FORMAT_JUNIT: junit_problem(s, p); break;
    }
}

void format_game(strbuf_t *b, cli_format_t f, bool strict, bool color, const char *name, const arb_game *g,
                 report_counts_t *counts)
{
    format_options_t opt = { .strict = strict, .color = color };
    format_game_accepting(b, f, &opt, name, g, counts);
}

void format_game_accepting(strbuf_t *b, cli_format_t f, const format_options_t *opt, const char *name,
                           const arb_game *g, report_counts_t *counts)
{
    sink_t s = { .b = b, .f = f, .color = opt->color && f == CLI_FORMAT_GNU, .name = name, .counts = counts,
                 .opt = opt };
    report_problems(g, opt->strict, one_problem, &s);
    if (opt->more)
        opt->more(opt->ctx, g, one_problem, &s);
    if (f != CLI_FORMAT_JUNIT)
        return;
    strbuf_puts(b, "    <testcase classname=\"");
    strbuf_t path = { 0 };
    format_path(&path, name, false);
    strbuf_append(&path, "", 1);
    xml_puts(b, path.oom ? name : path.data);
    strbuf_free(&path);
    strbuf_puts(b, "\" name=\"game ");
    report_game_number(b, g->number);
    strbuf_puts(b, " (");
    xml_puts(b, player(g, "White"));
    strbuf_puts(b, " v ");
    xml_puts(b, player(g, "Black"));
    if (!s.fail.len && !s.warn.len && !s.skip.len) {
        strbuf_puts(b, ")\"/>\n");
        return;
    }
    strbuf_puts(b, ")\">\n");
    if (s.fail.len) {
        strbuf_append(b, s.fail.data, s.fail.len);
    } else if (s.skip.len) {
        /* A game whose every error is accepted is a test skipped, for the reason given. */
        strbuf_puts(b, "      <skipped message=\"");
        strbuf_append(b, s.skip.data, s.skip.len);
        strbuf_puts(b, "\"/>\n");
    }
    if (s.warn.len || (s.fail.len && s.skip.len)) {
        strbuf_puts(b, "      <system-out>");
        strbuf_append(b, s.warn.data, s.warn.len);
        if (s.fail.len && s.skip.len) {
            strbuf_puts(b, s.warn.len ? "&#10;" : "");
            strbuf_append(b, s.skip.data, s.skip.len);
        }
        strbuf_puts(b, "</system-out>\n");
    }
    strbuf_puts(b, "    </testcase>\n");
    b->oom = b->oom || s.fail.oom || s.warn.oom || s.skip.oom;
    strbuf_free(&s.fail);
    strbuf_free(&s.warn);
    strbuf_free(&s.skip);
}

/* ---- the held file ---- */

/* Writes s with % CR LF as %25 %0D %0A. */
static void held_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '%')
            fputs("%25", f);
        else if (*s == '\r')
            fputs("%0D", f);
        else if (*s == '\n')
            fputs("%0A", f);
        else
            putc(*s, f);
    }
}

/* Undoes held_text() in place. */
static void held_untext(char *s)
{
    char *o = s;
    while (*s) {
        if (s[0] == '%' && s[1] && s[2]) {
            *o++ = s[1] == '2' ? '%' : s[2] == 'D' ? '\r' : '\n';
            s += 3;
        } else {
            *o++ = *s++;
        }
    }
    *o = '\0';
}

void format_input_begin(FILE *held, const char *name)
{
    putc('F', held);
    held_text(held, name);
    putc('\n', held);
}

void format_input_end(FILE *held, bool ok, uint64_t games, const report_counts_t *problems, const char *failure)
{
    fprintf(held, "E%d %" PRIu64 " %llu %llu ", ok ? 1 : 0, games, problems->errors, problems->warnings);
    held_text(held, ok || !failure ? "" : failure);
    putc('\n', held);
}

/* One input as its lines in the held file say. */
typedef struct input_end {
    bool ok;
    unsigned long long games, errors, warnings;
    char *failure; /* what went wrong, "" if ok */
} input_end_t;

/* Reads an "E" line (without its "E"); false if it is not one. */
static bool parse_end(char *line, input_end_t *e)
{
    int ok, n = 0;
    if (sscanf(line, "%d %llu %llu %llu %n", &ok, &e->games, &e->errors, &e->warnings, &n) != 4 || n <= 0)
        return false;
    e->ok = ok != 0;
    held_untext(line + n);
    e->failure = line + n;
    return true;
}

static void chomp(char *line, ssize_t *n)
{
    while (*n > 0 && (line[*n - 1] == '\n'))
        line[--*n] = '\0';
}

/* Appends s quoted as a JSON string. */
static void json_puts(strbuf_t *b, const char *s)
{
    report_json_string(b, s, strlen(s));
}

static bool flush(strbuf_t *b, FILE *out)
{
    bool ok = !b->oom && (b->len == 0 || fwrite(b->data, 1, b->len, out) == b->len);
    strbuf_clear(b);
    return ok;
}

static bool sarif_document(FILE *held, FILE *out)
{
    strbuf_t b = { 0 }, notes = { 0 }, name = { 0 };
    bool ok = true, any = false, success = true;
    strbuf_puts(&b, "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
                    "  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n      \"tool\": {\n"
                    "        \"driver\": {\n          \"name\": \"pgn-arbiter\",\n          \"version\": ");
    json_puts(&b, arb_version());
    strbuf_puts(&b, ",\n          \"rules\": [");
    for (int r = 0; r < REPORT_RULE_COUNT; r++) {
        const report_rule_info_t *info = report_rule_info((report_rule_t)r);
        strbuf_puts(&b, r ? ",\n            {\"id\": " : "\n            {\"id\": ");
        json_puts(&b, info->id);
        strbuf_puts(&b, ", \"shortDescription\": {\"text\": ");
        json_puts(&b, info->description);
        strbuf_puts(&b, "}, \"defaultConfiguration\": {\"level\": ");
        strbuf_puts(&b, info->error ? "\"error\"}}" : "\"warning\"}}");
    }
    strbuf_puts(&b, "\n          ]\n        }\n      },\n      \"results\": [");
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    errno = 0;
    while ((n = getline(&line, &cap, held)) > 0) {
        chomp(line, &n);
        if (line[0] == ' ') {
            strbuf_puts(&b, any ? ",\n" : "\n");
            strbuf_append(&b, line, (size_t)n);
            any = true;
        } else if (line[0] == 'F') {
            strbuf_clear(&name);
            held_untext(line + 1);
            format_path(&name, line + 1, true);
            strbuf_append(&name, "", 1);
        } else if (line[0] == 'E') {
            input_end_t e;
            if (parse_end(line + 1, &e) && !e.ok) {
                success = false;
                strbuf_puts(&notes, notes.len ? ",\n" : "\n");
                strbuf_puts(&notes, "            {\"level\": \"error\", \"message\": {\"text\": ");
                json_puts(&notes, *e.failure ? e.failure : "the input could not be read to its end");
                strbuf_puts(&notes, "}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ");
                json_puts(&notes, name.len ? name.data : "");
                strbuf_puts(&notes, "}}}]}");
            }
        }
        if (b.len >= (64u << 10))
            ok = flush(&b, out) && ok;
    }
    ok = ok && !ferror(held);
    strbuf_puts(&b, any ? "\n      ],\n" : "],\n");
    strbuf_puts(&b, "      \"invocations\": [\n        {\n          \"executionSuccessful\": ");
    strbuf_puts(&b, success ? "true" : "false");
    if (notes.len) {
        strbuf_puts(&b, ",\n          \"toolExecutionNotifications\": [");
        strbuf_append(&b, notes.data, notes.len);
        strbuf_puts(&b, "\n          ]");
    }
    strbuf_puts(&b, "\n        }\n      ]\n    }\n  ]\n}\n");
    ok = flush(&b, out) && !notes.oom && !name.oom && ok;
    free(line);
    strbuf_free(&b);
    strbuf_free(&notes);
    strbuf_free(&name);
    return ok;
}

/* The counts of a test suite; skipped only where a case is (accepted problems). */
static void junit_counts(strbuf_t *b, unsigned long long tests, unsigned long long failures,
                         unsigned long long errors, unsigned long long skipped)
{
    char num[160];
    snprintf(num, sizeof num, " tests=\"%llu\" failures=\"%llu\" errors=\"%llu\"", tests, failures, errors);
    strbuf_puts(b, num);
    if (skipped) {
        snprintf(num, sizeof num, " skipped=\"%llu\"", skipped);
        strbuf_puts(b, num);
    }
}

/* Is line a case's <skipped> element, as junit_game() writes it? */
static bool junit_skipped_line(const char *line)
{
    return strncmp(line, "      <skipped ", 15) == 0;
}

static bool junit_document(FILE *held, FILE *out)
{
    /* First the totals of each input, which its testsuite begins with. */
    input_end_t *ends = NULL;
    unsigned long long *skips = NULL; /* the skipped cases of each input */
    size_t nends = 0, cap_ends = 0;
    unsigned long long tests = 0, failures = 0, errors = 0, skipped = 0, skipping = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    bool ok = true;
    while ((n = getline(&line, &cap, held)) > 0) {
        chomp(line, &n);
        input_end_t e;
        skipping += junit_skipped_line(line);
        if (line[0] != 'E' || !parse_end(line + 1, &e))
            continue;
        if (nends == cap_ends) {
            size_t c = cap_ends ? 2 * cap_ends : 16;
            input_end_t *p = realloc(ends, c * sizeof *p);
            unsigned long long *q = p ? realloc(skips, c * sizeof *q) : NULL;
            if (p)
                ends = p;
            if (!q) {
                ok = false;
                break;
            }
            skips = q;
            cap_ends = c;
        }
        skips[nends] = skipping;
        skipped += skipping;
        skipping = 0;
        e.failure = e.ok ? NULL : strdup(*e.failure ? e.failure : "the input could not be read to its end");
        ends[nends++] = e;
        tests += e.games + !e.ok;
        failures += e.errors;
        errors += !e.ok;
    }
    ok = ok && !ferror(held) && fseek(held, 0, SEEK_SET) == 0;

    strbuf_t b = { 0 }, name = { 0 };
    strbuf_puts(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"pgn-arbiter\"");
    junit_counts(&b, tests, failures, errors, skipped);
    strbuf_puts(&b, ">\n");
    size_t i = 0;
    bool open = false;
    while (ok && (n = getline(&line, &cap, held)) > 0) {
        chomp(line, &n);
        if (line[0] == ' ') {
            strbuf_append(&b, line, (size_t)n);
            strbuf_puts(&b, "\n");
        } else if (line[0] == 'F') {
            const input_end_t *e = i < nends ? &ends[i] : NULL;
            strbuf_clear(&name);
            held_untext(line + 1);
            format_path(&name, line + 1, false);
            strbuf_append(&name, "", 1);
            strbuf_puts(&b, "  <testsuite name=\"");
            xml_puts(&b, name.oom ? "" : name.data);
            strbuf_puts(&b, "\"");
            junit_counts(&b, e ? e->games + !e->ok : 0, e ? e->errors : 0, e ? !e->ok : 0, e ? skips[i] : 0);
            strbuf_puts(&b, ">\n");
            open = true;
        } else if (line[0] == 'E' && open) {
            const input_end_t *e = i < nends ? &ends[i] : NULL;
            if (e && !e->ok) {
                strbuf_puts(&b, "    <testcase classname=\"");
                xml_puts(&b, name.oom ? "" : name.data);
                strbuf_puts(&b, "\" name=\"reading the input\">\n      <error message=\"");
                xml_puts(&b, e->failure ? e->failure : "");
                strbuf_puts(&b, "\"/>\n    </testcase>\n");
            }
            strbuf_puts(&b, "  </testsuite>\n");
            open = false;
            i++;
        }
        if (b.len >= (64u << 10))
            ok = flush(&b, out) && ok;
    }
    ok = ok && !ferror(held);
    if (open)
        strbuf_puts(&b, "  </testsuite>\n");
    strbuf_puts(&b, "</testsuites>\n");
    ok = flush(&b, out) && !name.oom && ok;
    for (size_t k = 0; k < nends; k++)
        free(ends[k].failure);
    free(ends);
    free(skips);
    free(line);
    strbuf_free(&b);
    strbuf_free(&name);
    return ok;
}

bool format_document(cli_format_t f, FILE *held, FILE *out)
{
    if (fflush(held) != 0 || fseek(held, 0, SEEK_SET) != 0)
        return false;
    return f == CLI_FORMAT_SARIF ? sarif_document(held, out) : junit_document(held, out);
}
