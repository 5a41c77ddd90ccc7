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
 * The directory of the file a symbolic link leads to is watched too: a
 * rewrite in place there shows nothing in the link's directory.  A
 * directory removed or moved away takes its watch with it; its files are
 * then polled until a directory of that name is back, and watched again.
 *
 * The loop sleeps in poll() until a change, a waiting event's settle time,
 * the next stat() round (--poll, or no inotify), or a signal.  SIGINT and
 * SIGTERM only set a flag and write a byte to a pipe that poll() watches
 * (the self-pipe of follow_util.c), so the loop wakes, writes what it
 * holds and returns. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "follow.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
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
#define NOT_PLAIN (-1) /* watched_t.last_errno: the path names no plain file (a FIFO, a device, a directory) */

typedef struct watched {
    const char *path; /* as given */
    char *dir;        /* its directory, watched */
    const char *base; /* its name in dir */
    int wd;           /* inotify watch descriptor, -1 if none */
    int twd;          /* the watch of the directory a symbolic link leads to, -1 if none */
    char *treal;      /* the file the link leads to (owned), NULL if none */
    const char *tbase; /* its name in that directory, in treal */
    bool rewatch;     /* a watch is missing (directory gone, link to nothing): polled, watched again at each look */
    bool dir_lost;    /* said that its directory went away */
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

/* Says once that w's file cannot be read, for the reason err (an errno,
 * or NOT_PLAIN), and that it is waited for. */
static void say_unreadable(watched_t *w, int err)
{
    if (err == w->last_errno)
        return;
    if (err == NOT_PLAIN)
        fprintf(stderr, "pgn-arbiter: %s: not a plain file; waiting for one\n", w->path);
    else
        fprintf(stderr, "pgn-arbiter: %s: %s; waiting for it\n", w->path, strerror(err));
    w->last_errno = err;
}

/* Opens w's file for reading and sets *size to its size; -1 (said once) if
 * it cannot be opened or is no plain file.  A FIFO or a device renamed over
 * a followed file must not stop the loop, nor be read without end: it is
 * not opened when stat() shows what it is, and one swapped in after the
 * stat() is opened without blocking and told by fstat(). */
static int open_plain(watched_t *w, size_t *size)
{
    struct stat sb;
    int fd = -1, err = stat(w->path, &sb) != 0 ? errno : S_ISREG(sb.st_mode) ? 0 : NOT_PLAIN;
    if (!err) {
        fd = open(w->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
        err = fd < 0 ? errno : fstat(fd, &sb) != 0 ? errno : S_ISREG(sb.st_mode) ? 0 : NOT_PLAIN;
    }
    if (!err && (uintmax_t)sb.st_size > SIZE_MAX / 2)
        err = EFBIG;
    if (err) {
        if (fd >= 0)
            close(fd);
        say_unreadable(w, err);
        return -1;
    }
    *size = (size_t)sb.st_size;
    return fd;
}

/* Reads the file into w->next, no more than the size it had when opened
 * (what a writer adds meanwhile is read at its next change); true if it
 * now holds a text that differs from the last one (which it then
 * replaces).  A file that cannot be read (gone between a rename's unlink
 * and link, not yet created, not a plain file) is said once and waited
 * for. */
static bool read_file(watched_t *w)
{
    size_t size, len = 0;
    int fd = open_plain(w, &size);
    if (fd < 0)
        return false;
    if (!w->next || size > w->next_cap) {
        size_t cap = size < (1u << 16) ? 1u << 16 : size + size / 8;
        char *p = realloc(w->next, cap);
        if (!p) {
            close(fd);
            fprintf(stderr, "pgn-arbiter: %s: out of memory\n", w->path);
            return false;
        }
        w->next = p;
        w->next_cap = cap;
    }
    while (len < size) {
        ssize_t n = read(fd, w->next + len, size - len);
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
            break; /* cut shorter since */
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
/* What a directory's watch reports: the changes of the files in it, and
 * its own removal or move (after which the watch names no directory of a
 * followed path). */
#define WATCH_EVENTS (IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

/* Removes the watch wd unless a followed file still uses it (files in one
 * directory share its watch). */
static void watch_release(int ifd, const watched_t *w, size_t n, int wd)
{
    for (size_t i = 0; wd >= 0 && i < n; i++)
        if (w[i].wd == wd || w[i].twd == wd)
            return;
    if (wd >= 0)
        inotify_rm_watch(ifd, wd);
}

/* Watches, besides w[i]'s directory, the directory of the file its path
 * leads to when that is another file (a symbolic link): a rewrite in place
 * there changes nothing in the link's directory.  Done again after each
 * read, for a link made to lead elsewhere.  A link that leads nowhere yet
 * leaves the file polled (rewatch) until it does. */
static void watch_target(int ifd, watched_t *w, size_t n, size_t i)
{
    watched_t *f = &w[i];
    char *real = realpath(f->path, NULL);
    if (!real) {
        struct stat sb;
        if (lstat(f->path, &sb) == 0 && S_ISLNK(sb.st_mode))
            f->rewatch = true;
        return;
    }
    char *slash = strrchr(real, '/');
    *slash = '\0';
    int twd = inotify_add_watch(ifd, slash == real ? "/" : real, WATCH_EVENTS);
    *slash = '/';
    if (twd == f->wd && strcmp(slash + 1, f->base) == 0) {
        free(real);
        real = NULL;
        twd = -1;
    } else if (twd < 0) {
        f->rewatch = true;
    }
    int old = f->twd;
    free(f->treal);
    f->treal = real;
    f->tbase = real ? slash + 1 : NULL;
    f->twd = twd;
    if (old != twd)
        watch_release(ifd, w, n, old);
}

/* Watches w[i]'s directory (again) and the file its path leads to; false
 * if the directory cannot be watched. */
static bool watch_file(int ifd, watched_t *w, size_t n, size_t i)
{
    watched_t *f = &w[i];
    int old = f->wd;
    f->wd = inotify_add_watch(ifd, f->dir, WATCH_EVENTS);
    if (old != f->wd)
        watch_release(ifd, w, n, old);
    f->rewatch = f->wd < 0;
    if (f->wd >= 0)
        watch_target(ifd, w, n, i);
    return f->wd >= 0;
}

/* The watch wd is gone, or names a directory no more (moved): the files
 * that used it are polled, and watched again when their directory is back
 * (followed paths keep their meaning: a directory removed and made again,
 * or another moved to its name, is the one followed). */
static void watch_lost(int ifd, watched_t *w, size_t n, int wd, bool moved, unsigned interval_ms)
{
    if (moved)
        inotify_rm_watch(ifd, wd);
    for (size_t i = 0; i < n; i++) {
        if (w[i].wd != wd && w[i].twd != wd)
            continue;
        if (w[i].wd == wd && !w[i].dir_lost) {
            fprintf(stderr, "pgn-arbiter: %s: its directory was removed or moved; looking for it every %u ms\n",
                    w[i].path, interval_ms);
            w[i].dir_lost = true;
        }
        if (w[i].wd == wd)
            w[i].wd = -1;
        if (w[i].twd == wd)
            w[i].twd = -1;
        w[i].rewatch = true;
    }
}

/* Watches again the directories that went away, if they are back; a file
 * watched again is read at once (it may have changed unseen). */
static void watch_again(int ifd, watched_t *w, size_t n, double now)
{
    for (size_t i = 0; i < n; i++) {
        if (!w[i].rewatch)
            continue;
        watch_file(ifd, w, n, i);
        if (w[i].rewatch)
            continue;
        if (w[i].dir_lost)
            fprintf(stderr, "pgn-arbiter: %s: watching its directory again\n", w[i].path);
        w[i].dir_lost = false;
        w[i].dirty = true;
        w[i].read_at = now;
    }
}

/* Marks the files an inotify event names as changed; a watch that went
 * away is handed to watch_lost(). */
static void inotify_drain(int ifd, watched_t *w, size_t n, double now, unsigned interval_ms)
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
            if (ie->mask & (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF)) {
                watch_lost(ifd, w, n, ie->wd, ie->mask & IN_MOVE_SELF, interval_ms);
                continue;
            }
            for (size_t i = 0; i < n; i++) {
                bool all = ie->mask & IN_Q_OVERFLOW;
                if (!all && (!ie->len || !((ie->wd == w[i].wd && strcmp(ie->name, w[i].base) == 0) ||
                                          (ie->wd == w[i].twd && strcmp(ie->name, w[i].tbase) == 0))))
                    continue;
                /* Events lost to an overflow may have been those of a watch gone. */
                if (all)
                    w[i].rewatch = true;
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
    w->twd = -1;
    const char *slash = strrchr(path, '/');
    w->base = slash ? slash + 1 : path;
    w->dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    w->ev = events_new(path, cli);
    if (w->ev)
        events_set_stop(w->ev, follow_stop_flag());
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
            if (!watch_file(ifd, w, n, i)) {
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
        for (size_t i = 0; due && i < n && !follow_stop_requested(); i++) {
            if (!w[i].dirty)
                continue;
            w[i].dirty = false;
            bool changed = read_file(&w[i]);
#ifdef HAVE_SYS_INOTIFY_H
            if (ifd >= 0 && w[i].wd >= 0)
                watch_target(ifd, w, n, i);
#endif
            if (changed && !events_read(w[i].ev, w[i].text, w[i].len, now, wall, &out)) {
                fprintf(stderr, "pgn-arbiter: %s: out of memory\n", w[i].path);
                goto done;
            }
        }
        bool polled = polling;
        for (size_t i = 0; i < n; i++)
            polled = polled || w[i].rewatch;
        double wake = polled ? next_poll : -1;
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
            inotify_drain(ifd, w, n, now, cli->interval_ms);
        if (ifd >= 0 && now >= next_poll)
            watch_again(ifd, w, n, now);
#endif
        if (now >= next_poll) {
            for (size_t i = 0; i < n; i++)
                if ((polling || w[i].rewatch) && stat_changed(&w[i]) && !w[i].dirty) {
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
        free(w[i].treal);
        free(w[i].text);
        free(w[i].next);
    }
    free(w);
    strbuf_free(&out);
    return status;
}
