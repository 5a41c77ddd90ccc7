/* test_dead.c: dead positions and unwinnability (dead.h), FIDE 5.2.2 and 6.9.
 *
 * Every unwinnable answer below is argued in a comment (the argument is the
 * check); every winnable answer is checked by replaying the helpmate line
 * the analysis returns: each move must be among movegen_legal()'s moves, and
 * the line must end in checkmate of the side that loses.  The last case runs
 * a licensed subset of the D3-Chess test vector (tests/data/SOURCES.md). */
#include "dead.h"
#include "dead/dead_internal.h"
#include "testutil.h"

#define LINE_CAP 1024
#define SUBSET_BUDGET 100000 /* nodes per side for the vector subset */

static const char *side_name(int color)
{
    return color == WHITE ? "white" : "black";
}

static const char *answer_name(enum dead_answer a)
{
    return a == DEAD_WINNABLE ? "winnable" : a == DEAD_UNWINNABLE ? "unwinnable" : "undetermined";
}

/* Replays line[0..len) from b; NULL if it is legal and ends in checkmate of
 * !winner, else what went wrong (written into why). */
static const char *replay_line(const board_t *b, int winner, const move_t *line, int len, char *why, size_t cap)
{
    board_t pos = *b, next;
    move_t legal[MAX_MOVES];
    char fen[128], mv[32];
    if (len > LINE_CAP) {
        snprintf(why, cap, "line of %d plies does not fit the buffer", len);
        return why;
    }
    for (int i = 0; i < len; i++) {
        int n = movegen_legal(&pos, legal), k;
        for (k = 0; k < n && !tu_move_eq(legal[k], line[i]); k++)
            ;
        if (k == n) {
            snprintf(why, cap, "ply %d: %s is not legal in %s", i, tu_move_str(line[i], mv), tu_fen_out(&pos, fen));
            return why;
        }
        board_make_move(&pos, line[i], &next);
        pos = next;
    }
    if (movegen_has_legal(&pos) || !board_in_check(&pos)) {
        snprintf(why, cap, "after %d plies %s is not checkmate", len, tu_fen_out(&pos, fen));
        return why;
    }
    if (pos.stm == winner) {
        snprintf(why, cap, "after %d plies the winner %s is the one mated", len, side_name(winner));
        return why;
    }
    return NULL;
}

/* dead_can_win() on fen for color must give `expect`; a winnable answer's
 * line must replay to mate. */
static void expect_at(const char *file, int line, const char *fen, int color, enum dead_answer expect)
{
    board_t b;
    move_t moves[LINE_CAP];
    int len = -1;
    char why[256];
    tu_fen_at(file, line, &b, fen, false);
    dead_search_t *s = dead_search_new(0);
    ck_assert_msg(s != NULL, "%s:%d: dead_search_new failed", file, line);
    enum dead_answer a = dead_can_win(s, &b, color, moves, LINE_CAP, &len);
    dead_search_free(s);
    if (a != expect)
        ck_abort_msg("%s:%d: %s in %s: expected %s, got %s", file, line, side_name(color), fen, answer_name(expect),
                     answer_name(a));
    if (a == DEAD_WINNABLE) {
        if (replay_line(&b, color, moves, len, why, sizeof why))
            ck_abort_msg("%s:%d: %s in %s: helpmate line rejected: %s", file, line, side_name(color), fen, why);
    } else if (len != 0) {
        ck_abort_msg("%s:%d: %s in %s: %s but line length %d", file, line, side_name(color), fen, answer_name(a), len);
    }
}
#define EXPECT(fen, color, expect) expect_at(__FILE__, __LINE__, (fen), (color), (expect))
#define EXPECT_BOTH(fen, w, b)                                                                                 \
    do {                                                                                                       \
        EXPECT((fen), WHITE, (w));                                                                             \
        EXPECT((fen), BLACK, (b));                                                                             \
    } while (0)

/* Runs the labelled positions of tests/data/`name` through s: no decided
 * answer may disagree with the label, every line must replay to mate;
 * *sides and *decided count the sides. */
static void run_labelled(const char *name, dead_search_t *s, int *sides, int *decided)
{
    const char *top = getenv("abs_top_srcdir");
    char path[4096], buf[512], why[256];
    snprintf(path, sizeof path, "%s/tests/data/%s", top && *top ? top : ".", name);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    static move_t line[LINE_CAP];
    int lineno = 0;
    *sides = *decided = 0;
    while (fgets(buf, sizeof buf, f)) {
        lineno++;
        buf[strcspn(buf, "\r\n")] = '\0';
        if (buf[0] == '#' || !buf[0])
            continue;
        ck_assert_msg(strlen(buf) > 3 && buf[2] == ' ', "%s:%d: bad line", path, lineno);
        char fen[sizeof buf + 8];
        int fields = 1;
        snprintf(fen, sizeof fen, "%s", buf + 3);
        for (const char *c = fen; *c; c++)
            fields += *c == ' ' && c[1] && c[1] != ' ';
        if (fields == 2) /* a few entries give only placement and side */
            strcat(fen, " - -");
        board_t b;
        board_error_t err;
        ck_assert_msg(board_from_fen(&b, fen, false, &err) == 0, "%s:%d: %s", path, lineno, err);
        for (int c = WHITE; c <= BLACK; c++) {
            bool label = buf[c] != '-';
            int len = 0;
            enum dead_answer a = dead_can_win(s, &b, c, line, LINE_CAP, &len);
            ++*sides;
            if (a == DEAD_UNDETERMINED)
                continue;
            ++*decided;
            if ((a == DEAD_WINNABLE) != label)
                ck_abort_msg("%s:%d: %s: label %.2s, got %s", path, lineno, side_name(c), buf, answer_name(a));
            if (a == DEAD_WINNABLE && replay_line(&b, c, line, len, why, sizeof why))
                ck_abort_msg("%s:%d: %s: helpmate line rejected: %s", path, lineno, side_name(c), why);
        }
    }
    fclose(f);
}

