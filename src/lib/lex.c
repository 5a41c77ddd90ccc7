/* lex.c: the streaming PGN tokenizer (interface and contract in lex.h).
 *
 * One resumable scanner per token kind.  A token that starts and ends in the
 * chunk being lexed is handed out as a pointer into that chunk.  When a chunk
 * ends inside a token, the scanner copies the bytes it will still need into
 * the lexer's capped buffers, saves its state and asks for more; the next
 * chunk resumes the same code.
 *
 * The common shapes (a move, a move number, a plain tag on its line) are
 * first read by fast paths that only answer when the whole token lies in
 * the chunk and is plain; anything else is read again from its first byte
 * by the resumable scanners.  A fast path never answers differently from
 * them, so the token stream cannot depend on where the chunks were cut.
 *
 * Memory is bounded: LEX_MAX_SYMBOL bytes for a symbol (or for the head of a
 * bad tag line), LEX_MAX_NAME for a tag name and RAW_MAX for the raw bytes of
 * a tag value, whatever the input. */

#include "lex.h"
#include "lex_internal.h"
#include "lex_plain.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>



/* The first byte c at or after index i of the chunk (its length if none),
 * from the cache [*from, *at] when i is inside it: each byte is searched
 * once, so a file of lone \r stays linear. */
static size_t next_of(const lexer_t *lx, int c, size_t i, size_t *from, size_t *at)
{
    if (i < *from || i > *at) {
        size_t n = (size_t)(lx->end - lx->chunk);
        const unsigned char *hit = memchr(lx->chunk + i, c, n - i);
        *from = i;
        *at = hit ? (size_t)(hit - lx->chunk) : n;
    }
    return *at;
}

/* Counts the line ends in chunk[i..n). */
static void count_lines_from(lexer_t *lx, size_t i, size_t n)
{
    for (;;) {
        size_t lf = next_of(lx, '\n', i, &lx->lf_from, &lx->lf_at);
        size_t cr = next_of(lx, '\r', i, &lx->cr_from, &lx->cr_at);
        size_t e = lf < cr ? lf : cr;
        if (e >= n)
            return;
        line_end(lx, lx->chunk + e);
        i = e + 1;
    }
}

/* Counts the line ends in [a, b), both in the chunk. */
static inline void count_lines(lexer_t *lx, const unsigned char *a, const unsigned char *b)
{
    size_t i = (size_t)(a - lx->chunk), n = (size_t)(b - lx->chunk);
    /* Most often the cache already knows the next line end is further. */
    if (i < lx->lf_from || n > lx->lf_at || i < lx->cr_from || n > lx->cr_at)
        count_lines_from(lx, i, n);
}

/* The first \n or \r in [p, end), or NULL. */
static const unsigned char *find_eol(const unsigned char *p, const unsigned char *end)
{
    const unsigned char *lf = memchr(p, '\n', (size_t)(end - p));
    const unsigned char *cr = memchr(p, '\r', (size_t)((lf ? lf : end) - p));
    return cr ? cr : lf;
}

/* Starts a token at p. */
static inline void start(lexer_t *lx, const unsigned char *p, enum state st)
{
    lx->st = st;
    lx->t_off = off_of(lx, p);
    lx->t_line = lx->line;
    lx->t_col = col_at(lx->line_start, lx->t_off);
    lx->seg = p;
    lx->inbuf = false;
    lx->btrunc = false;
    lx->blen = 0;
}

/* Symbols: the symbol, result or NAG made by the bytes up to q. */
static lex_kind_t end_symbol(lexer_t *lx, lex_token_t *tok, const unsigned char *q)
{
    enum state st = lx->st;
    lx->p = q;
    emit(lx, tok, st == ST_DOTS ? TOK_MOVENUM : TOK_SYMBOL, off_of(lx, q));
    take_text(lx, tok, q);
    if (st != ST_SYM || tok->truncated)
        return tok->kind;
    const char *s = tok->text;
    size_t n = tok->len;
    switch (s[0]) { /* moves start with a letter: decide on the first byte */
    case '0':
    case '1':
        if ((n == 3 && (memcmp(s, "1-0", 3) == 0 || memcmp(s, "0-1", 3) == 0)) ||
            (n == 7 && memcmp(s, "1/2-1/2", 7) == 0))
            tok->kind = TOK_RESULT;
        break;
    case '!':
    case '?':
        /* PGN standard 10: $1 !  $2 ?  $3 !!  $4 ??  $5 !?  $6 ?! */
        if (n == 1)
            tok->nag = s[0] == '!' ? 1 : 2;
        else if (n == 2 && (s[1] == '!' || s[1] == '?'))
            tok->nag = s[0] == s[1] ? (s[0] == '!' ? 3 : 4) : (s[0] == '!' ? 5 : 6);
        else
            break;
        tok->kind = TOK_NAG;
        tok->text = NULL;
        tok->len = 0;
        break;
    default:
        break;
    }
    return tok->kind;
}

