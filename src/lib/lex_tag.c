/* lex_tag.c: the resumable scanner of tag pairs, [Name "value"], for the
 * tokenizer (lex.c; contract in lex.h).  It reads what the fast path of a
 * plain tag line leaves: a tag that spans chunks, an escaped or overlong
 * value, a broken tag line.  The raw value bytes are kept, capped at
 * RAW_MAX, so that the value read never depends on where chunks were cut. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "lex_internal.h"

/* Tags.  The raw value is every byte after the opening quote; raw index i
 * is stream offset v_off + i, on the tag's line. */

static inline uint64_t raw_index(const lexer_t *lx, const unsigned char *p)
{
    return lx->vdone + (uint64_t)(p - lx->vseg);
}

/* Makes room for need bytes in vbuf; false if out of memory. */
static bool vreserve(lexer_t *lx, size_t need)
{
    if (need <= lx->vcap)
        return true;
    size_t cap = lx->vcap ? lx->vcap : 256;
    while (cap < need)
        cap *= 2;
    if (cap > RAW_MAX)
        cap = RAW_MAX;
    unsigned char *nb = realloc(lx->vbuf, cap);
    if (!nb)
        return false;
    lx->vbuf = nb;
    lx->vcap = cap;
    return true;
}

/* Copies the raw value bytes [vseg, q) to vbuf, keeping at most RAW_MAX
 * (fewer if out of memory: the value then comes out truncated). */
static void vkeep(lexer_t *lx, const unsigned char *q)
{
    size_t n = (size_t)(q - lx->vseg);
    size_t room = RAW_MAX - lx->vlen;
    size_t k = n < room ? n : room;
    if (k && !lx->v_oom) {
        if (vreserve(lx, lx->vlen + k)) {
            memcpy(lx->vbuf + lx->vlen, lx->vseg, k);
            lx->vlen += k;
        } else {
            lx->v_oom = true; /* a later success would leave a hole */
        }
    }
    lx->vdone += n;
    lx->vseg = q;
    lx->v_inbuf = true;
}

/* The raw value bytes we may use: *avail of them at the returned pointer.
 * Clamped to RAW_MAX even when they all lie in the chunk, so that a value
 * read whole and one read in pieces give the same token. */
static const unsigned char *raw_value(lexer_t *lx, const unsigned char *q, size_t *avail)
{
    if (lx->v_inbuf) {
        vkeep(lx, q);
        *avail = lx->vlen;
        return lx->vbuf ? lx->vbuf : empty_chunk; /* NULL only if out of memory */
    }
    size_t n = (size_t)(q - lx->vseg);
    *avail = n < RAW_MAX ? n : RAW_MAX;
    return lx->vseg;
}

/* Unescapes \" and \\ in src[0..n) into dst (may be src); writes at most
 * LEX_MAX_VALUE bytes, returns how many, and sets *full to the whole length. */
static size_t unescape(unsigned char *dst, const unsigned char *src, size_t n, size_t *full)
{
    size_t i = 0, o = 0, f = 0;
    while (i < n) {
        unsigned char c = src[i++];
        if (c == '\\' && i < n && (src[i] == '"' || src[i] == '\\'))
            c = src[i++];
        if (o < LEX_MAX_VALUE)
            dst[o++] = c;
        f++;
    }
    *full = f;
    return o;
}

/* Sets the token's value to raw[0..n), unescaped if esc; avail raw bytes
 * are at hand (n may exceed it only for a value too long to keep whole). */
static void set_value(lexer_t *lx, lex_token_t *tok, const unsigned char *raw, size_t avail,
                      uint64_t n, bool esc)
{
    if (!esc) {
        size_t k = n < avail ? (size_t)n : avail; /* less than n only if out of memory */
        tok->value = (const char *)raw;
        tok->value_len = k < LEX_MAX_VALUE ? k : LEX_MAX_VALUE;
        tok->truncated |= n > tok->value_len;
        return;
    }
    size_t m = n < avail ? (size_t)n : avail;
    size_t out = m < LEX_MAX_VALUE ? m : LEX_MAX_VALUE;
    unsigned char *dst = lx->vbuf;
    if (raw != lx->vbuf) {
        if (!vreserve(lx, out)) { /* out >= 2: an escape is two bytes */
            /* Out of memory: hand out the escaped bytes, marked truncated. */
            tok->value = (const char *)raw;
            tok->value_len = out;
            tok->truncated = true;
            return;
        }
        dst = lx->vbuf;
    }
    size_t full;
    tok->value_len = unescape(dst, raw, m, &full);
    tok->value = (const char *)dst;
    tok->truncated |= n > avail || full > LEX_MAX_VALUE;
}

