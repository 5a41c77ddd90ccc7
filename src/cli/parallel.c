/* parallel.c: -j N.  The main thread reads (and decompresses) the input, or
 * maps a plain file, and cuts it into pieces at line starts just before a
 * '['; worker threads
 * replay the pieces, each with a reader of its own; the main thread writes
 * their output in input order.  A cut is right when the piece before it
 * ends between games (arb_reader_between_games); when it does not (a
 * comment holding a blank line and a '[', say), the two pieces are replayed
 * again as one.  So the output is byte for byte the one-thread output.
 * A worker counts the lines of its piece before replaying it: where a piece
 * starts is the sum of the counts before it, and the main thread, which
 * would otherwise read every byte first, only looks for cuts. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "parallel.h"

#include "game.h"
#include "jobq.h"
#include "lex.h"
#include "stream.h"

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#define PAR_SSE2 1
#endif

#define PIECE_TARGET (1u << 20) /* bytes per piece, about */
#define PIECE_MIN (128u << 10)  /* the least, for the last pieces of a mapped file */
#define PIECE_MAX (16u << 20)   /* no cut found by then: go on on one thread */
#define OUTPUT_MAX (8u << 20)   /* a piece writing more (tiny games): go on on one thread */
#define READ_SIZE (256u << 10)
#define SPARE_MAX 4             /* written pieces kept for reuse */
/* A piece's buffer when new: room for a piece and the usual rest of the
 * one before it (under READ_SIZE), so that a buffer kept for reuse takes
 * the next piece as it is.  Smaller, every piece wanted a fresh buffer, and
 * the system's fresh pages cost more than the copy of the piece. */
#define PIECE_ROOM (PIECE_TARGET + 2 * READ_SIZE)

typedef struct job {
    const char *bytes;           /* the piece: data, or a part of the mapped input */
    char *data;                  /* the piece's own buffer (read input) */
    size_t len, cap;
    uint64_t offset;             /* where data[0] is in the stream */
    uint64_t line;               /* the line of data[0], and */
    uint64_t lines;              /* the line ends in the piece, */
    bool line_known;             /* once known (under the queue's lock) */
    const char *eol_before;      /* the line end before data[0] (offset > 0): "\n" or "\r\n" */
    bool last;                   /* the final piece */
    bool cut_short;              /* the input failed after it: the game under way is not finished */
    /* Results. */
    strbuf_t out, problems, diag;
    stats_t stats;
    bool between, oom;
    bool overflow;               /* stopped: its output would not fit in OUTPUT_MAX */
} job_t;

typedef struct pool {
    jobq_t *q;                   /* the pieces, oldest first, and the workers */
    const cli_t *cli;
    const char *name;
    FILE *msgs;                  /* where messages go */
    uint64_t written_line;       /* the line after the last piece written (under the queue's lock) */
    pthread_cond_t known;        /* a piece's lines are known (with the queue's lock) */
    /* Written pieces kept for reuse by the main thread, with their buffers:
     * fresh memory for every piece costs page faults. */
    job_t *spare[SPARE_MAX];
    size_t nspare;
} pool_t;

static void job_free(job_t *j)
{
    if (!j)
        return;
    free(j->data);
    strbuf_free(&j->out);
    strbuf_free(&j->problems);
    strbuf_free(&j->diag);
    free(j);
}

/* A piece to fill: a written one if there is one, its buffers kept. */
static job_t *job_take(pool_t *p)
{
    if (!p->nspare)
        return calloc(1, sizeof(job_t));
    job_t *j = p->spare[--p->nspare];
    job_t kept = { .data = j->data, .cap = j->cap, .out = j->out, .problems = j->problems, .diag = j->diag };
    strbuf_clear(&kept.out);
    strbuf_clear(&kept.problems);
    strbuf_clear(&kept.diag);
    *j = kept;
    return j;
}

/* Done with a written piece: kept for job_take() if its buffers are of
 * the usual size (memory stays as bounded as without reuse), else freed. */
static void job_give_back(pool_t *p, job_t *j)
{
    size_t held = j->cap + j->out.cap + j->problems.cap + j->diag.cap;
    if (p->nspare < SPARE_MAX && held <= 4 * (PIECE_TARGET + READ_SIZE))
        p->spare[p->nspare++] = j;
    else
        job_free(j);
}

/* Line feeds in data[0..len), into *lines; false, and *lines unset, if a
 * '\r' is there.  One pass, sixteen bytes a step where SSE2 is there (a
 * counter per byte lane, summed every 255 steps, before it can wrap). */
