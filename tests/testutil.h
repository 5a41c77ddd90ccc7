/* testutil.h: small helpers shared by the engine's unit tests (tests only).
 *
 * Every helper that can fail takes the caller's file and line (the TU_*
 * macros pass them) and fails the running libcheck test with a message that
 * names the FEN, the move text and what the engine said, so a failure points
 * at the test line and says what differed. */
#ifndef ARB_TESTUTIL_H
#define ARB_TESTUTIL_H

#include <check.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "movegen.h"
#include "rules.h"
#include "san.h"
#include "zobrist.h"

/* ck_assert() costs a little per check that passes; in loops only a
 * failure should cost anything. */
#define CHECK(cond, ...)                                                                          \
    do {                                                                                          \
        if (!(cond))                                                                              \
            ck_abort_msg(__VA_ARGS__);                                                            \
    } while (0)

#define TU_START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
/* The published perft positions 2 ("Kiwipete"), 3 and 4, shared by the
 * suites that walk random games from them. */
#define TU_KIWIPETE_FEN "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
#define TU_PERFT3_FEN "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
#define TU_PERFT4_FEN "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"

/* A position to start random games from; c960: castle by Chess960 rules. */
typedef struct {
    const char *fen;
    bool c960;
} tu_start_t;
/* The starts most walks share: the perft positions 1 to 4 and a Chess960
 * start with castling rights on both wings. */
