/* hostile-gen: hostile PGN made on the fly, and a resource meter, for
 * tests/hostile.sh.  Nothing it makes is stored in the source tree.
 *
 *   hostile-gen CASE N      writes case CASE of size N to standard output,
 *                           followed by one well-formed game whose Event is
 *                           "after" (the reader must carry on to it)
 *   hostile-gen measure FILE PROGRAM [ARG...]
 *                           runs PROGRAM (standard streams inherited), then
 *                           writes "rss_kb SECONDS" to FILE: its peak
 *                           resident size (getrusage) and wall time; exits
 *                           with PROGRAM's status (128+N if killed by
 *                           signal N)
 *   hostile-gen killafter MS PROGRAM [ARG...]
 *                           runs PROGRAM and sends it SIGKILL after MS
 *                           milliseconds if it is still running; exits
 *                           with its status (137 if killed)
 *
 * Cases (N is bytes or a count, as named):
 *   longline N   one game whose movetext is a symbol of N bytes, no newline
 *   nested N     N nested variations "(", then N ")", in one game
 *   tags N       one game with N distinct tags
 *   comment N    one game with a comment of N bytes
 *   tagvalue N   one game with a tag value of N bytes
 *   plies N      one game of N plies: knights shuffling (Nf3 Nf6 Ng1 Ng8),
 *                no newline between moves but every 16 plies
 *   pawnplies N  the same with a pair of pawn moves every N/15 plies, so
 *                that repetition windows reset (and the game never stops)
 *   wander N     one game of N plies (at most 93,310) with no capture, no pawn
 *                move and no position twice: one long repetition window
 *   empty N      N empty games ("*" on a line)
 *   nul N        N NUL bytes
 *   random N     N bytes from a fixed pseudo-random sequence
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char after[] =
    "\n\n[Event \"after\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";

static char block[1 << 16];

static void out(const void *p, size_t n)
{
    if (fwrite(p, 1, n, stdout) != n) {
        /* The reader stopped early (a pipe closed): that is its business. */
        exit(errno == EPIPE ? 0 : 1);
    }
}

static void outs(const char *s)
{
    out(s, strlen(s));
}

/* n copies of byte c. */
static void repeat(int c, uint64_t n)
{
    memset(block, c, sizeof block);
    while (n) {
        size_t k = n < sizeof block ? (size_t)n : sizeof block;
        out(block, k);
        n -= k;
    }
}

static void header(const char *event)
{
    outs("[Event \"");
    outs(event);
    outs("\"]\n[Result \"*\"]\n\n");
}

/* Knights out and back; a pawn pair every `every` plies (0: never). */
static void plies(uint64_t n, uint64_t every)
{
    static const char *const cycle[4] = { "Nf3", "Nf6", "Ng1", "Ng8" };
    /* Pawn pairs that never block the knights nor give check: each file
     * but f, to the 3rd/6th and then the 4th/5th rank. */
    static const char *const pawns[14][2] = {
        { "a3", "a6" }, { "b3", "b6" }, { "c3", "c6" }, { "d3", "d6" }, { "e3", "e6" }, { "g3", "g6" },
        { "h3", "h6" }, { "a4", "a5" }, { "b4", "b5" }, { "c4", "c5" }, { "d4", "d5" }, { "e4", "e5" },
        { "g4", "g5" }, { "h4", "h5" },
    };
    char buf[64];
    uint64_t ply = 0, k = 0, pawn = 0, since = 0;
    header("plies");
    while (ply < n) {
        const char *w, *b;
        if (every && since >= every && pawn < 14 && k % 4 == 0) {
            w = pawns[pawn][0];
            b = pawns[pawn][1];
            pawn++;
            since = 0;
        } else {
            w = cycle[k % 4];
            b = cycle[k % 4 + 1];
            k += 2;
            since += 2;
        }
        uint64_t move = ply / 2 + 1;
        if (n - ply >= 2)
            snprintf(buf, sizeof buf, "%llu. %s %s%s", (unsigned long long)move, w, b, (move % 8) ? " " : "\n");
        else
            snprintf(buf, sizeof buf, "%llu. %s ", (unsigned long long)move, w);
        outs(buf);
        ply += 2;
    }
    outs(" *");
}

/* Six white rooks on the 2nd to 7th ranks count in a reflected Gray code
 * of six digits (files a to f): each White move steps one rook one file,
 * so no White arrangement comes twice in 6^6 moves, while the black king
 * steps between h8 and g8, out of every rook's reach. */
static void wander(uint64_t n)
{
    int file[6] = { 0 }, dir[6] = { 1, 1, 1, 1, 1, 1 };
    char buf[64];
    outs("[Event \"wander\"]\n[Result \"*\"]\n[SetUp \"1\"]\n[FEN \"7k/R7/R7/R7/R7/R7/R7/K7 w - - 0 1\"]\n\n");
    for (uint64_t ply = 0; ply + 2 <= n; ply += 2) {
        int i = 0;
        while (i < 6 && (file[i] + dir[i] < 0 || file[i] + dir[i] > 5)) {
            dir[i] = -dir[i];
            i++;
        }
        if (i == 6)
            break; /* every arrangement made */
        int from = file[i];
        file[i] += dir[i];
        uint64_t move = ply / 2 + 1;
        snprintf(buf, sizeof buf, "%llu. R%c%d%c%d K%s%s", (unsigned long long)move, 'a' + from, i + 2,
                 'a' + file[i], i + 2, move % 2 ? "g8" : "h8", move % 8 ? " " : "\n");
        outs(buf);
    }
    outs(" *");
}

