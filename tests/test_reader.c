/* test_reader.c: unit tests for the streaming game reader, through the
 * public API only (arb_reader_new/feed/finish/next, src/pgnarbiter.h).
 *
 * Every input is read three ways and more: whole, byte by byte, and in
 * random chunk sizes (empty chunks included) with several seeds.  Each
 * chunk is a fresh heap copy freed as soon as arb_reader_next() has
 * returned NULL, as the contract allows, so AddressSanitizer catches a
 * record that still points into an old chunk.  Every record is dumped to
 * text with all its fields and spans; the dumps of all the readings must be
 * identical (chunk invariance), and the tests then look at the records of
 * the whole reading.
 *
 * Expected values come from the PGN standard, the FIDE Laws and the
 * python-chess reading of movetext that the project follows (see
 * tests/data/golden/); each test says why. */

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lex.h"
#include "pgnarbiter.h"
#include "tagtab.h"
#include "testutil.h"

/* Printable ASCII as is, other bytes as \xNN; NULL as (null). */
static void sb_str(sbuf_t *b, const char *s, size_t n)
{
    if (!s) {
        sb_putn(b, "(null)", 6);
        return;
    }
    sb_putn(b, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            sb_putn(b, (const char *)&c, 1);
        else
            sb_printf(b, "\\x%02x", c);
    }
    sb_putn(b, "\"", 1);
}

static void sb_cstr(sbuf_t *b, const char *s)
{
    sb_str(b, s, s ? strlen(s) : 0);
}

/* ---- records, copied out of the reader ---- */

typedef struct {
    arb_game g;          /* scalars and spans; pointers below replace its own */
    char *result, *marker, *adjudicated, *adjudication, *end_move;
    char *first_move[ARB_FACT_COUNT];
    char **tag_name, **tag_value;
    size_t *tag_value_len;
    char *dump;          /* every field as text, for comparisons and messages */
} rec_t;

typedef struct {
    rec_t *v;
    size_t n;
    char *dump;          /* all records' dumps, one after the other */
} recs_t;

static char *dup_or_null(const char *s)
{
    if (!s)
        return NULL;
    char *d = strdup(s);
    CHECK(d != NULL, "out of memory");
    return d;
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    CHECK(d != NULL, "out of memory");
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static void sb_span(sbuf_t *b, const char *name, arb_span s)
{
    sb_printf(b, " %s=%llu-%llu@%llu:%u", name, (unsigned long long)s.offset, (unsigned long long)s.end,
              (unsigned long long)s.line, (unsigned)s.col);
}

/* Every field of a record, on a few lines. */
static void dump_game(sbuf_t *b, const arb_game *g)
{
    sb_printf(b, "game %llu", (unsigned long long)g->number);
    sb_span(b, "where", g->where);
    sb_printf(b, "\n  tags:");
    for (size_t i = 0; i < g->ntags; i++) {
        sb_putn(b, " ", 1);
        sb_str(b, g->tags[i].name, g->tags[i].name_len);
        sb_putn(b, "=", 1);
        sb_str(b, g->tags[i].value, g->tags[i].value_len);
    }
    sb_printf(b, "\n  status %s", arb_status_name(g->status));
    if (g->has_error) {
        sb_printf(b, " error %llu:%u ply %u move ", (unsigned long long)g->error.line, (unsigned)g->error.col,
                  (unsigned)g->error.ply);
        sb_cstr(b, g->error.move);
        sb_putn(b, " ", 1);
        sb_cstr(b, g->error.message);
    }
    sb_printf(b, "\n  movetext %d plies %u result ", (int)g->has_movetext, (unsigned)g->plies);
    sb_cstr(b, g->result);
    sb_putn(b, " marker ", 8);
    sb_cstr(b, g->marker);
    sb_printf(b, "\n  first:");
    for (int f = 0; f < ARB_FACT_COUNT; f++) {
        sb_printf(b, " %s=%d", arb_fact_name((arb_fact)f), (int)g->first[f]);
        if (g->first[f] >= 0) {
            sb_putn(b, "/", 1);
            sb_cstr(b, g->first_move[f]);
        }
    }
    sb_printf(b, "\n  end");
    if (g->has_end) {
        sb_printf(b, " %s ply %d move ", arb_fact_name(g->end_reason), (int)g->end_ply);
        sb_cstr(b, g->end_move);
    } else {
        sb_putn(b, " none", 5);
    }
    sb_putn(b, " adjudicated ", 13);
    sb_cstr(b, g->adjudicated);
    sb_putn(b, " why ", 5);
    sb_cstr(b, g->adjudication);
    sb_printf(b, " verdict %s\n  spans:", arb_verdict_name(g->verdict));
    sb_span(b, "result_tag", g->result_tag);
    sb_span(b, "marker", g->marker_span);
    sb_span(b, "tags_end", g->tags_end);
    sb_span(b, "roster_end", g->roster_end);
    sb_span(b, "adjudication_tag", g->adjudication_tag);
    sb_span(b, "end_move", g->end_move_span);
    sb_putn(b, "\n", 1);
}

static void rec_copy(rec_t *r, const arb_game *g)
{
    sbuf_t d = { 0 };
    memset(r, 0, sizeof *r);
    r->g = *g;
    r->result = dup_or_null(g->result);
    r->marker = dup_or_null(g->marker);
    r->adjudicated = dup_or_null(g->adjudicated);
    r->adjudication = dup_or_null(g->adjudication);
    r->end_move = dup_or_null(g->has_end ? g->end_move : NULL);
    for (int f = 0; f < ARB_FACT_COUNT; f++)
        r->first_move[f] = dup_or_null(g->first_move[f] ? g->first_move[f] : "");
    r->tag_name = calloc(g->ntags + 1, sizeof *r->tag_name);
    r->tag_value = calloc(g->ntags + 1, sizeof *r->tag_value);
    r->tag_value_len = calloc(g->ntags + 1, sizeof *r->tag_value_len);
    CHECK(r->tag_name && r->tag_value && r->tag_value_len, "out of memory");
    for (size_t i = 0; i < g->ntags; i++) {
        CHECK(g->tags[i].name[g->tags[i].name_len] == '\0' && g->tags[i].value[g->tags[i].value_len] == '\0',
              "game %llu: tag %zu is not NUL-terminated at its length", (unsigned long long)g->number, i);
        r->tag_name[i] = dup_n(g->tags[i].name, g->tags[i].name_len);
        r->tag_value[i] = dup_n(g->tags[i].value, g->tags[i].value_len);
        r->tag_value_len[i] = g->tags[i].value_len;
    }
    r->g.tags = NULL;
    dump_game(&d, g);
    r->dump = d.s;
}

static void recs_free(recs_t *rs)
{
    for (size_t i = 0; i < rs->n; i++) {
        rec_t *r = &rs->v[i];
        free(r->result);
        free(r->marker);
        free(r->adjudicated);
        free(r->adjudication);
        free(r->end_move);
        for (int f = 0; f < ARB_FACT_COUNT; f++)
            free(r->first_move[f]);
        for (size_t k = 0; k < r->g.ntags; k++) {
            free(r->tag_name[k]);
            free(r->tag_value[k]);
        }
        free(r->tag_name);
        free(r->tag_value);
        free(r->tag_value_len);
        free(r->dump);
    }
    free(rs->v);
    free(rs->dump);
    memset(rs, 0, sizeof *rs);
}

/* ---- reading ---- */

enum cut { WHOLE, BYTES, RANDOM };

static void drain(arb_reader *r, recs_t *rs, sbuf_t *all)
{
    const arb_game *g;
    bool oom = false;
    while ((g = arb_reader_next(r, &oom)) != NULL) {
        CHECK(!oom, "arb_reader_next reported out of memory");
        rs->v = realloc(rs->v, (rs->n + 1) * sizeof *rs->v);
        CHECK(rs->v != NULL, "out of memory");
        rec_copy(&rs->v[rs->n], g);
        CHECK(g->number == rs->n + 1, "game numbers must count from 1: got %llu for record %zu",
              (unsigned long long)g->number, rs->n + 1);
        sb_putn(all, rs->v[rs->n].dump, strlen(rs->v[rs->n].dump));
        rs->n++;
    }
    CHECK(!oom, "arb_reader_next reported out of memory");
}

/* Reads in[0..len) cut as asked; each chunk is its own heap copy, freed
 * as soon as the reader has returned NULL. */
static recs_t read_cut(const char *in, size_t len, const arb_options *opt, enum cut how, uint64_t seed)
{
    recs_t rs = { 0 };
    sbuf_t all = { 0 };
    arb_reader *r = arb_reader_new(opt);
    CHECK(r != NULL, "arb_reader_new returned NULL");
    size_t at = 0;
    while (at < len) {
        size_t n = len - at;
        if (how == BYTES)
            n = 1;
        else if (how == RANDOM)
            n = tu_chunk_size(&seed, len - at, 97);
        char *chunk = malloc(n ? n : 1);
        CHECK(chunk != NULL, "out of memory");
        memcpy(chunk, in + at, n);
        arb_reader_feed(r, chunk, n);
        drain(r, &rs, &all);
        free(chunk);
        at += n;
    }
    arb_reader_finish(r);
    drain(r, &rs, &all);
    /* Exhausted: it stays so. */
    CHECK(arb_reader_next(r, NULL) == NULL, "arb_reader_next after the end returned a record");
    arb_reader_free(r);
    rs.dump = all.s ? all.s : strdup("");
    return rs;
}

/* Reads whole, byte by byte and in random chunks; every reading must give
 * the same records.  Returns the records of the whole reading. */
static recs_t read_at(const char *file, int line, const char *in, size_t len, const arb_options *opt)
{
    recs_t whole = read_cut(in, len, opt, WHOLE, 0);
    const struct { enum cut how; uint64_t seed; const char *name; } cuts[] = {
        { BYTES, 0, "byte by byte" }, { RANDOM, 1, "random chunks (seed 1)" },
        { RANDOM, 2, "random chunks (seed 2)" }, { RANDOM, 0xC0FFEE, "random chunks (seed 0xC0FFEE)" },
    };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        recs_t other = read_cut(in, len, opt, cuts[i].how, cuts[i].seed);
        if (strcmp(whole.dump, other.dump) != 0) {
            /* Show the first record that differs. */
            size_t k = 0;
            while (k < whole.n && k < other.n && strcmp(whole.v[k].dump, other.v[k].dump) == 0)
                k++;
            ck_abort_msg("%s:%d: read %s, the records differ from the whole reading "
                         "(%zu vs %zu records); first difference at record %zu:\nwhole:\n%s%s:\n%s",
                         file, line, cuts[i].name, whole.n, other.n, k + 1,
                         k < whole.n ? whole.v[k].dump : "(none)\n", cuts[i].name,
                         k < other.n ? other.v[k].dump : "(none)\n");
        }
        recs_free(&other);
    }
    return whole;
}
#define READ_OPT(s, opt) read_at(__FILE__, __LINE__, (s), strlen(s), (opt))
#define READ(s) READ_OPT((s), NULL)
/* For inputs with NUL bytes: a string literal, its length from sizeof. */
#define READ_LIT(lit) read_at(__FILE__, __LINE__, (lit), sizeof(lit) - 1, NULL)

