/* test_gameid.c: the game id (src/lib/gameid.c and the reader's part):
 * FNV-1a against the published test values; games' ids against their
 * version-1 bytes, written out here by hand from pgnarbiter(3) and hashed
 * by this file's own implementation of the documented steps (64-bit
 * words from bytes one at a time, the 128-bit product from four 32-bit
 * ones), not the library's; and what changes an id and what does not. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gameid.h"
#include "pgnarbiter.h"
#include "testutil.h"

START_TEST(fnv1a_vectors)
{
    /* FNV-1a, 64 bits, of the FNV reference's test strings. */
    CHECK(gameid_fnv1a(GAMEID_FNV_BASIS, "", 0) == 0xcbf29ce484222325ULL, "\"\"");
    CHECK(gameid_fnv1a(GAMEID_FNV_BASIS, "a", 1) == 0xaf63dc4c8601ec8cULL, "a");
    CHECK(gameid_fnv1a(GAMEID_FNV_BASIS, "foobar", 6) == 0x85944171f73967e8ULL, "foobar");
    CHECK(gameid_fnv1a(gameid_fnv1a(GAMEID_FNV_BASIS, "foo", 3), "bar", 3) == 0x85944171f73967e8ULL,
          "foobar in two pieces");
}
END_TEST

/* The documented hash, step by step. */
static uint64_t ref_fold(uint64_t u, uint64_t v)
{
    uint64_t u0 = u & 0xFFFFFFFFu, u1 = u >> 32, v0 = v & 0xFFFFFFFFu, v1 = v >> 32;
    uint64_t p00 = u0 * v0, p01 = u0 * v1, p10 = u1 * v0, p11 = u1 * v1;
    uint64_t carry = ((p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu)) >> 32;
    uint64_t low = p00 + (p01 << 32) + (p10 << 32);
    uint64_t high = p11 + (p01 >> 32) + (p10 >> 32) + carry;
    return low ^ high;
}

static uint64_t ref_word(const unsigned char *b)
{
    uint64_t w = 0;
    for (int i = 7; i >= 0; i--)
        w = w << 8 | b[i];
    return w;
}

static uint64_t ref_hash(const unsigned char *b, size_t len)
{
    CHECK(len % 16 == 0, "not whole blocks: %zu bytes", len);
    uint64_t a = 0x243f6a8885a308d3ULL;
    for (size_t i = 0; i < len; i += 16)
        a = ref_fold(ref_word(b + i) ^ 0x9e3779b97f4a7c15ULL, ref_word(b + i + 8) ^ a);
    a ^= a >> 30;
    a *= 0xbf58476d1ce4e5b9ULL;
    a ^= a >> 27;
    a *= 0x94d049bb133111ebULL;
    return a ^ (a >> 31);
}

/* Version 1's bytes of a game, built piece by piece. */
typedef struct {
    unsigned char b[1024];
    size_t n;
    uint32_t len[9];
    uint32_t plies;
    uint64_t tail;
} ref_t;

static void ref_pad(ref_t *r)
{
    while (r->n % 16)
        r->b[r->n++] = 0;
}

/* Tag i (0 Event .. 8 Variant) with value v, NULL if the game has none. */
static void ref_tag(ref_t *r, int i, const char *v)
{
    r->len[i] = v ? (uint32_t)strlen(v) : 0xFFFFFFFFu;
    if (v) {
        memcpy(r->b + r->n, v, strlen(v));
        r->n += strlen(v);
        ref_pad(r);
    }
}

static void ref_move(ref_t *r, unsigned from, unsigned to, unsigned promo, unsigned kind)
{
    r->b[r->n++] = (unsigned char)from;
    r->b[r->n++] = (unsigned char)to;
    r->b[r->n++] = (unsigned char)promo;
    r->b[r->n++] = (unsigned char)kind;
    r->plies++;
}

static void ref_text(uint64_t *h, const char *s)
{
    for (; *s; s++) {
        *h ^= (unsigned char)*s;
        *h *= 0x100000001b3ULL;
    }
}

static void ref_put32(ref_t *r, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        r->b[r->n++] = (unsigned char)(v >> 8 * i);
}

/* The id of the bytes: the moves padded, the lengths, the plies, the tail. */
static uint64_t ref_id(ref_t *r)
{
    ref_pad(r);
    for (int i = 0; i < 9; i++)
        ref_put32(r, r->len[i]);
    ref_put32(r, r->plies);
    ref_put32(r, (uint32_t)r->tail);
    ref_put32(r, (uint32_t)(r->tail >> 32));
    return ref_hash(r->b, r->n);
}

