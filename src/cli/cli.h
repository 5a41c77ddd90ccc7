/* cli.h: what every part of the program shares: the options (cli_t, built
 * once by main.c and passed down const) and the totals (stats_t). */
#ifndef ARB_CLI_H
#define ARB_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "format.h"
#include "progress.h"
#include "pgnarbiter.h"
#include "report.h"
#include "rewrite.h"

/* A plain file smaller than this is replayed on one thread: cutting it
 * into pieces costs more than the pieces save (measured: -j2 breaks even
 * at about 512 KiB).  With several inputs, such files are shared out
 * whole among the threads instead (cli_process_files()). */
#define CLI_SMALL_INPUT (512u << 10)

typedef struct cli {
    bool json, summary, check, fix, in_place, strict;
    unsigned only;                 /* bit per arb_fact; 0 = keep every game */
    unsigned long long max_errors; /* 0 = no limit */
    unsigned threads;              /* -j: 1 = no worker threads */
    bool color_out;                /* ANSI colour in text reports and --check lines */
    bool color_problems;           /* ... in --check lines (they go to stderr with --fix) */
    cli_format_t format;           /* --format: how --check gives its problems */
    int progress;                  /* -1 never (-q), 0 when stderr is a terminal, 1 always */
    const char *explain;           /* --explain: a game number or Tag=value, NULL if not */
    bool ascii;                    /* --ascii: diagrams in letters */
    const char *fen;               /* --fen: a position to judge, "-" for stdin, NULL if not */
    bool follow;                   /* --follow: watch the FILEs and report new facts as events */
    bool poll;                     /* --poll: stat the files every interval_ms, no inotify */
    unsigned interval_ms;          /* --interval: poll period, milliseconds, 1.. */
    unsigned settle_ms;            /* --settle: how long an uncertain event must stay unchanged */
    size_t held_max;               /* cli_stream() stops once it has written this much (0: no
                                      limit): a worker's file, held in memory until its turn */
    rewrite_options_t rewrite;
    arb_options lib;
    const char *baseline_path;     /* --baseline: FILE, NULL if none */
    const char *write_baseline;    /* --write-baseline: FILE, NULL if none */
    bool show_accepted;            /* --show-accepted: gnu and github give accepted problems too */
    struct baseline *baseline;     /* --baseline, read (main.c); entries used as games are read */
    FILE *baseline_out;            /* --write-baseline's file, open while the inputs are read */
} cli_t;

typedef struct stats {
    uint64_t games, files_failed, rewritten;
    uint64_t status[5], verdict[ARB_VERDICT_COUNT], fact[ARB_FACT_COUNT];
    uint64_t reason_check[ARB_CHECK_COUNT], no_reason; /* games per check of their reason, and without one */
    report_counts_t problems;
    bool stop;                     /* --max-errors reached, or held_over */
    bool held_over;                /* stopped at cli_t.held_max */
    bool baseline_failed;          /* an entry could not be written to --write-baseline's file */
    progress_t progress;           /* the progress line of the input being read */
    uint64_t games_before;         /* games read before the input being read */
} stats_t;

#endif
