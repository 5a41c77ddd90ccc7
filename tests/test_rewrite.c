/* test_rewrite.c: unit tests for the --fix rewriter (src/rewrite.h).
 *
 * Each input is fed, the same chunks to both, to an arb_reader and a
 * rewriter_t, and every game the reader hands out goes through
 * rewrite_game(), then rewrite_finish(), as main.c does.  The output is
 * compared byte for byte with the expected text (FIXING in
 * pgn-arbiter(1)).  Every input is also rewritten byte by byte and in
 * random chunks, which must give the same bytes, and the output is
 * rewritten again, which must change nothing (idempotence). */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgnarbiter.h"
#include "report.h"
#include "rewrite.h"
#include "testutil.h"

/* ---- running the rewriter ---- */

typedef struct {
    char *data;          /* the output, NUL-terminated */
    size_t len;
    int games, changed;  /* games read; games for which rewrite_game returned 1 */
    int refused;         /* games it returned -1 for: left as they are */
} fixed_t;

enum cut { WHOLE, BYTES, RANDOM };

typedef struct {
    rewrite_options_t opt;
    arb_policy policy;
    uint64_t origin, origin_line; /* rewrite_set_origin / arb_reader_set_origin, if origin > 0 */
    const char *origin_eol;       /* the line end before the origin, NULL if unknown */
} setup_t;

static void drain(arb_reader *r, rewriter_t *w, strbuf_t *out, fixed_t *f)
{
    const arb_game *g;
    bool oom = false;
    while ((g = arb_reader_next(r, &oom)) != NULL) {
        f->games++;
        int c = rewrite_game(w, g, out);
        f->changed += c > 0;
        f->refused += c < 0;
    }
    CHECK(!oom, "arb_reader_next ran out of memory");
}

/* Rewrites in[0..len) fed as asked; each chunk is a heap copy, freed once
 * the reader has returned NULL (the rewriter must keep its own copy). */
static fixed_t fix_cut(const char *in, size_t len, const setup_t *s, enum cut how, uint64_t seed)
{
    fixed_t f = { 0 };
    strbuf_t out = { 0 };
    arb_options ao = { .allow_null_moves = false, .policy = s->policy };
    arb_reader *r = arb_reader_new(&ao);
    rewriter_t *w = rewrite_new(s->opt);
    CHECK(r && w, "out of memory");
    if (s->origin) {
        arb_reader_set_origin(r, s->origin, s->origin_line);
        rewrite_set_origin(w, s->origin, s->origin_eol);
    }
    for (size_t at = 0; at < len;) {
        size_t n = len - at;
        if (how == BYTES)
            n = 1;
        else if (how == RANDOM)
            n = tu_chunk_size(&seed, len - at, 61);
        char *chunk = malloc(n ? n : 1);
        CHECK(chunk != NULL, "out of memory");
        memcpy(chunk, in + at, n);
        arb_reader_feed(r, chunk, n);
        rewrite_spill(w, &out);
        CHECK(rewrite_feed(w, chunk, n) == 0, "rewrite_feed failed");
        drain(r, w, &out, &f);
        memset(chunk, '#', n); /* a rewriter that kept a pointer into it shows */
        free(chunk);
        at += n;
    }
    arb_reader_finish(r);
    drain(r, w, &out, &f);
    rewrite_finish(w, &out);
    CHECK(!out.oom, "the output buffer ran out of memory");
    strbuf_append(&out, "", 1);
    f.data = out.data;
    f.len = out.len - 1;
    rewrite_free(w);
    arb_reader_free(r);
    return f;
}

static void expect_same_at(const char *file, int line, const char *what, const char *want, size_t wlen,
                           const fixed_t *got)
{
    if (got->len == wlen && memcmp(got->data, want, wlen) == 0)
        return;
    size_t i = 0;
    while (i < wlen && i < got->len && want[i] == got->data[i])
        i++;
    /* Around the difference: a long input would not fit in a message. */
    size_t from = i > 200 ? i - 200 : 0;
    size_t wn = wlen - from < 400 ? wlen - from : 400, gn = got->len - from < 400 ? got->len - from : 400;
    ck_abort_msg("%s:%d: %s: first difference at byte %zu\n  want: %s%s\n  got:  %s%s", file, line, what, i,
                 from ? "..." : "", tu_vis(want + from, wn), from ? "..." : "", tu_vis(got->data + from, gn));
}

/* Rewrites in (len bytes) whole, byte by byte and in random chunks, checks
 * that all give want and that `changed` games changed, then rewrites the
 * output again, which must give it back with no game changed. */
static void fix_at(const char *file, int line, const char *in, size_t len, const setup_t *s, const char *want,
                   size_t wlen, int changed)
{
    fixed_t whole = fix_cut(in, len, s, WHOLE, 0);
    expect_same_at(file, line, "rewritten whole", want, wlen, &whole);
    CHECK(changed < 0 || whole.changed == changed, "%s:%d: rewrite_game returned true for %d of %d games, expected %d",
          file, line, whole.changed, whole.games, changed);
    static const struct {
        enum cut how;
        uint64_t seed;
        const char *name;
    } cuts[] = { { BYTES, 0, "fed byte by byte" }, { RANDOM, 1, "fed in random chunks (seed 1)" },
                 { RANDOM, 7, "fed in random chunks (seed 7)" } };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        fixed_t other = fix_cut(in, len, s, cuts[i].how, cuts[i].seed);
        expect_same_at(file, line, cuts[i].name, want, wlen, &other);
        CHECK(other.changed == whole.changed && other.games == whole.games, "%s:%d: %s: %d/%d games changed, whole: %d/%d",
              file, line, cuts[i].name, other.changed, other.games, whole.changed, whole.games);
        free(other.data);
    }
    /* Idempotence: the output needs no change. */
    fixed_t again = fix_cut(whole.data, whole.len, s, WHOLE, 0);
    expect_same_at(file, line, "rewritten a second time", want, wlen, &again);
    CHECK(again.changed == 0, "%s:%d: rewriting the output again changed %d games", file, line, again.changed);
    free(again.data);
    free(whole.data);
}