/* ---- expectations ---- */

#define NGAMES(rs, want)                                                                          \
    CHECK((rs).n == (size_t)(want), "expected %d games, got %zu:\n%s", (int)(want), (rs).n, (rs).dump)

static const char *tag_of(const rec_t *r, const char *name)
{
    for (size_t i = 0; i < r->g.ntags; i++)
        if (strcmp(r->tag_name[i], name) == 0)
            return r->tag_value[i];
    return NULL;
}

static bool str_eq(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

#define STR(s) ((s) ? (s) : "(null)")

/* The tags of r, as "Name=value;Name=value". */
static void expect_tags_at(const char *file, int line, const rec_t *r, const char *want)
{
    sbuf_t b = { 0 };
    sb_putn(&b, "", 0);
    for (size_t i = 0; i < r->g.ntags; i++)
        sb_printf(&b, "%s%s=%s", i ? ";" : "", r->tag_name[i], r->tag_value[i]);
    CHECK(strcmp(b.s, want) == 0, "%s:%d: game %llu: tags \"%s\", expected \"%s\"\n%s", file, line,
          (unsigned long long)r->g.number, b.s, want, r->dump);
    free(b.s);
}
#define TAGS(r, want) expect_tags_at(__FILE__, __LINE__, (r), (want))

/* status, plies, result tag, marker. */
static void expect_game_at(const char *file, int line, const rec_t *r, arb_status st, int plies,
                           const char *result, const char *marker)
{
    CHECK(r->g.status == st, "%s:%d: game %llu: status %s, expected %s\n%s", file, line,
          (unsigned long long)r->g.number, arb_status_name(r->g.status), arb_status_name(st), r->dump);
    CHECK(r->g.has_error == (st != ARB_OK), "%s:%d: game %llu: has_error %d with status %s\n%s", file, line,
          (unsigned long long)r->g.number, (int)r->g.has_error, arb_status_name(st), r->dump);
    CHECK(r->g.plies == (uint32_t)plies, "%s:%d: game %llu: %u plies, expected %d\n%s", file, line,
          (unsigned long long)r->g.number, (unsigned)r->g.plies, plies, r->dump);
    CHECK(str_eq(r->result, result), "%s:%d: game %llu: result %s, expected %s\n%s", file, line,
          (unsigned long long)r->g.number, STR(r->result), STR(result), r->dump);
    CHECK(str_eq(r->marker, marker), "%s:%d: game %llu: marker %s, expected %s\n%s", file, line,
          (unsigned long long)r->g.number, STR(r->marker), STR(marker), r->dump);
}
#define GAME(r, st, plies, result, marker) expect_game_at(__FILE__, __LINE__, (r), (st), (plies), (result), (marker))

/* The error: line, column, ply, move text ("" if none), and a word of the message. */
static void expect_error_at(const char *file, int line, const rec_t *r, uint64_t eline, uint32_t ecol,
                            int eply, const char *move, const char *msg_part)
{
    CHECK(r->g.has_error, "%s:%d: game %llu: no error\n%s", file, line, (unsigned long long)r->g.number, r->dump);
    CHECK(r->g.error.line == eline && r->g.error.col == ecol,
          "%s:%d: game %llu: error at %llu:%u, expected %llu:%u\n%s", file, line,
          (unsigned long long)r->g.number, (unsigned long long)r->g.error.line, (unsigned)r->g.error.col,
          (unsigned long long)eline, (unsigned)ecol, r->dump);
    if (eply >= 0)
        CHECK(r->g.error.ply == (uint32_t)eply, "%s:%d: game %llu: error ply %u, expected %d\n%s", file, line,
              (unsigned long long)r->g.number, (unsigned)r->g.error.ply, eply, r->dump);
    CHECK(strcmp(r->g.error.move, move) == 0, "%s:%d: game %llu: error move \"%s\", expected \"%s\"\n%s", file,
          line, (unsigned long long)r->g.number, r->g.error.move, move, r->dump);
    CHECK(r->g.error.message[0] != '\0', "%s:%d: game %llu: the error has no message", file, line,
          (unsigned long long)r->g.number);
    if (msg_part)
        CHECK(strstr(r->g.error.message, msg_part) != NULL,
              "%s:%d: game %llu: error message \"%s\" does not say \"%s\"", file, line,
              (unsigned long long)r->g.number, r->g.error.message, msg_part);
}
#define ERROR_AT(r, l, c, ply, move, part) expect_error_at(__FILE__, __LINE__, (r), (l), (c), (ply), (move), (part))

/* first[] as "checkmate=4 threefold=7"; facts not named must be -1, but
 * for the per-side winnability facts, checked only where named. */
static void expect_first_at(const char *file, int line, const rec_t *r, const char *want)
{
    int exp[ARB_FACT_COUNT];
    bool named[ARB_FACT_COUNT] = { false };
    for (int f = 0; f < ARB_FACT_COUNT; f++)
        exp[f] = -1;
    for (const char *p = want; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *eq = strchr(p, '=');
        CHECK(eq != NULL, "%s:%d: bad expectation \"%s\"", file, line, want);
        int f;
        for (f = 0; f < ARB_FACT_COUNT; f++)
            if (strlen(arb_fact_name((arb_fact)f)) == (size_t)(eq - p) &&
                strncmp(p, arb_fact_name((arb_fact)f), (size_t)(eq - p)) == 0)
                break;
        CHECK(f < ARB_FACT_COUNT, "%s:%d: unknown fact in \"%s\"", file, line, want);
        char *end;
        exp[f] = (int)strtol(eq + 1, &end, 10);
        named[f] = true;
        p = end;
    }
    for (int f = 0; f < ARB_FACT_COUNT; f++)
        CHECK(r->g.first[f] == exp[f] || (f >= ARB_WHITE_CANNOT_WIN && !named[f]), "%s:%d: game %llu: first[%s] = %d, expected %d (-1 = never)\n%s", file,
              line, (unsigned long long)r->g.number, arb_fact_name((arb_fact)f), (int)r->g.first[f], exp[f],
              r->dump);
}
#define FIRST(r, want) expect_first_at(__FILE__, __LINE__, (r), (want))

/* A span must cover exactly the bytes `text`, found in `in` (its n-th
 * occurrence, 1-based), at the right line and column. */
static void expect_span_at(const char *file, int line, const char *what, const char *in, arb_span s,
                           const char *text, int nth, const rec_t *r)
{
    const char *p = in;
    for (int i = 0; i < nth; i++) {
        if (i)
            p++;
        p = strstr(p, text);
        CHECK(p != NULL, "%s:%d: test bug: \"%s\" (occurrence %d) not in the input", file, line, text, nth);
    }
    uint64_t off = (uint64_t)(p - in), end = off + strlen(text);
    uint64_t l = 1, c = 1;
    for (const char *q = in; q < p; q++) {
        if (*q == '\n' || (*q == '\r' && q[1] != '\n')) {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    CHECK(s.offset == off && s.end == end, "%s:%d: game %llu: %s span %llu-%llu, expected %llu-%llu (\"%s\")\n%s",
          file, line, (unsigned long long)r->g.number, what, (unsigned long long)s.offset,
          (unsigned long long)s.end, (unsigned long long)off, (unsigned long long)end, text, r->dump);
    CHECK(s.line == l && s.col == c, "%s:%d: game %llu: %s span at %llu:%u, expected %llu:%llu\n%s", file, line,
          (unsigned long long)r->g.number, what, (unsigned long long)s.line, (unsigned)s.col,
          (unsigned long long)l, (unsigned long long)c, r->dump);
}
#define SPAN(what, in, s, text, nth, r) expect_span_at(__FILE__, __LINE__, (what), (in), (s), (text), (nth), (r))

static void expect_no_span_at(const char *file, int line, const char *what, arb_span s, const rec_t *r)
{
    CHECK(s.offset == 0 && s.end == 0 && s.line == 0, "%s:%d: game %llu: %s span should be absent\n%s", file, line,
          (unsigned long long)r->g.number, what, r->dump);
}
#define NO_SPAN(what, s, r) expect_no_span_at(__FILE__, __LINE__, (what), (s), (r))

/* A span from its four fields (a compound literal would split macro arguments). */
static arb_span mkspan(uint64_t offset, uint64_t end, uint64_t line, uint32_t col)
{
    arb_span s = { offset, end, line, col };
    return s;
}

/* ---- game boundaries ---- */

START_TEST(boundary_marker_ends_game)
{
    /* A termination marker ends the game; what follows is the next one,
     * even on the next line with no blank line and no tags. */
    const char *in = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n1. d4 *\n";
    recs_t rs = READ(in);
    NGAMES(rs, 2);
    TAGS(&rs.v[0], "Event=a;Result=1-0");
    GAME(&rs.v[0], ARB_OK, 2, "1-0", "1-0");
    TAGS(&rs.v[1], "");
    GAME(&rs.v[1], ARB_OK, 1, NULL, "*");
    CHECK(rs.v[1].g.where.line == 5 && rs.v[1].g.where.col == 1, "game 2 starts at 5:1\n%s", rs.v[1].dump);
    recs_free(&rs);
}
END_TEST

START_TEST(boundary_tags_after_movetext)
{
    /* A tag section right after movetext starts a new game, blank line or not. */
    const char *in = "[Event \"a\"]\n1. e4 e5\n[Event \"b\"]\n1. d4 *\n";
    recs_t rs = READ(in);
    NGAMES(rs, 2);
    TAGS(&rs.v[0], "Event=a");
    GAME(&rs.v[0], ARB_OK, 2, NULL, NULL);
    TAGS(&rs.v[1], "Event=b");
    GAME(&rs.v[1], ARB_OK, 1, NULL, "*");
    CHECK(rs.v[1].g.where.line == 3 && rs.v[1].g.where.offset == 21, "game 2 starts at line 3, offset 21\n%s",
          rs.v[1].dump);
    /* The first game ends with its last move, not at the next tag. */
    SPAN("where.end of game 1", in, mkspan(rs.v[0].g.where.end - 2, rs.v[0].g.where.end, 2, 7), "e5", 1,
         &rs.v[0]);
    recs_free(&rs);
}
END_TEST

START_TEST(boundary_repeated_tag_name)
{
    /* Tag-only games with no blank line between them: a tag name already in
     * the section starts the next game. */
    const char *in = "[Event \"a\"]\n[Site \"x\"]\n[Event \"b\"]\n[Site \"y\"]\n[Event \"c\"]\n\n1. e4 *\n";
    recs_t rs = READ(in);
    NGAMES(rs, 3);
    TAGS(&rs.v[0], "Event=a;Site=x");
    GAME(&rs.v[0], ARB_OK, 0, NULL, NULL);
    CHECK(!rs.v[0].g.has_movetext, "game 1 has no movetext\n%s", rs.v[0].dump);
    TAGS(&rs.v[1], "Event=b;Site=y");
    GAME(&rs.v[1], ARB_OK, 0, NULL, NULL);
    CHECK(!rs.v[1].g.has_movetext, "game 2 has no movetext\n%s", rs.v[1].dump);
    TAGS(&rs.v[2], "Event=c");
    GAME(&rs.v[2], ARB_OK, 1, NULL, "*");
    CHECK(rs.v[2].g.has_movetext, "game 3 has movetext\n%s", rs.v[2].dump);
    CHECK(rs.v[1].g.where.line == 3 && rs.v[2].g.where.line == 5, "games start at lines 1, 3, 5\n%s", rs.dump);
    recs_free(&rs);
}
END_TEST

START_TEST(boundary_blank_lines_inside_a_game)
{
    /* ChessBase puts blank lines inside the tag section; comments may stand
     * apart from the moves.  Neither ends the game. */
    const char *in = "[Event \"a\"]\n\n[Site \"x\"]\n\n{an introduction}\n\n1. e4 e5 *\n";
    recs_t rs = READ(in);
    NGAMES(rs, 1);
    TAGS(&rs.v[0], "Event=a;Site=x");
    GAME(&rs.v[0], ARB_OK, 2, NULL, "*");
    recs_free(&rs);

    /* A comment between the tags and a blank line, then the moves. */
    rs = READ("[Event \"a\"]\n{c}\n\n\n1. d4 1/2-1/2\n");
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_OK, 1, NULL, "1/2-1/2");
    recs_free(&rs);
}
END_TEST

START_TEST(boundary_tagless_games)
{
    /* Games without tags, one after the other, separated by their markers. */
    recs_t rs = READ("1. e4 e5 *\n1. d4 d5 1-0\n\n1. c4 0-1\n");
    NGAMES(rs, 3);
    GAME(&rs.v[0], ARB_OK, 2, NULL, "*");
    GAME(&rs.v[1], ARB_OK, 2, NULL, "1-0");
    GAME(&rs.v[2], ARB_OK, 1, NULL, "0-1");
    for (size_t i = 0; i < 3; i++)
        CHECK(rs.v[i].g.ntags == 0, "game %zu has no tags\n%s", i + 1, rs.v[i].dump);
    CHECK(rs.v[1].g.where.line == 2 && rs.v[2].g.where.line == 4, "games start at lines 1, 2, 4\n%s", rs.dump);
    recs_free(&rs);
}
END_TEST

START_TEST(boundary_moves_after_marker)
{
    /* Moves after a marker on the same line start a new game (from the
     * start position: "2. Nf3" is the first move of that game). */
    const char *in = "1. c4 0-1 2. Nf3 Nf6\n";
    recs_t rs = READ(in);
    NGAMES(rs, 2);
    GAME(&rs.v[0], ARB_OK, 1, NULL, "0-1");
    GAME(&rs.v[1], ARB_OK, 2, NULL, NULL);
    SPAN("where.start of game 2", in, mkspan(rs.v[1].g.where.offset, rs.v[1].g.where.offset + 2,
                                                  rs.v[1].g.where.line, rs.v[1].g.where.col), "2.", 1, &rs.v[1]);
    recs_free(&rs);
}
END_TEST

START_TEST(boundary_one_record_per_game)
{
    /* Tricky inputs and the number of games in each. */
    static const struct { const char *in; int games; const char *why; } cases[] = {
        { "", 0, "empty input" },
        { "\n\n  \n", 0, "only blank lines" },
        { "*", 1, "a lone marker, no newline at the end" },
        { "1-0 0-1 *\n", 3, "three markers: three empty games" },
        { "[Event \"a\"]", 1, "one tag, no newline at the end" },
        { "[Event \"a\"]\n[Event \"b\"]\n[Event \"c\"]\n", 3, "the same tag three times" },
        { "[Event \"a\"]\n\n1. e4\n", 1, "no marker at the end of the file" },
        { "1. e4 e5", 1, "tagless, no marker, no newline" },
        { "[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n*\n[Event \"c\"]\n", 3, "a marker-only game between two" },
        { "[Event \"a\"]\n1. e4 (1. d4 *) e5 *\n", 1, "a marker inside a variation does not end the game" },
        { "[Event \"a\"]\n1. e4 {1-0 *} e5 *\n", 1, "markers inside a comment do not end the game" },
        { "[Event \"a\"]\n1. e4 ; 1-0\ne5 *\n", 1, "nor inside a rest-of-line comment" },
        { "[Event \"a\"]\n1. e4 Kx9 e5 *\n[Event \"b\"]\n1. d4 *\n", 2, "a syntax error does not swallow the next game" },
        { "[Event \"a\"]\n1. e4 e5 2. Ke3 *\n1. d4 *\n", 2, "an illegal move does not swallow the next game" },
        { "[Event \"a\"]\n1. e4 (1. d4 d5\n[Event \"b\"]\n1. d4 *\n", 2, "an unclosed variation ends at the next tags" },
        { "[Event \"a\"]\n1. e4 {never closed\n[Event \"b\"]\n1. d4 *\n", 1, "an unclosed comment runs to the end" },
        { "% a line for software\n[Event \"a\"]\n1. e4 *\n", 1, "a % escape line is skipped" },
        { "\xEF\xBB\xBF[Event \"a\"]\n1. e4 *\n", 1, "a byte order mark is skipped" },
        { "1. e4 1-0 {after} ; more\n% escape\n1. d4 *\n", 2, "comments and % lines after a marker are skipped" },
        { "1. e4 1-0 $1 ! ) & {c}\n1. d4 *\n", 2, "annotations, a stray ) and punctuation between games are skipped" },
        { "1. e4 1-0 2. d4 *\n", 2, "moves after a marker start a game" },
        { "[Event \"a\"]\n[Broken]\n[Site \"b\"]\n\n1. e4 *\n", 1, "a broken tag line in a tag section is ignored" },
        { "[Event \"a\"] [Site \"b\"]\n\n1. e4 *\n", 1, "two tag pairs on one line" },
        { "[Event \"a\"]\r\n[Site \"b\"]\r\n\r\n1. e4 *\r\n\r\n[Event \"c\"]\r\n\r\n1. d4 *\r\n", 2, "CRLF" },
        { "[Event \"a\"]\r[Site \"b\"]\r\r1. e4 *\r\r[Event \"c\"]\r\r1. d4 *\r", 2, "lone CR" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        recs_t rs = READ(cases[i].in);
        CHECK(rs.n == (size_t)cases[i].games, "case %zu (%s): expected %d games, got %zu:\n%s", i, cases[i].why,
              cases[i].games, rs.n, rs.dump);
        recs_free(&rs);
    }
}
END_TEST

START_TEST(boundary_where_span)
{
    /* where: from the first token of the game to its last. */
    const char *in = "\n{before}\n[Event \"a\"]\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n\n[Event \"b\"]\n";
    recs_t rs = READ(in);
    NGAMES(rs, 2);
    const char *start = strstr(in, "[Event \"a\"]"), *end = strstr(in, "0-1\n") + 3;
    CHECK(rs.v[0].g.where.offset == (uint64_t)(start - in) && rs.v[0].g.where.end == (uint64_t)(end - in),
          "game 1 spans %zu-%zu\n%s", (size_t)(start - in), (size_t)(end - in), rs.v[0].dump);
    CHECK(rs.v[0].g.where.line == 3 && rs.v[0].g.where.col == 1, "game 1 starts at 3:1\n%s", rs.v[0].dump);
    SPAN("where of game 2", in, rs.v[1].g.where, "[Event \"b\"]", 1, &rs.v[1]);
    recs_free(&rs);
}
END_TEST

/* ---- chunk invariance on larger inputs ---- */

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    sbuf_t b = { 0 };
    char tmp[65536];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
        sb_putn(&b, tmp, n);
    fclose(f);
    *len = b.len;
    return b.s ? b.s : calloc(1, 1);
}

START_TEST(chunks_golden_samples)
{
    /* The corpus samples of tests/data/golden, read whole, byte by byte and
     * in random chunks: identical records (read_at checks). */
    static const char *const files[] = {
        "rules/status.pgn", "rules/seventyfive.pgn", "rules/threefold-declared.pgn",
        "edge-cases/python-chess/utf8-bom.pgn", "edge-cases/python-chess/chessbase-empty-line.pgn",
        "edge-cases/scalachess/uzchesscup-tags-only.pgn", "edge-cases/chess-library/unescaped_quote_header.pgn",
        "edge-cases/chess-library/square_bracket_in_header.pgn", "edge-cases/pgn-extract/test-fuzzydepth.pgn",
        "edge-cases/pgn-extract/test-allownullmoves.pgn", "edge-cases/notnil-chess/0015.pgn",
        "edge-cases/tcec-line-endings/TCEC_Match_4-mixed-crlf-lf-first4.pgn",
        "otb/python-chess-immortal-games-annotated-first8.pgn", "chess960/cutechess-fischerrandom.pgn",
    };
    const char *top = getenv("abs_top_srcdir");
    if (!top)
        top = getenv("top_srcdir");
    if (!top)
        top = ".";
    int found = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[4096];
        size_t len;
        snprintf(path, sizeof path, "%s/tests/data/golden/%s", top, files[i]);
        char *in = slurp(path, &len);
        if (!in)
            continue;
        found++;
        recs_t rs = read_at(path, __LINE__, in, len, NULL);
        CHECK(rs.n > 0, "%s: no game read", path);
        recs_free(&rs);
        free(in);
    }
    CHECK(found > 0, "no sample found under %s/tests/data/golden (set abs_top_srcdir)", top);
}
END_TEST

START_TEST(chunks_tokens_across_cuts)
{
    /* Long tags, comments and moves cut at every possible place (read_at
     * cuts byte by byte): tags with escapes, a free-text result, a NAG. */
    char in[8192];
    char big[3000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    snprintf(in, sizeof in,
             "[Event \"%s\"]\n[White \"a \\\"quoted\\\" name\"]\n[Result \"1-0\"]\n\n"
             "1. e4 $1 {%s} e5!? 2. Nf3 (2. f4 exf4) Nc6 3. Bb5 a6 1 - 0\n",
             big, big);
    recs_t rs = READ(in);
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_OK, 6, "1-0", "1-0");
    CHECK(strcmp(tag_of(&rs.v[0], "White"), "a \"quoted\" name") == 0, "escapes are undone\n%s", rs.v[0].dump);
    CHECK(strlen(tag_of(&rs.v[0], "Event")) == sizeof big - 1, "a long value is kept whole");
    recs_free(&rs);
}
END_TEST

/* The dump of a record without its "game N" head: game numbers restart
 * in a piece read on its own. */
static const char *after_number(const char *dump)
{
    const char *p = strchr(dump, ' ');
    p = p ? strchr(p + 1, ' ') : NULL;
    return p ? p : dump;
}

/* Splits in[] at every line start before a '[' (where -j cuts a stream)
 * where arb_reader_between_games() says the stream is between games, reads the two pieces with two readers (the
 * second with arb_reader_set_origin()), and checks that together they give
 * the records of the whole stream.  Returns the number of splits tried. */
static int split_check_at(const char *file, int line, const char *in, size_t len)
{
    recs_t whole = read_cut(in, len, NULL, WHOLE, 0);
    int splits = 0;
    uint64_t lineno = 1;
    for (size_t k = 1; k < len; k++) {
        if (in[k - 1] == '\n')
            lineno++;
        if (in[k - 1] != '\n' || in[k] != '[')
            continue;
        recs_t a = { 0 }, b = { 0 };
        sbuf_t da = { 0 }, db = { 0 };
        arb_reader *ra = arb_reader_new(NULL);
        CHECK(ra != NULL, "out of memory");
        arb_reader_feed(ra, in, k);
        drain(ra, &a, &da);
        if (!arb_reader_between_games(ra)) {
            arb_reader_free(ra);
            recs_free(&a);
            free(da.s);
            continue;
        }
        splits++;
        arb_reader_finish(ra);
        drain(ra, &a, &da);
        arb_reader_free(ra);
        arb_reader *rb = arb_reader_new(NULL);
        CHECK(rb != NULL, "out of memory");
        arb_reader_set_origin(rb, k, lineno);
        arb_reader_feed(rb, in + k, len - k);
        drain(rb, &b, &db);
        arb_reader_finish(rb);
        drain(rb, &b, &db);
        arb_reader_free(rb);
        CHECK(a.n + b.n == whole.n, "%s:%d: split at offset %zu (line %llu): %zu + %zu games, whole %zu", file, line,
              k, (unsigned long long)lineno, a.n, b.n, whole.n);
        for (size_t i = 0; i < whole.n; i++) {
            const rec_t *r = i < a.n ? &a.v[i] : &b.v[i - a.n];
            CHECK(strcmp(after_number(r->dump), after_number(whole.v[i].dump)) == 0,
                  "%s:%d: split at offset %zu (line %llu): record %zu differs from the whole reading:\n%s"
                  "whole:\n%s",
                  file, line, k, (unsigned long long)lineno, i + 1, r->dump, whole.v[i].dump);
        }
        recs_free(&a);
        recs_free(&b);
        free(da.s);
        free(db.s);
    }
    recs_free(&whole);
    return splits;
}
#define SPLIT_CHECK(in) split_check_at(__FILE__, __LINE__, (in), strlen(in))

START_TEST(api_split_between_games)
{
    /* arb_reader_set_origin() and arb_reader_between_games(): a stream cut
     * between games reads the same in two pieces as whole, lines and
     * offsets included (game numbers restart). */
    const char *in = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
                     "[Event \"b\"]\n\n1. d4 d5\n\n[Event \"c\"]\n[Site \"x\"]\n\n{comment}\n\n1. c4 *\n"
                     "1. e4 *\n1. d4 1/2-1/2\n\n[Event \"d\"]\n[Event \"e\"]\n1. e4 {a comment\n\n[Event \"f\"]\n"
                     "in it} e5 *\n[Event \"g\"] junk\n[Site \"g\"]\n\n1. d4 (1. e4\n[Event \"h\"]\n1. c4 *\n";
    int n = SPLIT_CHECK(in);
    CHECK(n >= 4, "only %d places between games were found", n);
    /* Never between games inside a tag section or a game without marker. */
    arb_reader *r = arb_reader_new(NULL);
    arb_reader_feed(r, "[Event \"a\"]\n", 12);
    CHECK(arb_reader_next(r, NULL) == NULL && !arb_reader_between_games(r), "inside a tag section");
    arb_reader_free(r);
    r = arb_reader_new(NULL);
    arb_reader_feed(r, "[Event \"a\"]\n\n1. e4 {open", 23);
    CHECK(arb_reader_next(r, NULL) == NULL && !arb_reader_between_games(r), "inside a comment");
    arb_reader_free(r);

    /* The golden samples too, where present. */
    static const char *const files[] = {
        "rules/status.pgn", "edge-cases/python-chess/chessbase-empty-line.pgn",
        "edge-cases/scalachess/uzchesscup-tags-only.pgn", "edge-cases/pgn-extract/test-fuzzydepth.pgn",
        "edge-cases/tcec-line-endings/TCEC_Match_4-mixed-crlf-lf-first4.pgn",
    };
    const char *top = getenv("abs_top_srcdir");
    if (!top)
        top = getenv("top_srcdir");
    if (!top)
        top = ".";
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[4096];
        size_t len;
        snprintf(path, sizeof path, "%s/tests/data/golden/%s", top, files[i]);
        char *text = slurp(path, &len);
        if (!text)
            continue;
        split_check_at(path, __LINE__, text, len);
        free(text);
    }
}
END_TEST

