/* pgnarbiter.h: the pgn-arbiter library.
 *
 * Reads PGN as a stream, replays every game's mainline and says what the
 * FIDE Laws of Chess (2023) make of it: checkmate, stalemate, dead
 * position, fivefold and seventy-five-move automatic draws, threefold and
 * fifty-move claims.
 *
 * Use: arb_reader_new(), then for each chunk of input arb_reader_feed()
 * followed by arb_reader_next() until it returns NULL; at the end of the
 * stream arb_reader_finish() and arb_reader_next() until NULL again.  A fed
 * chunk must stay valid until arb_reader_next() has returned NULL.  The
 * record returned is owned by the reader and valid until the next call.
 * Ply 0 is the start position; ply k the position after k half-moves.
 * Nothing here prints, exits or keeps global state: one reader per thread. */
#ifndef PGNARBITER_H
#define PGNARBITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rule facts, in the order of arb_game.first[]. */
typedef enum arb_fact {
    ARB_CHECKMATE, ARB_STALEMATE, ARB_INSUFFICIENT, ARB_DEAD,
    ARB_FIVEFOLD, ARB_SEVENTYFIVE, ARB_THREEFOLD, ARB_FIFTY,
    ARB_WHITE_CANNOT_WIN, ARB_BLACK_CANNOT_WIN, /* no series of legal moves ends in that side mating */
    ARB_FACT_COUNT
} arb_fact;

typedef enum arb_status {
    ARB_OK,          /* every mainline move replayed */
    ARB_ILLEGAL,     /* an illegal, ambiguous or null move in the mainline */
    ARB_SYNTAX,      /* text that cannot be read as PGN */
    ARB_BADFEN,      /* the FEN tag is not a position that can occur */
    ARB_UNSUPPORTED  /* a variant other than standard chess and Chess960 */
} arb_status;

typedef enum arb_verdict {
    ARB_CONSISTENT,      /* the recorded result stands */
    ARB_WRONG_RESULT,    /* the rules decided and the Result tag says otherwise */
    ARB_WRONG_REASON,    /* a recorded reason is contradicted, the result stands */
    ARB_MOVES_AFTER_END, /* moves were recorded after the game had ended by rule */
    ARB_UNFINISHED,      /* no result and no end by rule */
    ARB_UNREADABLE,      /* status is not ARB_OK */
    ARB_SELF_CONTRADICTORY, /* the Result tag and the termination marker disagree */
    ARB_VERDICT_COUNT
} arb_verdict;

/* What a recorded reason says ended the game (arb_claim_name(): the name
 * in reports, "time-insufficient", "illegal-move", ...). */
typedef enum arb_claim {
    ARB_CLAIM_CHECKMATE, ARB_CLAIM_STALEMATE, ARB_CLAIM_THREEFOLD, ARB_CLAIM_FIFTY,
    ARB_CLAIM_INSUFFICIENT,      /* drawn for want of mating material */
    ARB_CLAIM_TIME,              /* lost on time */
    ARB_CLAIM_TIME_INSUFFICIENT, /* a flag fell, drawn as the other side cannot mate */
    ARB_CLAIM_RESIGNATION, ARB_CLAIM_AGREEMENT,
    ARB_CLAIM_ADJUDICATION,      /* decided by an arbiter, a program or a tablebase */
    ARB_CLAIM_ABANDONED,         /* abandoned, disconnected, stalled */
    ARB_CLAIM_ILLEGAL_MOVE,      /* an illegal move or another rules infraction */
    ARB_CLAIM_NORMAL,            /* lichess and PGN "Normal": any end over the board */
    ARB_CLAIM_UNTERMINATED,      /* not finished, no result */
    ARB_CLAIM_OTHER,             /* a text that names no end the library knows, or not surely one */
    ARB_CLAIM_FIVEFOLD,          /* drawn by a fivefold repetition (9.6.1) */
    ARB_CLAIM_SEVENTYFIVE,       /* drawn by the seventy-five-move rule (9.6.2) */
    ARB_CLAIM_COUNT
} arb_claim;

/* What the board says of a claim (arb_check_name(): "site-rule", ...). */
typedef enum arb_check {
    ARB_CHECK_CONFIRMED,    /* the board shows what the claim needs */
    ARB_CHECK_CONTRADICTED, /* the board, or the recorded result, shows it false */
    ARB_CHECK_SITE_RULE,    /* true by the site's own rule only, false under the FIDE Laws */
    ARB_CHECK_SUPERSEDED,   /* the game had already ended by a rule of its own */
    ARB_CHECK_UNVERIFIABLE, /* nothing on the board bears on it */
    ARB_CHECK_COUNT
} arb_check;

/* Where a reason text was read (arb_reason_from_name(): "Termination",
 * "TerminationDetails", "comment"). */
typedef enum arb_reason_from {
    ARB_FROM_TERMINATION, ARB_FROM_TERMINATION_DETAILS, ARB_FROM_COMMENT
} arb_reason_from;