/* dead_quick() and dead_probe() must give `expect`. */
static void expect_quick_at(const char *file, int line, const char *fen, int color, enum dead_answer quick,
                            enum dead_answer probe)
{
    board_t b;
    tu_fen_at(file, line, &b, fen, false);
    enum dead_answer a = dead_quick(&b, color);
    if (a != quick)
        ck_abort_msg("%s:%d: dead_quick(%s) in %s: expected %s, got %s", file, line, side_name(color), fen,
                     answer_name(quick), answer_name(a));
    dead_search_t *s = dead_search_new(0);
    ck_assert_msg(s != NULL, "%s:%d: dead_search_new failed", file, line);
    a = dead_probe(s, &b, color);
    dead_search_free(s);
    if (a != probe)
        ck_abort_msg("%s:%d: dead_probe(%s) in %s: expected %s, got %s", file, line, side_name(color), fen,
                     answer_name(probe), answer_name(a));
}
#define EXPECT_QUICK(fen, color, quick, probe) expect_quick_at(__FILE__, __LINE__, (fen), (color), (quick), (probe))

#define W DEAD_WINNABLE
#define U DEAD_UNWINNABLE
#define X DEAD_UNDETERMINED

/* ---- material ------------------------------------------------------------ */

/* K+N+N v K is not dead (STYLE.md): 1...Ka8 and a knight mate with the king
 * boxed in is a helpmate.  The lone king never wins. */
START_TEST(knn_v_k)
{
    EXPECT("8/8/8/4k3/8/8/8/1N2K1N1 w - - 0 1", WHITE, W);
    EXPECT("8/8/8/4k3/8/8/8/1N2K1N1 w - - 0 1", BLACK, U);
}
END_TEST

/* K+N v K+N: each knight can mate a king boxed in by its own knight. */
START_TEST(kn_v_kn)
{
    EXPECT_BOTH("4k3/8/8/3n4/8/8/8/1N2K3 w - - 0 1", W, W);
}
END_TEST

/* K+B v K+B, bishops on one colour: a bishop checks on its colour, the
 * flight squares of the other colour (the orthogonal neighbours) could only
 * be closed by the enemy king (one at most) or by pieces of the other
 * colour: there are none.  Dead. */
START_TEST(kb_v_kb_same_colour)
{
    EXPECT_BOTH("4k3/8/8/3b4/8/8/8/4KB2 w - - 0 1", U, U);
}
END_TEST

/* Opposite colours: the other bishop blocks a corner flight (Kh8, Bg8, Bb2#
 * with the king on h6). */
START_TEST(kb_v_kb_opposite_colours)
{
    EXPECT_BOTH("4k3/8/8/3b4/8/8/8/2B1K3 w - - 0 1", W, W);
}
END_TEST

/* K+B v K+R: the rook next to its king could always interpose on the
 * checking diagonal or take the bishop, so the bishop never mates; the rook
 * side can. */
START_TEST(kb_v_kr)
{
    EXPECT("4k3/8/8/3r4/8/8/8/4KB2 w - - 0 1", WHITE, U);
    EXPECT("4k3/8/8/3r4/8/8/8/4KB2 w - - 0 1", BLACK, W);
}
END_TEST

/* ---- pawn structures ----------------------------------------------------- */

/* Locked chain b4/d4/f4/h4 against b5/d5/f5/h5: the dark squares of rank 4
 * hold white pawns, the light squares of rank 5 black ones, so the dark
 * bishop c1 and the light bishop c8 never leave their own side; the kings
 * cannot cross (rank 4's light squares are attacked by the black pawns,
 * rank 5's dark ones by the white pawns); no pawn can ever move or take.
 * Nothing of either side can ever attack the other king.  Dead. */
START_TEST(locked_chain_bishops_dead)
{
    EXPECT_BOTH("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1", U, U);
}
END_TEST

/* The same with the white bishop on the light squares: it can take a black
 * pawn on b5, d5, f5 or h5 and the chain breaks open for both sides. */
START_TEST(breakable_chain_winnable)
{
    EXPECT_BOTH("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/4KB2 w - - 0 1", W, W);
}
END_TEST

/* Same-coloured (dark) bishops c1 and f8, each walled in by its own
 * blocked pawns (b2/d2 against b3/d3, e7/g7 against e6/g6), kings shut in
 * on b1/a1 and g8/h8.  Nothing but the kings ever moves.  Dead. */
START_TEST(same_colour_bishops_walled_in)
{
    EXPECT_BOTH("5bk1/4p1p1/4P1P1/8/8/1p1p4/1P1P4/1KB5 w - - 0 1", U, U);
}
END_TEST

/* Without the e7 pawn the e6 pawn promotes, and the free black bishop can
 * be taken by b2 to release the b3 pawn: both sides can win. */
START_TEST(walled_in_broken)
{
    EXPECT_BOTH("5bk1/6p1/4P1P1/8/8/1p1p4/1P1P4/1KB5 w - - 0 1", W, W);
}
END_TEST

/* A fortress: a4/c4/e4/g4 against a5/c5/e5/g5 with nothing but kings.  The
 * pawns are blocked and have nothing to take; b4/d4/f4/h4 are attacked by
 * black pawns and b5/d5/f5/h5 by white ones, so the kings can never cross
 * and nothing ever gives check.  Dead. */
START_TEST(fortress_kings_cannot_cross)
{
    EXPECT_BOTH("4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1", U, U);
}
END_TEST

/* ---- a king shut in on two squares --------------------------------------- */

/* The black king has a5 and a6 and nothing else moves for black (b7, c6
 * and a4 are blocked; what they could take stands on light squares, and
 * every white bishop is dark).  A mate on a5 needs a6 covered, which only
 * the white king can do, from a7 or b7; a6 is light, so no mate happens
 * there.  When the white king steps next to a6 the black king stands on a5
 * (the kings never touch) with black to move and no move: stalemate, as no
 * king step uncovers a check here.  The white king never gets past, b7 is
 * never taken and b6 never promotes.  Dead (D3-Chess test vector). */
START_TEST(confined_loser_king_stalemates)
{
    EXPECT_BOTH("8/1p2B1B1/1PpB1B2/k1P5/p1P5/P7/5K2/8 w - - 0 1", U, U);
}
END_TEST

