/* rewrite.c: corrected Result tags and markers, every other byte kept. */
#include "rewrite.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adjudicate.h"
#include "lex.h"
#include "san.h"

struct rewriter {
    rewrite_options_t opt;
    char *buf;          /* the allocation, cap bytes */
    char *data;         /* stream bytes [base, base + len) not yet written, within buf */
    size_t len, cap;
    uint64_t base;
    char last;          /* the last byte written, '\n' at the start */
    const char *eol;    /* the last line end written: "\n" or "\r\n", NULL if none yet */
    uint64_t glue_at;   /* a marker was written just before this offset, whose byte was not
                           fed yet: a space goes first if it is a word's; UINT64_MAX if none */
    uint64_t spilled;   /* rewrite_spill() wrote the bytes before this offset as they are */
};

/* One change: replace [from, to) by text; insertions have from == to. */
struct patch {
    uint64_t from, to;
    char text[480];
};

rewriter_t *rewrite_new(rewrite_options_t opt)
{
    rewriter_t *w = calloc(1, sizeof *w);
    if (w) {
        w->opt = opt;
        w->last = '\n';
        w->glue_at = UINT64_MAX;
    }
    return w;
}

void rewrite_free(rewriter_t *w)
{
    if (!w)
        return;
    free(w->buf);
    free(w);
}

void rewrite_set_origin(rewriter_t *w, uint64_t offset, const char *line_end)
{
    w->base = offset;
    if (line_end) {
        w->eol = strcmp(line_end, "\r\n") == 0 ? "\r\n" : "\n";
        w->last = '\n';
    }
}

int rewrite_feed(rewriter_t *w, const char *buf, size_t len)
{
    size_t head = (size_t)(w->data - w->buf);
    if (head + w->len + len > w->cap) {
        /* Written bytes are dropped only now, not after every game. */
        if (w->len)
            memmove(w->buf, w->data, w->len);
        w->data = w->buf;
        if (w->len + len > w->cap) {
            size_t cap = w->cap ? w->cap : 1u << 16;
            while (cap < w->len + len)
                cap *= 2;
            char *d = realloc(w->buf, cap);
            if (!d)
                return -1;
            w->buf = w->data = d;
            w->cap = cap;
        }
    }
    memcpy(w->data + w->len, buf, len);
    w->len += len;
    return 0;
}

/* Bytes held before the last game_max, to look behind a game's first
 * byte (the byte before it, a byte order mark). */
#define SPILL_KEEP 16

static size_t game_max(const rewriter_t *w)
{
    return w->opt.game_max ? w->opt.game_max : REWRITE_GAME_MAX;
}

static void emit(rewriter_t *w, strbuf_t *out, uint64_t upto);

/* The bytes held all follow the last game written and lie before the end
 * of the game under way, so if that game is no longer than game_max it
 * starts within the last game_max of them: what goes before is not its. */
void rewrite_spill(rewriter_t *w, strbuf_t *out)
{
    size_t keep = game_max(w) + SPILL_KEEP;
    if (w->len <= keep)
        return;
    emit(w, out, w->base + (w->len - keep));
    w->spilled = w->base;
}

const char *rewrite_target(const arb_game *g)
{
    if (g->status != ARB_OK)
        return NULL;
    if (adjudicate_is_result(g->adjudicated))
        return g->adjudicated;
    if (adjudicate_is_result(g->marker))
        return g->marker;
    return "*";
}

/* The line end the game uses: that of its first line; for a game on one
 * line, the one before it (which -j gives a piece's rewriter when it cuts
 * there: rewrite_set_origin()), else the first one after it. */
static const char *line_end(const rewriter_t *w, const arb_game *g)
{
    uint64_t from = g->where.offset, to = g->where.end;
    for (uint64_t o = from; o < to && o - w->base < w->len; o++) {
        if (w->data[o - w->base] == '\n')
            return o > w->base && w->data[o - w->base - 1] == '\r' ? "\r\n" : "\n";
    }
    /* Back over the bytes before the game not written yet, then the last
     * line end written. */
    for (uint64_t o = from; o > w->base && o - w->base <= w->len; o--) {
        if (w->data[o - 1 - w->base] == '\n') {
            char before = o - 1 > w->base ? w->data[o - 2 - w->base] : w->last;
            return before == '\r' ? "\r\n" : "\n";
        }
    }
    if (w->eol)
        return w->eol;
    for (uint64_t o = to; o - w->base < w->len; o++) {
        if (w->data[o - w->base] == '\n')
            return o > w->base && w->data[o - w->base - 1] == '\r' ? "\r\n" : "\n";
    }
    return "\n";
}