/* How a reason text was read (arb_reading_name(): "exact", "words"). */
typedef enum arb_reading {
    ARB_READ_EXACT, /* a sentence or tag word of a known source's vocabulary, matched as it is written */
    ARB_READ_WORDS  /* any other text, read by the words of endings it holds */
} arb_reading;

/* Which draws decide a game (see --rules in pgn-arbiter(1)). */
typedef enum arb_policy {
    ARB_RULES_FIDE,  /* only what ends a game by itself, plus Article 6.9 */
    ARB_RULES_CLAIM  /* also every threefold or fifty-move claim, at its first chance */
} arb_policy;

typedef struct arb_options {
    bool allow_null_moves; /* replay --, Z0, 0000, @@@@ as a pass */
    arb_policy policy;
    bool legality_only;    /* replay and check moves but record no rule
                              facts: for measuring what the facts cost */
    bool game_id;          /* make arb_game.id of every game (else 0: arb_game_id() makes it on demand) */
} arb_options;

typedef struct arb_tag {
    const char *name, *value; /* NUL-terminated; value unescaped, bytes as in the input */
    size_t name_len, value_len;
} arb_tag;

/* Where something is in the (decompressed) input stream. */
typedef struct arb_span {
    uint64_t offset, end; /* byte offsets, end exclusive; offset == end == 0 if absent */
    uint64_t line;        /* 1-based line of offset, 0 if absent */
    uint32_t col;         /* 1-based column (bytes) of offset */
} arb_span;

/* A reason text and what the board says of it. */
typedef struct arb_reason {
    const char *text;        /* as written, from its first word on (NUL-terminated); from a
                                comment, the sentence after its last ", ", blanks and line ends
                                as one space */
    size_t text_len;
    arb_reason_from from;
    uint64_t line;           /* 1-based line and column (bytes) of the text: for a tag, its [ */
    uint32_t col;
    arb_claim claim;
    int winner;              /* the side the text says won: 0 White, 1 Black, -1 none named */
    arb_check check;
    bool result_conflict;    /* contradicted because the text implies another result than
                                the one recorded */
    bool disagrees;          /* (reasons[1..] only) the claim or the result it implies
                                differs from reasons[0]'s */
    const char *message;     /* what the board shows, in words; "" if nothing */
    arb_reading reading;     /* how the claim was read from the text */
} arb_reason;

/* Reason texts kept per game: a Termination tag, a TerminationDetails tag,
 * the last move's comment. */
#define ARB_MAX_REASONS 3

typedef struct arb_game {
    uint64_t number;            /* 1-based index of the game in its stream */
    arb_span where;             /* the whole game, from its first token to its last */
    const arb_tag *tags;        /* every tag, in order */
    size_t ntags;
    arb_status status;
    bool has_error;
    struct {
        uint64_t line;          /* 1-based */
        uint32_t col;           /* 1-based, bytes */
        uint32_t ply;           /* the ply the failed move would have made, 1.. */
        char move[64];          /* the move text as written, "" if none */
        char message[160];      /* what went wrong, in words */
    } error;
    bool has_movetext;          /* anything but tags was read (moves, comments, a marker) */
    bool open_variation;        /* the movetext ends inside a variation: ( without ) */
    bool marker_in_word;        /* the marker was read inside a longer word ("Rd6+1-0") */
    uint32_t plies;             /* mainline half-moves replayed */
    const char *result;         /* Result tag value, NULL if none */
    const char *accept;         /* the first ArbiterAccept tag's value, NULL if none */
    const char *marker;         /* termination marker, NULL if none */
    int32_t first[ARB_FACT_COUNT];       /* first ply where each fact holds, -1 if never */
    const char *first_move[ARB_FACT_COUNT]; /* the move that reached it ("34...Kg7"), "" at ply 0 */
    bool has_end;               /* the game ended by rule (end_* are set) */
    arb_fact end_reason;        /* checkmate, stalemate, dead, fivefold or seventyfive */
    int32_t end_ply;
    const char *end_move;
    const char *adjudicated;    /* the result the rules give under the policy, NULL if unknown */
    const char *adjudication;   /* why the rules changed the result ("fivefold repetition
                                   at 41.Kf2; recorded 1-0"), NULL if they did not */
    arb_verdict verdict;
    size_t nreasons;            /* reason texts recognised, 0..ARB_MAX_REASONS */
    arb_reason reasons[ARB_MAX_REASONS]; /* [0] the reason (the most specific text), then
                                   the others in the order Termination, TerminationDetails,
                                   comment */
    /* Byte spans for rewriting: the Result tag pair, the termination
     * marker, the last tag, the last tag of the Seven Tag Roster, an
     * Adjudication tag, and the move that ended the game by rule (for a game
     * ended at ply 0: the empty span where its movetext starts). */
    arb_span result_tag, marker_span, tags_end, roster_end, adjudication_tag, end_move_span;
    /* The game id, version 1 (with arb_options.game_id; else 0, and
     * arb_game_id() makes it).  Arithmetic is modulo 2^64; a word is 8
     * bytes, least significant first; fold(u, v) is the low 64 bits of the
     * 128-bit product u * v XOR its high 64 bits; K = 0x9e3779b97f4a7c15
     * and C(j) = (2j + 1) * K.
     * - Tags: from a = 0x243f6a8885a308d3, the value of each of the tags
     *   Event, Site, Date, Round, White, Black, FEN and Variant (k = 0 to
     *   7, the first tag of each name) that the game has, in blocks of 16
     *   bytes, as words x and y; the last block holds r = 0 to 16 bytes
     *   (0 only for an empty value), the rest zero bytes.  A block before
     *   the last makes a = fold(x ^ C(18k + 17), y ^ a), the last
     *   a = fold(x ^ C(18k + r), y ^ a).
     * - Moves: from h = 0x452821e638d01377, each move replayed makes
     *   h = (h ^ w) * 0x5bd1e995, w being the 32-bit number whose bytes,
     *   least significant first, are the from and to squares (rank * 16 +
     *   file, a1 = 0; castling as the king's square and its rook's, a null
     *   move as the passing side's king's square twice), the piece
     *   promoted to (2 knight, 3 bishop, 4 rook, 5 queen, 0 none) and the
     *   move's kind (the sum of capture 1, en passant 2, castling 4,
     *   double pawn step 8, null move 16).
     * - Tail: t, the FNV-1a (64 bits, from its offset basis) of the texts
     *   of the mainline's moves not replayed (after the move that could
     *   not be played, or all when the start position was refused), each
     *   without its final + # ! ? and followed by a space, then of the
     *   text of the move that could not be played (error.move).
     * - With p the number of plies replayed, id_rest = fold(h ^ C(144),
     *   t ^ p), and the id is fold(a ^ C(145), id_rest) through
     *   splitmix64's finalizer (z ^= z >> 30, z *= 0xbf58476d1ce4e5b9,
     *   z ^= z >> 27, z *= 0x94d049bb133111eb, z ^= z >> 31).
     * So line breaks, move numbers, comments, glyphs, variations, other
     * tags (SetUp too: the FEN alone sets the start) and the result
     * leave it as it is; one move changes it.  Stable: another way of
     * computing it would be "v2". */
    uint64_t id;
    uint64_t id_rest;           /* the id's part that is not the tags (see above) */
} arb_game;