/* A token cut by the chunk's end at p: its bytes so far are kept and the
 * scanner resumes in the next chunk. */
static int await_more(lexer_t *lx, const unsigned char *p)
{
    keep(lx, lx->seg, (size_t)(p - lx->seg));
    lx->p = p;
    return TOK_MORE;
}

/* Symbols and move numbers.  A run of digits followed by dots is a move
 * number ending at the last dot; the rest of the run is the next token. */
static int scan_symbol(lexer_t *lx, lex_token_t *tok)
{
    const unsigned char *p = lx->p, *end = lx->end;
    for (;;) {
        switch (lx->st) {
        case ST_DIGITS:
            while (p < end && (cls[*p] & C_DIGIT))
                p++;
            if (p == end)
                break;
            if (*p == '.') {
                lx->st = ST_DOTS;
                p++;
                continue;
            }
            if (!(cls[*p] & C_SYM))
                return end_symbol(lx, tok, p);
            lx->st = ST_SYM;
            continue;
        case ST_DOTS:
            while (p < end && *p == '.')
                p++;
            if (p == end)
                break;
            return end_symbol(lx, tok, p);
        default:
            while (p < end && (cls[*p] & C_SYM))
                p++;
            if (p == end)
                break;
            return end_symbol(lx, tok, p);
        }
        /* p == end */
        if (lx->finished)
            return end_symbol(lx, tok, p);
        return await_more(lx, p);
    }
}

/* $ and digits: a NAG 0..255; no digits or a bigger number is TOK_BAD. */
static int scan_nag(lexer_t *lx, lex_token_t *tok)
{
    const unsigned char *p = lx->p, *end = lx->end;
    while (p < end && (cls[*p] & C_DIGIT)) {
        if (lx->nag < 1000)
            lx->nag = lx->nag * 10 + (unsigned)(*p - '0');
        lx->ndigits++;
        p++;
    }
    if (p == end && !lx->finished)
        return await_more(lx, p);
    lx->p = p;
    if (lx->ndigits == 0 || lx->nag > 255) {
        emit(lx, tok, TOK_BAD, off_of(lx, p));
        take_text(lx, tok, p);
        return TOK_BAD;
    }
    emit(lx, tok, TOK_NAG, off_of(lx, p));
    tok->nag = (int)lx->nag;
    return TOK_NAG;
}

/* A maximal run of bytes that are not PGN. */
static int scan_bad(lexer_t *lx, lex_token_t *tok)
{
    const unsigned char *p = lx->p, *end = lx->end;
    while (p < end && (cls[*p] & C_BAD))
        p++;
    if (p == end && !lx->finished)
        return await_more(lx, p);
    lx->p = p;
    emit(lx, tok, TOK_BAD, off_of(lx, p));
    take_text(lx, tok, p);
    return TOK_BAD;
}

/* Appends s[0..n) to the kept end of the comment under way (its last
 * LEX_COMMENT_TAIL bytes), for a comment that spans chunks or is read by
 * the slow scanners. */
static void comment_add(lexer_t *lx, const unsigned char *s, size_t n)
{
    lx->c_n += n; /* bytes of its text so far */
    if (n >= LEX_COMMENT_TAIL) {
        memcpy(lx->ctail, s + n - LEX_COMMENT_TAIL, LEX_COMMENT_TAIL);
        lx->c_tlen = LEX_COMMENT_TAIL;
        return;
    }
    if (lx->c_tlen + n > LEX_COMMENT_TAIL) {
        size_t drop = lx->c_tlen + n - LEX_COMMENT_TAIL;
        memmove(lx->ctail, lx->ctail + drop, lx->c_tlen - drop);
        lx->c_tlen -= drop;
    }
    memcpy(lx->ctail + lx->c_tlen, s, n);
    lx->c_tlen += n;
}

/* The comment a slow scanner read ends before q (} or the line end): it
 * becomes the last comment kept. */
static void comment_done(lexer_t *lx, const unsigned char *q)
{
    lx->c_fresh = false;
    lx->c_has = true;
    lx->c_fast = false;
    lx->c_whole = lx->c_n <= LEX_COMMENT_TAIL;
    lx->c_off = lx->t_off;
    lx->c_line = lx->t_line;
    lx->c_col = lx->t_col;
    lx->c_eline = lx->line;
    lx->c_ecol = col_at(lx->line_start, off_of(lx, q));
}