static const setup_t ANNOTATE = { .opt = { .annotate = true, .truncate = false }, .policy = ARB_RULES_FIDE };
static const setup_t PLAIN = { .opt = { .annotate = false, .truncate = false }, .policy = ARB_RULES_FIDE };
static const setup_t TRUNCATE = { .opt = { .annotate = true, .truncate = true }, .policy = ARB_RULES_FIDE };

#define FIX(in, setup, want, changed) fix_at(TU_WHERE, (in), strlen(in), &(setup), (want), strlen(want), (changed))

/* ---- the Result tag ---- */

START_TEST(result_tag_corrected)
{
    /* Fool's mate recorded as a draw. */
    const char *in = "[Event \"e\"]\n[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n";
    FIX(in, ANNOTATE,
        "[Event \"e\"]\n[Result \"0-1\"]\n[Adjudication \"checkmate at 2...Qh4#; recorded 1/2-1/2\"]\n\n"
        "1. f3 e5 2. g4 Qh4# 0-1\n",
        1);
    FIX(in, PLAIN, "[Event \"e\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n", 1);
    /* The tag in non-standard spacing is replaced whole, in standard form. */
    FIX("[Result   \"*\"  ]\n\n1. f3 e5 2. g4 Qh4# 0-1\n", PLAIN, "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n", 1);
    /* The rules confirm the result: nothing changes. */
    const char *ok = "[Event \"e\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
    FIX(ok, ANNOTATE, ok, 0);
    /* A result from outside the board stands, but the marker follows the tag. */
    FIX("[Result \"1-0\"]\n\n1. e4 e5 0-1\n", ANNOTATE, "[Result \"1-0\"]\n\n1. e4 e5 1-0\n", 1);
}
END_TEST

START_TEST(result_tag_added)
{
    /* Tags but no Result tag: after the last tag. */
    FIX("[Event \"e\"]\n[Site \"s\"]\n\n1. e4 e5 *\n", ANNOTATE, "[Event \"e\"]\n[Site \"s\"]\n[Result \"*\"]\n\n1. e4 e5 *\n",
        1);
    /* ... the marker when the rules do not decide. */
    FIX("[Event \"e\"]\n\n1. e4 e5 1-0\n", ANNOTATE, "[Event \"e\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n", 1);
    /* No tags: a tag section of its own before the movetext. */
    FIX("1. e4 e5 *\n", ANNOTATE, "[Result \"*\"]\n\n1. e4 e5 *\n", 1);
    FIX("1. f3 e5 2. g4 Qh4# *\n", ANNOTATE,
        "[Result \"0-1\"]\n[Adjudication \"checkmate at 2...Qh4#\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n", 1);
    FIX("1. f3 e5 2. g4 Qh4# *\n", PLAIN, "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n", 1);
    /* A tagless game after another game, at a line start: right where it starts. */
    FIX("[Result \"1-0\"]\n\n1. e4 1-0\n\n1. d4 d5 *\n", ANNOTATE,
        "[Result \"1-0\"]\n\n1. e4 1-0\n\n[Result \"*\"]\n\n1. d4 d5 *\n", 1);
    /* Neither tag nor marker, nor end: "*" twice. */
    FIX("[Event \"e\"]\n\n1. e4\n", ANNOTATE, "[Event \"e\"]\n[Result \"*\"]\n\n1. e4 *\n", 1);
    /* A Result tag that is not a result, in a game the rules do not decide: the marker. */
    FIX("[Result \"1-0 time\"]\n\n1. e4 0-1\n", ANNOTATE, "[Result \"0-1\"]\n\n1. e4 0-1\n", 1);
    FIX("[Result \"?\"]\n\n1. e4\n", ANNOTATE, "[Result \"*\"]\n\n1. e4 *\n", 1);
}
END_TEST

START_TEST(tagless_game_mid_line)
{
    /* A tagless game that starts after other text on its line (a game
     * after a marker, a comment that belongs to the game before): the
     * Result tag added for it must be "on a line of its own before its
     * movetext, followed by an empty line" (pgn-arbiter(1), FIXING).  The
     * exact spacing is not specified; the line is. */
    static const char *const ins[] = {
        "[Result \"1-0\"]\n\n1. e4 1-0\n\n{note} 1. d4 d5 *\n",
        "[Result \"1-0\"]\n\n1. e4 1-0 1. d4 d5 *\n",
    };
    for (size_t i = 0; i < 2; i++) {
        fixed_t f = fix_cut(ins[i], strlen(ins[i]), &ANNOTATE, WHOLE, 0);
        const char *tag = strstr(f.data, "[Result \"*\"]");
        CHECK(tag != NULL, "input %zu: no [Result \"*\"] added:\n  %s", i, tu_vis(f.data, f.len));
        CHECK(tag[-1] == '\n', "input %zu: the Result tag added is not at the start of a line:\n  %s", i,
              tu_vis(f.data, f.len));
        CHECK(strncmp(tag + 12, "\n\n1. d4 d5 *", 12) == 0, "input %zu: the movetext does not follow after an empty line:\n  %s",
              i, tu_vis(f.data, f.len));
        free(f.data);
    }
}
END_TEST

