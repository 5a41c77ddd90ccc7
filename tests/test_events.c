/* test_events.c: unit tests for src/cli/events.c, what --follow says about
 * each read of a file, and about each text of a stream (--follow -).  Time is a parameter of events_read() and
 * events_due(), so the settle rules are tested at exact instants, without
 * waiting.  The games are short and checked by hand against the Laws:
 *
 *   fool's mate  1.f3 e5 2.g4 Qh4#: checkmate at ply 4, Black wins (5.1.1);
 *   knights      1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 4.Ng1: at ply 7 Black may
 *                declare 4...Ng8, after which the start position stands a
 *                third time (0, 4, 8): threefold by declared move (9.2.1.1);
 *   king walk    1.e4 e5 2.Ke3: the king cannot go two squares: illegal at
 *                ply 3.
 *
 * Each line is compared whole, but for its time. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "testutil.h"

#define FOOLS "1. f3 e5 2. g4 Qh4# "
#define KNIGHTS "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 "

static cli_t options(bool json)
{
    return (cli_t){ .json = json, .settle_ms = 2000, .lib = { .policy = ARB_RULES_FIDE } };
}

/* A game of round 1 at `board` with `moves` and `tail` (a marker or ""). */
static char *game(char *buf, size_t cap, int board, const char *result, const char *moves, const char *tail)
{
    snprintf(buf, cap,
             "[Event \"Open\"]\n[Round \"1\"]\n[White \"A%d\"]\n[Black \"B%d\"]\n[Result \"%s\"]\n[Board \"%d\"]\n\n%s%s\n\n",
             board, board, result, board, moves, tail);
    return buf;
}

/* out without the time of each line, then emptied. */
static char *untimed(strbuf_t *out, bool json)
{
    static char text[8192];
    size_t n = 0;
    for (size_t i = 0; i < out->len;) {
        const char *line = out->data + i;
        const char *nl = memchr(line, '\n', out->len - i);
        size_t len = nl ? (size_t)(nl - line) + 1 : out->len - i;
        size_t skip = json ? strlen("{\"time\":\"2026-01-01T00:00:00Z\"") : strlen("00:00:00 ");
        ck_assert_msg(len > skip, "line too short: %.*s", (int)len, line);
        if (json)
            text[n++] = '{';
        memcpy(text + n, line + skip, len - skip);
        n += len - skip;
        i += len;
    }
    text[n] = '\0';
    strbuf_clear(out);
    return text;
}

#define JHEAD(g, b) "{,\"file\":\"round.pgn\",\"game\":" #g ",\"tags\":{\"Event\":\"Open\",\"Round\":\"1\",\"Board\":\"" #b "\",\"White\":\"A" #b "\",\"Black\":\"B" #b "\"}"
#define MATE_MSG "the game is over: checkmate after 2...Qh4#, Black wins (0-1, Article 5.1.1)"

/* One watched file: the events of --follow on it, what they wrote, and the
 * file's text for the next read. */
typedef struct watch {
    cli_t cli;
    events_t *e;
    strbuf_t out;
    char text[4096];
    size_t len;
} watch_t;

/* only: the --only facts (0: all). */
static void watch_start(watch_t *w, bool json, unsigned only)
{
    w->cli = options(json);
    w->cli.only = only;
    w->e = events_new("round.pgn", &w->cli);
    ck_assert_ptr_nonnull(w->e);
    w->out = (strbuf_t){ 0 };
    w->len = 0;
}

static void watch_end(watch_t *w)
{
    strbuf_free(&w->out);
    events_free(w->e);
}

/* The file now holds a game of round 1 (see game()) after those before
 * it, or (put()) that game alone. */
static void add(watch_t *w, int board, const char *result, const char *moves, const char *tail)
{
    game(w->text + w->len, sizeof w->text - w->len, board, result, moves, tail);
    w->len += strlen(w->text + w->len);
}

static void put(watch_t *w, int board, const char *result, const char *moves, const char *tail)
{
    w->len = 0;
    add(w, board, result, moves, tail);
}

/* The file as it is, read at `now`. */
static void read_at(watch_t *w, double now)
{
    ck_assert(events_read(w->e, w->text, w->len, now, 0, &w->out));
}

/* What comes due at `now`. */
static void due(watch_t *w, double now)
{
    events_due(w->e, now, 0, &w->out);
}

