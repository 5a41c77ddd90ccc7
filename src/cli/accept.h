/* accept.h: which problems of a game are accepted as they are: those its
 * [ArbiterAccept "RULE[,RULE...][; why]"] tag names, and those an entry of
 * the baseline holds (--baseline), or that --write-baseline writes; and the
 * problems of acceptance itself: a tag naming a rule --check does not have
 * (accept-unknown), or accepting a problem its game does not have
 * (accept-unused). */
#ifndef ARB_CLI_ACCEPT_H
#define ARB_CLI_ACCEPT_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "format.h"

#define ACCEPT_MAX_RULES 32 /* rules one tag may name; more are left out */

/* The acceptance of one game; on the stack of whoever handles the game. */
typedef struct accept_game {
    const char *name;              /* the input's name */
    struct baseline *baseline;     /* --baseline, NULL if none */
    strbuf_t *write;               /* --write-baseline: the entries go here; NULL if not */
    size_t nrules;                 /* rules the tag names, 0..ACCEPT_MAX_RULES */
    int rules[ACCEPT_MAX_RULES];   /* report_rule_t, or -1 for a name that is none */
    bool used[ACCEPT_MAX_RULES];   /* has accepted a problem */
    char names[ACCEPT_MAX_RULES][40]; /* the names as written */
    char why[400];                 /* the tag's justification, "" if none */
    bool strict;                   /* --strict: the problems of acceptance are errors */
} accept_game_t;

/* Reads g's ArbiterAccept tag into a and fills opt's accept, more and ctx
 * (a) for format_game_accepting(); write: where --write-baseline's entries
 * go (NULL if not). */
void accept_begin(accept_game_t *a, const cli_t *cli, const char *name, const arb_game *g, strbuf_t *write,
                  format_options_t *opt);

/* Parses an ArbiterAccept value into a's rules and why (for the tests too). */
void accept_parse(accept_game_t *a, const char *value);

#endif
