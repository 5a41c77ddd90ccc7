/* test_gameid.c: the game id (src/lib/gameid.c and the reader's part):
 * FNV-1a against the published test values; games' ids against version
 * 1 as pgnarbiter(3) writes it down, made here step by step with this
 * file's own implementation (64-bit words from bytes one at a time, the
 * 128-bit product from four 32-bit ones, the moves as written out by
 * hand), not the library's; what changes an id and what does not; and
 * the id made on demand. */
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

/* C(j) = (2j + 1) K, the keys of pgnarbiter(3). */
static uint64_t ref_key(unsigned j)
{
    return (2 * (uint64_t)j + 1) * 0x9e3779b97f4a7c15ULL;
}

/* Version 1 of a game, built piece by piece: the tags' chain a, the
 * moves' h, the plies and the tail. */
typedef struct {
    uint64_t a, h;
    uint32_t plies;
    uint64_t tail;
} ref_t;

/* Tag k (0 Event .. 6 FEN, 7 Variant as counted) with value v, in blocks
 * of 16 bytes, the last holding r = 0..16 of them; nothing if v is NULL. */
static void ref_tag(ref_t *r, unsigned k, const char *v)
{
    if (!v)
        return;
    size_t n = strlen(v);
    unsigned char b[16];
    for (; n > 16; v += 16, n -= 16)
        r->a = ref_fold(ref_word((const unsigned char *)v) ^ ref_key(18 * k + 17),
                        ref_word((const unsigned char *)v + 8) ^ r->a);
    memset(b, 0, sizeof b);
    memcpy(b, v, n);
    r->a = ref_fold(ref_word(b) ^ ref_key(18 * k + (unsigned)n), ref_word(b + 8) ^ r->a);
}

static void ref_move(ref_t *r, unsigned from, unsigned to, unsigned promo, unsigned kind)
{
    uint64_t w = from | to << 8 | promo << 16 | (uint64_t)kind << 24;
    r->h = (r->h ^ w) * 0x5bd1e995u;
    r->plies++;
}

static void ref_text(uint64_t *h, const char *s)
{
    for (; *s; s++) {
        *h ^= (unsigned char)*s;
        *h *= 0x100000001b3ULL;
    }
}

/* The id: the rest from the moves, the tail and the plies, then the tags'
 * chain with it, through splitmix64's finalizer. */
static uint64_t ref_id(const ref_t *r)
{
    uint64_t rest = ref_fold(r->h ^ ref_key(144), r->tail ^ r->plies);
    uint64_t z = ref_fold(r->a ^ ref_key(145), rest);
    z ^= z >> 30;
    z *= 0xbf58476d1ce4e5b9ULL;
    z ^= z >> 27;
    z *= 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
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
    r->a = 0x243f6a8885a308d3ULL;
    r->h = 0x452821e638d01377ULL;
    r->tail = 0xcbf29ce484222325ULL; /* FNV-1a's offset basis */
}