static bool count_lf_only(const char *data, size_t len, uint64_t *lines)
{
    uint64_t n = 0;
    size_t i = 0;
#ifdef PAR_SSE2
    const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'), zero = _mm_setzero_si128();
    while (len - i >= 16) {
        size_t stop = i + 16 * ((len - i) / 16 < 255 ? (len - i) / 16 : 255);
        __m128i acc = zero, crs = zero;
        for (; i < stop; i += 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(data + i));
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, lf));
            crs = _mm_or_si128(crs, _mm_cmpeq_epi8(v, cr));
        }
        if (_mm_movemask_epi8(crs))
            return false;
        __m128i sums = _mm_sad_epu8(acc, zero);
        n += (uint64_t)_mm_cvtsi128_si32(sums) + (uint64_t)_mm_extract_epi16(sums, 4);
    }
#endif
    for (; i < len; i++) {
        if (data[i] == '\r')
            return false;
        n += data[i] == '\n';
    }
    *lines = n;
    return true;
}

/* Lines in data[0..len), counted as the lexer does: \n, \r\n and a lone \r. */
static uint64_t count_lines(const char *data, size_t len)
{
    uint64_t n = 0;
    if (count_lf_only(data, len, &n))
        return n;
    for (size_t i = 0; i < len; i++)
        if (data[i] == '\n' || (data[i] == '\r' && (i + 1 == len || data[i + 1] != '\n')))
            n++;
    return n;
}

static job_t *piece_at(const pool_t *p, size_t i)
{
    return jobq_at(p->q, i);
}

/* Counts the lines of j, then takes the line it starts on from the piece
 * before it (or the last piece written).  Workers take pieces in input
 * order and do this first, so the wait is for a count, never a replay. */
static void find_start_line(pool_t *p, job_t *j)
{
    uint64_t lines = count_lines(j->bytes, j->len);
    pthread_mutex_t *mu = jobq_lock(p->q);
    pthread_mutex_lock(mu);
    for (;;) {
        size_t i = 0;
        while (piece_at(p, i) != j)
            i++;
        const job_t *before = i ? piece_at(p, i - 1) : NULL;
        if (!before || before->line_known) {
            j->line = before ? before->line + before->lines : p->written_line;
            break;
        }
        pthread_cond_wait(&p->known, mu);
    }
    j->lines = lines;
    j->line_known = true;
    pthread_cond_broadcast(&p->known);
    pthread_mutex_unlock(mu);
}

/* Replays one piece. */
static void run_job(pool_t *p, job_t *j)
{
    const cli_t *cli = p->cli;
    const char *name = p->name;
    if (!j->line_known)
        find_start_line(p, j);
    strbuf_clear(&j->out);
    strbuf_clear(&j->problems);
    strbuf_clear(&j->diag);
    j->out.track_numbers = j->problems.track_numbers = j->diag.track_numbers = true;
    memset(&j->stats, 0, sizeof j->stats);
    j->oom = false;
    arb_reader *r = arb_reader_new(&cli->lib);
    rewriter_t *w = cli->fix ? rewrite_new(cli->rewrite) : NULL;
    if (!r || (cli->fix && !w)) {
        j->oom = true;
        arb_reader_free(r);
        rewrite_free(w);
        return;
    }
    arb_reader_set_origin(r, j->offset, j->line);
    if (w) {
        rewrite_set_origin(w, j->offset, j->offset ? j->eol_before : NULL);
        if (rewrite_feed(w, j->bytes, j->len) < 0)
            j->oom = true;
    }
    const arb_game *g;
    bool oom = false;
    arb_reader_feed(r, j->bytes, j->len);
    j->overflow = false;
    while ((g = arb_reader_next(r, &oom)) != NULL) {
        cli_handle_game(cli, &j->stats, name, g, &j->out, &j->problems, &j->diag, w);
        if (j->out.len + j->problems.len + j->diag.len > OUTPUT_MAX) {
            /* Holding it all until its turn would cost too much memory. */
            j->overflow = true;
            strbuf_free(&j->out);
            strbuf_free(&j->problems);
            strbuf_free(&j->diag);
            rewrite_free(w);
            arb_reader_free(r);
            return;
        }
    }
    j->between = arb_reader_between_games(r);
    if (!j->cut_short) {
        arb_reader_finish(r);
        while (!oom && (g = arb_reader_next(r, &oom)) != NULL)
            cli_handle_game(cli, &j->stats, name, g, &j->out, &j->problems, &j->diag, w);
        if (w)
            rewrite_finish(w, &j->out);
    }
    j->oom = j->oom || oom || j->out.oom || j->problems.oom || j->diag.oom;
    rewrite_free(w);
    arb_reader_free(r);
}

