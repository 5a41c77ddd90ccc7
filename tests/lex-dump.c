/* lex-dump: prints the tokens of a PGN file, one a line, to check the lexer
 * on real files.  The input is read in chunks of random size (or of a fixed
 * size with -c), each in a fresh buffer freed once the lexer is done with
 * it, so that the output must not depend on the chunking and a sanitizer
 * sees any read outside the chunk.
 *
 *   lex-dump [-c SIZE] [-s SEED] [-n] [FILE]
 *
 * Each line: LINE:COL OFFSET-END KIND text [= value] [truncated]
 * [unterminated] [nag N]; bytes outside printable ASCII are written \xNN.
 * -n prints only the number of tokens of each kind. */

#include "lex.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_name[] = {
    "MORE", "EOF", "TAG", "SYMBOL", "MOVENUM", "RESULT",
    "NAG", "COMMENT", "VAR_OPEN", "VAR_CLOSE", "BAD",
};

static void put_bytes(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '\\')
            putchar(c);
        else
            printf("\\x%02x", c);
    }
}

static void put_token(const lex_token_t *t)
{
    printf("%" PRIu64 ":%" PRIu32 " %" PRIu64 "-%" PRIu64 " %s", t->line, t->col, t->offset,
           t->end, kind_name[t->kind]);
    if (t->text) {
        putchar(' ');
        put_bytes(t->text, t->len);
    }
    if (t->value) {
        fputs(" = ", stdout);
        put_bytes(t->value, t->value_len);
    }
    if (t->truncated)
        fputs(" truncated", stdout);
    if (t->unterminated)
        fputs(" unterminated", stdout);
    if (t->kind == TOK_NAG)
        printf(" nag %d", t->nag);
    putchar('\n');
}

/* A small deterministic generator (xorshift64*), enough for chunk sizes. */
static uint64_t next_random(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717u;
}

int main(int argc, char **argv)
{
    size_t fixed = 0;
    uint64_t seed = 1;
    int count_only = 0;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-c") == 0 && i + 1 < argc)
            fixed = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10) | 1;
        else if (strcmp(argv[i], "-n") == 0)
            count_only = 1;
        else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "usage: lex-dump [-c SIZE] [-s SEED] [-n] [FILE]\n");
            return 2;
        } else
            path = argv[i];
    }
    FILE *f = path ? fopen(path, "rb") : stdin;
    if (!f) {
        fprintf(stderr, "lex-dump: %s: %s\n", path, strerror(errno));
        return 1;
    }
    lexer_t *lx = lex_new();
    if (!lx) {
        fprintf(stderr, "lex-dump: out of memory\n");
        return 1;
    }
    uint64_t counts[TOK_BAD + 1] = {0};
    lex_token_t t;
    char *chunk = NULL;
    for (;;) {
        lex_kind_t k = lex_next(lx, &t);
        if (k == TOK_MORE) {
            free(chunk);
            size_t want = fixed ? fixed : 1 + next_random(&seed) % 97;
            chunk = malloc(want);
            if (!chunk) {
                fprintf(stderr, "lex-dump: out of memory\n");
                return 1;
            }
            size_t got = fread(chunk, 1, want, f);
            if (got == 0) {
                if (ferror(f)) {
                    fprintf(stderr, "lex-dump: read error\n");
                    return 1;
                }
                lex_finish(lx);
            } else {
                lex_feed(lx, chunk, got);
            }
            continue;
        }
        counts[k]++;
        if (k == TOK_EOF)
            break;
        if (!count_only)
            put_token(&t);
    }
    free(chunk);
    lex_free(lx);
    if (path)
        fclose(f);
    if (count_only)
        for (int k = TOK_TAG; k <= TOK_BAD; k++)
            printf("%s %" PRIu64 "\n", kind_name[k], counts[k]);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "lex-dump: write error\n");
        return 1;
    }
    return 0;
}
