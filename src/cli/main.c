/* main.c: the pgn-arbiter command line: options, the modes that are not
 * reading PGN (--fen), --in-place, totals and exit codes.  The reading of
 * inputs is below it (process.h, files.h); nothing there calls back here. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "baseline.h"
#include "cli.h"
#include "files.h"
#include "follow.h"
#include "follow_stream.h"
#include "game.h"
#include "process.h"
#include "sides.h"

#ifdef ARB_HAVE_MALLOPT
#include <malloc.h>
#endif

#define EXIT_PROBLEMS 1
#define EXIT_USAGE 2

enum opt_id {
    OPT_HELP = 'h', OPT_VERSION = 'V', OPT_JSON = 256, OPT_ONLY, OPT_SUMMARY,
    OPT_NULLMOVES, OPT_RULES, OPT_CHECK, OPT_FIX, OPT_NO_ANNOTATE, OPT_TRUNCATE,
    OPT_IN_PLACE = 'i', OPT_JOBS = 'j', OPT_QUIET = 'q', OPT_STRICT = 257 + 16, OPT_MAX_ERRORS,
    OPT_PROGRESS, OPT_COLOR, OPT_NO_FACTS, OPT_EXPLAIN, OPT_ASCII, OPT_FEN, OPT_FORMAT,
    OPT_FOLLOW, OPT_INTERVAL, OPT_SETTLE, OPT_POLL, OPT_BASELINE, OPT_WRITE_BASELINE, OPT_SHOW_ACCEPTED,
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
    { "check", OPT_CHECK, no_argument, NULL,
      "print only problems, compiler style; exit 1 if any error" },
    { "strict", OPT_STRICT, no_argument, NULL, "with --check: count warnings as errors" },
    { "max-errors", OPT_MAX_ERRORS, required_argument, "N", "with --check: stop after N errors" },
    { "format", OPT_FORMAT, required_argument, "FORMAT",
      "with --check: how problems are given: gnu (default: compiler\n"
      "style lines), github (workflow commands that become\n"
      "annotations), sarif (one SARIF 2.1.0 log), junit (JUnit XML)" },
    { "baseline", OPT_BASELINE, required_argument, "FILE",
      "with --check (or --fix): accept the problems that FILE, written\n"
      "by --write-baseline, holds: they are not given and do not\n"
      "fail; its entries that no longer occur are listed at the end" },
    { "write-baseline", OPT_WRITE_BASELINE, required_argument, "FILE",
      "with --check: write every problem found to FILE as accepted\n"
      "(one JSON object per line) and exit 0" },
    { "show-accepted", OPT_SHOW_ACCEPTED, no_argument, NULL,
      "with --check: give accepted problems too (gnu and github, as\n"
      "notes; sarif and junit always say what was accepted)" },
    { "fix", OPT_FIX, no_argument, NULL,
      "write the PGN with corrected Result tags and termination\n"
      "markers; every other byte is kept" },
    { "no-annotate", OPT_NO_ANNOTATE, no_argument, NULL,
      "with --fix: add no Adjudication tag to changed games" },
    { "truncate", OPT_TRUNCATE, no_argument, NULL,
      "with --fix: also remove moves recorded after the game ended" },
    { "in-place", OPT_IN_PLACE, no_argument, NULL,
      "rewrite each FILE in place (implies --fix); safe against\n"
      "crashes: a temporary file is renamed over the original" },
    { "jobs", OPT_JOBS, required_argument, "N",
      "replay on N threads (default: the number of cores); the\n"
      "output is the same for every N" },
    { "explain", OPT_EXPLAIN, required_argument, "GAME",
      "tell the story of the games chosen by GAME, a game number or\n"
      "Tag=value (Site=https://lichess.org/abc): facts, moves, repeated\n"
      "positions and board diagrams" },
    { "ascii", OPT_ASCII, no_argument, NULL, "with --explain: draw boards in letters, not chess figures" },
    { "fen", OPT_FEN, required_argument, "FEN",
      "no PGN: the facts of one position (- : one FEN per line from\n"
      "standard input): legal moves, check, material, whether each\n"
      "side can still mate (with a helpmate line), dead or not" },
    { "follow", OPT_FOLLOW, no_argument, NULL,
      "watch the FILEs of games in progress and write one line per\n"
      "new claim, end of game, illegal move, contradicted result or\n"
      "withdrawn fact as they change (with --json: JSON lines); runs\n"
      "until interrupted; - or a FIFO: a stream of games sent again\n"
      "whole as they grow (a lichess broadcast), read to its end" },
    { "settle", OPT_SETTLE, required_argument, "SECONDS",
      "with --follow: how long what a half-written file could show\n"
      "falsely (an illegal move, unreadable text, a fact at the last\n"
      "move of a game cut short) must stay unchanged (default: 2)" },
    { "poll", OPT_POLL, no_argument, NULL,
      "with --follow: look at the files every --interval instead of\n"
      "being told of changes (for file systems without inotify)" },
    { "interval", OPT_INTERVAL, required_argument, "SECONDS",
      "with --follow: how often to look at the files (--poll) or for\n"
      "a lost directory (default: 1)" },
    { "summary", OPT_SUMMARY, no_argument, NULL, "print totals per fact, status and verdict on stderr" },
    { "progress", OPT_PROGRESS, no_argument, NULL,
      "show a progress line on stderr even when it is not a terminal\n"
      "(by default: only on a terminal, for large or piped input)" },
    { "quiet", OPT_QUIET, no_argument, NULL, "no progress line" },
    { "color", OPT_COLOR, required_argument, "WHEN",
      "colour the verdicts and --check lines: auto (default: when\n"
      "writing to a terminal and NO_COLOR is not set), always, never" },
    { "allow-null-moves", OPT_NULLMOVES, no_argument, NULL,
      "replay null moves (--, Z0, 0000, @@@@) as a pass instead of\n"
      "marking the game illegal" },
    { "no-facts", OPT_NO_FACTS, no_argument, NULL,
      "replay and check the moves but record no rule facts (to\n"
      "measure what the facts cost; the verdicts are then meaningless)" },
    { "help", OPT_HELP, no_argument, NULL, "show this help and exit" },
    { "version", OPT_VERSION, no_argument, NULL, "show the version and exit" },
};
#define NOPTIONS (sizeof option_table / sizeof option_table[0])


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
    printf("\nExit status: 0 if every input was read (and, with --check, no error was\n"
           "found), 1 if --check found an error or --fen a FEN that is not a legal\n"
           "position, 2 on a usage or I/O error.\n"
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

/* SECONDS for --settle and --interval, in milliseconds: 0.001 to 86400. */
static unsigned parse_seconds(const char *opt, const char *arg)
{
    char *end;
    errno = 0;
    double s = strtod(arg, &end);
    if (errno || *end || end == arg || !(s >= 0.001 && s <= 86400)) {
        fprintf(stderr, "pgn-arbiter: %s needs a number of seconds from 0.001 to 86400, got '%s'\n", opt, arg);
        fprintf(stderr, "Try 'pgn-arbiter --help' for more information.\n");
        exit(EXIT_USAGE);
    }
    return (unsigned)(s * 1000 + 0.5);
}

