/* events.c: the events of one followed file (events.h).
 *
 * An event is known by an identity that does not depend on where the game
 * stands in the file: its kind, its ply, its move and what else names it
 * ("threefold 67 34...Kg7").  A game keeps the identities it has reported
 * and those that wait for the settle time; each read computes the game's
 * candidates afresh and compares.  So a rewrite that changes nothing
 * reports nothing, and no event is written twice. */
#include "events.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "gameid.h"
#include "follow_util.h"

enum ev {
    EV_CHECKMATE, EV_STALEMATE, EV_DEAD, EV_FIVEFOLD, EV_SEVENTYFIVE, EV_THREEFOLD, EV_FIFTY,
    EV_ILLEGAL, EV_SYNTAX, EV_RESULT, EV_WITHDRAWN
};
#define EV_FACTS 7 /* the events that are rule facts, in the order above */

static const char *const ev_names[] = {
    "checkmate", "stalemate", "dead", "fivefold", "seventyfive", "threefold", "fifty",
    "illegal", "syntax", "result", "withdrawn",
};
static const arb_fact ev_fact[EV_FACTS] = {
    ARB_CHECKMATE, ARB_STALEMATE, ARB_DEAD, ARB_FIVEFOLD, ARB_SEVENTYFIVE, ARB_THREEFOLD, ARB_FIFTY,
};

/* An event reported, or waiting for the settle time. */
typedef struct item {
    char *id;     /* identity: "KIND PLY MOVE EXTRA"; a withdrawal: "withdrawn " + the fact's id */
    char *body;   /* the rendered line without its time: text after "TIME ", JSON after "{" */
    double since; /* monotonic seconds: first read that showed it (waiting items) */
    uint64_t gen; /* the last read that showed it */
} item_t;

typedef struct list {
    item_t *v;
    size_t n, cap;
} list_t;

typedef struct gstate {
    char *key;       /* the game's identity across rewrites */
    list_t reported; /* written, and not withdrawn since */
    list_t waiting;  /* seen, not yet written: uncertain until unchanged for the settle time */
    uint64_t gen;    /* the last read that held the game */
    uint64_t number; /* a stream's game: its place in the order of first arrival, from 1 */
    bool cut;        /* a stream's game: its last copy may be cut short (more of it may come) */
} gstate_t;

struct events {
    const char *file;
    const cli_t *cli;
    gstate_t *games;
    size_t n, cap;
    size_t *slots;   /* hash index of games by key: 1 + the game's index, 0 if free */
    size_t nslots;   /* 0, or a power of two at least twice n */
    uint64_t gen;    /* reads so far (of a stream: copies of games read so far) */
    uint64_t number; /* the game number the lines being rendered give */
    bool oom;
    const volatile sig_atomic_t *stop; /* stop between games once non-zero; NULL: never */
};

/* A candidate: an event that one read of a game shows. */
typedef struct cand {
    enum ev ev;
    int32_t ply;       /* -1 if none */
    const char *move;  /* "" if none */
    const char *extra; /* what else names it ("1-0 1/2-1/2" for a result) */
    bool uncertain;    /* may be an artefact of a half-written file: waits for the settle time */
    char id[256];
} cand_t;

events_t *events_new(const char *file, const cli_t *cli)
{
    events_t *e = calloc(1, sizeof *e);
    if (e) {
        e->file = file;
        e->cli = cli;
    }
    return e;
}

void events_set_stop(events_t *e, const volatile sig_atomic_t *stop)
{
    e->stop = stop;
}

static void list_clear(list_t *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].id);
        free(l->v[i].body);
    }
    l->n = 0;
}

void events_free(events_t *e)
{
    if (!e)
        return;
    for (size_t i = 0; i < e->n; i++) {
        list_clear(&e->games[i].reported);
        list_clear(&e->games[i].waiting);
        free(e->games[i].reported.v);
        free(e->games[i].waiting.v);
        free(e->games[i].key);
    }
    free(e->games);
    free(e->slots);
    free(e);
}

static item_t *list_find(list_t *l, const char *id)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i].id, id) == 0)
            return &l->v[i];
    return NULL;
}