/* Its mirror for the winner: the white king has h3 and h4 and nothing else
 * of white moves.  The black king stepping next to them leaves white
 * without a move (stalemate), so it never takes h5, and no pawn ever moves;
 * every black bishop is dark and h3 is light.  Dead (D3-Chess test
 * vector). */
START_TEST(confined_winner_king_stalemates)
{
    EXPECT_BOTH("8/b1b5/k6p/2b2p1P/1b3p2/5PpK/6P1/8 w - - 0 1", U, U);
}
END_TEST

/* Traps that look like the two above.  A light bishop can take c6 and
 * mate on a6: Bg2 Ka6 Bxc6 Ka5 Bc3+ Ka6 Bb5#.  The white king already on a7
 * covers a6, and white to move mates at once with Bf6-c3.  A light black
 * bishop covers h3, and black mates. */
START_TEST(confined_king_traps)
{
    EXPECT("8/1p2B1B1/1PpB1B2/k1P5/p1P5/P7/5K2/5B2 w - - 0 1", WHITE, W);
    EXPECT("8/Kp2B1B1/1PpB1B2/k1P5/p1P5/P7/8/8 w - - 0 1", WHITE, W);
    EXPECT("8/b1b5/k6p/2b2p1P/1b3p2/5PpK/6P1/3b4 w - - 0 1", BLACK, W);
}
END_TEST

/* Men that wait on one another behind locked pawns.  In
 * B2b4/8/8/4k3/1p6/1Pp1p1pB/K1P1P1Pb/RB6 the rook a1, king a2 and bishop
 * b1 can each move only to a square another of them holds (a3 and b2 are
 * attacked by the pawns b4 and c3, b3 and c2 are White's own pawns), so
 * none moves until one is taken; only the rook can be (Bh2-g1-...-b2xa1):
 * it never moves, and the king and bishop stay below the wall.  Every pawn
 * is locked (White's take only on light squares, where Black has nothing
 * that can be taken; Black's on a3, b2, d2 and f2, which no white man
 * other than the king ever reaches).  Black's bishops are dark: the white
 * king on a2 or on a dark square of the first rank always has two light
 * flight squares, and only the bishop b1 can fill one.  White's bishops
 * are light: every light square of the black king's region has two dark
 * flight squares or more, and only the bishop d8 is above the wall.  Dead.
 * 1bB5/k7/R5r1/8/1pBp1p1p/1PpP1PbP/K1P4b/RB6 is the same after the only
 * move, 1...Rxa6+, and either bishop taking back.  Both from the issue's
 * list (CHA's labels: neither side can mate; also in
 * tests/data/dead-locked-clusters.txt). */
START_TEST(waiting_men_dead)
{
    EXPECT_BOTH("B2b4/8/8/4k3/1p6/1Pp1p1pB/K1P1P1Pb/RB6 b - -", U, U);
    /* the replay's probe too, for Black (White's rook has an open file, where
     * the probe does not try the pass) */
    EXPECT_QUICK("B2b4/8/8/4k3/1p6/1Pp1p1pB/K1P1P1Pb/RB6 b - -", BLACK, X, U);
    EXPECT_BOTH("1bB5/k7/R5r1/8/1pBp1p1p/1PpP1PbP/K1P4b/RB6 b - -", U, U);
    EXPECT_BOTH("1b6/k7/B7/8/1pBp1p1p/1PpP1PbP/K1P4b/RB6 w - -", U, U);
    int sides, decided;
    dead_search_t *s = dead_search_new(0);
    ck_assert(s != NULL);
    run_labelled("dead-locked-clusters.txt", s, &sides, &decided);
    dead_search_free(s);
    ck_assert_int_eq(decided, sides);
}
END_TEST

/* The same wall broken in three ways: a light black bishop on d1 can take
 * the bishop b1 too (two men of the group can be taken: the first taken
 * frees the other); without the pawn c3 the white king walks out by b2; a
 * dark white bishop on f8 covers a7 or b8 of a mate on a8.  The answers
 * flip to winnable, lines replayed. */
START_TEST(waiting_men_broken)
{
    EXPECT("B2b4/8/8/4k3/1p6/1Pp1p1pB/K1P1P1Pb/RB1b4 b - -", BLACK, W);
    EXPECT_BOTH("B2b4/8/8/4k3/1p6/1P2p1pB/K1P1P1Pb/RB6 b - -", W, W);
    EXPECT("B2b1B2/8/8/4k3/1p6/1Pp1p1pB/K1P1P1Pb/RB6 b - -", WHITE, W);
}
END_TEST

/* ---- the best-first search ---------------------------------------------- */

/* expect_at(), and the stage that decided must be `stage` (dead.h). */
static void expect_stage_at(const char *file, int line, const char *fen, int color, enum dead_answer expect,
                            int stage, size_t budget)
{
    board_t b;
    move_t moves[LINE_CAP];
    int len = -1;
    char why[256];
    dead_stats_t st;
    tu_fen_at(file, line, &b, fen, false);
    dead_search_t *s = dead_search_new(budget);
    ck_assert_msg(s != NULL, "%s:%d: dead_search_new failed", file, line);
    enum dead_answer a = dead_can_win(s, &b, color, moves, LINE_CAP, &len);
    dead_last_stats(s, &st);
    dead_search_free(s);
    if (a != expect)
        ck_abort_msg("%s:%d: %s in %s: expected %s, got %s", file, line, side_name(color), fen, answer_name(expect),
                     answer_name(a));
    if (st.stage != stage)
        ck_abort_msg("%s:%d: %s in %s: decided by stage %d, expected %d", file, line, side_name(color), fen, st.stage,
                     stage);
    if (a == DEAD_WINNABLE && replay_line(&b, color, moves, len, why, sizeof why))
        ck_abort_msg("%s:%d: %s in %s: helpmate line rejected: %s", file, line, side_name(color), fen, why);
}
#define EXPECT_STAGE(fen, color, expect, stage) expect_stage_at(__FILE__, __LINE__, (fen), (color), (expect), (stage), 0)
#define EXPECT_STAGE_BUDGET(fen, color, expect, stage, budget)                                                     \
    expect_stage_at(__FILE__, __LINE__, (fen), (color), (expect), (stage), (budget))