/* ---- status, errors, and the plies before them ---- */

START_TEST(status_illegal)
{
    /* 2.Ke3: the king on e1 cannot reach e3.  Line 4, column 13; it would
     * have been ply 3; two plies were replayed. */
    const char *in = "[Event \"ill\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n\n[Event \"next\"]\n\n1. d4 *\n";
    recs_t rs = READ(in);
    NGAMES(rs, 2);
    GAME(&rs.v[0], ARB_ILLEGAL, 2, "1-0", "1-0");
    ERROR_AT(&rs.v[0], 4, 13, 3, "Ke3", NULL);
    CHECK(rs.v[0].g.verdict == ARB_UNREADABLE, "an illegal game is unreadable\n%s", rs.v[0].dump);
    /* The game is still scanned to its end: its marker is known and the next game reads. */
    SPAN("marker", in, rs.v[0].g.marker_span, "1-0", 2, &rs.v[0]);
    GAME(&rs.v[1], ARB_OK, 1, NULL, "*");
    TAGS(&rs.v[1], "Event=next");
    recs_free(&rs);
}
END_TEST

START_TEST(status_ambiguous)
{
    /* 3.Nd2: the knights on b1 and f3 can both go to d2. */
    recs_t rs = READ("1. d4 d5 2. Nf3 Nf6 3. Nd2 *\n");
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_ILLEGAL, 4, NULL, "*");
    ERROR_AT(&rs.v[0], 1, 24, 5, "Nd2", NULL);
    recs_free(&rs);
}
END_TEST