static cli_t parse_options(int argc, char **argv)
{
    cli_t cli = { .lib = { .allow_null_moves = false, .policy = ARB_RULES_FIDE },
                  .interval_ms = 1000, .settle_ms = 2000,
                  .rewrite = { .annotate = true, .truncate = false } };
    struct option longopts[NOPTIONS + 1];
    char shortopts[2 * NOPTIONS + 2];
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
    /* A leading ':' makes getopt tell a missing argument from an unknown option. */
    memmove(shortopts + 1, shortopts, ns + 1);
    shortopts[0] = ':';
    int c, color = 0;
    bool has_format = false;
    bool follow_opt = false;
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
        case OPT_PROGRESS: cli.progress = 1; break;
        case OPT_QUIET: cli.progress = -1; break;
        case OPT_COLOR:
            if (strcmp(optarg, "auto") == 0) color = 0;
            else if (strcmp(optarg, "always") == 0) color = 1;
            else if (strcmp(optarg, "never") == 0) color = -1;
            else usage_error("--color: '%s' is not auto, always or never", optarg);
            break;
        case OPT_SUMMARY: cli.summary = true; break;
        case OPT_ONLY: cli.only = parse_facts(optarg); break;
        case OPT_NULLMOVES: cli.lib.allow_null_moves = true; break;
        case OPT_NO_FACTS: cli.lib.legality_only = true; break;
        case OPT_EXPLAIN: cli.explain = optarg; break;
        case OPT_ASCII: cli.ascii = true; break;
        case OPT_FEN: cli.fen = optarg; break;
        case OPT_FOLLOW: cli.follow = true; break;
        case OPT_POLL: cli.poll = true; break;
        case OPT_INTERVAL: cli.interval_ms = parse_seconds("--interval", optarg); follow_opt = true; break;
        case OPT_SETTLE: cli.settle_ms = parse_seconds("--settle", optarg); follow_opt = true; break;
        case OPT_CHECK: cli.check = true; break;
        case OPT_BASELINE: cli.baseline_path = optarg; break;
        case OPT_WRITE_BASELINE: cli.write_baseline = optarg; break;
        case OPT_SHOW_ACCEPTED: cli.show_accepted = true; break;
        case OPT_STRICT: cli.strict = true; break;
        case OPT_FORMAT: {
            int f = format_parse(optarg);
            if (f < 0)
                usage_error("--format: '%s' is not gnu, github, sarif or junit", optarg);
            cli.format = (cli_format_t)f;
            has_format = true;
            break;
        }
        case OPT_FIX: cli.fix = true; break;
        case OPT_NO_ANNOTATE: cli.rewrite.annotate = false; break;
        case OPT_TRUNCATE: cli.rewrite.truncate = true; break;
        case OPT_IN_PLACE: cli.in_place = cli.fix = true; break;
        case OPT_JOBS: {
            char *end;
            errno = 0;
            unsigned long n = strtoul(optarg, &end, 10);
            if (errno || *end || !*optarg || n == 0 || n > 256 || optarg[0] == '-')
                usage_error("-j needs a number of threads from 1 to 256, got '%s'", optarg);
            cli.threads = (unsigned)n;
            break;
        }
        case OPT_MAX_ERRORS: {
            char *end;
            errno = 0;
            cli.max_errors = strtoull(optarg, &end, 10);
            if (errno || *end || !*optarg || cli.max_errors == 0 || optarg[0] == '-')
                usage_error("--max-errors needs a positive number, got '%s'", optarg);
            break;
        }
        case OPT_RULES:
            if (strcmp(optarg, "fide") == 0) cli.lib.policy = ARB_RULES_FIDE;
            else if (strcmp(optarg, "claim") == 0) cli.lib.policy = ARB_RULES_CLAIM;
            else usage_error("--rules: unknown policy '%s' (fide or claim)", optarg);
            break;
        case ':':
            usage_error("option '%s' needs an argument", argv[optind - 1]);
            break;
        default:
            if (optopt) {
                char opt[3] = { '-', (char)optopt, '\0' };
                usage_error("unrecognised option '%s'", opt);
            }
            usage_error("unrecognised option '%s'", argv[optind - 1]);
        }
    }
    /* Every JSON record shows the id; the checks ask for it only for games
     * with a problem (arb_game_id()), which are few. */
    cli.lib.game_id = cli.json;
    bool no_color = getenv("NO_COLOR") && *getenv("NO_COLOR");
    cli.color_out = color > 0 || (color == 0 && !no_color && isatty(1));
    cli.color_problems = color > 0 || (color == 0 && !no_color && isatty(cli.fix ? 2 : 1));
    if (cli.threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        cli.threads = n > 1 ? (unsigned)(n > 64 ? 64 : n) : 1;
    }
    /* Stopping at the Nth error is a sequential notion; so is which of two
     * identical games a baseline's one entry accepts. */
    if (cli.max_errors || cli.baseline_path || cli.write_baseline)
        cli.threads = 1;
    if (cli.baseline_path && !cli.check && !cli.fix)
        usage_error("%s", "--baseline goes with --check or --fix");
    if ((cli.write_baseline || cli.show_accepted) && !cli.check)
        usage_error("%s", "--write-baseline and --show-accepted go with --check");
    if (cli.write_baseline && cli.baseline_path)
        usage_error("%s", "--write-baseline writes a new baseline: it cannot be combined with --baseline");
    if (cli.explain && (cli.fix || cli.check || cli.json || cli.only))
        usage_error("%s", "--explain cannot be combined with --fix, --check, --json or --only");
    if (cli.fen && (cli.fix || cli.check || cli.explain || cli.only))
        usage_error("%s", "--fen cannot be combined with --fix, --check, --explain or --only");
    if (cli.ascii && !cli.explain)
        usage_error("%s", "--ascii goes with --explain");
    if (cli.explain)
        cli.threads = 1;
    if (cli.fix && (cli.json || cli.only))
        usage_error("%s", "--fix writes PGN: it cannot be combined with --json or --only");
    if (cli.check && (cli.json || cli.only))
        usage_error("%s", "--check prints problems: it cannot be combined with --json or --only");
    if ((cli.strict || cli.max_errors) && !cli.check)
        usage_error("%s", "--strict and --max-errors go with --check");
    if (has_format && !cli.check)
        usage_error("%s", "--format goes with --check");
    if (format_is_document(cli.format) && cli.fix)
        usage_error("%s", "--format=sarif and --format=junit write one document on standard output: "
                          "they cannot be combined with --fix");
    if ((cli.rewrite.truncate || !cli.rewrite.annotate) && !cli.fix)
        usage_error("%s", "--truncate and --no-annotate go with --fix");
    if ((follow_opt || cli.poll) && !cli.follow)
        usage_error("%s", "--settle, --poll and --interval go with --follow");
    if (cli.follow && (cli.fix || cli.check || cli.explain || cli.fen || cli.summary))
        usage_error("%s", "--follow cannot be combined with --fix, --check, --explain, --fen or --summary");
    return cli;
}