#define TU_WALK_STARTS                                                                        \
    { TU_START_FEN, false }, { TU_KIWIPETE_FEN, false }, { TU_PERFT4_FEN, false },             \
        { TU_PERFT3_FEN, false },                                                             \
    {                                                                                         \
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 9", true             \
    }
#define TU_WHERE __FILE__, __LINE__

/* ---- squares and moves as text ---------------------------------------- */

/* "e4" -> 0x88 square, SQ_NONE if the text is not a square. */
static inline uint8_t tu_sq(const char *s)
{
    if (s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
        return SQ_NONE;
    return SQ(s[0] - 'a', s[1] - '1');
}

/* 0x88 square -> "e4" in buf (3 bytes), "??" if off the board. */
static inline const char *tu_sqname(int sq, char buf[3])
{
    if (sq < 0 || sq > 127 || SQ_OFFBOARD(sq)) {
        buf[0] = buf[1] = '?';
    } else {
        buf[0] = (char)('a' + SQ_FILE(sq));
        buf[1] = (char)('1' + SQ_RANK(sq));
    }
    buf[2] = '\0';
    return buf;
}

/* A move as "e2e4", "e7e8q", "e1h1/castle", "0000/null" (buf >= 32 bytes). */
static inline const char *tu_move_str(move_t m, char buf[32])
{
    char a[3], b[3];
    static const char promo[] = " pnbrqk";
    int n = snprintf(buf, 32, "%s%s", tu_sqname(m.from, a), tu_sqname(m.to, b));
    if (m.promo && m.promo <= KING)
        n += snprintf(buf + n, 32 - (size_t)n, "%c", promo[m.promo]);
    if (m.flags & MOVE_CASTLE)
        n += snprintf(buf + n, 32 - (size_t)n, "/castle");
    if (m.flags & MOVE_EP)
        n += snprintf(buf + n, 32 - (size_t)n, "/ep");
    if (m.flags & MOVE_NULL)
        snprintf(buf, 32, "0000/null");
    return buf;
}

static inline bool tu_move_eq(move_t a, move_t b)
{
    return a.from == b.from && a.to == b.to && a.promo == b.promo && a.flags == b.flags;
}

/* ---- boards ------------------------------------------------------------ */

static inline const char *tu_fen_out(const board_t *b, char buf[128])
{
    board_to_fen(b, buf, 128);
    return buf;
}

static inline void tu_fen_at(const char *file, int line, board_t *b, const char *fen, bool c960)
{
    board_error_t why = NULL;
    if (board_from_fen(b, fen, c960, &why) != 0)
        ck_abort_msg("%s:%d: board_from_fen refused \"%s\"%s: %s", file, line, fen,
                     c960 ? " (chess960)" : "", why ? why : "(no reason given)");
}
/* Parses a FEN into *b or fails the test with the engine's reason. */
#define TU_FEN(b, fen) tu_fen_at(TU_WHERE, (b), (fen), false)
#define TU_FEN960(b, fen) tu_fen_at(TU_WHERE, (b), (fen), true)

/* Compares the position fields of two boards (on-board squares, key, kings,
 * castling, en passant, side, clocks, counts); writes the first difference
 * into diff (>= 96 bytes) and returns false, or returns true. */
static inline bool tu_board_same(const board_t *a, const board_t *b, char *diff)
{
    char s[3];
    for (int sq = 0; sq < 128; sq++)
        if (!SQ_OFFBOARD(sq) && a->sq[sq] != b->sq[sq])
            return snprintf(diff, 96, "square %s: %d vs %d", tu_sqname(sq, s), a->sq[sq], b->sq[sq]), false;
    if (a->key != b->key)
        return snprintf(diff, 96, "key %016llx vs %016llx", (unsigned long long)a->key,
                        (unsigned long long)b->key), false;
    for (int c = 0; c < 2; c++)
        if (a->king[c] != b->king[c])
            return snprintf(diff, 96, "king[%d] %d vs %d", c, a->king[c], b->king[c]), false;
    for (int i = 0; i < 4; i++)
        if (a->castle_rook[i] != b->castle_rook[i])
            return snprintf(diff, 96, "castle_rook[%d] %d vs %d", i, a->castle_rook[i], b->castle_rook[i]), false;
    if (a->castle != b->castle)
        return snprintf(diff, 96, "castle %d vs %d", a->castle, b->castle), false;
    if (a->ep_legal != b->ep_legal)
        return snprintf(diff, 96, "ep_legal %d vs %d", a->ep_legal, b->ep_legal), false;
    if (a->ep_legal && a->ep != b->ep)
        return snprintf(diff, 96, "ep %d vs %d", a->ep, b->ep), false;
    if (a->stm != b->stm || a->chess960 != b->chess960)
        return snprintf(diff, 96, "stm %d/%d chess960 %d/%d", a->stm, b->stm, a->chess960, b->chess960), false;
    if (a->halfmove != b->halfmove || a->fullmove != b->fullmove)
        return snprintf(diff, 96, "clocks %d %d vs %d %d", a->halfmove, a->fullmove, b->halfmove, b->fullmove), false;
    for (int p = 1; p < 16; p++)
        if (a->count[p] != b->count[p])
            return snprintf(diff, 96, "count[%d] %d vs %d", p, a->count[p], b->count[p]), false;
    return true;
}

/* Finds the legal move named "e2e4" / "e7e8q" (from, to, promotion) among
 * movegen_legal's list; "e1h1" names castling (king takes own rook).
 * Returns false if there is none. */
static inline bool tu_find_move(const board_t *b, const char *uci, move_t *out)
{
    move_t list[MAX_MOVES];
    int n = movegen_legal(b, list);
    uint8_t from = tu_sq(uci), to = tu_sq(uci + 2), promo = EMPTY;
    if (uci[4]) {
        const char *p = strchr("pnbrqk", uci[4]);
        promo = p ? (uint8_t)(p - "pnbrqk" + 1) : 0xFF;
    }
    for (int i = 0; i < n; i++)
        if (list[i].from == from && list[i].to == to && list[i].promo == promo) {
            if (out)
                *out = list[i];
            return true;
        }
    return false;
}

static inline bool tu_has_move(const board_t *b, const char *uci)
{
    return tu_find_move(b, uci, NULL);
}

/* The legal move named by uci, or fail the test. */
static inline move_t tu_move_at(const char *file, int line, const board_t *b, const char *uci)
{
    move_t m = {0, 0, 0, 0};
    char fen[128];
    if (!tu_find_move(b, uci, &m))
        ck_abort_msg("%s:%d: %s is not a legal move in %s", file, line, uci, tu_fen_out(b, fen));
    return m;
}
#define TU_MOVE(b, uci) tu_move_at(TU_WHERE, (b), (uci))

/* SAN text -> the legal move it names in b, or fail with the engine's why. */
static inline move_t tu_san_at(const char *file, int line, const board_t *b, const char *san)
{
    san_syntax_t s;
    move_t m = {0, 0, 0, 0};
    char why[160] = "", fen[128];
    if (san_parse(san, strlen(san), &s) != 0)
        ck_abort_msg("%s:%d: san_parse refused \"%s\"", file, line, san);
    enum san_status st = san_resolve(b, &s, &m, why, sizeof why);
    if (st != SAN_OK)
        ck_abort_msg("%s:%d: san_resolve(\"%s\") in %s returned %d: %s", file, line, san,
                     tu_fen_out(b, fen), (int)st, why);
    return m;
}
#define TU_SAN(b, san) tu_san_at(TU_WHERE, (b), (san))

/* Next move token of a PGN-like move list ("1. e4 e5 2. Nf3 1... Nc6"),
 * skipping move numbers; returns false at the end. */
static inline bool tu_next_token(const char **p, char tok[16])
{
    for (;;) {
        while (**p == ' ' || **p == '\n' || **p == '\t')
            (*p)++;
        if (!**p)
            return false;
        size_t n = 0;
        while ((*p)[n] && (*p)[n] != ' ' && (*p)[n] != '\n' && (*p)[n] != '\t')
            n++;
        const char *t = *p;
        *p += n;
        if (t[0] >= '1' && t[0] <= '9') {
            /* a move number: "12." or "12..." alone, or glued as in "12.Nf3" */
            size_t k = 0;
            while (k < n && t[k] >= '0' && t[k] <= '9')
                k++;
            if (k < n && t[k] == '.') {
                while (k < n && t[k] == '.')
                    k++;
                if (k == n)
                    continue;
                t += k;
                n -= k;
            }
        }
        if (n > 15)
            n = 15;
        memcpy(tok, t, n);
        tok[n] = '\0';
        return true;
    }
}

/* Plays a space-separated SAN list on *b, failing at the first bad move. */
static inline void tu_play_at(const char *file, int line, board_t *b, const char *moves)
{
    char tok[16];
    board_t next;
    while (tu_next_token(&moves, tok)) {
        move_t m = tu_san_at(file, line, b, tok);
        board_make_move(b, m, &next);
        *b = next;
    }
}
#define TU_PLAY(b, moves) tu_play_at(TU_WHERE, (b), (moves))

/* ---- deterministic randomness ------------------------------------------ */

/* splitmix64: the state is the caller's, so tests stay reproducible. */
static inline uint64_t tu_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The size of the next chunk of a stream with `left` bytes left, fed in
 * random chunks of 1..max bytes and now and then an empty one. */
static inline size_t tu_chunk_size(uint64_t *seed, size_t left, size_t max)
{
    uint64_t x = tu_rand(seed);
    size_t n = (x & 15) == 0 ? 0 : (size_t)(x >> 8) % max + 1;
    return n > left ? left : n;
}

/* ---- a growable string ------------------------------------------------ */

/* What a test builds up to compare with an expected text; NUL-terminated. */
typedef struct {
    char *s;
    size_t len, cap;
} sbuf_t;

static inline void sb_putn(sbuf_t *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (b->len + n + 1 > cap)
            cap *= 2;
        b->s = realloc(b->s, cap);
        CHECK(b->s != NULL, "out of memory");
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static inline void sb_printf(sbuf_t *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    CHECK(n >= 0 && (size_t)n < sizeof tmp, "sb_printf overflow");
    sb_putn(b, tmp, (size_t)n);
}

/* ---- showing bytes ----------------------------------------------------- */

/* s[0..n) with printable ASCII as is, \n as "\n" and a line break, other
 * bytes as \xNN, "(null)" for NULL.  One of a few rotating static buffers,
 * so that a message can show two. */
static inline const char *tu_vis(const char *s, size_t n)
{
    static char bufs[4][16384];
    static int k;
    if (!s)
        return "(null)";
    char *o = bufs[k = (k + 1) % 4];
    size_t at = 0, cap = sizeof bufs[0] - 16;
    for (size_t i = 0; i < n && at < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n')
            at += (size_t)snprintf(o + at, sizeof bufs[0] - at, "\\n\n      ");
        else if (c >= 0x20 && c < 0x7f)
            o[at++] = (char)c;
        else
            at += (size_t)snprintf(o + at, sizeof bufs[0] - at, "\\x%02x", c);
    }
    if (at >= cap)
        at += (size_t)snprintf(o + at, sizeof bufs[0] - at, "...");
    o[at] = '\0';
    return o;
}

/* ---- rules ------------------------------------------------------------- */

/* The JSON names of the facts, in enum order; kept here (not taken from
 * rules_fact_name) so that a wrong name cannot hide a wrong value. */
static inline const char *tu_fact(int f)
{
    static const char *const names[FACT_COUNT] = {
        "checkmate", "stalemate", "insufficient", "dead",
        "fivefold", "seventyfive", "threefold", "fifty", "white_cannot_win", "black_cannot_win"};
    return f >= 0 && f < FACT_COUNT ? names[f] : "?";
}

/* Follows a game from fen (NULL: the start position) through a PGN-like SAN
 * list with rules_init/rules_play, then rules_finish.  Free with rules_free. */
static inline void tu_game_at(const char *file, int line, rules_t *r, const char *fen,
                              bool c960, const char *moves)
{
    board_t start;
    char tok[16];
    tu_fen_at(file, line, &start, fen ? fen : TU_START_FEN, c960);
    if (rules_init(r, &start) != 0)
        ck_abort_msg("%s:%d: rules_init failed", file, line);
    while (tu_next_token(&moves, tok)) {
        move_t m = tu_san_at(file, line, r->pos, tok);
        if (rules_play(r, m) != 0)
            ck_abort_msg("%s:%d: rules_play(%s) failed", file, line, tok);
    }
    rules_finish(r);
}
#define TU_GAME(r, fen, moves) tu_game_at(TU_WHERE, (r), (fen), false, (moves))
#define TU_GAME960(r, fen, moves) tu_game_at(TU_WHERE, (r), (fen), true, (moves))

/* Compares r->first[] with an expectation such as "threefold=7 fifty=2";
 * facts not named are expected never to hold (-1).  Lists every difference. */
static inline void tu_expect_first_at(const char *file, int line, const rules_t *r,
                                      const char *what, const char *expect)
{
    int want[FACT_COUNT];
    bool named[FACT_COUNT] = { false };
    char msg[512] = "";
    size_t used = 0;
    for (int f = 0; f < FACT_COUNT; f++)
        want[f] = -1;
    for (const char *p = expect; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *eq = strchr(p, '=');
        int f;
        if (!eq)
            ck_abort_msg("%s:%d: bad expectation \"%s\"", file, line, expect);
        for (f = 0; f < FACT_COUNT; f++)
            if (strlen(tu_fact(f)) == (size_t)(eq - p) && !strncmp(p, tu_fact(f), (size_t)(eq - p)))
                break;
        if (f == FACT_COUNT)
            ck_abort_msg("%s:%d: unknown fact in \"%s\"", file, line, expect);
        char *end;
        want[f] = (int)strtol(eq + 1, &end, 10);
        named[f] = true;
        p = end;
    }
    for (int f = 0; f < FACT_COUNT; f++)
        /* The per-side winnability facts are checked only where a case names them. */
        if (r->first[f] != want[f] && used < sizeof msg && (f < FACT_WHITE_CANNOT_WIN || named[f]))
            used += (size_t)snprintf(msg + used, sizeof msg - used, " %s: expected %d, got %d;",
                                     tu_fact(f), want[f], (int)r->first[f]);
    if (used)
        ck_abort_msg("%s:%d: %s: first[] differs (-1 = never):%s", file, line, what, msg);
}
#define TU_EXPECT_FIRST(r, what, expect) tu_expect_first_at(TU_WHERE, (r), (what), (expect))

/* ---- suites ------------------------------------------------------------ */

/* Runs one suite (fork mode as configured by CK_FORK) and returns the exit
 * status for main(): 0 if every test passed. */
static inline int tu_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* Adds one named TCase holding one test, with a timeout generous enough for
 * sanitizer builds. */
#define TU_CASE(suite, fn, seconds)                                                                \
    do {                                                                                           \
        TCase *tc_ = tcase_create(#fn);                                                            \
        tcase_set_timeout(tc_, (seconds));                                                         \
        tcase_add_test(tc_, fn);                                                                   \
        suite_add_tcase((suite), tc_);                                                             \
    } while (0)

#endif