/* { comment }: no nesting, may span lines. */
static int scan_brace(lexer_t *lx, lex_token_t *tok)
{
    const unsigned char *p = lx->p, *end = lx->end;
    const unsigned char *q = memchr(p, '}', (size_t)(end - p));
    count_lines(lx, p, q ? q : end);
    if (lx->c_fresh)
        comment_add(lx, p, (size_t)((q ? q : end) - p));
    if (q) {
        if (lx->c_fresh)
            comment_done(lx, q);
        lx->p = q + 1;
        return emit(lx, tok, TOK_COMMENT, off_of(lx, q) + 1);
    }
    lx->p = end;
    if (!lx->finished)
        return TOK_MORE;
    if (lx->c_fresh)
        comment_done(lx, end);
    emit(lx, tok, TOK_COMMENT, off_of(lx, end));
    tok->unterminated = true;
    return TOK_COMMENT;
}

/* ; comment and % escape line: up to (not including) the line end. */
static int scan_to_eol(lexer_t *lx, lex_token_t *tok)
{
    const unsigned char *q = find_eol(lx->p, lx->end);
    bool keep = lx->c_fresh && lx->st == ST_SEMI;
    if (!q) {
        q = lx->end;
        if (!lx->finished) {
            if (keep)
                comment_add(lx, lx->p, (size_t)(q - lx->p));
            lx->p = q;
            return TOK_MORE;
        }
    }
    if (keep) {
        comment_add(lx, lx->p, (size_t)(q - lx->p));
        comment_done(lx, q);
    }
    lx->p = q;
    if (lx->st == ST_PCT) {
        lx->st = ST_IDLE;
        return NO_TOKEN;
    }
    return emit(lx, tok, TOK_COMMENT, off_of(lx, q));
}

/* A UTF-8 byte order mark at the stream start is skipped.  A partial one
 * (EF or EF BB then something else) is the start of a symbol. */
static int scan_bom(lexer_t *lx, lex_token_t *tok)
{
    static const unsigned char bom[3] = {0xEF, 0xBB, 0xBF};
    const unsigned char *p = lx->p, *end = lx->end;
    while (lx->bom < 3) {
        if (p == end) {
            if (!lx->finished) {
                lx->p = p;
                return TOK_MORE;
            }
            break;
        }
        if (*p != bom[lx->bom])
            break;
        p++;
        lx->bom++;
    }
    lx->p = p;
    lx->st = ST_IDLE;
    if (lx->bom == 3) {
        lx->line_start = 3; /* column 1 is after the mark, as in editors */
        return NO_TOKEN;
    }
    if (lx->bom == 0)
        return NO_TOKEN;
    start(lx, p, ST_SYM);
    lx->t_off = 0;
    lx->t_col = 1;
    keep(lx, bom, lx->bom);
    return scan_symbol(lx, tok);
}

/* ---- fast paths: whole tokens in the chunk, common shapes only ---- */

/* A symbol, move number, result or glyph starting at p and ending in the
 * chunk, as scan_symbol() and end_symbol() would read it; NO_TOKEN if it
 * reaches the chunk's end or the cap (the scanners then take over).  A move
 * number whose kind is in skip (bits 1 << kind) is passed over: PASSED, its
 * end in *passed_end. */
static int fast_symbol(lexer_t *lx, lex_token_t *tok, const unsigned char *p, unsigned skip,
                       uint64_t *passed_end)
{
    const unsigned char *q = p + 1, *end = lx->end;
    lex_kind_t kind = TOK_SYMBOL;
    bool classify = true; /* ended in the ST_SYM state */
    if (cls[*p] & C_DIGIT) {
        while (q < end && (cls[*q] & C_DIGIT))
            q++;
        if (q == end)
            return NO_TOKEN;
        if (*q == '.') {
            do
                q++;
            while (q < end && *q == '.');
            kind = TOK_MOVENUM;
            classify = false;
        } else if (!(cls[*q] & C_SYM)) {
            classify = false;
        }
    }
    if (classify)
        while (q < end && (cls[*q] & C_SYM))
            q++;
    size_t n = (size_t)(q - p);
    if (q == end || n > LEX_MAX_SYMBOL)
        return NO_TOKEN;
    uint64_t off = off_of(lx, p);
    if (kind == TOK_MOVENUM && (skip >> TOK_MOVENUM & 1)) {
        *passed_end = off + n;
        lx->p = q + (*q == ' ');
        return PASSED;
    }
    int nag = 0;
    if (classify && cls[*p] != (C_SYM | C_NAME)) { /* not a letter: maybe a result or glyph */
        switch (p[0]) {
        case '0':
        case '1':
            if ((n == 3 && (memcmp(p, "1-0", 3) == 0 || memcmp(p, "0-1", 3) == 0)) ||
                (n == 7 && memcmp(p, "1/2-1/2", 7) == 0))
                kind = TOK_RESULT;
            break;
        case '!':
        case '?':
            /* PGN standard 10: $1 !  $2 ?  $3 !!  $4 ??  $5 !?  $6 ?! */
            if (n == 1)
                nag = p[0] == '!' ? 1 : 2;
            else if (n == 2 && (p[1] == '!' || p[1] == '?'))
                nag = p[0] == p[1] ? (p[0] == '!' ? 3 : 4) : (p[0] == '!' ? 5 : 6);
            if (nag)
                kind = TOK_NAG;
            break;
        default:
            break;
        }
    }
    *tok = (lex_token_t){
        .kind = kind,
        .offset = off,
        .end = off + n,
        .line = lx->line,
        .col = col_at(lx->line_start, off),
        .text = nag ? NULL : (const char *)p,
        .len = nag ? 0 : n,
        .nag = nag,
    };
    lx->p = q + (*q == ' '); /* the usual blank after it, skipped now */
    return kind;
}