START_TEST(status_syntax)
{
    /* "Kx" cut off at the end of the file is a botched move, not something to skip. */
    recs_t rs = READ("[Event \"s\"]\n\n1. e4 e5 2. Kx");
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_SYNTAX, 2, NULL, NULL);
    ERROR_AT(&rs.v[0], 3, 13, 3, "Kx", NULL);
    recs_free(&rs);

    /* A piece drop belongs to crazyhouse. */
    rs = READ("1. e4 e5 2. N@f3 *\n");
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_SYNTAX, 2, NULL, "*");
    ERROR_AT(&rs.v[0], 1, 13, 3, "N@f3", NULL);
    recs_free(&rs);
}
END_TEST

START_TEST(status_facts_up_to_the_error)
{
    /* Threefold claimable at ply 7 (4.Ng1: Black declares 4...Ng8, the start
     * position a third time), then 5.Ke3 is illegal: plies 8, threefold 7. */
    recs_t rs = READ("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Ke3 *\n");
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_ILLEGAL, 8, NULL, "*");
    ERROR_AT(&rs.v[0], 1, 48, 9, "Ke3", NULL);
    FIRST(&rs.v[0], "threefold=7");
    CHECK(strcmp(rs.v[0].first_move[ARB_THREEFOLD], "4.Ng1") == 0, "threefold reached by 4.Ng1\n%s", rs.v[0].dump);
    recs_free(&rs);

    /* Nothing after the bad move is replayed: skipping 2.Ke4 would give
     * 3.g4 Qh4# (mate), but the record stops at ply 2. */
    rs = READ("[Result \"0-1\"]\n1. f3 e5 2. Ke4 3. g4 Qh4# 0-1\n");
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_ILLEGAL, 2, "0-1", "0-1");
    FIRST(&rs.v[0], "");
    CHECK(!rs.v[0].g.has_end, "no end by rule\n%s", rs.v[0].dump);
    recs_free(&rs);
}
END_TEST

