/* perft.c: move generator checks by node counts (a test program).
 *
 *   perft [--depth-limit N] [--chess960] FILE...
 *       Reads EPD-like suites ("id NAME", "epd FEN", "perft DEPTH NODES"
 *       lines, '#' comments; the python-chess examples/perft format), checks
 *       every count up to the depth limit, prints one line per position and
 *       a last line "N passed, M failed".  A FEN is read as standard chess
 *       and, if refused, as Chess960 (X-FEN positions); --chess960 reads
 *       every FEN as Chess960 (Shredder-FEN suites).
 *   perft --fen FEN --depth D [--chess960] [--divide]
 *       Prints the node count (and with --divide the count below each move).
 *   perft --draws [--max-nodes N] FILE...
 *       Checks draw-perft lines "FEN ; depth ; nodes checkmates stalemates
 *       insufficient fifty repetition3", all counted at the leaves: mate and
 *       stalemate by movegen_has_legal/board_in_check, insufficient by
 *       rules_insufficient, fifty as clock >= 100 with a legal move, and
 *       repetition3 when the leaf's key occurs three times among the keys of
 *       the path from the root (root and leaf included).  Counting along the
 *       whole path is the same as counting back to the last irreversible
 *       move, because no position before a capture, pawn move, castling-right
 *       loss or double step with a legal en passant reply can recur after it.
 *       Lines whose node count exceeds --max-nodes are skipped.
 *
 * Exit status: 0 all passed, 1 a count differed or a FEN was refused,
 * 2 usage or file error. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "movegen.h"
#include "rules.h"
#include "san.h"

typedef struct {
    int depth_limit;    /* deepest count checked, 1.. */
    bool chess960;      /* read every FEN as Chess960 */
    uint64_t max_nodes; /* draws: skip lines with more expected nodes */
} options_t;

typedef struct {
    long passed, failed, skipped;
} tally_t;

/* Reads one line of any length into *buf (grown as needed); false at EOF. */
static bool read_line(FILE *f, char **buf, size_t *cap)
{
    size_t n = 0;
    int c;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (n + 2 > *cap) {
            size_t ncap = *cap ? *cap * 2 : 256;
            char *nb = realloc(*buf, ncap);
            if (!nb) {
                fprintf(stderr, "perft: out of memory\n");
                exit(2);
            }
            *buf = nb;
            *cap = ncap;
        }
        (*buf)[n++] = (char)c;
    }
    if (c == EOF && n == 0)
        return false;
    if (!*buf) {
        *buf = malloc(1);
        *cap = 1;
        if (!*buf)
            exit(2);
    }
    while (n > 0 && ((*buf)[n - 1] == '\r' || (*buf)[n - 1] == ' ' || (*buf)[n - 1] == '\t'))
        n--;
    (*buf)[n] = '\0';
    return true;
}

/* Standard chess first, then Chess960, unless told. */
static int load_fen(board_t *b, const char *fen, bool chess960, board_error_t *why)
{
    if (!chess960 && board_from_fen(b, fen, false, why) == 0)
        return 0;
    return board_from_fen(b, fen, true, why);
}

/* ---- perft suites ------------------------------------------------------- */

#define MAX_DEPTH 16

typedef struct {
    char id[64];
    char fen[256];
    int ndepths;
    int depth[MAX_DEPTH];
    uint64_t nodes[MAX_DEPTH];
} suite_pos_t;

static void check_position(const suite_pos_t *p, const options_t *opt, tally_t *t)
{
    board_t b;
    board_error_t why = NULL;
    if (!p->fen[0])
        return;
    if (load_fen(&b, p->fen, opt->chess960, &why) != 0) {
        printf("FAIL %s: FEN refused (%s): %s\n", p->id, why ? why : "no reason", p->fen);
        t->failed++;
        return;
    }
    int deepest = 0;
    for (int i = 0; i < p->ndepths; i++) {
        if (p->depth[i] > opt->depth_limit)
            continue;
        uint64_t got = movegen_perft(&b, p->depth[i]);
        if (got != p->nodes[i]) {
            printf("FAIL %s depth %d: expected %llu, got %llu: %s\n", p->id, p->depth[i],
                   (unsigned long long)p->nodes[i], (unsigned long long)got, p->fen);
            t->failed++;
            return;
        }
        if (p->depth[i] > deepest)
            deepest = p->depth[i];
    }
    if (deepest == 0) {
        t->skipped++;
        return;
    }
    printf("ok   %s depth %d: %s\n", p->id, deepest, p->fen);
    t->passed++;
}

