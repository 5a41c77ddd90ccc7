/* lex.h: the streaming PGN tokenizer.
 *
 * Push bytes, pull tokens.  The lexer never sees a FILE*: the caller feeds
 * chunks with lex_feed() and calls lex_next() until it answers TOK_MORE,
 * then feeds the next chunk (or calls lex_finish() at the end of the
 * stream).  A token may span any number of chunks.  Token text points
 * either into the chunk being lexed or into the lexer's own buffer, and
 * stays valid until the next call to lex_next() or lex_feed().
 *
 * Positions: offset is 0-based in the stream, line and col are 1-based, col
 * counts bytes.  "\n", "\r\n" and a lone "\r" each end one line.  A UTF-8
 * byte order mark at the start of the stream is skipped (offsets count it). */
#ifndef ARB_LEX_H
#define ARB_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest tag name and value kept; the rest is dropped, truncated is set. */
#define LEX_MAX_NAME 255
#define LEX_MAX_VALUE 65535
/* Longest symbol kept (moves are at most a dozen bytes). */
#define LEX_MAX_SYMBOL 255

typedef enum lex_kind {
    TOK_MORE,      /* feed more bytes, or call lex_finish() */
    TOK_EOF,       /* the stream has ended (after lex_finish()) */
    TOK_TAG,       /* [Name "value"]: text = name, value = unescaped value */
    TOK_SYMBOL,    /* a move or any other symbol: e4, Nxf3+, O-O, --, 1, - */
    TOK_MOVENUM,   /* move number indication: 12. 12... 4.. (text includes the dots) */
    TOK_RESULT,    /* termination marker: 1-0 0-1 1/2-1/2 * */
    TOK_NAG,       /* $12, or a standalone ! ? !! ?? !? ?!; number in nag */
    TOK_COMMENT,   /* {...} or ;... to end of line; its text is not kept */
    TOK_VAR_OPEN,  /* ( */
    TOK_VAR_CLOSE, /* ) */
    TOK_BAD        /* bytes that are not PGN (control bytes, NUL, stray } ] < >,
                      a tag that does not close on its line); text says which */
} lex_kind_t;

typedef struct lex_token {
    lex_kind_t kind;
    uint64_t offset;   /* first byte of the token */
    uint64_t end;      /* one past its last byte */
    uint64_t line;     /* line of the first byte, 1.. */
    uint32_t col;      /* column of the first byte, 1.. */
    const char *text;  /* TAG: name; SYMBOL, MOVENUM, RESULT, BAD: the bytes; else NULL */
    size_t len;
    const char *value; /* TAG only: the value with \" and \\ unescaped */
    size_t value_len;
    bool truncated;    /* text or value was longer than kept */
    bool unterminated; /* COMMENT: the stream ended inside { } */
    int nag;           /* NAG only: 0..255 ($n), or 1..6 for ! ? !! ?? !? ?! */
} lex_token_t;

typedef struct lexer lexer_t;

/* A new lexer at the start of a stream; NULL if out of memory.  Free with lex_free(). */
lexer_t *lex_new(void);
void lex_free(lexer_t *lx);

/* Makes the stream start at byte `offset` of a larger one, at the start of
 * line `line` (1-based): positions count from there and no byte order mark
 * is looked for.  Call before the first lex_feed(). */
void lex_set_origin(lexer_t *lx, uint64_t offset, uint64_t line);

/* True if no token is under way (after TOK_MORE): the bytes fed so far end
 * between tokens, outside any comment or tag. */
bool lex_between_tokens(const lexer_t *lx);

/* True if the bytes after the last token, up to a line end in the chunk,
 * are blanks, so that the next token (if any) starts on a later line; false
 * if something else follows or it is not known yet. */
bool lex_line_done(const lexer_t *lx);

/* True if the line at buf[i] (a '[' at a line start) is one plain tag pair
 * alone: [Name "value"], no backslash in the value, then blanks and the line
 * end, all within buf[0..len).  A reader in the middle of a game and a fresh
 * one both read such a line as the first tag of the next game; any other
 * '[' line (a malformed tag, a tag with more after it) a reader of the whole
 * stream may keep in the game under way.  Where -j may cut a stream. */
bool lex_plain_tag_line(const char *buf, size_t i, size_t len);

/* Hands the lexer the next len bytes of the stream.  The bytes must stay
 * valid until lex_next() returns TOK_MORE.  Call only after TOK_MORE (or
 * right after lex_new()). */
void lex_feed(lexer_t *lx, const char *buf, size_t len);

/* Says the stream has ended: a pending token is completed, then TOK_EOF. */
void lex_finish(lexer_t *lx);

/* The next token, written to *tok; returns tok->kind. */
lex_kind_t lex_next(lexer_t *lx, lex_token_t *tok);

/* lex_next() for a reader in the mainline, to whom move numbers, comments
 * and glyphs change nothing but where the game ends so far: passes over
 * them, writing the end of each to *passed_end, and returns the first
 * token of another kind. */
lex_kind_t lex_next_mainline(lexer_t *lx, lex_token_t *tok, uint64_t *passed_end);

