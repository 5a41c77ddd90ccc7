/* reason_words.c: a reason text read by its words (reason_words.h).
 *
 * The reading is a rule, not a list of sentences: a word is a run of
 * letters and digits (a byte beyond ASCII counts as a letter), lowered;
 * "3-fold", "fifty_moves" and "seventy-five" become two words, which the
 * number rules below join again.  Each word has one meaning from the table
 * (or none: an unknown word, such as a player's name); a clause ends at
 * , ; : . ( ) ! ? or a dash between blanks, and a side's part in the end
 * (won, lost, resigned) is looked for within its clause. */
#include "reason_words.h"

#include <string.h>

/* What a word says of the end. */
enum sense {
    S_NONE,      /* a word of no weight ("game", "by", "the") */
    S_MATE,      /* checkmate, mates */
    S_STALE,     /* stalemate */
    S_REP,       /* repetition, threefold */
    S_FIVE,      /* fivefold */
    S_FIFTY,     /* fifty (moves) */
    S_SEVENTY5,  /* seventy-five (moves) */
    S_INSUFF,    /* insufficient (mating) material */
    S_TIME,      /* time, timeout, flag */
    S_RESIGN,
    S_AGREE,
    S_ABANDON,   /* abandoned, disconnected, stalled, crashed */
    S_ADJUD,     /* adjudication, an arbiter's or a program's decision */
    S_TB,        /* a tablebase: an adjudication by one */
    S_ILLEGAL,   /* an illegal move, a rules infraction */
    S_END_COUNT, /* the senses above name an end; those below do not */
    S_DRAW,      /* draw, drawn */
    S_WIN,       /* win, won, winner */
    S_LOSE,      /* loss, lost, loses */
    S_WHITE,
    S_BLACK,
    S_AGAINST,   /* against, vs: the side after it is the other one */
    S_PASSIVE,   /* is, was, got: "White was mated" */
    S_NOT,       /* a denial: no, not, neither */
    S_VARIANT,   /* a variant's end: check (3-check), hill, explosion */
    S_NUMBER,    /* 3, 5, 50, 75, three, five, seventy, dead: joined with the next word */
    S_FOLD,      /* "fold" of 3-fold */
    S_MOVES      /* move, moves, rule: after 50 or 75 */
};

/* The part a word gives the side it is said of. */
enum role {
    R_NONE,
    R_WINS,      /* won, wins: the side won */
    R_LOSES,     /* lost, loses: the side lost */
    R_ACTS_WINS, /* mates: the side did what wins */
    R_ACTS_LOSES,/* resigns, forfeits, flagged, disconnects: the side did what loses */
    R_MATED      /* mated: lost if said passively ("was mated"), else unclear */
};

typedef struct word {
    const char *text;
    unsigned char sense, role;
} word_t;

/* Every word with a meaning; the rest are unknown.  In no order: scanned
 * only for texts that no sentence of the table matched. */