/* The length of the move at p when the sixteen bytes from p hold it whole,
 * ended by a blank or line end, and it is made of the bytes of most moves
 * ([A-Za-z1-9] + #); 0 otherwise, and the byte loop decides.  No loop: a
 * move is two to seven bytes long, and the exit of a loop over its bytes
 * was a mispredicted branch nearly every move.  Without '0' and '/', no
 * symbol read here holds a result ("Rd6+1-0"). */
static inline size_t usual_move_len(const unsigned char *p, const unsigned char *end)
{
#ifdef LEX_SSE2
    if (end - p < 16)
        return 0;
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i usual = _mm_or_si128(bytes_in(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 'z'), bytes_in(v, '1', '9'));
    usual = _mm_or_si128(usual, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('+')), _mm_cmpeq_epi8(v, _mm_set1_epi8('#'))));
    unsigned stop = (unsigned)_mm_movemask_epi8(bytes_in(v, 0, 0x20));
    if (!stop)
        return 0;
    unsigned len = (unsigned)__builtin_ctz(stop);
    return (~(unsigned)_mm_movemask_epi8(usual) & ((1u << len) - 1)) == 0 ? len : 0;
#else
    (void)p;
    (void)end;
    return 0;
#endif
}

/* The tag token of a plain_tag() from p to its ']' at close. */
static inline void plain_tag_token(const lexer_t *lx, lex_token_t *tok, const unsigned char *p,
                                   const unsigned char *close, const unsigned char *name, size_t nlen,
                                   const unsigned char *value, size_t vlen)
{
    uint64_t off = off_of(lx, p);
    *tok = (lex_token_t){
        .kind = TOK_TAG,
        .offset = off,
        .end = off + (uint64_t)(close - p) + 1,
        .line = lx->line,
        .col = col_at(lx->line_start, off),
        .text = (const char *)name,
        .len = nlen,
        .value = (const char *)value,
        .value_len = vlen,
    };
}

/* A plain tag (plain_tag()) as a token; NO_TOKEN for any other shape. */
static int fast_tag(lexer_t *lx, lex_token_t *tok, const unsigned char *p)
{
    const unsigned char *name, *value;
    size_t nlen, vlen;
    const unsigned char *close = plain_tag(p, lx->end, &name, &nlen, &value, &vlen);
    if (!close)
        return NO_TOKEN;
    plain_tag_token(lx, tok, p, close, name, nlen, value, vlen);
    lx->p = close + 1;
    return TOK_TAG;
}

/* The first '}' in [p, end), or a byte before it that may end a line (any
 * byte up to \r: \t and the like too, for fewer steps), or NULL.  Most
 * comments hold no such byte, and one pass then finds the end and tells
 * that there is no line to count (a search for the brace and another for
 * the line end took a fifth of the time on engine files, a comment after
 * every move). */
static inline const unsigned char *brace_or_eol(const unsigned char *p, const unsigned char *end)
{
#ifdef LEX_SSE2
    const __m128i brace = _mm_set1_epi8('}'), cr = _mm_set1_epi8('\r');
#define BRACE_OR_EOL(v) _mm_or_si128(_mm_cmpeq_epi8(v, brace), _mm_cmpeq_epi8(_mm_min_epu8(v, cr), v))
    /* 32 bytes a step: a comment is 100 to 200 bytes on engine files. */
    while (end - p >= 32) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
        unsigned m = (unsigned)_mm_movemask_epi8(BRACE_OR_EOL(a)) | (unsigned)_mm_movemask_epi8(BRACE_OR_EOL(b)) << 16;
        if (m)
            return p + __builtin_ctz(m);
        p += 32;
    }
    if (end - p >= 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
        unsigned m = (unsigned)_mm_movemask_epi8(BRACE_OR_EOL(a));
        if (m)
            return p + __builtin_ctz(m);
        p += 16;
    }
