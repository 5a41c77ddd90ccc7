/* jobq.h: jobs that worker threads run in the order they were queued, and
 * that the queuing thread takes back in that order: the shape of -j, over
 * the pieces of one input (parallel.c) and over many inputs (files.c). */
#ifndef ARB_JOBQ_H
#define ARB_JOBQ_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct jobq jobq_t;

/* What a worker does with a job: run(ctx, job), without the queue's lock. */
typedef void jobq_run_fn(void *ctx, void *job);

/* A queue with room for cap jobs, and up to `threads` workers.  NULL if
 * out of memory or if no thread could start. */
jobq_t *jobq_new(unsigned threads, size_t cap, jobq_run_fn *run, void *ctx);

/* Waits for the jobs being run and stops the workers; the jobs not yet
 * taken are not run.  The jobs stay in q (jobq_at()), the caller's to free. */
void jobq_stop(jobq_t *q);

/* Stops the workers (jobq_stop()) and frees q, not the jobs. */
void jobq_free(jobq_t *q);

/* Jobs in the queue: queued, running or done, until jobq_remove(). */
size_t jobq_count(const jobq_t *q);
bool jobq_full(const jobq_t *q);

/* The i-th oldest job.  The queuing thread may call it at any time; a
 * worker, only under jobq_lock(). */
void *jobq_at(const jobq_t *q, size_t i);

/* Appends a job (the queue must not be full); a worker takes it once the
 * jobs before it are taken. */
void jobq_put(jobq_t *q, void *job);

/* Waits until the i-th oldest job has been run. */
void jobq_wait(jobq_t *q, size_t i);

/* Takes the i-th oldest job out of the queue (it must not be running). */
void jobq_remove(jobq_t *q, size_t i);

/* The queue's lock, for what the jobs share among themselves: a running
 * job may take it, and wait on a condition of its own with it. */
pthread_mutex_t *jobq_lock(jobq_t *q);

#endif
