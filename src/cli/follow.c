/* follow.c: the watch loop of --follow (follow.h).
 *
 * Broadcast software rewrites a round's file whole after every move: in
 * place (truncate, then write) or by writing another file and renaming it
 * over the first.  So the directory is watched, not the file: a rename
 * replaces the file's inode, and a watch on the old inode would see
 * nothing more.  A write in place is seen while under way (IN_MODIFY for
 * each write() of the writer): the file is read once the writer closes it,
 * or 50 ms after the first change if it keeps it open, so that a large
 * file is not read once per write() of its writer.  Whatever is read,
 * complete or not, goes to events.c, which knows what a half-written file
 * may show falsely.
 *
 * The loop sleeps in poll() until a change, a waiting event's settle time,
 * the next stat() round (--poll, or no inotify), or a signal.  SIGINT and
 * SIGTERM only set a flag and write a byte to a pipe that poll() watches
 * (the self-pipe of follow_util.c), so the loop wakes, writes what it
 * holds and returns. */
#include "follow.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_SYS_INOTIFY_H
#include <sys/inotify.h>
#endif

#include "events.h"
#include "follow_util.h"

#define DEBOUNCE 0.05 /* seconds: a file still open for writing is read this long after its first change */

typedef struct watched {
    const char *path; /* as given */
    char *dir;        /* its directory, watched */
    const char *base; /* its name in dir */
    int wd;           /* inotify watch descriptor, -1 if none */
    events_t *ev;
    char *text, *next; /* the text last read; the buffer of the next read */
    size_t len, cap, next_cap;
    bool have_text;
    bool dirty;        /* changed since it was last read */
    double read_at;    /* when to read it, while dirty (monotonic seconds) */
    struct stat sb;    /* the last stat() (polling) */
    bool have_sb;
    int last_errno;    /* the error of the last failed read, 0 if none (said once) */
} watched_t;

/* Reads the whole file into w->next; true if it now holds a text that
 * differs from the last one (which it then replaces).  A file that cannot
 * be read (gone between a rename's unlink and link, not yet created) is
 * said once and waited for. */
static bool read_file(watched_t *w)
{
    int fd = open(w->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno != w->last_errno)
            fprintf(stderr, "pgn-arbiter: %s: %s; waiting for it\n", w->path, strerror(errno));
        w->last_errno = errno;
        return false;
    }
    size_t len = 0;
    for (;;) {
        if (len == w->next_cap) {
            size_t cap = w->next_cap ? 2 * w->next_cap : 1u << 16;
            char *p = realloc(w->next, cap);
            if (!p) {
                close(fd);
                fprintf(stderr, "pgn-arbiter: %s: out of memory\n", w->path);
                return false;
            }
            w->next = p;
            w->next_cap = cap;
        }
        ssize_t n = read(fd, w->next + len, w->next_cap - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            if (errno != w->last_errno)
                fprintf(stderr, "pgn-arbiter: %s: %s\n", w->path, strerror(errno));
            w->last_errno = errno;
            close(fd);
            return false;
        }
        if (n == 0)
            break;
        len += (size_t)n;
    }
    close(fd);
    if (w->last_errno)
        fprintf(stderr, "pgn-arbiter: %s: readable again\n", w->path);
    w->last_errno = 0;
    if (w->have_text && len == w->len && memcmp(w->text, w->next, len) == 0)
        return false;
    char *t = w->text;
    size_t c = w->cap;
    w->text = w->next;
    w->cap = w->next_cap;
    w->len = len;
    w->next = t;
    w->next_cap = c;
    w->have_text = true;
    return true;
}

/* True if the file may have changed since the last look.  File times are
 * kept in the kernel's coarse clock (a few milliseconds), so a rewrite of
 * the same size soon after a look can leave size and times as they were:
 * a file modified in the last two seconds is read again anyway (an
 * unchanged text costs a comparison, no replay). */
static bool stat_changed(watched_t *w)
{
    struct stat sb;
    if (stat(w->path, &sb) != 0)
        return !w->have_sb ? false : (w->have_sb = false, true);
    bool changed = !w->have_sb || sb.st_ino != w->sb.st_ino || sb.st_dev != w->sb.st_dev ||
                   sb.st_size != w->sb.st_size || sb.st_mtim.tv_sec != w->sb.st_mtim.tv_sec ||
                   sb.st_mtim.tv_nsec != w->sb.st_mtim.tv_nsec || sb.st_ctim.tv_sec != w->sb.st_ctim.tv_sec ||
                   sb.st_ctim.tv_nsec != w->sb.st_ctim.tv_nsec || time(NULL) - sb.st_mtim.tv_sec <= 2;
    w->sb = sb;
    w->have_sb = true;
    return changed;
}

#ifdef HAVE_SYS_INOTIFY_H
/* Marks the files an inotify event names as changed. */
static void inotify_drain(int ifd, watched_t *w, size_t n, double now)
{
    union {
        struct inotify_event first; /* aligns the buffer for the events */
        char bytes[8192];
    } u;
    char *buf = u.bytes;
    for (;;) {
        ssize_t len = read(ifd, buf, sizeof u.bytes);
        if (len <= 0)
            return;
        for (char *p = buf; p < buf + len;) {
            const struct inotify_event *ie = (const struct inotify_event *)p;
            p += sizeof *ie + ie->len;
            for (size_t i = 0; i < n; i++) {
                bool all = ie->mask & IN_Q_OVERFLOW;
                if (!all && (ie->wd != w[i].wd || !ie->len || strcmp(ie->name, w[i].base) != 0))
                    continue;
                bool done = all || (ie->mask & (IN_CLOSE_WRITE | IN_MOVED_TO));
                double at = done ? now : now + DEBOUNCE;
                if (!w[i].dirty || at < w[i].read_at)
                    w[i].read_at = at;
                w[i].dirty = true;
            }
        }
    }
}
#endif

