/* fen-at: the position after a given ply of a game, as a FEN, for
 * tests/golden_compare.py, which asks `pgn-arbiter --fen` whether a dead
 * position that the replay found earlier than the reference really is one.
 *
 *   fen-at FILE GAME PLY
 *
 * Prints "FEN<TAB>PLIES": the position after PLY plies (0: the starting
 * position) of game GAME (counted from 1) of FILE, and the number of mainline
 * plies the game has, so that the caller can check that this is the game it
 * means.  A replay of its own, simpler than the reader's: mainline moves in
 * plain SAN only (variations skipped).  Anything it cannot read exits 1:
 * then nothing is proven, which the caller counts as a failure. */

#include "board.h"
#include "lex.h"
#include "san.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what)
{
    fprintf(stderr, "fen-at: %s\n", what);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fail("usage: fen-at FILE GAME PLY");
        return 2;
    }
    unsigned long want_game = strtoul(argv[2], NULL, 10);
    unsigned long want_ply = strtoul(argv[3], NULL, 10);
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        fprintf(stderr, "fen-at: %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + len, 1, cap - len, f)) > 0;) {
        len += got;
        if (len == cap) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger)
                free(buf);
            buf = bigger;
        }
    }
    fclose(f);
    lexer_t *lx = lex_new();
    if (!buf || !lx)
        return fail("out of memory");
    lex_feed(lx, buf, len);

    /* game: the game being read (0 before the first); in_moves: its
     * movetext has begun, so that a tag starts another game; ended: its
     * termination marker was read, so that anything starts another. */
    unsigned long game = 0, ply = 0;
    bool in_moves = false, ended = false, stuck = false, have = false, chess960 = false;
    int depth = 0;
    char fen_tag[256] = "", out[128] = "";
    board_t b;
    lex_token_t t;
    for (;;) {
        lex_kind_t k = lex_next(lx, &t);
        if (k == TOK_MORE) {
            lex_finish(lx);
            continue;
        }
        if (k == TOK_EOF)
            break;
        if (game == 0 || ended || (k == TOK_TAG && in_moves)) {
            if (game == want_game)
                break;
            game++;
            ply = 0, depth = 0, in_moves = ended = stuck = chess960 = false;
            fen_tag[0] = '\0';
        }
        if (k == TOK_VAR_OPEN)
            depth++;
        else if (k == TOK_VAR_CLOSE && depth > 0)
            depth--;
        else if (k == TOK_RESULT && depth == 0)
            ended = true;
        if (game != want_game) {
            in_moves = in_moves || k != TOK_TAG;
            continue;
        }
        if (k == TOK_TAG) {
            size_t n = t.value_len < sizeof fen_tag - 1 ? t.value_len : sizeof fen_tag - 1;
            if (t.len == 3 && memcmp(t.text, "FEN", 3) == 0) {
                memcpy(fen_tag, t.value, n);
                fen_tag[n] = '\0';
            } else if (t.len == 7 && memcmp(t.text, "Variant", 7) == 0) {
                chess960 = strstr(t.value, "960") || strstr(t.value, "andom");
            }
            continue;
        }
        if (!in_moves) {
            /* The movetext begins: set up the board. */
            in_moves = true;
            board_error_t why;
            if (fen_tag[0] ? board_from_fen(&b, fen_tag, chess960, &why) < 0 : (board_start(&b), 0))
                return fail("unreadable FEN tag");
            if (want_ply == 0) {
                board_to_fen(&b, out, sizeof out);
                have = true;
            }
        }
        if (k == TOK_SYMBOL && depth == 0 && !stuck) {
            san_syntax_t s;
            move_t m;
            board_undo_t u;
            if (san_parse(t.text, t.len, &s) < 0 || san_resolve(&b, &s, &m, NULL, 0) != SAN_OK) {
                /* Nothing after a move it cannot read counts. */
                stuck = true;
                continue;
            }
            board_play(&b, m, &u);
            if (++ply == want_ply) {
                board_to_fen(&b, out, sizeof out);
                have = true;
            }
        }
    }
    lex_free(lx);
    free(buf);
    if (game != want_game)
        return fail("no such game");
    if (!have)
        return fail("the game is shorter than that");
    printf("%s\t%lu\n", out, ply);
    return 0;
}
