/* baseline.h: the baseline of --check: problems accepted as they are, one
 * JSON object per line, each naming a game by its id and a problem by its
 * rule ({"id":"v1:...","rule":"wrong-result","file":...,"game":...,
 * "white":...,"black":...,"message":...}; only id and rule are read back,
 * the rest is for people).  --write-baseline writes it, --baseline reads
 * it: each entry accepts one problem of that rule in a game of that id, so
 * two identical games need two entries.  Entries that accept nothing are
 * stale: listed at the end, so that a baseline only shrinks. */
#ifndef ARB_CLI_BASELINE_H
#define ARB_CLI_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format.h"
#include "report.h"

typedef struct baseline baseline_t;

/* Reads the baseline at path.  NULL if it cannot be read or a line is not
 * an entry, with what is wrong in err ("FILE:LINE: ..." or "FILE: ..."). */
baseline_t *baseline_load(const char *path, char *err, size_t errcap);

/* Parses one line of a baseline (without its line end) into *id and
 * *rule; false, with why in err, if it is not an entry.  (For the tests.) */
bool baseline_parse_line(const char *line, size_t len, uint64_t *id, report_rule_t *rule, char *err, size_t errcap);

void baseline_free(baseline_t *bl);

/* Uses an entry of bl for (id, rule), the first in the file not used yet;
 * false if there is none left. */
bool baseline_take(baseline_t *bl, uint64_t id, report_rule_t rule);

/* Appends the entry that accepts problem p of game g in input `name`. */
void baseline_entry(strbuf_t *b, const char *name, const arb_game *g, const report_problem_t *p);

/* Notes that input `name` is read in this run. */
void baseline_input(baseline_t *bl, const char *name);

/* Appends the entries of bl that accepted nothing, as format f gives
 * problems (for sarif and junit: held-file lines), and counts them as
 * warnings (errors with strict): those whose file was read in this run
 * (baseline_input()) or no longer exists.  Returns how many there were. */
size_t baseline_stale(const baseline_t *bl, cli_format_t f, bool strict, strbuf_t *b, report_counts_t *counts);

/* The file's name as given. */
const char *baseline_path(const baseline_t *bl);

#endif
