/* process.c: one input, read the way that suits it (process.h). */
#include "process.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "explain.h"
#include "game.h"
#include "input.h"
#include "parallel.h"
#include "stream.h"

/* Does g match the --explain selector: its number, or Tag=value? */
static bool selected(const char *sel, const arb_game *g)
{
    const char *eq = strchr(sel, '=');
    if (!eq) {
        char *end;
        unsigned long long n = strtoull(sel, &end, 10);
        return !*end && n == g->number;
    }
    size_t nlen = (size_t)(eq - sel);
    for (size_t i = 0; i < g->ntags; i++)
        if (g->tags[i].name_len == nlen && memcmp(g->tags[i].name, sel, nlen) == 0 &&
            strcmp(g->tags[i].value, eq + 1) == 0)
            return true;
    return false;
}

/* --explain: keeps the bytes since the last game so that a chosen game can
 * be told from its own text.  Returns false on an I/O error; *found counts
 * the games told. */
static bool explain_stream(input_t *in, const char *name, const cli_t *cli, stats_t *st, uint64_t *found)
{
    char err[256];
    strbuf_t win = { 0 }, out = { 0 };
    uint64_t base = 0; /* stream offset of win.data[0] */
    arb_reader *r = arb_reader_new(&cli->lib);
    char *chunk = malloc(CLI_CHUNK);
    bool ok = r && chunk, done = false;
    while (ok && !done) {
        ssize_t n = input_read(in, chunk, CLI_CHUNK, err, sizeof err);
        if (n < 0) {
            fprintf(stderr, "pgn-arbiter: %s: error: %s\n", name, err);
            ok = false;
            break;
        }
        if (n == 0) {
            arb_reader_finish(r);
            done = true;
        } else {
            arb_reader_feed(r, chunk, (size_t)n);
            strbuf_append(&win, chunk, (size_t)n);
        }
        const arb_game *g;
        while ((g = arb_reader_next(r, NULL)) != NULL) {
            st->games++;
            if (selected(cli->explain, g) && g->where.offset >= base) {
                char head[512];
                snprintf(head, sizeof head, "%s:%llu: game %llu", name, (unsigned long long)g->where.line,
                         (unsigned long long)g->number);
                if (*found)
                    strbuf_puts(&out, "\n");
                if (explain_game_opt(win.data + (g->where.offset - base), (size_t)(g->where.end - g->where.offset),
                                     head, cli->ascii, &cli->lib, &out) < 0)
                    ok = false;
                (*found)++;
                if (!cli_write(&out, 0, stdout)) {
                    fprintf(stderr, "pgn-arbiter: error writing output: %s\n", strerror(errno));
                    ok = false;
                }
            }
            /* Only the game under way is kept. */
            size_t drop = (size_t)(g->where.end - base);
            if (drop > win.len)
                drop = win.len;
            memmove(win.data, win.data + drop, win.len - drop);
            win.len -= drop;
            base += drop;
        }
        if (win.oom || out.oom)
            ok = false;
    }
    if (!r || !chunk || win.oom || out.oom)
        fprintf(stderr, "pgn-arbiter: %s: error: out of memory\n", name);
    strbuf_free(&win);
    strbuf_free(&out);
    arb_reader_free(r);
    free(chunk);
    return ok;
}

static bool process(const char *path, const cli_t *cli, stats_t *st, FILE *dest, FILE *msgs);

bool cli_process(const char *path, const cli_t *cli, stats_t *st, FILE *dest, FILE *msgs)
{
    if (!cli->check || !format_is_document(cli->format))
        return process(path, cli, st, dest, msgs);
    /* A document says why an input was not read to its end: the messages
     * are kept (they are few: reading stops at the first) and passed on. */
    char *said = NULL;
    size_t said_len = 0;
    FILE *kept = open_memstream(&said, &said_len);
    uint64_t games = st->games;
    report_counts_t before = st->problems;
    format_input_begin(dest, path);
    bool ok = process(path, cli, st, dest, kept ? kept : msgs);
    if (kept && fclose(kept) != 0) {
        free(said);
        said = NULL;
        said_len = 0;
    }
    if (said_len)
        fwrite(said, 1, said_len, msgs);
    /* The first message, without the program's name and the input's. */
    const char *why = said ? said : "";
    size_t skip = strlen("pgn-arbiter: ") + strlen(path) + strlen(": ");
    if (said_len > skip && strncmp(why, "pgn-arbiter: ", 13) == 0 && strncmp(why + 13, path, strlen(path)) == 0)
        why += skip;
    if (strncmp(why, "error: ", 7) == 0)
        why += 7;
    char *eol = said ? strchr(why, '\n') : NULL;
    if (eol)
        *eol = '\0';
    report_counts_t found = { st->problems.errors - before.errors, st->problems.warnings - before.warnings,
                             st->problems.accepted - before.accepted };
    format_input_end(dest, ok, st->games - games, &found, ok ? NULL : why);
    free(said);
    return ok;
}

static bool process(const char *path, const cli_t *cli, stats_t *st, FILE *dest, FILE *msgs)
{
    char err[256];
    input_t *in = input_open(path, err, sizeof err);
    if (!in) {
        fprintf(msgs, "pgn-arbiter: %s: error: %s\n", path, err);
        return false;
    }
    if (cli->in_place && input_is_compressed(in)) {
        fprintf(msgs, "pgn-arbiter: %s: error: compressed files are not rewritten in place; "
                      "decompress it, or use --fix and recompress the output\n", path);
        input_close(in);
        return false;
    }
    /* A progress line for large or piped input read into a terminal. */
    uint64_t done_bytes, size;
    input_position(in, &done_bytes, &size);
    bool show = cli->progress > 0 || (cli->progress == 0 && isatty(2) && (size == 0 || size >= (64u << 20)));
    progress_start(&st->progress, show, cli->progress > 0, path, size);
    st->games_before = st->games;
    bool ok;
    if (cli->explain) {
        uint64_t found = 0;
        ok = explain_stream(in, path, cli, st, &found);
        if (ok && !found)
            fprintf(stderr, "pgn-arbiter: %s: no game matches '%s'\n", path, cli->explain);
    } else {
        /* Starting threads costs more than they save on a small plain
         * file (a few pieces at most): it is read on this thread. */
        bool small = size > 0 && size < CLI_SMALL_INPUT && !input_is_compressed(in);
        ok = cli->threads > 1 && !small ? cli_process_parallel(in, path, cli, st, dest, msgs)
                                        : cli_stream(in, path, cli, st, dest, msgs, NULL, 0, 0, 1, NULL, 0);
    }
    input_position(in, &done_bytes, &size);
    progress_end(&st->progress, done_bytes, st->games - st->games_before);
    input_close(in);
    return ok;
}