/* ---- the termination marker ---- */

START_TEST(marker_corrected_and_added)
{
    /* Corrected to the Result tag. */
    FIX("[Result \"1/2-1/2\"]\n\n1. e4 e5 {drawn} *\n", ANNOTATE, "[Result \"1/2-1/2\"]\n\n1. e4 e5 {drawn} 1/2-1/2\n", 1);
    /* Corrected to the rules' result; the tag too. */
    FIX("[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n", PLAIN, "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n", 1);
    /* Added after the last move, on its line. */
    FIX("[Result \"1-0\"]\n\n1. e4 e5\n2. Nf3\n", ANNOTATE, "[Result \"1-0\"]\n\n1. e4 e5\n2. Nf3 1-0\n", 1);
    /* ... after a closing comment or variation. */
    FIX("[Result \"1-0\"]\n\n1. e4 e5 (1... c5) {end}\n", ANNOTATE,
        "[Result \"1-0\"]\n\n1. e4 e5 (1... c5) {end} 1-0\n", 1);
    /* ... on a line of its own after a ; comment, which would swallow it. */
    FIX("[Result \"1-0\"]\n\n1. e4 e5 ; White resigned? no\n", ANNOTATE,
        "[Result \"1-0\"]\n\n1. e4 e5 ; White resigned? no\n1-0\n", 1);
    /* A game of tags only: after an empty line. */
    FIX("[Event \"e\"]\n[Result \"1/2-1/2\"]\n", ANNOTATE, "[Event \"e\"]\n[Result \"1/2-1/2\"]\n\n1/2-1/2\n", 1);
    FIX("[Event \"e\"]\n[Result \"1-0\"]\n\n[Event \"f\"]\n[Result \"0-1\"]\n\n1. e4 0-1\n", ANNOTATE,
        "[Event \"e\"]\n[Result \"1-0\"]\n\n1-0\n\n[Event \"f\"]\n[Result \"0-1\"]\n\n1. e4 0-1\n", 1);
    /* The last game without a newline at the end. */
    FIX("[Result \"0-1\"]\n\n1. e4 e5", ANNOTATE, "[Result \"0-1\"]\n\n1. e4 e5 0-1", 1);
}
END_TEST

START_TEST(marker_inside_a_word)
{
    /* Replaced in place when the word reads the same with the new result:
     * "Rd6+1/2-1/2" is still the move Rd6 and a result. */
    FIX("[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3+1-0\n", PLAIN, "[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3+1/2-1/2\n", 1);
    /* A marker of its own between two words keeps apart from both, also
     * when the byte after it comes in a later chunk (fix_at feeds byte by
     * byte too). */
    FIX("[Result \"1-0\"]\n\n1. e4 e5 2. Nf3*Nc6\n", PLAIN, "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0 Nc6\n", 1);
    /* ... and from a NAG sign before it, which would take in a digit. */
    FIX("[Result \"1-0\"]\n\n1. e4 e5$*\n", PLAIN, "[Result \"1-0\"]\n\n1. e4 e5$ 1-0\n", 1);
    /* Left as it is when it would not: "a1/2-1/2" holds the move a1. */
    const char *in = "[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Ra0-15.\n";
    FIX(in, PLAIN, in, 0);
    fixed_t f = fix_cut(in, strlen(in), &PLAIN, WHOLE, 0);
    CHECK(f.refused == 1 && f.changed == 0, "refused %d, changed %d", f.refused, f.changed);
    free(f.data);
}
END_TEST

/* ---- the Adjudication tag ---- */