/* The ids of the games of pgn, in order, into ids (at most max); how many. */
static size_t ids_of(const char *pgn, uint64_t *ids, size_t max)
{
    arb_options opt = { .game_id = true };
    arb_reader *r = arb_reader_new(&opt);
    CHECK(r != NULL, "out of memory");
    size_t n = 0;
    arb_reader_feed(r, pgn, strlen(pgn));
    const arb_game *g;
    for (int pass = 0; pass < 2; pass++) {
        while ((g = arb_reader_next(r, NULL)) != NULL)
            if (n < max)
                ids[n++] = g->id;
        arb_reader_finish(r);
    }
    arb_reader_free(r);
    return n;
}

static uint64_t id_of(const char *pgn)
{
    uint64_t id = 0;
    CHECK(ids_of(pgn, &id, 1) == 1, "not one game: %s", pgn);
    return id;
}

static void ref_reset(ref_t *r)
{
    memset(r, 0, sizeof *r);
    r->tail = 0xcbf29ce484222325ULL; /* FNV-1a's offset basis */
}

/* The id of pgn's one game is that of r's bytes; r starts afresh. */
static void ref_check(ref_t *r, const char *pgn, const char *what)
{
    uint64_t want = ref_id(r), got = id_of(pgn);
    CHECK(got == want, "%s: %016llx, expected %016llx", what, (unsigned long long)got, (unsigned long long)want);
    ref_reset(r);
}

START_TEST(version_one_bytes)
{
    ref_t *r = calloc(1, sizeof *r);
    CHECK(r != NULL, "out of memory");
    ref_reset(r);
    /* Squares are rank * 16 + file.  [Event "E"] 1. e4 *: "E" padded, e2-e4
     * (a double step: 8) padded, the lengths (eight tags missing), one
     * ply, the FNV-1a basis as the tail. */
    ref_tag(r, 0, "E");
    for (int i = 1; i < 9; i++)
        ref_tag(r, i, NULL);
    ref_move(r, 0x14, 0x34, 0, 8);
    ref_check(r, "[Event \"E\"]\n\n1. e4 *\n", "1. e4");
    arb_game g = { .id = 0x0123456789abcdefULL };
    char text[ARB_ID_TEXT];
    arb_game_id_text(&g, text);
    CHECK(strcmp(text, "v1:0123456789abcdef") == 0, "text %s", text);

    /* 1...Ke5 cannot be played: "Nf3 ", then "Ke5", in the tail. */
    ref_tag(r, 0, "E");
    for (int i = 1; i < 9; i++)
        ref_tag(r, i, NULL);
    ref_move(r, 0x14, 0x34, 0, 8);
    ref_text(&r->tail, "Nf3 ");
    ref_text(&r->tail, "Ke5");
    ref_check(r, "[Event \"E\"]\n\n1. e4 Ke5 2. Nf3+ *\n", "1...Ke5");

    /* Every tag, in another order, values of 0, 1, 8, 9, 10, 16, 17, 23
     * and 51 bytes (the blocks and their padding); moves of every kind:
     * castling (king to rook: 4), double steps (8), en passant (1 + 2), a
     * promotion with a capture, a capture, quiet moves; nine plies (two
     * blocks of four moves, one of one). */
    ref_tag(r, 0, "Open 2024, round");
    ref_tag(r, 1, "https://example.org/abc");
    ref_tag(r, 2, "2024.05.01");
    ref_tag(r, 3, "");
    ref_tag(r, 4, "Ann Anderson-Able");
    ref_tag(r, 5, "Bob Brown");
    ref_tag(r, 6, "1");
    ref_tag(r, 7, "r3k2r/pPpp1ppp/8/4P3/8/8/PPP2PPP/R3K2R w KQkq - 0 1");
    ref_tag(r, 8, "Standard");
    ref_move(r, 0x04, 0x07, 0, 4); /* 1. O-O: e1, h1 */
    ref_move(r, 0x63, 0x43, 0, 8); /* 1... d5 */
    ref_move(r, 0x44, 0x53, 0, 3); /* 2. exd6 */
    ref_move(r, 0x74, 0x77, 0, 4); /* 2... O-O: e8, h8 */
    ref_move(r, 0x61, 0x70, 2, 1); /* 3. bxa8=N */
    ref_move(r, 0x62, 0x53, 0, 1); /* 3... cxd6 */
    ref_move(r, 0x70, 0x62, 0, 0); /* 4. Nc7 */
    ref_move(r, 0x53, 0x43, 0, 0); /* 4... d5 */
    ref_move(r, 0x12, 0x32, 0, 8); /* 5. c4 */
    ref_check(r,
              "[Variant \"Standard\"]\n[Event \"Open 2024, round\"]\n[Site \"https://example.org/abc\"]\n"
              "[Date \"2024.05.01\"]\n[Round \"\"]\n[White \"Ann Anderson-Able\"]\n"
              "[Black \"Bob Brown\"]\n[SetUp \"1\"]\n[FEN \"r3k2r/pPpp1ppp/8/4P3/8/8/PPP2PPP/R3K2R w KQkq - 0 1\"]\n\n"
              "1. O-O d5 2. exd6 O-O 3. bxa8=N cxd6 4. Nc7 d5 5. c4 *\n",
              "every kind");

    /* No plies: the start position refused (every move in the tail), and
     * a game of tags alone. */
    for (int i = 0; i < 9; i++)
        ref_tag(r, i, i == 7 ? "8/8/8/8/8/8/8/8 w - - 0 1" : NULL);
    ref_text(&r->tail, "e4 ");
    ref_text(&r->tail, "e5 ");
    ref_check(r, "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 e5! *\n", "refused start");
    for (int i = 0; i < 9; i++)
        ref_tag(r, i, i == 4 ? "W" : NULL);
    ref_check(r, "[White \"W\"]\n\n*\n", "tags alone");
    free(r);
}
END_TEST

