/* jobq.c: an ordered queue of jobs and the worker threads that run them. */
#include "jobq.h"

#include <stdlib.h>
#include <string.h>

enum job_state { QUEUED, RUNNING, DONE };

struct jobq {
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    void **jobs;                 /* oldest first */
    unsigned char *state;        /* enum job_state of jobs[i] */
    size_t count, cap;
    bool quit;
    jobq_run_fn *run;
    void *ctx;
    pthread_t *threads;
    unsigned started;
};

static void *worker(void *arg)
{
    jobq_t *q = arg;
    pthread_mutex_lock(&q->mu);
    for (;;) {
        size_t i = 0;
        while (i < q->count && q->state[i] != QUEUED)
            i++;
        if (i == q->count) {
            if (q->quit)
                break;
            pthread_cond_wait(&q->work, &q->mu);
            continue;
        }
        void *job = q->jobs[i];
        q->state[i] = RUNNING;
        pthread_mutex_unlock(&q->mu);
        q->run(q->ctx, job);
        pthread_mutex_lock(&q->mu);
        /* The queue may have moved while the job ran: find it again. */
        i = 0;
        while (q->jobs[i] != job)
            i++;
        q->state[i] = DONE;
        pthread_cond_broadcast(&q->done);
    }
    pthread_mutex_unlock(&q->mu);
    return NULL;
}

jobq_t *jobq_new(unsigned threads, size_t cap, jobq_run_fn *run, void *ctx)
{
    jobq_t *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    q->jobs = calloc(cap, sizeof *q->jobs);
    q->state = calloc(cap, 1);
    q->threads = calloc(threads, sizeof *q->threads);
    if (!q->jobs || !q->state || !q->threads) {
        free(q->jobs);
        free(q->state);
        free(q->threads);
        free(q);
        return NULL;
    }
    q->cap = cap;
    q->run = run;
    q->ctx = ctx;
    pthread_mutex_init(&q->mu, NULL);
    pthread_cond_init(&q->work, NULL);
    pthread_cond_init(&q->done, NULL);
    while (q->started < threads && pthread_create(&q->threads[q->started], NULL, worker, q) == 0)
        q->started++;
    if (!q->started) {
        jobq_free(q);
        return NULL;
    }
    return q;
}

void jobq_stop(jobq_t *q)
{
    if (q->quit)
        return;
    pthread_mutex_lock(&q->mu);
    q->quit = true;
    /* Jobs not yet taken stay untaken. */
    for (size_t i = 0; i < q->count; i++)
        if (q->state[i] == QUEUED)
            q->state[i] = DONE;
    pthread_cond_broadcast(&q->work);
    pthread_mutex_unlock(&q->mu);
    for (unsigned i = 0; i < q->started; i++)
        pthread_join(q->threads[i], NULL);
}

void jobq_free(jobq_t *q)
{
    if (!q)
        return;
    jobq_stop(q);
    pthread_mutex_destroy(&q->mu);
    pthread_cond_destroy(&q->work);
    pthread_cond_destroy(&q->done);
    free(q->jobs);
    free(q->state);
    free(q->threads);
    free(q);
}

size_t jobq_count(const jobq_t *q)
{
    return q->count;
}

bool jobq_full(const jobq_t *q)
{
    return q->count == q->cap;
}

void *jobq_at(const jobq_t *q, size_t i)
{
    return q->jobs[i];
}

void jobq_put(jobq_t *q, void *job)
{
    pthread_mutex_lock(&q->mu);
    q->jobs[q->count] = job;
    q->state[q->count] = QUEUED;
    q->count++;
    pthread_cond_signal(&q->work);
    pthread_mutex_unlock(&q->mu);
}

void jobq_wait(jobq_t *q, size_t i)
{
    pthread_mutex_lock(&q->mu);
    while (q->state[i] != DONE)
        pthread_cond_wait(&q->done, &q->mu);
    pthread_mutex_unlock(&q->mu);
}

void jobq_remove(jobq_t *q, size_t i)
{
    pthread_mutex_lock(&q->mu);
    memmove(&q->jobs[i], &q->jobs[i + 1], (q->count - i - 1) * sizeof q->jobs[0]);
    memmove(&q->state[i], &q->state[i + 1], q->count - i - 1);
    q->count--;
    pthread_mutex_unlock(&q->mu);
}

pthread_mutex_t *jobq_lock(jobq_t *q)
{
    return &q->mu;
}