#ifndef NAME_MAX
#define NAME_MAX 255
#endif

/* The temporary file of --in-place for the file path, whose directory part
 * (with its '/') is dirlen bytes: .NAME.pgn-arbiter-XXXXXX, NAME cut (at a
 * character's start) so that the whole fits in NAME_MAX bytes.  NULL if
 * out of memory; the caller frees it. */
static char *temp_name(const char *path, size_t dirlen)
{
    static const char suffix[] = ".pgn-arbiter-XXXXXX";
    const char *base = path + dirlen;
    size_t n = strlen(base), room = NAME_MAX - 1 - (sizeof suffix - 1);
    if (n > room) {
        n = room;
        while (n > 0 && ((unsigned char)base[n] & 0xC0) == 0x80)
            n--;
    }
    size_t need = dirlen + 1 + n + sizeof suffix;
    char *tmp = malloc(need);
    if (tmp)
        snprintf(tmp, need, "%.*s.%.*s%s", (int)dirlen, path, (int)n, base, suffix);
    return tmp;
}

/* Whether the file at path is still the one that sb described when it was
 * read: the same file, size and time of change.  Else it was replaced or
 * written to meanwhile, and renaming the rewrite over it would lose that. */
static bool same_file(const char *path, const struct stat *sb)
{
    struct stat now;
    return stat(path, &now) == 0 && now.st_dev == sb->st_dev && now.st_ino == sb->st_ino &&
           now.st_size == sb->st_size && now.st_mtim.tv_sec == sb->st_mtim.tv_sec &&
           now.st_mtim.tv_nsec == sb->st_mtim.tv_nsec;
}

