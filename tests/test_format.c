/* test_format.c: the --check formats of src/cli/format.c: the escapers
 * (GitHub workflow commands, XML, paths and URIs) and a game's part of
 * each format, written from the workflow-command, XML and SARIF rules by
 * hand. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format.h"
#include "testutil.h"

/* b must hold exactly want (NUL-terminated); b is emptied. */
#define SAME(what, b, want)                                                                       \
    do {                                                                                          \
        strbuf_append((b), "", 1);                                                                \
        CHECK(strcmp((b)->data, (want)) == 0, "%s:\n  got:      %s\n  expected: %s", (what),       \
              (b)->data, (want));                                                                 \
        strbuf_clear(b);                                                                          \
    } while (0)

START_TEST(github_escapes)
{
    strbuf_t b = { 0 };
    const char *s = "100%, Smith: J\r\nnext";
    format_github_escape(&b, s, true);
    SAME("a property", &b, "100%25%2C Smith%3A J%0D%0Anext");
    format_github_escape(&b, s, false);
    SAME("a message", &b, "100%25, Smith: J%0D%0Anext");
    format_github_escape(&b, "plain text (1-0)", true);
    SAME("nothing to escape", &b, "plain text (1-0)");
    /* Escaping comes first: an input that looks escaped stays itself. */
    format_github_escape(&b, "%3A%2C", true);
    SAME("already escaped", &b, "%253A%252C");
    strbuf_free(&b);
}
END_TEST

START_TEST(xml_escapes)
{
    strbuf_t b = { 0 };
    const char s[] = "<a & b> \"q\" 'p'\t\n\r";
    format_xml_escape(&b, s, sizeof s - 1);
    SAME("markup and white space", &b, "&lt;a &amp; b&gt; &quot;q&quot; &apos;p&apos;&#9;&#10;&#13;");
    /* XML 1.0 has no control characters but tab, LF, CR, and no U+FFFE;
     * bytes that are not UTF-8 cannot be in a UTF-8 document. */
    const char bad[] = "a\x01" "b\x7f" "c\xff" "d\xC3\xA9" "e\xEF\xBF\xBE" "f\xC3";
    format_xml_escape(&b, bad, sizeof bad - 1);
    SAME("controls and bad UTF-8", &b,
         "a\xEF\xBF\xBD" "b\x7f" "c\xEF\xBF\xBD" "d\xC3\xA9" "e\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" "f\xEF\xBF\xBD");
    strbuf_free(&b);
}
END_TEST

START_TEST(paths)
{
    strbuf_t b = { 0 };
    format_path(&b, "./games/a b%.pgn", false);
    SAME("./ dropped", &b, "games/a b%.pgn");
    format_path(&b, "./games/a b%.pgn", true);
    SAME("as a URI", &b, "games/a%20b%25.pgn");
    format_path(&b, "caf\xC3\xA9#1?.pgn", true);
    SAME("URI: UTF-8, # and ?", &b, "caf%C3%A9%231%3F.pgn");
    format_path(&b, "../up/x,y.pgn", true);
    SAME("URI: .. and sub-delims kept", &b, "../up/x,y.pgn");
    char *cwd = getcwd(NULL, 0);
    ck_assert_ptr_nonnull(cwd);
    char abs[4096];
    snprintf(abs, sizeof abs, "%s/sub/g.pgn", cwd);
    format_path(&b, abs, true);
    SAME("absolute under the working directory", &b, "sub/g.pgn");
    format_path(&b, "/no-such-top-directory-xyz/g h.pgn", true);
    SAME("absolute elsewhere: a file URI", &b, "file:///no-such-top-directory-xyz/g%20h.pgn");
    format_path(&b, "/no-such-top-directory-xyz/g h.pgn", false);
    SAME("absolute elsewhere: as it is", &b, "/no-such-top-directory-xyz/g h.pgn");
    free(cwd);
    strbuf_free(&b);
}
END_TEST