START_TEST(adjudication_tag_placement)
{
    /* After the last tag of the Seven Tag Roster, before the others. */
    FIX("[Event \"e\"]\n[Site \"s\"]\n[Date \"d\"]\n[Round \"1\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"1-0\"]\n"
        "[ECO \"A00\"]\n[PlyCount \"4\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n",
        ANNOTATE,
        "[Event \"e\"]\n[Site \"s\"]\n[Date \"d\"]\n[Round \"1\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"0-1\"]\n"
        "[Adjudication \"checkmate at 2...Qh4#; recorded 1-0\"]\n[ECO \"A00\"]\n[PlyCount \"4\"]\n\n"
        "1. f3 e5 2. g4 Qh4# 0-1\n",
        1);
    /* The roster in another order: after the last of them in the input. */
    FIX("[Result \"1-0\"]\n[White \"w\"]\n[ECO \"A00\"]\n[Black \"b\"]\n[Opening \"o\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n",
        ANNOTATE,
        "[Result \"0-1\"]\n[White \"w\"]\n[ECO \"A00\"]\n[Black \"b\"]\n"
        "[Adjudication \"checkmate at 2...Qh4#; recorded 1-0\"]\n[Opening \"o\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
        1);
    /* No roster tag: after the last tag, after the Result tag added there. */
    FIX("[ECO \"A00\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n", ANNOTATE,
        "[ECO \"A00\"]\n[Result \"0-1\"]\n[Adjudication \"checkmate at 2...Qh4#\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n", 1);
    /* An Adjudication tag already there is replaced, where it is. */
    FIX("[Event \"e\"]\n[Result \"1-0\"]\n[ECO \"A00\"]\n[Adjudication \"by the arbiter\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n",
        ANNOTATE,
        "[Event \"e\"]\n[Result \"0-1\"]\n[ECO \"A00\"]\n[Adjudication \"checkmate at 2...Qh4#; recorded 1-0\"]\n\n"
        "1. f3 e5 2. g4 Qh4# 0-1\n",
        1);
    /* ... and left alone when the result is right. */
    const char *kept = "[Result \"0-1\"]\n[Adjudication \"by the arbiter\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
    FIX(kept, ANNOTATE, kept, 0);
    /* Annotation off: no tag, an old one left as it is. */
    FIX("[Result \"1-0\"]\n[Adjudication \"by the arbiter\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n", PLAIN,
        "[Result \"0-1\"]\n[Adjudication \"by the arbiter\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n", 1);
    /* Article 6.9: a loss on time by a side whose opponent has a lone king. */
    FIX("[White \"w\"]\n[Black \"b\"]\n[Result \"0-1\"]\n[Termination \"time forfeit\"]\n"
        "[FEN \"4k3/8/8/8/8/8/8/4K2R w - - 0 1\"]\n\n1. Rh2 Kd7 0-1\n",
        ANNOTATE,
        "[White \"w\"]\n[Black \"b\"]\n[Result \"1/2-1/2\"]\n"
        "[Adjudication \"Article 6.9: Black cannot checkmate; recorded 0-1 on time\"]\n[Termination \"time forfeit\"]\n"
        "[FEN \"4k3/8/8/8/8/8/8/4K2R w - - 0 1\"]\n\n1. Rh2 Kd7 1/2-1/2\n",
        1);
    /* The claim policy names the claim; it is made by declaring 4...Ng8
     * (Article 9.2.1.1), so the game ends at 4.Ng1 (4...Ng8 is a move after
     * the end, kept without --truncate). */
    setup_t claim = ANNOTATE;
    claim.policy = ARB_RULES_CLAIM;
    FIX("[Result \"1-0\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1-0\n", claim,
        "[Result \"1/2-1/2\"]\n[Adjudication \"threefold repetition claimed at 4.Ng1; recorded 1-0\"]\n\n"
        "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n",
        1);
}
END_TEST

/* ---- truncation ---- */

#define REPS "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8"

START_TEST(truncate_after_the_end)
{
    /* Fivefold at 8...Ng8 (ply 16): the rest goes, comments and variations too. */
    const char *in = "[Result \"1/2-1/2\"]\n\n" REPS " 9. e4 {a comment} e5 (9... d5 10. exd5)\n10. d4 1/2-1/2\n";
    FIX(in, TRUNCATE, "[Result \"1/2-1/2\"]\n\n" REPS " 1/2-1/2\n", 1);
    /* Without --truncate, nothing to change. */
    FIX(in, ANNOTATE, in, 0);
    /* A wrong result too. */
    FIX("[Result \"1-0\"]\n\n" REPS " 9. e4 1-0\n", TRUNCATE,
        "[Result \"1/2-1/2\"]\n[Adjudication \"fivefold repetition at 8...Ng8; recorded 1-0\"]\n\n" REPS " 1/2-1/2\n",
        1);
    /* No marker: it is added after the move that ended the game. */
    FIX("[Result \"1/2-1/2\"]\n\n" REPS " 9. e4 e5\n", TRUNCATE, "[Result \"1/2-1/2\"]\n\n" REPS " 1/2-1/2\n", 1);
    /* A comment right after the last move kept is cut with the rest; the
     * marker follows that move after a space, whatever the spacing was. */
    FIX("[Result \"1/2-1/2\"]\n\n" REPS " {fifth time}\n9. e4\n\n1/2-1/2\n", TRUNCATE,
        "[Result \"1/2-1/2\"]\n\n" REPS " 1/2-1/2\n", 1);
    /* The claim policy: the declared move 4...Ng8 and the rest go. */
    setup_t claim = TRUNCATE;
    claim.policy = ARB_RULES_CLAIM;
    FIX("[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 1/2-1/2\n", claim,
        "[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 1/2-1/2\n", 1);
    /* An end on the last move: nothing to cut. */
    const char *last = "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# {mate} 0-1\n";
    FIX(last, TRUNCATE, last, 0);
    /* Moves after a mate are illegal: an unreadable game, copied untouched. */
    const char *after_mate = "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 3. Kf2 1-0\n";
    FIX(after_mate, TRUNCATE, after_mate, 0);
}
END_TEST

START_TEST(truncate_at_ply_zero)
{
    /* Dead from the start: all the movetext before the marker goes; a
     * comment before the first move stays. */
    FIX("[Result \"1-0\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n{c} 1. Kd2 Kd7 1-0\n", TRUNCATE,
        "[Result \"1/2-1/2\"]\n[Adjudication \"dead position at the start; recorded 1-0\"]\n"
        "[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n{c} 1/2-1/2\n",
        1);
    FIX("[Result \"1/2-1/2\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 Kd7 1/2-1/2\n", TRUNCATE,
        "[Result \"1/2-1/2\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1/2-1/2\n", 1);
    /* No marker either. */
    FIX("[Result \"1/2-1/2\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 Kd7\n", TRUNCATE,
        "[Result \"1/2-1/2\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1/2-1/2\n", 1);
    /* Without --truncate: only the result. */
    FIX("[Result \"1-0\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 Kd7 1-0\n", PLAIN,
        "[Result \"1/2-1/2\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 Kd7 1/2-1/2\n", 1);
}
END_TEST