/* Traps that look dead.  The white king is shut in on h1 (g1 is covered by
 * h2, g2 is its own pawn, blocked by g3) and the white a-, c- and e-pawns
 * run into the black ones on their files.  Yet white mates in some fifty
 * plies: the black king takes the e-pawn, the black e-pawn promotes to a
 * knight, which goes to f3, where gxf3 changes files; the f-pawn promotes
 * and mates (1.a3 Kf7 2.e4 Ke6 3.e5 Kxe5 ... 9.a6 e1=N 10.c6 Nf3 11.gxf3
 * ... 16.f8=Q ...).  Only the best-first search (stage 8) follows a plan
 * that long within the budget.  D3-Chess test vector. */
START_TEST(best_first_pawn_plans)
{
    EXPECT_STAGE("5k2/p1p1p3/8/8/8/6p1/P1P1P1Pp/7K w - - 0 1", WHITE, W, 8);
    EXPECT_STAGE("k7/p1p1p3/8/8/8/P5p1/2P1P1Pp/7K w - - 0 1", WHITE, W, 8);
    /* the mirror of the plan for black: the white a7 and b6 pawns shut the
     * black king in on a8, and every black pawn has a white one ahead */
    EXPECT_STAGE("k7/Pp1p1p1p/1P6/K7/8/8/3P1P1P/8 w - - 0 1", BLACK, W, 8);
}
END_TEST

/* Behind a locked chain neither king crosses (rank 4's light squares are
 * attacked by the black pawns, rank 5's dark ones by the white pawns).
 * Black mates with the light bishops all the same, the white king hemmed in
 * by its own dark bishops: ... 14.Kh3 Ke6 15.Bfg3 Bf1# with a white bishop
 * on h2, some thirty plies; the best-first search (stage 8) gets there by
 * counting the king's free squares and how far its own pieces stand.  White
 * never mates: the dark squares of rank 4 hold its pawns, which never move
 * (the black pawns block them, and nothing can stand on the dark squares
 * they attack: the black bishops are light, the black king never enters),
 * so its dark bishops and its king stay below the chain and never attack a
 * square the black king can stand on.  Unwinnable for white. */
START_TEST(best_first_bishop_mates)
{
    EXPECT_STAGE("8/4kb2/8/1p1p1p1p/1P1P1P1P/1bB5/3B1K2/8 b - - 0 1", BLACK, W, 8);
    EXPECT("8/4kb2/8/1p1p1p1p/1P1P1P1P/1bB5/3B1K2/8 b - - 0 1", WHITE, U);
}
END_TEST

/* Mates that need many bishops walked to a corner, from the D3-Chess test
 * vector (labels there): the earlier stages give up on them, the deepening
 * that rewards bishops heading for the corner finds them (stage 5, beyond
 * the budget).  With a small budget the earlier stages give up sooner, and
 * the deepening keeps nodes of its own: the same answers, cheaply. */
static const struct {
    const char *fen;
    int color;
} bishop_walks[] = {
    {"8/b1k3b1/5b2/p1p1p1p1/P1P1P1P1/2K2B2/5bB1/8 w - - 0 1", BLACK},                     /* -B */
    {"4B3/1k3B1B/7b/4bB2/1p1p1pBp/bPpP1P1P/2Pb2K1/N1b1b3 b - - 0 1", WHITE},               /* W- */
    {"k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1", WHITE},                           /* W- */
    {"3b1b1k/2b1bpb1/1b1b1b2/2b5/4KB2/4B1B1/3B1B1B/2B1B1B1 w - - 0 1", BLACK},              /* WB */
    {"3k4/4b3/3b4/p1pBp1p1/P1PbP1P1/5B2/8/1B1K4 b - - 0 1", BLACK},                          /* WB */
};

START_TEST(bishops_walk_to_the_corner)
{
    for (size_t i = 0; i < sizeof bishop_walks / sizeof *bishop_walks; i++)
        EXPECT_STAGE_BUDGET(bishop_walks[i].fen, bishop_walks[i].color, W, 5, 20000);
}
END_TEST

/* The same at the default budget, as --fen asks: some seconds, so only in
 * the plain build (the sanitizer and valgrind builds stretch the check
 * timeouts, CK_TIMEOUT_MULTIPLIER above 1). */
START_TEST(bishops_walk_default_budget)
{
    const char *stretch = getenv("CK_TIMEOUT_MULTIPLIER");
    if (stretch && atoi(stretch) > 1)
        return;
    for (size_t i = 0; i < sizeof bishop_walks / sizeof *bishop_walks; i++)
        EXPECT_STAGE(bishop_walks[i].fen, bishop_walks[i].color, W, 5);
}
END_TEST

/* Pawns locked, bishops only: the white bishops are dark and stay above
 * and below the chain, the black king and the light bishop of c8 above
 * it, and the light bishop of c4 alone below it cannot mate.  Black mates
 * only with a pawn through the chain: the bishop offered on f3 (or h3),
 * where g2 takes it and the g4 pawn takes back, runs to f1 and promotes.
 * CHA (D3-Chess) finds such a line, given some million nodes; the line
 * here is replayed to mate.  Only the last deepening, which rewards the
 * offer, finds it; at a small budget the stages before it give up sooner
 * and it keeps nodes of its own. */
START_TEST(offer_through_the_chain)
{
    EXPECT_STAGE_BUDGET("k1b5/8/8/1pBpBpBp/1PbP1PpP/6P1/6P1/K1B1B3 w - - 0 1", BLACK, W, 5, 20000);
}
END_TEST

/* ---- positions already decided ------------------------------------------ */

/* Fool's mate: mate on the board is a win for the side that mated (empty
 * line) and no win for the side mated (no legal move). */