static void list_remove(list_t *l, item_t *it)
{
    free(it->id);
    free(it->body);
    *it = l->v[--l->n];
}

/* Appends an item that takes over id and body (freed on failure). */
static bool list_add(list_t *l, char *id, char *body, double since, uint64_t gen)
{
    if (!id || !body) {
        free(id);
        free(body);
        return false;
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 4;
        item_t *v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            free(id);
            free(body);
            return false;
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = (item_t){ id, body, since, gen };
    return true;
}

static const char *tag_of(const arb_game *g, const char *name)
{
    for (size_t i = 0; i < g->ntags; i++)
        if (strcmp(g->tags[i].name, name) == 0)
            return g->tags[i].value;
    return NULL;
}

/* True if url names one chapter of a lichess study or broadcast:
 * https://lichess.org/study/STUDY/CHAPTER or
 * https://lichess.org/broadcast/TOUR/ROUND/ROUNDID/CHAPTER (the round's own
 * URL, one segment shorter, is the same for every game of the round). */
static bool chapter_url(const char *url)
{
    const char *p = url;
    if (strncmp(p, "https://", 8) == 0)
        p += 8;
    else if (strncmp(p, "http://", 7) == 0)
        p += 7;
    else
        return false;
    int want;
    if (strncmp(p, "lichess.org/study/", 18) == 0)
        p += 18, want = 2;
    else if (strncmp(p, "lichess.org/broadcast/", 22) == 0)
        p += 22, want = 4;
    else
        return false;
    int segments = 0;
    while (*p && *p != '?' && *p != '#') {
        size_t k = strcspn(p, "/?#");
        if (k == 0)
            return false;
        segments++;
        p += k;
        if (*p == '/')
            p++;
    }
    return segments == want;
}

/* The game's identity across rewrites and resends: the URL of its lichess
 * study or broadcast chapter (Site or GameURL), else Round and Board, else
 * Round, White and Black, else its place in the file (in a stream, which
 * has no places: Event, White and Black as they are).  Tag values are
 * separated by a byte that cannot occur in them. */
static void game_key(const arb_game *g, bool stream, char *out, size_t cap)
{
    const char *round = tag_of(g, "Round"), *board = tag_of(g, "Board");
    const char *white = tag_of(g, "White"), *black = tag_of(g, "Black");
    const char *site = tag_of(g, "Site"), *url = tag_of(g, "GameURL");
    if (url && chapter_url(url))
        snprintf(out, cap, "url\x1f%s", url);
    else if (site && chapter_url(site))
        snprintf(out, cap, "url\x1f%s", site);
    else if (round && board)
        snprintf(out, cap, "rb\x1f%s\x1f%s", round, board);
    else if (round && white && black)
        snprintf(out, cap, "rwb\x1f%s\x1f%s\x1f%s", round, white, black);
    else if (stream) {
        const char *event = tag_of(g, "Event");
        snprintf(out, cap, "ewb\x1f%s\x1f%s\x1f%s", event ? event : "", white ? white : "", black ? black : "");
    } else
        snprintf(out, cap, "n\x1f%llu", (unsigned long long)g->number);
}

/* The hash of a game's key in the index: the library's FNV-1a. */
static size_t key_hash(const char *key)
{
    return (size_t)gameid_fnv1a(14695981039346656037u, key, strlen(key));
}

/* The slot of key in the index: its game's, or the free one where it goes
 * (linear probing; the index is never full). */
static size_t *key_slot(const events_t *e, const char *key)
{
    size_t mask = e->nslots - 1, i = key_hash(key) & mask;
    while (e->slots[i] && strcmp(e->games[e->slots[i] - 1].key, key) != 0)
        i = (i + 1) & mask;
    return &e->slots[i];
}

/* The state of the game with key `key`, NULL if none; the game was found
 * at index hint of the last read, where it is most likely to be again.
 * (An index by key, not a scan: a round of thousands of games is read
 * whole at each change.) */
static gstate_t *game_find(events_t *e, const char *key, size_t hint)
{
    if (hint < e->n && strcmp(e->games[hint].key, key) == 0)
        return &e->games[hint];
    if (!e->nslots)
        return NULL;
    size_t at = *key_slot(e, key);
    return at ? &e->games[at - 1] : NULL;
}

/* Makes room in the index for one more game; false if out of memory. */
static bool index_grow(events_t *e)
{
    if (2 * (e->n + 1) <= e->nslots)
        return true;
    size_t nslots = e->nslots ? 2 * e->nslots : 128;
    size_t *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return false;
    free(e->slots);
    e->slots = slots;
    e->nslots = nslots;
    for (size_t i = 0; i < e->n; i++)
        *key_slot(e, e->games[i].key) = i + 1;
    return true;
}

/* The same, created if new; NULL if out of memory. */
static gstate_t *game_state(events_t *e, const char *key, size_t hint)
{
    gstate_t *found = game_find(e, key, hint);
    if (found)
        return found;
    if (e->n == e->cap) {
        size_t cap = e->cap ? 2 * e->cap : 64;
        gstate_t *v = realloc(e->games, cap * sizeof *v);
        if (!v)
            return NULL;
        e->games = v;
        e->cap = cap;
    }
    char *k = index_grow(e) ? strdup(key) : NULL;
    if (!k)
        return NULL;
    e->games[e->n] = (gstate_t){ .key = k, .number = (uint64_t)e->n + 1 };
    *key_slot(e, k) = e->n + 1;
    return &e->games[e->n++];
}

/* ---- rendering ------------------------------------------------------------ */

/* Appends s as text lines show input text: one line, no control
 * characters (strbuf_put_text()). */
static void put_clean(strbuf_t *b, const char *s)
{
    strbuf_put_text(b, s, strlen(s));
}

static const char *side_name(int side)
{
    return side ? "Black" : "White";
}

/* The side to move after `move` ("34...Kg7": White), or at the start. */
static int side_after(const arb_game *g, const char *move)
{
    if (move && *move)
        return strstr(move, "...") ? 0 : 1;
    const char *fen = tag_of(g, "FEN");
    const char *sp = fen ? strchr(fen, ' ') : NULL;
    return sp && sp[1] == 'b';
}

/* What the arbiter is told about candidate c of game g. */
static void message(const events_t *e, const char *text, const arb_game *g, const cand_t *c, char *out, size_t cap)
{
    const char *at = c->move[0] ? c->move : "the start";
    int side = side_after(g, c->move);
    switch (c->ev) {
    case EV_CHECKMATE:
        snprintf(out, cap, "the game is over: checkmate after %s, %s wins (%s, Article 5.1.1)", at,
                 side_name(!side), side ? "1-0" : "0-1");
        break;
    case EV_STALEMATE:
        snprintf(out, cap, "the game is drawn: stalemate after %s (Article 5.2.1)", at);
        break;
    case EV_DEAD:
        snprintf(out, cap, "the game is drawn: %s after %s (Article 5.2.2)",
                 g->first[ARB_INSUFFICIENT] == c->ply ? "insufficient material, a dead position" : "dead position",
                 at);
        break;
    case EV_FIVEFOLD:
        snprintf(out, cap, "the game is drawn: fivefold repetition after %s (Article 9.6.1)", at);
        break;
    case EV_SEVENTYFIVE:
        snprintf(out, cap,
                 "the game is drawn: seventy-five moves by each player without a capture or pawn move "
                 "after %s (Article 9.6.2)", at);
        break;
    case EV_THREEFOLD:
    case EV_FIFTY: {
        bool three = c->ev == EV_THREEFOLD;
        char declared[24];
        int who = side;
        int rc = explain_claim(text + g->where.offset, (size_t)(g->where.end - g->where.offset), &e->cli->lib,
                               three ? ARB_THREEFOLD : ARB_FIFTY, (uint32_t)c->ply, &who, declared);
        /* Any move that is neither a pawn move nor a capture makes the
         * fiftieth (9.3.1); only some moves repeat a position. */
        if (rc == 0 && declared[0] && three)
            snprintf(out, cap, "%s may claim a draw by declaring %s (the position would occur a third time, "
                               "Article 9.2.1.1)", side_name(who), declared);
        else if (rc == 0 && declared[0])
            snprintf(out, cap, "%s may claim a draw by declaring a move that is neither a pawn move nor a "
                               "capture, such as %s (the fiftieth such move of each player, Article 9.3.1)",
                     side_name(who), declared);
        else if (rc == 0)
            snprintf(out, cap, "%s, to move, may claim a draw: %s (Article %s)", side_name(who),
                     three ? "the position has occurred three times" : "fifty moves by each player without a "
                                                                       "capture or pawn move",
                     three ? "9.2.1.2" : "9.3.2");
        else
            snprintf(out, cap, "%s, to move, may claim a draw (%s, Article %s)", side_name(who),
                     three ? "threefold repetition" : "fifty-move rule", three ? "9.2" : "9.3");
        break;
    }
    case EV_ILLEGAL:
        snprintf(out, cap, "the board recorded an illegal move at ply %d: \"%s\": %s (Article 7.5)", (int)c->ply,
                 c->move, g->error.message);
        break;
    case EV_SYNTAX:
        snprintf(out, cap, "the game cannot be read: %s", g->error.message);
        break;
    case EV_RESULT:
        if (g->has_end)
            snprintf(out, cap, "Result \"%s\" contradicts %s at %s: the result is %s", g->result,
                     report_end_words(g->end_reason), g->end_move && g->end_move[0] ? g->end_move : "the start",
                     g->adjudicated);
        else
            snprintf(out, cap, "Result \"%s\" contradicts %s: the result is %s", g->result,
                     g->adjudication ? g->adjudication : "the rules", g->adjudicated);
        break;
    case EV_WITHDRAWN:
        break;
    }
}

/* Renders the line of an event without its time: `ev` at ply/move of game
 * g, saying msg; `withdraws` names the event a withdrawal takes back. */
static char *render(const events_t *e, const arb_game *g, enum ev ev, int32_t ply, const char *move,
                    const char *withdraws, const char *msg)
{
    strbuf_t b = { 0 };
    char num[32];
    if (e->cli->json) {
        strbuf_puts(&b, ",\"file\":");
        report_json_string(&b, e->file, strlen(e->file));
        snprintf(num, sizeof num, ",\"game\":%llu,\"tags\":{", (unsigned long long)e->number);
        strbuf_puts(&b, num);
        static const char *const names[] = { "Event", "Round", "Board", "White", "Black" };
        bool first = true;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            const char *v = tag_of(g, names[i]);
            if (!v)
                continue;
            strbuf_puts(&b, first ? "\"" : ",\"");
            strbuf_puts(&b, names[i]);
            strbuf_puts(&b, "\":");
            report_json_string(&b, v, strlen(v));
            first = false;
        }
        strbuf_puts(&b, "},\"event\":\"");
        strbuf_puts(&b, ev_names[ev]);
        strbuf_puts(&b, "\"");
        if (withdraws) {
            strbuf_puts(&b, ",\"withdraws\":\"");
            strbuf_puts(&b, withdraws);
            strbuf_puts(&b, "\"");
        }
        if (ply >= 0)
            snprintf(num, sizeof num, ",\"ply\":%d,\"move\":", (int)ply);
        else
            snprintf(num, sizeof num, ",\"ply\":null,\"move\":");
        strbuf_puts(&b, num);
        if (move && *move)
            report_json_string(&b, move, strlen(move));
        else
            strbuf_puts(&b, "null");
        strbuf_puts(&b, ",\"message\":");
        report_json_string(&b, msg, strlen(msg));
        strbuf_puts(&b, "}\n");
    } else {
        const char *round = tag_of(g, "Round"), *board = tag_of(g, "Board");
        const char *white = tag_of(g, "White"), *black = tag_of(g, "Black");
        put_clean(&b, e->file);
        strbuf_puts(&b, ": ");
        if (round) {
            strbuf_puts(&b, "round ");
            put_clean(&b, round);
            strbuf_puts(&b, " ");
        }
        if (board) {
            strbuf_puts(&b, "board ");
            put_clean(&b, board);
            strbuf_puts(&b, " ");
        }
        if (!round && !board) {
            snprintf(num, sizeof num, "game %llu ", (unsigned long long)e->number);
            strbuf_puts(&b, num);
        }
        strbuf_puts(&b, "(");
        put_clean(&b, white ? white : "?");
        strbuf_puts(&b, " - ");
        put_clean(&b, black ? black : "?");
        strbuf_puts(&b, "): ");
        strbuf_puts(&b, ev_names[ev]);
        if (move && *move) {
            strbuf_puts(&b, " at ");
            put_clean(&b, move);
        } else if (ply == 0) {
            strbuf_puts(&b, " at the start");
        }
        strbuf_puts(&b, ": ");
        put_clean(&b, msg);
        strbuf_puts(&b, "\n");
    }
    strbuf_append(&b, "", 1); /* the terminating NUL */
    if (b.oom) {
        strbuf_free(&b);
        return NULL;
    }
    return b.data;
}

