/* test_san.c: move text in and out (san.h).  python-chess 1.11 parse_san
 * and Board.san are the reference for what is accepted and written. */
#include "testutil.h"

/* ---- san_parse ------------------------------------------------------------ */

typedef struct {
    const char *text;
    enum san_kind kind;
    int piece, from_file, from_rank;
    const char *to; /* NULL: not checked (castling, null move) */
    int promo;
    bool capture;
} parse_case_t;

#define NOFILE -1 /* from_file / from_rank not given */
static const parse_case_t parse_ok[] = {
    {"e4", SAN_MOVE, EMPTY, NOFILE, NOFILE, "e4", EMPTY, false},
    {"exd5", SAN_MOVE, EMPTY, 4, NOFILE, "d5", EMPTY, true},
    {"Nf3", SAN_MOVE, KNIGHT, NOFILE, NOFILE, "f3", EMPTY, false},
    {"Nbd2", SAN_MOVE, KNIGHT, 1, NOFILE, "d2", EMPTY, false},
    {"R1e2", SAN_MOVE, ROOK, NOFILE, 0, "e2", EMPTY, false},
    {"Qh4xe1", SAN_MOVE, QUEEN, 7, 3, "e1", EMPTY, true},
    {"Qh4e1", SAN_MOVE, QUEEN, 7, 3, "e1", EMPTY, false},
    {"Bxe5", SAN_MOVE, BISHOP, NOFILE, NOFILE, "e5", EMPTY, true},
    {"Kxf2", SAN_MOVE, KING, NOFILE, NOFILE, "f2", EMPTY, true},
    {"Raxd1", SAN_MOVE, ROOK, 0, NOFILE, "d1", EMPTY, true},
    {"e8=Q", SAN_MOVE, EMPTY, NOFILE, NOFILE, "e8", QUEEN, false},
    {"e8Q", SAN_MOVE, EMPTY, NOFILE, NOFILE, "e8", QUEEN, false},
    {"e8=q", SAN_MOVE, EMPTY, NOFILE, NOFILE, "e8", QUEEN, false}, /* python-chess accepts */
    {"e8=N", SAN_MOVE, EMPTY, NOFILE, NOFILE, "e8", KNIGHT, false},
    {"a1=R", SAN_MOVE, EMPTY, NOFILE, NOFILE, "a1", ROOK, false},
    {"exd8=B+", SAN_MOVE, EMPTY, 4, NOFILE, "d8", BISHOP, true},
    {"bxa1=N#", SAN_MOVE, EMPTY, 1, NOFILE, "a1", KNIGHT, true},
    {"exd6e.p.", SAN_MOVE, EMPTY, 4, NOFILE, "d6", EMPTY, true},
    {"e4+", SAN_MOVE, EMPTY, NOFILE, NOFILE, "e4", EMPTY, false},
    {"e4#", SAN_MOVE, EMPTY, NOFILE, NOFILE, "e4", EMPTY, false},
    {"e4!", SAN_MOVE, EMPTY, NOFILE, NOFILE, "e4", EMPTY, false},
    {"e4?", SAN_MOVE, EMPTY, NOFILE, NOFILE, "e4", EMPTY, false},
    {"e4!!", SAN_MOVE, EMPTY, NOFILE, NOFILE, "e4", EMPTY, false},
    {"e4??", SAN_MOVE, EMPTY, NOFILE, NOFILE, "e4", EMPTY, false},
    {"e4!?", SAN_MOVE, EMPTY, NOFILE, NOFILE, "e4", EMPTY, false},
    {"e4?!", SAN_MOVE, EMPTY, NOFILE, NOFILE, "e4", EMPTY, false},
    {"Nf3+!?", SAN_MOVE, KNIGHT, NOFILE, NOFILE, "f3", EMPTY, false},
    {"Qxf7#", SAN_MOVE, QUEEN, NOFILE, NOFILE, "f7", EMPTY, true},
    {"Ng1-f3", SAN_MOVE, KNIGHT, 6, 0, "f3", EMPTY, false},
    {"Ng1f3", SAN_MOVE, KNIGHT, 6, 0, "f3", EMPTY, false},
    {"Ng1xf3", SAN_MOVE, KNIGHT, 6, 0, "f3", EMPTY, true},
    {"e2e4", SAN_MOVE, EMPTY, 4, 1, "e4", EMPTY, false},
    {"e2-e4", SAN_MOVE, EMPTY, 4, 1, "e4", EMPTY, false},
    {"g1f3", SAN_MOVE, EMPTY, 6, 0, "f3", EMPTY, false},
    {"e7e8q", SAN_MOVE, EMPTY, 4, 6, "e8", QUEEN, false},
    {"d7d8n", SAN_MOVE, EMPTY, 3, 6, "d8", KNIGHT, false},
    {"O-O", SAN_CASTLE_KING, 0, 0, 0, NULL, 0, false},
    {"0-0", SAN_CASTLE_KING, 0, 0, 0, NULL, 0, false},
    {"O-O+", SAN_CASTLE_KING, 0, 0, 0, NULL, 0, false},
    {"O-O#", SAN_CASTLE_KING, 0, 0, 0, NULL, 0, false},
    {"O-O!", SAN_CASTLE_KING, 0, 0, 0, NULL, 0, false},
    {"O-O-O", SAN_CASTLE_QUEEN, 0, 0, 0, NULL, 0, false},
    {"0-0-0", SAN_CASTLE_QUEEN, 0, 0, 0, NULL, 0, false},
    {"O-O-O+", SAN_CASTLE_QUEEN, 0, 0, 0, NULL, 0, false},
    {"--", SAN_NULLMOVE, 0, 0, 0, NULL, 0, false},
    {"Z0", SAN_NULLMOVE, 0, 0, 0, NULL, 0, false},
    {"0000", SAN_NULLMOVE, 0, 0, 0, NULL, 0, false},
    {"@@@@", SAN_NULLMOVE, 0, 0, 0, NULL, 0, false},
    {"N@f3", SAN_DROP, KNIGHT, NOFILE, NOFILE, "f3", EMPTY, false},
    {"Q@h7", SAN_DROP, QUEEN, NOFILE, NOFILE, "h7", EMPTY, false},
};

