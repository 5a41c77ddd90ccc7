/* progress.c: games, megabytes, speed and time left, on stderr. */
#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_start(progress_t *p, bool on, bool forced, const char *name, uint64_t size)
{
    p->on = on;
    p->forced = forced;
    p->tty = isatty(2);
    p->name = name;
    p->size = size;
    p->start = p->last = now();
    p->shown = false;
}

static void show(progress_t *p, double t, uint64_t done, uint64_t games)
{
    double mb = (double)done / 1e6, rate = mb / (t - p->start > 1e-9 ? t - p->start : 1e-9);
    char eta[32] = "";
    if (p->size && done <= p->size && rate > 0) {
        double left = ((double)(p->size - done) / 1e6) / rate;
        unsigned s = (unsigned)(left + 0.5);
        snprintf(eta, sizeof eta, ", ETA %u:%02u:%02u", s / 3600, s / 60 % 60, s % 60);
    }
    fprintf(stderr, "%spgn-arbiter: %s: %llu games, %.1f MB, %.1f MB/s%s%s", p->tty ? "\r\033[K" : "",
            p->name, (unsigned long long)games, mb, rate, eta, p->tty ? "" : "\n");
    fflush(stderr);
    p->shown = true;
}

void progress_update(progress_t *p, uint64_t done, uint64_t games)
{
    if (!p->on)
        return;
    double t = now();
    if (t - p->start < 1.0)
        return; /* short runs show nothing */
    /* A terminal line is redrawn four times a second; a log gets a line a second. */
    if (t - p->last < (p->tty ? 0.25 : 1.0))
        return;
    p->last = t;
    show(p, t, done, games);
}

void progress_end(progress_t *p, uint64_t done, uint64_t games)
{
    if (p->on && p->shown && p->tty)
        fputs("\r\033[K", stderr);
    else if (p->on && p->forced && !p->tty)
        show(p, now(), done, games);
    p->shown = false;
}
