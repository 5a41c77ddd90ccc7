/* example.c: a program that uses only the installed library, pgnarbiter.h.
 *
 * Reads the PGN file named on the command line and prints one line per
 * game: its number, status, verdict and the first ply where a threefold
 * repetition could be claimed (-1 if never).  make installcheck builds it
 * with cc example.c $(pkg-config --cflags --libs pgnarbiter) against the
 * installed library; the same program is the EXAMPLE of pgnarbiter(3). */
#include <stdio.h>
#include <stdlib.h>

#include <pgnarbiter.h>

static int print_games(arb_reader *r)
{
    const arb_game *g;
    bool oom = false;
    while ((g = arb_reader_next(r, &oom)) != NULL)
        printf("%llu %s %s %ld\n", (unsigned long long)g->number, arb_status_name(g->status),
               arb_verdict_name(g->verdict), (long)g->first[ARB_THREEFOLD]);
    return oom ? -1 : 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE.pgn\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    arb_reader *r = arb_reader_new(NULL); /* NULL: the default options */
    if (!r) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    /* A small buffer on purpose: games and tokens span chunks.  The chunk
     * is reused only after arb_reader_next() has returned NULL. */
    char buf[4096];
    size_t n;
    int status = 0;
    while (status == 0 && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        arb_reader_feed(r, buf, n);
        status = print_games(r);
    }
    if (ferror(f)) {
        perror(argv[1]);
        status = -1;
    }
    if (status == 0) {
        arb_reader_finish(r);
        status = print_games(r);
    }
    arb_reader_free(r);
    fclose(f);
    if (status != 0)
        fprintf(stderr, "%s: could not be read to its end\n", argv[1]);
    return status == 0 && fflush(stdout) == 0 ? 0 : 1;
}