/* Writes one event line, with its time, to out. */
static void emit(const events_t *e, const char *body, time_t wall, strbuf_t *out)
{
    struct tm tm;
    char stamp[40];
    if (e->cli->json) {
        gmtime_r(&wall, &tm);
        strftime(stamp, sizeof stamp, "{\"time\":\"%Y-%m-%dT%H:%M:%SZ\"", &tm);
        strbuf_puts(out, stamp);
    } else {
        localtime_r(&wall, &tm);
        strftime(stamp, sizeof stamp, "%H:%M:%S ", &tm);
        strbuf_puts(out, stamp);
    }
    strbuf_puts(out, body);
}

/* ---- one read --------------------------------------------------------------- */

static bool wanted(const events_t *e, enum ev ev)
{
    unsigned only = e->cli->only;
    if (!only)
        return true;
    if (ev == EV_DEAD)
        return (only & (1u << ARB_DEAD)) || (only & (1u << ARB_INSUFFICIENT));
    return ev < EV_FACTS && (only & (1u << ev_fact[ev]));
}

static void cand_add(cand_t *c, size_t *n, enum ev ev, int32_t ply, const char *move, const char *extra,
                     bool uncertain)
{
    cand_t *x = &c[(*n)++];
    x->ev = ev;
    x->ply = ply;
    x->move = move ? move : "";
    x->extra = extra ? extra : "";
    x->uncertain = uncertain;
    snprintf(x->id, sizeof x->id, "%s %d %s %s", ev_names[ev], (int)ply, x->move, x->extra);
}

