/* files.c: -j N over many inputs.  A small file (under CLI_SMALL_INPUT,
 * where cutting it into pieces no longer pays for the threads) is replayed
 * whole by one worker, its output and messages kept in memory; the main
 * thread writes them in the order of the command line.  Any other input
 * (large, not a regular file, missing) is read by the main thread with
 * cli_process(), on threads of its own, once the inputs before it are
 * written; so is a small file whose output outgrows FILE_HELD_MAX (tiny
 * games), which a worker gives up.  So the output is byte for byte the
 * one-thread output, and the memory held stays bounded. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "files.h"

#include "game.h"
#include "jobq.h"
#include "process.h"

#define FILE_HELD_MAX (8u << 20) /* output held for one file, at most */

typedef struct file_job {
    const char *path;
    /* Results: what the file writes to stdout and to stderr (open_memstream). */
    char *out, *msgs;
    size_t out_len, msgs_len;
    stats_t stats;
    bool ok;                     /* cli_process() succeeded */
    bool oom;                    /* the memory streams failed: nothing to write */
} file_job_t;

/* Replays one file into memory (jobq_run_fn; ctx: the options, on one
 * thread and without a progress line). */
static void run_file(void *ctx, void *job)
{
    const cli_t *one = ctx;
    file_job_t *j = job;
    FILE *out = open_memstream(&j->out, &j->out_len);
    FILE *msgs = open_memstream(&j->msgs, &j->msgs_len);
    if (out && msgs)
        j->ok = cli_process(j->path, one, &j->stats, out, msgs);
    /* A memory stream fails only for want of memory. */
    j->oom = !out || !msgs;
    if (out && fclose(out) != 0)
        j->oom = true;
    if (msgs && fclose(msgs) != 0)
        j->oom = true;
}

static void file_job_free(file_job_t *j)
{
    if (!j)
        return;
    free(j->out);
    free(j->msgs);
    free(j);
}

/* Is path a regular file small enough to be replayed whole by a worker? */
static bool small_file(const char *path)
{
    struct stat sb;
    return strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
           sb.st_size < (off_t)CLI_SMALL_INPUT;
}

/* Waits for the oldest file, writes what it wrote and adds its totals. */
static void write_oldest(jobq_t *q, const cli_t *cli, stats_t *st, FILE *dest)
{
    file_job_t *j = jobq_at(q, 0);
    jobq_wait(q, 0);
    bool ok = j->ok && !j->oom;
    if (j->stats.held_over) {
        /* Too much to hold: read again on this thread, written as it goes. */
        st->files_failed += !cli_process(j->path, cli, st, dest, stderr);
        jobq_remove(q, 0);
        file_job_free(j);
        return;
    }
    if (j->oom) {
        fprintf(stderr, "pgn-arbiter: %s: error: out of memory\n", j->path);
    } else {
        if (j->out_len && fwrite(j->out, 1, j->out_len, dest) != j->out_len) {
            fprintf(stderr, "pgn-arbiter: %s: error writing output: %s\n", j->path, strerror(errno));
            ok = false;
        }
        fwrite(j->msgs, 1, j->msgs_len, stderr);
    }
    cli_add_stats(st, &j->stats);
    st->files_failed += !ok;
    jobq_remove(q, 0);
    file_job_free(j);
}

void cli_process_files(char *const *paths, size_t n, const cli_t *cli, stats_t *st, FILE *dest)
{
    cli_t one = *cli;
    one.threads = 1;
    one.progress = -1;
    one.held_max = FILE_HELD_MAX;
    jobq_t *q = jobq_new(cli->threads, 2 * (size_t)cli->threads + 2, run_file, &one);
    size_t next = 0;
    while (next < n || (q && jobq_count(q))) {
        /* Hand out the small files that come next, as many as fit. */
        file_job_t *j = NULL;
        while (q && next < n && !jobq_full(q) && small_file(paths[next]) && (j = calloc(1, sizeof *j))) {
            j->path = paths[next++];
            jobq_put(q, j);
        }
        if (q && jobq_count(q)) {
            write_oldest(q, cli, st, dest);
        } else {
            /* Another kind of input (or no threads, or no memory for a
             * job): in turn, on this thread. */
            st->files_failed += !cli_process(paths[next], cli, st, dest, stderr);
            next++;
        }
    }
    jobq_free(q);
}
