/* game.c: what the program does with each game (game.h). */
#include "game.h"

#include "accept.h"

#include <string.h>

static bool keep(const cli_t *cli, const arb_game *g)
{
    if (!cli->only)
        return true;
    for (int f = 0; f < ARB_FACT_COUNT; f++)
        if ((cli->only & (1u << f)) && g->first[f] >= 0)
            return true;
    return false;
}

static void game_diagnostic(strbuf_t *diag, const char *file, const arb_game *g)
{
    if (!g->has_error)
        return;
    char pos[64];
    strbuf_puts(diag, "pgn-arbiter: ");
    strbuf_put_text(diag, file, strlen(file));
    snprintf(pos, sizeof pos, ":%llu:%u: error: game ", (unsigned long long)g->error.line, (unsigned)g->error.col);
    strbuf_puts(diag, pos);
    report_game_number(diag, g->number);
    strbuf_puts(diag, ": ");
    strbuf_put_text(diag, g->error.message, strlen(g->error.message));
    strbuf_puts(diag, "\n");
}

void cli_add_stats(stats_t *st, const stats_t *p)
{
    st->games += p->games;
    st->rewritten += p->rewritten;
    for (int i = 0; i < 5; i++)
        st->status[i] += p->status[i];
    for (int v = 0; v < ARB_VERDICT_COUNT; v++)
        st->verdict[v] += p->verdict[v];
    for (int c = 0; c < ARB_CHECK_COUNT; c++)
        st->reason_check[c] += p->reason_check[c];
    st->no_reason += p->no_reason;
    for (int f = 0; f < ARB_FACT_COUNT; f++)
        st->fact[f] += p->fact[f];
    st->problems.errors += p->problems.errors;
    st->problems.warnings += p->problems.warnings;
    st->problems.accepted += p->problems.accepted;
    st->baseline_failed = st->baseline_failed || p->baseline_failed;
}

/* Bytes gathered for one fwrite() while renumbering. */
typedef struct {
    char buf[1u << 16];
    size_t used;
    FILE *f;
    bool ok;
} stage_t;

static void stage_put(stage_t *s, const char *p, size_t n)
{
    if (s->used + n > sizeof s->buf) {
        s->ok = s->ok && fwrite(s->buf, 1, s->used, s->f) == s->used;
        s->used = 0;
        if (n > sizeof s->buf) {
            s->ok = s->ok && fwrite(p, 1, n, s->f) == n;
            return;
        }
    }
    memcpy(s->buf + s->used, p, n);
    s->used += n;
}

bool cli_write(strbuf_t *b, uint64_t base, FILE *f)
{
    bool ok = !b->oom;
    size_t pos = 0;
    if (base && b->nnumbers) {
        /* The pieces between numbers and the new numbers go out through a
         * staging buffer: a few writes a buffer, not two a game. */
        stage_t stage, *s = &stage;
        s->used = 0;
        s->f = f;
        s->ok = ok;
        for (size_t i = 0; i < b->nnumbers; i++) {
            const strbuf_number_t *n = &b->numbers[i];
            char digits[20];
            size_t k = sizeof digits;
            uint64_t v = n->value + base;
            do
                digits[--k] = (char)('0' + v % 10);
            while (v /= 10);
            stage_put(s, b->data + pos, n->at - pos);
            stage_put(s, digits + k, sizeof digits - k);
            pos = n->at + n->len;
        }
        stage_put(s, b->data + pos, b->len - pos);
        ok = s->ok && fwrite(s->buf, 1, s->used, f) == s->used;
        pos = b->len;
    }
    /* (b->data is NULL while nothing was ever appended.) */
    ok = ok && (pos == b->len || fwrite(b->data + pos, 1, b->len - pos, f) == b->len - pos);
    strbuf_clear(b);
    return ok;
}

void cli_handle_game(const cli_t *cli, stats_t *st, const char *name, const arb_game *g,
                     strbuf_t *out, strbuf_t *problems, strbuf_t *diag, rewriter_t *w)
{
    st->games++;
    st->status[g->status]++;
    st->verdict[g->verdict]++;
    if (g->nreasons)
        st->reason_check[report_reason_check(g)]++;
    else
        st->no_reason++;
    for (int f = 0; f < ARB_FACT_COUNT; f++)
        st->fact[f] += g->first[f] >= 0;
    bool accepted = false;
    if (cli->check || cli->fix) {
        /* --fix alone counts problems for the summary line without listing them. */
        size_t mark = problems->len, nmark = problems->nnumbers;
        format_options_t opt = { .strict = cli->strict, .color = cli->color_problems,
                                 .show_accepted = cli->show_accepted, .baseline = cli->baseline != NULL };
        accept_game_t acc;
        strbuf_t entries = { 0 };
        accept_begin(&acc, cli, name, g, cli->baseline_out ? &entries : NULL, &opt);
        unsigned long long before = st->problems.accepted;
        format_game_accepting(problems, cli->format, &opt, name, g, &st->problems);
        accepted = st->problems.accepted > before;
        if (entries.oom || (entries.len && fwrite(entries.data, 1, entries.len, cli->baseline_out) != entries.len))
            st->baseline_failed = true;
        strbuf_free(&entries);
        if (!cli->check) {
            problems->len = mark;
            problems->nnumbers = nmark;
        }
        if (cli->max_errors && st->problems.errors >= cli->max_errors)
            st->stop = true;
    }
    if (!cli->check)
        game_diagnostic(diag, name, g);
    if (cli->fix) {
        /* A game with an accepted problem keeps its result: rewrite_game()
         * copies a game that is not ARB_OK as it is. */
        arb_game kept;
        if (accepted) {
            kept = *g;
            kept.status = ARB_SYNTAX;
        }
        int changed = rewrite_game(w, accepted ? &kept : g, out);
        if (changed > 0)
            st->rewritten++;
        if (changed < 0) {
            /* Said even without --check: the user asked for a change that was not made. */
            char pos[100];
            strbuf_puts(diag, "pgn-arbiter: ");
            strbuf_put_text(diag, name, strlen(name));
            const arb_span *at = g->marker_in_word && changed == -1 ? &g->marker_span : &g->where;
            snprintf(pos, sizeof pos, ":%llu:%u: warning: game ", (unsigned long long)at->line, (unsigned)at->col);
            strbuf_puts(diag, pos);
            report_game_number(diag, g->number);
            if (changed == -2)
                snprintf(pos, sizeof pos, ": not rewritten: its text passes %u MiB, the most --fix holds; "
                         "copied as it is\n", (unsigned)(REWRITE_GAME_MAX >> 20));
            strbuf_puts(diag, changed == -2 ? pos : ": not rewritten: the change falls inside a word of its "
                                                    "movetext, which would then read as other moves\n");
            st->problems.warnings++;
        }
        return;
    }
    if (cli->check || !keep(cli, g))
        return;
    if (cli->json)
        report_json(out, g, name);
    else
        report_text_color(out, g, name, cli->color_out);
}
