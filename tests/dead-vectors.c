/* dead-vectors.c: runs the unwinnability analysis (dead.h) over position
 * files and prints agreement, coverage and timing.  Not part of make check;
 * used by hand and by the benchmark.
 *
 *   dead-vectors [-v] [-q | -f] [-n BUDGET] [--vector FILE] [--timeouts FILE]
 *                [--positions FILE] [--pgn FILE] ...
 *
 * --vector    D3-Chess test vector: "LL FEN" per line, LL one of WB W- -B --
 *             (who can still mate); '#' lines are comments.  Both sides.
 * --timeouts  "FEN GAMEID" per line: games lost on time whose winner could
 *             not mate; the side to move ran out of time, so the other side
 *             must come out unwinnable.
 * --positions "FEN [ANYTHING]" per line, unlabelled: both sides, timing and
 *             answers only.
 * --pgn       PGN games, replayed the way the arbiter would: at the start and
 *             after every capture, promotion or pawn move, dead_quick() for
 *             both sides, then the analysis for a side quick left open; a
 *             game stops at its first dead position (FIDE 5.2.2).
 * Files ending in .zst are read through `zstd -dc`.
 *
 * Times of dead_quick() are wall-clock; those of the analysis are CPU time
 * of the thread, so that other work on the machine does not inflate them.
 * With both sides of each position (--vector, --positions), the positions
 * over 1, 1.5 and 2 s are counted in turn (the two sides' sum, as on one
 * thread) and at once (the slower side, as --fen runs them on two).
 * -q runs the quick mode, dead_probe(), and -f the fortress proof alone,
 * dead_fortress_proof(), instead of the full analysis,
 * dead_can_win(); -n sets the node budget of dead_search_new() (default:
 * dead.h's, the one --fen uses; the replay uses a few thousand).  Every
 * winnable answer's line is replayed with movegen_legal() and
 * board_make_move() and must end in checkmate of the loser.  -v lists every
 * disagreement, undetermined position and call over 0.1 s (-v -v: every
 * call of --pgn).  Exit status 1 if an answer disagreed with a label, the
 * quick filter contradicted the analysis or a line failed to replay; 2 on
 * usage or file errors. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "dead.h"
#include "movegen.h"
#include "san.h"

#define LINE_CAP 1024

static bool probe_mode;    /* -q: dead_probe() instead of dead_can_win() */
static bool fortress_mode; /* -f: dead_fortress_proof() instead */

static enum dead_answer analyse(dead_search_t *s, const board_t *b, int color, move_t *line, int *len)
{
    if (fortress_mode)
        return dead_fortress_proof(s, b, color, line, LINE_CAP, len);
    if (probe_mode)
        return dead_probe(s, b, color);
    return dead_can_win(s, b, color, line, LINE_CAP, len);
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* CPU time of this thread: the analysis timings stay meaningful on a
 * machine shared with other work (the call itself costs a fraction of a
 * microsecond, included in each figure). */
static double cpu_us(void)
{
#ifdef CLOCK_THREAD_CPUTIME_ID
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
#endif
    return now_us();
}

static FILE *open_input(const char *path, bool *piped)
{
    size_t n = strlen(path);
    *piped = n > 4 && strcmp(path + n - 4, ".zst") == 0;
    if (!*piped)
        return fopen(path, "r");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "zstd -dc '%s'", path);
    return popen(cmd, "r");
}

/* Replays a helpmate line; returns NULL if it is legal and ends in mate of
 * !winner, else a reason. */
static const char *replay(const board_t *start, int winner, const move_t *line, int len)
{
    board_t b = *start, next;
    move_t moves[MAX_MOVES];
    if (len > LINE_CAP)
        return "line longer than the buffer";
    for (int i = 0; i < len; i++) {
        int n = movegen_legal(&b, moves), k;
        for (k = 0; k < n; k++)
            if (moves[k].from == line[i].from && moves[k].to == line[i].to &&
                moves[k].promo == line[i].promo && moves[k].flags == line[i].flags)
                break;
        if (k == n)
            return "illegal move in the line";
        board_make_move(&b, line[i], &next);
        b = next;
    }
    if (movegen_has_legal(&b) || !board_in_check(&b))
        return "the line does not end in checkmate";
    if (b.stm == winner)
        return "the line mates the wrong side";
    return NULL;
}