/* The events game g shows.  provisional: the game may be cut short by a
 * write under way (it is the last of the read, has no termination marker
 * and nothing follows it); then what its last ply shows, or what follows
 * from it (the result), may change when the rest is written. */
static size_t candidates(const events_t *e, const arb_game *g, bool provisional, cand_t *c, char *extra,
                         size_t extra_cap)
{
    size_t n = 0;
    for (int k = 0; k < EV_FACTS; k++) {
        int32_t p = g->first[ev_fact[k]];
        if (p >= 0 && wanted(e, (enum ev)k))
            cand_add(c, &n, (enum ev)k, p, g->first_move[ev_fact[k]], NULL,
                     provisional && (uint32_t)p >= g->plies);
    }
    if (e->cli->only)
        return n;
    /* A move cut in the middle reads as an illegal one ("e8" of "e8=Q"),
     * and text cut anywhere may not read at all: such events wait. */
    if (g->status == ARB_ILLEGAL)
        cand_add(c, &n, EV_ILLEGAL, (int32_t)g->error.ply, g->error.move, g->error.message, true);
    else if (g->status == ARB_SYNTAX || g->status == ARB_BADFEN)
        cand_add(c, &n, EV_SYNTAX, (int32_t)g->error.ply, g->error.move, g->error.message, true);
    if (g->verdict == ARB_WRONG_RESULT && g->result && strcmp(g->result, "*") != 0 && g->adjudicated) {
        snprintf(extra, extra_cap, "%s %s", g->result, g->adjudicated);
        cand_add(c, &n, EV_RESULT, g->has_end ? g->end_ply : -1, g->has_end ? g->end_move : NULL, extra,
                 provisional);
    }
    return n;
}