START_TEST(test_parse_accepts)
{
    const parse_case_t *c = &parse_ok[_i];
    san_syntax_t s;
    memset(&s, 0x5A, sizeof s);
    int rc = san_parse(c->text, strlen(c->text), &s);
    ck_assert_msg(rc == 0, "san_parse(\"%s\") refused", c->text);
    ck_assert_msg(s.kind == c->kind, "\"%s\": kind %d, want %d", c->text, (int)s.kind, (int)c->kind);
    if (c->kind != SAN_MOVE && c->kind != SAN_DROP)
        return;
    ck_assert_msg(s.piece == c->piece, "\"%s\": piece %d, want %d", c->text, s.piece, c->piece);
    ck_assert_msg(s.to == tu_sq(c->to), "\"%s\": to %d, want %s", c->text, s.to, c->to);
    if (c->kind == SAN_DROP)
        return;
    ck_assert_msg(s.from_file == c->from_file, "\"%s\": from_file %d, want %d", c->text, s.from_file, c->from_file);
    ck_assert_msg(s.from_rank == c->from_rank, "\"%s\": from_rank %d, want %d", c->text, s.from_rank, c->from_rank);
    ck_assert_msg(s.promo == c->promo, "\"%s\": promo %d, want %d", c->text, s.promo, c->promo);
    ck_assert_msg(s.capture == c->capture, "\"%s\": capture %d, want %d", c->text, s.capture, c->capture);
}
END_TEST

static const char *const parse_bad[] = {
    "", "Xf3", "e9", "i4", "1.", "Nf", "N", "x", "e", "exd", "Kxx4", "O-O-O-O", "OO", "o-o",
    "Nf3f", "N@", "-", "e4=", "1-0", "*", "Nf9", "Pe4e", "K@",
};

START_TEST(test_parse_rejects)
{
    san_syntax_t s;
    const char *t = parse_bad[_i];
    ck_assert_msg(san_parse(t, strlen(t), &s) == -1, "san_parse accepted \"%s\"", t);
}
END_TEST

/* Only len bytes are read. */
START_TEST(test_parse_respects_len)
{
    san_syntax_t s;
    ck_assert_int_eq(san_parse("e4e5", 2, &s), 0);
    ck_assert_int_eq(s.to, SQ(4, 3));
    ck_assert_int_eq(s.from_file, -1);
    ck_assert_int_eq(san_parse("Nf3 Nc6", 3, &s), 0);
    ck_assert_int_eq(s.piece, KNIGHT);
    ck_assert_int_eq(s.to, SQ(5, 2));
    char buf[3] = {'N', 'f', '3'}; /* not NUL-terminated */
    ck_assert_int_eq(san_parse(buf, 3, &s), 0);
    ck_assert_int_eq(s.to, SQ(5, 2));
    ck_assert_int_eq(san_parse("e4", 1, &s), -1);
}
END_TEST

/* ---- san_resolve ---------------------------------------------------------- */

typedef struct {
    const char *what, *fen;
    bool c960;
    const char *san;
    enum san_status status;
    const char *uci;   /* expected move when SAN_OK ("e1h1" = castling), NULL: null move */
    const char *why;   /* substring of the reason when not SAN_OK, NULL: not checked */
} resolve_case_t;