typedef struct totals {
    long positions, sides, decided_sides, decided_positions, agree, disagree, undetermined;
    long quick_hits, quick_wrong, bad_lines, stage[9];
    double us_full, us_quick, us_max;
    unsigned long nodes;
    /* positions whose two sides took over 1, 1.5 and 2 s: in turn (the sum
     * of their times, one thread) and at once (the slower side, as --fen
     * runs them on two threads), and the slowest position each way */
    long over_turn[3], over_once[3];
    double pos_max_turn, pos_max_once;
} totals_t;

static const double pos_over_us[3] = {1e6, 1.5e6, 2e6};

/* Counts a position whose sides took us[WHITE] and us[BLACK]. */
static void count_position(totals_t *t, const double us[2], bool verbose, const char *text)
{
    double turn = us[WHITE] + us[BLACK], once = us[WHITE] > us[BLACK] ? us[WHITE] : us[BLACK];
    for (int i = 0; i < 3; i++) {
        t->over_turn[i] += turn > pos_over_us[i];
        t->over_once[i] += once > pos_over_us[i];
    }
    if (turn > t->pos_max_turn)
        t->pos_max_turn = turn;
    if (once > t->pos_max_once)
        t->pos_max_once = once;
    if (verbose && turn > pos_over_us[0])
        printf("slow position: %.0f us in turn, %.0f us at once: %s\n", turn, once, text);
}

/* Analyses one side; expect: 1 winnable, 0 unwinnable, -1 unknown. */
static enum dead_answer one_side(dead_search_t *s, const board_t *b, int color, int expect,
                                 totals_t *t, bool verbose, const char *text, double *us)
{
    static move_t line[LINE_CAP];
    int len = 0;
    double t0 = now_us();
    enum dead_answer q = dead_quick(b, color);
    double t1 = now_us(), c1 = cpu_us();
    enum dead_answer a = analyse(s, b, color, line, &len);
    double t2 = t1 + (cpu_us() - c1);
    dead_stats_t st;
    dead_last_stats(s, &st);
    t->sides++;
    t->us_quick += t1 - t0;
    t->us_full += t2 - t1;
    *us = t2 - t1;
    if (t2 - t1 > t->us_max)
        t->us_max = t2 - t1;
    t->nodes += st.nodes;
    t->stage[st.stage % 9]++;
    if (q != DEAD_UNDETERMINED) {
        t->quick_hits++;
        if (q != a && a != DEAD_UNDETERMINED) {
            t->quick_wrong++;
            fprintf(stderr, "quick filter disagrees with the full analysis (%s): %s\n",
                    color == WHITE ? "white" : "black", text);
        }
    }
    if (a == DEAD_WINNABLE) {
        const char *why = replay(b, color, line, len);
        if (why) {
            t->bad_lines++;
            fprintf(stderr, "bad line for %s: %s: %s\n", color == WHITE ? "white" : "black", why, text);
        }
    }
    if (verbose && t2 - t1 > 100000)
        printf("slow %s: %.0f us, %lu nodes, stage %d, answer %d: %s\n", color == WHITE ? "white" : "black",
               t2 - t1, st.nodes, st.stage, (int)a, text);
    if (a == DEAD_UNDETERMINED) {
        t->undetermined++;
        if (verbose)
            printf("undetermined %s (%lu nodes): %s\n", color == WHITE ? "white" : "black", st.nodes, text);
    } else {
        t->decided_sides++;
        if (expect >= 0) {
            if ((a == DEAD_WINNABLE) == (expect == 1)) {
                t->agree++;
            } else {
                t->disagree++;
                printf("DISAGREE %s: expected %s, got %s (stage %d): %s\n", color == WHITE ? "white" : "black",
                       expect ? "winnable" : "unwinnable", a == DEAD_WINNABLE ? "winnable" : "unwinnable",
                       st.stage, text);
            }
        }
    }
    return a;
}