/* ---- bytes kept ---- */

START_TEST(crlf_one_line_game)
{
    /* "A new line ends as the game's first line does" (pgn-arbiter(1)),
     * also when the whole game is on that one line, so that its line end
     * comes after its last token.  (Both cases here can be met whatever
     * the chunks: the game before it, or the rest of the stream, shows
     * CRLF by the time the game is complete.) */
    FIX("[Result \"1-0\"]\r\n\r\n1. e4 1-0\r\n\r\n1. e4 e5 *\r\n", ANNOTATE,
        "[Result \"1-0\"]\r\n\r\n1. e4 1-0\r\n\r\n[Result \"*\"]\r\n\r\n1. e4 e5 *\r\n", 1);
    /* A game of one tag and nothing else. */
    FIX("[Result \"1-0\"]\r\n", ANNOTATE, "[Result \"1-0\"]\r\n\r\n1-0\r\n", 1);
}
END_TEST

START_TEST(crlf_kept)
{
    FIX("[Event \"e\"]\r\n[Result \"1/2-1/2\"]\r\n\r\n1. f3 e5 2. g4 Qh4# 1/2-1/2\r\n", ANNOTATE,
        "[Event \"e\"]\r\n[Result \"0-1\"]\r\n[Adjudication \"checkmate at 2...Qh4#; recorded 1/2-1/2\"]\r\n\r\n"
        "1. f3 e5 2. g4 Qh4# 0-1\r\n",
        1);
    /* Added tags and markers end their lines with CRLF. */
    FIX("[Event \"e\"]\r\n\r\n1. e4 e5\r\n", ANNOTATE, "[Event \"e\"]\r\n[Result \"*\"]\r\n\r\n1. e4 e5 *\r\n", 1);
    FIX("1. f3 e5\r\n2. g4 Qh4#\r\n", ANNOTATE,
        "[Result \"0-1\"]\r\n[Adjudication \"checkmate at 2...Qh4#\"]\r\n\r\n1. f3 e5\r\n2. g4 Qh4# 0-1\r\n", 1);
    FIX("[Event \"e\"]\r\n[Result \"1-0\"]\r\n", ANNOTATE, "[Event \"e\"]\r\n[Result \"1-0\"]\r\n\r\n1-0\r\n", 1);
    FIX("[Result \"1-0\"]\r\n\r\n1. e4 ; comment\r\n", ANNOTATE, "[Result \"1-0\"]\r\n\r\n1. e4 ; comment\r\n1-0\r\n", 1);
    /* One game LF, the next CRLF: each its own. */
    FIX("[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\r\n\r\n1. d4 *\r\n", ANNOTATE,
        "[Event \"a\"]\n[Result \"*\"]\n\n1. e4 *\n\n[Event \"b\"]\r\n[Result \"*\"]\r\n\r\n1. d4 *\r\n", 2);
}
END_TEST

START_TEST(bom_kept)
{
    FIX("\xEF\xBB\xBF[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n", PLAIN,
        "\xEF\xBB\xBF[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n", 1);
    /* A tagless first game: its tags go after the BOM. */
    FIX("\xEF\xBB\xBF" "1. e4 *\n", PLAIN, "\xEF\xBB\xBF[Result \"*\"]\n\n1. e4 *\n", 1);
    const char *ok = "\xEF\xBB\xBF[Result \"*\"]\n\n1. e4 *\n";
    FIX(ok, ANNOTATE, ok, 0);
}
END_TEST

START_TEST(unreadable_copied)
{
    /* An illegal move, a syntax error, a bad FEN: copied untouched, even
     * with a missing marker; the games around are fixed. */
    const char *in = "[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n\n"
                     "[Event \"x\"]\n\n1. f3 e5 2. g4 Qh4# *\n\n"
                     "1. e4 e5 2. Nf3 Nf9\n\n"
                     "[Result \"1-0\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4\n\n"
                     "[Result \"1-0\"]\n[Variant \"crazyhouse\"]\n\n1. e4 *\n";
    FIX(in, ANNOTATE,
        "[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n\n"
        "[Event \"x\"]\n[Result \"0-1\"]\n[Adjudication \"checkmate at 2...Qh4#\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n"
        "1. e4 e5 2. Nf3 Nf9\n\n"
        "[Result \"1-0\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4\n\n"
        "[Result \"1-0\"]\n[Variant \"crazyhouse\"]\n\n1. e4 *\n",
        1);
    /* rewrite_target says so. */
    arb_game g;
    memset(&g, 0, sizeof g);
    g.status = ARB_ILLEGAL;
    g.adjudicated = "1-0";
    CHECK(rewrite_target(&g) == NULL, "an unreadable game has no target");
    g.status = ARB_OK;
    CHECK(rewrite_target(&g) && strcmp(rewrite_target(&g), "1-0") == 0, "target: the adjudicated result");
    g.adjudicated = "1-0 time";
    g.marker = "0-1";
    CHECK(rewrite_target(&g) && strcmp(rewrite_target(&g), "0-1") == 0, "target: the marker");
    g.marker = NULL;
    CHECK(rewrite_target(&g) && strcmp(rewrite_target(&g), "*") == 0, "target: *");
}
END_TEST