/* Does a line end (or the end of the input) follow stream offset o, blanks
 * aside, so that a tag inserted there ends its own line? */
static bool line_follows(const rewriter_t *w, uint64_t o)
{
    for (; o >= w->base && o - w->base < w->len; o++) {
        char c = w->data[o - w->base];
        if (c == '\n' || c == '\r')
            return true;
        if (c != ' ' && c != '\t')
            return false;
    }
    return true;
}

/* The byte at stream offset o if it is still held, else def. */
static char byte_at(const rewriter_t *w, uint64_t o, char def)
{
    return o >= w->base && o - w->base < w->len ? w->data[o - w->base] : def;
}

/* A tag pair with the value escaped as the PGN standard asks. */
static void tag_text(char *out, size_t cap, const char *name, const char *value)
{
    size_t n = (size_t)snprintf(out, cap, "[%s \"", name);
    for (const char *v = value; *v && n + 4 < cap; v++) {
        if (*v == '"' || *v == '\\')
            out[n++] = '\\';
        out[n++] = *v;
    }
    snprintf(out + n, cap - n, "\"]");
}

static int add(struct patch *p, int n, uint64_t from, uint64_t to, const char *a, const char *b, const char *c)
{
    p[n].from = from;
    p[n].to = to;
    snprintf(p[n].text, sizeof p[n].text, "%s%s%s", a, b, c);
    return n + 1;
}

/* Remembers the last byte and line end of text about to be written. */
static void note_written(rewriter_t *w, const char *text, size_t n)
{
    if (!n)
        return;
    w->last = text[n - 1];
    for (size_t i = n; i-- > 0;) {
        if (text[i] == '\n') {
            w->eol = i > 0 && text[i - 1] == '\r' ? "\r\n" : "\n";
            break;
        }
    }
}

/* Whether c can be part of a word of movetext ("23*" reads as one). */
static bool word_char(char ch)
{
    unsigned char c = (unsigned char)ch;
    return c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
           (c && strchr("_+#=:/.!?@~-", c));
}

/* Before writing `first` at w->base: the space a marker written before
 * it needs if first would glue to it (see glue_at). */
static void glue(rewriter_t *w, strbuf_t *out, char first)
{
    if (w->base < w->glue_at)
        return;
    if (w->glue_at == w->base && word_char(first)) {
        note_written(w, " ", 1);
        strbuf_append(out, " ", 1);
    }
    w->glue_at = UINT64_MAX;
}

static void emit(rewriter_t *w, strbuf_t *out, uint64_t upto)
{
    if (upto > w->base + w->len)
        upto = w->base + w->len;
    if (upto <= w->base)
        return;
    size_t n = (size_t)(upto - w->base);
    if (w->glue_at != UINT64_MAX)
        glue(w, out, w->data[0]);
    note_written(w, w->data, n);
    strbuf_append(out, w->data, n);
    w->data += n;
    w->len -= n;
    w->base = upto;
}

/* Whether target, written after the stream bytes [from, upto) and sep, is
 * read as a termination marker (a ; comment, an open { comment or a broken
 * tag line at the end would swallow it).  from is where a token starts. */