static int generate(const char *what, uint64_t n)
{
    char buf[64];
    if (strcmp(what, "longline") == 0) {
        header("longline");
        outs("1. ");
        repeat('e', n);
        outs(" *");
    } else if (strcmp(what, "nested") == 0) {
        header("nested");
        outs("1. e4 ");
        repeat('(', n);
        repeat(')', n);
        outs(" e5 *");
    } else if (strcmp(what, "tags") == 0) {
        outs("[Event \"tags\"]\n");
        for (uint64_t i = 0; i < n; i++) {
            snprintf(buf, sizeof buf, "[T%llu \"v\"]\n", (unsigned long long)i);
            outs(buf);
        }
        outs("\n1. e4 *");
    } else if (strcmp(what, "comment") == 0) {
        header("comment");
        outs("1. e4 {");
        repeat('c', n);
        outs("} e5 *");
    } else if (strcmp(what, "tagvalue") == 0) {
        outs("[Event \"tagvalue\"]\n[Annotator \"");
        repeat('v', n);
        outs("\"]\n\n1. e4 *");
    } else if (strcmp(what, "plies") == 0) {
        plies(n, 0);
    } else if (strcmp(what, "pawnplies") == 0) {
        plies(n, n / 15 + 1);
    } else if (strcmp(what, "wander") == 0) {
        wander(n);
    } else if (strcmp(what, "empty") == 0) {
        for (uint64_t i = 0; i < n; i += 32768) {
            uint64_t k = n - i < 32768 ? n - i : 32768;
            for (uint64_t j = 0; j < k; j++)
                memcpy(block + 2 * j, "*\n", 2);
            out(block, (size_t)(2 * k));
        }
    } else if (strcmp(what, "nul") == 0) {
        repeat(0, n);
    } else if (strcmp(what, "random") == 0) {
        uint64_t s = 0x9E3779B97F4A7C15u;
        while (n) {
            size_t k = n < sizeof block ? (size_t)n : sizeof block;
            for (size_t i = 0; i < k; i++) {
                s ^= s >> 12;
                s ^= s << 25;
                s ^= s >> 27;
                block[i] = (char)((s * 2685821657736338717u) >> 56);
            }
            out(block, k);
            n -= k;
        }
        /* Whatever the bytes left open (a comment, a tag, a variation) is
         * closed, so that the last game can be found. */
        outs("}\n)))\n");
    } else {
        fprintf(stderr, "hostile-gen: unknown case '%s'\n", what);
        return 2;
    }
    outs(after);
    return fflush(stdout) == 0 ? 0 : 1;
}

/* Starts argv in a child process; -1 (reported) if it cannot fork. */
static pid_t spawn(char **argv)
{
    pid_t pid = fork();
    if (pid < 0) {
        perror("hostile-gen: fork");
        return -1;
    }
    if (pid == 0) {
        execvp(argv[0], argv);
        perror(argv[0]);
        _exit(127);
    }
    return pid;
}

static int measure(const char *file, char **argv)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = spawn(argv);
    if (pid < 0)
        return 99;
    int status;
    struct rusage ru;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            perror("hostile-gen: waitpid");
            return 99;
        }
    }
    /* The one child waited for: its peak (Linux and the BSDs give kB). */
    getrusage(RUSAGE_CHILDREN, &ru);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    FILE *f = fopen(file, "w");
    if (!f || fprintf(f, "%ld %.2f\n", ru.ru_maxrss, secs) < 0 || fclose(f) != 0) {
        perror(file);
        return 99;
    }
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

static int killafter(const char *ms, char **argv)
{
    long n = strtol(ms, NULL, 10);
    pid_t pid = spawn(argv);
    if (pid < 0)
        return 99;
    struct timespec ts = { n / 1000, (n % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
    kill(pid, SIGKILL); /* if it is already done, it is a zombie: no harm */
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            perror("hostile-gen: waitpid");
            return 99;
        }
    }
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "measure") == 0)
        return measure(argv[2], argv + 3);
    if (argc >= 4 && strcmp(argv[1], "killafter") == 0)
        return killafter(argv[2], argv + 3);
    if (argc != 3) {
        fprintf(stderr, "usage: hostile-gen CASE N | hostile-gen measure FILE PROGRAM [ARG...]\n"
                        "       hostile-gen killafter MS PROGRAM [ARG...]\n");
        return 2;
    }
    char *end;
    errno = 0;
    unsigned long long n = strtoull(argv[2], &end, 10);
    if (errno || *end || !*argv[2]) {
        fprintf(stderr, "hostile-gen: bad size '%s'\n", argv[2]);
        return 2;
    }
    return generate(argv[1], n);
}