/* The id "KIND PLY MOVE EXTRA" read back: kind, ply and move of a reported
 * event (for its withdrawal). */
static void parse_id(const char *id, enum ev *ev, int32_t *ply, char *move, size_t cap)
{
    size_t k = strcspn(id, " ");
    *ev = EV_CHECKMATE;
    for (int i = 0; i <= EV_WITHDRAWN; i++)
        if (strlen(ev_names[i]) == k && strncmp(id, ev_names[i], k) == 0)
            *ev = (enum ev)i;
    char *end;
    *ply = (int32_t)strtol(id + k, &end, 10);
    if (*end == ' ')
        end++;
    size_t m = strcspn(end, " ");
    snprintf(move, cap, "%.*s", (int)m, end);
}

/* Compares what game g shows now with what its state holds. */
static bool game_events(events_t *e, gstate_t *st, const char *text, const arb_game *g, bool provisional,
                        double now, time_t wall, strbuf_t *out)
{
    cand_t c[EV_FACTS + 3];
    char extra[128], msg[512];
    size_t n = candidates(e, g, provisional, c, extra, sizeof extra);
    bool ok = true;
    /* Reported events this read no longer shows: withdrawn, at once if the
     * game is complete, after the settle time if it may be cut short. */
    for (size_t i = 0; i < st->reported.n;) {
        item_t *r = &st->reported.v[i];
        bool shown = false;
        for (size_t j = 0; j < n && !shown; j++)
            shown = strcmp(c[j].id, r->id) == 0;
        if (shown) {
            i++;
            continue;
        }
        char wid[300], move[64];
        snprintf(wid, sizeof wid, "withdrawn %s", r->id);
        item_t *w = list_find(&st->waiting, wid);
        if (w && provisional) {
            w->gen = e->gen;
            i++;
            continue;
        }
        enum ev ev;
        int32_t ply;
        parse_id(r->id, &ev, &ply, move, sizeof move);
        snprintf(msg, sizeof msg, "%s%s%s no longer holds: moves were taken back or corrected", ev_names[ev],
                 move[0] ? " at " : "", move);
        char *body = render(e, g, EV_WITHDRAWN, ply, move, ev_names[ev], msg);
        if (provisional) {
            ok = list_add(&st->waiting, strdup(wid), body, now, e->gen) && ok;
            i++;
            continue;
        }
        if (!body)
            return false;
        emit(e, body, wall, out);
        free(body);
        if (w)
            list_remove(&st->waiting, w);
        list_remove(&st->reported, r); /* the last item moves to i */
    }
    for (size_t j = 0; j < n; j++) {
        if (list_find(&st->reported, c[j].id))
            continue;
        item_t *w = list_find(&st->waiting, c[j].id);
        if (w && c[j].uncertain) {
            w->gen = e->gen;
            continue;
        }
        message(e, text, g, &c[j], msg, sizeof msg);
        char *body = render(e, g, c[j].ev, c[j].ply, c[j].move, NULL, msg);
        if (c[j].uncertain) {
            ok = list_add(&st->waiting, strdup(c[j].id), body, now, e->gen) && ok;
            continue;
        }
        if (body)
            emit(e, body, wall, out);
        if (w)
            list_remove(&st->waiting, w);
        ok = list_add(&st->reported, strdup(c[j].id), body, 0, e->gen) && ok;
    }
    /* What waited and this read no longer shows starts again if seen again. */
    for (size_t i = 0; i < st->waiting.n;) {
        if (st->waiting.v[i].gen != e->gen)
            list_remove(&st->waiting, &st->waiting.v[i]);
        else
            i++;
    }
    return ok;
}