#undef BRACE_OR_EOL
#endif
    for (; p < end; p++)
        if (*p == '}' || *p <= '\r')
            return p;
    return NULL;
}

/* A { comment } that closes in the chunk, as scan_brace() reads it (or
 * passed over, as fast_symbol() passes a move number). */
static int fast_brace(lexer_t *lx, lex_token_t *tok, const unsigned char *p, unsigned skip,
                      uint64_t *passed_end)
{
    const unsigned char *q = brace_or_eol(p + 1, lx->end);
    bool lines = q && *q != '}'; /* a byte that may end a line comes first: count them */
    if (lines)
        q = memchr(q + 1, '}', (size_t)(lx->end - q - 1));
    if (!q)
        return NO_TOKEN;
    uint64_t off = off_of(lx, p), end = off_of(lx, q) + 1;
    int kind = skip >> TOK_COMMENT & 1 ? PASSED : TOK_COMMENT;
    if (kind == PASSED)
        *passed_end = end;
    else
        *tok = (lex_token_t){
            .kind = TOK_COMMENT,
            .offset = off,
            .end = end,
            .line = lx->line,
            .col = col_at(lx->line_start, off),
        };
    if (!lx->c_off_keep) {
        /* The last comment: where it is (fast_comment()). */
        lx->c_fast = true;
        lx->c_fb = p;
        lx->c_fq = q;
        lx->c_line = lx->line;
        lx->c_lstart = lx->line_start;
    }
    if (lines)
        count_lines(lx, p + 1, q);
    if (!lx->c_off_keep) {
        lx->c_eline = lx->line;
        lx->c_elstart = lx->line_start;
    }
    lx->p = q + 1;
    return kind;
}

/* Continues the token that the previous chunk ended in. */
static int resume(lexer_t *lx, lex_token_t *tok)
{
    switch (lx->st) {
    case ST_BOM:
        return scan_bom(lx, tok);
    case ST_DIGITS:
    case ST_DOTS:
    case ST_SYM:
        return scan_symbol(lx, tok);
    case ST_NAG:
        return scan_nag(lx, tok);
    case ST_BAD:
        return scan_bad(lx, tok);
    case ST_BRACE:
        return scan_brace(lx, tok);
    case ST_SEMI:
    case ST_PCT:
        return scan_to_eol(lx, tok);
    case ST_TAG:
        return lex_scan_tag(lx, tok);
    case ST_IDLE:
        break;
    }
    return NO_TOKEN;
}

/* The last comment, read by the fast path (c_fast), as lex_last_comment()
 * gives it. */
static void fast_comment(const lexer_t *lx, lex_comment_t *out)
{
    size_t n = (size_t)(lx->c_fq - lx->c_fb - 1);
    bool whole = n <= LEX_COMMENT_TAIL;
    size_t len = whole ? n : LEX_COMMENT_TAIL;
    uint64_t off = off_of(lx, lx->c_fb);
    *out = (lex_comment_t){
        .text = (const char *)(lx->c_fq - len),
        .len = len,
        .whole = whole,
        .offset = off,
        .line = lx->c_line,
        .col = col_at(lx->c_lstart, off),
        .end_line = lx->c_eline,
        .end_col = col_at(lx->c_elstart, off_of(lx, lx->c_fq)),
    };
}

/* The chunk is done with: remember whether it ended with \r, and never
 * read it again (the caller may reuse it once it sees TOK_MORE). */
static void retire(lexer_t *lx)
{
    if (!lx->drained && lx->end > lx->chunk)
        lx->cr_last = lx->end[-1] == '\r';
    if (lx->c_fast) {
        /* The last comment outlives the chunk: its end and its place. */
        lex_comment_t c;
        fast_comment(lx, &c);
        memcpy(lx->ctail, c.text, c.len);
        lx->c_tlen = c.len;
        lx->c_whole = c.whole;
        lx->c_off = c.offset;
        lx->c_col = c.col;
        lx->c_ecol = c.end_col;
        lx->c_fast = false;
        lx->c_has = true;
    }
    lx->drained = true;
    lx->base += (uint64_t)(lx->end - lx->chunk);
    lx->chunk = lx->p = lx->end = lx->seg = lx->nseg = lx->vseg = empty_chunk;
    lx->lf_from = lx->cr_from = SIZE_MAX; /* nothing cached for the next chunk */
}