static void report(const char *what, const totals_t *t)
{
    printf("%s: %ld positions, %ld sides analysed\n", what, t->positions, t->sides);
    printf("  decided: %ld/%ld sides (%.2f%%), %ld/%ld positions with both sides decided (%.2f%%)\n",
           t->decided_sides, t->sides, t->sides ? 100.0 * t->decided_sides / t->sides : 0.0,
           t->decided_positions, t->positions, t->positions ? 100.0 * t->decided_positions / t->positions : 0.0);
    printf("  labelled sides: %ld agree, %ld disagree; undetermined %ld; bad lines %ld\n", t->agree, t->disagree,
           t->undetermined, t->bad_lines);
    printf("  quick filter: decided %ld/%ld sides (%.1f%%), %ld contradicted; %.3f us per side\n", t->quick_hits,
           t->sides, t->sides ? 100.0 * t->quick_hits / t->sides : 0.0, t->quick_wrong,
           t->sides ? t->us_quick / t->sides : 0.0);
    printf("  full analysis: %.1f us per side on average, max %.0f us, %.0f nodes per side\n",
           t->sides ? t->us_full / t->sides : 0.0, t->us_max, t->sides ? (double)t->nodes / t->sides : 0.0);
    printf("  decided by stage: position/material %ld, local search (probe: forced lines) %ld, corner search %ld, "
           "semi-static %ld, deepening %ld, exhaustive %ld, after one move %ld, best-first %ld, undecided %ld\n",
           t->stage[1], t->stage[2], t->stage[3], t->stage[4], t->stage[5], t->stage[6], t->stage[7], t->stage[8],
           t->stage[0]);
    if (t->over_turn[0] + t->over_once[0] || t->pos_max_turn > 0)
        printf("  positions, both sides: over 1 / 1.5 / 2 s %ld / %ld / %ld in turn, %ld / %ld / %ld at once "
               "(the slower side); slowest %.0f us in turn, %.0f us at once\n",
               t->over_turn[0], t->over_turn[1], t->over_turn[2], t->over_once[0], t->over_once[1],
               t->over_once[2], t->pos_max_turn, t->pos_max_once);
}

/* mode: 'v' vector, 't' timeouts, 'p' positions. */
static int run_file(dead_search_t *s, const char *path, int mode, bool verbose)
{
    bool piped;
    FILE *f = open_input(path, &piped);
    if (!f) {
        perror(path);
        return 2;
    }
    totals_t t;
    memset(&t, 0, sizeof t);
    char buf[512];
    long lineno = 0;
    while (fgets(buf, sizeof buf, f)) {
        lineno++;
        buf[strcspn(buf, "\r\n")] = '\0';
        if (buf[0] == '#' || buf[0] == '\0')
            continue;
        const char *fen = buf;
        int expect[2] = {-1, -1};
        if (mode == 'v') {
            if (strlen(buf) < 4 || buf[2] != ' ')
                continue;
            expect[WHITE] = buf[0] == 'W';
            expect[BLACK] = buf[1] == 'B';
            fen = buf + 3;
        }
        char fenbuf[512];
        snprintf(fenbuf, sizeof fenbuf, "%s", fen);
        if (mode == 'v') {
            /* a few entries give only placement and side: no castling, no en passant */
            int fields = 1;
            for (const char *c = fenbuf; *c; c++)
                fields += *c == ' ' && c[1] && c[1] != ' ';
            if (fields == 2)
                strcat(fenbuf, " - -");
        } else {
            /* keep the six FEN fields, drop what follows */
            int fields = 0;
            for (char *c = fenbuf; *c; c++) {
                if (*c == ' ' && ++fields == 6) {
                    *c = '\0';
                    break;
                }
            }
        }
        board_t b;
        board_error_t why;
        if (board_from_fen(&b, fenbuf, false, &why) != 0 && board_from_fen(&b, fenbuf, true, &why) != 0) {
            fprintf(stderr, "%s:%ld: FEN refused: %s\n", path, lineno, why);
            continue;
        }
        t.positions++;
        int decided = 0;
        if (mode == 't') {
            /* the side to move lost on time; its opponent must be unwinnable */
            int winner = !b.stm;
            double us;
            if (one_side(s, &b, winner, 0, &t, verbose, buf, &us) != DEAD_UNDETERMINED)
                decided = 2;
        } else {
            double us[2];
            for (int c = WHITE; c <= BLACK; c++)
                if (one_side(s, &b, c, expect[c], &t, verbose, buf, &us[c]) != DEAD_UNDETERMINED)
                    decided++;
            count_position(&t, us, verbose, buf);
        }
        if (decided == 2)
            t.decided_positions++;
    }
    if (piped)
        pclose(f);
    else
        fclose(f);
    report(path, &t);
    return t.disagree || t.bad_lines || t.quick_wrong ? 1 : 0;
}

/* ---- PGN replay -------------------------------------------------------- */

typedef struct replay_totals {
    long games, plies, triggers, quick_decided, full_calls, unwinnable[2], dead, undetermined, bad_lines;
    long stage[9];
    double us_quick, us_full, us_max;
    unsigned long nodes;
} replay_totals_t;