static bool marker_fits(const rewriter_t *w, uint64_t from, uint64_t upto, const char *sep, const char *target)
{
    char tail[16];
    int k = snprintf(tail, sizeof tail, "%s%s", sep, target);
    lexer_t *lx = lex_new();
    if (!lx || from < w->base || upto > w->base + w->len || k <= 0 || (size_t)k >= sizeof tail) {
        lex_free(lx);
        return true; /* cannot tell: as before */
    }
    lex_token_t t, last = { .kind = TOK_MORE };
    lex_feed(lx, w->data + (from - w->base), (size_t)(upto - from));
    while (lex_next(lx, &t) != TOK_MORE)
        ;
    lex_feed(lx, tail, (size_t)k);
    while (lex_next(lx, &t) != TOK_MORE)
        last = t;
    lex_finish(lx);
    while (lex_next(lx, &t) != TOK_EOF)
        last = t;
    lex_free(lx);
    return last.kind == TOK_RESULT && last.offset == upto - from + strlen(sep) && last.end == upto - from + (uint64_t)k;
}

/* Whether a blank or a delimiter ends a word here, for the scan below. */
static bool word_break(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\0' || strchr("{}()[];\"$%", c);
}

/* Whether c ends a token of movetext: a word break, or a '*', which the
 * tokenizer always reads as a token of its own. */
static bool token_break(char c)
{
    return c == '*' || word_break(c);
}

/* The pieces python-chess's scanner reads in text, up to and including
 * the first result, as (kind, start, length) triples; returns the count. */
static int scan_pieces(const char *text, size_t len, size_t piece[][3], int cap)
{
    size_t pos = 0, start, n;
    enum san_scan kind;
    int k = 0;
    while (k < cap && (kind = san_scan(text, len, &pos, &start, &n)) != SCAN_NONE) {
        piece[k][0] = (size_t)kind;
        piece[k][1] = start;
        piece[k][2] = n;
        k++;
        if (kind == SCAN_RESULT)
            break;
    }
    return k;
}

/* A marker read inside a longer word ("Rd6+1-0") is replaced in place
 * only if the word then reads the same with the new result: "Ra0-15." with
 * 1/2-1/2 in it would read as the move Ra1 and no result, so such a game is
 * left as it is.  `from` is the first byte kept before the marker. */
static bool swap_reads_same(const rewriter_t *w, const arb_game *g, uint64_t from, const char *target)
{
    enum { CONTEXT = 16 };
    char old[3 * CONTEXT + 8], new[3 * CONTEXT + 8];
    uint64_t m0 = g->marker_span.offset, m1 = g->marker_span.end;
    if (m1 - m0 > 8)
        return false;
    /* The word around the marker: up to a break or a '*', which is a
     * token of its own however it is glued ("0-11-0*" is the word "0-11-0"
     * and the marker "*"), so that what follows it changes nothing. */
    uint64_t a = m0;
    while (a > from && m0 - a < CONTEXT && !token_break(byte_at(w, a - 1, ' ')))
        a--;
    bool whole = a == from || token_break(byte_at(w, a - 1, ' '));
    uint64_t b = m1;
    while (b - m1 < CONTEXT && !token_break(byte_at(w, b, ' ')))
        b++;
    whole = whole && token_break(byte_at(w, b, ' '));
    size_t left = (size_t)(m0 - a), tl = strlen(target);
    size_t on = 0, nn = 0;
    for (uint64_t o = a; o < m0; o++)
        old[on++] = new[nn++] = byte_at(w, o, ' ');
    for (uint64_t o = m0; o < m1; o++)
        old[on++] = byte_at(w, o, ' ');
    memcpy(new + nn, target, tl);
    nn += tl;
    for (uint64_t o = m1; o < b; o++)
        old[on++] = new[nn++] = byte_at(w, o, ' ');
    /* A whole word that reads as one move is played as one. */
    san_syntax_t s;
    if (whole && san_parse(new, nn, &s) == 0)
        return false;
    /* It must stay one word: in "-*-" the tokenizer reads a marker and a
     * word after it, which would start another game. */
    lexer_t *lx = lex_new();
    if (!lx)
        return false;
    lex_feed(lx, new, nn);
    lex_finish(lx);
    lex_token_t t;
    int words = 0;
    bool one = true;
    while (lex_next(lx, &t) != TOK_EOF) {
        words++;
        one = one && t.kind == TOK_SYMBOL && t.offset == 0 && t.end == nn;
    }
    lex_free(lx);
    if (words != 1 || !one)
        return false;
    size_t po[8][3], pn[8][3];
    int ko = scan_pieces(old, on, po, 8), kn = scan_pieces(new, nn, pn, 8);
    if (ko != kn || kn == 0 || pn[kn - 1][0] != SCAN_RESULT || pn[kn - 1][1] != left || pn[kn - 1][2] != tl)
        return false;
    for (int i = 0; i < kn - 1; i++)
        if (po[i][0] != pn[i][0] || po[i][1] != pn[i][1] || po[i][2] != pn[i][2])
            return false;
    return true;
}

