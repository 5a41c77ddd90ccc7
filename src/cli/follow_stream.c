/* follow_stream.c: --follow on a stream (follow_stream.h).
 *
 * A stream cannot be read again, so it is cut into games as it arrives:
 * the bytes held are those of the game not yet complete, and each game
 * that completes is handed to events.c, which keeps what each game has
 * reported and nothing of its text.  So memory is bounded by the round
 * (its games' events and the one game under way), not by the length of
 * the stream: a game sent again a thousand times is one game.
 *
 * Where a game ends is decided by the library's reader, run over the bytes
 * held: a game is complete when another game follows it, or when an empty
 * line follows its termination marker (the lichess stream ends each game
 * with blank lines; a marker alone could be cut, "1/2" of "1/2-1/2").
 * Bytes are read as long as more are ready (a burst) before the held text
 * is looked at, so a large first send is cut once, not once per read(); and
 * the reader runs only when a burst brings a line that can end a game (an
 * empty line, or a line that starts a tag), so that a huge game arriving in
 * small pieces is not read again at every piece.  The game under way is
 * read as cut short once per burst that ends on a pause, as long as it is
 * not huge: what it shows for sure (a claim before its last move) is said
 * at once, what it may show falsely waits for --settle, as for a file.
 * Past HELD_MAX without the end of a game (a device, text that is not
 * PGN), the bytes held are dropped.
 *
 * One thread: the loop sleeps in poll() on the stream, the self-pipe of
 * SIGINT and SIGTERM, and the settle time of the next waiting event. */
#include "follow_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "events.h"
#include "follow_util.h"

#define CHUNK (1u << 16)          /* bytes per read() */
#define BURST (1u << 20)          /* bytes read at most before the held text is looked at */
#define CUT_READ_MAX (4u << 20)   /* a game under way longer than this is read only once complete */
#define HELD_MAX (64u << 20)      /* a game under way longer than this is dropped: a stream of no games */

bool follow_is_stream(const char *path)
{
    struct stat sb;
    if (strcmp(path, "-") == 0)
        return true;
    return stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode);
}

typedef struct held {
    char *data;
    size_t len, cap;
    size_t scanned; /* bytes already searched for a line that can end a game */
    bool may_end;   /* such a line arrived since the text was last cut */
    bool fresh;     /* bytes arrived since the game under way was last read */
} held_t;

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* The index of the first byte after the line end at s[nl] and the blanks
 * that follow it, within s[..to). */
static size_t after_line_end(const char *s, size_t nl, size_t to)
{
    size_t i = nl + 1;
    while (i < to && blank(s[i]))
        i++;
    return i;
}

/* True if an empty line (blanks allowed) follows s[from] within s[..to). */
static bool empty_line_after(const char *s, size_t from, size_t to)
{
    const char *nl = from < to ? memchr(s + from, '\n', to - from) : NULL;
    while (nl) {
        size_t i = after_line_end(s, (size_t)(nl - s), to);
        if (i < to && s[i] == '\n')
            return true;
        nl = i < to ? memchr(s + i, '\n', to - i) : NULL;
    }
    return false;
}

/* Notes whether the bytes since h->scanned hold a line that can end a
 * game: an empty one, or one that starts with '['.  (The search starts at
 * the line end before them, which blanks may follow.) */
static void scan_new(held_t *h)
{
    size_t i = h->scanned;
    while (i > 0 && blank(h->data[i - 1]))
        i--;
    if (i > 0)
        i--;
    for (; !h->may_end && i < h->len; i++) {
        if (h->data[i] != '\n')
            continue;
        size_t j = after_line_end(h->data, i, h->len);
        h->may_end = j < h->len && (h->data[j] == '\n' || h->data[j] == '[');
    }
    h->scanned = h->len;
}

/* Where the complete games of h end: the length of the prefix that holds
 * them (0 if none), or SIZE_MAX if the reader ran out of memory.  at_end:
 * the stream has ended, so a game whose marker has been read is complete. */
static size_t complete_prefix(const held_t *h, const cli_t *cli, bool at_end)
{
    arb_reader *r = arb_reader_new(&cli->lib);
    if (!r)
        return SIZE_MAX;
    arb_reader_feed(r, h->data, h->len);
    arb_reader_finish(r);
    size_t done = 0;
    bool oom = false, any = false, last_marker = false;
    uint64_t last_end = 0;
    const arb_game *g;
    while ((g = arb_reader_next(r, &oom)) != NULL) {
        if (any)
            done = (size_t)g->where.offset; /* the game before is complete */
        any = true;
        last_end = g->where.end;
        last_marker = g->marker != NULL;
    }
    arb_reader_free(r);
    if (oom)
        return SIZE_MAX;
    if (any && last_marker && (at_end || empty_line_after(h->data, (size_t)last_end, h->len)))
        done = h->len;
    return done;
}

/* Hands the complete games of h to ev and keeps the rest; then, if asked
 * (a pause in the stream, or its end), reads the game under way as cut
 * short.  False if memory ran out. */
static bool take_games(held_t *h, events_t *ev, const cli_t *cli, bool read_cut, bool at_end, strbuf_t *out)
{
    double now = follow_monotonic();
    time_t wall = time(NULL);
    if (h->may_end || at_end) {
        size_t done = complete_prefix(h, cli, at_end);
        if (done == SIZE_MAX)
            return false;
        if (done > 0) {
            if (!events_stream_read(ev, h->data, done, false, now, wall, out))
                return false;
            memmove(h->data, h->data + done, h->len - done);
            h->len -= done;
            h->fresh = true;
        }
        h->may_end = false;
        h->scanned = h->len;
    }
    if (follow_only_space(h->data, 0, h->len)) {
        h->len = 0;
        h->scanned = 0;
        return true;
    }
    if (read_cut && h->fresh && h->len <= CUT_READ_MAX) {
        h->fresh = false;
        return events_stream_read(ev, h->data, h->len, true, now, wall, out);
    }
    return true;
}