/* The chunk is used up: TOK_MORE, or TOK_EOF after lex_finish(). */
static lex_kind_t at_end(lexer_t *lx, lex_token_t *tok, lex_kind_t kind)
{
    if (kind == TOK_MORE)
        retire(lx);
    uint64_t off = off_of(lx, lx->end);
    *tok = (lex_token_t){
        .kind = kind,
        .offset = off,
        .end = off,
        .line = lx->line,
        .col = col_at(lx->line_start, off),
    };
    return kind;
}

/* A slow scanner starts a comment: kept unless keeping is off. */
static void comment_start(lexer_t *lx)
{
    lx->c_fresh = !lx->c_off_keep;
    if (lx->c_fresh) {
        lx->c_fast = false;
        lx->c_has = false;
        lx->c_n = lx->c_tlen = 0;
    }
}

void lex_keep_comments(lexer_t *lx, bool keep)
{
    lx->c_off_keep = !keep;
}

bool lex_last_comment(const lexer_t *lx, lex_comment_t *out)
{
    if (lx->c_fast) {
        fast_comment(lx, out);
        return true;
    }
    if (!lx->c_has)
        return false;
    *out = (lex_comment_t){
        .text = (const char *)lx->ctail,
        .len = lx->c_tlen,
        .whole = lx->c_whole,
        .offset = lx->c_off,
        .line = lx->c_line,
        .col = lx->c_col,
        .end_line = lx->c_eline,
        .end_col = lx->c_ecol,
    };
    return true;
}

/* Everything but the fast paths: resumed tokens, the pending token, the
 * chunk's end and the rarer token kinds. */
static lex_kind_t next_slow(lexer_t *lx, lex_token_t *tok)
{
    if (lx->has_pend) {
        *tok = lx->pend;
        lx->has_pend = false;
        return tok->kind;
    }
    if (lx->drained)
        return at_end(lx, tok, TOK_MORE);
    int k = NO_TOKEN;
    if (lx->st != ST_IDLE)
        k = resume(lx, tok);
    while (k == NO_TOKEN) {
        const unsigned char *p = lx->p, *end = lx->end;
        while (p < end && (cls[*p] & C_WS)) {
            if (cls[*p] & C_EOL)
                line_end(lx, p);
            p++;
        }
        if (p == end)
            return at_end(lx, tok, lx->finished ? TOK_EOF : TOK_MORE);
        unsigned char c = *p;
        lx->p = p + 1;
        if (cls[c] & C_SYM) {
            start(lx, p, (cls[c] & C_DIGIT) ? ST_DIGITS : ST_SYM);
            k = scan_symbol(lx, tok);
            continue;
        }
        switch (c) {
        case '(':
        case ')':
            start(lx, p, ST_IDLE);
            return emit(lx, tok, c == '(' ? TOK_VAR_OPEN : TOK_VAR_CLOSE, lx->t_off + 1);
        case '*':
            start(lx, p, ST_IDLE);
            emit(lx, tok, TOK_RESULT, lx->t_off + 1);
            tok->text = (const char *)p;
            tok->len = 1;
            return TOK_RESULT;
        case '{':
            start(lx, p, ST_BRACE);
            comment_start(lx);
            k = scan_brace(lx, tok);
            break;
        case ';':
            start(lx, p, ST_SEMI);
            comment_start(lx);
            k = scan_to_eol(lx, tok);
            break;
        case '[':
            start(lx, p, ST_TAG);
            lx->tg = TG_OPEN;
            lx->named = false;
            lx->bad_quoted = false;
            lx->nlen = 0;
            lx->n_inbuf = false;
            lx->ntrunc = false;
            k = lex_scan_tag(lx, tok);
            break;
        case '$':
            start(lx, p, ST_NAG);
            lx->nag = 0;
            lx->ndigits = 0;
            k = scan_nag(lx, tok);
            break;
        case '%':
            /* PGN standard 6: % in column 1 escapes the whole line. */
            if (off_of(lx, p) == lx->line_start) {
                start(lx, p, ST_PCT);
                k = scan_to_eol(lx, tok);
                break;
            }
            /* fall through */
        default:
            start(lx, p, ST_BAD);
            k = scan_bad(lx, tok);
            break;
        }
    }
    if (k == TOK_MORE)
        return at_end(lx, tok, TOK_MORE);
    return (lex_kind_t)k;
}