START_TEST(fact_once)
{
    watch_t w;
    watch_start(&w, true, 0);
    put(&w, 1, "*", FOOLS, "*");
    read_at(&w, 0);
    ck_assert_str_eq(untimed(&w.out, true),
                     JHEAD(1, 1) ",\"event\":\"checkmate\",\"ply\":4,\"move\":\"2...Qh4#\",\"message\":\"" MATE_MSG "\"}\n");
    /* Read again, rewritten the same or with a comment added: nothing new. */
    read_at(&w, 1);
    put(&w, 1, "*", "1. f3 {clock} e5 2. g4 Qh4# ", "*");
    read_at(&w, 2);
    ck_assert_uint_eq(w.out.len, 0);
    ck_assert(events_next_due(w.e) < 0);
    watch_end(&w);
}
END_TEST

START_TEST(text_line)
{
    watch_t w;
    watch_start(&w, false, 0);
    put(&w, 7, "*", FOOLS, "*");
    read_at(&w, 0);
    ck_assert_str_eq(untimed(&w.out, false), "round.pgn: round 1 board 7 (A7 - B7): checkmate at 2...Qh4#: " MATE_MSG "\n");
    watch_end(&w);
}
END_TEST

/* Control characters of the file name and the tags are '?' in the line
 * (strbuf_put_text()): a broadcast cannot drive the arbiter's terminal. */
START_TEST(text_line_controls)
{
    cli_t cli = options(false);
    events_t *e = events_new("r\033[2J.pgn", &cli);
    ck_assert_ptr_nonnull(e);
    strbuf_t out = { 0 };
    const char *text = "[Round \"1\x7f\"]\n[White \"A\033]0;x\007\"]\n[Black \"B\tC\"]\n[Board \"2\"]\n\n" FOOLS "*\n";
    ck_assert(events_read(e, text, strlen(text), 0, 0, &out));
    ck_assert_str_eq(untimed(&out, false),
                     "r?[2J.pgn: round 1? board 2 (A?]0;x? - B C): checkmate at 2...Qh4#: " MATE_MSG "\n");
    strbuf_free(&out);
    events_free(e);
}
END_TEST

/* An illegal move may be a move cut in the middle: it waits for the settle
 * time, counted from the first read that showed it. */
START_TEST(illegal_waits)
{
    watch_t w;
    watch_start(&w, true, 0);
    put(&w, 1, "*", "1. e4 e5 2. Ke3 ", "*");
    read_at(&w, 10);
    ck_assert_uint_eq(w.out.len, 0);
    ck_assert(events_next_due(w.e) == 12);
    /* Another game changes; the illegal move is still there. */
    add(&w, 2, "*", "1. d4 ", "*");
    read_at(&w, 11);
    due(&w, 11.999);
    ck_assert_uint_eq(w.out.len, 0);
    due(&w, 12);
    ck_assert_str_eq(untimed(&w.out, true),
                     JHEAD(1, 1) ",\"event\":\"illegal\",\"ply\":3,\"move\":\"Ke3\",\"message\":\"the board recorded "
                                 "an illegal move at ply 3: \\\"Ke3\\\": no king can reach e3 (Article 7.5)\"}\n");
    ck_assert(events_next_due(w.e) < 0);
    /* Corrected: withdrawn at once (the game is complete). */
    put(&w, 1, "*", "1. e4 e5 2. Ke2 ", "*");
    read_at(&w, 13);
    ck_assert_str_eq(untimed(&w.out, true),
                     JHEAD(1, 1) ",\"event\":\"withdrawn\",\"withdraws\":\"illegal\",\"ply\":3,\"move\":\"Ke3\","
                                 "\"message\":\"illegal at Ke3 no longer holds: moves were taken back or corrected\"}\n");
    watch_end(&w);
}
END_TEST

/* A move that shows only while being written leaves no event. */
START_TEST(illegal_gone)
{
    watch_t w;
    watch_start(&w, true, 0);
    put(&w, 1, "*", "1. e4 e5 2. Ke3 ", "*");
    read_at(&w, 0);
    put(&w, 1, "*", "1. e4 e5 2. Ke2 ", "*");
    read_at(&w, 1);
    due(&w, 5);
    ck_assert_uint_eq(w.out.len, 0);
    watch_end(&w);
}
END_TEST

/* A game cut short (last of the read, no marker): a fact at its last ply
 * waits, since the move may be cut ("Qh4" of "Qh4xe7"); once the marker
 * is there it is reported at once. */
START_TEST(cut_last_ply)
{
    watch_t w;
    watch_start(&w, true, 0);
    put(&w, 1, "*", "1. f3 e5 2. g4 Qh4#", "");
    read_at(&w, 0);
    ck_assert_uint_eq(w.out.len, 0);
    put(&w, 1, "*", FOOLS, "*");
    read_at(&w, 0.5);
    ck_assert_str_eq(untimed(&w.out, true),
                     JHEAD(1, 1) ",\"event\":\"checkmate\",\"ply\":4,\"move\":\"2...Qh4#\",\"message\":\"" MATE_MSG "\"}\n");
    ck_assert(events_next_due(w.e) < 0);
    watch_end(&w);
}
END_TEST