/* The game's id: g->id if it was made as the game was read, else made
 * now, from g's tags and id_rest (for the record arb_reader_next()
 * returned: before the next call, while its tags are valid). */
uint64_t arb_game_id(const arb_game *g);

/* A game id as text: "v1:" and sixteen lowercase hexadecimal digits;
 * arb_game_id_text() is arb_id_text(arb_game_id(g), out). */
#define ARB_ID_TEXT 20
void arb_id_text(uint64_t id, char out[ARB_ID_TEXT]);
void arb_game_id_text(const arb_game *g, char out[ARB_ID_TEXT]);

typedef struct arb_reader arb_reader;

/* A reader for one stream; opt may be NULL for the defaults.  NULL if out of memory. */
arb_reader *arb_reader_new(const arb_options *opt);
void arb_reader_free(arb_reader *r);

/* Makes the reader start at byte `offset`, line `line` (1-based), of a
 * larger stream: a piece of a file split at a line start.  Reported lines
 * and offsets are then those of the whole stream (game numbers still count
 * from 1).  Call before the first arb_reader_feed(). */
void arb_reader_set_origin(arb_reader *r, uint64_t offset, uint64_t line);

/* True if the bytes fed so far end between games: nothing is under way but
 * a game that the next tag section would end.  A stream split where this
 * holds reads the same in pieces as whole. */
bool arb_reader_between_games(const arb_reader *r);

/* Gives the reader the next len bytes of the stream (see above). */
void arb_reader_feed(arb_reader *r, const void *buf, size_t len);

/* Says the stream has ended. */
void arb_reader_finish(arb_reader *r);

/* The next complete game, or NULL when more input (or the end) is needed.
 * After arb_reader_finish(), NULL means the stream is exhausted.  Sets
 * *oom (if oom is not NULL) when memory ran out; the stream cannot go on. */
const arb_game *arb_reader_next(arb_reader *r, bool *oom);

/* Names used in reports: "checkmate", "ok", "wrong-result", "time-insufficient",
 * "site-rule", "TerminationDetails", ...; "?" for a value out of range. */
const char *arb_fact_name(arb_fact f);
const char *arb_status_name(arb_status s);
const char *arb_verdict_name(arb_verdict v);
const char *arb_claim_name(arb_claim c);
const char *arb_check_name(arb_check c);
const char *arb_reason_from_name(arb_reason_from f);
const char *arb_reading_name(arb_reading r);

/* The library's version, "MAJOR.MINOR.PATCH". */
const char *arb_version(void);

#ifdef __cplusplus
}
#endif
#endif
