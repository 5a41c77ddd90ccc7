/* follow_util.c: what the two loops of --follow share (follow_util.h).
 *
 * SIGINT and SIGTERM only set a flag and write a byte to a pipe that
 * poll() watches (the self-pipe), so the loop wakes, writes what it holds
 * and returns.  The handler can reach nothing but these two statics. */
#include "follow_util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested;
static int pipefd[2] = { -1, -1 };

static void on_stop(int sig)
{
    (void)sig;
    int saved = errno;
    stop_requested = 1;
    if (pipefd[1] >= 0) {
        ssize_t n = write(pipefd[1], "", 1);
        (void)n;
    }
    errno = saved;
}

bool follow_catch_stop(void)
{
    if (pipe(pipefd) != 0) {
        fprintf(stderr, "pgn-arbiter: cannot make a pipe: %s\n", strerror(errno));
        pipefd[0] = pipefd[1] = -1;
        return false;
    }
    for (int i = 0; i < 2; i++)
        fcntl(pipefd[i], F_SETFL, fcntl(pipefd[i], F_GETFL) | O_NONBLOCK);
    struct sigaction sa = { .sa_handler = on_stop };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    return true;
}

int follow_wake_fd(void)
{
    return pipefd[0];
}

bool follow_stop_requested(void)
{
    return stop_requested != 0;
}

const volatile sig_atomic_t *follow_stop_flag(void)
{
    return &stop_requested;
}

void follow_release_stop(void)
{
    int w = pipefd[1];
    pipefd[1] = -1; /* the handler writes no more */
    if (w >= 0)
        close(w);
    if (pipefd[0] >= 0)
        close(pipefd[0]);
    pipefd[0] = -1;
}

double follow_monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

bool follow_flush_out(strbuf_t *out)
{
    bool ok = !out->oom && (out->len == 0 || fwrite(out->data, 1, out->len, stdout) == out->len);
    strbuf_clear(out);
    return fflush(stdout) == 0 && ok;
}

bool follow_only_space(const char *s, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
            return false;
    return true;
}