static const word_t vocabulary[] = {
    { "checkmate", S_MATE, R_NONE }, { "checkmates", S_MATE, R_ACTS_WINS }, { "checkmated", S_MATE, R_MATED },
    { "mate", S_MATE, R_NONE }, { "mates", S_MATE, R_ACTS_WINS }, { "mated", S_MATE, R_MATED },
    { "checkmating", S_MATE, R_NONE },
    { "stalemate", S_STALE, R_NONE }, { "stalemated", S_STALE, R_NONE }, { "stalemates", S_STALE, R_NONE },
    { "repetition", S_REP, R_NONE }, { "repetitions", S_REP, R_NONE }, { "repeated", S_REP, R_NONE },
    { "repeat", S_REP, R_NONE }, { "threefold", S_REP, R_NONE }, { "fivefold", S_FIVE, R_NONE },
    { "fifty", S_FIFTY, R_NONE }, { "seventyfive", S_SEVENTY5, R_NONE },
    { "insufficient", S_INSUFF, R_NONE }, { "insufficiency", S_INSUFF, R_NONE },
    { "time", S_TIME, R_NONE }, { "timeout", S_TIME, R_NONE }, { "timeouts", S_TIME, R_NONE },
    { "timed", S_TIME, R_ACTS_LOSES }, { "flag", S_TIME, R_NONE }, { "flagged", S_TIME, R_ACTS_LOSES },
    { "flagfall", S_TIME, R_NONE },
    { "resign", S_RESIGN, R_ACTS_LOSES }, { "resigns", S_RESIGN, R_ACTS_LOSES },
    { "resigned", S_RESIGN, R_ACTS_LOSES }, { "resignation", S_RESIGN, R_ACTS_LOSES },
    { "resigning", S_RESIGN, R_ACTS_LOSES },
    { "agree", S_AGREE, R_NONE }, { "agreed", S_AGREE, R_NONE }, { "agreement", S_AGREE, R_NONE },
    { "mutual", S_AGREE, R_NONE },
    { "abandon", S_ABANDON, R_ACTS_LOSES }, { "abandons", S_ABANDON, R_ACTS_LOSES },
    { "abandoned", S_ABANDON, R_ACTS_LOSES }, { "abandonment", S_ABANDON, R_ACTS_LOSES },
    { "disconnect", S_ABANDON, R_ACTS_LOSES }, { "disconnects", S_ABANDON, R_ACTS_LOSES },
    { "disconnected", S_ABANDON, R_ACTS_LOSES }, { "disconnection", S_ABANDON, R_ACTS_LOSES },
    { "stalled", S_ABANDON, R_ACTS_LOSES }, { "stalls", S_ABANDON, R_ACTS_LOSES },
    { "crash", S_ABANDON, R_ACTS_LOSES }, { "crashed", S_ABANDON, R_ACTS_LOSES },
    { "adjudication", S_ADJUD, R_NONE }, { "adjudicated", S_ADJUD, R_NONE }, { "adjudicate", S_ADJUD, R_NONE },
    { "adjudicates", S_ADJUD, R_NONE }, { "arbiter", S_ADJUD, R_NONE }, { "tcec", S_ADJUD, R_NONE },
    { "tablebase", S_TB, R_NONE }, { "tablebases", S_TB, R_NONE }, { "tb", S_TB, R_NONE },
    { "egtb", S_TB, R_NONE }, { "syzygy", S_TB, R_NONE }, { "syzygytb", S_TB, R_NONE },
    { "illegal", S_ILLEGAL, R_ACTS_LOSES }, { "infraction", S_ILLEGAL, R_ACTS_LOSES },
    { "forfeit", S_NONE, R_ACTS_LOSES }, { "forfeits", S_NONE, R_ACTS_LOSES },
    { "forfeited", S_NONE, R_ACTS_LOSES },
    { "draw", S_DRAW, R_NONE }, { "drawn", S_DRAW, R_NONE }, { "drew", S_DRAW, R_NONE },
    { "draws", S_DRAW, R_NONE }, { "remis", S_DRAW, R_NONE }, { "tie", S_DRAW, R_NONE },
    { "win", S_WIN, R_WINS }, { "wins", S_WIN, R_WINS }, { "won", S_WIN, R_WINS },
    { "winner", S_WIN, R_WINS }, { "winning", S_WIN, R_WINS }, { "victory", S_WIN, R_WINS },
    { "beats", S_WIN, R_WINS },
    { "lose", S_LOSE, R_LOSES }, { "loses", S_LOSE, R_LOSES }, { "lost", S_LOSE, R_LOSES },
    { "loss", S_LOSE, R_LOSES }, { "loser", S_LOSE, R_LOSES }, { "losing", S_LOSE, R_LOSES },
    { "defeat", S_LOSE, R_LOSES }, { "defeated", S_LOSE, R_LOSES },
    { "white", S_WHITE, R_NONE }, { "black", S_BLACK, R_NONE },
    { "against", S_AGAINST, R_NONE }, { "vs", S_AGAINST, R_NONE }, { "versus", S_AGAINST, R_NONE },
    { "is", S_PASSIVE, R_NONE }, { "was", S_PASSIVE, R_NONE }, { "got", S_PASSIVE, R_NONE },
    { "gets", S_PASSIVE, R_NONE }, { "been", S_PASSIVE, R_NONE }, { "being", S_PASSIVE, R_NONE },
    { "no", S_NOT, R_NONE }, { "not", S_NOT, R_NONE }, { "neither", S_NOT, R_NONE }, { "nor", S_NOT, R_NONE },
    { "without", S_NOT, R_NONE }, { "never", S_NOT, R_NONE }, { "cannot", S_NOT, R_NONE },
    { "unable", S_NOT, R_NONE },
    { "check", S_VARIANT, R_NONE }, { "checks", S_VARIANT, R_NONE }, { "checked", S_VARIANT, R_NONE },
    { "checking", S_VARIANT, R_NONE }, { "hill", S_VARIANT, R_NONE }, { "centre", S_VARIANT, R_NONE },
    { "center", S_VARIANT, R_NONE }, { "explosion", S_VARIANT, R_NONE }, { "exploded", S_VARIANT, R_NONE },
    { "atomic", S_VARIANT, R_NONE }, { "crazyhouse", S_VARIANT, R_NONE }, { "horde", S_VARIANT, R_NONE },
    { "antichess", S_VARIANT, R_NONE }, { "variant", S_VARIANT, R_NONE }, { "racing", S_VARIANT, R_NONE },
    { "3", S_NUMBER, R_NONE }, { "three", S_NUMBER, R_NONE }, { "5", S_NUMBER, R_NONE },
    { "five", S_NUMBER, R_NONE }, { "50", S_NUMBER, R_NONE }, { "75", S_NUMBER, R_NONE },
    { "seventy", S_NUMBER, R_NONE }, { "fold", S_FOLD, R_NONE }, { "dead", S_NUMBER, R_NONE },
    { "move", S_MOVES, R_NONE }, { "moves", S_MOVES, R_NONE }, { "rule", S_MOVES, R_NONE },
    /* words of no weight: they end a player's name at the start */
    { "game", S_NONE, R_NONE }, { "by", S_NONE, R_NONE }, { "the", S_NONE, R_NONE }, { "a", S_NONE, R_NONE },
    { "an", S_NONE, R_NONE }, { "on", S_NONE, R_NONE }, { "of", S_NONE, R_NONE }, { "in", S_NONE, R_NONE },
    { "for", S_NONE, R_NONE }, { "to", S_NONE, R_NONE }, { "with", S_NONE, R_NONE }, { "and", S_NONE, R_NONE },
    { "material", S_NONE, R_NONE }, { "mating", S_NONE, R_NONE }, { "rules", S_NONE, R_NONE },
    { "claim", S_NONE, R_NONE }, { "claimed", S_NONE, R_NONE }, { "claims", S_NONE, R_NONE },
    { "termination", S_NONE, R_NONE }, { "result", S_NONE, R_NONE }, { "out", S_NONE, R_NONE },
    { "ran", S_NONE, R_NONE }, { "runs", S_NONE, R_NONE }, { "fell", S_NONE, R_NONE }, { "s", S_NONE, R_NONE },
    { "has", S_NONE, R_NONE }, { "player", S_NONE, R_NONE }, { "position", S_NONE, R_NONE },
    { "automatic", S_NONE, R_NONE }, { "over", S_NONE, R_NONE }, { "connection", S_NONE, R_NONE },
    { "side", S_NONE, R_NONE }, { "due", S_NONE, R_NONE }, { "after", S_NONE, R_NONE },
};