START_TEST(already_mate)
{
    const char *fen = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    board_t b;
    move_t line[4];
    int len = -1;
    EXPECT(fen, WHITE, U);
    EXPECT(fen, BLACK, W);
    TU_FEN(&b, fen);
    dead_search_t *s = dead_search_new(0);
    ck_assert(s != NULL);
    ck_assert_int_eq(dead_can_win(s, &b, BLACK, line, 4, &len), DEAD_WINNABLE);
    ck_assert_int_eq(len, 0);
    dead_search_free(s);
}
END_TEST

/* Stalemate: the game is over, nobody wins (FIDE 5.2.1). */
START_TEST(stalemate)
{
    EXPECT_BOTH("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", U, U);
}
END_TEST

/* Forced: Black's only move is Kxd7 (c8, e8, c7, e7 are covered by the
 * queen), leaving K v K. */
START_TEST(forced_capture)
{
    EXPECT("3k4/3Q2K1/8/8/8/8/8/8 b - - 0 1", WHITE, U);
    EXPECT_QUICK("3k4/3Q2K1/8/8/8/8/8/8 b - - 0 1", WHITE, X, U);
}
END_TEST

/* Forced into stalemate: 1...b4+ is Black's only move; every answer (Kxb4,
 * Ka4, Kb2, Qxb4, ...) leaves Black without a legal move and not in check,
 * so the two queens never mate (a lichess flag fall, D3-Chess's set). */
START_TEST(forced_stalemate)
{
    EXPECT("k7/2Q5/3Q4/1p6/8/KP6/P1P5/8 b - - 2 52", WHITE, U);
}
END_TEST

/* ---- one side only ------------------------------------------------------- */

/* D3-Chess vector, W-: White mates with the a8 bishop against the king
 * walled in on c8/d8; Black's pieces are all shut behind the chain. */
START_TEST(one_side_only)
{
    EXPECT("Bb1k1b2/bKp1p1p1/1pP1P1P1/pP6/6P1/P7/8/8 w - - 0 1", WHITE, W);
    EXPECT("Bb1k1b2/bKp1p1p1/1pP1P1P1/pP6/6P1/P7/8/8 w - - 0 1", BLACK, U);
}
END_TEST

/* Open positions: the start position and a middlegame, both sides. */
START_TEST(open_positions)
{
    EXPECT_BOTH("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", W, W);
    EXPECT_BOTH("r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10", W, W);
    /* en passant and castling rights in the position */
    EXPECT_BOTH("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1", W, W);
}
END_TEST

/* ---- the quick filter and the probe ------------------------------------- */

START_TEST(quick_filter)
{
    /* lone king; lone knight against queens only; bishops of one colour */
    EXPECT_QUICK("8/8/8/4k3/8/8/8/1N2K1N1 w - - 0 1", BLACK, U, U);
    EXPECT_QUICK("4k3/8/8/3q4/8/8/8/1N2K3 w - - 0 1", WHITE, U, U);
    EXPECT_QUICK("4k3/8/8/3b4/8/8/8/4KB2 w - - 0 1", WHITE, U, U);
    EXPECT_QUICK("4k3/8/8/3r4/8/8/8/4KB2 w - - 0 1", WHITE, U, U);
    /* enough material: the filter declines */
    EXPECT_QUICK("8/8/8/4k3/8/8/8/1N2K1N1 w - - 0 1", WHITE, X, X);
    EXPECT_QUICK("4k3/8/8/3n4/8/8/8/1N2K3 w - - 0 1", WHITE, X, X);
    EXPECT_QUICK("4k3/8/8/3b4/8/8/8/2B1K3 w - - 0 1", WHITE, X, X);
    EXPECT_QUICK("4k3/8/8/3p4/8/8/8/1N2K3 w - - 0 1", WHITE, X, X);
    EXPECT_QUICK(TU_START_FEN, WHITE, X, X);
    /* the probe's semi-static pass */
    EXPECT_QUICK("4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1", WHITE, X, U);
    EXPECT_QUICK("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1", BLACK, X, U);
    /* mate and stalemate on the board */
    EXPECT_QUICK("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", BLACK, X, W);
    EXPECT_QUICK("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", WHITE, X, U);
}
END_TEST

/* The probe gives up at once where a shuffle there and back never ends
 * the game: at the root out of check, and one ply down after a check
 * (the forced-line search would otherwise follow a line nine plies down);
 * the forced lines above are still proved. */
START_TEST(probe_shuffle)
{
    static const char *const open[] = {
        "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
        "rnb1kbnr/pppp1ppp/8/4p3/4P2q/8/PPPP1KPP/RNBQ1BNR w kq - 2 3", /* White in check */
    };
    board_t b;
    dead_stats_t st;
    dead_search_t *s = dead_search_new(5000);
    ck_assert(s != NULL);
    for (size_t i = 0; i < sizeof open / sizeof *open; i++) {
        TU_FEN(&b, open[i]);
        for (int c = WHITE; c <= BLACK; c++) {
            ck_assert_int_eq(dead_probe(s, &b, c), DEAD_UNDETERMINED);
            dead_last_stats(s, &st);
            ck_assert_msg(st.nodes <= (board_in_check(&b) ? 3u : 2u), "%lu nodes for %s in %s", st.nodes,
                          c == WHITE ? "White" : "Black", open[i]);
        }
    }
    TU_FEN(&b, "k7/2Q5/3Q4/1p6/8/KP6/P1P5/8 b - - 2 52");
    ck_assert_int_eq(dead_probe(s, &b, WHITE), DEAD_UNWINNABLE);
    dead_search_free(s);
}
END_TEST

/* dead_static_proof(): the proofs that search no line, where pawns are
 * locked.  The five positions are games of D3-Chess's unfair timeouts
 * (lichess, lost on time by the side to move, whose opponent cannot mate:
 * tests/data/SOURCES.md) that dead_probe() leaves open: the semi-static
 * pass proves four at once, the pass after each legal move the fifth. */