START_TEST(status_badfen)
{
    /* No king: no position that can occur.  With SetUp "1", and without
     * SetUp (python-chess and most readers use FEN whenever it is there). */
    const char *in = "[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n"
                     "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n";
    recs_t rs = READ(in);
    NGAMES(rs, 2);
    GAME(&rs.v[0], ARB_BADFEN, 0, NULL, "*");
    GAME(&rs.v[1], ARB_BADFEN, 0, NULL, "*");
    CHECK(strstr(rs.v[0].g.error.message, "FEN") && strstr(rs.v[1].g.error.message, "FEN"),
          "the message says FEN\n%s", rs.dump);
    CHECK(rs.v[0].g.error.move[0] == '\0', "no move is to blame\n%s", rs.v[0].dump);
    recs_free(&rs);
    /* An en passant square (a double step was the last move) with a
     * halfmove clock that is not 0: taken as it is, it would give a
     * fifty-move claim at ply 0 and a seventy-five-move draw at ply 2. */
    rs = READ("[SetUp \"1\"]\n[FEN \"2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1Q2N2/2RN1PPP/2R4K b - b3 149 60\"]\n\n"
              "60... Kh8 61. Kg1 Kg8 *\n");
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_BADFEN, 0, NULL, "*");
    FIRST(&rs.v[0], "");
    CHECK(strstr(rs.v[0].g.error.message, "halfmove clock") != NULL, "the message says why\n%s", rs.v[0].dump);
    /* A bad FEN in a game without movetext is still found. */
    recs_free(&rs);
    rs = READ("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n[Event \"x\"]\n");
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_BADFEN, 0, NULL, NULL);
    recs_free(&rs);
    /* The next game is not affected. */
    rs = READ("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. e4 e5 *\n");
    NGAMES(rs, 2);
    GAME(&rs.v[1], ARB_OK, 2, NULL, "*");
    recs_free(&rs);
}
END_TEST

START_TEST(status_error_points_at_the_tag)
{
    /* A bad FEN or an unsupported variant is the fault of a tag, not of
     * the movetext: the error's line and column (and so the diagnostic
     * "FILE:LINE:COL: error: ...") point at that tag, as the manual says
     * ("the line and column of the offending text"). */
    const char *in = "[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n"
                     "[Event \"v\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 *\n";
    recs_t rs = READ(in);
    NGAMES(rs, 2);
    GAME(&rs.v[0], ARB_BADFEN, 0, NULL, "*");
    ERROR_AT(&rs.v[0], 2, 1, -1, "", "FEN");
    GAME(&rs.v[1], ARB_UNSUPPORTED, 0, NULL, "*");
    ERROR_AT(&rs.v[1], 7, 1, -1, "", "Crazyhouse");
    recs_free(&rs);
}
END_TEST

START_TEST(status_fen_with_and_without_setup)
{
    /* K+R v K with White to move: Ra8# is mate at once.  The FEN is used
     * with SetUp "1" and also when SetUp is missing. */
    const char *fen = "[FEN \"6k1/8/6K1/8/8/8/8/R7 w - - 0 1\"]\n";
    char in[512];
    snprintf(in, sizeof in, "[SetUp \"1\"]\n%s\n1. Ra8# 1-0\n\n%s\n1. Ra8# 1-0\n", fen, fen);
    recs_t rs = READ(in);
    NGAMES(rs, 2);
    for (size_t i = 0; i < 2; i++) {
        GAME(&rs.v[i], ARB_OK, 1, NULL, "1-0");
        FIRST(&rs.v[i], "checkmate=1");
        CHECK(str_eq(rs.v[i].adjudicated, "1-0"), "White mated\n%s", rs.v[i].dump);
        CHECK(strcmp(rs.v[i].first_move[ARB_CHECKMATE], "1.Ra8#") == 0, "mate at 1.Ra8#\n%s", rs.v[i].dump);
    }
    recs_free(&rs);

    /* Black to move, move 30: the first move is 30...Kh8 (ply 1). */
    rs = READ("[FEN \"6k1/8/6K1/8/8/8/8/R7 b - - 0 30\"]\n\n30... Kh8 31. Ra8# 1-0\n");
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_OK, 2, NULL, "1-0");
    FIRST(&rs.v[0], "checkmate=2");
    CHECK(strcmp(rs.v[0].first_move[ARB_CHECKMATE], "31.Ra8#") == 0, "mate at 31.Ra8#\n%s", rs.v[0].dump);
    recs_free(&rs);
}
END_TEST

START_TEST(status_variants)
{
    /* A Chess960 position that standard chess refuses: king on b1 with
     * castling rights.  O-O in Chess960 puts the king on g1 and the rook on
     * f1, so 2.Rfe1 is legal afterwards. */
    static const char *const c960[] = { "Chess960", "chess 960", "Fischerandom", "fischerrandom", "CHESS960" };
    static const char *const standard[] = { "From Position", "Standard", "normal" };
    const char *body = "[SetUp \"1\"]\n[FEN \"rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w KQkq - 0 1\"]\n\n"
                       "1. O-O O-O 2. Rfe1 *\n";
    char in[512];
    for (size_t i = 0; i < sizeof c960 / sizeof c960[0]; i++) {
        snprintf(in, sizeof in, "[Variant \"%s\"]\n%s", c960[i], body);
        recs_t rs = READ(in);
        NGAMES(rs, 1);
        CHECK(rs.v[0].g.status == ARB_OK && rs.v[0].g.plies == 3, "Variant \"%s\" is Chess960\n%s", c960[i],
              rs.v[0].dump);
        recs_free(&rs);
    }
    for (size_t i = 0; i < sizeof standard / sizeof standard[0]; i++) {
        /* Standard chess: that FEN is refused... */
        snprintf(in, sizeof in, "[Variant \"%s\"]\n%s", standard[i], body);
        recs_t rs = READ(in);
        NGAMES(rs, 1);
        CHECK(rs.v[0].g.status == ARB_BADFEN, "Variant \"%s\" is standard chess\n%s", standard[i], rs.v[0].dump);
        recs_free(&rs);
        /* ...and a standard game reads. */
        snprintf(in, sizeof in, "[Variant \"%s\"]\n\n1. e4 e5 2. O-O *\n", standard[i]);
        rs = READ(in);
        NGAMES(rs, 1);
        CHECK(rs.v[0].g.status == ARB_ILLEGAL && rs.v[0].g.plies == 2,
              "Variant \"%s\": 2.O-O is illegal with the bishop on f1\n%s", standard[i], rs.v[0].dump);
        recs_free(&rs);
        snprintf(in, sizeof in, "[Variant \"%s\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O *\n", standard[i]);
        rs = READ(in);
        NGAMES(rs, 1);
        GAME(&rs.v[0], ARB_OK, 7, NULL, "*");
        recs_free(&rs);
    }
    /* Crazyhouse is not chess: unsupported, and the next game still reads. */
    recs_t rs = READ("[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. Nf3 *\n\n[Event \"next\"]\n\n1. d4 *\n");
    NGAMES(rs, 2);
    GAME(&rs.v[0], ARB_UNSUPPORTED, 0, NULL, "*");
    CHECK(strstr(rs.v[0].g.error.message, "Crazyhouse") != NULL, "the message names the variant\n%s", rs.v[0].dump);
    GAME(&rs.v[1], ARB_OK, 1, NULL, "*");
    recs_free(&rs);
}
END_TEST

START_TEST(status_binary_junk)
{
    /* NUL and control bytes mean the text is not PGN: syntax, at the first
     * bad byte; the game ends as usual and the next one reads. */
    static const char in[] = "[Event \"z\"]\n\n1. e4 \0\0\x01\x02 e5 *\n\n[Event \"next\"]\n\n1. d4 d5 *\n";
    recs_t rs = READ_LIT(in);
    NGAMES(rs, 2);
    GAME(&rs.v[0], ARB_SYNTAX, 1, NULL, "*");
    ERROR_AT(&rs.v[0], 3, 7, 2, "", NULL);
    TAGS(&rs.v[1], "Event=next");
    GAME(&rs.v[1], ARB_OK, 2, NULL, "*");
    recs_free(&rs);

    /* A run of binary junk between games (a corrupt block). */
    static const char junk[] = "1. e4 *\n\x89PNG\r\n\x1a\n\0\0\0\rIHDR\n\n[Event \"after\"]\n\n1. e4 e5 *\n";
    rs = READ_LIT(junk);
    CHECK(rs.n >= 2, "at least the two games\n%s", rs.dump);
    GAME(&rs.v[0], ARB_OK, 1, NULL, "*");
    for (size_t i = 1; i + 1 < rs.n; i++)
        CHECK(rs.v[i].g.status == ARB_SYNTAX, "the junk is a syntax record\n%s", rs.v[i].dump);
    CHECK(rs.n == 3, "the junk makes one record\n%s", rs.dump);
    TAGS(&rs.v[rs.n - 1], "Event=after");
    GAME(&rs.v[rs.n - 1], ARB_OK, 2, NULL, "*");
    recs_free(&rs);
}
END_TEST

