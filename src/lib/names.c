/* names.c: the library's version and the names of its enums, as reports
 * print them (pgnarbiter.h). */
#include "pgnarbiter.h"

#include "rules.h"

const char *arb_version(void)
{
    return PACKAGE_VERSION;
}

const char *arb_fact_name(arb_fact f)
{
    return rules_fact_name((enum rules_fact)f);
}

const char *arb_status_name(arb_status s)
{
    static const char *const names[] = { "ok", "illegal", "syntax", "badfen", "unsupported" };
    return (unsigned)s < 5 ? names[s] : "?";
}

const char *arb_verdict_name(arb_verdict v)
{
    static const char *const names[ARB_VERDICT_COUNT] = {
        "consistent", "wrong-result", "wrong-reason", "moves-after-end", "unfinished", "unreadable", "self-contradictory",
    };
    return (unsigned)v < ARB_VERDICT_COUNT ? names[v] : "?";
}

const char *arb_claim_name(arb_claim c)
{
    static const char *const names[ARB_CLAIM_COUNT] = {
        "checkmate", "stalemate", "threefold", "fifty", "insufficient", "time", "time-insufficient",
        "resignation", "agreement", "adjudication", "abandoned", "illegal-move", "normal", "unterminated",
        "other", "fivefold", "seventyfive",
    };
    return (unsigned)c < ARB_CLAIM_COUNT ? names[c] : "?";
}

const char *arb_check_name(arb_check c)
{
    static const char *const names[ARB_CHECK_COUNT] = { "confirmed", "contradicted", "site-rule", "superseded",
                                                        "unverifiable" };
    return (unsigned)c < ARB_CHECK_COUNT ? names[c] : "?";
}

const char *arb_reason_from_name(arb_reason_from f)
{
    static const char *const names[] = { "Termination", "TerminationDetails", "comment" };
    return (unsigned)f < 3 ? names[f] : "?";
}

const char *arb_reading_name(arb_reading r)
{
    static const char *const names[] = { "exact", "words" };
    return (unsigned)r < 2 ? names[r] : "?";
}