/* Writes the tag token [t_off, end) with its name. */
static void emit_tag(lexer_t *lx, lex_token_t *tok, uint64_t end)
{
    emit(lx, tok, TOK_TAG, end);
    tok->text = (const char *)lx->name;
    tok->len = lx->nlen;
    tok->truncated = lx->ntrunc;
}

/* The name ends at q. */
static void name_done(lexer_t *lx, const unsigned char *q)
{
    size_t n = (size_t)(q - lx->nseg);
    if (lx->n_inbuf) {
        size_t room = LEX_MAX_NAME - lx->nlen;
        if (n > room) {
            n = room;
            lx->ntrunc = true;
        }
        memcpy(lx->nbuf + lx->nlen, lx->nseg, n);
        lx->nlen += n;
        lx->name = lx->nbuf;
    } else {
        lx->name = lx->nseg;
        lx->nlen = n > LEX_MAX_NAME ? LEX_MAX_NAME : n;
        lx->ntrunc = n > LEX_MAX_NAME;
    }
    lx->named = true;
}

/* The chunk ends inside a tag: copy what the rest of the tag will need. */
static void tag_save(lexer_t *lx, const unsigned char *end)
{
    keep(lx, lx->seg, (size_t)(end - lx->seg));
    if (lx->tg == TG_NAME) {
        size_t n = (size_t)(end - lx->nseg);
        size_t room = LEX_MAX_NAME - lx->nlen;
        if (n > room) {
            n = room;
            lx->ntrunc = true;
        }
        memcpy(lx->nbuf + lx->nlen, lx->nseg, n);
        lx->nlen += n;
        lx->n_inbuf = true;
    } else if (lx->named && !lx->n_inbuf) {
        memcpy(lx->nbuf, lx->name, lx->nlen);
        lx->name = lx->nbuf;
        lx->n_inbuf = true;
    }
    if (lx->tg >= TG_VALUE)
        vkeep(lx, end);
}

/* A broken tag: TOK_BAD from [ up to q. */
static lex_kind_t tag_bad(lexer_t *lx, lex_token_t *tok, const unsigned char *q)
{
    lx->p = q;
    emit(lx, tok, TOK_BAD, off_of(lx, q));
    take_text(lx, tok, q);
    return TOK_BAD;
}

/* The line (or the stream) ends at q inside a tag.  If the value had
 * begun, fall back to the raw line as python-chess does: the value ends at
 * the last quote followed by blanks and ], backslashes taken literally.
 * Anything but blanks after that ] becomes a TOK_BAD of its own. */
static lex_kind_t tag_eol(lexer_t *lx, lex_token_t *tok, const unsigned char *q)
{
    if (lx->tg < TG_VALUE || lx->cand_q == NONE)
        return tag_bad(lx, tok, q);
    uint64_t total = raw_index(lx, q);
    size_t avail;
    const unsigned char *raw = raw_value(lx, q, &avail);
    lx->p = q;
    emit_tag(lx, tok, lx->v_off + lx->cand_rb + 1);
    set_value(lx, tok, raw, avail, lx->cand_q, false);

    uint64_t i = lx->cand_rb + 1;
    while (i < avail && (raw[i] == ' ' || raw[i] == '\t'))
        i++;
    if (i >= total)
        return TOK_TAG;
    /* The rest of the line; past RAW_MAX its bytes are unknown. */
    lex_token_t *t = &lx->pend;
    uint64_t off = lx->v_off + i;
    size_t at = i < avail ? (size_t)i : avail;
    size_t len = avail - at;
    if (len > LEX_MAX_SYMBOL)
        len = LEX_MAX_SYMBOL;
    uint64_t col = (uint64_t)lx->t_col + (off - lx->t_off);
    *t = (lex_token_t){
        .kind = TOK_BAD,
        .offset = off,
        .end = lx->v_off + total,
        .line = lx->t_line,
        .col = col > UINT32_MAX ? UINT32_MAX : (uint32_t)col,
        .text = (const char *)raw + at,
        .len = len,
        .truncated = total - i > len,
    };
    lx->has_pend = true;
    return TOK_TAG;
}