/* The most words a text is read by; a longer text is prose. */
#define MAX_WORDS 24

typedef struct tok {
    size_t at, len;      /* within the text */
    unsigned char sense, role;
    bool known;          /* in the vocabulary */
    unsigned short clause;
} tok_t;

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c + ('a' - 'A')) : c;
}

static bool letter(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

static bool digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* Does s[i] end a clause?  A dash only between blanks ("Game drawn -
 * insufficient material"): in "3-fold" it is inside a word. */
static bool clause_end(const char *s, size_t n, size_t i)
{
    switch (s[i]) {
    case ',': case ';': case ':': case '.': case '(': case ')': case '!': case '?': case '[': case ']':
        return true;
    case '-':
        return i > 0 && i + 1 < n && s[i - 1] == ' ' && s[i + 1] == ' ';
    default:
        return false;
    }
}

static void look_up(const char *s, tok_t *t)
{
    t->known = false;
    t->sense = S_NONE;
    t->role = R_NONE;
    for (size_t i = 0; i < sizeof vocabulary / sizeof vocabulary[0]; i++) {
        const char *w = vocabulary[i].text;
        if (w[0] != lower(s[t->at]) || strlen(w) != t->len)
            continue;
        size_t k = 1;
        while (k < t->len && w[k] == lower(s[t->at + k]))
            k++;
        if (k == t->len) {
            t->known = true;
            t->sense = vocabulary[i].sense;
            t->role = vocabulary[i].role;
            return;
        }
    }
}

/* Cuts s[0..n) into words, a digit run and a letter run apart ("3fold").
 * Returns how many, or MAX_WORDS + 1 when there are more. */
static size_t cut(const char *s, size_t n, tok_t *t)
{
    size_t k = 0;
    unsigned short clause = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (!letter(c) && !digit(c)) {
            clause += clause_end(s, n, i);
            i++;
            continue;
        }
        if (k == MAX_WORDS)
            return MAX_WORDS + 1;
        bool d = digit(c);
        size_t a = i;
        while (i < n && (d ? digit((unsigned char)s[i]) : letter((unsigned char)s[i])))
            i++;
        t[k] = (tok_t){ .at = a, .len = i - a, .clause = clause };
        look_up(s, &t[k]);
        k++;
    }
    return k;
}

/* Is word t the text lit (lower case)? */
static bool is_word(const char *s, const tok_t *t, const char *lit)
{
    size_t k = strlen(lit);
    if (t->len != k)
        return false;
    for (size_t i = 0; i < k; i++)
        if (lower(s[t->at + i]) != lit[i])
            return false;
    return true;
}

/* Joins the numbers with the word after them: 3-fold and three-fold are
 * a repetition, 5-fold fivefold, 50 moves fifty, 75 moves and seventy-five
 * seventy-five; and "dead position".  A number left alone (a move count, a
 * date) is unknown, and so is "dead" alone. */
static void join_numbers(const char *s, tok_t *t, size_t k)
{
    for (size_t i = 0; i < k; i++) {
        if (t[i].sense != S_NUMBER)
            continue;
        const tok_t *next = i + 1 < k ? &t[i + 1] : NULL;
        unsigned sense = S_NONE;
        bool three = is_word(s, &t[i], "3") || is_word(s, &t[i], "three");
        bool five = is_word(s, &t[i], "5") || is_word(s, &t[i], "five");
        if (next && next->sense == S_FOLD && (three || five))
            sense = three ? S_REP : S_FIVE;
        else if (next && next->sense == S_MOVES && is_word(s, &t[i], "50"))
            sense = S_FIFTY;
        else if (next && next->sense == S_MOVES && is_word(s, &t[i], "75"))
            sense = S_SEVENTY5;
        else if (next && is_word(s, &t[i], "seventy") && is_word(s, next, "five"))
            sense = S_SEVENTY5;
        else if (next && is_word(s, &t[i], "dead") && is_word(s, next, "position"))
            sense = S_INSUFF; /* a dead position (5.2.2): what the insufficient claim is checked for */
        if (sense != S_NONE) {
            t[i].sense = (unsigned char)sense;
            t[i + 1].sense = S_NONE; /* "fold", "five": said with the number */
            t[i + 1].known = true;
        } else {
            t[i].known = false;
            t[i].sense = S_NONE;
        }
    }
    for (size_t i = 0; i < k; i++)
        if (t[i].sense == S_FOLD || t[i].sense == S_MOVES)
            t[i].sense = S_NONE;
}

/* The part in the end of the side named by word i: the first word of its
 * clause that says won or lost, after it and then before it; else the
 * first that says what the side did.  R_NONE if its clause says nothing,
 * R_MATED if it says "mated" of the side, which is unclear ("White
 * checkmated": gave it or got it?). */
static unsigned side_role(const tok_t *t, size_t k, size_t i)
{
    for (int pass = 0; pass < 2; pass++) {
        for (size_t j = i + 1; j < k && t[j].clause == t[i].clause && t[j].sense != S_WHITE &&
                               t[j].sense != S_BLACK; j++)
            if (pass ? t[j].role >= R_ACTS_WINS : t[j].role == R_WINS || t[j].role == R_LOSES) {
                if (t[j].role != R_MATED)
                    return t[j].role;
                /* "mated": lost when said passively ("White was mated", "White got mated") */
                for (size_t m = i + 1; m < j; m++)
                    if (t[m].sense == S_PASSIVE)
                        return R_LOSES;
                return R_MATED;
            }
        for (size_t j = i; j-- > 0 && t[j].clause == t[i].clause && t[j].sense != S_WHITE &&
                           t[j].sense != S_BLACK;)
            if (pass ? t[j].role >= R_ACTS_WINS && t[j].role != R_MATED
                     : t[j].role == R_WINS || t[j].role == R_LOSES)
                return t[j].role;
    }
    return R_NONE;
}

/* The claim the ends named make, ARB_CLAIM_OTHER when none or not one:
 * fivefold is a repetition said more precisely, seventy-five moves a
 * fifty-move count, a flag against insufficient material one end, and an
 * adjudication (or a tablebase) what decided whatever else is named. */
static arb_claim claim_of(unsigned ends)
{
#define B(s) (1u << (s))
    if (ends & (B(S_ADJUD) | B(S_TB)))
        return ARB_CLAIM_ADJUDICATION;
    if (ends & B(S_FIVE))
        ends &= ~B(S_REP);
    if (ends & B(S_SEVENTY5))
        ends &= ~B(S_FIFTY);
    if ((ends & B(S_TIME)) && (ends & B(S_INSUFF)))
        return ends == (B(S_TIME) | B(S_INSUFF)) ? ARB_CLAIM_TIME_INSUFFICIENT : ARB_CLAIM_OTHER;
    static const arb_claim claims[S_END_COUNT] = {
        [S_MATE] = ARB_CLAIM_CHECKMATE, [S_STALE] = ARB_CLAIM_STALEMATE, [S_REP] = ARB_CLAIM_THREEFOLD,
        [S_FIVE] = ARB_CLAIM_FIVEFOLD, [S_FIFTY] = ARB_CLAIM_FIFTY, [S_SEVENTY5] = ARB_CLAIM_SEVENTYFIVE,
        [S_INSUFF] = ARB_CLAIM_INSUFFICIENT, [S_TIME] = ARB_CLAIM_TIME, [S_RESIGN] = ARB_CLAIM_RESIGNATION,
        [S_AGREE] = ARB_CLAIM_AGREEMENT, [S_ABANDON] = ARB_CLAIM_ABANDONED, [S_ILLEGAL] = ARB_CLAIM_ILLEGAL_MOVE,
    };
    for (unsigned s = S_MATE; s < S_END_COUNT; s++)
        if (ends == B(s))
            return claims[s];
    return ARB_CLAIM_OTHER;
#undef B
}

/* Does the claim end the game in a draw whatever the side? */
static bool draw_claim(arb_claim c)
{
    switch (c) {
    case ARB_CLAIM_STALEMATE: case ARB_CLAIM_THREEFOLD: case ARB_CLAIM_FIVEFOLD: case ARB_CLAIM_FIFTY:
    case ARB_CLAIM_SEVENTYFIVE: case ARB_CLAIM_INSUFFICIENT: case ARB_CLAIM_TIME_INSUFFICIENT:
        return true;
    default:
        return false;
    }
}

/* Where a side is named without won or lost, the part the end gives it:
 * "checkmate by White" names the winner, "resignation by White" the loser. */
static unsigned default_role(arb_claim c)
{
    switch (c) {
    case ARB_CLAIM_CHECKMATE: return R_WINS;
    case ARB_CLAIM_RESIGNATION: case ARB_CLAIM_TIME: case ARB_CLAIM_ABANDONED: case ARB_CLAIM_ILLEGAL_MOVE:
        return R_LOSES;
    default: return R_NONE;
    }
}

bool reason_words(const char *s, size_t n, bool strict, reason_parsed_t *out)
{
    out->claim = ARB_CLAIM_OTHER;
    out->rank = 0;
    out->winner = -1;
    out->implies = IMPLIES_NOTHING;
    out->site = SITE_FIDE;
    out->tablebase = false;
    out->user_start = out->user_len = 0;
    out->user_loses = false;
    out->words = true;
    if (strict && !(n > 0 && ((s[0] >= 'A' && s[0] <= 'Z') || digit((unsigned char)s[0]))))
        return false;
    tok_t t[MAX_WORDS];
    size_t k = cut(s, n, t);
    if (k == 0 || k > MAX_WORDS)
        return false;
    join_numbers(s, t, k);

    unsigned ends = 0, words = 0;
    for (size_t i = 0; i < k; i++) {
        if (strict && !t[i].known)
            return false;
        words |= 1u << t[i].sense;
        if (t[i].sense > S_NONE && t[i].sense < S_END_COUNT)
            ends |= 1u << t[i].sense;
    }
    if (words & ((1u << S_NOT) | (1u << S_VARIANT)))
        return false;
    arb_claim claim = claim_of(ends);
    if (claim == ARB_CLAIM_OTHER)
        return false;
    bool draw = (words & (1u << S_DRAW)) != 0, decisive = (words & ((1u << S_WIN) | (1u << S_LOSE))) != 0;
    if (claim == ARB_CLAIM_TIME && draw && !decisive)
        claim = ARB_CLAIM_TIME_INSUFFICIENT; /* "draw on time", "drawn: timeout" */

    /* The winner from the sides named, each by its part in its clause; a
     * leading run of unknown words is a name to be matched by the caller. */
    int winner = -1;
    bool sides_disagree = false;
    size_t lead = 0;
    while (lead < k && !t[lead].known)
        lead++;
    for (size_t i = 0; i < k; i++) {
        bool named = t[i].sense == S_WHITE || t[i].sense == S_BLACK;
        if (!named && !(lead && i == lead - 1))
            continue;
        unsigned role = side_role(t, k, i);
        if (role == R_NONE && !(i > 0 && t[i - 1].sense == S_AGAINST))
            role = default_role(claim);
        if (role == R_NONE || role == R_MATED)
            continue;
        bool wins = role == R_WINS || role == R_ACTS_WINS;
        if (i > 0 && t[i - 1].sense == S_AGAINST)
            wins = !wins;
        if (!named) {
            out->user_start = t[0].at;
            out->user_len = t[i].at + t[i].len - t[0].at;
            out->user_loses = !wins;
            continue;
        }
        int w = (t[i].sense == S_BLACK) == wins;
        if (winner >= 0 && winner != w)
            sides_disagree = true;
        winner = w;
    }
    /* A draw that names a winner, or a win in a draw's words: not sure. */
    if (sides_disagree || ((draw_claim(claim) || draw) && (winner >= 0 || decisive || out->user_len)) ||
        (draw && decisive)) {
        out->user_start = out->user_len = 0;
        out->user_loses = false;
        return false;
    }
    out->claim = claim;
    out->winner = winner;
    out->tablebase = (ends & (1u << S_TB)) != 0;
    if (winner >= 0)
        out->implies = winner == 0 ? IMPLIES_WHITE : IMPLIES_BLACK;
    else if (draw_claim(claim) || draw)
        out->implies = IMPLIES_DRAW;
    else if (decisive)
        out->implies = IMPLIES_DECISIVE;
    /* chess.com's phrasing: its own rules. */
    if (k >= 2 && is_word(s, &t[0], "game") && is_word(s, &t[1], "drawn"))
        out->site = SITE_CHESSCOM;
    bool board = claim <= ARB_CLAIM_INSUFFICIENT || claim == ARB_CLAIM_TIME_INSUFFICIENT ||
                 claim == ARB_CLAIM_FIVEFOLD || claim == ARB_CLAIM_SEVENTYFIVE;
    out->rank = board || winner >= 0 || out->user_len ? 2 : 1;
    return true;
}