/* Facts before the last ply of a cut game are reported at once; a file
 * that stays cut is taken as it is after the settle time. */
START_TEST(cut_earlier_ply)
{
    watch_t w;
    watch_start(&w, true, 0);
    put(&w, 1, "*", KNIGHTS "Ng8 5. Nf", "");
    read_at(&w, 0);
    ck_assert_str_eq(untimed(&w.out, true),
                     JHEAD(1, 1) ",\"event\":\"threefold\",\"ply\":7,\"move\":\"4.Ng1\",\"message\":\"Black may claim a "
                                 "draw by declaring 4...Ng8 (the position would occur a third time, Article 9.2.1.1)\"}\n");
    /* The cut move: unreadable, once it has stayed so. */
    due(&w, 1.9);
    ck_assert_uint_eq(w.out.len, 0);
    due(&w, 2);
    ck_assert_str_eq(untimed(&w.out, true),
                     JHEAD(1, 1) ",\"event\":\"syntax\",\"ply\":9,\"move\":\"Nf\",\"message\":\"the game cannot be "
                                 "read: cannot read \\\"Nf\\\" as a move\"}\n");
    watch_end(&w);
}
END_TEST

/* Two moves taken back: the claim no longer holds.  In a complete game at
 * once; in a cut one only once it has stayed cut for the settle time. */