/* One side at one trigger ply. */
static enum dead_answer replay_side(dead_search_t *s, const board_t *b, int color, replay_totals_t *t, int verbose)
{
    static move_t line[LINE_CAP];
    int len = 0;
    double t0 = now_us();
    enum dead_answer a = dead_quick(b, color);
    double t1 = now_us();
    t->us_quick += t1 - t0;
    if (a != DEAD_UNDETERMINED) {
        t->quick_decided++;
        return a;
    }
    double c1 = cpu_us();
    a = analyse(s, b, color, line, &len);
    double t2 = t1 + (cpu_us() - c1);
    dead_stats_t st;
    dead_last_stats(s, &st);
    t->full_calls++;
    t->us_full += t2 - t1;
    if (t2 - t1 > t->us_max)
        t->us_max = t2 - t1;
    t->nodes += st.nodes;
    t->stage[st.stage % 9]++;
    if (verbose > 1) {
        char fen[128];
        board_to_fen(b, fen, sizeof fen);
        printf("call %s: answer %d, stage %d, %lu nodes, %.0f us: %s\n", color == WHITE ? "white" : "black", (int)a,
               st.stage, st.nodes, t2 - t1, fen);
    }
    if (a == DEAD_UNDETERMINED)
        t->undetermined++;
    if (a == DEAD_WINNABLE && replay(b, color, line, len)) {
        char fen[128];
        board_to_fen(b, fen, sizeof fen);
        fprintf(stderr, "bad line: %s\n", fen);
        t->bad_lines++;
    }
    return a;
}

static void replay_game(dead_search_t *s, const char *fen, char *moves, replay_totals_t *t, int verbose)
{
    board_t b, next;
    board_error_t why;
    if (fen ? board_from_fen(&b, fen, false, &why) != 0 && board_from_fen(&b, fen, true, &why) != 0 : 0)
        return;
    if (!fen)
        board_start(&b);
    t->games++;
    bool trigger = true;
    for (char *tok = strtok(moves, " \t\r\n");; tok = strtok(NULL, " \t\r\n")) {
        if (trigger) {
            t->triggers++;
            enum dead_answer a[2];
            for (int c = WHITE; c <= BLACK; c++) {
                a[c] = replay_side(s, &b, c, t, verbose);
                if (a[c] == DEAD_UNWINNABLE)
                    t->unwinnable[c]++;
            }
            if (a[0] == DEAD_UNWINNABLE && a[1] == DEAD_UNWINNABLE) {
                t->dead++;
                if (verbose) {
                    char out[128];
                    board_to_fen(&b, out, sizeof out);
                    printf("dead: %s\n", out);
                }
                return; /* FIDE 5.2.2: the game ends there */
            }
        }
        if (!tok)
            break;
        while (*tok >= '0' && *tok <= '9')
            tok++;
        while (*tok == '.')
            tok++;
        if (!*tok || *tok == '$' || !strcmp(tok, "*") || (strchr(tok, '-') && (tok[0] == '1' || tok[0] == '0')))
            continue;
        san_syntax_t syn;
        move_t m;
        char whybuf[160];
        if (san_parse(tok, strlen(tok), &syn) != 0)
            continue;
        if (san_resolve(&b, &syn, &m, whybuf, sizeof whybuf) != SAN_OK)
            return;
        trigger = (m.flags & MOVE_CAPTURE) || m.promo || PIECE_TYPE(b.sq[m.from]) == PAWN;
        board_make_move(&b, m, &next);
        b = next;
        t->plies++;
    }
}

/* Strips {comments}, ;comments, (variations) and NAGs from movetext. */
static void strip_movetext(char *m)
{
    int depth = 0;
    bool brace = false, semi = false;
    for (char *c = m; *c; c++) {
        if (semi) {
            if (*c == '\n')
                semi = false;
            *c = ' ';
        } else if (brace) {
            if (*c == '}')
                brace = false;
            *c = ' ';
        } else if (*c == '{') {
            brace = true;
            *c = ' ';
        } else if (*c == ';') {
            semi = true;
            *c = ' ';
        } else if (*c == '(') {
            depth++;
            *c = ' ';
        } else if (*c == ')') {
            depth -= depth > 0;
            *c = ' ';
        } else if (depth) {
            *c = ' ';
        }
    }
}