START_TEST(between_games_kept)
{
    /* Text before the first game, between games and after the last, %
     * escape lines and odd spacing: copied as they are. */
    const char *in = "\n\n% exported by X\n  [Event \"a\"]  \n\n1. e4   e5  {x}   1-0   \n\n\n"
                     "[Event \"b\"]\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n\n% the end\n\n\n";
    FIX(in, ANNOTATE,
        "\n\n% exported by X\n  [Event \"a\"]\n[Result \"1-0\"]  \n\n1. e4   e5  {x}   1-0   \n\n\n"
        "[Event \"b\"]\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n\n% the end\n\n\n",
        1);
    /* Nothing but text without a game. */
    FIX("\n% nothing\n\n", ANNOTATE, "\n% nothing\n\n", 0);
    FIX("", ANNOTATE, "", 0);
}
END_TEST

/* ---- streaming ---- */

START_TEST(chunks_same_as_whole)
{
    /* Every kind of change in one stream, CRLF and BOM included; fix_at
     * feeds it whole, byte by byte and in random chunks (the reader and the
     * rewriter get the same chunks) and compares. */
    const char *in = "\xEF\xBB\xBF[Event \"1\"]\r\n[Result \"1/2-1/2\"]\r\n\r\n1. f3 e5 2. g4 Qh4# 1/2-1/2\r\n\r\n"
                     "1. e4 e5\r\n{tagless}\r\n\r\n"
                     "[Event \"3\"]\r\n[Result \"1/2-1/2\"]\r\n[Adjudication \"old\"]\r\n\r\n" REPS
                     " 9. e4 e5 (9... d5) 10. d4\r\n\r\n"
                     "[Event \"4\"]\r\n[Result \"1-0\"]\r\n\r\n1. e4 e5 2. Ke3 1-0\r\n\r\n"
                     "[Event \"5\"]\r\n[Result \"1-0\"]\r\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\r\n\r\n"
                     "{c} 1. Kd2 Kd7 ; done\r\n\r\n"
                     "[Event \"6\"]\r\n[Result \"0-1\"]\r\n\r\n";
    const char *want = "\xEF\xBB\xBF[Event \"1\"]\r\n[Result \"0-1\"]\r\n"
                       "[Adjudication \"checkmate at 2...Qh4#; recorded 1/2-1/2\"]\r\n\r\n"
                       "1. f3 e5 2. g4 Qh4# 0-1\r\n\r\n"
                       "[Result \"*\"]\r\n\r\n1. e4 e5\r\n{tagless} *\r\n\r\n"
                       "[Event \"3\"]\r\n[Result \"1/2-1/2\"]\r\n[Adjudication \"old\"]\r\n\r\n" REPS " 1/2-1/2\r\n\r\n"
                       "[Event \"4\"]\r\n[Result \"1-0\"]\r\n\r\n1. e4 e5 2. Ke3 1-0\r\n\r\n"
                       "[Event \"5\"]\r\n[Result \"1/2-1/2\"]\r\n"
                       "[Adjudication \"dead position at the start; recorded 1-0\"]\r\n"
                       "[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\r\n\r\n{c} 1/2-1/2\r\n\r\n"
                       "[Event \"6\"]\r\n[Result \"0-1\"]\r\n\r\n0-1\r\n\r\n";
    FIX(in, TRUNCATE, want, 5);
}
END_TEST

START_TEST(origin_mid_stream)
{
    /* A piece of a larger stream, starting at a line start at byte 1000,
     * line 40: reader and rewriter both told so; the output is the same
     * as for the piece read as a stream of its own. */
    const char *piece = "[Event \"b\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n1. e4 *\n";
    const char *want = "[Event \"b\"]\n[Result \"0-1\"]\n[Adjudication \"checkmate at 2...Qh4#; recorded 1-0\"]\n\n"
                       "1. f3 e5 2. g4 Qh4# 0-1\n\n[Result \"*\"]\n\n1. e4 *\n";
    setup_t s = ANNOTATE;
    s.origin = 1000;
    s.origin_line = 40;
    fix_at(TU_WHERE, piece, strlen(piece), &s, want, strlen(want), 2);
    /* With truncation and an end at ply 0, whose span is an empty one. */
    const char *dead = "[Result \"1/2-1/2\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 Kd7\n";
    s = TRUNCATE;
    s.origin = 77777;
    s.origin_line = 3000;
    const char *dwant = "[Result \"1/2-1/2\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1/2-1/2\n";
    fix_at(TU_WHERE, dead, strlen(dead), &s, dwant, strlen(dwant), 1);

    /* A game with no line end of its own takes the one before it, here
     * the one before the piece, as for the whole stream. */
    const char *one_line = "[Event \"c\"]";
    s = ANNOTATE;
    s.origin = 500;
    s.origin_line = 20;
    s.origin_eol = "\r\n";
    const char *owant = "[Event \"c\"]\r\n[Result \"*\"]\r\n\r\n*";
    fix_at(TU_WHERE, one_line, strlen(one_line), &s, owant, strlen(owant), 1);

    /* And split in two at a game boundary: the two pieces' outputs, one
     * after the other, are the whole stream's output. */
    const char *in = "[Event \"a\"]\n\n1. e4 e5\n\n[Event \"b\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n";
    const char *cut = strstr(in, "[Event \"b\"]");
    fixed_t whole = fix_cut(in, strlen(in), &ANNOTATE, WHOLE, 0);
    fixed_t first = fix_cut(in, (size_t)(cut - in), &ANNOTATE, WHOLE, 0);
    s = ANNOTATE;
    s.origin = (uint64_t)(cut - in);
    s.origin_line = 5;
    fixed_t second = fix_cut(cut, strlen(cut), &s, WHOLE, 0);
    CHECK(first.len + second.len == whole.len && memcmp(whole.data, first.data, first.len) == 0 &&
              memcmp(whole.data + first.len, second.data, second.len) == 0,
          "the pieces' outputs differ from the whole:\n  whole: %s\n  first: %s\n  second: %s",
          tu_vis(whole.data, whole.len), tu_vis(first.data, first.len), tu_vis(second.data, second.len));
    free(whole.data);
    free(first.data);
    free(second.data);
}
END_TEST