/* A worker's part: jobq_run_fn for the pool's pieces. */
static void run_piece(void *ctx, void *job)
{
    run_job(ctx, job);
}

/* True if the text before position i ends with a result token
 * (1-0, 0-1, 1/2-1/2, *) and white space. */
static bool after_result(const char *buf, size_t i)
{
    while (i > 0 && (buf[i - 1] == '\n' || buf[i - 1] == '\r' || buf[i - 1] == ' ' || buf[i - 1] == '\t'))
        i--;
    if (i >= 1 && buf[i - 1] == '*')
        return true;
    if (i >= 3 && (memcmp(buf + i - 3, "1-0", 3) == 0 || memcmp(buf + i - 3, "0-1", 3) == 0))
        return true;
    return i >= 7 && memcmp(buf + i - 7, "1/2-1/2", 7) == 0;
}

/* Where to cut buf[0..len), looking in its second half: the last '[' that
 * starts a line after a blank line that follows a result, else the last
 * '[' after a blank line, else the last '[' that starts a line; 0 if none.
 * Only a '[' that starts a plain tag line (lex_plain_tag_line) is a candidate.
 * Any of them is checked after the fact; the first is almost always right. */
static size_t find_cut(const char *buf, size_t len)
{
    size_t blank = 0, any = 0;
    for (size_t i = len; i-- > len / 2 && i >= 2;) {
        if (buf[i] != '[' || buf[i - 1] != '\n' || !lex_plain_tag_line(buf, i, len))
            continue;
        if (buf[i - 2] == '\n' || (i >= 3 && buf[i - 2] == '\r' && buf[i - 3] == '\n')) {
            if (after_result(buf, i))
                return i;
            if (!blank)
                blank = i;
        }
        if (!any)
            any = i;
    }
    return blank ? blank : any;
}

/* The main thread's side of the input: where the next piece starts, and
 * what is read or mapped but not yet in a piece. */
typedef struct feed {
    input_t *in;
    const char *map;             /* the mapped input (input_map()), or NULL: read */
    size_t map_len, map_pos;     /* map_pos: the first byte not yet in a piece */
    job_t *next;                 /* read input: the piece being filled */
    uint64_t offset;             /* where the next piece starts in the stream */
    bool eof;                    /* all of the input is in pieces */
    bool sequential;             /* nowhere to cut: go on on one thread */
    bool oom;
    bool read_failed;
    char read_error[256];
} feed_t;

/* Fills the queue from the input, read piece by piece. */
static void fill_by_reading(pool_t *p, feed_t *f)
{
    char err[256];
    while (!f->eof && !jobq_full(p->q)) {
        job_t *next = f->next;
        if (!next && !(next = f->next = job_take(p))) {
            f->oom = true;
            return;
        }
        if (next->cap - next->len < READ_SIZE) {
            size_t cap = next->cap ? next->cap * 2 : PIECE_ROOM;
            char *d = realloc(next->data, cap);
            if (!d) {
                f->oom = true;
                return;
            }
            next->data = d;
            next->cap = cap;
        }
        ssize_t n = input_read(f->in, next->data + next->len, next->cap - next->len, err, sizeof err);
        if (n < 0) {
            /* What was read is still replayed, as on one thread; the game
             * under way is not finished, and the error comes after it all. */
            snprintf(f->read_error, sizeof f->read_error, "%s", err);
            f->read_failed = true;
        }
        next->len += n > 0 ? (size_t)n : 0;
        bool eof = f->eof = n <= 0; /* an empty last piece is not queued */
        if (!eof && next->len >= PIECE_MAX && !find_cut(next->data, next->len)) {
            /* Nowhere to cut (a huge game, a line of megabytes): keep memory bounded. */
            f->sequential = true;
            return;
        }
        size_t cut = eof ? next->len : next->len >= PIECE_TARGET ? find_cut(next->data, next->len) : 0;
        if (!cut)
            continue;
        /* The rest starts the following piece. */
        job_t *rest = eof ? NULL : job_take(p);
        size_t rlen = next->len - cut, need = rlen + PIECE_TARGET + READ_SIZE;
        if (rest && rlen && rest->cap < need) {
            /* Fresh room: realloc() would copy the old piece for nothing. */
            size_t cap = need > PIECE_ROOM ? need : PIECE_ROOM;
            char *d = malloc(cap);
            if (d) {
                free(rest->data);
                rest->data = d;
                rest->cap = cap;
            }
        }
        if (!eof && (!rest || (rlen && rest->cap < need))) {
            job_free(rest);
            f->oom = true;
            return;
        }
        if (rlen)
            memcpy(rest->data, next->data + cut, rlen);
        if (rest)
            rest->len = rlen;
        next->bytes = next->data;
        next->len = cut;
        next->offset = f->offset;
        next->cut_short = f->read_failed;
        next->last = eof;
        f->offset += cut;
        if (rest) {
            rest->offset = f->offset;
            /* Cuts follow a '\n' (find_cut). */
            rest->eol_before = cut >= 2 && next->data[cut - 2] == '\r' ? "\r\n" : "\n";
        }
        f->next = rest;
        jobq_put(p->q, next);
    }
}