START_TEST(static_proof)
{
    static const char *const proved[] = {
        "8/1Q6/2kb1p1p/p1p1pP1P/P1PpP1B1/3P4/6K1/8 b - - 4 61",          /* White cannot mate */
        "8/8/5k2/p2p4/P1pP1p1p/2P2P1P/Kq6/8 w - - 0 68",                 /* Black */
        "8/3Q4/3k4/1p2p1p1/1P2P1P1/3K4/8/8 b - - 2 86",                  /* White */
        "4k3/4Q3/p3p3/Pp2p1p1/1P1pP1P1/3P4/6P1/6K1 b - - 0 38",          /* White */
        "8/8/7p/p1p1kp1P/P1P2P2/4K3/5P2/8 b - - 0 48",                   /* White, after each move */
    };
    board_t b;
    dead_stats_t st;
    dead_search_t *s = dead_search_new(100);
    ck_assert(s != NULL);
    for (size_t i = 0; i < sizeof proved / sizeof *proved; i++) {
        TU_FEN(&b, proved[i]);
        int winner = !b.stm;
        ck_assert_msg(dead_probe(s, &b, winner) == DEAD_UNDETERMINED, "the probe already proves %s", proved[i]);
        ck_assert_msg(dead_static_proof(s, &b, winner) == DEAD_UNWINNABLE, "not proved: %s", proved[i]);
        dead_last_stats(s, &st);
        ck_assert_msg(st.stage == (i == 4 ? 7 : 4), "%s: decided by stage %d", proved[i], st.stage);
    }
    /* Where the full analysis finds a mate, the static proofs never call
     * the position unwinnable: locked pawns with a queen that can break in
     * (Qxh7 and more), and one locked pair that the white king walks round
     * to take; open positions are not tried at all. */
    static const char *const open[] = {
        "7k/7p/p1p1p1pP/PpPpPpP1/1P1P1P2/8/6Q1/6K1 w - - 0 1",
        "4k3/8/8/p7/P7/8/8/4K3 w - - 0 1",
        "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
    };
    for (size_t i = 0; i < sizeof open / sizeof *open; i++) {
        TU_FEN(&b, open[i]);
        ck_assert_msg(dead_static_proof(s, &b, WHITE) == DEAD_UNDETERMINED, "White in %s", open[i]);
    }
    dead_search_free(s);
    EXPECT("7k/7p/p1p1p1pP/PpPpPpP1/1P1P1P2/8/6Q1/6K1 w - - 0 1", WHITE, W);
    EXPECT("4k3/8/8/p7/P7/8/8/4K3 w - - 0 1", WHITE, W);
}
END_TEST

/* dead_fortress_proof(): a side walled in (king and pawns only, its king
 * without a square, each pawn a few pushes from an enemy pawn ahead) runs
 * out of moves, and the exhaustion of the few positions before that ends.
 * The seven positions are D3-Chess's unfair timeouts (lichess, lost on time
 * by the side to move: tests/data/SOURCES.md) that the replay's other
 * proofs and its 100-node search leave open.  Why the winner cannot mate;
 * in each, no pawn can ever leave its file (nothing but kings ever stands
 * beside one to be taken), so a blocked pawn stays blocked, and the
 * walled-in king stays walled in (what walls it in never moves): */
static const char *const walled[] = {
    /* Black (Kh8 walled in by h7 and g6; g7 blocked): the a-pawn cannot
     * pass White's, which only the black king could take; if White's king
     * takes it Black is stalemated; its checks on the b-file leave the
     * white king the c-file. */
    "7k/6pP/p5P1/5K2/8/8/P7/8 w - - 1 47",
    /* White (Kh5 walled in by h3, g5 and f4; f5, g6, h4 blocked and
     * guarded): White's a-pawn can pass Black's only if the white king
     * takes it, and then Black, to move, is stalemated; with no piece, and
     * no pawn that can reach g4 or g6, White never checks. */
    "8/p7/6p1/5pPk/3K1P1p/7P/P7/8 b - - 1 46",
    /* White (Kh1 walled in by h2 and g3; g2 blocked): a4 and c3 cannot pass
     * a7 and c5 (only the white king could take those); pawn checks on the
     * b- and d-files leave the black king a square on the far side. */
    "8/p7/8/2p5/P5k1/2P3p1/6Pp/7K b - - 1 50",
    /* White (Kb8 walled in by b7 and b6, b7 guarded by the bishop, which
     * can never move; b8 is dark, the bishop light): only a promoted piece
     * checks, after the white king has taken the f- or the h-pawn to open
     * its file and five more pawn moves; Black's other pawn has four moves
     * at most left for them: Black is stalemated first. */
    "1k6/1P5p/BP3p2/1P6/8/8/5PKP/8 b - - 0 41",
    /* Black (Kh1 walled in by h2 and g3; g2 blocked): the a-pawn cannot
     * pass White's; if the black king takes that one, White is stalemated;
     * h1 can be checked from g2 only, where White's pawn stays. */
    "8/p7/8/8/5k2/6p1/P5Pp/7K w - - 0 56",
    /* Black (Kh4 walled in by h6, g4 guarded by f5, g5 and h3; f4, g3, h5
     * blocked): the a-pawn cannot pass White's (taking that stalemates
     * White); h4 is checked by a pawn only from g5 or g3, which no black
     * pawn can reach. */
    "8/p7/7p/2k2p1P/5PpK/P5P1/8/8 w - - 1 46",
    /* White (Kb8 walled in by b7, guarded by a6 and c6; a7 and c7 blocked):
     * pawn checks on b8 come from a7 or c7, where Black's pawns stay; the
     * h-pawn cannot pass Black's unless the white king takes it, which
     * stalemates Black. */
    "1k6/pPp4p/P1P5/8/8/8/7P/5K2 b - - 0 55",
};