lexer_t *lex_new(void)
{
    lexer_t *lx = calloc(1, sizeof *lx);
    if (!lx)
        return NULL;
    lx->chunk = lx->p = lx->end = empty_chunk;
    lx->lf_from = lx->cr_from = SIZE_MAX;
    lx->line = 1;
    lx->st = ST_BOM;
    lx->name_last = LEX_NO_NAME;
    return lx;
}

void lex_set_origin(lexer_t *lx, uint64_t offset, uint64_t line)
{
    assert(lx && lx->chunk == empty_chunk && lx->base == 0);
    lx->base = lx->line_start = offset;
    lx->line = line;
    if (offset > 0 && lx->st == ST_BOM)
        lx->st = ST_IDLE;
}

bool lex_between_tokens(const lexer_t *lx)
{
    return lx->st == ST_IDLE && !lx->has_pend;
}

bool lex_line_done(const lexer_t *lx)
{
    if (lx->st != ST_IDLE || lx->has_pend || lx->drained)
        return false;
    for (const unsigned char *p = lx->p; p < lx->end; p++) {
        unsigned char c = cls[*p];
        if (c & C_EOL)
            return true;
        if (!(c & C_WS))
            return false;
    }
    return false;
}

void lex_free(lexer_t *lx)
{
    if (!lx)
        return;
    free(lx->vbuf);
    free(lx);
}

void lex_feed(lexer_t *lx, const char *buf, size_t len)
{
    assert(lx && (buf || len == 0));
    assert(lx->p == lx->end && !lx->finished); /* after TOK_MORE only */
    assert(!lx->has_pend);
    retire(lx);
    if (buf) {
        lx->chunk = lx->p = lx->seg = lx->nseg = lx->vseg = (const unsigned char *)buf;
        lx->end = lx->chunk + len;
    }
    lx->drained = false;
}

void lex_finish(lexer_t *lx)
{
    assert(lx);
    /* With the chunk used up, continue on an empty one: a pending token
     * was saved in the buffers when the chunk ran out. */
    if (lx->p == lx->end) {
        retire(lx);
        lx->drained = false;
    }
    lx->finished = true;
}

/* The next token if it is whole in the chunk and of a common shape,
 * NO_TOKEN otherwise: most tokens, moves and tags above all, cost little.
 * Move numbers and comments whose kind is in skip are passed over without
 * a token (PASSED). */
static inline int next_fast(lexer_t *lx, lex_token_t *tok, unsigned skip, uint64_t *passed_end)
{
    if (lx->st != ST_IDLE || lx->has_pend || lx->drained)
        return NO_TOKEN;
    const unsigned char *p = lx->p, *end = lx->end;
    unsigned char c;
    while (p < end && (cls[c = *p] & C_WS)) {
        if (cls[c] & C_EOL)
            line_end(lx, p);
        p++;
    }
    lx->p = p;
    if (p == end)
        return NO_TOKEN;
    if (cls[*p] & C_SYM)
        return fast_symbol(lx, tok, p, skip, passed_end);
    if (*p == '[')
        return fast_tag(lx, tok, p);
    if (*p == '{')
        return fast_brace(lx, tok, p, skip, passed_end);
    return NO_TOKEN;
}

/* The next token whose kind is not in the set skip (bits 1 << kind); the
 * end of each token passed over goes to *passed_end. */
static lex_kind_t next_unskipped(lexer_t *lx, lex_token_t *tok, unsigned skip, uint64_t *passed_end)
{
    for (;;) {
        int k = next_fast(lx, tok, skip, passed_end);
        if (k == PASSED)
            continue;
        if (k == NO_TOKEN)
            k = next_slow(lx, tok);
        if (!(skip >> k & 1))
            return (lex_kind_t)k;
        *passed_end = tok->end;
    }
}

lex_kind_t lex_next(lexer_t *lx, lex_token_t *tok)
{
    /* next_unskipped() with nothing to skip, without its loop. */
    int k = next_fast(lx, tok, 0, NULL);
    return k == NO_TOKEN ? next_slow(lx, tok) : (lex_kind_t)k;
}

#define MAINLINE_SKIP (1u << TOK_MOVENUM | 1u << TOK_COMMENT | 1u << TOK_NAG)

/* The usual movetext ("12. Nf3 Nc6 13. O-O") without the general loop:
 * blanks, move numbers and closed comments passed over, symbols that start
 * with a letter read as fast_symbol() reads them; anything else, or a token
 * that may go on in the next chunk, is left to the general loop. */
