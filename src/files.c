/* files.c: -j N over many inputs.  A small file (under CLI_SMALL_INPUT,
 * where cutting it into pieces no longer pays for the threads) is replayed
 * whole by one worker, its output and messages kept in memory; the main
 * thread writes them in the order of the command line.  Any other input
 * (large, not a regular file, missing) is read by the main thread with
 * cli_process(), on threads of its own, once the inputs before it are
 * written.  So the output is byte for byte the one-thread output. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

enum file_state { QUEUED, RUNNING, DONE };

typedef struct file_job {
    const char *path;
    enum file_state state;
    /* Results: what the file writes to stdout and to stderr (open_memstream). */
    char *out, *msgs;
    size_t out_len, msgs_len;
    stats_t stats;
    bool ok;                     /* cli_process() succeeded */
    bool oom;                    /* the memory streams failed: nothing to write */
} file_job_t;

typedef struct file_pool {
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    file_job_t *ring;            /* the files in flight, oldest at `head` */
    size_t cap, head, count;
    bool quit;
    cli_t one;                   /* the options, on one thread, without a progress line */
} file_pool_t;

static file_job_t *ring_at(file_pool_t *p, size_t i)
{
    return &p->ring[(p->head + i) % p->cap];
}

/* Replays one file into memory. */
static void run_file(const cli_t *one, file_job_t *j)
{
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

static void *file_worker(void *arg)
{
    file_pool_t *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        file_job_t *j = NULL;
        for (size_t i = 0; i < p->count && !j; i++)
            if (ring_at(p, i)->state == QUEUED)
                j = ring_at(p, i);
        if (!j) {
            if (p->quit)
                break;
            pthread_cond_wait(&p->work, &p->mu);
            continue;
        }
        j->state = RUNNING;
        pthread_mutex_unlock(&p->mu);
        run_file(&p->one, j);
        pthread_mutex_lock(&p->mu);
        j->state = DONE;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Is path a regular file small enough to be replayed whole by a worker? */
static bool small_file(const char *path)
{
    struct stat sb;
    return strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
           sb.st_size < (off_t)CLI_SMALL_INPUT;
}

/* Waits for the oldest file, writes what it wrote and adds its totals. */
static void write_oldest(file_pool_t *p, stats_t *st)
{
    pthread_mutex_lock(&p->mu);
    file_job_t *j = ring_at(p, 0);
    while (j->state != DONE)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
    bool ok = j->ok && !j->oom;
    if (j->oom) {
        fprintf(stderr, "pgn-arbiter: %s: error: out of memory\n", j->path);
    } else {
        if (j->out_len && fwrite(j->out, 1, j->out_len, stdout) != j->out_len) {
            fprintf(stderr, "pgn-arbiter: %s: error writing output: %s\n", j->path, strerror(errno));
            ok = false;
        }
        fwrite(j->msgs, 1, j->msgs_len, stderr);
    }
    cli_add_stats(st, &j->stats);
    st->files_failed += !ok;
    free(j->out);
    free(j->msgs);
    pthread_mutex_lock(&p->mu);
    p->head = (p->head + 1) % p->cap;
    p->count--;
    pthread_mutex_unlock(&p->mu);
}

void cli_process_files(char *const *paths, size_t n, const cli_t *cli, stats_t *st)
{
    file_pool_t p = { .cap = 2 * (size_t)cli->threads + 2, .one = *cli };
    p.one.threads = 1;
    p.one.progress = -1;
    p.ring = calloc(p.cap, sizeof *p.ring);
    pthread_t *threads = calloc(cli->threads, sizeof *threads);
    unsigned started = 0;
    if (p.ring && threads) {
        pthread_mutex_init(&p.mu, NULL);
        pthread_cond_init(&p.work, NULL);
        pthread_cond_init(&p.done, NULL);
        for (; started < cli->threads; started++)
            if (pthread_create(&threads[started], NULL, file_worker, &p) != 0)
                break;
    }
    size_t next = 0;
    while (next < n || p.count) {
        /* Hand out the small files that come next, as many as fit. */
        while (started && next < n && p.count < p.cap && small_file(paths[next])) {
            pthread_mutex_lock(&p.mu);
            file_job_t *j = ring_at(&p, p.count);
            *j = (file_job_t){ .path = paths[next++], .state = QUEUED };
            p.count++;
            pthread_cond_signal(&p.work);
            pthread_mutex_unlock(&p.mu);
        }
        if (p.count) {
            write_oldest(&p, st);
        } else {
            /* Another kind of input (or no threads): in turn, on this thread. */
            st->files_failed += !cli_process(paths[next], cli, st, stdout, stderr);
            next++;
        }
    }
    if (started) {
        pthread_mutex_lock(&p.mu);
        p.quit = true;
        pthread_cond_broadcast(&p.work);
        pthread_mutex_unlock(&p.mu);
        for (unsigned i = 0; i < started; i++)
            pthread_join(threads[i], NULL);
    }
    if (p.ring && threads) {
        pthread_mutex_destroy(&p.mu);
        pthread_cond_destroy(&p.work);
        pthread_cond_destroy(&p.done);
    }
    free(p.ring);
    free(threads);
}