/* Bytes to aim a piece at while `rest` are left: near the end of the input,
 * smaller pieces, so that the threads finish together rather than one
 * replaying the last large piece alone. */
static size_t piece_target(size_t rest, unsigned threads)
{
    size_t t = rest / (2 * (size_t)threads);
    return t > PIECE_TARGET ? PIECE_TARGET : t < PIECE_MIN ? PIECE_MIN : t;
}

/* Fills the queue from the mapped input: pieces are parts of the map, cut
 * where a read piece would be (in the second half of a target and a half),
 * and nothing is copied. */
static void fill_from_map(pool_t *p, feed_t *f)
{
    while (!f->eof && !jobq_full(p->q)) {
        const char *at = f->map + f->map_pos;
        size_t rest = f->map_len - f->map_pos, target = piece_target(rest, p->cli->threads);
        size_t window = target + target / 2, len = 0;
        while (window < rest && !(len = find_cut(at, window))) {
            if (window >= PIECE_MAX) {
                f->sequential = true;
                return;
            }
            window *= 2;
        }
        if (!len)
            len = rest; /* the last piece */
        job_t *j = job_take(p);
        if (!j) {
            f->oom = true;
            return;
        }
        j->bytes = at;
        j->len = len;
        j->offset = f->offset;
        j->eol_before = f->map_pos >= 2 && at[-2] == '\r' ? "\r\n" : "\n";
        f->map_pos += len;
        f->offset += len;
        f->eof = j->last = f->map_pos == f->map_len;
        jobq_put(p->q, j);
    }
}

/* Gives up on pieces: every piece not yet written, then the rest of the
 * input, is read on this thread from the start of the oldest one. */
static bool go_sequential(pool_t *p, feed_t *f, const cli_t *cli, stats_t *st, FILE *dest, uint64_t base)
{
    job_t *next = f->next;
    size_t count = jobq_count(p->q);
    for (size_t i = 0; i < count; i++)
        jobq_wait(p->q, i);
    /* From the oldest piece queued, else from what is not yet in a piece. */
    uint64_t offset = f->offset, line = p->written_line;
    const char *eol_before = next ? next->eol_before : NULL;
    if (count) {
        offset = piece_at(p, 0)->offset;
        line = piece_at(p, 0)->line;
        eol_before = piece_at(p, 0)->eol_before;
    } else if (f->map && offset >= 2) {
        eol_before = f->map[offset - 2] == '\r' ? "\r\n" : "\n";
    }
    if (!offset)
        eol_before = NULL;
    if (f->map) {
        /* Read on from there, a chunk at a time: memory stays bounded. */
        input_read_from(f->in, (size_t)offset);
        return cli_stream(f->in, p->name, cli, st, dest, p->msgs, NULL, 0, offset, line, eol_before, base);
    }
    size_t total = next ? next->len : 0;
    for (size_t i = 0; i < count; i++)
        total += piece_at(p, i)->len;
    char *all = malloc(total ? total : 1);
    if (!all) {
        fprintf(p->msgs, "pgn-arbiter: %s: error: out of memory\n", p->name);
        return false;
    }
    size_t at = 0;
    for (size_t i = 0; i < count; i++) {
        memcpy(all + at, piece_at(p, i)->bytes, piece_at(p, i)->len);
        at += piece_at(p, i)->len;
    }
    if (next)
        memcpy(all + at, next->data, next->len);
    bool ok = cli_stream(f->in, p->name, cli, st, dest, p->msgs, all, total, offset, line, eol_before, base);
    free(all);
    return ok;
}

/* Replays the oldest piece again with the one after it, when its cut was
 * not between games.  False if out of memory. */