size_t lex_next_moves(lexer_t *lx, lex_move_t *moves, size_t max, uint64_t *passed_end)
{
    size_t n = 0;
    if (lx->st != ST_IDLE || lx->has_pend || lx->drained)
        return 0;
    const unsigned char *p = lx->p, *end = lx->end, *passed = NULL;
    lx->mv_from = p;
    lx->mv_line_start = lx->line_start;
    while (p < end && n < max) {
        unsigned char c = *p, k = cls[c] & ~C_RES;
        const unsigned char *q = p + 1;
        if (k == (C_SYM | C_NAME | C_DIGIT)) {
            /* A move number, as fast_symbol() passes it (and the usual
             * blank after it); its end is written once, at the end. */
            while (q < end && (cls[*q] & C_DIGIT))
                q++;
            if (q == end || *q != '.')
                break;
            do
                q++;
            while (q < end && *q == '.');
            if (q == end || (size_t)(q - p) > LEX_MAX_SYMBOL)
                break;
            passed = q;
            p = q + (*q == ' ');
            /* Usually a move follows at once: read on without the loop. */
            if (p == end || (cls[*p] & ~C_RES) != (C_SYM | C_NAME))
                continue;
            q = p + 1;
        } else if (k & C_WS) {
            if (k & C_EOL)
                line_end(lx, p);
            p = q;
            continue;
        } else if (k != (C_SYM | C_NAME)) {
            if (c != '{')
                break;
            lx->p = p;
            if (fast_brace(lx, NULL, p, MAINLINE_SKIP, passed_end) != PASSED)
                break;
            p = passed = lx->p;
            continue;
        }
        /* A symbol that starts with a letter: a move, most often. */
        unsigned seen = 0;
        size_t len = usual_move_len(p, end);
        if (len) {
            q = p + len;
        } else {
            while (q < end && (cls[*q] & C_SYM))
                seen |= cls[*q++];
            len = (size_t)(q - p);
            if (q == end || len > LEX_MAX_SYMBOL)
                break;
        }
        moves[n++] = (lex_move_t){
            .text = (const char *)p,
            .len = len,
            .line = lx->line,
            .end = off_of(lx, p) + len,
        };
        p = q + (*q == ' ');
        if (seen & C_RES)
            break; /* "Rd6+1-0": the game may end here */
    }
    if (passed)
        *passed_end = off_of(lx, passed);
    lx->p = p;
    return n;
}

uint32_t lex_move_col(const lexer_t *lx, const lex_move_t *m)
{
    /* The line starts after the last line end before m (a comment's too),
     * or where it started when the run began. */
    const unsigned char *q = (const unsigned char *)m->text;
    while (q > lx->mv_from && !(cls[q[-1]] & C_EOL))
        q--;
    return col_at(q > lx->mv_from ? off_of(lx, q) : lx->mv_line_start, m->end - m->len);
}

lex_kind_t lex_next_mainline(lexer_t *lx, lex_token_t *tok, uint64_t *passed_end)
{
    /* A move as a run of one, when it comes that way, else the general loop. */
    lex_move_t m;
    if (lex_next_moves(lx, &m, 1, passed_end) == 1) {
        *tok = (lex_token_t){
            .kind = TOK_SYMBOL,
            .offset = m.end - m.len,
            .end = m.end,
            .line = m.line,
            .col = lex_move_col(lx, &m),
            .text = m.text,
            .len = m.len,
        };
        return TOK_SYMBOL;
    }
    return next_unskipped(lx, tok, MAINLINE_SKIP, passed_end);
}

/* A line whose reading does not depend on what came before it (-j cuts). */
bool lex_plain_tag_line(const char *buf, size_t i, size_t len)
{
    size_t k = i + 1, start = k;
    while (k < len && ((buf[k] >= 'A' && buf[k] <= 'Z') || (buf[k] >= 'a' && buf[k] <= 'z') ||
                       (buf[k] >= '0' && buf[k] <= '9') || (buf[k] && strchr("_+#=:-", buf[k]))))
        k++;
    if (k == start || k >= len || buf[k] != ' ')
        return false;
    while (k < len && buf[k] == ' ')
        k++;
    if (k >= len || buf[k++] != '"')
        return false;
    while (k < len && buf[k] != '"' && buf[k] != '\\' && buf[k] != '\n' && buf[k] != '\r')
        k++;
    if (k >= len || buf[k++] != '"')
        return false;
    while (k < len && (buf[k] == ' ' || buf[k] == '\t'))
        k++;
    if (k >= len || buf[k++] != ']')
        return false;
    while (k < len && (buf[k] == ' ' || buf[k] == '\t'))
        k++;
    return k < len && (buf[k] == '\n' || (buf[k] == '\r' && k + 1 < len && buf[k + 1] == '\n'));
}