START_TEST(fortress_proof)
{
    board_t b;
    dead_stats_t st;
    move_t line[LINE_CAP];
    int len = -1;
    char why[256];
    dead_search_t *s = dead_search_new(100);
    ck_assert(s != NULL);
    for (size_t i = 0; i < sizeof walled / sizeof *walled; i++) {
        TU_FEN(&b, walled[i]);
        int winner = !b.stm;
        ck_assert_msg(dead_probe(s, &b, winner) == DEAD_UNDETERMINED, "the probe already proves %s", walled[i]);
        ck_assert_msg(dead_static_proof(s, &b, winner) == DEAD_UNDETERMINED, "static proof of %s", walled[i]);
        ck_assert_msg(dead_can_win(s, &b, winner, NULL, 0, NULL) == DEAD_UNDETERMINED, "100 nodes prove %s",
                      walled[i]);
        ck_assert_msg(dead_fortress_proof(s, &b, winner, line, LINE_CAP, &len) == DEAD_UNWINNABLE, "not proved: %s",
                      walled[i]);
        ck_assert_int_eq(len, 0);
        dead_last_stats(s, &st);
        ck_assert_msg(st.stage == 6 && st.nodes > 0 && st.nodes <= 4096, "%s: stage %d, %lu nodes", walled[i],
                      st.stage, st.nodes);
    }
    /* Walled in but winnable: Black's king g8 has no square (the pawns on
     * g7 and g6 and the bishop, which g7 guards, hold them all; a7 is
     * blocked, b4 one push from b2), and d8=Q mates; the exhaustion
     * finds the mate and never calls the position unwinnable. */
    TU_FEN(&b, "6kB/p1PP2P1/P5P1/8/1p6/8/1P6/7K w - - 0 1");
    ck_assert_int_eq(dead_fortress_proof(s, &b, WHITE, line, LINE_CAP, &len), DEAD_WINNABLE);
    ck_assert_int_eq(len, 1);
    ck_assert_msg(!replay_line(&b, WHITE, line, len, why, sizeof why), "%s", why);
    /* Nobody walled in: not tried (no node), whatever the answer.  The
     * first position of the list without White's a-pawn (Black's a-pawn has
     * no pawn ahead), with a black knight for the a-pawn (a piece), and
     * without the h7 pawn (g8 is free for Black's king); Kb8 walled in as
     * in the last of the list but with twelve pushes left (e7, g7 and h7
     * each four from White's pawns), more than eight; pieces on both
     * sides. */
    static const char *const not_walled[] = {
        "7k/6pP/p5P1/5K2/8/8/8/8 w - - 1 47",
        "7k/6pP/n5P1/5K2/8/8/P7/8 w - - 1 47",
        "7k/6p1/p5P1/5K2/8/8/P7/8 w - - 1 47",
        "1k6/pPp1p1pp/P1P5/8/8/8/4P1PP/5K2 b - - 0 1",
        "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
    };
    for (size_t i = 0; i < sizeof not_walled / sizeof *not_walled; i++) {
        TU_FEN(&b, not_walled[i]);
        for (int c = WHITE; c <= BLACK; c++) {
            ck_assert_msg(dead_fortress_proof(s, &b, c, NULL, 0, NULL) == DEAD_UNDETERMINED, "%s in %s",
                          side_name(c), not_walled[i]);
            dead_last_stats(s, &st);
            ck_assert_msg(st.nodes == 0 && st.stage == 0, "%s: %lu nodes", not_walled[i], st.nodes);
        }
    }
    /* Walled in, but more positions than the budget: White's king h1 (g1
     * and h2 held as in the fifth of the list) with a2 and c2 four pushes
     * each from a7 and c7; the black king walks while the pawns shuffle,
     * and the exhaustion stops undecided rather than guess (D3-Chess labels
     * the position unwinnable for both sides). */
    TU_FEN(&b, "5k2/p1p5/8/8/8/6p1/P1P3Pp/7K w - - 0 1");
    ck_assert_int_eq(dead_fortress_proof(s, &b, BLACK, NULL, 0, &len), DEAD_UNDETERMINED);
    dead_last_stats(s, &st);
    ck_assert_int_eq(st.stage, 0);
    ck_assert_int_eq(len, 0);
    dead_search_free(s);
}
END_TEST

/* A handle is reusable and small budgets give up rather than guess. */
START_TEST(budget_and_reuse)
{
    board_t b;
    int len = -1;
    dead_search_t *s = dead_search_new(50);
    ck_assert(s != NULL);
    /* K+N+N v K needs a long helpmate: 50 nodes neither find nor refute it */
    TU_FEN(&b, "8/8/8/4k3/8/8/8/1N2K1N1 w - - 0 1");
    ck_assert_int_eq(dead_can_win(s, &b, WHITE, NULL, 0, &len), DEAD_UNDETERMINED);
    ck_assert_int_eq(len, 0);
    dead_search_free(s);
    s = dead_search_new(0);
    ck_assert(s != NULL);
    for (int i = 0; i < 3; i++) {
        TU_FEN(&b, "8/8/8/4k3/8/8/8/1N2K1N1 w - - 0 1");
        ck_assert_int_eq(dead_can_win(s, &b, WHITE, NULL, 0, &len), DEAD_WINNABLE);
        ck_assert_int_gt(len, 0);
        ck_assert_int_eq(dead_can_win(s, &b, BLACK, NULL, 0, &len), DEAD_UNWINNABLE);
    }
    dead_search_free(s);
    dead_search_free(NULL);
}
END_TEST

/* The replay's handle (a few thousand nodes): a knight mates against the
 * pawn's promotion square, the corner nearest the loser's king; a mate in
 * one stays one move long with few pieces; a handle first asked by
 * dead_probe() makes its table at the first dead_can_win(). */
START_TEST(small_budget_endgames)
{
    board_t b;
    move_t line[LINE_CAP];
    int len = -1;
    char why[256];
    dead_search_t *s = dead_search_new(5000);
    ck_assert(s != NULL);
    TU_FEN(&b, "8/8/8/p7/1k6/2N5/2K5/8 b - - 0 1");
    ck_assert_int_eq(dead_probe(s, &b, WHITE), DEAD_UNDETERMINED);
    ck_assert_int_eq(dead_can_win(s, &b, WHITE, line, LINE_CAP, &len), DEAD_WINNABLE);
    ck_assert_msg(!replay_line(&b, WHITE, line, len, why, sizeof why), "%s", why);
    TU_FEN(&b, "7k/8/5K2/8/8/8/8/6Q1 w - - 0 1");
    ck_assert_int_eq(dead_can_win(s, &b, WHITE, line, LINE_CAP, &len), DEAD_WINNABLE);
    ck_assert_int_eq(len, 1);
    ck_assert_msg(!replay_line(&b, WHITE, line, len, why, sizeof why), "%s", why);
    dead_search_free(s);
}
END_TEST