START_TEST(names)
{
    ck_assert_int_eq(format_parse("gnu"), CLI_FORMAT_GNU);
    ck_assert_int_eq(format_parse("github"), CLI_FORMAT_GITHUB);
    ck_assert_int_eq(format_parse("sarif"), CLI_FORMAT_SARIF);
    ck_assert_int_eq(format_parse("junit"), CLI_FORMAT_JUNIT);
    ck_assert_int_eq(format_parse("GNU"), -1);
    ck_assert_int_eq(format_parse(""), -1);
    ck_assert(!format_is_document(CLI_FORMAT_GNU) && !format_is_document(CLI_FORMAT_GITHUB));
    ck_assert(format_is_document(CLI_FORMAT_SARIF) && format_is_document(CLI_FORMAT_JUNIT));
}
END_TEST

/* A game with no Result tag and no marker (two warnings), whose White tag
 * holds % , : and a line feed. */
static arb_tag tags[2];
static arb_game game(void)
{
    arb_game g;
    memset(&g, 0, sizeof g);
    tags[0] = (arb_tag){ "White", "50%, Ann: B\nC", 5, 13 };
    tags[1] = (arb_tag){ "Black", "<Bo>", 5, 4 };
    g.number = 7;
    g.where = (arb_span){ .offset = 0, .end = 10, .line = 3, .col = 1 };
    g.tags = tags;
    g.ntags = 2;
    g.status = ARB_OK;
    for (int f = 0; f < ARB_FACT_COUNT; f++)
        g.first[f] = -1;
    return g;
}

START_TEST(github_game)
{
    strbuf_t b = { 0 };
    report_counts_t c = { 0, 0, 0 };
    arb_game g = game();
    format_game(&b, CLI_FORMAT_GITHUB, false, false, "./d,1/a:b.pgn", &g, &c);
    SAME("two warnings", &b,
         "::warning file=d%2C1/a%3Ab.pgn,line=3,col=1,title=game 7 (50%25%2C Ann%3A B%0AC v <Bo>)::no Result tag "
         "[missing-result]\n"
         "::warning file=d%2C1/a%3Ab.pgn,line=3,col=1,title=game 7 (50%25%2C Ann%3A B%0AC v <Bo>)::no termination "
         "marker [no-marker]\n");
    CHECK(c.errors == 0 && c.warnings == 2, "counts %llu/%llu", c.errors, c.warnings);
    /* A message with % and a line feed, as an error. */
    g.status = ARB_SYNTAX;
    g.has_error = true;
    g.error.line = 4;
    g.error.col = 9;
    strcpy(g.error.message, "100% odd\r\ntext");
    format_game(&b, CLI_FORMAT_GITHUB, false, false, "a.pgn", &g, &c);
    SAME("an error", &b,
         "::error file=a.pgn,line=4,col=9,title=game 7 (50%25%2C Ann%3A B%0AC v <Bo>)::100%25 odd%0D%0Atext "
         "[syntax]\n");
    CHECK(c.errors == 1 && c.warnings == 2, "counts %llu/%llu", c.errors, c.warnings);
    strbuf_free(&b);
}
END_TEST