START_TEST(status_null_moves)
{
    /* A null move is not a legal move: illegal by default... */
    const char *in = "[Event \"n\"]\n\n1. e4 -- 2. d4 Z0 3. Nf3 *\n";
    recs_t rs = READ(in);
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_ILLEGAL, 1, NULL, "*");
    ERROR_AT(&rs.v[0], 3, 7, 2, "--", "null");
    recs_free(&rs);

    /* ...and a pass with allow_null_moves: the other side moves next. */
    arb_options opt = { .allow_null_moves = true, .policy = ARB_RULES_FIDE };
    rs = READ_OPT(in, &opt);
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_OK, 5, NULL, "*");
    recs_free(&rs);

    /* @@@@ too (0000: see null_move_0000). */
    rs = READ_OPT("1. e4 @@@@ 2. d4 Z0 3. Nf3 *\n", &opt);
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_OK, 5, NULL, "*");
    recs_free(&rs);

    /* Never while in check. */
    rs = READ_OPT("1. e4 f5 2. Qh5+ -- *\n", &opt);
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_ILLEGAL, 3, NULL, "*");
    ERROR_AT(&rs.v[0], 1, 18, 4, "--", NULL);
    recs_free(&rs);
}
END_TEST

START_TEST(null_move_0000)
{
    /* "0000" is the UCI null move, listed with --, Z0 and @@@@ in
     * pgnarbiter.h and the manual, and read as a null move by python-chess.
     * It must not be skipped as a move number written without its dot. */
    const char *in = "1. e4 0000 2. d4 *\n";
    recs_t rs = READ(in);
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_ILLEGAL, 1, NULL, "*");
    ERROR_AT(&rs.v[0], 1, 7, 2, "0000", "null");
    recs_free(&rs);
    arb_options opt = { .allow_null_moves = true, .policy = ARB_RULES_FIDE };
    rs = READ_OPT(in, &opt);
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_OK, 3, NULL, "*");
    recs_free(&rs);
}
END_TEST

START_TEST(free_text_results)
{
    static const struct { const char *in; const char *marker; int plies; } cases[] = {
        { "1. e4 e5 1 - 0\n", "1-0", 2 },
        { "1. e4 e5 0 - 1\n", "0-1", 2 },
        { "1. e4 e5 1/2 - 1/2\n", "1/2-1/2", 2 },
        { "1. e4 e5 \xC2\xBD-\xC2\xBD\n", "1/2-1/2", 2 },
        { "1. e4 e5 \xC2\xBD - \xC2\xBD\n", "1/2-1/2", 2 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        recs_t rs = READ(cases[i].in);
        CHECK(rs.n == 1, "case %zu: one game\n%s", i, rs.dump);
        GAME(&rs.v[0], ARB_OK, cases[i].plies, NULL, cases[i].marker);
        recs_free(&rs);
    }
    /* A free-text result ends the game: the next game follows. */
    recs_t rs = READ("1. e4 e5 1 - 0\n1. d4 *\n");
    NGAMES(rs, 2);
    GAME(&rs.v[0], ARB_OK, 2, NULL, "1-0");
    GAME(&rs.v[1], ARB_OK, 1, NULL, "*");
    recs_free(&rs);
}
END_TEST

/* ---- python-chess compatible quirks ---- */

START_TEST(quirk_broken_tag_line)
{
    /* A broken tag (no name, or no quoted value) in a tag section is
     * ignored with its line, as python-chess ignores it; the tag section
     * goes on.  In movetext it is skipped like stray punctuation. */
    recs_t rs = READ("[Event \"a\"]\n[Broken]\n[ \"no name\"]\n[Site \"b\"]\n\n1. e4 [Junk] e5 *\n");
    NGAMES(rs, 1);
    TAGS(&rs.v[0], "Event=a;Site=b");
    GAME(&rs.v[0], ARB_OK, 2, NULL, "*");
    recs_free(&rs);
}
END_TEST

START_TEST(quirk_tag_line_with_trailing_text)
{
    /* python-chess reads a tag line whole, "[Name "value"]" and blanks; a
     * line with anything after the bracket but movetext (a word that is not
     * a move, a comment) is not a tag line and is skipped. */
    recs_t rs = READ("[Event \"t\"] junk\n[Site \"y\"]\n[White \"w\"]   \n\n1. e4 *\n");
    NGAMES(rs, 1);
    TAGS(&rs.v[0], "Site=y;White=w");
    GAME(&rs.v[0], ARB_OK, 1, NULL, "*");
    recs_free(&rs);

    /* A Result tag on such a line is not the Result tag. */
    rs = READ("[Event \"e\"]\n[Result \"1-0\"] {x}\n\n1. e4 *\n");
    NGAMES(rs, 1);
    TAGS(&rs.v[0], "Event=e");
    GAME(&rs.v[0], ARB_OK, 1, NULL, "*");
    NO_SPAN("result_tag", rs.v[0].g.result_tag, &rs.v[0]);
    recs_free(&rs);
}
END_TEST

START_TEST(tag_and_movetext_on_one_line)
{
    /* PGN standard 8.1 (import format): a tag pair and the movetext may
     * share a line.  This is Fool's mate, four plies ending in checkmate. */
    recs_t rs = READ("[Event \"A\"] 1. f3 e5 2. g4 Qh4# 0-1\n\n[Event \"B\"]\n[Result \"*\"]\n\n1. e4 *\n");
    NGAMES(rs, 2);
    TAGS(&rs.v[0], "Event=A");
    GAME(&rs.v[0], ARB_OK, 4, NULL, "0-1");
    CHECK(rs.v[0].g.first[ARB_CHECKMATE] == 4, "checkmate at ply 4\n%s", rs.v[0].dump);
    TAGS(&rs.v[1], "Event=B;Result=*");
    GAME(&rs.v[1], ARB_OK, 1, "*", "*");
    recs_free(&rs);

    /* The Result tag on such a line is the game's Result tag (--fix must
     * find it to change it). */
    rs = READ("[Event \"A\"]\n[Result \"*\"] 1. f3 e5 2. g4 Qh4# 0-1\n");
    NGAMES(rs, 1);
    TAGS(&rs.v[0], "Event=A;Result=*");
    GAME(&rs.v[0], ARB_OK, 4, "*", "0-1");
    SPAN("result_tag", "[Event \"A\"]\n[Result \"*\"] 1. f3 e5 2. g4 Qh4# 0-1\n", rs.v[0].g.result_tag,
         "[Result \"*\"]", 1, &rs.v[0]);
    recs_free(&rs);

    /* A move without a number, and a termination marker alone, also start
     * movetext; a word that is not a move does not (quirk below). */
    rs = READ("[Result \"1-0\"] e4 *\n[Result \"*\"] 1-0\n");
    NGAMES(rs, 2);
    GAME(&rs.v[0], ARB_OK, 1, "1-0", "*");
    GAME(&rs.v[1], ARB_OK, 0, "*", "1-0");
    recs_free(&rs);
}
END_TEST

START_TEST(quirk_sf3_is_f3)
{
    /* "S" cannot start a move, so "Sf3" is read from "f3", a pawn move;
     * 2.Kf2 is then legal (the f-pawn has left f2), which proves it. */
    recs_t rs = READ("1. Sf3 e5 2. Kf2 *\n");
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_OK, 3, NULL, "*");
    recs_free(&rs);
}
END_TEST

START_TEST(quirk_truncated_move)
{
    /* "Kx" starts like a move and is not one: a syntax error (not skipped). */
    recs_t rs = READ("1. e4 e5 2. Kx *\n");
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_SYNTAX, 2, NULL, "*");
    ERROR_AT(&rs.v[0], 1, 13, 3, "Kx", NULL);
    recs_free(&rs);
}
END_TEST

START_TEST(quirk_stray_commas)
{
    /* Commas between moves (some exports write "1. e4, e5") are skipped. */
    recs_t rs = READ("1. e4, e5, 2. Nf3 , Nc6 ,*\n");
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_OK, 4, NULL, "*");
    recs_free(&rs);
    rs = READ("1. e4 e5 2. Kb, Nc6 *\n");
    NGAMES(rs, 1);
    CHECK(rs.v[0].g.status != ARB_OK, "\"Kb\" is still a bad move\n%s", rs.v[0].dump);
    recs_free(&rs);
}
END_TEST

START_TEST(quirk_move_glued_to_result)
{
    /* pgn-arbiter(1), Reading: in a word that is not a single move, the
     * moves and results in it are read, as python-chess does: "Qxf7#1-0" is
     * the move Qxf7# (mate at ply 7) and the marker 1-0, which ends the game. */
    const char *in = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#1-0\n1. d4 *\n";
    recs_t rs = READ(in);
    NGAMES(rs, 2);
    GAME(&rs.v[0], ARB_OK, 7, NULL, "1-0");
    FIRST(&rs.v[0], "checkmate=7");
    GAME(&rs.v[1], ARB_OK, 1, NULL, "*");
    recs_free(&rs);
}
END_TEST

START_TEST(quirk_words_scanned_for_moves)
{
    /* In a word that does not start like a move, what cannot start a move
     * is skipped and the moves in it are read: "S" and "P" are not piece
     * letters, "(" ... ")" aside; "xyz" holds no move and is skipped. */
    recs_t rs = READ("1. Pe4 e5 2. &Nf3 xyz Nc6 *\n");
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_OK, 4, NULL, "*");
    recs_free(&rs);
}
END_TEST

/* ---- facts through the reader ---- */