static int run_pgn(dead_search_t *s, const char *path, int verbose)
{
    bool piped;
    FILE *f = open_input(path, &piped);
    if (!f) {
        perror(path);
        return 2;
    }
    replay_totals_t t;
    memset(&t, 0, sizeof t);
    size_t cap = 1 << 16, used = 0;
    char *moves = malloc(cap), fen[8192] = "", line[8192];
    bool have_fen = false, in_moves = false;
    if (!moves)
        return 2;
    moves[0] = '\0';
    double t0 = now_us();
    for (;;) {
        char *got = fgets(line, sizeof line, f);
        if (!got || (line[0] == '[' && in_moves)) {
            strip_movetext(moves);
            replay_game(s, have_fen ? fen : NULL, moves, &t, verbose);
            used = 0;
            moves[0] = '\0';
            have_fen = in_moves = false;
            if (!got)
                break;
        }
        if (line[0] == '[') {
            if (!strncmp(line, "[FEN \"", 6)) {
                char *end = strchr(line + 6, '"');
                if (end) {
                    *end = '\0';
                    snprintf(fen, sizeof fen, "%s", line + 6);
                    have_fen = true;
                }
            }
            continue;
        }
        size_t n = strlen(line);
        if (n && line[0] != '\n' && line[0] != '\r')
            in_moves = true;
        if (used + n + 1 > cap) {
            char *bigger = realloc(moves, cap * 2);
            if (!bigger)
                break;
            moves = bigger;
            cap *= 2;
        }
        memcpy(moves + used, line, n + 1);
        used += n;
    }
    double t1 = now_us();
    free(moves);
    if (piped)
        pclose(f);
    else
        fclose(f);
    long sides = 2 * t.triggers;
    printf("%s: %ld games, %ld plies, %ld trigger plies (start, captures, promotions, pawn moves)\n", path,
           t.games, t.plies, t.triggers);
    printf("  quick filter decided %ld/%ld sides (%.1f%%), %.3f us per call\n", t.quick_decided, sides,
           sides ? 100.0 * t.quick_decided / sides : 0.0, sides ? t.us_quick / sides : 0.0);
    printf("  full analysis: %ld calls, %.1f us per call on average, max %.0f us, %.0f nodes per call; "
           "undetermined %ld, bad lines %ld\n",
           t.full_calls, t.full_calls ? t.us_full / t.full_calls : 0.0, t.us_max,
           t.full_calls ? (double)t.nodes / t.full_calls : 0.0, t.undetermined, t.bad_lines);
    printf("  decided by stage: position/material %ld, local search (probe: forced lines) %ld, corner search %ld, "
           "semi-static %ld, deepening %ld, exhaustive %ld, after one move %ld, best-first %ld\n",
           t.stage[1], t.stage[2], t.stage[3], t.stage[4], t.stage[5], t.stage[6], t.stage[7], t.stage[8]);
    printf("  dead positions %ld; trigger plies where white cannot win %ld, black cannot win %ld\n", t.dead,
           t.unwinnable[WHITE], t.unwinnable[BLACK]);
    printf("  total %.0f ms: %.1f us per ply of the games\n", (t1 - t0) / 1000,
           t.plies ? (t1 - t0) / t.plies : 0.0);
    return t.bad_lines ? 1 : 0;
}

int main(int argc, char **argv)
{
    int verbose = 0;
    size_t budget = 0;
    int status = 0;
    static const char usage[] = "usage: dead-vectors [-v] [-q | -f] [-n BUDGET] [--vector FILE] [--timeouts FILE] "
                                "[--positions FILE] [--pgn FILE] ...\n";
    /* options first (they apply to every file), then the files in order */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            fputs("runs dead.h over D3-Chess test vectors, timeout positions, FEN lists or PGN games;\n"
                  "see the comment at the top of tests/dead-vectors.c\n",
                  stdout);
            return 0;
        } else if (!strcmp(argv[i], "-v")) {
            verbose++;
        } else if (!strcmp(argv[i], "-q")) {
            probe_mode = true;
        } else if (!strcmp(argv[i], "-f")) {
            fortress_mode = true;
        } else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
            budget = (size_t)strtoul(argv[++i], NULL, 10);
        } else if ((!strcmp(argv[i], "--vector") || !strcmp(argv[i], "--timeouts") ||
                    !strcmp(argv[i], "--positions") || !strcmp(argv[i], "--pgn")) && i + 1 < argc) {
            i++;
        } else {
            fputs(usage, stderr);
            return 2;
        }
    }
    dead_search_t *s = dead_search_new(budget);
    if (!s) {
        fprintf(stderr, "dead-vectors: out of memory\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n")) {
            i++;
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            int rc = argv[i][3] == 'g' ? run_pgn(s, argv[i + 1], verbose) : run_file(s, argv[i + 1], argv[i][2], verbose);
            if (rc > status)
                status = rc;
            i++;
        }
    }
    dead_search_free(s);
    return status;
}