START_TEST(junit_game)
{
    strbuf_t b = { 0 };
    report_counts_t c = { 0, 0, 0 };
    arb_game g = game();
    format_game(&b, CLI_FORMAT_JUNIT, false, false, "a&b.pgn", &g, &c);
    SAME("warnings in the output", &b,
         "    <testcase classname=\"a&amp;b.pgn\" name=\"game 7 (50%, Ann: B&#10;C v &lt;Bo&gt;)\">\n"
         "      <system-out>a&amp;b.pgn:3:1: warning: no Result tag [missing-result]&#10;"
         "a&amp;b.pgn:3:1: warning: no termination marker [no-marker]</system-out>\n"
         "    </testcase>\n");
    format_game(&b, CLI_FORMAT_JUNIT, true, false, "a.pgn", &g, &c);
    SAME("strict: failures", &b,
         "    <testcase classname=\"a.pgn\" name=\"game 7 (50%, Ann: B&#10;C v &lt;Bo&gt;)\">\n"
         "      <failure type=\"missing-result\" message=\"no Result tag\">a.pgn:3:1: error: no Result tag "
         "[missing-result]</failure>\n"
         "      <failure type=\"no-marker\" message=\"no termination marker\">a.pgn:3:1: error: no termination "
         "marker [no-marker]</failure>\n"
         "    </testcase>\n");
    CHECK(c.errors == 2 && c.warnings == 2, "counts %llu/%llu", c.errors, c.warnings);
    /* A game without problems is a test case all the same. */
    g.result = g.marker = "1-0";
    g.result_tag = (arb_span){ .line = 2, .col = 1 };
    format_game(&b, CLI_FORMAT_JUNIT, false, false, "a.pgn", &g, &c);
    SAME("no problem", &b, "    <testcase classname=\"a.pgn\" name=\"game 7 (50%, Ann: B&#10;C v &lt;Bo&gt;)\"/>\n");
    format_game(&b, CLI_FORMAT_GITHUB, false, false, "a.pgn", &g, &c);
    SAME("github: nothing", &b, "");
    strbuf_free(&b);
}
END_TEST

START_TEST(sarif_game)
{
    strbuf_t b = { 0 };
    report_counts_t c = { 0, 0, 0 };
    arb_game g = game();
    g.marker = "1-0"; /* one warning left: no Result tag */
    g.id = 0xff;
    format_game(&b, CLI_FORMAT_SARIF, false, false, "./x y.pgn", &g, &c);
    SAME("one result", &b,
         "        {\"ruleId\":\"missing-result\",\"ruleIndex\":5,\"level\":\"warning\",\"message\":{\"text\":"
         "\"game 7 (50%, Ann: B\\nC v <Bo>): no Result tag\"},\"locations\":[{\"physicalLocation\":"
         "{\"artifactLocation\":{\"uri\":\"x%20y.pgn\"},\"region\":{\"startLine\":3,\"startColumn\":1}}}],"
         "\"partialFingerprints\":{\"gameId/v1\":\"v1:00000000000000ff\",\"ruleId/v1\":\"missing-result\"},"
         "\"properties\":{\"game\":7}}\n");
    strbuf_free(&b);
}
END_TEST

START_TEST(numbers_tracked)
{
    /* A piece's output is renumbered later: every game number written
     * must be one the buffer remembers. */
    arb_game g = game();
    const struct {
        cli_format_t f;
        size_t numbers;
    } want[] = { { CLI_FORMAT_GNU, 2 }, { CLI_FORMAT_GITHUB, 2 }, { CLI_FORMAT_SARIF, 4 }, { CLI_FORMAT_JUNIT, 1 } };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        strbuf_t b = { 0 };
        b.track_numbers = true;
        report_counts_t c = { 0, 0, 0 };
        format_game(&b, want[i].f, false, false, "a.pgn", &g, &c);
        CHECK(b.nnumbers == want[i].numbers, "format %d: %zu numbers remembered, expected %zu", (int)want[i].f,
              b.nnumbers, want[i].numbers);
        for (size_t k = 0; k < b.nnumbers; k++)
            CHECK(b.numbers[k].len == 1 && b.data[b.numbers[k].at] == '7', "format %d: number %zu is not the 7",
                  (int)want[i].f, k);
        strbuf_free(&b);
    }
}
END_TEST

/* Accepts missing-result by the tag (with a why that needs escaping) and
 * no-marker by the baseline. */
static void accept_two(void *ctx, const arb_game *g, const report_problem_t *p, format_verdict_t *v)
{
    (void)ctx;
    (void)g;
    if (p->rule == REPORT_MISSING_RESULT) {
        v->accepted = FORMAT_IN_SOURCE;
        v->why = "upheld <\"A\" & B>";
    } else if (p->rule == REPORT_NO_MARKER) {
        v->accepted = FORMAT_EXTERNAL;
    }
}