/* The id of pgn's one game is that of r; r starts afresh. */
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
    /* Squares are rank * 16 + file.  [Event "E"] 1. e4 *: "E" one block of
     * one byte, e2-e4 a double step (8), one ply, the FNV-1a basis as the
     * tail. */
    ref_tag(r, 0, "E");
    ref_move(r, 0x14, 0x34, 0, 8);
    ref_check(r, "[Event \"E\"]\n\n1. e4 *\n", "1. e4");
    char text[ARB_ID_TEXT];
    arb_id_text(0x0123456789abcdefULL, text);
    CHECK(strcmp(text, "v1:0123456789abcdef") == 0, "text %s", text);
    arb_game g = { .id = 0xfedcba9876543210ULL };
    arb_game_id_text(&g, text);
    CHECK(strcmp(text, "v1:fedcba9876543210") == 0, "text %s", text);

    /* 1...Ke5 cannot be played: "Nf3 ", then "Ke5", in the tail. */
    ref_tag(r, 0, "E");
    ref_move(r, 0x14, 0x34, 0, 8);
    ref_text(&r->tail, "Nf3 ");
    ref_text(&r->tail, "Ke5");
    ref_check(r, "[Event \"E\"]\n\n1. e4 Ke5 2. Nf3+ *\n", "1...Ke5");

    /* Every tag, in another order, values of 0, 9, 10, 16, 17, 23 and 51
     * bytes (whole blocks and the last's length); SetUp and a Variant
     * naming standard chess count as missing; moves of every kind:
     * castling (king to rook: 4), double steps (8), en passant (1 + 2), a
     * promotion with a capture, a capture, quiet moves. */
    ref_tag(r, 0, "Open 2024, round");
    ref_tag(r, 1, "https://example.org/abc");
    ref_tag(r, 2, "2024.05.01");
    ref_tag(r, 3, "");
    ref_tag(r, 4, "Ann Anderson-Able");
    ref_tag(r, 5, "Bob Brown");
    ref_tag(r, 6, "r3k2r/pPpp1ppp/8/4P3/8/8/PPP2PPP/R3K2R w KQkq - 0 1");
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

    /* A variant the program does not play: its value, every move in the
     * tail.  Chess960, however spelled, as "chess960". */
    ref_tag(r, 7, "Atomic");
    ref_text(&r->tail, "e4 ");
    ref_check(r, "[Variant \"Atomic\"]\n\n1. e4 *\n", "atomic");
    ref_tag(r, 6, "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1");
    ref_tag(r, 7, "chess960");
    ref_move(r, 0x07, 0x26, 0, 0); /* 1. Ng3: h1, g3 */
    ref_check(r, "[Variant \"Fischerandom\"]\n[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1\"]\n\n1. Ng3 *\n",
              "chess960");

    /* No plies: the start position refused (every move in the tail), and
     * a game of tags alone. */
    ref_tag(r, 6, "8/8/8/8/8/8/8/8 w - - 0 1");
    ref_text(&r->tail, "e4 ");
    ref_text(&r->tail, "e5 ");
    ref_check(r, "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 e5! *\n", "refused start");
    ref_tag(r, 4, "W");
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
    /* What archives add or drop around the start: SetUp beside a FEN, a
     * Variant naming standard chess, another spelling of Chess960. */
    CHECK(id_of(TAGS "[Variant \"Standard\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n") == a, "Variant Standard counted");
    CHECK(id_of(TAGS "[Variant \"From Position\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n") == a, "From Position counted");
    const char *fen = "[FEN \"8/8/8/8/8/8/6k1/4K2R w K - 0 1\"]\n\n1. O-O *\n";
    char with_setup[160];
    snprintf(with_setup, sizeof with_setup, "[SetUp \"1\"]\n%s", fen);
    CHECK(id_of(with_setup) == id_of(fen), "SetUp counted");
    const char *c960 = "[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1\"]\n\n1. Ng3 *\n";
    char v1[200], v2[200];
    snprintf(v1, sizeof v1, "[Variant \"Chess960\"]\n%s", c960);
    snprintf(v2, sizeof v2, "[Variant \"fischer random\"]\n%s", c960);
    CHECK(id_of(v1) == id_of(v2), "two spellings of Chess960, two ids");
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

/* Without arb_options.game_id the record's id is 0, and arb_game_id()
 * makes the same id from the record. */
START_TEST(on_demand)
{
    static const char pgn[] =
        TAGS "\n1. e4 e5 2. Nf3 Nc6 *\n\n"
        "[Event \"E\"]\n\n1. e4 Ke5 2. Nf3+ *\n\n"
        "[Variant \"Chess960\"]\n[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1\"]\n\n1. Ng3 *\n\n"
        "[Variant \"Atomic\"]\n[White \"W\"]\n\n1. e4 *\n\n"
        "[Variant \"Standard\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n";
    uint64_t want[8];
    size_t n = ids_of(pgn, want, 8);
    CHECK(n == 5, "%zu games", n);
    arb_reader *r = arb_reader_new(NULL);
    arb_reader_feed(r, pgn, strlen(pgn));
    arb_reader_finish(r);
    const arb_game *g;
    size_t i = 0;
    while ((g = arb_reader_next(r, NULL)) != NULL && i < n) {
        CHECK(g->id == 0, "game %zu: an id without arb_options.game_id", i + 1);
        CHECK(arb_game_id(g) == want[i], "game %zu: %016llx made on demand, %016llx as read", i + 1,
              (unsigned long long)arb_game_id(g), (unsigned long long)want[i]);
        i++;
    }
    CHECK(i == n, "%zu games on demand", i);
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
    tcase_add_test(tc, on_demand);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
