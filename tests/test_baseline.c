/* test_baseline.c: the baseline of --check (src/cli/baseline.c): a line
 * read back as its id and rule, the lines that are not entries and why,
 * an entry written and read again, and entries used once each, so that
 * two identical games need two; and the ArbiterAccept value
 * (src/cli/accept.c) read into rules and a justification. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accept.h"
#include "baseline.h"
#include "testutil.h"

START_TEST(lines)
{
    uint64_t id = 0;
    report_rule_t rule = REPORT_SYNTAX;
    char err[160];
    const char *ok = "{\"id\":\"v1:0123456789abcdef\",\"rule\":\"wrong-result\",\"file\":\"a\\\"b.pgn\","
                     "\"game\":3,\"white\":\"\\u00e9\\ud83d\\ude00\",\"extra\":[1],\"x\":null}";
    /* (An array is not a value this reader takes: the line is refused.) */
    CHECK(!baseline_parse_line(ok, strlen(ok), &id, &rule, err, sizeof err), "an array was taken");
    const char *good = "  {\"rule\": \"no-marker\", \"id\": \"v1:0123456789abcdef\", \"game\": 3, \"x\": true,"
                       " \"white\": \"\\u00e9\\ud83d\\ude00\", \"n\": -1.5e3}  ";
    CHECK(baseline_parse_line(good, strlen(good), &id, &rule, err, sizeof err), "refused: %s", err);
    CHECK(id == 0x0123456789abcdefULL && rule == REPORT_NO_MARKER, "read %016llx %d", (unsigned long long)id,
          (int)rule);
    const struct {
        const char *line, *why;
    } bad[] = {
        { "", "not a JSON object" },
        { "[1]", "not a JSON object" },
        { "{\"id\":\"v1:0123456789abcdef\"}", "no \"rule\"" },
        { "{\"rule\":\"syntax\"}", "no \"id\"" },
        { "{\"id\":\"v1:0123456789ABCDEF\",\"rule\":\"syntax\"}", "\"id\" is not a game id" },
        { "{\"id\":\"v2:0123456789abcdef\",\"rule\":\"syntax\"}", "\"id\" is not a game id" },
        { "{\"id\":\"v1:0123456789abcde\",\"rule\":\"syntax\"}", "\"id\" is not a game id" },
        { "{\"id\":\"v1:0123456789abcdef\",\"rule\":\"nope\"}", "\"rule\" is not a rule of --check" },
        { "{\"id\":\"v1:0123456789abcdef\",\"rule\":\"syntax\"", "the object is not closed" },
        { "{\"id\":\"v1:0123456789abcdef\",\"rule\":\"syntax\"} x", "text after the object" },
        { "{\"id\":\"v1:0123456789abcdef\" \"rule\":\"syntax\"}", "',' or '}' was expected" },
        { "{\"id\":\"v1:0123456789abcdef\",\"rule\":\"syn\\q\"}", "a bad escape in a string" },
        { "{\"id\":\"v1:0123456789abcdef\",\"rule\":\"\\ud800\"}", "a lone surrogate in a string" },
        { "{\"id\":\"v1:0123456789abcdef\",\"rule\":\"syntax", "a string is not closed" },
        { "{\"id\" \"v1:0123456789abcdef\"}", "':' was expected" },
        { "{\"id\":v1}", "a value was expected" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        CHECK(!baseline_parse_line(bad[i].line, strlen(bad[i].line), &id, &rule, err, sizeof err),
              "taken: %s", bad[i].line);
        CHECK(strncmp(err, bad[i].why, strlen(bad[i].why)) == 0, "%s: said \"%s\", expected \"%s\"", bad[i].line, err,
              bad[i].why);
    }
}
END_TEST

