/* accept.c: accepted problems (accept.h).  The tag comes first: a problem
 * it names is accepted there, and uses no baseline entry. */
#include "accept.h"

#include <stdio.h>
#include <string.h>

#include "baseline.h"

static void trim(const char **s, const char **end)
{
    while (*s < *end && (**s == ' ' || **s == '\t'))
        (*s)++;
    while (*end > *s && ((*end)[-1] == ' ' || (*end)[-1] == '\t'))
        (*end)--;
}

void accept_parse(accept_game_t *a, const char *value)
{
    a->nrules = 0;
    a->why[0] = '\0';
    const char *semi = strchr(value, ';'), *end = semi ? semi : value + strlen(value);
    if (semi) {
        const char *w = semi + 1, *wend = w + strlen(w);
        trim(&w, &wend);
        snprintf(a->why, sizeof a->why, "%.*s", (int)(wend - w), w);
    }
    for (const char *p = value; p < end && a->nrules < ACCEPT_MAX_RULES;) {
        const char *comma = memchr(p, ',', (size_t)(end - p)), *stop = comma ? comma : end, *s = p;
        trim(&s, &stop);
        if (stop > s) {
            size_t i = a->nrules++;
            snprintf(a->names[i], sizeof a->names[i], "%.*s", (int)(stop - s), s);
            a->rules[i] = -1;
            a->used[i] = false;
            for (int r = 0; r < REPORT_RULE_COUNT; r++)
                if (strlen(report_rule_info((report_rule_t)r)->id) == (size_t)(stop - s) &&
                    memcmp(report_rule_info((report_rule_t)r)->id, s, (size_t)(stop - s)) == 0)
                    a->rules[i] = r;
        }
        p = comma ? comma + 1 : end;
    }
}

static void decide(void *ctx, const arb_game *g, const report_problem_t *p, format_verdict_t *v)
{
    accept_game_t *a = ctx;
    bool named = false;
    for (size_t i = 0; i < a->nrules; i++)
        if (a->rules[i] == (int)p->rule) {
            a->used[i] = true;
            named = true;
        }
    /* An acceptance's own problems are not accepted by the tag they concern. */
    if (named && p->rule != REPORT_ACCEPT_UNKNOWN && p->rule != REPORT_ACCEPT_UNUSED) {
        v->accepted = FORMAT_IN_SOURCE;
        v->why = a->why;
        return;
    }
    if (a->write) {
        baseline_entry(a->write, a->name, g, p);
        v->accepted = FORMAT_EXTERNAL;
    } else if (a->baseline && baseline_take(a->baseline, arb_game_id(g), p->rule)) {
        v->accepted = FORMAT_EXTERNAL;
    }
}

/* A problem of acceptance, at the game's first line. */
static void emit(report_problem_fn *fn, void *fn_ctx, const arb_game *g, report_rule_t rule, bool strict,
                 const char *message)
{
    report_problem_t p = {
        .rule = rule,
        .error = report_rule_info(rule)->error || strict,
        .game = g->number,
        .line = g->where.line,
        .col = g->where.col ? g->where.col : 1,
        .message = message,
    };
    fn(fn_ctx, g, &p);
}

static void more(void *ctx, const arb_game *g, report_problem_fn *fn, void *fn_ctx)
{
    accept_game_t *a = ctx;
    /* The strictness is the problems': --strict makes these errors too. */
    bool strict = a->strict;
    char msg[200];
    for (size_t i = 0; i < a->nrules; i++) {
        if (a->rules[i] < 0) {
            snprintf(msg, sizeof msg, "ArbiterAccept names \"%s\", which is not a rule of --check", a->names[i]);
            emit(fn, fn_ctx, g, REPORT_ACCEPT_UNKNOWN, strict, msg);
        } else if (!a->used[i]) {
            snprintf(msg, sizeof msg, "ArbiterAccept accepts %s, but the game has no such problem", a->names[i]);
            emit(fn, fn_ctx, g, REPORT_ACCEPT_UNUSED, strict, msg);
        }
    }
}

void accept_begin(accept_game_t *a, const cli_t *cli, const char *name, const arb_game *g, strbuf_t *write,
                  format_options_t *opt)
{
    a->name = name;
    a->baseline = cli->baseline;
    a->write = write;
    a->strict = cli->strict;
    a->nrules = 0;
    if (g->accept)
        accept_parse(a, g->accept);
    opt->accept = decide;
    opt->more = a->nrules ? more : NULL;
    opt->ctx = a;
}
