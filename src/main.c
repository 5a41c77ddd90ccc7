/* main.c: the pgn-arbiter command line.  The only place that talks to the
 * user: options, files, diagnostics, exit codes. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "pgnarbiter.h"
#include "report.h"

#define EXIT_USAGE 2
#define CHUNK (256u << 10)

enum opt_id {
    OPT_HELP = 'h', OPT_VERSION = 'V', OPT_JSON = 256, OPT_ONLY, OPT_SUMMARY,
    OPT_NULLMOVES, OPT_RULES,
};

/* One table drives parsing and --help; tests check each long option is in the man page. */
static const struct option_spec {
    const char *name;
    int id;
    int has_arg;
    const char *arg;
    const char *help;
} option_table[] = {
    { "json", OPT_JSON, no_argument, NULL, "one JSON object per game per line" },
    { "only", OPT_ONLY, required_argument, "FACT[,FACT...]",
      "keep only games where a named fact occurs: checkmate, stalemate,\n"
      "insufficient, dead, fivefold, seventyfive, threefold, fifty" },
    { "rules", OPT_RULES, required_argument, "POLICY",
      "fide (default): only automatic ends decide; claim: also every\n"
      "threefold or fifty-move claim at its first chance" },
    { "summary", OPT_SUMMARY, no_argument, NULL, "print totals per fact, status and verdict on stderr" },
    { "allow-null-moves", OPT_NULLMOVES, no_argument, NULL,
      "replay null moves (--, Z0, 0000, @@@@) as a pass instead of\n"
      "marking the game illegal" },
    { "help", OPT_HELP, no_argument, NULL, "show this help and exit" },
    { "version", OPT_VERSION, no_argument, NULL, "show the version and exit" },
};
#define NOPTIONS (sizeof option_table / sizeof option_table[0])

typedef struct cli {
    bool json, summary;
    unsigned only;          /* bit per arb_fact; 0 = keep every game */
    arb_options lib;
} cli_t;

typedef struct stats {
    uint64_t games, files_failed;
    uint64_t status[5], verdict[5], fact[ARB_FACT_COUNT];
} stats_t;

static void usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "pgn-arbiter: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'pgn-arbiter --help' for more information.\n");
    exit(EXIT_USAGE);
}

static void print_help(void)
{
    printf("Usage: pgn-arbiter [OPTION]... [FILE]...\n"
           "Replay every game of the PGN FILEs (standard input if none, or -; gzip and\n"
           "zstd are read as they are) and report what the FIDE Laws of Chess make of\n"
           "each: checkmate, stalemate, dead position, fivefold and seventy-five-move\n"
           "draws, threefold and fifty-move claims.\n\nOptions:\n");
    for (size_t i = 0; i < NOPTIONS; i++) {
        const struct option_spec *o = &option_table[i];
        char left[64];
        if (o->id < 256)
            snprintf(left, sizeof left, "-%c, --%s%s%s", o->id, o->name, o->arg ? "=" : "", o->arg ? o->arg : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s", o->name, o->arg ? "=" : "", o->arg ? o->arg : "");
        printf("  %-28s", left);
        if (strlen(left) > 28)
            printf("\n  %-28s", "");
        for (const char *h = o->help; *h; h++) {
            putchar(*h);
            if (*h == '\n')
                printf("  %-28s", "");
        }
        putchar('\n');
    }
    printf("\nExit status: 0 if every input was read, 2 on a usage or I/O error.\n"
           "See pgn-arbiter(1) for the output formats.\n");
}

static unsigned parse_facts(const char *list)
{
    unsigned mask = 0;
    const char *p = list;
    while (*p) {
        size_t n = strcspn(p, ",");
        int found = -1;
        for (int f = 0; f < ARB_FACT_COUNT; f++)
            if (strlen(arb_fact_name((arb_fact)f)) == n && strncmp(p, arb_fact_name((arb_fact)f), n) == 0)
                found = f;
        if (found < 0)
            usage_error("--only: unknown fact in '%s'", list);
        mask |= 1u << found;
        p += n;
        if (*p == ',')
            p++;
    }
    if (!mask)
        usage_error("--only needs at least one fact, got '%s'", list);
    return mask;
}

static cli_t parse_options(int argc, char **argv)
{
    cli_t cli = { .lib = { .allow_null_moves = false, .policy = ARB_RULES_FIDE } };
    struct option longopts[NOPTIONS + 1];
    char shortopts[2 * NOPTIONS + 1];
    size_t ns = 0;
    for (size_t i = 0; i < NOPTIONS; i++) {
        longopts[i] = (struct option){ option_table[i].name, option_table[i].has_arg, NULL, option_table[i].id };
        if (option_table[i].id < 256) {
            shortopts[ns++] = (char)option_table[i].id;
            if (option_table[i].has_arg)
                shortopts[ns++] = ':';
        }
    }
    longopts[NOPTIONS] = (struct option){ 0 };
    shortopts[ns] = '\0';
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        switch (c) {
        case OPT_HELP:
            print_help();
            exit(fclose(stdout) == 0 ? 0 : EXIT_USAGE);
        case OPT_VERSION:
            printf("pgn-arbiter %s\n", arb_version());
            exit(fclose(stdout) == 0 ? 0 : EXIT_USAGE);
        case OPT_JSON: cli.json = true; break;
        case OPT_SUMMARY: cli.summary = true; break;
        case OPT_ONLY: cli.only = parse_facts(optarg); break;
        case OPT_NULLMOVES: cli.lib.allow_null_moves = true; break;
        case OPT_RULES:
            if (strcmp(optarg, "fide") == 0) cli.lib.policy = ARB_RULES_FIDE;
            else if (strcmp(optarg, "claim") == 0) cli.lib.policy = ARB_RULES_CLAIM;
            else usage_error("--rules: unknown policy '%s' (fide or claim)", optarg);
            break;
        default:
            usage_error("unrecognised option '%s'", argv[optind - 1]);
        }
    }
    return cli;
}