START_TEST(facts_and_adjudication)
{
    /* Fool's mate recorded as a draw: mate at ply 4, 0-1. */
    recs_t rs = READ("[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n");
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_OK, 4, "1/2-1/2", "1/2-1/2");
    FIRST(&rs.v[0], "checkmate=4");
    CHECK(rs.v[0].g.has_end && rs.v[0].g.end_reason == ARB_CHECKMATE && rs.v[0].g.end_ply == 4,
          "end by checkmate at ply 4\n%s", rs.v[0].dump);
    CHECK(str_eq(rs.v[0].end_move, "2...Qh4#"), "end move 2...Qh4#\n%s", rs.v[0].dump);
    CHECK(str_eq(rs.v[0].adjudicated, "0-1"), "Black mated\n%s", rs.v[0].dump);
    CHECK(rs.v[0].g.verdict == ARB_WRONG_RESULT, "wrong result\n%s", rs.v[0].dump);
    CHECK(rs.v[0].adjudication != NULL && strstr(rs.v[0].adjudication, "checkmate") != NULL,
          "the adjudication says why\n%s", rs.v[0].dump);
    recs_free(&rs);

    /* Fivefold at ply 16 (the start position for the fifth time) and one
     * move after: the game ended at ply 16. */
    rs = READ("[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 "
              "7. Nf3 Nf6 8. Ng1 Ng8 9. e4 1/2-1/2\n");
    NGAMES(rs, 1);
    GAME(&rs.v[0], ARB_OK, 17, "1/2-1/2", "1/2-1/2");
    FIRST(&rs.v[0], "threefold=7 fivefold=16");
    CHECK(rs.v[0].g.has_end && rs.v[0].g.end_reason == ARB_FIVEFOLD && rs.v[0].g.end_ply == 16,
          "end by fivefold at 16\n%s", rs.v[0].dump);
    CHECK(rs.v[0].g.verdict == ARB_MOVES_AFTER_END, "moves after the end\n%s", rs.v[0].dump);
    recs_free(&rs);

    /* Article 6.9: lost on time with only a king: a draw. */
    rs = READ("[Result \"0-1\"]\n[Termination \"Time forfeit\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w - - 0 1\"]\n\n"
              "1. Rh2 Kd7 0-1\n");
    NGAMES(rs, 1);
    CHECK(str_eq(rs.v[0].adjudicated, "1/2-1/2"), "a lone king cannot mate: drawn\n%s", rs.v[0].dump);
    CHECK(!rs.v[0].g.has_end, "no end by rule\n%s", rs.v[0].dump);
    recs_free(&rs);

    /* The claim policy ends the game at the first threefold claim. */
    arb_options claim = { .allow_null_moves = false, .policy = ARB_RULES_CLAIM };
    rs = READ_OPT("[Result \"1-0\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 1-0\n", &claim);
    NGAMES(rs, 1);
    CHECK(rs.v[0].g.has_end && rs.v[0].g.end_reason == ARB_THREEFOLD && rs.v[0].g.end_ply == 7,
          "claim policy: ends at the threefold claim, ply 7\n%s", rs.v[0].dump);
    CHECK(str_eq(rs.v[0].adjudicated, "1/2-1/2"), "drawn\n%s", rs.v[0].dump);
    recs_free(&rs);
}
END_TEST

/* ---- spans for rewriting ---- */

START_TEST(spans_tags_and_marker)
{
    const char *in = "[Event \"e\"]\n[Site \"s\"]\n[Date \"d\"]\n[Round \"1\"]\n[White \"w\"]\n[Black \"b\"]\n"
                     "[Result \"1-0\"]\n[Adjudication \"old\"]\n[ECO \"A00\"]\n\n1. f3 e5 2. g4 Qh4# 3. a3 1-0\n";
    recs_t rs = READ(in);
    NGAMES(rs, 1);
    const rec_t *r = &rs.v[0];
    SPAN("result_tag", in, r->g.result_tag, "[Result \"1-0\"]", 1, r);
    SPAN("marker", in, r->g.marker_span, "1-0", 2, r);
    SPAN("roster_end", in, r->g.roster_end, "[Result \"1-0\"]", 1, r);
    SPAN("tags_end", in, r->g.tags_end, "[ECO \"A00\"]", 1, r);
    SPAN("adjudication_tag", in, r->g.adjudication_tag, "[Adjudication \"old\"]", 1, r);
    /* The move that ended the game: an empty span right after "Qh4#". */
    const char *mate = strstr(in, "Qh4#") + 4;
    CHECK(r->g.end_move_span.offset == (uint64_t)(mate - in) && r->g.end_move_span.end == (uint64_t)(mate - in),
          "end_move_span is the empty span after Qh4# (%zu)\n%s", (size_t)(mate - in), r->dump);
    recs_free(&rs);
}
END_TEST

/* Names for tags_limits(), all six bytes long: first `same` names that
 * share one bit of lex_name_bit() (the lexer's runs stop before each of
 * them but the first: they go one at a time), then `fresh` names with a bit
 * of their own each (they come in runs).  names[i] is 8 bytes. */