/* ---- the searches' moves ------------------------------------------------- */

/* Below p (the engine's b), depth plies: every child's key as
 * dead_move_key() gives it before the child is made must be the key
 * dead_do_move() gives the child, and the key of the engine's board after
 * the same move (where dpos_t counts an en passant square as the analysis
 * does).  Returns the children checked. */
static long walk_keys(const tables_t *T, const dpos_t *p, const board_t *b, int depth)
{
    dmove_t moves[MAX_GEN];
    int n = dead_gen_legal(T, p, moves);
    move_t legal[MAX_MOVES];
    ck_assert_int_eq(n, movegen_legal(b, legal));
    long checked = 0;
    for (int i = 0; i < n; i++) {
        dpos_t q, e;
        board_t next;
        char fen[128], mv[32];
        uint64_t key = dead_move_key(T, p, moves[i]);
        dead_do_move(T, p, moves[i], &q);
        board_make_move(b, dead_to_move_t(moves[i]), &next);
        dead_pos_from_board(T, &next, &e);
        ck_assert_msg(key == q.key && q.key == e.key, "%s after %s: key %016llx, made %016llx, engine %016llx",
                      tu_fen_out(b, fen), tu_move_str(dead_to_move_t(moves[i]), mv), (unsigned long long)key,
                      (unsigned long long)q.key, (unsigned long long)e.key);
        checked++;
        if (depth > 1)
            checked += walk_keys(T, &q, &next, depth - 1);
    }
    return checked;
}

/* The perft starts, and positions for each rule of a key: en passant with
 * the capture pinned or not, promotions with and without capture, castling
 * rights lost by a king's move, a rook's move and a rook taken (Chess960
 * too), a double step next to no enemy pawn. */
START_TEST(child_keys)
{
    static const tu_start_t starts[] = {
        TU_WALK_STARTS,
        {"8/8/8/KPp4r/8/8/8/7k w - c6 0 1", false},
        {"4k3/8/8/8/1pP5/8/8/4K2B b - c3 0 1", false},
        {"r1n1k2r/1P4P1/8/8/8/8/1p4p1/R1N1K2R w KQkq - 0 1", false},
        {"1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", true},
    };
    tables_t *T = malloc(sizeof *T);
    ck_assert(T != NULL);
    dead_tables_init(T);
    long checked = 0;
    for (size_t i = 0; i < sizeof starts / sizeof *starts; i++) {
        board_t b;
        dpos_t p;
        tu_fen_at(TU_WHERE, &b, starts[i].fen, starts[i].c960);
        dead_pos_from_board(T, &b, &p);
        checked += walk_keys(T, &p, &b, 3);
    }
    free(T);
    ck_assert_int_gt(checked, 100000);
}
END_TEST

/* ---- the D3-Chess test vector, a subset ---------------------------------- */

/* Every 6th position of the D3-Chess test vector (tests/data/SOURCES.md):
 * "LL FEN", LL = who can still mate (WB, W-, -B, --).  No decided answer may
 * disagree with the label, every line must replay to mate, and at least
 * MIN_DECIDED per mille of the sides must be decided at SUBSET_BUDGET nodes. */
#define MIN_DECIDED 900

START_TEST(vector_subset)
{
    dead_search_t *s = dead_search_new(SUBSET_BUDGET);
    ck_assert(s != NULL);
    int sides, decided;
    run_labelled("d3chess-unwinnability-subset.txt", s, &sides, &decided);
    dead_search_free(s);
    ck_assert_int_eq(sides, 602);
    ck_assert_msg(decided * 1000 >= sides * MIN_DECIDED, "decided %d of %d sides, fewer than %d per mille", decided,
                  sides, MIN_DECIDED);
}
END_TEST

static Suite *dead_suite(void)
{
    Suite *s = suite_create("dead");
    TU_CASE(s, knn_v_k, 30);
    TU_CASE(s, kn_v_kn, 30);
    TU_CASE(s, kb_v_kb_same_colour, 30);
    TU_CASE(s, kb_v_kb_opposite_colours, 30);
    TU_CASE(s, kb_v_kr, 30);
    TU_CASE(s, locked_chain_bishops_dead, 30);
    TU_CASE(s, breakable_chain_winnable, 30);
    TU_CASE(s, same_colour_bishops_walled_in, 30);
    TU_CASE(s, walled_in_broken, 30);
    TU_CASE(s, fortress_kings_cannot_cross, 30);
    TU_CASE(s, confined_loser_king_stalemates, 30);
    TU_CASE(s, confined_winner_king_stalemates, 30);
    TU_CASE(s, confined_king_traps, 30);
    TU_CASE(s, waiting_men_dead, 30);
    TU_CASE(s, waiting_men_broken, 30);
    TU_CASE(s, best_first_pawn_plans, 60);
    TU_CASE(s, best_first_bishop_mates, 60);
    TU_CASE(s, bishops_walk_to_the_corner, 60);
    TU_CASE(s, bishops_walk_default_budget, 600);
    TU_CASE(s, offer_through_the_chain, 60);
    TU_CASE(s, already_mate, 30);
    TU_CASE(s, stalemate, 30);
    TU_CASE(s, forced_capture, 30);
    TU_CASE(s, forced_stalemate, 30);
    TU_CASE(s, one_side_only, 30);
    TU_CASE(s, open_positions, 30);
    TU_CASE(s, quick_filter, 30);
    TU_CASE(s, probe_shuffle, 30);
    TU_CASE(s, static_proof, 30);
    TU_CASE(s, fortress_proof, 30);
    TU_CASE(s, budget_and_reuse, 30);
    TU_CASE(s, small_budget_endgames, 30);
    TU_CASE(s, child_keys, 60);
    TU_CASE(s, vector_subset, 600);
    return s;
}

int main(void)
{
    return tu_run(dead_suite());
}