static bool keep(const cli_t *cli, const arb_game *g)
{
    if (!cli->only)
        return true;
    for (int f = 0; f < ARB_FACT_COUNT; f++)
        if ((cli->only & (1u << f)) && g->first[f] >= 0)
            return true;
    return false;
}

static void flush_out(strbuf_t *out)
{
    if (out->len && fwrite(out->data, 1, out->len, stdout) != out->len) {
        fprintf(stderr, "pgn-arbiter: error writing output: %s\n", strerror(errno));
        exit(EXIT_USAGE);
    }
    out->len = 0;
}

static void game_diagnostic(const char *file, const arb_game *g)
{
    if (!g->has_error)
        return;
    fprintf(stderr, "pgn-arbiter: %s:%llu:%u: error: game %llu: %s\n", file,
            (unsigned long long)g->error.line, (unsigned)g->error.col,
            (unsigned long long)g->number, g->error.message);
}

/* Reads one input to its end; returns false on an I/O error. */
static bool process(const char *path, const cli_t *cli, stats_t *st, strbuf_t *out, char *chunk)
{
    char err[256];
    const char *name = strcmp(path, "-") == 0 ? "-" : path;
    input_t *in = input_open(path, err, sizeof err);
    if (!in) {
        fprintf(stderr, "pgn-arbiter: %s: error: %s\n", name, err);
        return false;
    }
    arb_reader *r = arb_reader_new(&cli->lib);
    if (!r) {
        fprintf(stderr, "pgn-arbiter: %s: error: out of memory\n", name);
        input_close(in);
        return false;
    }
    bool ok = true, done = false;
    while (!done) {
        ssize_t n = input_read(in, chunk, CHUNK, err, sizeof err);
        if (n < 0) {
            fprintf(stderr, "pgn-arbiter: %s: error: %s (after %llu games)\n", name, err,
                    (unsigned long long)st->games);
            ok = false;
            break;
        }
        if (n == 0) {
            arb_reader_finish(r);
            done = true;
        } else {
            arb_reader_feed(r, chunk, (size_t)n);
        }
        const arb_game *g;
        bool oom = false;
        while ((g = arb_reader_next(r, &oom)) != NULL) {
            st->games++;
            st->status[g->status]++;
            st->verdict[g->verdict]++;
            for (int f = 0; f < ARB_FACT_COUNT; f++)
                st->fact[f] += g->first[f] >= 0;
            game_diagnostic(name, g);
            if (!keep(cli, g))
                continue;
            if (cli->json)
                report_json(out, g, name);
            else
                report_text(out, g, name);
            if (out->len >= (64u << 10))
                flush_out(out);
        }
        if (oom) {
            fprintf(stderr, "pgn-arbiter: %s: error: out of memory\n", name);
            ok = false;
            break;
        }
    }
    arb_reader_free(r);
    input_close(in);
    return ok;
}

static void print_summary(const stats_t *st)
{
    fprintf(stderr, "games: %llu\nstatus:", (unsigned long long)st->games);
    for (int s = 0; s < 5; s++)
        fprintf(stderr, " %s %llu%s", arb_status_name((arb_status)s), (unsigned long long)st->status[s], s < 4 ? "," : "\n");
    fprintf(stderr, "verdict:");
    for (int v = 0; v < 5; v++)
        fprintf(stderr, " %s %llu%s", arb_verdict_name((arb_verdict)v), (unsigned long long)st->verdict[v], v < 4 ? "," : "\n");
    fprintf(stderr, "facts:");
    for (int f = 0; f < ARB_FACT_COUNT; f++)
        fprintf(stderr, " %s %llu%s", arb_fact_name((arb_fact)f), (unsigned long long)st->fact[f],
                f < ARB_FACT_COUNT - 1 ? "," : "\n");
    if (st->files_failed)
        fprintf(stderr, "unreadable inputs: %llu\n", (unsigned long long)st->files_failed);
}

int main(int argc, char **argv)
{
    const cli_t cli = parse_options(argc, argv);
    stats_t st = { 0 };
    strbuf_t out = { 0 };
    char *chunk = malloc(CHUNK);
    if (!chunk) {
        fprintf(stderr, "pgn-arbiter: out of memory\n");
        return EXIT_USAGE;
    }
    if (optind >= argc) {
        st.files_failed += !process("-", &cli, &st, &out, chunk);
    } else {
        for (int i = optind; i < argc; i++)
            st.files_failed += !process(argv[i], &cli, &st, &out, chunk);
    }
    flush_out(&out);
    strbuf_free(&out);
    free(chunk);
    if (cli.summary)
        print_summary(&st);
    if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
        fprintf(stderr, "pgn-arbiter: error writing output: %s\n", strerror(errno));
        return EXIT_USAGE;
    }
    return st.files_failed ? EXIT_USAGE : 0;
}