START_TEST(accepted_game)
{
    strbuf_t b = { 0 };
    report_counts_t c = { 0, 0, 0 };
    arb_game g = game();
    g.id = 0x1234;
    format_options_t opt = { .accept = accept_two };
    format_game_accepting(&b, CLI_FORMAT_GNU, &opt, "a.pgn", &g, &c);
    SAME("gnu: nothing", &b, "");
    CHECK(c.errors == 0 && c.warnings == 0 && c.accepted == 2, "counts %llu/%llu/%llu", c.errors, c.warnings,
          c.accepted);
    opt.show_accepted = true;
    format_game_accepting(&b, CLI_FORMAT_GNU, &opt, "a.pgn", &g, &c);
    SAME("gnu: notes", &b,
         "a.pgn:3:1: note: game 7 (50%, Ann: B C v <Bo>): no Result tag [missing-result] (accepted by its "
         "ArbiterAccept tag: upheld <\"A\" & B>)\n"
         "a.pgn:3:1: note: game 7 (50%, Ann: B C v <Bo>): no termination marker [no-marker] (accepted by the "
         "baseline)\n");
    format_game_accepting(&b, CLI_FORMAT_GITHUB, &opt, "a.pgn", &g, &c);
    SAME("github: notices", &b,
         "::notice file=a.pgn,line=3,col=1,title=game 7 (50%25%2C Ann%3A B%0AC v <Bo>)::no Result tag "
         "[missing-result] (accepted by its ArbiterAccept tag: upheld <\"A\" & B>)\n"
         "::notice file=a.pgn,line=3,col=1,title=game 7 (50%25%2C Ann%3A B%0AC v <Bo>)::no termination marker "
         "[no-marker] (accepted by the baseline)\n");
    opt.baseline = true;
    g.marker = "1-0"; /* no-marker gone: missing-result alone */
    format_game_accepting(&b, CLI_FORMAT_SARIF, &opt, "a.pgn", &g, &c);
    SAME("sarif: a suppression", &b,
         "        {\"ruleId\":\"missing-result\",\"ruleIndex\":5,\"level\":\"warning\",\"message\":{\"text\":"
         "\"game 7 (50%, Ann: B\\nC v <Bo>): no Result tag\"},\"locations\":[{\"physicalLocation\":"
         "{\"artifactLocation\":{\"uri\":\"a.pgn\"},\"region\":{\"startLine\":3,\"startColumn\":1}}}],"
         "\"partialFingerprints\":{\"gameId/v1\":\"v1:0000000000001234\",\"ruleId/v1\":\"missing-result\"},"
         "\"baselineState\":\"new\",\"suppressions\":[{\"kind\":\"inSource\",\"status\":\"accepted\","
         "\"justification\":\"upheld <\\\"A\\\" & B>\"}],\"properties\":{\"game\":7}}\n");
    format_game_accepting(&b, CLI_FORMAT_JUNIT, &opt, "a.pgn", &g, &c);
    SAME("junit: skipped", &b,
         "    <testcase classname=\"a.pgn\" name=\"game 7 (50%, Ann: B&#10;C v &lt;Bo&gt;)\">\n"
         "      <skipped message=\"a.pgn:3:1: warning: no Result tag [missing-result] (accepted by its "
         "ArbiterAccept tag: upheld &lt;&quot;A&quot; &amp; B&gt;)\"/>\n"
         "    </testcase>\n");
    strbuf_free(&b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("format");
    TCase *tc = tcase_create("format");
    tcase_add_test(tc, github_escapes);
    tcase_add_test(tc, xml_escapes);
    tcase_add_test(tc, paths);
    tcase_add_test(tc, names);
    tcase_add_test(tc, github_game);
    tcase_add_test(tc, junit_game);
    tcase_add_test(tc, sarif_game);
    tcase_add_test(tc, numbers_tracked);
    tcase_add_test(tc, accepted_game);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