/* For the test suite only (tests/faults.sh, case replaced): if the
 * environment variable PGN_ARBITER_TEST_PAUSE names a FIFO, --in-place waits
 * before its last check until a writer has opened and closed it, so that a
 * test can change the file at that moment without depending on speed. */
static void test_pause(void)
{
    const char *fifo = getenv("PGN_ARBITER_TEST_PAUSE");
    int fd = fifo && *fifo ? open(fifo, O_RDONLY) : -1;
    if (fd < 0)
        return;
    char c;
    while (read(fd, &c, 1) > 0)
        ;
    close(fd);
}

/* --in-place: the new file is written beside the old one under a hidden
 * temporary name, synced, and renamed over it, so that a crash leaves
 * either the complete original or the complete new file. */
static bool process_in_place(const char *path, const cli_t *cli, stats_t *st)
{
    struct stat sb;
    if (strcmp(path, "-") == 0) {
        fprintf(stderr, "pgn-arbiter: --in-place needs files, not standard input\n");
        return false;
    }
    if (stat(path, &sb) != 0) {
        fprintf(stderr, "pgn-arbiter: %s: error: %s\n", path, strerror(errno));
        return false;
    }
    if (!S_ISREG(sb.st_mode)) {
        fprintf(stderr, "pgn-arbiter: %s: error: not a regular file\n", path);
        return false;
    }
    /* Rewrite what a symbolic link points to, not the link; messages name the file as given. */
    const char *name = path;
    char *real = realpath(path, NULL);
    if (real)
        path = real;
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    char *tmp = temp_name(path, dirlen);
    if (!tmp) {
        fprintf(stderr, "pgn-arbiter: %s: error: out of memory\n", path);
        free(real);
        return false;
    }
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f) {
        fprintf(stderr, "pgn-arbiter: %s: error: cannot create a temporary file: %s\n", name, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        free(tmp);
        free(real);
        return false;
    }
    /* The new file keeps the old one's permissions and, where allowed, owner. */
    bool ok = fchmod(fd, sb.st_mode & 07777) == 0;
    if (fchown(fd, sb.st_uid, sb.st_gid) != 0) {
        /* Not permitted for other users' files: the file becomes ours. */
    }
    uint64_t before = st->rewritten;
    int saved = 0;
    ok = cli_process(name, cli, st, f, stderr) && ok && !st->stop;
    if (fflush(f) != 0 || ferror(f) || fsync(fd) != 0) {
        saved = errno;
        ok = false;
    }
    if (fclose(f) != 0) {
        saved = saved ? saved : errno;
        ok = false;
    }
    bool replaced = false;
    if (ok && st->rewritten > before) {
        test_pause();
        replaced = !same_file(path, &sb);
        ok = !replaced;
    }
    if (ok && st->rewritten > before) {
        if (rename(tmp, path) != 0) {
            saved = errno;
            ok = false;
        }
        /* Make the rename itself durable. */
        char *dir = strndup(path, dirlen ? dirlen : 1);
        if (dir) {
            if (!dirlen)
                dir[0] = '.';
            int dfd = open(dir, O_RDONLY);
            if (dfd >= 0) {
                fsync(dfd);
                close(dfd);
            }
            free(dir);
        }
    }
    if (!ok || st->rewritten == before)
        unlink(tmp);
    if (!ok)
        st->rewritten = before; /* nothing was rewritten after all */
    if (replaced)
        fprintf(stderr, "pgn-arbiter: %s: error: not rewritten: the file was replaced or changed while it was "
                        "read; it is left as it is now\n", name);
    else if (!ok)
        fprintf(stderr, "pgn-arbiter: %s: error: not rewritten, the original is unchanged%s%s\n", name,
                saved ? ": " : "", saved ? strerror(saved) : "");
    free(tmp);
    free(real);
    return ok;
}

