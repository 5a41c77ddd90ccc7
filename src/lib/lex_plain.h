/* lex_plain.h: the tokenizer's fast reading of plain shapes, shared by
 * lex.c (tokens one at a time) and lex_tag.c (runs of tag lines): line
 * counting, and the scans of a tag name, a tag value and a plain tag, sixteen
 * bytes a step where the machine allows.  Internal to the tokenizer. */
#ifndef ARB_LEX_PLAIN_H
#define ARB_LEX_PLAIN_H

#include "lex_internal.h"

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#define LEX_SSE2 1
#endif


static inline uint32_t col_at(uint64_t line_start, uint64_t off)
{
    uint64_t c = off - line_start + 1;
    return c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

/* Was the stream byte before p a \r?  A \n right after \r ends no new line. */
static inline bool after_cr(const lexer_t *lx, const unsigned char *p)
{
    return p > lx->chunk ? p[-1] == '\r' : lx->cr_last;
}

/* Counts the line end at *p (\n or \r). */
static inline void line_end(lexer_t *lx, const unsigned char *p)
{
    if (*p == '\r' || !after_cr(lx, p))
        lx->line++;
    lx->line_start = off_of(lx, p) + 1;
}

/* The first byte in [q, end) that is not a tag name byte (C_NAME), or end.
 * Sixteen bytes a step where the machine allows: most tag lines are read
 * whole by fast_tag(), and its two scans were most of their cost. */
static inline const unsigned char *name_stop(const unsigned char *q, const unsigned char *end)
{
#ifdef LEX_SSE2
    /* [A-Za-z], [0-9:], and # + - = _; bytes from 0x80 compare negative. */
    const __m128i case_bit = _mm_set1_epi8(0x20);
    while (end - q >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
        __m128i low = _mm_or_si128(v, case_bit);
        __m128i alpha = _mm_and_si128(_mm_cmpgt_epi8(low, _mm_set1_epi8('a' - 1)),
                                      _mm_cmplt_epi8(low, _mm_set1_epi8('z' + 1)));
        __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                                      _mm_cmplt_epi8(v, _mm_set1_epi8(':' + 1)));
        __m128i sign = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('#')),
                                                 _mm_cmpeq_epi8(v, _mm_set1_epi8('+'))),
                                    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('-')),
                                                 _mm_cmpeq_epi8(v, _mm_set1_epi8('='))));
        sign = _mm_or_si128(sign, _mm_cmpeq_epi8(v, _mm_set1_epi8('_')));
        unsigned bad = ~(unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(alpha, digit), sign)) & 0xffffu;
        if (bad)
            return q + __builtin_ctz(bad);
        q += 16;
    }
#endif
    while (q < end && (cls[*q] & C_NAME))
        q++;
    return q;
}

#ifdef LEX_SSE2
/* Bytes of v from lo to hi (unsigned), as 0xFF. */
static inline __m128i bytes_in(__m128i v, char lo, char hi)
{
    __m128i d = _mm_sub_epi8(v, _mm_set1_epi8(lo));
    return _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8((char)(hi - lo))), d);
}
#endif

/* The first byte in [q, end) that stops a tag value's scan (C_VSTOP: " \
 * and the line ends), or end. */
static inline const unsigned char *value_stop(const unsigned char *q, const unsigned char *end)
{
#ifdef LEX_SSE2
    while (end - q >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                                _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                                   _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                                                _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
        unsigned stop = (unsigned)_mm_movemask_epi8(hit);
        if (stop)
            return q + __builtin_ctz(stop);
        q += 16;
    }
#endif
    while (q < end && !(cls[*q] & C_VSTOP))
        q++;
    return q;
}

/* The plain tag [Name "value"] whose '[' is at p, all of it in [p, end):
 * one line, no escape, no quote in the value that blanks and ] follow.
 * Returns its ']' with the name and value set, or NULL for any other shape
 * (the scanner decides those). */
static inline LEX_ALWAYS_INLINE const unsigned char *plain_tag(const unsigned char *p, const unsigned char *end,
                                                               const unsigned char **name, size_t *nlen,
                                                               const unsigned char **value, size_t *vlen)
{
    const unsigned char *q = p + 1;
    while (q < end && (*q == ' ' || *q == '\t'))
        q++;
    *name = q;
    q = name_stop(q, end);
    *nlen = (size_t)(q - *name);
    if (*nlen == 0 || *nlen > LEX_MAX_NAME)
        return NULL;
    while (q < end && (*q == ' ' || *q == '\t'))
        q++;
    if (q == end || *q != '"')
        return NULL;
    const unsigned char *v = ++q, *quote;
    for (;;) {
        q = value_stop(q, end);
        if (q == end || *q != '"')
            return NULL; /* an escape or the line end */
        quote = q++;
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        if (q == end)
            return NULL;
        if (*q == ']')
            break;
        /* The quote was part of the value; look at this byte again. */
    }
    *value = v;
    *vlen = (size_t)(quote - v);
    return *vlen > LEX_MAX_VALUE ? NULL : q;
}

#endif
