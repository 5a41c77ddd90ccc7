/* lex_tag.c: the resumable scanner of tag pairs, [Name "value"], for the
 * tokenizer (lex.c; contract in lex.h).  It reads what the fast path of a
 * plain tag line leaves: a tag that spans chunks, an escaped or overlong
 * value, a broken tag line.  The raw value bytes are kept, capped at
 * RAW_MAX, so that the value read never depends on where chunks were cut. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "lex_internal.h"
#include "lex_plain.h"

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

/* Appends the name's bytes from nseg to q to the name buffer, up to
 * LEX_MAX_NAME in all. */
static void name_keep(lexer_t *lx, const unsigned char *q)
{
    size_t n = (size_t)(q - lx->nseg);
    size_t room = LEX_MAX_NAME - lx->nlen;
    if (n > room) {
        n = room;
        lx->ntrunc = true;
    }
    memcpy(lx->nbuf + lx->nlen, lx->nseg, n);
    lx->nlen += n;
}

/* The name ends at q. */
static void name_done(lexer_t *lx, const unsigned char *q)
{
    if (lx->n_inbuf) {
        name_keep(lx, q);
        lx->name = lx->nbuf;
    } else {
        size_t n = (size_t)(q - lx->nseg);
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
        name_keep(lx, end);
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

/* ---- runs of plain tag lines ---- */

/* Does the line at p, which has 32 bytes in the chunk, start as k's does? */
static inline bool known_name_at(const struct lex_known_name *k, const unsigned char *p)
{
#ifdef LEX_SSE2
    uint32_t m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)p),
                                                            _mm_loadu_si128((const __m128i *)(const void *)k->pat)));
    if (k->mask > 0xffffu)
        m |= (uint32_t)_mm_movemask_epi8(
                 _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 16)),
                                _mm_loadu_si128((const __m128i *)(const void *)(k->pat + 16))))
             << 16;
    return (m & k->mask) == k->mask;
#else
    return memcmp(p, k->pat, (size_t)k->nlen + 3) == 0;
#endif
}

/* The entry of a tag name, whose lex_name_bit() is bit: found, or made if
 * there is room (and no other name holds the bit); LEX_NO_NAME if none. */
static unsigned known_name(lexer_t *lx, const unsigned char *name, size_t nlen, unsigned bit)
{
    unsigned i = lx->name_at[bit];
    if (i)
        return lx->names[i - 1].nlen == nlen && memcmp(lx->names[i - 1].pat + 1, name, nlen) == 0 ? i - 1
                                                                                                 : LEX_NO_NAME;
    if (nlen + 3 > sizeof lx->names[0].pat || lx->nnames >= LEX_NAMES)
        return LEX_NO_NAME;
    struct lex_known_name *k = &lx->names[lx->nnames];
    memset(k->pat, 0, sizeof k->pat);
    k->pat[0] = '[';
    memcpy(k->pat + 1, name, nlen);
    k->pat[nlen + 1] = ' ';
    k->pat[nlen + 2] = '"';
    k->mask = (uint32_t)(((uint64_t)1 << (nlen + 3)) - 1);
    k->nlen = (uint8_t)nlen;
    k->bit = (uint8_t)bit;
    k->next = LEX_NO_NAME;
    lx->name_at[bit] = (uint8_t)(lx->nnames + 1);
    return lx->nnames++;
}

/* The usual tag section without the general loop: blanks and line ends
 * passed over, then plain tags (plain_tag()) each alone on its line, the
 * line end in the chunk, so that no reader need wait for the rest of the
 * line.  Anything else is left to the general loop.  A line that starts
 * with the name that followed the last one last time ([Name ") has its
 * value read at once; it is read as plain_tag() would read it, or by
 * plain_tag() itself when it is not the plain case (a quote in the value,
 * blanks before the ']'). */
size_t lex_next_tags(lexer_t *lx, lex_tag_run_t *run, lex_tag_at_t *tags, size_t max, uint64_t seen[4])
{
    size_t n = 0;
    if (lx->st != ST_IDLE || lx->has_pend || lx->drained)
        return 0;
    const unsigned char *p = lx->p, *end = lx->end, *first = p;
    uint64_t line0 = 0;
    unsigned last = lx->name_last;
    while (n < max) {
        while (p < end && (cls[*p] & C_WS)) {
            if (cls[*p] & C_EOL)
                line_end(lx, p);
            p++;
        }
        if (p == end || *p != '[')
            break;
        const unsigned char *name = NULL, *value = NULL, *close = NULL;
        size_t nlen = 0, vlen = 0;
        unsigned bit = 0, e = LEX_NO_NAME;
        if (last != LEX_NO_NAME && lx->names[last].next != LEX_NO_NAME && end - p >= 32) {
            const struct lex_known_name *k = &lx->names[lx->names[last].next];
            if (known_name_at(k, p)) {
                const unsigned char *v = p + k->nlen + 3, *q = value_stop(v, end);
                if (end - q >= 2 && *q == '"' && q[1] == ']' && (size_t)(q - v) <= LEX_MAX_VALUE) {
                    name = p + 1;
                    nlen = k->nlen;
                    value = v;
                    vlen = (size_t)(q - v);
                    close = q + 1;
                    bit = k->bit;
                    e = lx->names[last].next;
                }
            }
        }
        /* A line the run stops before is read by lex_next(): no name is
         * known to come after the last one then. */
        if (!close) {
            close = plain_tag(p, end, &name, &nlen, &value, &vlen);
            if (!close) {
                last = LEX_NO_NAME;
                break;
            }
            bit = lex_name_bit((const char *)name, nlen);
        }
        const unsigned char *q = close + 1;
        while (q < end && (cls[*q] & (C_WS | C_EOL)) == C_WS)
            q++;
        /* The line end must be in the chunk; positions are 32 bits from the
         * run's start; a name the game may have is the caller's to look at. */
        if (q == end || !(cls[*q] & C_EOL) || (size_t)(close - (n ? first : p)) >= UINT32_MAX ||
            seen[bit >> 6] >> (bit & 63) & 1) {
            last = LEX_NO_NAME;
            break;
        }
        seen[bit >> 6] |= (uint64_t)1 << (bit & 63);
        if (e == LEX_NO_NAME)
            e = known_name(lx, name, nlen, bit);
        if (last != LEX_NO_NAME)
            lx->names[last].next = (uint8_t)e;
        last = e;
        if (n == 0) {
            first = p;
            line0 = lx->line;
        }
        tags[n++] = (lex_tag_at_t){
            .at = (uint32_t)(p - first),
            .close = (uint32_t)(close - first),
            .name = (uint32_t)(name - first),
            .value = (uint32_t)(value - first),
            .name_len = (uint32_t)nlen,
            .value_len = (uint32_t)vlen,
            .col = col_at(lx->line_start, off_of(lx, p)),
            .line = (uint32_t)(lx->line - line0),
        };
        /* The usual line end, \n after the ']' or a blank, counted here. */
        if (*q == '\n' && q[-1] != '\r') {
            lx->line++;
            lx->line_start = off_of(lx, q) + 1;
            q++;
        }
        p = q;
    }
    lx->name_last = (uint8_t)last;
    if (n) {
        run->text = (const char *)first;
        run->offset = off_of(lx, first);
        run->line = line0;
    }
    lx->p = p;
    return n;
}