static void print_summary(const stats_t *st)
{
    fprintf(stderr, "games: %llu\nstatus:", (unsigned long long)st->games);
    for (int s = 0; s < 5; s++)
        fprintf(stderr, " %s %llu%s", arb_status_name((arb_status)s), (unsigned long long)st->status[s], s < 4 ? "," : "\n");
    fprintf(stderr, "verdict:");
    for (int v = 0; v < ARB_VERDICT_COUNT; v++)
        fprintf(stderr, " %s %llu%s", arb_verdict_name((arb_verdict)v), (unsigned long long)st->verdict[v],
                v < ARB_VERDICT_COUNT - 1 ? "," : "\n");
    fprintf(stderr, "facts:");
    for (int f = 0; f < ARB_FACT_COUNT; f++)
        fprintf(stderr, " %s %llu%s", arb_fact_name((arb_fact)f), (unsigned long long)st->fact[f],
                f < ARB_FACT_COUNT - 1 ? "," : "\n");
    fprintf(stderr, "reasons:");
    for (int c = 0; c < ARB_CHECK_COUNT; c++)
        fprintf(stderr, " %s %llu,", arb_check_name((arb_check)c), (unsigned long long)st->reason_check[c]);
    fprintf(stderr, " none %llu\n", (unsigned long long)st->no_reason);
    if (st->files_failed)
        fprintf(stderr, "unreadable inputs: %llu\n", (unsigned long long)st->files_failed);
}