/* Reads what the stream has ready into h, up to BURST bytes.  Returns 1 if
 * bytes came, 0 if none were ready, -1 at the end of the stream (said on
 * stderr if it is an error), -2 if memory ran out. */
static int read_burst(int fd, const char *path, held_t *h)
{
    size_t got = 0;
    for (;;) {
        if (h->cap - h->len < CHUNK) {
            size_t cap = h->cap ? 2 * h->cap : 2 * CHUNK;
            while (cap - h->len < CHUNK)
                cap *= 2;
            char *p = realloc(h->data, cap);
            if (!p)
                return -2;
            h->data = p;
            h->cap = cap;
        }
        ssize_t n = read(fd, h->data + h->len, CHUNK);
        if (n < 0 && errno == EINTR && !follow_stop_requested())
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            return got ? 1 : 0;
        if (n < 0) {
            fprintf(stderr, "pgn-arbiter: %s: the stream was broken off: %s\n", path, strerror(errno));
            return -1;
        }
        if (n == 0)
            return got ? 1 : -1;
        h->len += (size_t)n;
        h->fresh = true;
        got += (size_t)n;
        struct pollfd more = { fd, POLLIN, 0 };
        if (got >= BURST || poll(&more, 1, 0) <= 0 || !(more.revents & (POLLIN | POLLHUP | POLLERR)))
            return 1;
    }
}

int follow_stream_run(const char *path, const cli_t *cli)
{
    int fd = -1, status = 2;
    bool stdin_stream = strcmp(path, "-") == 0;
    const char *name = stdin_stream ? "-" : path;
    held_t h = { 0 };
    strbuf_t out = { 0 };
    events_t *ev = events_new(name, cli);
    if (!ev) {
        fprintf(stderr, "pgn-arbiter: out of memory\n");
        return 2;
    }
    if (!follow_catch_stop()) /* no SA_RESTART: a FIFO's open() gives way */
        goto done;
    /* A FIFO's open() waits for its writer, as the reader of a pipe should. */
    fd = stdin_stream ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (follow_stop_requested()) {
            status = 0;
            goto done;
        }
        fprintf(stderr, "pgn-arbiter: %s: %s\n", path, strerror(errno));
        goto done;
    }
    bool ended = false;
    while (!follow_stop_requested() && !ended) {
        int timeout = -1;
        double due = events_next_due(ev);
        if (due >= 0) {
            double ms = (due - follow_monotonic()) * 1000.0 + 1;
            timeout = ms <= 0 ? 0 : ms > INT_MAX ? INT_MAX : (int)ms;
        }
        struct pollfd fds[2] = { { follow_wake_fd(), POLLIN, 0 }, { fd, POLLIN, 0 } };
        int r = poll(fds, 2, timeout);
        if (r < 0 && errno != EINTR) {
            fprintf(stderr, "pgn-arbiter: poll: %s\n", strerror(errno));
            goto done;
        }
        if (follow_stop_requested())
            break;
        if (r > 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL))) {
            int got = (fds[1].revents & POLLNVAL) ? -1 : read_burst(fd, name, &h);
            if (got == -2) {
                fprintf(stderr, "pgn-arbiter: %s: out of memory\n", name);
                goto done;
            }
            ended = got < 0;
            scan_new(&h);
            if (!take_games(&h, ev, cli, !ended, ended, &out)) {
                fprintf(stderr, "pgn-arbiter: %s: out of memory\n", name);
                goto done;
            }
            /* Bytes that never end a game (a device, a stream of no PGN)
             * must not fill the memory: they are dropped, and said. */
            if (h.len > HELD_MAX) {
                fprintf(stderr, "pgn-arbiter: %s: more than %u MiB without the end of a game: dropped\n", name,
                        HELD_MAX >> 20);
                h.len = h.scanned = 0;
                h.may_end = false;
            }
        }
        if (ended) {
            /* What is left is a game the end cut off: read as such. */
            if (h.len && !events_stream_read(ev, h.data, h.len, true, follow_monotonic(), time(NULL), &out)) {
                fprintf(stderr, "pgn-arbiter: %s: out of memory\n", name);
                goto done;
            }
            if (h.len)
                fprintf(stderr, "pgn-arbiter: %s: the stream ended in the middle of a game\n", name);
            if (!events_end(ev, time(NULL), &out)) {
                fprintf(stderr, "pgn-arbiter: %s: out of memory\n", name);
                goto done;
            }
        } else if (!events_due(ev, follow_monotonic(), time(NULL), &out)) {
            fprintf(stderr, "pgn-arbiter: %s: out of memory\n", name);
            goto done;
        }
        if (!follow_flush_out(&out)) {
            fprintf(stderr, "pgn-arbiter: error writing output: %s\n", strerror(errno));
            goto done;
        }
    }
    status = follow_flush_out(&out) ? 0 : 2;
    if (status)
        fprintf(stderr, "pgn-arbiter: error writing output: %s\n", strerror(errno));
done:
    follow_release_stop();
    if (fd >= 0 && !stdin_stream)
        close(fd);
    events_free(ev);
    free(h.data);
    strbuf_free(&out);
    return status;
}