static int run_suite(const char *path, const options_t *opt, tally_t *t)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "perft: %s: cannot open\n", path);
        return -1;
    }
    suite_pos_t p;
    memset(&p, 0, sizeof p);
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    while (read_line(f, &line, &cap)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\0')
            continue;
        if (!strncmp(line, "id ", 3)) {
            check_position(&p, opt, t);
            memset(&p, 0, sizeof p);
            snprintf(p.id, sizeof p.id, "%s", line + 3);
        } else if (!strncmp(line, "epd ", 4)) {
            if (p.fen[0]) { /* an epd without an id of its own */
                check_position(&p, opt, t);
                memset(&p, 0, sizeof p);
            }
            if (!p.id[0])
                snprintf(p.id, sizeof p.id, "%s:%ld", path, lineno);
            snprintf(p.fen, sizeof p.fen, "%s", line + 4);
        } else if (!strncmp(line, "perft ", 6)) {
            int d;
            unsigned long long n;
            if (sscanf(line + 6, "%d %llu", &d, &n) != 2 || d < 0 || p.ndepths == MAX_DEPTH) {
                fprintf(stderr, "perft: %s:%ld: bad perft line\n", path, lineno);
                continue;
            }
            p.depth[p.ndepths] = d;
            p.nodes[p.ndepths++] = n;
        } else {
            fprintf(stderr, "perft: %s:%ld: line not understood\n", path, lineno);
        }
    }
    check_position(&p, opt, t);
    free(line);
    fclose(f);
    return 0;
}

/* ---- draw perft --------------------------------------------------------- */

typedef struct {
    uint64_t nodes, mates, stalemates, insufficient, fifty, rep3;
} draw_counts_t;

static void draw_perft(const board_t *b, int depth, uint64_t *path, int plen, draw_counts_t *c)
{
    if (depth == 0) {
        bool any = movegen_has_legal(b);
        int occ = 0;
        c->nodes++;
        if (!any) {
            if (board_in_check(b))
                c->mates++;
            else
                c->stalemates++;
        }
        if (rules_insufficient(b))
            c->insufficient++;
        if (b->halfmove >= 100 && any)
            c->fifty++;
        for (int i = 0; i < plen; i++)
            occ += path[i] == b->key;
        if (occ >= 3)
            c->rep3++;
        return;
    }
    move_t list[MAX_MOVES];
    int n = movegen_legal(b, list);
    for (int i = 0; i < n; i++) {
        board_t next;
        board_make_move(b, list[i], &next);
        path[plen] = next.key;
        draw_perft(&next, depth - 1, path, plen + 1, c);
    }
}

static int run_draws(const char *path, const options_t *opt, tally_t *t)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "perft: %s: cannot open\n", path);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    while (read_line(f, &line, &cap)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char *semi1 = strchr(line, ';'), *semi2 = semi1 ? strchr(semi1 + 1, ';') : NULL;
        int depth;
        unsigned long long w[6];
        if (!semi2 || sscanf(semi1 + 1, "%d", &depth) != 1 ||
            sscanf(semi2 + 1, "%llu %llu %llu %llu %llu %llu", &w[0], &w[1], &w[2], &w[3], &w[4], &w[5]) != 6 ||
            depth < 0 || depth > 64) {
            fprintf(stderr, "perft: %s:%ld: bad draw-perft line\n", path, lineno);
            t->failed++;
            continue;
        }
        *semi1 = '\0';
        char *fen = line;
        size_t len = strlen(fen);
        while (len > 0 && fen[len - 1] == ' ')
            fen[--len] = '\0';
        if (opt->max_nodes && w[0] > opt->max_nodes) {
            printf("skip %s:%ld depth %d (%llu nodes): %s\n", path, lineno, depth, w[0], fen);
            t->skipped++;
            continue;
        }
        board_t b;
        board_error_t why = NULL;
        if (load_fen(&b, fen, opt->chess960, &why) != 0) {
            printf("FAIL %s:%ld: FEN refused (%s): %s\n", path, lineno, why ? why : "no reason", fen);
            t->failed++;
            continue;
        }
        uint64_t keys[66];
        draw_counts_t c = {0, 0, 0, 0, 0, 0};
        keys[0] = b.key;
        draw_perft(&b, depth, keys, 1, &c);
        uint64_t got[6] = {c.nodes, c.mates, c.stalemates, c.insufficient, c.fifty, c.rep3};
        bool same = true;
        for (int i = 0; i < 6; i++)
            same = same && got[i] == w[i];
        printf("%s %s:%ld depth %d: %s\n", same ? "ok  " : "FAIL", path, lineno, depth, fen);
        if (!same) {
            static const char *const names[6] = {"nodes", "checkmates", "stalemates", "insufficient", "fifty",
                                                 "repetition3"};
            for (int i = 0; i < 6; i++)
                if (got[i] != w[i])
                    printf("     %s: expected %llu, got %llu\n", names[i], w[i], (unsigned long long)got[i]);
        }
        if (same)
            t->passed++;
        else
            t->failed++;
    }
    free(line);
    fclose(f);
    return 0;
}