/* --fen: the facts of positions, one line each.  Returns the exit status. */
static int fen_mode(const cli_t *cli, int argc)
{
    if (optind < argc)
        usage_error("%s", "--fen takes no FILE");
    /* both sides of a position at once, but with -j1 or on one core */
    sides_t *s = sides_new(cli->threads > 1);
    if (!s) {
        fprintf(stderr, "pgn-arbiter: out of memory\n");
        return EXIT_USAGE;
    }
    strbuf_t out = { 0 };
    int bad = 0;
    if (strcmp(cli->fen, "-") != 0) {
        bad += report_position_with(&out, cli->fen, sides_analyse, s, cli->json) < 0;
        cli_write(&out, 0, stdout);
    } else {
        char *line = NULL;
        size_t cap = 0;
        ssize_t n;
        while ((n = getline(&line, &cap, stdin)) > 0) {
            while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
                line[--n] = '\0';
            if (n == 0 || line[0] == '#')
                continue;
            bad += report_position_with(&out, line, sides_analyse, s, cli->json) < 0;
            if (!cli_write(&out, 0, stdout))
                break;
        }
        free(line);
    }
    strbuf_free(&out);
    sides_free(s);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "pgn-arbiter: error writing output: %s\n", strerror(errno));
        return EXIT_USAGE;
    }
    return bad ? EXIT_PROBLEMS : 0;
}

/* With -j, plain files are mapped (input_map()): if one shrinks while it
 * is read, or its storage fails, reading the lost bytes raises SIGBUS.
 * Say so, rather than "Bus error"; only async-signal-safe calls here. */
static void on_sigbus(int sig)
{
    static const char msg[] = "pgn-arbiter: error: an input file shrank, or could not be read, "
                              "while it was being read\n";
    (void)sig;
    ssize_t n = write(2, msg, sizeof msg - 1);
    (void)n;
    _exit(EXIT_USAGE);
}

/* Each input takes blocks of a few hundred KiB (its read buffers, the
 * reader's, the dead-position search's) and gives them back at its end.
 * glibc maps such blocks afresh and returns freed memory at once, so each
 * of many small files paid for its pages again: a fifth of the time on
 * files of 80 KB.  Blocks under 4 MiB come from the heap instead, and up
 * to 32 MiB of freed memory is kept for the next input; the peak, which
 * is what the process needs, stays as it was. */
static void keep_freed_memory(void)
{
#ifdef ARB_HAVE_MALLOPT
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
    mallopt(M_TRIM_THRESHOLD, 32 << 20);
#endif
}

/* --baseline read, --write-baseline's file opened; false (said) if not. */
static bool open_baselines(cli_t *cli, int argc, char **argv)
{
    if (cli->baseline_path) {
        char err[600];
        if (!(cli->baseline = baseline_load(cli->baseline_path, err, sizeof err))) {
            fprintf(stderr, "pgn-arbiter: error: --baseline: %s\n", err);
            return false;
        }
    }
    for (int i = optind; cli->baseline && i <= argc; i++)
        if (i < argc || optind == argc)
            baseline_input(cli->baseline, i < argc ? argv[i] : "-");
    if (cli->write_baseline && !(cli->baseline_out = fopen(cli->write_baseline, "w"))) {
        fprintf(stderr, "pgn-arbiter: %s: error: cannot write the baseline: %s\n", cli->write_baseline,
                strerror(errno));
        baseline_free(cli->baseline);
        return false;
    }
    return true;
}

/* The baseline's entries that accepted nothing, after every input: lines
 * on standard output, or (sarif, junit) an input of their own in the held
 * file; with --fix alone, whose standard output is the games, gnu lines on
 * standard error.  Counted into st; returns how many. */
static uint64_t list_stale(const cli_t *cli, stats_t *st, FILE *dest)
{
    strbuf_t b = { 0 };
    report_counts_t counts = { 0, 0, 0 };
    cli_format_t format = cli->check ? cli->format : CLI_FORMAT_GNU;
    size_t n = baseline_stale(cli->baseline, format, cli->strict, &b, &counts);
    if (n && format_is_document(format)) {
        format_input_begin(dest, baseline_path(cli->baseline));
        cli_write(&b, 0, dest);
        format_input_end(dest, true, n, &counts, NULL);
    } else if (n) {
        cli_write(&b, 0, dest);
    }
    strbuf_free(&b);
    st->problems.errors += counts.errors;
    st->problems.warnings += counts.warnings;
    return n;
}