/* Sets up w for path; false (said) if its directory cannot be named. */
static bool watched_init(watched_t *w, const char *path, const cli_t *cli)
{
    memset(w, 0, sizeof *w);
    w->path = path;
    w->wd = -1;
    const char *slash = strrchr(path, '/');
    w->base = slash ? slash + 1 : path;
    w->dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    w->ev = events_new(path, cli);
    if (!w->dir || !w->ev || !*w->base) {
        fprintf(stderr, "pgn-arbiter: %s: %s\n", path, *w->base ? "out of memory" : "not a file name");
        return false;
    }
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        fprintf(stderr, "pgn-arbiter: %s: error: --follow needs plain files\n", path);
        return false;
    }
    return true;
}

int follow_run(char *const *paths, size_t n, const cli_t *cli)
{
    watched_t *w = calloc(n, sizeof *w);
    int ifd = -1, status = 2;
    strbuf_t out = { 0 };
    size_t ready = 0;
    if (!w) {
        fprintf(stderr, "pgn-arbiter: out of memory\n");
        return 2;
    }
    for (; ready < n; ready++)
        if (!watched_init(&w[ready], paths[ready], cli))
            goto done;
    if (!follow_catch_stop())
        goto done;

    bool polling = cli->poll;
#ifdef HAVE_SYS_INOTIFY_H
    if (!polling) {
        ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        for (size_t i = 0; ifd >= 0 && i < n; i++) {
            w[i].wd = inotify_add_watch(ifd, w[i].dir, IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY);
            if (w[i].wd < 0) {
                fprintf(stderr, "pgn-arbiter: %s: cannot watch the directory: %s\n", w[i].path, strerror(errno));
                goto done;
            }
        }
        if (ifd < 0) {
            fprintf(stderr, "pgn-arbiter: inotify: %s; polling every %u ms instead\n", strerror(errno),
                    cli->interval_ms);
            polling = true;
        }
    }
#else
    polling = true;
#endif
    double interval = cli->interval_ms / 1000.0, next_poll = follow_monotonic() + interval;
    for (size_t i = 0; i < n; i++) {
        w[i].dirty = true;
        w[i].read_at = 0;
        if (polling)
            stat_changed(&w[i]);
    }
    while (!follow_stop_requested()) {
        double now = follow_monotonic();
        /* Every changed file is read, in the order given, once one is due:
         * so an event of a later file never comes before those of an
         * earlier file changed before it. */
        bool due = false;
        for (size_t i = 0; i < n; i++)
            due = due || (w[i].dirty && w[i].read_at <= now);
        time_t wall = time(NULL);
        for (size_t i = 0; due && i < n; i++) {
            if (!w[i].dirty)
                continue;
            w[i].dirty = false;
            if (read_file(&w[i]) && !events_read(w[i].ev, w[i].text, w[i].len, now, wall, &out)) {
                fprintf(stderr, "pgn-arbiter: %s: out of memory\n", w[i].path);
                goto done;
            }
        }
        double wake = polling ? next_poll : -1;
        for (size_t i = 0; i < n; i++) {
            if (!events_due(w[i].ev, now, wall, &out)) {
                fprintf(stderr, "pgn-arbiter: %s: out of memory\n", w[i].path);
                goto done;
            }
            double at = events_next_due(w[i].ev);
            if (w[i].dirty && (at < 0 || w[i].read_at < at))
                at = w[i].read_at;
            if (at >= 0 && (wake < 0 || at < wake))
                wake = at;
        }
        if (!follow_flush_out(&out)) {
            fprintf(stderr, "pgn-arbiter: error writing output: %s\n", strerror(errno));
            goto done;
        }
        int timeout = -1;
        if (wake >= 0) {
            double ms = (wake - now) * 1000.0 + 1;
            timeout = ms <= 0 ? 0 : ms > INT_MAX ? INT_MAX : (int)ms;
        }
        struct pollfd fds[2] = { { follow_wake_fd(), POLLIN, 0 }, { ifd, POLLIN, 0 } };
        int r = poll(fds, ifd >= 0 ? 2 : 1, timeout);
        if (r < 0 && errno != EINTR) {
            fprintf(stderr, "pgn-arbiter: poll: %s\n", strerror(errno));
            goto done;
        }
        now = follow_monotonic();
#ifdef HAVE_SYS_INOTIFY_H
        if (ifd >= 0 && r > 0 && (fds[1].revents & POLLIN))
            inotify_drain(ifd, w, n, now);
#endif
        if (polling && now >= next_poll) {
            for (size_t i = 0; i < n; i++)
                if (stat_changed(&w[i]) && !w[i].dirty) {
                    w[i].dirty = true;
                    w[i].read_at = now;
                }
            next_poll = now + interval;
        }
    }
    status = follow_flush_out(&out) ? 0 : 2;
    if (status)
        fprintf(stderr, "pgn-arbiter: error writing output: %s\n", strerror(errno));
done:
    follow_release_stop();
    if (ifd >= 0)
        close(ifd);
    for (size_t i = 0; i < n; i++) {
        events_free(w[i].ev);
        free(w[i].dir);
        free(w[i].text);
        free(w[i].next);
    }
    free(w);
    strbuf_free(&out);
    return status;
}