START_TEST(written_and_used)
{
    arb_tag tags[2] = { { "White", "A \"x\"", 5, 5 }, { "Black", "B", 5, 1 } };
    arb_game g;
    memset(&g, 0, sizeof g);
    g.number = 2;
    g.tags = tags;
    g.ntags = 2;
    g.id = 0xfedcba9876543210ULL;
    report_problem_t p = { .rule = REPORT_WRONG_RESULT, .error = true, .game = 2, .line = 5, .col = 1,
                           .message = "Result \"1-0\" contradicts checkmate" };
    strbuf_t b = { 0 };
    baseline_entry(&b, "./d/a.pgn", &g, &p);
    baseline_entry(&b, "./d/a.pgn", &g, &p);
    strbuf_append(&b, "", 1);
    const char *want = "{\"id\":\"v1:fedcba9876543210\",\"rule\":\"wrong-result\",\"file\":\"d/a.pgn\",\"game\":2,"
                       "\"white\":\"A \\\"x\\\"\",\"black\":\"B\",\"message\":\"Result \\\"1-0\\\" contradicts "
                       "checkmate\"}\n";
    CHECK(strncmp(b.data, want, strlen(want)) == 0, "entry:\n  got:      %s  expected: %s", b.data, want);
    char path[] = "/tmp/test_baseline.XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    FILE *f = fdopen(fd, "w");
    fputs(b.data, f);
    fputs("\n   \n", f); /* blank lines are no entries */
    fclose(f);
    strbuf_free(&b);
    char err[300];
    baseline_t *bl = baseline_load(path, err, sizeof err);
    CHECK(bl != NULL, "not read: %s", err);
    CHECK(!baseline_take(bl, g.id, REPORT_NO_MARKER), "another rule taken");
    CHECK(!baseline_take(bl, g.id + 1, REPORT_WRONG_RESULT), "another game taken");
    CHECK(baseline_take(bl, g.id, REPORT_WRONG_RESULT) && baseline_take(bl, g.id, REPORT_WRONG_RESULT),
          "two entries, not two uses");
    CHECK(!baseline_take(bl, g.id, REPORT_WRONG_RESULT), "a third use of two entries");
    report_counts_t c = { 0, 0, 0 };
    CHECK(baseline_stale(bl, CLI_FORMAT_GNU, false, &b, &c) == 0 && c.warnings == 0, "stale after use");
    baseline_free(bl);
    strbuf_free(&b);
    /* A line that is no entry: the file and line are named. */
    f = fopen(path, "w");
    fputs("{\"id\":\"v1:fedcba9876543210\",\"rule\":\"wrong-result\"}\n\nnot json\n", f);
    fclose(f);
    CHECK(baseline_load(path, err, sizeof err) == NULL, "a bad line taken");
    char where[400];
    snprintf(where, sizeof where, "%s:3: not a baseline entry: not a JSON object", path);
    CHECK(strcmp(err, where) == 0, "said \"%s\"", err);
    unlink(path);
    CHECK(baseline_load(path, err, sizeof err) == NULL, "a missing file read");
}
END_TEST

START_TEST(accept_values)
{
    accept_game_t a;
    accept_parse(&a, " wrong-result , no-marker,bogus; upheld by the appeals committee; twice ");
    CHECK(a.nrules == 3, "%zu rules", a.nrules);
    CHECK(a.rules[0] == REPORT_WRONG_RESULT && a.rules[1] == REPORT_NO_MARKER && a.rules[2] == -1, "rules %d %d %d",
          a.rules[0], a.rules[1], a.rules[2]);
    CHECK(strcmp(a.names[2], "bogus") == 0, "name %s", a.names[2]);
    CHECK(strcmp(a.why, "upheld by the appeals committee; twice") == 0, "why \"%s\"", a.why);
    accept_parse(&a, "syntax");
    CHECK(a.nrules == 1 && a.rules[0] == REPORT_SYNTAX && a.why[0] == '\0', "one rule, no why");
    accept_parse(&a, ",, ;");
    CHECK(a.nrules == 0 && a.why[0] == '\0', "nothing named");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("baseline");
    TCase *tc = tcase_create("baseline");
    tcase_add_test(tc, lines);
    tcase_add_test(tc, written_and_used);
    tcase_add_test(tc, accept_values);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