/* [ Name "value" ]: a plain quote ends the value only when blanks and ]
 * follow it, otherwise it is part of the value (real archives do not escape
 * their quotes); \" and \\ are escapes.  A tag must close on its line: one
 * whose value does not is handled by tag_eol(); one broken before its value
 * (no name, no quote) is TOK_BAD up to the first ] outside quotes or up to
 * the line end, whichever comes first. */
int lex_scan_tag(lexer_t *lx, lex_token_t *tok)
{
    const unsigned char *p = lx->p, *end = lx->end;
    for (;;) {
        if (p == end) {
            if (lx->finished)
                return tag_eol(lx, tok, p);
            tag_save(lx, end);
            lx->p = end;
            return TOK_MORE;
        }
        unsigned char c = *p;
        switch (lx->tg) {
        case TG_OPEN:
            if (c == ' ' || c == '\t') {
                p++;
            } else if (cls[c] & C_NAME) {
                lx->tg = TG_NAME;
                lx->nseg = p;
            } else {
                lx->tg = TG_BADLINE;
            }
            break;
        case TG_NAME:
            while (p < end && (cls[*p] & C_NAME))
                p++;
            if (p < end) {
                name_done(lx, p);
                lx->tg = TG_GAP;
            }
            break;
        case TG_GAP:
            if (c == ' ' || c == '\t') {
                p++;
            } else if (c == '"') {
                p++;
                lx->tg = TG_VALUE;
                lx->v_off = off_of(lx, p);
                lx->vseg = p;
                lx->vdone = 0;
                lx->vlen = 0;
                lx->v_inbuf = false;
                lx->v_oom = false;
                lx->has_esc = false;
                lx->cand_q = lx->cand_rb = NONE;
            } else {
                lx->tg = TG_BADLINE;
            }
            break;
        case TG_BADLINE:
            /* Up to the first ] outside quotes, so that one bad tag does
             * not take the rest of a one-line game with it. */
            for (; p < end; p++) {
                c = *p;
                if (cls[c] & C_EOL)
                    return tag_bad(lx, tok, p);
                if (c == '"')
                    lx->bad_quoted = !lx->bad_quoted;
                else if (c == ']' && !lx->bad_quoted)
                    return tag_bad(lx, tok, p + 1);
            }
            break;
        case TG_VALUE:
            while (p < end && !(cls[*p] & C_VSTOP))
                p++;
            if (p == end)
                break;
            c = *p;
            if (c == '"') {
                lx->quote = raw_index(lx, p);
                lx->tg = TG_QUOTE;
            } else if (c == '\\') {
                lx->has_esc = true;
                lx->tg = TG_ESC;
            } else {
                return tag_eol(lx, tok, p);
            }
            p++;
            break;
        case TG_ESC:
            if (cls[c] & C_EOL)
                return tag_eol(lx, tok, p);
            if (c == '"') {
                lx->escq = raw_index(lx, p);
                lx->tg = TG_ESCQ;
            } else {
                lx->tg = TG_VALUE;
            }
            p++;
            break;
        case TG_ESCQ:
            if (c == ' ' || c == '\t') {
                p++;
                break;
            }
            if (c == ']') {
                lx->cand_q = lx->escq;
                lx->cand_rb = raw_index(lx, p);
                p++;
            }
            lx->tg = TG_VALUE; /* anything else is value; look at it again */
            break;
        case TG_QUOTE:
            if (c == ' ' || c == '\t') {
                p++;
                break;
            }
            if (c == ']') {
                size_t avail;
                const unsigned char *raw = raw_value(lx, p, &avail);
                lx->p = p + 1;
                emit_tag(lx, tok, off_of(lx, p) + 1);
                set_value(lx, tok, raw, avail, lx->quote, lx->has_esc);
                return TOK_TAG;
            }
            lx->tg = TG_VALUE;
            break;
        }
    }
}