#define KNIGHTS_B1_F1 "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"
#define AFTER_E4_D5 "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"
#define PROMO "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"
#define RR "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"

static const resolve_case_t resolve_cases[] = {
    {"pawn push", TU_START_FEN, false, "e4", SAN_OK, "e2e4", NULL},
    {"knight", TU_START_FEN, false, "Nf3", SAN_OK, "g1f3", NULL},
    {"superfluous file", TU_START_FEN, false, "Ngf3", SAN_OK, "g1f3", NULL},
    {"superfluous rank", TU_START_FEN, false, "N1f3", SAN_OK, "g1f3", NULL},
    {"superfluous square", TU_START_FEN, false, "Ng1f3", SAN_OK, "g1f3", NULL},
    {"long algebraic with dash", TU_START_FEN, false, "Ng1-f3", SAN_OK, "g1f3", NULL},
    {"UCI knight move", TU_START_FEN, false, "g1f3", SAN_OK, "g1f3", NULL},
    {"UCI pawn move", TU_START_FEN, false, "e2e4", SAN_OK, "e2e4", NULL},
    {"x written on a quiet move (python-chess ignores it)", TU_START_FEN, false, "Nxf3", SAN_OK, "g1f3", NULL},
    {"with check and annotation", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false, "Ra8+!", SAN_OK, "a1a8", NULL},
    {"wrong disambiguation file", TU_START_FEN, false, "Nbf3", SAN_ILLEGAL, NULL, "f3"},
    {"wrong disambiguation rank", TU_START_FEN, false, "N2f3", SAN_ILLEGAL, NULL, "f3"},
    {"no knight reaches", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", false, "Nf3", SAN_ILLEGAL, NULL, "f3"},
    {"piece of the wrong side", TU_START_FEN, false, "Nf6", SAN_ILLEGAL, NULL, "f6"},
    {"unreachable king move", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", false, "Ke3",
     SAN_ILLEGAL, NULL, "e3"},
    {"ambiguous knights", KNIGHTS_B1_F1, false, "Nd2", SAN_AMBIGUOUS, NULL, "d2"},
    {"ambiguous with rank only", KNIGHTS_B1_F1, false, "N1d2", SAN_AMBIGUOUS, NULL, "d2"},
    {"disambiguated by file", KNIGHTS_B1_F1, false, "Nbd2", SAN_OK, "b1d2", NULL},
    {"disambiguated by file (f)", KNIGHTS_B1_F1, false, "Nfd2", SAN_OK, "f1d2", NULL},
    {"disambiguated fully", KNIGHTS_B1_F1, false, "Nb1d2", SAN_OK, "b1d2", NULL},
    {"pinned knight not ambiguous", "4k3/8/8/8/4r3/8/2N1N3/4K3 w - - 0 1", false, "Nd4", SAN_OK, "c2d4", NULL},
    {"pinned knight cannot move", "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", false, "Nc3", SAN_ILLEGAL, NULL, "c3"},
    {"king into check", "4k3/8/8/8/8/8/5r2/4K3 w - - 0 1", false, "Kf1", SAN_ILLEGAL, NULL, "f1"},
    {"pawn capture", AFTER_E4_D5, false, "exd5", SAN_OK, "e4d5", NULL},
    {"pawn capture without file", AFTER_E4_D5, false, "xd5", SAN_ILLEGAL, NULL, NULL},
    {"pawn capture from the wrong file", AFTER_E4_D5, false, "cxd5", SAN_ILLEGAL, NULL, "d5"},
    {"pawn push to an occupied square", AFTER_E4_D5, false, "d5", SAN_ILLEGAL, NULL, "d5"},
    {"en passant", "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", false, "exd6", SAN_OK, "e5d6",
     NULL},
    {"en passant with e.p.", "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", false, "exd6e.p.",
     SAN_OK, "e5d6", NULL},
    {"pinned en passant", "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2", false, "exd6", SAN_ILLEGAL, NULL, "d6"},
    {"promotion", PROMO, false, "e8=Q", SAN_OK, "e7e8q", NULL},
    {"promotion without =", PROMO, false, "e8N", SAN_OK, "e7e8n", NULL},
    {"promotion, lower-case piece", PROMO, false, "e8=r", SAN_OK, "e7e8r", NULL},
    {"UCI promotion", PROMO, false, "e7e8b", SAN_OK, "e7e8b", NULL},
    {"promotion without a piece", PROMO, false, "e8", SAN_ILLEGAL, NULL, "e8"},
    {"UCI promotion without a piece", PROMO, false, "e7e8", SAN_ILLEGAL, NULL, NULL},
    {"promotion to a king", PROMO, false, "e8=K", SAN_ILLEGAL, NULL, NULL},
    {"promotion piece off the last rank", TU_START_FEN, false, "e4=Q", SAN_ILLEGAL, NULL, NULL},
    {"castle king side", RR, false, "O-O", SAN_OK, "e1h1", NULL},
    {"castle queen side", RR, false, "O-O-O", SAN_OK, "e1a1", NULL},
    {"castle with zeros", RR, false, "0-0-0", SAN_OK, "e1a1", NULL},
    {"castle with check sign", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", false, "O-O-O+", SAN_OK, "e1a1", NULL},
    {"castling by UCI king move", RR, false, "e1g1", SAN_OK, "e1h1", NULL},
    {"castling blocked", TU_START_FEN, false, "O-O", SAN_ILLEGAL, NULL, NULL},
    {"castling without the right", "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", false, "O-O", SAN_ILLEGAL, NULL, NULL},
    {"castling through check", "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", false, "O-O", SAN_ILLEGAL, NULL, NULL},
    {"castling out of check", "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", false, "O-O-O", SAN_ILLEGAL, NULL, NULL},
    {"black castles", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false, "O-O", SAN_OK, "e8h8", NULL},
    {"960 castle, king b1 rook c1", "1k6/8/8/8/8/8/8/1KR5 w K - 0 1", true, "O-O", SAN_OK, "b1c1", NULL},
    {"960 castle, king g1 stays", "4k3/8/8/8/8/8/8/6KR w K - 0 1", true, "O-O", SAN_OK, "g1h1", NULL},
    {"960 castle queen side", "1k6/8/8/8/8/8/8/RK6 w Q - 0 1", true, "O-O-O", SAN_OK, "b1a1", NULL},
    {"960 castle into the shielded square", "4k3/8/8/8/8/8/8/rR1K4 w Q - 0 1", true, "O-O-O", SAN_ILLEGAL, NULL,
     NULL},
    {"null move", TU_START_FEN, false, "--", SAN_OK, NULL, NULL},
    {"null move Z0", TU_START_FEN, false, "Z0", SAN_OK, NULL, NULL},
    {"null move in check", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1", false, "--", SAN_ILLEGAL, NULL, NULL},
    {"drop", TU_START_FEN, false, "N@f3", SAN_ILLEGAL, NULL, NULL},
    {"drop on an empty board square", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", false, "Q@d5", SAN_ILLEGAL, NULL, NULL},
    {"full disambiguation needed", "6k1/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", false, "Qh4e1", SAN_OK, "h4e1", NULL},
    {"file not enough", "6k1/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", false, "Qhe1", SAN_AMBIGUOUS, NULL, "e1"},
    {"rank not enough", "6k1/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", false, "Q4e1", SAN_AMBIGUOUS, NULL, "e1"},
    {"rank enough for h1", "6k1/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", false, "Q1e1", SAN_OK, "h1e1", NULL},
};

START_TEST(test_resolve)
{
    const resolve_case_t *c = &resolve_cases[_i];
    board_t b;
    san_syntax_t s;
    move_t m = {0, 0, 0, 0};
    char why[200] = "";
    tu_fen_at(TU_WHERE, &b, c->fen, c->c960);
    if (san_parse(c->san, strlen(c->san), &s) != 0) {
        /* refusing the text at once is as good as refusing the move */
        ck_assert_msg(c->status != SAN_OK, "%s: san_parse refused \"%s\"", c->what, c->san);
        return;
    }
    enum san_status st = san_resolve(&b, &s, &m, why, sizeof why);
    ck_assert_msg(st == c->status, "%s: san_resolve(\"%s\") in %s = %d, want %d (why: \"%s\")", c->what, c->san,
                  c->fen, (int)st, (int)c->status, why);
    if (st == SAN_OK) {
        char ms[32];
        if (c->uci) {
            move_t want = tu_move_at(TU_WHERE, &b, c->uci);
            ck_assert_msg(tu_move_eq(m, want), "%s: \"%s\" resolved to %s, want %s", c->what, c->san,
                          tu_move_str(m, ms), c->uci);
        } else {
            ck_assert_msg(m.flags & MOVE_NULL, "%s: \"%s\" resolved to %s, want a null move", c->what, c->san,
                          tu_move_str(m, ms));
        }
    } else {
        ck_assert_msg(why[0] != '\0', "%s: no reason given for refusing \"%s\"", c->what, c->san);
        ck_assert_msg(strlen(why) < sizeof why, "reason not terminated");
        if (c->why)
            ck_assert_msg(strstr(why, c->why) != NULL, "%s: reason \"%s\" does not mention %s", c->what, why,
                          c->why);
    }
}
END_TEST

/* The reason is cut to why_cap bytes and stays NUL-terminated. */
START_TEST(test_resolve_small_why)
{
    board_t b;
    san_syntax_t s;
    move_t m;
    char why[12];
    memset(why, 'X', sizeof why);
    TU_FEN(&b, KNIGHTS_B1_F1);
    ck_assert_int_eq(san_parse("Nd2", 3, &s), 0);
    ck_assert_int_eq(san_resolve(&b, &s, &m, why, 6), SAN_AMBIGUOUS);
    ck_assert_msg(memchr(why, '\0', 6) != NULL, "reason not terminated within why_cap");
    ck_assert_int_eq(why[6], 'X');
}
END_TEST

/* ---- san_format ----------------------------------------------------------- */

typedef struct {
    const char *fen;
    bool c960;
    const char *uci, *san;
} format_case_t;

static const format_case_t format_cases[] = {
    {TU_START_FEN, false, "e2e4", "e4"},
    {TU_START_FEN, false, "g1f3", "Nf3"},
    {TU_START_FEN, false, "b1c3", "Nc3"},
    {KNIGHTS_B1_F1, false, "b1d2", "Nbd2"},
    {KNIGHTS_B1_F1, false, "f1d2", "Nfd2"},
    {KNIGHTS_B1_F1, false, "f1g3", "Ng3"},
    {KNIGHTS_B1_F1, false, "e1d2", "Kd2"},
    {"4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", false, "a1a3", "R1a3"},
    {"4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", false, "a5a3", "R5a3"},
    {"4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", false, "a5a7", "Ra7"},
    {"4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", false, "a1b1", "Rb1"},
    {"4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", false, "a1d1", "Rad1"},
    {"4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", false, "f1d1", "Rfd1"},
    {"6k1/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", false, "h4e1", "Qh4e1"},
    {"6k1/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", false, "e4e1", "Qee1"},
    {"6k1/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", false, "h1e1", "Q1e1"},
    {"7k/8/3N4/8/8/8/3N1N2/4K3 w - - 0 1", false, "d2e4", "Nd2e4"},
    {"7k/8/3N4/8/8/8/3N1N2/4K3 w - - 0 1", false, "f2e4", "Nfe4"},
    {"7k/8/3N4/8/8/8/3N1N2/4K3 w - - 0 1", false, "d6e4", "N6e4"},
    {"4k3/8/8/8/4r3/8/2N1N3/4K3 w - - 0 1", false, "c2d4", "Nd4"}, /* the other knight is pinned */
    {"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", false, "e4d5", "exd5"},
    {"rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", false, "e5d6", "exd6"},
    {"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", false, "h5f7", "Qxf7#"},
    {"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", false, "c4f7", "Bxf7+"},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, "e1h1", "O-O"},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, "e1a1", "O-O-O"},
    {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false, "e8h8", "O-O"},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, "a1a8", "Rxa8+"},
    {"5k2/8/8/8/8/8/8/4K2R w K - 0 1", false, "e1h1", "O-O+"},
    {"3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", false, "e1a1", "O-O-O+"},
    {"1k6/8/8/8/8/8/8/1KR5 w K - 0 1", true, "b1c1", "O-O"},
    {"1k6/8/8/8/8/8/8/RK6 w Q - 0 1", true, "b1a1", "O-O-O"},
    {"4k3/8/8/8/8/8/8/6KR w K - 0 1", true, "g1h1", "O-O"},
    {"8/4P3/8/8/8/8/k7/4K3 w - - 0 1", false, "e7e8q", "e8=Q"},
    {"8/4P3/8/8/8/8/k7/4K3 w - - 0 1", false, "e7e8n", "e8=N"},
    {"3r2k1/4P3/8/8/8/8/8/K7 w - - 0 1", false, "e7d8q", "exd8=Q+"},
    {"3r2k1/4P3/8/8/8/8/8/K7 w - - 0 1", false, "e7d8n", "exd8=N"},
    {"3r2k1/4P3/8/8/8/8/8/K7 w - - 0 1", false, "e7e8r", "e8=R+"},
    {"4k3/8/8/8/8/8/p7/4K3 b - - 0 1", false, "a2a1q", "a1=Q+"},
    {"4k3/8/8/8/8/8/p7/4K3 b - - 0 1", false, "e8d7", "Kd7"},
    {"k7/8/1K6/8/8/8/8/7R w - - 0 1", false, "h1h8", "Rh8#"},
    {"4k3/8/8/8/8/8/5r2/4K3 w - - 0 1", false, "e1f2", "Kxf2"},
};

START_TEST(test_format)
{
    const format_case_t *c = &format_cases[_i];
    board_t b;
    char out[16];
    memset(out, 'X', sizeof out);
    tu_fen_at(TU_WHERE, &b, c->fen, c->c960);
    move_t m = tu_move_at(TU_WHERE, &b, c->uci);
    size_t n = san_format(&b, m, out);
    ck_assert_msg(strcmp(out, c->san) == 0, "san_format(%s) in %s = \"%s\", want \"%s\"", c->uci, c->fen, out,
                  c->san);
    ck_assert_msg(n == strlen(c->san), "san_format returned %zu for \"%s\"", n, c->san);
}
END_TEST

/* Every legal move along random games: formatted, read back, the same move;
 * and the text never needs more than the 8 bytes san.h promises. */
START_TEST(test_format_parse_round_trip)
{
    static const tu_start_t starts[] = {
        TU_WALK_STARTS,
        {"4k3/1P6/8/8/8/8/1p6/4K3 w - - 0 1", false},
        {"1k6/8/8/8/3QQ3/3QQ3/8/6K1 w - - 0 1", false},
        {"r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1", true},
        {"4r3/3k4/8/8/8/8/6PP/qR1K1R2 w KQ - 0 1", true},
    };
    uint64_t seed = 2024;
    int checked = 0;
    for (size_t st = 0; st < sizeof starts / sizeof *starts; st++) {
        for (int walk = 0; walk < 12; walk++) {
            board_t b, next;
            tu_fen_at(TU_WHERE, &b, starts[st].fen, starts[st].c960);
            for (int ply = 0; ply < 80; ply++) {
                move_t list[MAX_MOVES];
                int n = movegen_legal(&b, list);
                if (n == 0)
                    break;
                for (int i = 0; i < n; i++) {
                    char text[32], ms[32], ms2[32], fen[128], why[160] = "";
                    san_syntax_t s;
                    move_t back = {0, 0, 0, 0};
                    memset(text, 0, sizeof text);
                    size_t len = san_format(&b, list[i], text);
                    ck_assert_msg(len == strlen(text) && len <= 7, "san_format(%s) gave \"%s\" (%zu) in %s",
                                  tu_move_str(list[i], ms), text, len, tu_fen_out(&b, fen));
                    ck_assert_msg(san_parse(text, len, &s) == 0, "san_parse refused its own \"%s\" (%s in %s)", text,
                                  tu_move_str(list[i], ms), tu_fen_out(&b, fen));
                    enum san_status rs = san_resolve(&b, &s, &back, why, sizeof why);
                    ck_assert_msg(rs == SAN_OK && tu_move_eq(back, list[i]),
                                  "\"%s\" (%s) came back as status %d move %s in %s: %s", text,
                                  tu_move_str(list[i], ms), (int)rs, tu_move_str(back, ms2),
                                  tu_fen_out(&b, fen), why);
                    /* + and # agree with the position after the move */
                    board_make_move(&b, list[i], &next);
                    char last = text[len - 1];
                    bool check = board_in_check(&next), mate = check && !movegen_has_legal(&next);
                    ck_assert_msg((last == '#') == mate && (last == '+') == (check && !mate),
                                  "\"%s\": check %d mate %d after %s in %s", text, check, mate,
                                  tu_move_str(list[i], ms), tu_fen_out(&b, fen));
                    /* the same text from a caller that knows the position after */
                    char known[32];
                    size_t klen = san_format_known(&b, list[i], check, !mate, known);
                    ck_assert_msg(klen == len && strcmp(known, text) == 0, "san_format_known gave \"%s\", not \"%s\"",
                                  known, text);
                    checked++;
                }
                board_make_move(&b, list[tu_rand(&seed) % (uint64_t)n], &next);
                b = next;
            }
        }
    }
    ck_assert_msg(checked > 10000, "only %d moves checked", checked);
}
END_TEST

/* san_quick() answers only as san_parse() and san_resolve() would: along
 * random games, every text of the usual shapes (a square after nothing, a
 * piece letter, a piece or file and x, a piece and the file or rank it
 * comes from; with and without + or #, and some that are no move) and
 * every castling text either gets -1 or the very move the two calls find.
 * It must also take most of the legal moves' own SAN, or it is no fast
 * path. */
START_TEST(test_quick_agrees)
{
    static const tu_start_t starts[] = {
        TU_WALK_STARTS,
        {"4k3/1P6/8/8/8/8/1p6/4K3 w - - 0 1", false},
        {"1k6/8/8/8/3QQ3/3QQ3/8/6K1 w - - 0 1", false},
        {"4k3/8/8/2pP4/8/8/8/4K2R w K c6 0 1", false},       /* en passant on c6 */
        {"4k3/4r3/8/3pP3/8/8/4K3/8 w - d6 0 1", false},       /* ... along a pin */
        {"3qk3/8/8/8/8/8/3B4/3K4 w - - 0 1", false},          /* a pinned bishop */
        {"r3k2r/1n4n1/8/8/8/8/1N4N1/R3K2R w KQkq - 0 1", false}, /* castling, knights two files apart */
        {"1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", true},   /* castling in Chess960 */
        {"4k3/8/8/8/8/1R6/8/1R2K3 w - - 0 1", false},         /* rooks on one file */
    };
    static const char *const heads[] = {"", "N", "B", "R", "Q", "K", "Nx", "Bx", "Rx", "Qx", "Kx",
                                        "ax", "bx", "cx", "dx", "ex", "fx", "gx", "hx", "S", "x", "P",
                                        "Nb", "Ng", "N1", "N7", "Nbx", "N1x", "Ra", "Rb", "R1", "R3", "Rbx",
                                        "R3x", "Qd", "Q4x", "Bc", "Kd", "Ni", "N9", "Nb-", "bd", "b1x"};
    static const char *const tails[] = {"", "+", "#"};
    /* The first six are the shapes san_quick() must take when legal. */
    static const char *const castles[] = {"O-O", "O-O-O", "O-O+", "O-O-O#", "O-O#", "O-O-O+",
                                          "O-", "O-O-", "O-O-O-O", "OO", "O-O++", "0-0"};
    uint64_t seed = 4242;
    long quick = 0, legal = 0, castled = 0;
    for (size_t st = 0; st < sizeof starts / sizeof *starts; st++) {
        for (int walk = 0; walk < 4; walk++) {
            board_t b, next;
            tu_fen_at(TU_WHERE, &b, starts[st].fen, starts[st].c960);
            for (int ply = 0; ply < 60; ply++) {
                move_t list[MAX_MOVES];
                int n = movegen_legal(&b, list);
                if (n == 0)
                    break;
                char fen[128], ms[32], ms2[32];
                for (size_t h = 0; h < sizeof heads / sizeof *heads; h++) {
                    for (int sq = 0; sq < 64; sq++) {
                        for (size_t t = 0; t < sizeof tails / sizeof *tails; t++) {
                            char text[16];
                            int len = snprintf(text, sizeof text, "%s%c%c%s", heads[h], 'a' + sq % 8,
                                               '1' + sq / 8, tails[t]);
                            move_t got = {0, 0, 0, 0}, want = {0, 0, 0, 0};
                            if (san_quick(&b, text, (size_t)len, &got) != 0)
                                continue;
                            san_syntax_t s;
                            CHECK(san_parse(text, (size_t)len, &s) == 0 && san_resolve(&b, &s, &want, NULL, 0) == SAN_OK &&
                                      tu_move_eq(got, want),
                                  "san_quick read \"%s\" as %s, the full path as %s, in %s", text,
                                  tu_move_str(got, ms), tu_move_str(want, ms2), tu_fen_out(&b, fen));
                            /* and from the legal moves alone: the one move of the named
                             * kind to the square (a pawn from the file written, or its own;
                             * a piece from the file or rank written, if one is) */
                            int kind = s.piece == EMPTY ? PAWN : s.piece, matches = 0;
                            for (int i = 0; i < n; i++) {
                                move_t m = list[i];
                                if (m.to != s.to || m.promo != EMPTY || (m.flags & MOVE_CASTLE) ||
                                    PIECE_TYPE(b.sq[m.from]) != kind)
                                    continue;
                                if (kind == PAWN && SQ_FILE(m.from) != (s.from_file >= 0 ? s.from_file : SQ_FILE(s.to)))
                                    continue;
                                if (kind != PAWN && ((s.from_file >= 0 && SQ_FILE(m.from) != s.from_file) ||
                                                     (s.from_rank >= 0 && SQ_RANK(m.from) != s.from_rank)))
                                    continue;
                                matches++;
                                want = m;
                            }
                            CHECK(matches == 1 && tu_move_eq(got, want), "san_quick read \"%s\" as %s; %d legal moves match, in %s",
                                  text, tu_move_str(got, ms), matches, tu_fen_out(&b, fen));
                        }
                    }
                }
                for (size_t c = 0; c < sizeof castles / sizeof *castles; c++) {
                    const char *text = castles[c];
                    size_t len = strlen(text);
                    move_t got = {0, 0, 0, 0}, want = {0, 0, 0, 0};
                    san_syntax_t s;
                    bool full = san_parse(text, len, &s) == 0 && san_resolve(&b, &s, &want, NULL, 0) == SAN_OK;
                    if (san_quick(&b, text, len, &got) == 0) {
                        CHECK(full && tu_move_eq(got, want) && (got.flags & MOVE_CASTLE) && text[1] == '-',
                              "san_quick read \"%s\" as %s, the full path as %s, in %s", text, tu_move_str(got, ms),
                              tu_move_str(want, ms2), tu_fen_out(&b, fen));
                        castled++;
                    } else {
                        CHECK(!full || c >= 6, "san_quick refused \"%s\", which the full path reads as %s, in %s",
                              text, tu_move_str(want, ms2), tu_fen_out(&b, fen));
                    }
                }
                for (int i = 0; i < n; i++) {
                    char text[16];
                    size_t len = san_format(&b, list[i], text);
                    move_t got;
                    legal++;
                    if (san_quick(&b, text, len, &got) == 0) {
                        quick++;
                        CHECK(tu_move_eq(got, list[i]), "san_quick read \"%s\" as %s, not %s, in %s", text,
                              tu_move_str(got, ms), tu_move_str(list[i], ms2), tu_fen_out(&b, fen));
                    }
                }
                board_make_move(&b, list[tu_rand(&seed) % (uint64_t)n], &next);
                b = next;
            }
        }
    }
    ck_assert_msg(quick * 10 > legal * 7, "san_quick took %ld of %ld legal moves' SAN", quick, legal);
    ck_assert_msg(castled > 20, "san_quick castled only %ld times", castled);
}
END_TEST

/* san_parse_usual() reads a shape as san_parse_full() reads it, or leaves
 * it to it: every head, square and tail of the usual shapes and beyond. */
START_TEST(test_parse_usual_agrees)
{
    static const char *const heads[] = {"", "N", "B", "R", "Q", "K", "P", "S", "x", "Nx", "Kx", "ax", "hx", "ix",
                                        "Nb", "N1", "Nh8", "Nbx", "N8x", "Nb1", "Nb-", "N-", "bd", "b1", "b1x",
                                        "e7", "O", "O-", "O-O", "=", "Rax", "R9", "Ri", "NN", "xx", "Nbxx"};
    static const char *const squares[] = {"a1", "h8", "e4", "d", "4", "i1", "a9", "", "=Q", "8=Q", "8Q"};
    static const char *const tails[] = {"", "+", "#", "++", "!", "?", "+!", "x", "e.p."};
    long usual = 0;
    for (size_t h = 0; h < sizeof heads / sizeof *heads; h++) {
        for (size_t q = 0; q < sizeof squares / sizeof *squares; q++) {
            for (size_t t = 0; t < sizeof tails / sizeof *tails; t++) {
                char text[32];
                int len = snprintf(text, sizeof text, "%s%s%s", heads[h], squares[q], tails[t]);
                if (len == 0)
                    continue;
                san_syntax_t quick, full;
                memset(&quick, 0x55, sizeof quick);
                memset(&full, 0x55, sizeof full);
                if (!san_parse_usual(text, (size_t)len, &quick))
                    continue;
                usual++;
                ck_assert_msg(san_parse_full(text, (size_t)len, &full) == 0, "\"%s\": usual, but no move in full", text);
                ck_assert_msg(memcmp(&quick, &full, sizeof quick) == 0,
                              "\"%s\": usual reads %d %d %d %d %d %d %d, full %d %d %d %d %d %d %d", text, quick.kind,
                              quick.piece, quick.from_file, quick.from_rank, quick.to, quick.promo, quick.capture,
                              full.kind, full.piece, full.from_file, full.from_rank, full.to, full.promo, full.capture);
            }
        }
    }
    ck_assert_msg(usual > 100, "san_parse_usual read only %ld texts", usual);
    /* No text: nothing of it read (the sanitizers' build sees a read past
     * the end of this block). */
    char *block = malloc(1);
    ck_assert(block != NULL);
    board_t b;
    move_t m;
    tu_fen_at(TU_WHERE, &b, TU_START_FEN, false);
    ck_assert_int_eq(san_quick(&b, block + 1, 0, &m), -1);
    free(block);
}
END_TEST

static Suite *san_suite(void)
{
    Suite *s = suite_create("san");
    TCase *tc = tcase_create("test_parse_accepts");
    tcase_add_loop_test(tc, test_parse_accepts, 0, (int)(sizeof parse_ok / sizeof *parse_ok));
    suite_add_tcase(s, tc);
    tc = tcase_create("test_parse_rejects");
    tcase_add_loop_test(tc, test_parse_rejects, 0, (int)(sizeof parse_bad / sizeof *parse_bad));
    suite_add_tcase(s, tc);
    TU_CASE(s, test_parse_respects_len, 10);
    tc = tcase_create("test_resolve");
    tcase_add_loop_test(tc, test_resolve, 0, (int)(sizeof resolve_cases / sizeof *resolve_cases));
    suite_add_tcase(s, tc);
    TU_CASE(s, test_resolve_small_why, 10);
    tc = tcase_create("test_format");
    tcase_add_loop_test(tc, test_format, 0, (int)(sizeof format_cases / sizeof *format_cases));
    suite_add_tcase(s, tc);
    TU_CASE(s, test_format_parse_round_trip, 300);
    TU_CASE(s, test_quick_agrees, 300);
    TU_CASE(s, test_parse_usual_agrees, 30);
    return s;
}

int main(void)
{
    return tu_run(san_suite());
}
