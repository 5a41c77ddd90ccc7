/* lex_internal.h: what the tokenizer's two files share (lex.c, the
 * scanners and fast paths; lex_tag.c, the resumable tag-pair scanner): the
 * lexer's state, the byte classes, and the small helpers both use.  Not part
 * of lex.h: nothing outside the tokenizer sees a lexer's insides. */
#ifndef ARB_LEX_INTERNAL_H
#define ARB_LEX_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "lex.h"

/* A fast path shared by two callers, each of which would pay more for a
 * call than for the copy (configure.ac tests for the attribute). */
#ifdef ARB_HAVE_ALWAYS_INLINE
#define LEX_ALWAYS_INLINE __attribute__((always_inline))
#else
#define LEX_ALWAYS_INLINE
#endif

/* Raw tag value bytes kept when a value spans chunks.  Twice the value cap
 * (plus slack) because an escaped value shrinks at most by half when
 * unescaped, so the first LEX_MAX_VALUE unescaped bytes always lie within
 * the kept raw bytes and the result does not depend on chunking. */
#define RAW_MAX (2 * (size_t)LEX_MAX_VALUE + 2)

#define NONE UINT64_MAX /* "no such raw index" */
#define LEX_NAMES 32    /* tag names known by their usual line (struct lexer) */
#define LEX_NO_NAME 0xFF
#define NO_TOKEN (-1)   /* a scanner finished without a token (% line, BOM) */
#define PASSED (-2)     /* a fast path passed over a token its caller skips */

/* Byte classes; one immutable table, indexed by the byte. */
enum {
    C_SYM = 1,    /* symbol byte: [A-Za-z0-9_+#=:/.!?@~-] and any byte >= 0x80 */
    C_DIGIT = 2,  /* 0-9 */
    C_NAME = 4,   /* tag name byte: [A-Za-z0-9_+#=:-] */
    C_WS = 8,     /* separates tokens: space \t \n \v \f \r */
    C_EOL = 16,   /* ends a line: \n \r */
    C_VSTOP = 32, /* stops the scan of a tag value: " \ \n \r */
    C_BAD = 64,   /* continues a run of junk bytes */
    C_RES = 128   /* may be part of a result written in a symbol: 0 / */
};

#define B C_BAD
#define W C_WS
#define E (C_WS | C_EOL | C_VSTOP)
#define S C_SYM
#define N (C_SYM | C_NAME)
#define D (C_SYM | C_NAME | C_DIGIT)
#define Q (C_BAD | C_VSTOP)
#define X 0 /* starts a token of its own: ( ) [ { ; $ * */
static const unsigned char cls[256] = {
    /* 00 */ B, B, B, B, B, B, B, B, B, W, E, W, W, E, B, B,
    /* 10 */ B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
    /* 20 */ W, S, Q, N, X, B, B, B, X, X, X, N, B, N, S, S | C_RES,
    /* 30 */ D | C_RES, D, D, D, D, D, D, D, D, D, N, X, B, N, B, S,
    /* 40 */ S, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N,
    /* 50 */ N, N, N, N, N, N, N, N, N, N, N, X, Q, B, B, N,
    /* 60 */ B, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N,
    /* 70 */ N, N, N, N, N, N, N, N, N, N, N, X, B, B, S, B,
    /* 80 */ S, S, S, S, S, S, S, S, S, S, S, S, S, S, S, S,
    /* 90 */ S, S, S, S, S, S, S, S, S, S, S, S, S, S, S, S,
    /* a0 */ S, S, S, S, S, S, S, S, S, S, S, S, S, S, S, S,
    /* b0 */ S, S, S, S, S, S, S, S, S, S, S, S, S, S, S, S,
    /* c0 */ S, S, S, S, S, S, S, S, S, S, S, S, S, S, S, S,
    /* d0 */ S, S, S, S, S, S, S, S, S, S, S, S, S, S, S, S,
    /* e0 */ S, S, S, S, S, S, S, S, S, S, S, S, S, S, S, S,
    /* f0 */ S, S, S, S, S, S, S, S, S, S, S, S, S, S, S, S,
};
#undef B
#undef W
#undef E
#undef S
#undef N
#undef D
#undef Q
#undef X