/* ---- one position ------------------------------------------------------- */

static int run_fen(const char *fen, int depth, bool divide, const options_t *opt)
{
    board_t b;
    board_error_t why = NULL;
    if (load_fen(&b, fen, opt->chess960, &why) != 0) {
        fprintf(stderr, "perft: FEN refused (%s): %s\n", why ? why : "no reason", fen);
        return 1;
    }
    if (divide && depth >= 1) {
        move_t list[MAX_MOVES];
        int n = movegen_legal(&b, list);
        uint64_t total = 0;
        for (int i = 0; i < n; i++) {
            board_t next;
            char san[16];
            san_format(&b, list[i], san);
            board_make_move(&b, list[i], &next);
            uint64_t k = movegen_perft(&next, depth - 1);
            total += k;
            printf("%c%c%c%c%s %-8s %llu\n", 'a' + SQ_FILE(list[i].from), '1' + SQ_RANK(list[i].from),
                   'a' + SQ_FILE(list[i].to), '1' + SQ_RANK(list[i].to),
                   list[i].promo ? (const char *[]){"", "p", "n", "b", "r", "q", "k"}[list[i].promo & 7] : "", san,
                   (unsigned long long)k);
        }
        printf("%llu\n", (unsigned long long)total);
    } else {
        printf("%llu\n", (unsigned long long)movegen_perft(&b, depth));
    }
    return 0;
}

static void usage(FILE *to)
{
    fputs("usage: perft [--depth-limit N] [--chess960] FILE...\n"
          "       perft --fen FEN --depth D [--chess960] [--divide]\n"
          "       perft --draws [--max-nodes N] FILE...\n",
          to);
}

int main(int argc, char **argv)
{
    options_t opt = {.depth_limit = MAX_DEPTH, .chess960 = false, .max_nodes = 0};
    const char *fen = NULL;
    int depth = -1, first_file = argc;
    bool draws = false, divide = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--depth-limit") && i + 1 < argc) {
            opt.depth_limit = atoi(argv[++i]);
        } else if (!strcmp(a, "--depth") && i + 1 < argc) {
            depth = atoi(argv[++i]);
        } else if (!strcmp(a, "--fen") && i + 1 < argc) {
            fen = argv[++i];
        } else if (!strcmp(a, "--max-nodes") && i + 1 < argc) {
            opt.max_nodes = strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(a, "--chess960")) {
            opt.chess960 = true;
        } else if (!strcmp(a, "--draws")) {
            draws = true;
        } else if (!strcmp(a, "--divide")) {
            divide = true;
        } else if (a[0] == '-' && a[1] == '-' && a[2]) {
            fprintf(stderr, "perft: unknown option %s\n", a);
            usage(stderr);
            return 2;
        } else {
            first_file = i;
            break;
        }
    }
    if (fen) {
        if (depth < 0 || first_file != argc) {
            usage(stderr);
            return 2;
        }
        return run_fen(fen, depth, divide, &opt);
    }
    if (first_file == argc) {
        usage(stderr);
        return 2;
    }
    tally_t t = {0, 0, 0};
    int status = 0;
    for (int i = first_file; i < argc; i++)
        if ((draws ? run_draws(argv[i], &opt, &t) : run_suite(argv[i], &opt, &t)) != 0)
            status = 2;
    if (t.skipped)
        printf("%ld passed, %ld failed, %ld skipped\n", t.passed, t.failed, t.skipped);
    else
        printf("%ld passed, %ld failed\n", t.passed, t.failed);
    if (fflush(stdout) != 0 || ferror(stdout))
        return 2;
    return status ? status : t.failed ? 1 : 0;
}