START_TEST(withdrawn)
{
    watch_t w;
    watch_start(&w, true, 0);
    const char *three = JHEAD(1, 1) ",\"event\":\"threefold\",\"ply\":7,\"move\":\"4.Ng1\",\"message\":\"Black may "
                                    "claim a draw by declaring 4...Ng8 (the position would occur a third time, "
                                    "Article 9.2.1.1)\"}\n";
    const char *gone = JHEAD(1, 1) ",\"event\":\"withdrawn\",\"withdraws\":\"threefold\",\"ply\":7,\"move\":\"4.Ng1\","
                                   "\"message\":\"threefold at 4.Ng1 no longer holds: moves were taken back or "
                                   "corrected\"}\n";
    put(&w, 1, "*", KNIGHTS "Ng8 ", "*");
    read_at(&w, 0);
    ck_assert_str_eq(untimed(&w.out, true), three);
    put(&w, 1, "*", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 ", "*");
    read_at(&w, 1);
    ck_assert_str_eq(untimed(&w.out, true), gone);
    /* Played again: a new event. */
    put(&w, 1, "*", KNIGHTS, "*");
    read_at(&w, 2);
    ck_assert_str_eq(untimed(&w.out, true), three);
    /* Cut before the claim, then read again (another game changed): the
     * withdrawal waits from the first cut read. */
    put(&w, 1, "*", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf", "");
    read_at(&w, 10);
    ck_assert_uint_eq(w.out.len, 0);
    put(&w, 2, "*", "1. d4 ", "*");
    add(&w, 1, "*", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf", "");
    read_at(&w, 11);
    ck_assert_uint_eq(w.out.len, 0);
    due(&w, 11.9);
    ck_assert_uint_eq(w.out.len, 0);
    due(&w, 12);
    const char *s = untimed(&w.out, true);
    ck_assert_msg(strstr(s, "\"withdraws\":\"threefold\"") && strstr(s, "\"event\":\"syntax\""), "got %s", s);
    watch_end(&w);
}
END_TEST

/* Games are known by Round and Board: a game added before others, or a read
 * that lacks the last games (cut off), changes nothing for the others. */
START_TEST(matching)
{
    watch_t w;
    watch_start(&w, true, 0);
    put(&w, 1, "*", FOOLS, "*");
    add(&w, 2, "*", KNIGHTS, "*");
    read_at(&w, 0);
    const char *s = untimed(&w.out, true);
    ck_assert_msg(strstr(s, "\"Board\":\"1\"") && strstr(s, "\"Board\":\"2\""), "got %s", s);
    /* Board 3 joins first in the file. */
    put(&w, 3, "*", "1. e4 ", "*");
    add(&w, 1, "*", FOOLS, "*");
    add(&w, 2, "*", KNIGHTS, "*");
    read_at(&w, 1);
    ck_assert_uint_eq(w.out.len, 0);
    /* A name corrected: still board 1 of round 1. */
    char *a1 = strstr(w.text, "\"A1\"");
    ck_assert(a1);
    a1[1] = 'Z';
    read_at(&w, 1.5);
    ck_assert_uint_eq(w.out.len, 0);
    /* Cut after board 3: boards 1 and 2 keep what they reported. */
    put(&w, 3, "*", "1. e4 ", "*");
    read_at(&w, 2);
    due(&w, 10);
    ck_assert_uint_eq(w.out.len, 0);
    watch_end(&w);
}
END_TEST

START_TEST(result_contradicted)
{
    watch_t w;
    watch_start(&w, true, 0);
    put(&w, 1, "1-0", FOOLS, "1-0");
    read_at(&w, 0);
    const char *s = untimed(&w.out, true);
    ck_assert_msg(strstr(s, "\"event\":\"result\",\"ply\":4,\"move\":\"2...Qh4#\",\"message\":\"Result \\\"1-0\\\" "
                            "contradicts checkmate at 2...Qh4#: the result is 0-1\"}\n"),
                  "got %s", s);
    watch_end(&w);
}
END_TEST

START_TEST(only)
{
    watch_t w;
    watch_start(&w, true, 1u << ARB_THREEFOLD);
    put(&w, 1, "1-0", FOOLS, "1-0");
    add(&w, 2, "*", "1. e4 e5 2. Ke3 ", "*");
    add(&w, 3, "*", KNIGHTS, "*");
    read_at(&w, 0);
    due(&w, 10);
    const char *s = untimed(&w.out, true);
    ck_assert_msg(strstr(s, "\"event\":\"threefold\"") && !strstr(s, "checkmate") && !strstr(s, "illegal") &&
                      !strstr(s, "\"result\""),
                  "got %s", s);
    watch_end(&w);
}
END_TEST

/* ---- a stream (--follow -): each text holds copies of some games ---------- */

/* The stream's next text: copies of games, read as they come. */
static void send_at(watch_t *w, bool last_cut, double now)
{
    ck_assert(events_stream_read(w->e, w->text, w->len, last_cut, now, 0, &w->out));
}

/* Each copy replaces the one before; the others stay as they were, and a
 * game's number is its place in the order of first arrival. */
START_TEST(stream_copies)
{
    watch_t w;
    watch_start(&w, true, 0);
    put(&w, 2, "*", "1. f3 e5 ", "*");
    add(&w, 1, "*", "1. f3 e5 2. g4 ", "*");
    send_at(&w, false, 0);
    ck_assert_uint_eq(w.out.len, 0);
    put(&w, 1, "*", FOOLS, "*");
    send_at(&w, false, 1);
    ck_assert_str_eq(untimed(&w.out, true),
                     JHEAD(2, 1) ",\"event\":\"checkmate\",\"ply\":4,\"move\":\"2...Qh4#\",\"message\":\"" MATE_MSG "\"}\n");
    /* Board 2 sent again, board 1 sent again unchanged or with a clock
     * comment: nothing new, nothing withdrawn. */
    put(&w, 2, "*", "1. f3 e5 2. g4 ", "*");
    add(&w, 1, "*", FOOLS, "*");
    add(&w, 1, "*", "1. f3 {[%clk 1:00:00]} e5 2. g4 Qh4# ", "*");
    send_at(&w, false, 2);
    ck_assert_uint_eq(w.out.len, 0);
    /* The mate taken back, then played again, in one text: each copy is
     * read in turn. */
    put(&w, 1, "*", "1. f3 e5 2. g4 ", "*");
    add(&w, 1, "0-1", FOOLS, "0-1");
    send_at(&w, false, 3);
    const char *s = untimed(&w.out, true);
    ck_assert_msg(strstr(s, "\"event\":\"withdrawn\",\"withdraws\":\"checkmate\"") &&
                      strstr(strstr(s, "withdrawn"), "\"event\":\"checkmate\""),
                  "got %s", s);
    ck_assert(events_next_due(w.e) < 0);
    /* An illegal move corrected by the next copy in the same text: the
     * event it waited for is gone. */
    put(&w, 3, "*", "1. e4 e5 2. Ke3 ", "*");
    add(&w, 3, "*", "1. e4 e5 2. Ke2 ", "*");
    send_at(&w, false, 4);
    due(&w, 100);
    ck_assert_uint_eq(w.out.len, 0);
    watch_end(&w);
}
END_TEST

/* A copy cut short waits as a file's last game does; at the end of the
 * stream what waits is written, but not what the cut may show. */
START_TEST(stream_cut_and_end)
{
    watch_t w;
    watch_start(&w, true, 0);
    put(&w, 1, "*", "1. e4 e5 2. Ke3 ", "*");
    send_at(&w, false, 0);
    ck_assert_uint_eq(w.out.len, 0); /* an illegal move waits for the settle time */
    /* Board 2 cut inside its move: reads as illegal, and waits. */
    snprintf(w.text, sizeof w.text, "[Event \"Open\"]\n[Round \"1\"]\n[White \"A2\"]\n[Black \"B2\"]\n"
                                    "[Result \"*\"]\n[Board \"2\"]\n\n1. e4 e5 2. Ke");
    w.len = strlen(w.text);
    send_at(&w, true, 0.5);
    ck_assert_uint_eq(w.out.len, 0);
    ck_assert(events_end(w.e, 0, &w.out));
    const char *s = untimed(&w.out, true);
    ck_assert_msg(strstr(s, "\"Board\":\"1\"") && strstr(s, "\"event\":\"illegal\"") && !strstr(s, "\"Board\":\"2\""),
                  "got %s", s);
    watch_end(&w);
}
END_TEST

/* The URL of a lichess broadcast chapter names the game, whatever its
 * other tags say; a round's URL (one segment less) names no game. */
START_TEST(stream_chapter_url)
{
    static const char url[] = "https://lichess.org/broadcast/open/round-1/abcdEFGH/";
    watch_t w;
    watch_start(&w, true, 0);
    w.len = 0;
    for (int k = 0; k < 2; k++)
        w.len += (size_t)snprintf(w.text + w.len, sizeof w.text - w.len,
                                  "[Event \"Open\"]\n[Round \"1.%d\"]\n[White \"A\"]\n[Black \"B\"]\n[GameURL \"%s%s\"]\n\n%s*\n\n",
                                  k + 1, url, k ? "chapter2" : "chapter1", FOOLS);
    send_at(&w, false, 0);
    const char *s = untimed(&w.out, true);
    ck_assert_msg(strstr(s, "\"game\":1") && strstr(s, "\"game\":2"), "got %s", s);
    /* Chapter 1 sent again with its round corrected: the same game. */
    w.len = (size_t)snprintf(w.text, sizeof w.text,
                             "[Event \"Open\"]\n[Round \"1.3\"]\n[White \"A\"]\n[Black \"B\"]\n[GameURL \"%schapter1\"]\n\n%s*\n\n",
                             url, FOOLS);
    send_at(&w, false, 1);
    ck_assert_uint_eq(w.out.len, 0);
    /* The round's own URL: games told apart by Round, White and Black. */
    w.len = 0;
    for (int k = 0; k < 2; k++)
        w.len += (size_t)snprintf(w.text + w.len, sizeof w.text - w.len,
                                  "[Event \"Open\"]\n[Round \"2.%d\"]\n[White \"A\"]\n[Black \"B\"]\n[GameURL \"%.*s\"]\n\n%s*\n\n",
                                  k + 1, (int)strlen(url) - 1, url, FOOLS);
    send_at(&w, false, 2);
    s = untimed(&w.out, true);
    ck_assert_msg(strstr(s, "\"game\":3") && strstr(s, "\"game\":4"), "got %s", s);
    watch_end(&w);
}
END_TEST

/* A stop asked for (a signal's flag) ends a read before its next game; a
 * later read, the flag cleared, says all. */
START_TEST(stop)
{
    watch_t w;
    volatile sig_atomic_t flag = 1;
    watch_start(&w, true, 0);
    events_set_stop(w.e, &flag);
    put(&w, 1, "*", FOOLS, "*");
    add(&w, 2, "*", FOOLS, "*");
    read_at(&w, 0);
    ck_assert_uint_eq(w.out.len, 0);
    flag = 0;
    read_at(&w, 1);
    const char *s = untimed(&w.out, true);
    const char *second = strstr(s, "checkmate");
    ck_assert_msg(second && strstr(second + 1, "checkmate"), "got %s", s);
    watch_end(&w);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("events");
    TCase *tc = tcase_create("events");
    tcase_add_test(tc, fact_once);
    tcase_add_test(tc, text_line);
    tcase_add_test(tc, text_line_controls);
    tcase_add_test(tc, illegal_waits);
    tcase_add_test(tc, illegal_gone);
    tcase_add_test(tc, cut_last_ply);
    tcase_add_test(tc, cut_earlier_ply);
    tcase_add_test(tc, withdrawn);
    tcase_add_test(tc, matching);
    tcase_add_test(tc, result_contradicted);
    tcase_add_test(tc, only);
    tcase_add_test(tc, stream_copies);
    tcase_add_test(tc, stream_cut_and_end);
    tcase_add_test(tc, stream_chapter_url);
    tcase_add_test(tc, stop);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
