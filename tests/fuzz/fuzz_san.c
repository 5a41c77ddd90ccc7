/* fuzz_san: the SAN decoder on random legal positions.
 *
 * Input: byte 0 says how the position is made: bits 0-5 the number of
 * plies to play, bit 6 a Chess960 start (bytes 1-2 its number, 0..959),
 * bit 7 null moves allowed.  Then one byte per ply picks a legal move
 * (its index modulo the count).  The rest is move text, split at blanks;
 * each word goes through san_quick, san_parse and san_resolve in the
 * position reached, and a resolved move is played.
 *
 * Invariants (san.h): a resolved move is in movegen_legal's list (or is a
 * null move, allowed and not in check); san_quick answers only with that
 * move; san_format of it reads back as the same move; a refusal says why
 * in a terminated sentence; san_parse_usual reads a word as
 * san_parse_full does, or leaves it; san_scan stays in its text and always
 * advances; every legal move of the positions reached round-trips through
 * san_format (the first three positions: it is slow). */
#include "fuzz_board.h"

/* Chess960 start position number n (0..959), Scharnagl's numbering. */
static void start960(board_t *b, unsigned n)
{
    static const char knights[10][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 }, { 1, 2 },
                                         { 1, 3 }, { 1, 4 }, { 2, 3 }, { 2, 4 }, { 3, 4 } };
    char rank[9] = "........";
    rank[1 + 2 * (n % 4)] = 'b';
    n /= 4;
    rank[2 * (n % 4)] = 'b';
    n /= 4;
    int q = (int)(n % 6);
    n /= 6;
    for (int f = 0, k = 0; f < 8; f++)
        if (rank[f] == '.' && k++ == q) {
            rank[f] = 'q';
            break;
        }
    int free_files[5], nf = 0;
    for (int f = 0; f < 8; f++)
        if (rank[f] == '.')
            free_files[nf++] = f;
    rank[free_files[(int)knights[n][0]]] = 'n';
    rank[free_files[(int)knights[n][1]]] = 'n';
    const char rkr[] = "rkr";
    for (int f = 0, k = 0; f < 8; f++)
        if (rank[f] == '.')
            rank[f] = rkr[k++];
    char upper[9], fen[100];
    for (int f = 0; f < 9; f++)
        upper[f] = rank[f] >= 'a' ? (char)(rank[f] - 32) : rank[f];
    snprintf(fen, sizeof fen, "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w KQkq - 0 1", rank, upper);
    board_error_t why;
    FUZZ_CHECK(board_from_fen(b, fen, true, &why) == 0, "Chess960 start \"%s\" refused: %s", fen, why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 4096)
        return 0;
    size_t pos = 1;
    unsigned plies = data[0] & 63;
    bool c960 = data[0] & 64, nulls = data[0] & 128;
    board_t b;
    if (c960 && size >= 3) {
        start960(&b, ((unsigned)data[1] << 8 | data[2]) % 960);
        pos = 3;
    } else {
        board_start(&b);
    }
    fuzz_check_board(&b);
    move_t moves[MAX_MOVES];
    for (unsigned i = 0; i < plies && pos < size; i++, pos++) {
        int n = movegen_legal(&b, moves);
        if (n == 0)
            break;
        board_t next;
        board_make_move(&b, moves[data[pos] % n], &next);
        b = next;
    }
    fuzz_check_board(&b);
    int checked = 0;
    int n = checked++ < 3 ? fuzz_check_moves(&b, moves) : movegen_legal(&b, moves);

    /* The rest: words of move text, each in a buffer of its own size. */
    const char *text = (const char *)data + pos;
    size_t len = size - pos, i = 0;
    while (i < len) {
        while (i < len && (text[i] == ' ' || text[i] == '\n'))
            i++;
        size_t start = i;
        while (i < len && text[i] != ' ' && text[i] != '\n')
            i++;
        if (i == start)
            break;
        size_t wl = i - start;
        char *word = fuzz_dup(text + start, wl);

        size_t sp = 0, st, sn, steps = 0;
        enum san_scan k;
        while ((k = san_scan(word, wl, &sp, &st, &sn)) != SCAN_NONE) {
            FUZZ_CHECK(sn > 0 && st + sn <= wl && sp <= wl && sp >= st + sn, "san_scan: %zu+%zu, pos %zu of %zu", st,
                       sn, sp, wl);
            FUZZ_CHECK(++steps <= wl, "san_scan does not advance");
        }

        /* san_quick answers only with the move the two calls find. */
        move_t quick;
        bool quick_ok = san_quick(&b, word, wl, &quick) == 0;

        san_syntax_t s, full;
        FUZZ_CHECK(!quick_ok || san_parse(word, wl, &s) == 0, "san_quick read \"%.*s\", san_parse did not", (int)wl,
                   word);
        /* The inline reader of the usual shapes reads them as the full one. */
        if (san_parse_usual(word, wl, &s))
            FUZZ_CHECK(san_parse_full(word, wl, &full) == 0 && memcmp(&s, &full, sizeof s) == 0,
                       "san_parse_usual and san_parse_full read \"%.*s\" differently", (int)wl, word);
        if (san_parse(word, wl, &s) == 0) {
            FUZZ_CHECK(s.kind <= SAN_DROP, "kind %d", (int)s.kind);
            if (s.kind == SAN_MOVE || s.kind == SAN_DROP)
                FUZZ_CHECK(!SQ_OFFBOARD(s.to), "destination %u off the board", (unsigned)s.to);
            FUZZ_CHECK(s.from_file >= -1 && s.from_file < 8 && s.from_rank >= -1 && s.from_rank < 8 &&
                           s.promo <= KING,
                       "syntax out of range");
            move_t m;
            char why[160];
            memset(why, 0x7f, sizeof why);
            enum san_status st2 = san_resolve(&b, &s, &m, why, sizeof why);
            FUZZ_CHECK(!quick_ok || (st2 == SAN_OK && m.from == quick.from && m.to == quick.to &&
                                     m.promo == quick.promo && m.flags == quick.flags),
                       "san_quick and san_resolve read \"%.*s\" differently", (int)wl, word);
            if (st2 == SAN_OK && (m.flags & MOVE_NULL)) {
                FUZZ_CHECK(s.kind == SAN_NULLMOVE && !b.in_check, "a null move from \"%.*s\"", (int)wl, word);
                if (nulls) {
                    board_t next;
                    board_make_null(&b, &next);
                    b = next;
                    fuzz_check_board(&b);
                    n = movegen_legal(&b, moves);
                }
            } else if (st2 == SAN_OK) {
                FUZZ_CHECK(s.kind != SAN_DROP && s.kind != SAN_NULLMOVE, "\"%.*s\" resolved", (int)wl, word);
                FUZZ_CHECK(fuzz_move_in(moves, n, m), "\"%.*s\" resolves to a move not in the legal list", (int)wl,
                           word);
                fuzz_check_san_roundtrip(&b, m);
                board_t next;
                board_make_move(&b, m, &next);
                b = next;
                fuzz_check_board(&b);
                n = checked++ < 3 ? fuzz_check_moves(&b, moves) : movegen_legal(&b, moves);
            } else {
                FUZZ_CHECK(st2 == SAN_ILLEGAL || st2 == SAN_AMBIGUOUS, "status %d", (int)st2);
                FUZZ_CHECK(memchr(why, 0, sizeof why) && why[0] && why[0] != 0x7f, "no reason for refusing \"%.*s\"", (int)wl, word);
            }
        }
        free(word);
    }
    return 0;
}
