/* fuzz_fen: the FEN parser.
 *
 * The input, cut at its first NUL, is read as a FEN for standard chess
 * and for Chess960.  Invariants (board.h): a refusal says why; an accepted
 * position is consistent (counts, kings, castling rooks, check, en passant,
 * key); board_to_fen fits in 100 bytes and reads back as the same position,
 * and writing that again gives the same text; every legal move leads to a
 * consistent position and its SAN reads back as the move. */
#include "fuzz_board.h"

static void check_fen(const char *fen, bool chess960)
{
    board_t b;
    board_error_t why = NULL;
    if (board_from_fen(&b, fen, chess960, &why) < 0) {
        FUZZ_CHECK(why && *why, "refused without a reason");
        return;
    }
    fuzz_check_board(&b);
    FUZZ_CHECK(b.chess960 == chess960, "chess960 flag lost");
    char *out = malloc(100); /* what board.h says is enough */
    if (!out)
        abort();
    size_t n = board_to_fen(&b, out, 100);
    FUZZ_CHECK(n < 100 && strlen(out) == n, "board_to_fen needs %zu bytes", n);
    board_t b2;
    FUZZ_CHECK(board_from_fen(&b2, out, chess960, &why) == 0, "board_to_fen's \"%s\" is refused: %s", out, why);
    fuzz_check_board(&b2);
    FUZZ_CHECK(memcmp(b.sq, b2.sq, sizeof b.sq) == 0 && b.stm == b2.stm && b.castle == b2.castle &&
                   memcmp(b.castle_rook, b2.castle_rook, sizeof b.castle_rook) == 0 && b.ep_legal == b2.ep_legal &&
                   b.halfmove == b2.halfmove && b.fullmove == b2.fullmove && b.key == b2.key,
               "\"%s\" reads back as another position", out);
    char again[128];
    board_to_fen(&b2, again, sizeof again);
    FUZZ_CHECK(strcmp(out, again) == 0, "\"%s\" is written back as \"%s\"", out, again);
    free(out);
    move_t moves[MAX_MOVES];
    int k = fuzz_check_moves(&b, moves);
    FUZZ_CHECK(k > 0 || b.in_check || !movegen_has_legal(&b), "unreachable");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *fen = malloc(size + 1);
    if (!fen)
        abort();
    memcpy(fen, data, size);
    fen[size] = '\0';
    check_fen(fen, false);
    check_fen(fen, true);
    free(fen);
    return 0;
}