int main(int argc, char **argv)
{
    /* `pgn-arbiter big.pgn | head -1`: a reader that has seen enough ends
     * us by SIGPIPE, silently, as it ends cat, even when the parent left
     * the signal ignored (which would turn it into EPIPE and an error). */
    signal(SIGPIPE, SIG_DFL);
    struct sigaction bus = { .sa_handler = on_sigbus };
    sigemptyset(&bus.sa_mask);
    sigaction(SIGBUS, &bus, NULL);
    keep_freed_memory();
    cli_t opts = parse_options(argc, argv);
    if (!open_baselines(&opts, argc, argv))
        return EXIT_USAGE;
    const cli_t cli = opts;
    if (cli.fen)
        return fen_mode(&cli, argc);
    if (cli.follow) {
        if (optind >= argc)
            usage_error("%s", "--follow needs at least one FILE");
        for (int i = optind; i < argc; i++)
            if (follow_is_stream(argv[i]) && argc - optind > 1)
                usage_error("%s", "--follow reads a stream (standard input, a FIFO) alone, without other FILEs");
        if (follow_is_stream(argv[optind]))
            return follow_stream_run(argv[optind], &cli);
        return follow_run(argv + optind, (size_t)(argc - optind), &cli);
    }
    stats_t st = { 0 };
    if (cli.in_place && optind >= argc)
        usage_error("%s", "--in-place needs at least one FILE");
    /* A document (--format=sarif or junit) is held in a temporary file
     * while the inputs are read, and written whole at the end. */
    bool document = cli.check && format_is_document(cli.format);
    FILE *dest = stdout;
    if (document && !(dest = tmpfile())) {
        fprintf(stderr, "pgn-arbiter: error: cannot create a temporary file: %s\n", strerror(errno));
        return EXIT_USAGE;
    }
    if (optind >= argc) {
        st.files_failed += !cli_process("-", &cli, &st, dest, stderr);
    } else if (cli.threads > 1 && !cli.in_place && cli.progress <= 0 && argc - optind > 1) {
        cli_process_files(argv + optind, (size_t)(argc - optind), &cli, &st, dest);
    } else {
        for (int i = optind; i < argc && !st.stop; i++) {
            if (cli.in_place)
                st.files_failed += !process_in_place(argv[i], &cli, &st);
            else
                st.files_failed += !cli_process(argv[i], &cli, &st, dest, stderr);
        }
    }
    uint64_t stale = cli.baseline ? list_stale(&cli, &st, cli.check ? dest : stderr) : 0;
    if (document) {
        if (ferror(dest) || !format_document(cli.format, dest, stdout)) {
            fprintf(stderr, "pgn-arbiter: error: the temporary file of the document failed: %s\n",
                    strerror(errno));
            fclose(dest);
            return EXIT_USAGE;
        }
        fclose(dest);
    }
    if (cli.summary)
        print_summary(&st);
    if (cli.check || cli.fix) {
        fprintf(stderr, "pgn-arbiter: %llu %s, %llu %s, %llu %s", (unsigned long long)st.games,
                st.games == 1 ? "game" : "games", st.problems.errors, st.problems.errors == 1 ? "error" : "errors",
                st.problems.warnings, st.problems.warnings == 1 ? "warning" : "warnings");
        if (st.problems.accepted || cli.baseline || cli.write_baseline)
            fprintf(stderr, ", %llu accepted", st.problems.accepted);
        if (stale)
            fprintf(stderr, ", %llu stale", (unsigned long long)stale);
        if (cli.fix)
            fprintf(stderr, ", %llu rewritten", (unsigned long long)st.rewritten);
        fprintf(stderr, "%s\n", st.stop ? " (stopped at --max-errors)" : "");
    }
    if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
        fprintf(stderr, "pgn-arbiter: error writing output: %s\n", strerror(errno));
        return EXIT_USAGE;
    }
    baseline_free(cli.baseline);
    if (cli.baseline_out && (st.baseline_failed || ferror(cli.baseline_out) | (fclose(cli.baseline_out) != 0))) {
        fprintf(stderr, "pgn-arbiter: %s: error: the baseline could not be written: %s\n", cli.write_baseline,
                strerror(errno));
        return EXIT_USAGE;
    }
    if (st.files_failed)
        return EXIT_USAGE;
    return cli.check && st.problems.errors ? EXIT_PROBLEMS : 0;
}