/* What the lexer is in the middle of. */
enum state {
    ST_IDLE,   /* between tokens */
    ST_BOM,    /* stream start: matching EF BB BF */
    ST_DIGITS, /* symbol made of digits so far: may become a move number */
    ST_DOTS,   /* digits then dots: a move number */
    ST_SYM,    /* any other symbol */
    ST_NAG,    /* $ and digits */
    ST_BAD,    /* run of junk bytes */
    ST_BRACE,  /* { comment */
    ST_SEMI,   /* ; comment */
    ST_PCT,    /* % escape line (no token) */
    ST_TAG     /* [ tag; phase in tg */
};

/* Where a tag is; the value phases are TG_VALUE and after. */
enum phase {
    TG_OPEN,    /* after [, blanks */
    TG_NAME,    /* in the name */
    TG_GAP,     /* blanks after the name */
    TG_BADLINE, /* broken before its value: TOK_BAD up to ] or the line end */
    TG_VALUE,   /* in the value */
    TG_ESC,     /* after an escaping backslash */
    TG_ESCQ,    /* blanks after an escaped quote: may be the fallback's end */
    TG_QUOTE    /* blanks after a plain quote: ends the value if ] follows */
};

struct lexer {
    /* The chunk being lexed; p is the next byte. */
    const unsigned char *chunk, *p, *end;
    uint64_t base;   /* stream offset of chunk[0] */
    bool cr_last;    /* the previous chunk ended with \r */
    bool drained;    /* TOK_MORE was returned: the chunk is gone */
    bool finished;   /* lex_finish() was called */

    uint64_t line;       /* current line, 1.. */
    uint64_t line_start; /* stream offset of its first byte */
    /* The first \n and \r at or after chunk[*_from], chunk length if none:
     * a comment inside a line needs no search of its own. */
    size_t lf_from, lf_at, cr_from, cr_at;

    /* The token in progress. */
    enum state st;
    uint64_t t_off, t_line;
    uint32_t t_col;
    const unsigned char *seg; /* its first byte not yet copied, in the chunk */
    bool inbuf;               /* earlier bytes are in buf */
    bool btrunc;              /* bytes were dropped from buf */
    size_t blen;
    unsigned char buf[LEX_MAX_SYMBOL]; /* symbol text, or head of a bad tag */
    unsigned nag;                      /* ST_NAG: value so far, saturates at 1000 */
    size_t ndigits;                    /* ST_NAG: digits seen */
    unsigned bom;                      /* ST_BOM: bytes matched */

    /* Tag in progress. */
    enum phase tg;
    bool named;                /* the name is complete */
    bool bad_quoted;           /* TG_BADLINE: inside "..." */
    const unsigned char *nseg; /* TG_NAME: name bytes not yet copied */
    const unsigned char *name; /* the name: in the chunk or in nbuf */
    size_t nlen;
    bool n_inbuf, ntrunc;
    unsigned char nbuf[LEX_MAX_NAME];
    /* The raw value: every byte after the opening quote, up to RAW_MAX kept. */
    uint64_t v_off;            /* stream offset of raw byte 0 */
    const unsigned char *vseg; /* raw bytes not yet copied, in the chunk */
    uint64_t vdone;            /* raw bytes before vseg */
    bool v_inbuf;              /* raw bytes were copied to vbuf */
    bool v_oom;                /* vbuf could not grow: keep no more bytes */
    bool has_esc;              /* a backslash escape occurred */
    uint64_t quote;            /* TG_QUOTE: raw index of the plain quote */
    uint64_t escq;             /* TG_ESCQ: raw index of the escaped quote */
    uint64_t cand_q, cand_rb;  /* last escaped quote followed by blanks and ]:
                                  raw indexes of the quote and of the ] */
    unsigned char *vbuf;       /* grows up to RAW_MAX */
    size_t vlen, vcap;