#define TAGS "[Event \"Open\"]\n[Site \"Here\"]\n[Date \"2024.05.01\"]\n[Round \"3\"]\n" \
             "[White \"Ann\"]\n[Black \"Bob\"]\n"

START_TEST(same_game)
{
    uint64_t a = id_of(TAGS "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n");
    const char *same[] = {
        /* Re-wrapped, commented, glyphs, a variation, other tags, another result. */
        TAGS "[Result \"0-1\"]\n[Annotator \"X\"]\n\n1.e4 {best} e5 $1\n2.Nf3\nNc6 (2...d6) 3.Bb5 a6!? 0-1\n",
        "[Annotator \"X\"]\n" TAGS "\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n",
        TAGS "\n1 e4 e5 2 Nf3 Nc6 3 Bb5 a6\n",
        TAGS "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 1-0\n",
    };
    for (size_t i = 0; i < 3; i++)
        CHECK(id_of(same[i]) == a, "reformatting %zu changed the id", i);
    CHECK(id_of(same[3]) != a, "one more move: the same id");
    const char *other[] = {
        TAGS "\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a5 *\n",             /* one move */
        TAGS "\n1. e4 e5 2. Nf3 Nc6 3. Bc4 a6 *\n",             /* one move */
        "[Event \"Open\"]\n[Site \"Here\"]\n[Date \"2024.05.01\"]\n[Round \"4\"]\n"
        "[White \"Ann\"]\n[Black \"Bob\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n",
        "[Event \"Open\"]\n[Site \"Here\"]\n[Date \"2024.05.01\"]\n[Round \"3\"]\n"
        "[White \"Bob\"]\n[Black \"Ann\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n",
        TAGS "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n"
             "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n",
    };
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
        CHECK(id_of(other[i]) != a, "game %zu has the id of another", i);
    /* A promotion to another piece. */
    uint64_t q = id_of("[FEN \"8/P7/8/8/8/8/8/k6K w - - 0 1\"]\n\n1. a8=Q *\n");
    uint64_t n = id_of("[FEN \"8/P7/8/8/8/8/8/k6K w - - 0 1\"]\n\n1. a8=N *\n");
    CHECK(q != n, "a8=Q and a8=N share an id");
    /* Moves after an illegal one are in the id too. */
    CHECK(id_of(TAGS "\n1. e4 Ke5 2. Nf3 *\n") != id_of(TAGS "\n1. e4 Ke5 2. Nc3 *\n"),
          "the moves after an illegal one left out");
    CHECK(id_of(TAGS "\n1. e4 Ke5 2. Nf3 *\n") == id_of(TAGS "\n1. e4 Ke5 {x}\n2. Nf3+ 1-0\n"),
          "the moves after an illegal one read as bytes");
    /* Two identical games in one stream share their id. */
    uint64_t two[2];
    CHECK(ids_of(TAGS "\n1. e4 e5 *\n\n" TAGS "\n1. e4 e5 *\n", two, 2) == 2 && two[0] == two[1],
          "identical games, different ids");
}
END_TEST

START_TEST(off_by_default)
{
    arb_reader *r = arb_reader_new(NULL);
    arb_reader_feed(r, "1. e4 *\n", 8);
    arb_reader_finish(r);
    const arb_game *g = arb_reader_next(r, NULL);
    CHECK(g && g->id == 0, "an id without arb_options.game_id");
    arb_reader_free(r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gameid");
    TCase *tc = tcase_create("gameid");
    tcase_add_test(tc, fnv1a_vectors);
    tcase_add_test(tc, version_one_bytes);
    tcase_add_test(tc, same_game);
    tcase_add_test(tc, off_by_default);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