/* Each game of text as "status/plies", one after the other. */
static char *read_summary(const char *text, size_t len)
{
    static char out[4096];
    size_t at = 0;
    arb_reader *r = arb_reader_new(NULL);
    CHECK(r != NULL, "out of memory");
    arb_reader_feed(r, text, len);
    arb_reader_finish(r);
    const arb_game *g;
    out[0] = '\0';
    while ((g = arb_reader_next(r, NULL)) != NULL && at < sizeof out - 64)
        at += (size_t)snprintf(out + at, sizeof out - at, "%s%s/%u", at ? " " : "", arb_status_name(g->status),
                               (unsigned)g->plies);
    arb_reader_free(r);
    return strdup(out);
}

START_TEST(idempotent_odd_layouts)
{
    /* Layouts that the cases above do not have.  Whatever the exact bytes,
     * the output must read as the same games with the same moves (a fixed
     * game loses no move), and rewriting it again must change nothing
     * ("running --fix on it gives it back byte for byte", pgn-arbiter(1)). */
    static const char *const ins[] = {
        "[Result \"1-0\"]\n\n1. e4 {open comment at the end",
        "[Event \"e\"]\n; a comment after the tags\n",
        "[Result \"1-0\"]\n\n1. e4 e5 1-0 {after the marker}\n",
        "[Result \"1-0\"]\n\n1. e4 e5 {c}1-0\n",
        "[Result \"1-0\"]\n\n1. e4\n%escaped line\n",
        "1.f3 e5 2.g4 Qh4#",
        /* a variation left open at the end: the marker must not go inside it */
        "[Result \"1-0\"]\n\n1. e4 (1. d4",
        "( ",
        /* movetext on the line of the last tag */
        "[White \"a\"][Black \"b\"]1. f3 e5 2. g4 Qh4#\n",
        " [White \"a\"] 1. e4 *\n",
    };
    /* Every input is tried; the failures are listed together. */
    static char msg[32768];
    size_t at = 0;
    int failures = 0;
    msg[0] = '\0';
    for (size_t i = 0; i < sizeof ins / sizeof ins[0]; i++) {
        for (int t = 0; t < 2; t++) {
            const setup_t *s = t ? &TRUNCATE : &ANNOTATE;
            fixed_t once = fix_cut(ins[i], strlen(ins[i]), s, WHOLE, 0);
            fixed_t twice = fix_cut(once.data, once.len, s, WHOLE, 0);
            if (!(twice.len == once.len && memcmp(twice.data, once.data, once.len) == 0 && twice.changed == 0)) {
                failures++;
                if (at < sizeof msg - 1024)
                    at += (size_t)snprintf(msg + at, sizeof msg - at,
                                           "\ninput %zu (%s): rewriting the output again changes it:\n"
                                           "  input:  %s\n  once:   %s\n  twice:  %s",
                                           i, t ? "truncate" : "annotate", tu_vis(ins[i], strlen(ins[i])),
                                           tu_vis(once.data, once.len), tu_vis(twice.data, twice.len));
            }
            if (!t) {
                char *a = read_summary(ins[i], strlen(ins[i])), *b = read_summary(once.data, once.len);
                if (strcmp(a, b) != 0) {
                    failures++;
                    if (at < sizeof msg - 1024)
                        at += (size_t)snprintf(msg + at, sizeof msg - at,
                                               "\ninput %zu: the games read differently after --fix (status/plies "
                                               "%s before, %s after):\n  input:  %s\n  output: %s",
                                               i, a, b, tu_vis(ins[i], strlen(ins[i])), tu_vis(once.data, once.len));
                }
                free(a);
                free(b);
            }
            free(once.data);
            free(twice.data);
        }
    }
    CHECK(failures == 0, "%d failures:%s", failures, msg);
}
END_TEST