/* Reads the games of text[0..len) into e.  A file (stream false): the
 * whole file as it is now, its games matched by game_key() or, the same
 * tags twice, by their order; a game it no longer holds keeps what it
 * reported.  A stream: some of its games, each read as a new copy of the
 * game it names (one read each, so that two copies of a game in one text
 * are read in turn); last_cut: the last game may be cut short. */
static bool read_games(events_t *e, const char *text, size_t len, bool stream, bool last_cut, double now,
                       time_t wall, strbuf_t *out)
{
    arb_reader *r = arb_reader_new(&e->cli->lib);
    if (!r)
        return false;
    if (!stream)
        e->gen++;
    arb_reader_feed(r, text, len);
    arb_reader_finish(r);
    bool oom = false, ok = true;
    const arb_game *g;
    size_t index = 0;
    char key[512];
    while (!(e->stop && *e->stop) && (g = arb_reader_next(r, &oom)) != NULL) {
        bool last = follow_only_space(text, (size_t)g->where.end, len);
        bool provisional = stream ? last_cut && last : !g->marker && last;
        game_key(g, stream, key, sizeof key);
        /* A game cut inside its tags names no game yet: its tags may be cut too. */
        if (provisional && !g->has_movetext && (stream || !game_find(e, key, index)))
            continue;
        if (stream)
            e->gen++;
        gstate_t *st = game_state(e, key, index);
        /* The same tags twice in one read of a file: the second is another game. */
        for (unsigned k = 2; !stream && st && st->gen == e->gen; k++) {
            char again[600];
            snprintf(again, sizeof again, "%s\x1f#%u", key, k);
            st = game_state(e, again, index);
        }
        if (!st) {
            ok = false;
            break;
        }
        st->gen = e->gen;
        st->cut = provisional;
        index = (size_t)(st - e->games) + 1;
        e->number = stream ? st->number : g->number;
        ok = game_events(e, st, text, g, provisional, now, wall, out) && ok;
    }
    ok = ok && !oom && !out->oom;
    /* A game this read of a file does not hold (cut off by a write under
     * way) keeps what it reported; what it was waiting for starts again.
     * (A read stopped early is the last one: the loop ends.) */
    for (size_t i = 0; !stream && i < e->n; i++)
        if (e->games[i].gen != e->gen)
            list_clear(&e->games[i].waiting);
    arb_reader_free(r);
    return ok;
}

