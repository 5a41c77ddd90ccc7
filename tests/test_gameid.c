/* test_gameid.c: the game id (src/lib/gameid.c and the reader's part):
 * XXH64 against values of the reference implementation (libxxhash 0.8.1),
 * in one call and fed in pieces; a game's id against its version-1 bytes
 * written out by hand from pgnarbiter.h; and what changes an id and what
 * does not. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gameid.h"
#include "pgnarbiter.h"
#include "testutil.h"

START_TEST(xxh64_vectors)
{
    static unsigned char ramp[100];
    for (int i = 0; i < 100; i++)
        ramp[i] = (unsigned char)i;
    /* XXH64() of libxxhash 0.8.1 on the same bytes. */
    const struct {
        const void *data;
        size_t len;
        uint64_t seed, want;
    } v[] = {
        { "", 0, 0, 0xef46db3751d8e999ULL },
        { "a", 1, 0, 0xd24ec4f1a98c6e5bULL },
        { "abc", 3, 0, 0x44bc2cf5ad770999ULL },
        { "abcd", 4, 0, 0xde0327b0d25d92ccULL },
        { "abcdefgh", 8, 0, 0x3ad351775b4634b7ULL },
        { "0123456789abcdefghijklmnopqrstuvwxyz", 36, 0, 0x69196c1b3af0bff9ULL },
        { ramp, 100, 0, 0x6ac1e58032166597ULL },
        { ramp, 100, 0x9E3779B185EBCA87ULL, 0x00278bda0ee3f586ULL },
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint64_t got = gameid_xxh64(v[i].data, v[i].len, v[i].seed);
        CHECK(got == v[i].want, "vector %zu (%zu bytes): %016llx, expected %016llx", i, v[i].len,
              (unsigned long long)got, (unsigned long long)v[i].want);
        /* Fed in two pieces, cut anywhere, and a byte at a time. */
        for (size_t cut = 0; cut <= v[i].len; cut++) {
            gameid_t h;
            gameid_init(&h, v[i].seed);
            gameid_update(&h, v[i].data, cut);
            gameid_update(&h, (const char *)v[i].data + cut, v[i].len - cut);
            CHECK(gameid_digest(&h) == v[i].want, "vector %zu cut at %zu", i, cut);
        }
        gameid_t h;
        gameid_init(&h, v[i].seed);
        for (size_t k = 0; k < v[i].len; k++)
            gameid_update(&h, (const char *)v[i].data + k, 1);
        CHECK(gameid_digest(&h) == v[i].want, "vector %zu a byte at a time", i);
    }
}
END_TEST

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

START_TEST(version_one_bytes)
{
    /* [Event "E"] 1. e4 *: "E" with its length, eight absent tags, one
     * ply, e2-e4 (0x14 to 0x34, no promotion, a double step: 8), no
     * failed move, and the FNV-1a basis as the tail; XXH64 of these bytes
     * by libxxhash. */
    uint64_t got = id_of("[Event \"E\"]\n\n1. e4 *\n");
    CHECK(got == 0x545b6d578f2bd88fULL, "1. e4: %016llx", (unsigned long long)got);
    /* 1...Ke5 cannot be played: its text, then "Nf3 " in the tail. */
    got = id_of("[Event \"E\"]\n\n1. e4 Ke5 2. Nf3+ *\n");
    CHECK(got == 0x52771e2e1ee78170ULL, "1...Ke5: %016llx", (unsigned long long)got);
    arb_game g = { .id = 0x545b6d578f2bd88fULL };
    char text[ARB_ID_TEXT];
    arb_game_id_text(&g, text);
    CHECK(strcmp(text, "v1:545b6d578f2bd88f") == 0, "text %s", text);
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
    tcase_add_test(tc, xxh64_vectors);
    tcase_add_test(tc, version_one_bytes);
    tcase_add_test(tc, same_game);
    tcase_add_test(tc, off_by_default);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