START_TEST(long_game_copied)
{
    /* A game longer than game_max is copied as it is, however it is fed
     * (in bytes, rewrite_spill() writes its head before its end is read);
     * the games around it are corrected. */
    static const setup_t SHORT = { .opt = { .annotate = false, .truncate = false, .game_max = 48 },
                                   .policy = ARB_RULES_FIDE };
    FIX("[Result \"1-0\"]\n\n1. e4 0-1\n\n"
        "[Result \"1-0\"]\n\n1. e4 {a comment that makes the game longer than 48 bytes} e5 0-1\n\n"
        "[Result \"1-0\"]\n\n1. d4 0-1\n",
        SHORT,
        "[Result \"1-0\"]\n\n1. e4 1-0\n\n"
        "[Result \"1-0\"]\n\n1. e4 {a comment that makes the game longer than 48 bytes} e5 0-1\n\n"
        "[Result \"1-0\"]\n\n1. d4 1-0\n",
        2);
    fixed_t f = fix_cut("[Result \"1-0\"]\n\n1. e4 {a comment that makes it longer than 48 bytes} 0-1\n", 73, &SHORT,
                        BYTES, 0);
    CHECK(f.refused == 1 && f.changed == 0, "a long game to correct: %d refused, %d changed", f.refused, f.changed);
    free(f.data);
    /* One that needs no change is copied without a word. */
    f = fix_cut("[Result \"1-0\"]\n\n1. e4 {a comment that makes it longer than 48 bytes} 1-0\n", 73, &SHORT, BYTES,
                0);
    CHECK(f.refused == 0 && f.changed == 0, "a long game to keep: %d refused, %d changed", f.refused, f.changed);
    free(f.data);
}
END_TEST

START_TEST(result_tag_past_the_kept_tags)
{
    /* More than the 4096 tags the reader keeps, then the Seven Tag Roster's
     * Result: it is still the game's, corrected in place, and the output
     * needs no change (before, a second Result tag was added each time). */
    strbuf_t in = { 0 }, want = { 0 };
    char line[64];
    for (int i = 0; i < 4100; i++) {
        snprintf(line, sizeof line, "[Tag%04d \"%d\"]\n", i, i);
        strbuf_puts(&in, line);
        strbuf_puts(&want, line);
    }
    strbuf_puts(&in, "[White \"A\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n");
    strbuf_puts(&want, "[White \"A\"]\n[Result \"0-1\"]\n[Adjudication \"checkmate at 2...Qh4#; recorded 1-0\"]\n\n"
                       "1. f3 e5 2. g4 Qh4# 0-1\n");
    fix_at(TU_WHERE, in.data, in.len, &ANNOTATE, want.data, want.len, 1);
    strbuf_free(&in);
    strbuf_free(&want);
}
END_TEST

START_TEST(game_by_game_output)
{
    /* rewrite_game writes up to the end of its game and no further; the
     * bytes after the last game come from rewrite_finish. */
    const char *in = "[Result \"1-0\"]\n\n1. e4 0-1\n\n[Result \"*\"]\n\n1. d4 *\n  \n";
    arb_reader *r = arb_reader_new(NULL);
    rewriter_t *w = rewrite_new((rewrite_options_t){ .annotate = true, .truncate = false });
    CHECK(r && w, "out of memory");
    arb_reader_feed(r, in, strlen(in));
    CHECK(rewrite_feed(w, in, strlen(in)) == 0, "rewrite_feed");
    arb_reader_finish(r);
    strbuf_t out = { 0 };
    const arb_game *g = arb_reader_next(r, NULL);
    CHECK(g != NULL, "game 1");
    CHECK(rewrite_game(w, g, &out) == 1, "game 1 changes");
    strbuf_append(&out, "", 1);
    CHECK(strcmp(out.data, "[Result \"1-0\"]\n\n1. e4 1-0") == 0, "after game 1: %s", tu_vis(out.data, out.len - 1));
    out.len--;
    g = arb_reader_next(r, NULL);
    CHECK(g != NULL, "game 2");
    CHECK(rewrite_game(w, g, &out) == 0, "game 2 does not change");
    strbuf_append(&out, "", 1);
    CHECK(strcmp(out.data, "[Result \"1-0\"]\n\n1. e4 1-0\n\n[Result \"*\"]\n\n1. d4 *") == 0, "after game 2: %s",
          tu_vis(out.data, out.len - 1));
    out.len--;
    CHECK(arb_reader_next(r, NULL) == NULL, "two games");
    rewrite_finish(w, &out);
    strbuf_append(&out, "", 1);
    CHECK(strcmp(out.data, "[Result \"1-0\"]\n\n1. e4 1-0\n\n[Result \"*\"]\n\n1. d4 *\n  \n") == 0,
          "after rewrite_finish: %s", tu_vis(out.data, out.len - 1));
    strbuf_free(&out);
    rewrite_free(w);
    rewrite_free(NULL);
    arb_reader_free(r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rewrite");
    TU_CASE(s, result_tag_corrected, 120);
    TU_CASE(s, result_tag_added, 120);
    TU_CASE(s, tagless_game_mid_line, 120);
    TU_CASE(s, marker_corrected_and_added, 120);
    TU_CASE(s, marker_inside_a_word, 60);
    TU_CASE(s, adjudication_tag_placement, 120);
    TU_CASE(s, truncate_after_the_end, 120);
    TU_CASE(s, truncate_at_ply_zero, 120);
    TU_CASE(s, crlf_kept, 120);
    TU_CASE(s, crlf_one_line_game, 120);
    TU_CASE(s, bom_kept, 120);
    TU_CASE(s, unreadable_copied, 120);
    TU_CASE(s, between_games_kept, 120);
    TU_CASE(s, chunks_same_as_whole, 120);
    TU_CASE(s, origin_mid_stream, 120);
    TU_CASE(s, idempotent_odd_layouts, 120);
    TU_CASE(s, long_game_copied, 120);
    TU_CASE(s, result_tag_past_the_kept_tags, 120);
    TU_CASE(s, game_by_game_output, 120);
    return tu_run(s);
}
