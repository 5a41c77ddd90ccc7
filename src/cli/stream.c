/* stream.c: one input read on the calling thread (stream.h). */
#include "stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

bool cli_stream(input_t *in, const char *name, const cli_t *cli, stats_t *st, FILE *dest, FILE *msgs,
                const char *pre, size_t pre_len, uint64_t offset, uint64_t line, const char *eol_before,
                uint64_t base)
{
    char err[256];
    strbuf_t out = { 0 }, problems = { 0 }, diag = { 0 };
    out.track_numbers = problems.track_numbers = diag.track_numbers = base > 0;
    /* With --fix, PGN goes to dest and problems to the messages. */
    FILE *problem_dest = cli->fix ? msgs : dest;
    arb_reader *r = arb_reader_new(&cli->lib);
    rewriter_t *w = cli->fix ? rewrite_new(cli->rewrite) : NULL;
    char *chunk = malloc(CLI_CHUNK);
    if (!r || (cli->fix && !w) || !chunk) {
        fprintf(msgs, "pgn-arbiter: %s: error: out of memory\n", name);
        arb_reader_free(r);
        rewrite_free(w);
        free(chunk);
        return false;
    }
    if (offset) {
        arb_reader_set_origin(r, offset, line);
        if (w)
            rewrite_set_origin(w, offset, eol_before);
    }
    bool ok = true, done = false;
    size_t written = 0; /* bytes to dest and msgs so far, for cli->held_max */
    while (!done && !st->stop) {
        const char *bytes = chunk;
        ssize_t n;
        if (pre_len) {
            bytes = pre;
            n = (ssize_t)pre_len;
            pre_len = 0;
        } else {
            n = input_read(in, chunk, CLI_CHUNK, err, sizeof err);
        }
        if (n < 0) {
            fprintf(msgs, "pgn-arbiter: %s: error: %s (after %llu games)\n", name, err,
                    (unsigned long long)(st->games - st->games_before));
            ok = false;
            break;
        }
        if (n == 0) {
            arb_reader_finish(r);
            done = true;
        } else {
            arb_reader_feed(r, bytes, (size_t)n);
            if (w) {
                /* The head of a game too long to hold goes out as it is. */
                rewrite_spill(w, &out);
                if (out.len >= (64u << 10)) {
                    written += out.len;
                    if (!cli_write(&out, base, dest)) {
                        fprintf(msgs, "pgn-arbiter: %s: error writing output: %s\n", name, strerror(errno));
                        ok = false;
                        break;
                    }
                }
            }
            if (w && rewrite_feed(w, bytes, (size_t)n) < 0) {
                fprintf(msgs, "pgn-arbiter: %s: error: out of memory\n", name);
                ok = false;
                break;
            }
        }
        const arb_game *g;
        bool oom = false;
        while (!st->stop && (g = arb_reader_next(r, &oom)) != NULL) {
            cli_handle_game(cli, st, name, g, &out, &problems, &diag, w);
            if (cli->held_max && written + out.len + problems.len + diag.len > cli->held_max) {
                st->stop = st->held_over = true;
                break;
            }
            written += diag.len;
            cli_write(&diag, base, msgs);
            if (out.len >= (64u << 10)) {
                written += out.len;
                if (!cli_write(&out, base, dest)) {
                    fprintf(msgs, "pgn-arbiter: %s: error writing output: %s\n", name, strerror(errno));
                    ok = false;
                    done = true;
                    break;
                }
            }
            if (problems.len >= (16u << 10)) {
                written += problems.len;
                cli_write(&problems, base, problem_dest);
            }
        }
        if (oom) {
            fprintf(msgs, "pgn-arbiter: %s: error: out of memory\n", name);
            ok = false;
            break;
        }
        uint64_t done_bytes, size;
        input_position(in, &done_bytes, &size);
        progress_update(&st->progress, done_bytes, st->games - st->games_before);
    }
    if (w && ok && !st->stop)
        rewrite_finish(w, &out);
    if (!cli_write(&out, base, dest)) {
        fprintf(msgs, "pgn-arbiter: %s: error writing output: %s\n", name, strerror(errno));
        ok = false;
    }
    cli_write(&problems, base, problem_dest);
    cli_write(&diag, base, msgs);
    strbuf_free(&out);
    strbuf_free(&problems);
    strbuf_free(&diag);
    rewrite_free(w);
    arb_reader_free(r);
    free(chunk);
    return ok;
}