    /* The last comment kept (lex_last_comment()). */
    bool c_off_keep;              /* comments are not kept (inside a variation) */
    bool c_has;                   /* a comment read by the slow scanners was kept: its tail
                                     in ctail, its place in c_off, c_col, c_ecol */
    bool c_fast;                  /* the last comment was read whole in the chunk by the
                                     fast path: only where it is, c_fb to c_fq, is noted
                                     (it costs a few stores per comment, and engines write
                                     one per move); the rest is worked out when asked for,
                                     or when the chunk is retired */
    bool c_whole;                 /* the tail is its whole text */
    bool c_fresh;                 /* a slow scan starts a comment: the tail starts empty */
    const unsigned char *c_fb, *c_fq; /* c_fast: its { and its } in the chunk */
    uint64_t c_lstart, c_elstart;     /* c_fast: the line starts at { and at } */
    size_t c_n;
    uint64_t c_off, c_line, c_eline;
    uint32_t c_col, c_ecol;
    size_t c_tlen;
    unsigned char ctail[LEX_COMMENT_TAIL];

    /* Where the last lex_next_moves() started, and where its line started
     * there, for lex_move_col(). */
    const unsigned char *mv_from;
    uint64_t mv_line_start;

    /* A second token produced by the same scan (the rest of a tag line). */
    bool has_pend;
    lex_token_t pend;

    /* Tag names met in runs of tag lines (lex_next_tags()), each as the
     * bytes its usual line starts with, and the name that came after it
     * last time: a tag section like the one before is read by one compare
     * a name, without the name's scan. */
    struct lex_known_name {
        unsigned char pat[32]; /* '[', the name, a blank and a quote; zeros after */
        uint32_t mask;         /* bit i set: pat[i] is compared */
        uint8_t nlen, bit, next; /* next: the entry that followed, LEX_NO_NAME if none */
    } names[LEX_NAMES];
    uint8_t nnames;            /* entries used; none is ever dropped */
    uint8_t name_last;         /* the entry of the last tag of a run, LEX_NO_NAME if none */
    uint8_t name_at[256];      /* 1 + the entry of each lex_name_bit(), 0 if none */
};

/* Stands in for a NULL chunk and for one that is gone, so that pointer
 * arithmetic stays defined and nothing reads the caller's old buffer. */
static const unsigned char empty_chunk[1];

static inline uint64_t off_of(const lexer_t *lx, const unsigned char *p)
{
    return lx->base + (uint64_t)(p - lx->chunk);
}

/* Writes the finished token; the scanner fills in text and the rest. */
static inline lex_kind_t emit(lexer_t *lx, lex_token_t *tok, lex_kind_t kind, uint64_t end)
{
    tok->kind = kind;
    tok->offset = lx->t_off;
    tok->end = end;
    tok->line = lx->t_line;
    tok->col = lx->t_col;
    tok->text = NULL;
    tok->len = 0;
    tok->value = NULL;
    tok->value_len = 0;
    tok->truncated = false;
    tok->unterminated = false;
    tok->nag = 0;
    lx->st = ST_IDLE;
    return kind;
}

/* Appends n bytes to buf, keeping at most LEX_MAX_SYMBOL. */
static inline void keep(lexer_t *lx, const unsigned char *s, size_t n)
{
    size_t room = LEX_MAX_SYMBOL - lx->blen;
    if (n > room) {
        n = room;
        lx->btrunc = true;
    }
    if (n) {
        memcpy(lx->buf + lx->blen, s, n);
        lx->blen += n;
    }
    lx->inbuf = true;
}

/* The token's bytes up to q become its text: a pointer into the chunk if
 * they all lie there, else the copy in buf. */
static inline void take_text(lexer_t *lx, lex_token_t *tok, const unsigned char *q)
{
    size_t n = (size_t)(q - lx->seg);
    if (!lx->inbuf) {
        tok->text = (const char *)lx->seg;
        tok->len = n > LEX_MAX_SYMBOL ? LEX_MAX_SYMBOL : n;
        tok->truncated = n > LEX_MAX_SYMBOL;
    } else {
        keep(lx, lx->seg, n);
        tok->text = (const char *)lx->buf;
        tok->len = lx->blen;
        tok->truncated = lx->btrunc;
    }
}

/* Reads on from the '[' of a tag pair (state ST_TAG, started by the
 * caller) as far as the chunk allows: TOK_TAG or TOK_BAD when the tag is
 * done, TOK_MORE when the chunk ended inside it (lex_tag.c). */
int lex_scan_tag(lexer_t *lx, lex_token_t *tok);

#endif