static bool join_next(pool_t *p)
{
    job_t *j = piece_at(p, 0), *k = piece_at(p, 1);
    jobq_wait(p->q, 1);
    if (j->bytes != j->data) {
        j->len += k->len; /* parts of the map, one after the other */
    } else {
        if (j->cap < j->len + k->len) {
            char *d = realloc(j->data, j->len + k->len);
            if (!d)
                return false;
            j->data = d;
            j->cap = j->len + k->len;
        }
        memcpy(j->data + j->len, k->bytes, k->len);
        j->len += k->len;
        j->bytes = j->data;
    }
    j->last = k->last;
    j->cut_short = k->cut_short;
    pthread_mutex_lock(jobq_lock(p->q));
    j->lines += k->lines; /* j's start is known: no recount */
    pthread_mutex_unlock(jobq_lock(p->q));
    jobq_remove(p->q, 1);
    job_give_back(p, k);
    run_job(p, j);
    return true;
}

bool cli_process_parallel(input_t *in, const char *name, const cli_t *cli, stats_t *st, FILE *dest,
                          FILE *msgs)
{
    FILE *problem_dest = cli->fix ? msgs : dest;
    pool_t p = { .cli = cli, .name = name, .msgs = msgs, .written_line = 1 };
    pthread_cond_init(&p.known, NULL);
    p.q = jobq_new(cli->threads, 2 * (size_t)cli->threads + 2, run_piece, &p);
    if (!p.q) {
        fprintf(msgs, "pgn-arbiter: %s: error: cannot start threads\n", name);
        pthread_cond_destroy(&p.known);
        return false;
    }

    feed_t f = { .in = in };
    /* A plain file is read in place: the workers read the system's cached
     * pages, and this thread copies nothing. */
    f.map = input_map(in, &f.map_len);
    bool ok = true;
    uint64_t base = 0;
    while (ok) {
        if (f.map)
            fill_from_map(&p, &f);
        else
            fill_by_reading(&p, &f);
        if (f.oom) {
            fprintf(msgs, "pgn-arbiter: %s: error: out of memory\n", name);
            ok = false;
            break;
        }
        if (f.sequential) {
            ok = go_sequential(&p, &f, cli, st, dest, base);
            break;
        }
        size_t count = jobq_count(p.q);
        if (count == 0)
            break;

        /* Write the oldest piece, once done and known to end between games. */
        job_t *j = piece_at(&p, 0);
        jobq_wait(p.q, 0);
        if (j->overflow) {
            /* From here on, one thread streams its output as it goes. */
            ok = go_sequential(&p, &f, cli, st, dest, base);
            break;
        }
        if (!j->between && !j->last && !j->oom && !j->cut_short && (count >= 2 || !f.eof)) {
            if (count < 2)
                continue; /* read on: the piece after it is needed */
            if (!join_next(&p)) {
                fprintf(msgs, "pgn-arbiter: %s: error: out of memory\n", name);
                ok = false;
                break;
            }
            continue;
        }
        if (j->oom) {
            fprintf(msgs, "pgn-arbiter: %s: error: out of memory\n", name);
            ok = false;
            break;
        }
        bool wrote = cli_write(&j->out, base, dest);
        cli_write(&j->problems, base, problem_dest);
        cli_write(&j->diag, base, msgs);
        if (!wrote) {
            fprintf(msgs, "pgn-arbiter: %s: error writing output: %s\n", name, strerror(errno));
            ok = false;
        }
        base += j->stats.games;
        cli_add_stats(st, &j->stats);
        pthread_mutex_lock(jobq_lock(p.q));
        p.written_line = j->line + j->lines;
        pthread_mutex_unlock(jobq_lock(p.q));
        jobq_remove(p.q, 0);
        job_give_back(&p, j);
        /* What the pieces still queued start at is all that is left to read. */
        if (f.map)
            input_release(in, jobq_count(p.q) ? (size_t)piece_at(&p, 0)->offset : f.map_pos);
        uint64_t done_bytes, size;
        input_position(in, &done_bytes, &size);
        progress_update(&st->progress, done_bytes, st->games - st->games_before);
    }

    jobq_stop(p.q);
    for (size_t i = 0; i < jobq_count(p.q); i++)
        job_free(piece_at(&p, i));
    jobq_free(p.q);
    job_free(f.next);
    while (p.nspare)
        job_free(p.spare[--p.nspare]);
    pthread_cond_destroy(&p.known);
    if (f.read_failed)
        fprintf(msgs, "pgn-arbiter: %s: error: %s (after %llu games)\n", name, f.read_error,
                (unsigned long long)(st->games - st->games_before));
    return ok && !f.read_failed;
}