static char (*limit_names(size_t same, size_t fresh))[8]
{
    static const char alnum[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    char (*names)[8] = malloc((same + fresh) * sizeof *names);
    ck_assert_ptr_nonnull(names);
    /* The bit comes from the length and bytes 0, 3 and 5: those fixed, the
     * others counted. */
    ck_assert_uint_lt(same, 62 * 62 * 62);
    for (size_t k = 0; k < same; k++)
        memcpy(names[k], (char[8]){ 'T', alnum[k % 62], alnum[k / 62 % 62], 'm', alnum[k / 3844], 'z', 0 }, 8);
    uint64_t used[4] = {0, 0, 0, 0};
    if (same) {
        unsigned bit = lex_name_bit(names[0], 6);
        used[bit >> 6] |= (uint64_t)1 << (bit & 63);
    }
    size_t n = same;
    for (size_t k = 0; n < same + fresh; k++) {
        ck_assert_uint_lt(k, 62 * 62);
        char name[8] = { 'U', 'a', 'a', alnum[k % 62], 'a', alnum[k / 62], 0 };
        unsigned bit = lex_name_bit(name, 6);
        if (!(used[bit >> 6] >> (bit & 63) & 1)) {
            used[bit >> 6] |= (uint64_t)1 << (bit & 63);
            memcpy(names[n++], name, 8);
        }
    }
    return names;
}

/* Reads in whole, once: the tag count of its one game, whose tags must be
 * the first of names[], in order, whole. */
static size_t tags_kept(const char *in, size_t len, char (*names)[8])
{
    arb_reader *r = arb_reader_new(NULL);
    ck_assert_ptr_nonnull(r);
    arb_reader_feed(r, in, len);
    arb_reader_finish(r);
    const arb_game *g = arb_reader_next(r, NULL);
    ck_assert_ptr_nonnull(g);
    size_t n = g->ntags;
    for (size_t i = 0; i < n; i++)
        CHECK(strcmp(g->tags[i].name, names[i]) == 0 && strlen(g->tags[i].value) == g->tags[i].value_len &&
                  g->tags[i].value_len > 0 && g->tags[i].value[0] == 'v',
              "tag %zu is %s", i, g->tags[i].name);
    ck_assert_ptr_null(arb_reader_next(r, NULL));
    arb_reader_free(r);
    return n;
}

/* A game keeps its first 4,096 tags, and tag text up to 8 MiB: a tag is
 * kept while the names, values, the bytes between a name and its value and
 * one NUL each so far, plus its own name, value and two NULs, fit.  Plain
 * tags with new names come in runs of the lexer's (one copy each) until a
 * run would cross a limit; the tags then go one at a time, and the same
 * ones are kept. */
START_TEST(tags_limits)
{
    /* 4,090 tags one at a time, then runs: the run that crosses 4,096. */
    size_t same = 4090, fresh = 40, total = same + fresh;
    char (*names)[8] = limit_names(same, fresh);
    char *in = malloc(total * 32 + 64), *o = in;
    ck_assert_ptr_nonnull(in);
    for (size_t i = 0; i < total; i++)
        o += sprintf(o, "[%s \"v%zu\"]\n", names[i], i);
    o += sprintf(o, "\n*\n");
    ck_assert_uint_eq(tags_kept(in, (size_t)(o - in), names), 4096);
    free(in);
    free(names);

    /* Values of 60,000 bytes, in runs: each tag counts 6 + 2 + 60,000 + 1
     * = 60,009 bytes; tag i (from 0) is kept while i * 60,009 + 6 + 60,000
     * + 2 is at most 8,388,608, so for i up to 138: 139 tags. */
    size_t vlen = 60000;
    same = 1, fresh = 199, total = same + fresh;
    names = limit_names(same, fresh);
    in = malloc(total * (vlen + 16) + 64);
    ck_assert_ptr_nonnull(in);
    o = in;
    for (size_t i = 0; i < total; i++) {
        o += sprintf(o, "[%s \"v", names[i]);
        memset(o, 'x', vlen - 1);
        o += vlen - 1;
        o += sprintf(o, "\"]\n");
    }
    o += sprintf(o, "\n*\n");
    ck_assert_uint_eq(tags_kept(in, (size_t)(o - in), names), 139);
    free(in);
    free(names);
}
END_TEST

START_TEST(spans_roster_order)
{
    /* roster_end is the last tag of the Seven Tag Roster in input order,
     * whichever of the seven it is. */
    const char *in = "[Result \"*\"]\n[White \"w\"]\n[WhiteElo \"2000\"]\n[Event \"e\"]\n[Opening \"o\"]\n\n1. e4 *\n";
    recs_t rs = READ(in);
    NGAMES(rs, 1);
    SPAN("roster_end", in, rs.v[0].g.roster_end, "[Event \"e\"]", 1, &rs.v[0]);
    SPAN("tags_end", in, rs.v[0].g.tags_end, "[Opening \"o\"]", 1, &rs.v[0]);
    SPAN("result_tag", in, rs.v[0].g.result_tag, "[Result \"*\"]", 1, &rs.v[0]);
    NO_SPAN("adjudication_tag", rs.v[0].g.adjudication_tag, &rs.v[0]);
    recs_free(&rs);

    /* No roster tag at all, no Result tag, no marker. */
    in = "[ECO \"B00\"]\n\n1. e4\n";
    rs = READ(in);
    NGAMES(rs, 1);
    NO_SPAN("roster_end", rs.v[0].g.roster_end, &rs.v[0]);
    NO_SPAN("result_tag", rs.v[0].g.result_tag, &rs.v[0]);
    NO_SPAN("marker", rs.v[0].g.marker_span, &rs.v[0]);
    SPAN("tags_end", in, rs.v[0].g.tags_end, "[ECO \"B00\"]", 1, &rs.v[0]);
    recs_free(&rs);
}
END_TEST

START_TEST(spans_in_second_game_crlf)
{
    /* Offsets count from the start of the stream, BOM included; lines and
     * columns count CRLF as one line end. */
    const char *in = "\xEF\xBB\xBF[Event \"a\"]\r\n\r\n1. e4 *\r\n\r\n[Event \"b\"]\r\n[Result \"0-1\"]\r\n\r\n"
                     "1. f3 e5 2. g4 Qh4# 1/2-1/2\r\n";
    recs_t rs = READ(in);
    NGAMES(rs, 2);
    CHECK(rs.v[0].g.where.offset == 3 && rs.v[0].g.where.line == 1 && rs.v[0].g.where.col == 1,
          "game 1 starts after the BOM: offset 3, column 1 (the BOM is no text)\n%s", rs.v[0].dump);
    const rec_t *r = &rs.v[1];
    SPAN("where start", in, mkspan(r->g.where.offset, r->g.where.offset + 11, r->g.where.line, r->g.where.col),
         "[Event \"b\"]", 1, r);
    SPAN("result_tag", in, r->g.result_tag, "[Result \"0-1\"]", 1, r);
    SPAN("marker", in, r->g.marker_span, "1/2-1/2", 1, r);
    const char *mate = strstr(in, "Qh4#") + 4;
    CHECK(r->g.end_move_span.offset == (uint64_t)(mate - in) && r->g.end_move_span.end == r->g.end_move_span.offset,
          "end_move_span after Qh4#\n%s", r->dump);
    SPAN("where end", in, mkspan(r->g.where.end - 7, r->g.where.end, r->g.marker_span.line, r->g.marker_span.col),
         "1/2-1/2", 1, r);
    recs_free(&rs);
}
END_TEST

START_TEST(spans_end_at_ply_zero)
{
    /* A game dead from its start position ends at ply 0: the empty span
     * where its moves start (a comment before the first move stays with
     * the game, so that --truncate keeps it). */
    const char *in = "[Result \"1-0\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n{c} 1. Kd2 Kd7 1-0\n";
    recs_t rs = READ(in);
    NGAMES(rs, 1);
    const rec_t *r = &rs.v[0];
    FIRST(r, "insufficient=0 dead=0");
    CHECK(r->g.has_end && r->g.end_ply == 0 && r->g.end_reason == ARB_DEAD, "dead at ply 0\n%s", r->dump);
    const char *mt = strstr(in, "1. Kd2");
    CHECK(r->g.end_move_span.offset == (uint64_t)(mt - in) && r->g.end_move_span.end == r->g.end_move_span.offset,
          "end_move_span is the empty span where the moves start (%zu)\n%s", (size_t)(mt - in), r->dump);
    CHECK(str_eq(r->adjudicated, "1/2-1/2"), "drawn\n%s", r->dump);
    recs_free(&rs);

    /* No end: no end_move_span. */
    rs = READ("1. e4 *\n");
    NO_SPAN("end_move_span", rs.v[0].g.end_move_span, &rs.v[0]);
    recs_free(&rs);
}
END_TEST

/* ---- the API itself ---- */

START_TEST(api_names_and_defaults)
{
    static const char *const facts[] = { "checkmate", "stalemate", "insufficient", "dead",
                                         "fivefold", "seventyfive", "threefold", "fifty",
                                         "white_cannot_win", "black_cannot_win" };
    for (int f = 0; f < ARB_FACT_COUNT; f++)
        CHECK(strcmp(arb_fact_name((arb_fact)f), facts[f]) == 0, "fact %d is \"%s\"", f, arb_fact_name((arb_fact)f));
    static const char *const st[] = { "ok", "illegal", "syntax", "badfen", "unsupported" };
    for (int s = 0; s < 5; s++)
        CHECK(strcmp(arb_status_name((arb_status)s), st[s]) == 0, "status %d", s);
    static const char *const v[] = { "consistent", "wrong-result", "wrong-reason", "moves-after-end",
                                     "unfinished", "unreadable",   "self-contradictory" };
    CHECK(sizeof v / sizeof v[0] == ARB_VERDICT_COUNT, "a name for each verdict");
    for (int i = 0; i < ARB_VERDICT_COUNT; i++)
        CHECK(strcmp(arb_verdict_name((arb_verdict)i), v[i]) == 0, "verdict %d", i);
    /* The names of issue 21, which scripts rely on. */
    static const char *const claims[] = { "checkmate", "stalemate", "threefold", "fifty", "insufficient", "time",
                                          "time-insufficient", "resignation", "agreement", "adjudication",
                                          "abandoned", "illegal-move", "normal", "unterminated", "other",
                                          "fivefold", "seventyfive" };
    CHECK(ARB_CLAIM_COUNT == 17, "%d claims", (int)ARB_CLAIM_COUNT);
    for (int i = 0; i < ARB_CLAIM_COUNT; i++)
        CHECK(strcmp(arb_claim_name((arb_claim)i), claims[i]) == 0, "claim %d is \"%s\"", i,
              arb_claim_name((arb_claim)i));
    static const char *const checks[] = { "confirmed", "contradicted", "site-rule", "superseded", "unverifiable" };
    CHECK(ARB_CHECK_COUNT == 5, "%d checks", (int)ARB_CHECK_COUNT);
    for (int i = 0; i < ARB_CHECK_COUNT; i++)
        CHECK(strcmp(arb_check_name((arb_check)i), checks[i]) == 0, "check %d", i);
    CHECK(strcmp(arb_reason_from_name(ARB_FROM_TERMINATION), "Termination") == 0 &&
              strcmp(arb_reason_from_name(ARB_FROM_TERMINATION_DETAILS), "TerminationDetails") == 0 &&
              strcmp(arb_reason_from_name(ARB_FROM_COMMENT), "comment") == 0,
          "reason sources");
    CHECK(strcmp(arb_reading_name(ARB_READ_EXACT), "exact") == 0 && strcmp(arb_reading_name(ARB_READ_WORDS), "words") == 0 &&
              strcmp(arb_reading_name((arb_reading)2), "?") == 0,
          "readings");
    CHECK(strcmp(arb_claim_name(ARB_CLAIM_COUNT), "?") == 0 && strcmp(arb_check_name(ARB_CHECK_COUNT), "?") == 0,
          "out of range");
    const char *ver = arb_version();
    int a, b, c;
    char rest;
    CHECK(sscanf(ver, "%d.%d.%d%c", &a, &b, &c, &rest) == 3, "version \"%s\" is MAJOR.MINOR.PATCH", ver);

    /* NULL options are the defaults: null moves illegal, FIDE policy. */
    arb_options def = { .allow_null_moves = false, .policy = ARB_RULES_FIDE };
    const char *in = "1. e4 -- *\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n";
    recs_t a1 = READ(in), a2 = READ_OPT(in, &def);
    CHECK(strcmp(a1.dump, a2.dump) == 0, "NULL options differ from the defaults:\n%s\nvs\n%s", a1.dump, a2.dump);
    recs_free(&a1);
    recs_free(&a2);

    /* arb_reader_free(NULL) is harmless; a reader freed unfinished leaks nothing. */
    arb_reader_free(NULL);
    arb_reader *r = arb_reader_new(NULL);
    ck_assert_ptr_nonnull(r);
    arb_reader_feed(r, "[Event \"x\"]\n1. e4", 17);
    CHECK(arb_reader_next(r, NULL) == NULL, "no game is complete yet");
    arb_reader_free(r);
}
END_TEST

/* Variant values, as setup() and --explain read them: PGN's "Chess960"
 * and the names other programs write, case, blanks, hyphens and
 * underscores aside; standard chess by several names; anything else is
 * another game. */
START_TEST(variant_names)
{
    static const struct {
        const char *value;
        enum variant want;
    } cases[] = {
        { "Standard", VARIANT_STANDARD },       { "standard", VARIANT_STANDARD },
        { "From Position", VARIANT_STANDARD },  { "", VARIANT_STANDARD },
        { "Normal", VARIANT_STANDARD },         { "chess", VARIANT_STANDARD },
        { "Chess960", VARIANT_CHESS960 },       { "chess 960", VARIANT_CHESS960 },
        { "Fischer-Random", VARIANT_CHESS960 }, { "fischerandom", VARIANT_CHESS960 },
        { "960", VARIANT_CHESS960 },            { "fischer_random", VARIANT_CHESS960 },
        { "Crazyhouse", VARIANT_OTHER },        { "Atomic", VARIANT_OTHER },
        { "Chess 961", VARIANT_OTHER },         { "960 chess960", VARIANT_OTHER },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(tag_variant(cases[i].value) == cases[i].want, "\"%s\": %d, expected %d", cases[i].value,
              (int)tag_variant(cases[i].value), (int)cases[i].want);
}
END_TEST

static Suite *reader_suite(void)
{
    Suite *s = suite_create("reader");
    const struct { const char *name; const TTest *test; } cases[] = {
#define CASE(fn) { #fn, fn }
        CASE(variant_names),
        CASE(boundary_marker_ends_game),
        CASE(boundary_tags_after_movetext),
        CASE(boundary_repeated_tag_name),
        CASE(boundary_blank_lines_inside_a_game),
        CASE(boundary_tagless_games),
        CASE(boundary_moves_after_marker),
        CASE(boundary_one_record_per_game),
        CASE(boundary_where_span),
        CASE(chunks_golden_samples),
        CASE(chunks_tokens_across_cuts),
        CASE(status_illegal),
        CASE(status_ambiguous),
        CASE(status_syntax),
        CASE(status_facts_up_to_the_error),
        CASE(status_badfen),
        CASE(status_error_points_at_the_tag),
        CASE(status_fen_with_and_without_setup),
        CASE(status_variants),
        CASE(status_binary_junk),
        CASE(status_null_moves),
        CASE(null_move_0000),
        CASE(free_text_results),
        CASE(quirk_tag_line_with_trailing_text),
        CASE(tag_and_movetext_on_one_line),
        CASE(quirk_broken_tag_line),
        CASE(quirk_sf3_is_f3),
        CASE(quirk_truncated_move),
        CASE(quirk_stray_commas),
        CASE(quirk_move_glued_to_result),
        CASE(quirk_words_scanned_for_moves),
        CASE(facts_and_adjudication),
        CASE(spans_tags_and_marker),
        CASE(spans_roster_order),
        CASE(tags_limits),
        CASE(spans_in_second_game_crlf),
        CASE(spans_end_at_ply_zero),
        CASE(api_names_and_defaults),
        CASE(api_split_between_games),
#undef CASE
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TCase *tc = tcase_create(cases[i].name);
        tcase_add_test(tc, cases[i].test);
        tcase_set_timeout(tc, 300);
        suite_add_tcase(s, tc);
    }
    return s;
}

int main(void)
{
    return tu_run(reader_suite());
}