/* A symbol read by lex_next_moves(): a move, or something the reader reads
 * as movetext does ("Sf3", "Rd6+1-0"). */
typedef struct lex_move {
    const char *text; /* its bytes, in the chunk: valid until the next call */
    size_t len;
    uint64_t line;    /* of its first byte (its column: lex_move_col()) */
    uint64_t end;     /* stream offset one past its last byte; it starts at end - len */
} lex_move_t;

/* The usual movetext, many moves a call: passes over blanks, move numbers
 * and comments as lex_next_mainline() does (the end of the last one passed
 * over goes to *passed_end), and writes up to max symbols that start with a
 * letter to moves[].  Stops before anything else, and after a symbol with a
 * 0 or / in it (a result may end the game there).  Returns how many it
 * wrote; lex_next_mainline() or lex_next() reads on from where it stopped. */
size_t lex_next_moves(lexer_t *lx, lex_move_t *moves, size_t max, uint64_t *passed_end);

/* The column of the first byte of m, a symbol of the last lex_next_moves()
 * call on lx, before any other call on lx.  Counted only when asked: the
 * usual move does not need it. */
uint32_t lex_move_col(const lexer_t *lx, const lex_move_t *m);

/* The last comment: the reader looks for the sentence a program adds at
 * the end of the last move's comment ("..., White mates").  The lexer keeps
 * where the last comment read is and up to LEX_COMMENT_TAIL bytes of its
 * end: a pointer into the chunk while it lasts, a copy once the chunk is
 * retired, so that keeping it costs a few stores per comment. */
#define LEX_COMMENT_TAIL 128

typedef struct lex_comment {
    const char *text;      /* the last len bytes of its text (without { } or ;): valid until
                              the next lex_* call */
    size_t len;            /* 0..LEX_COMMENT_TAIL */
    bool whole;            /* text is the whole comment */
    uint64_t offset;       /* stream offset of its { or ; */
    uint64_t line;         /* line and column of its { or ; */
    uint32_t col;
    uint64_t end_line;     /* line and column of the byte after its text (} or the line end) */
    uint32_t end_col;
} lex_comment_t;

/* Keeps comments from now on (the default), or not: a reader inside a
 * variation turns keeping off, so that the last comment kept is the last
 * one of the mainline. */
void lex_keep_comments(lexer_t *lx, bool keep);

/* The last comment kept, if any ever was: true and *out filled. */
bool lex_last_comment(const lexer_t *lx, lex_comment_t *out);

/* The bit of a tag name in a 256-bit set of names (0..255), from its
 * length and its first, middle and last bytes: a filter, as two names may
 * share a bit, so a set bit means "look", a clear one "not there".  (The
 * names of lichess and chess.com exports each get a bit of their own.) */
static inline unsigned lex_name_bit(const char *name, size_t len)
{
    if (len == 0)
        return 0;
    const unsigned char *u = (const unsigned char *)name;
    uint32_t x = (uint32_t)len << 24 ^ (uint32_t)u[0] << 16 ^ (uint32_t)u[len / 2] << 8 ^ u[len - 1];
    return (x * 0x9E3779B1u) >> 24; /* Fibonacci hashing: the top byte mixes every input bit */
}

/* A run of plain tags read by lex_next_tags(): where its first byte (the
 * first tag's '[') is, in the chunk (valid until the next call) and in the
 * stream, and that tag's line. */
typedef struct lex_tag_run {
    const char *text;
    uint64_t offset;
    uint64_t line;
} lex_tag_run_t;

/* One tag of a run, its positions counted from the run's first byte: the
 * tag's bytes from at to close (its ']'), its name and value (without
 * escapes, so raw bytes), and its line after the run's first line. */
typedef struct lex_tag_at {
    uint32_t at, close, name, value;
    uint32_t name_len, value_len;
    uint32_t col;  /* of its '[' */
    uint32_t line; /* lines after the run's first */
} lex_tag_at_t;

/* The usual tag section, many tags a call: passes over blanks and line ends
 * and writes to tags[] up to max tags as lex_next() reads them, each a plain
 * [Name "value"] (no escape) with nothing but blanks after it up to the end
 * of its line, all of them in the chunk from run->text on (one copy takes
 * them all).  Stops before anything else, and before a tag whose name's
 * lex_name_bit() is set in seen[] (the caller's names so far); sets the bit
 * of each tag it writes.  Returns how many it wrote (run is set if any);
 * lex_next() reads on from where it stopped. */
size_t lex_next_tags(lexer_t *lx, lex_tag_run_t *run, lex_tag_at_t *tags, size_t max, uint64_t seen[4]);

/* Tag a of run as lex_next() gives it. */
static inline void lex_tag_token(const lex_tag_run_t *run, const lex_tag_at_t *a, lex_token_t *tok)
{
    *tok = (lex_token_t){
        .kind = TOK_TAG,
        .offset = run->offset + a->at,
        .end = run->offset + a->close + 1,
        .line = run->line + a->line,
        .col = a->col,
        .text = run->text + a->name,
        .len = a->name_len,
        .value = run->text + a->value,
        .value_len = a->value_len,
    };
}

#endif