/* Whether --fix would change g, told from g alone: for a game too long to
 * hold, which is copied as it is. */
static bool wants_change(const rewriter_t *w, const arb_game *g, const char *target)
{
    bool cut = w->opt.truncate && g->has_end && (uint32_t)g->end_ply < g->plies;
    bool annotate = w->opt.annotate && g->adjudication && (!g->result || strcmp(g->result, target) != 0);
    bool marker = g->marker_span.end ? strcmp(g->marker, target) != 0 : !g->open_variation || cut;
    return !g->result_tag.end || !g->result || strcmp(g->result, target) != 0 || annotate || marker || cut;
}

int rewrite_game(rewriter_t *w, const arb_game *g, strbuf_t *out)
{
    const char *target = rewrite_target(g);
    struct patch p[6];
    int n = 0;
    if (g->where.end - g->where.offset > game_max(w) || g->where.offset < w->spilled) {
        emit(w, out, g->where.end);
        return target && wants_change(w, g, target) ? -2 : 0;
    }
    if (target) {
        bool cut = w->opt.truncate && g->has_end && (uint32_t)g->end_ply < g->plies &&
                   g->end_move_span.end > g->where.offset;
        uint64_t c = g->end_move_span.end;
        /* A cut inside a word ("Nf3Nc6", ending after Nf3) would leave a
         * different word, which may read as something else ("0000Nf6" cut
         * to "0000" is a move number). */
        bool cut_in_word = cut && c > g->where.offset && !word_break(byte_at(w, c - 1, ' ')) &&
                           !word_break(byte_at(w, c, ' '));
        bool swap = g->marker_in_word && g->marker_span.end && strcmp(g->marker, target) != 0;
        if (cut_in_word || (swap && !swap_reads_same(w, g, cut ? c : g->where.offset, target))) {
            emit(w, out, g->where.end);
            return -1;
        }
    }
    if (target) {
        const char *eol = line_end(w, g);
        char tag[200];
        bool tagless = g->ntags == 0;
        /* Result tag: corrected, or added after the tags (before the movetext of a tagless game). */
        char why[200] = "";
        bool annotate = w->opt.annotate && g->adjudication && (!g->result || strcmp(g->result, target) != 0);
        if (annotate)
            tag_text(why, sizeof why, "Adjudication", g->adjudication);
        tag_text(tag, sizeof tag, "Result", target);
        if (g->result_tag.end) {
            if (!g->result || strcmp(g->result, target) != 0)
                n = add(p, n, g->result_tag.offset, g->result_tag.end, tag, "", "");
        } else if (tagless) {
            /* A tag section of its own before the movetext, on lines of its
             * own: Result, then why. */
            char head[440];
            char before = g->where.offset == w->base ? w->last : byte_at(w, g->where.offset - 1, '\n');
            bool after_bom = g->where.offset == 3 && byte_at(w, 0, 0) == '\xEF' && byte_at(w, 1, 0) == '\xBB' &&
                             byte_at(w, 2, 0) == '\xBF';
            bool line_start = before == '\n' || before == '\r' || after_bom;
            snprintf(head, sizeof head, "%s%s%s%s%s", line_start ? "" : eol, tag, eol, why, annotate ? eol : "");
            n = add(p, n, g->where.offset, g->where.offset, head, eol, "");
            annotate = false;
        } else {
            /* After the last tag; movetext on the same line moves to the next. */
            n = add(p, n, g->tags_end.end, g->tags_end.end, eol, tag, line_follows(w, g->tags_end.end) ? "" : eol);
        }
        /* Why the rules changed it, after the Seven Tag Roster. */
        if (annotate) {
            if (g->adjudication_tag.end)
                n = add(p, n, g->adjudication_tag.offset, g->adjudication_tag.end, why, "", "");
            else if (g->roster_end.end)
                n = add(p, n, g->roster_end.end, g->roster_end.end, eol, why,
                        line_follows(w, g->roster_end.end) ? "" : eol);
            else
                n = add(p, n, g->tags_end.end, g->tags_end.end, eol, why, line_follows(w, g->tags_end.end) ? "" : eol);
        }
        /* Moves after the end, then the marker. */
        bool cut = w->opt.truncate && g->has_end && (uint32_t)g->end_ply < g->plies &&
                   g->end_move_span.end > g->where.offset;
        uint64_t cut_from = cut ? g->end_move_span.end : 0;
        if (!g->marker_span.end && g->open_variation && !cut) {
            /* A marker after an unclosed '(' would sit inside the variation.
             * (A cut always removes it: the last main-line move comes before
             * the unclosed '(', so then the marker goes after that move.) */
        } else if (g->marker_span.end) {
            if (cut)
                n = add(p, n, cut_from, g->marker_span.offset, g->end_ply ? " " : "", "", "");
            if (strcmp(g->marker, target) != 0) {
                /* A marker that was a word of its own but touches the text
                 * before it ("23*") keeps apart from it; one read inside a
                 * longer word stays in it. */
                uint64_t at = g->marker_span.offset;
                char before = at == w->base ? w->last : byte_at(w, at - 1, ' ');
                bool glued = at > 0 && !g->marker_in_word && word_char(before);
                /* Nor may the text before it take in the new marker: after
                 * "$", "1/2-1/2" would start a NAG ($1). */
                if (!glued && !g->marker_in_word && !cut && at > g->where.offset &&
                    !marker_fits(w, g->where.offset, at, "", target))
                    glued = true;
                /* The byte after it may not have been fed yet (a marker is a
                 * token of its own): then the space is decided when it is. */
                uint64_t end = g->marker_span.end;
                bool known = end - w->base < w->len;
                bool glued_after = !g->marker_in_word && known && word_char(byte_at(w, end, ' '));
                if (!g->marker_in_word && !known)
                    w->glue_at = end;
                n = add(p, n, at, end, glued ? " " : "", target, glued_after ? " " : "");
            }
        } else {
            uint64_t at = g->where.end;
            if (cut) {
                n = add(p, n, cut_from, at, "", "", "");
            }
            /* The marker goes after the last token kept, on its line if it
             * is read there as a marker, else on a line of its own (after a
             * ; comment or a broken tag line); none inside an open comment. */
            uint64_t upto = cut ? cut_from : at;
            const char *sep = !g->has_movetext ? "\n\n" : g->end_ply == 0 && cut ? "" : " ";
            if (!marker_fits(w, g->where.offset, upto, sep, target))
                sep = marker_fits(w, g->where.offset, upto, "\n", target) ? "\n" : NULL;
            if (sep && !g->has_movetext)
                n = add(p, n, at, at, eol, eol, target);
            else if (sep)
                n = add(p, n, at, at, sep[0] == '\n' ? eol : sep, target, "");
        }
    }
    /* Patches are made in offset order; ties keep the order they were added. */
    for (int i = 1; i < n; i++) {
        struct patch t = p[i];
        int j = i - 1;
        while (j >= 0 && p[j].from > t.from) {
            p[j + 1] = p[j];
            j--;
        }
        p[j + 1] = t;
    }
    for (int i = 0; i < n; i++) {
        emit(w, out, p[i].from);
        if (w->glue_at != UINT64_MAX && p[i].text[0])
            glue(w, out, p[i].text[0]);
        note_written(w, p[i].text, strlen(p[i].text));
        strbuf_puts(out, p[i].text);
        /* Skip the replaced bytes. */
        if (p[i].to > w->base) {
            size_t k = (size_t)(p[i].to - w->base);
            if (k > w->len)
                k = w->len;
            w->data += k;
            w->len -= k;
            w->base += k;
        }
    }
    emit(w, out, g->where.end);
    return n > 0;
}

void rewrite_finish(rewriter_t *w, strbuf_t *out)
{
    emit(w, out, w->base + w->len);
}