bool events_read(events_t *e, const char *text, size_t len, double now, time_t wall, strbuf_t *out)
{
    return read_games(e, text, len, false, false, now, wall, out);
}

bool events_stream_read(events_t *e, const char *text, size_t len, bool last_cut, double now, time_t wall,
                        strbuf_t *out)
{
    return read_games(e, text, len, true, last_cut, now, wall, out);
}

bool events_end(events_t *e, time_t wall, strbuf_t *out)
{
    for (size_t i = 0; i < e->n; i++)
        if (e->games[i].cut)
            list_clear(&e->games[i].waiting);
    return events_due(e, HUGE_VAL, wall, out);
}

bool events_due(events_t *e, double now, time_t wall, strbuf_t *out)
{
    double settle = e->cli->settle_ms / 1000.0;
    for (size_t i = 0; i < e->n; i++) {
        gstate_t *st = &e->games[i];
        for (size_t j = 0; j < st->waiting.n;) {
            item_t *w = &st->waiting.v[j];
            if (now - w->since < settle) {
                j++;
                continue;
            }
            emit(e, w->body, wall, out);
            if (strncmp(w->id, "withdrawn ", 10) == 0) {
                item_t *r = list_find(&st->reported, w->id + 10);
                if (r)
                    list_remove(&st->reported, r);
                list_remove(&st->waiting, w);
            } else {
                /* Moves to reported. */
                item_t it = *w;
                *w = st->waiting.v[--st->waiting.n];
                if (!list_add(&st->reported, it.id, it.body, 0, it.gen))
                    e->oom = true;
            }
        }
    }
    return !e->oom && !out->oom;
}

double events_next_due(const events_t *e)
{
    double next = -1, settle = e->cli->settle_ms / 1000.0;
    for (size_t i = 0; i < e->n; i++)
        for (size_t j = 0; j < e->games[i].waiting.n; j++) {
            double at = e->games[i].waiting.v[j].since + settle;
            if (next < 0 || at < next)
                next = at;
        }
    return next;
}
