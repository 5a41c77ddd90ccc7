/* reader.c: games from tokens, replayed move by move.
 *
 * Game boundaries as a person reads them: a game ends at its termination
 * marker, where a new tag section starts after movetext, or where a tag
 * repeats a name already in the current tag section (tag-only games with
 * no blank-line cue).  A game that cannot be read keeps being scanned to
 * its end so that the next game starts where it should. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "adjudicate.h"
#include "dead.h"
#include "gameid.h"
#include "lex.h"
#include "movegen.h"
#include "pgnarbiter.h"
#include "reason.h"
#include "reason_check.h"
#include "rules.h"
#include "san.h"
#include "tagtab.h"

#define QUEUE_MAX 3
#define RUN_MOVES 64             /* moves asked of the lexer at a time: most games in one or two runs */
#define RUN_TAGS 32              /* tags asked of the lexer at a time: a tag section in one run */

enum state { IDLE, TAGS, MOVES };

#define NO_TAG SIZE_MAX

struct arb_reader {
    arb_options opt;
    lexer_t *lx;
    bool finished, exhausted, oom, emitted;

    /* Tokens read ahead: a tag that ends one game and starts the next, the
     * token after a held tag line. */
    struct saved { lex_token_t tok; char *text, *value; } queue[QUEUE_MAX], held;
    int queued, head;    /* queue[head] comes out first; the queue is a ring */
    bool holding;        /* held: a tag at the start of a line, until we know the line has nothing else */
    uint64_t skip_line;  /* a malformed tag line being skipped, 0 if none */

    /* The game being read. */
    enum state state;
    arb_game rec;
    uint64_t games;
    tagtab_t tt;                 /* its tags */
    size_t known[K_COUNT];       /* index in refs of the first tag of each kind, NO_TAG if none */
    uint64_t names_seen[4];      /* bit lex_name_bit() of each tag name read: most new names miss */
    int depth;                   /* variation nesting */
    bool setup_done, replaying;  /* start position chosen; moves still being replayed */
    enum variant variant;        /* the Variant tag's reading, once setup() has read it */
    rules_t rules;               /* the game's rule facts */
    bool rules_made;             /* rules has its memory, kept from game to game */
    bool rules_live;             /* rules follows this game */
    int start_stm;
    const char *pend;            /* a free-text result under way: "1" "-" "0" */
    bool pend_dash;
    lex_token_t pend_tok;        /* where it started (only positions are used) */
    arb_span pend_at;            /* where the free-text result under way starts */
    char marker[8];
    char why[160];               /* text behind rec.adjudication */
    lex_token_t fen_at, variant_at; /* where the FEN and Variant tags are (positions only) */
    board_t standard_start;      /* parsed once: most games start from it */
    dead_search_t *dead;         /* dead-position analysis, made on first use */
    dead_search_t *dead_reason;  /* the same with a larger budget, for the few reasons that
                                    claim a side cannot mate; made on first use */
    struct { uint64_t line; uint32_t col; } reason_tag[2]; /* where the Termination and
                                                              TerminationDetails tags are */
    reason_memo_t reason_memo[2];  /* the last reading of each of the two tags' values */
    char reason_msg[ARB_MAX_REASONS][200]; /* texts behind rec.reasons[].message */
    char comment[LEX_COMMENT_TAIL + 1];    /* the last comment's sentence, blanks as one space */
    uint64_t *ply_end;           /* end offset of the token that made each ply; [0]: movetext start */
    size_t ply_end_cap, ply_marked;  /* ply_end[0..ply_marked) belong to this game */
    uint64_t id_moves;           /* the moves replayed, folded as they are played (arb_game.id) */
    uint64_t id_tail;            /* FNV-1a of the moves' texts not replayed (arb_game.id) */
};

static const arb_options default_options = { .allow_null_moves = false, .policy = ARB_RULES_FIDE };

arb_reader *arb_reader_new(const arb_options *opt)
{
    arb_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->opt = opt ? *opt : default_options;
    r->id_moves = GAMEID_MOVES_BASIS;
    r->id_tail = GAMEID_FNV_BASIS;
    for (int k = 0; k < K_COUNT; k++)
        r->known[k] = NO_TAG;
    board_start(&r->standard_start);
    r->lx = lex_new();
    bool ok = r->lx != NULL;
    for (int i = 0; i <= QUEUE_MAX; i++) {
        struct saved *sv = i < QUEUE_MAX ? &r->queue[i] : &r->held;
        sv->text = malloc(LEX_MAX_SYMBOL + LEX_MAX_NAME + 2);
        sv->value = malloc(LEX_MAX_VALUE + 1);
        ok = ok && sv->text && sv->value;
    }
    if (!ok) {
        arb_reader_free(r);
        return NULL;
    }
    return r;
}

void arb_reader_free(arb_reader *r)
{
    if (!r)
        return;
    lex_free(r->lx);
    if (r->rules_made)
        rules_free(&r->rules);
    dead_search_free(r->dead);
    dead_search_free(r->dead_reason);
    for (int i = 0; i <= QUEUE_MAX; i++) {
        struct saved *sv = i < QUEUE_MAX ? &r->queue[i] : &r->held;
        free(sv->text);
        free(sv->value);
    }
    free(r->ply_end);
    tagtab_free(&r->tt);
    free(r);
}

void arb_reader_set_origin(arb_reader *r, uint64_t offset, uint64_t line)
{
    lex_set_origin(r->lx, offset, line);
}

bool arb_reader_between_games(const arb_reader *r)
{
    /* In a tag section, a tag on the next line might belong to it. */
    return lex_between_tokens(r->lx) && r->queued == 0 && !r->holding && !r->emitted && r->state != TAGS;
}

void arb_reader_feed(arb_reader *r, const void *buf, size_t len)
{
    lex_feed(r->lx, buf, len);
}

void arb_reader_finish(arb_reader *r)
{
    r->finished = true;
    lex_finish(r->lx);
}

/* ---- the game under construction ---- */

static void game_reset(arb_reader *r)
{
    r->rules_live = false; /* its memory serves the next game */
    memset(&r->rec, 0, sizeof r->rec);
    tagtab_clear(&r->tt);
    for (int k = 0; k < K_COUNT; k++)
        r->known[k] = NO_TAG;
    memset(r->names_seen, 0, sizeof r->names_seen);
    if (r->depth) /* a game that ended inside a variation turned comments off */
        lex_keep_comments(r->lx, true);
    r->depth = 0;
    r->setup_done = r->replaying = false;
    r->variant = VARIANT_STANDARD;
    r->pend = NULL;
    r->pend_dash = false;
    r->marker[0] = '\0';
    r->ply_marked = 0;
    r->id_moves = GAMEID_MOVES_BASIS;
    r->id_tail = GAMEID_FNV_BASIS;
    r->state = IDLE;
}

static void game_begin(arb_reader *r, const lex_token_t *t, enum state s)
{
    r->rec.number = ++r->games;
    r->rec.where = (arb_span){ t->offset, t->end, t->line, t->col };
    r->state = s;
}

/* Notes a tag name, whose lex_name_bit() is bit, as perhaps kept. */
static inline void name_seen(arb_reader *r, unsigned bit)
{
    r->names_seen[bit >> 6] |= (uint64_t)1 << (bit & 63);
}

/* Is a tag of this name, whose lex_name_bit() is bit, kept already? */
static bool tag_known(const arb_reader *r, const char *name, size_t len, unsigned bit)
{
    return r->names_seen[bit >> 6] >> (bit & 63) & 1 && tagtab_find(&r->tt, name, len) != SIZE_MAX;
}

static void tag_note(arb_reader *r, enum known k, const lex_token_t *t, size_t i);

/* Keeps tag t (its name's bit in names_seen is the caller's to set);
 * in_chunk: t is a plain tag whose name and value lie in one buffer. */
static void tag_add(arb_reader *r, const lex_token_t *t, bool in_chunk)
{
    int kept = tagtab_add(&r->tt, t, in_chunk, false);
    enum known k = tag_kind(t->text, t->len);
    /* The tags the reader itself reads count wherever they stand: the first
     * of each name is kept past the limits (a dozen at most), so that a
     * Result tag after 4096 others is still the game's, and --fix finds it. */
    if (kept == 0 && k != K_OTHER && tagtab_find(&r->tt, t->text, t->len) == SIZE_MAX)
        kept = tagtab_add(&r->tt, t, in_chunk, true);
    if (kept <= 0) {
        r->oom = r->oom || kept < 0;
        return;
    }
    if (k != K_OTHER && r->known[k] == NO_TAG)
        r->known[k] = r->tt.n - 1;
    r->rec.tags_end = (arb_span){ t->offset, t->end, t->line, t->col };
    tag_note(r, k, t, r->tt.n - 1);
}

/* What the reader notes of tag t, of kind k, kept as tag i. */
static void tag_note(arb_reader *r, enum known k, const lex_token_t *t, size_t i)
{
    arb_span here = { t->offset, t->end, t->line, t->col };
    switch (k) {
    case K_EVENT: case K_SITE: case K_DATE: case K_ROUND: case K_WHITE: case K_BLACK:
        r->rec.roster_end = here;
        break;
    case K_RESULT:
        if (r->rec.result_tag.end == 0)
            r->rec.result_tag = here;
        r->rec.roster_end = here;
        break;
    case K_ADJUDICATION:
        r->rec.adjudication_tag = here;
        break;
    case K_TERMINATION:
    case K_DETAILS:
        if (r->known[k] == i)
            r->reason_tag[k == K_DETAILS].line = here.line, r->reason_tag[k == K_DETAILS].col = here.col;
        break;
    case K_FEN:
        r->fen_at = *t;
        r->fen_at.text = NULL;
        break;
    case K_VARIANT:
        r->variant_at = *t;
        r->variant_at.text = NULL;
        break;
    default:
        break;
    }
}

/* The value of the first tag of kind k, NULL if there is none. */
static const char *tag_value(const arb_reader *r, enum known k)
{
    return r->known[k] == NO_TAG ? NULL : r->tt.tags[r->known[k]].value;
}

static void set_error(arb_reader *r, arb_status s, const lex_token_t *t, const char *move, size_t move_len,
                      const char *message)
{
    if (r->rec.status != ARB_OK)
        return;
    r->rec.status = s;
    r->rec.has_error = true;
    r->rec.error.line = t ? t->line : r->rec.where.line;
    r->rec.error.col = t ? t->col : 1;
    r->rec.error.ply = r->rules_live ? r->rules.ply + 1 : 1;
    size_t n = move_len < sizeof r->rec.error.move - 1 ? move_len : sizeof r->rec.error.move - 1;
    if (move)
        memcpy(r->rec.error.move, move, n);
    r->rec.error.move[move ? n : 0] = '\0';
    snprintf(r->rec.error.message, sizeof r->rec.error.message, "%s", message);
    r->replaying = false;
}

/* The reader's dead-position analysis: a small table (64 KiB), enough for
 * the positions a replay asks about.  The budget only serves proofs (a
 * helpmate found changes nothing for Article 6.9): of the unfair timeouts
 * that pass winner_cannot_mate()'s filter, 100 nodes prove as many as
 * 3,000 (the proofs come from the position and the semi-static passes, a
 * few nodes each), while a winnable position may take all of them. */
#define DEAD_BUDGET 100

static dead_search_t *dead_analysis(arb_reader *r)
{
    if (!r->dead && !r->opt.legality_only)
        r->dead = dead_search_new(DEAD_BUDGET);
    return r->dead;
}

/* Article 6.9 for a game lost on time: can the winner not mate by any
 * series of legal moves?  The cheap proofs first, for any material: they
 * settle the forced lines (a queen or two whose every move stalemates, a
 * king that must take the last enemy man).  The full search only for a
 * winner with little material (no queen or rook, two minor pieces at most)
 * and no pawn free to advance: there the unfair timeouts that the cheap
 * proofs leave are found, while elsewhere a helpmate almost always exists
 * and the search costs milliseconds.  Last, a side walled in, a few pawn
 * pushes from stalemate: a small exhaustion settles it.  Skipping the
 * analysis can only leave the loss standing, never call a winnable
 * position dead. */
static bool winner_cannot_mate(dead_search_t *d, const board_t *b, int winner)
{
    enum dead_answer a = dead_probe(d, b, winner);
    if (a != DEAD_UNDETERMINED)
        return a == DEAD_UNWINNABLE;
    /* Where the full analysis is not worth its cost, its proofs that search
     * no line still are (--fen finds those at once).  A pawn with its way
     * open promotes, with the loser's help; one that a man stands in front
     * of (a pawn, a king walled in) is the search's. */
    const uint8_t *c = b->count;
    uint64_t pawns = b->men[MEN_INDEX(PIECE(winner, PAWN))];
    if (c[PIECE(winner, QUEEN)] || c[PIECE(winner, ROOK)] || c[PIECE(winner, KNIGHT)] + c[PIECE(winner, BISHOP)] > 2 ||
        ((winner == WHITE ? pawns << 8 : pawns >> 8) & ~b->occ))
        a = dead_static_proof(d, b, winner);
    else
        a = dead_can_win(d, b, winner, NULL, 0, NULL);
    if (a == DEAD_UNDETERMINED)
        a = dead_fortress_proof(d, b, winner, NULL, 0, NULL);
    return a == DEAD_UNWINNABLE;
}

/* Chooses the start position from the tags, once, before the first move. */
static void setup(arb_reader *r)
{
    if (r->setup_done)
        return;
    r->setup_done = true;
    bool c960 = false;
    const char *variant = tag_value(r, K_VARIANT);
    if (variant) {
        enum variant v = r->variant = tag_variant(variant);
        if (v == VARIANT_CHESS960) {
            c960 = true;
        } else if (v == VARIANT_OTHER) {
            char msg[96];
            snprintf(msg, sizeof msg, "variant \"%.40s\" is not supported", variant);
            set_error(r, ARB_UNSUPPORTED, &r->variant_at, NULL, 0, msg);
            return;
        }
    }
    board_t start;
    const char *fen = tag_value(r, K_FEN);
    if (fen) {
        board_error_t why;
        if (board_from_fen(&start, fen, c960, &why) < 0) {
            char msg[160];
            snprintf(msg, sizeof msg, "bad FEN: %s", why);
            set_error(r, ARB_BADFEN, &r->fen_at, NULL, 0, msg);
            return;
        }
    } else {
        start = r->standard_start;
        start.chess960 = c960;
    }
    if (r->rules_made) {
        rules_restart(&r->rules, &start);
    } else if (rules_init(&r->rules, &start) < 0) {
        r->oom = true;
        return;
    }
    r->rules_made = true;
    r->rules_live = true;
    r->rules.legality_only = r->opt.legality_only;
    r->rules.dead = dead_analysis(r);
    r->start_stm = start.stm;
    if (r->rec.status == ARB_OK)
        r->replaying = true;
}

/* Remembers where the token that made ply `ply` ends (for --truncate). */
static void ply_mark(arb_reader *r, uint32_t ply, uint64_t end)
{
    if (ply >= r->ply_end_cap) {
        size_t cap = r->ply_end_cap ? r->ply_end_cap * 2 : 256;
        while (cap <= ply)
            cap *= 2;
        uint64_t *p = realloc(r->ply_end, cap * sizeof *p);
        if (!p) {
            r->oom = true;
            return;
        }
        r->ply_end = p;
        r->ply_end_cap = cap;
    }
    r->ply_end[ply] = end;
    if (ply >= r->ply_marked)
        r->ply_marked = (size_t)ply + 1;
}

/* An error about the move text[0..len) written at column col of token t. */
static void move_error(arb_reader *r, arb_status s, const lex_token_t *t, uint32_t col, const char *text,
                       size_t len, const char *message)
{
    lex_token_t at = *t;
    at.col = col;
    set_error(r, s, &at, text, len, message);
}

/* Plays the move text[0..len) written at column col of token t; parsed
 * is its syntax when the caller has read it already. */
static void play_text(arb_reader *r, const lex_token_t *t, const char *text, size_t len, uint32_t col,
                      const san_syntax_t *parsed)
{
    san_syntax_t s;
    char why[160];
    if (!parsed) {
        if (san_parse(text, len, &s) < 0) {
            snprintf(why, sizeof why, "cannot read \"%.*s\" as a move", (int)(len > 40 ? 40 : len), text);
            move_error(r, ARB_SYNTAX, t, col, text, len, why);
            return;
        }
        parsed = &s;
    }
    if (parsed->kind == SAN_DROP) {
        move_error(r, ARB_SYNTAX, t, col, text, len, "piece drops belong to crazyhouse, not to chess");
        return;
    }
    if (parsed->kind == SAN_NULLMOVE && !r->opt.allow_null_moves) {
        move_error(r, ARB_ILLEGAL, t, col, text, len, "a null move is not a legal move (see --allow-null-moves)");
        return;
    }
    move_t m;
    enum san_status st = san_resolve(r->rules.pos, parsed, &m, why, sizeof why);
    if (st != SAN_OK) {
        move_error(r, ARB_ILLEGAL, t, col, text, len, why);
        return;
    }
    r->id_moves = gameid_move(r->id_moves, m);
    if (rules_play(&r->rules, m) < 0) {
        r->oom = true;
        return;
    }
    /* A move read inside a longer word ("Nf3Nc6") ends where its piece
     * does, so that --truncate can tell a cut inside a word. */
    uint64_t end = t->end;
    if (text != t->text || len != t->len) {
        if (t->len == (size_t)(t->end - t->offset) && text >= t->text && text + len <= t->text + t->len)
            end = t->offset + (uint64_t)(text - t->text) + len;
    }
    ply_mark(r, r->rules.ply, end);
}

/* Can a mainline symbol starting with byte c be a move?  Moves start with
 * a letter; digits and ½ (0xc2 0xbd) may be free-text results. */
static inline bool move_start(unsigned char c)
{
    return c >= 'A' && c != 0xc2;
}

/* Plays m, the legal move of a token that ends at stream offset end, as
 * the next ply, the ply marks being in step (see play_plain()). */
static inline void play_found(arb_reader *r, move_t m, uint64_t end)
{
    uint32_t ply = r->rules.ply + 1;
    r->id_moves = gameid_move(r->id_moves, m);
    if (rules_play(&r->rules, m) < 0) {
        r->oom = true;
        return;
    }
    r->ply_end[ply] = end;
    r->ply_marked = (size_t)ply + 1;
}

/* play_text() for the usual case, a legal piece or pawn move that is the
 * whole token, which ends at stream offset end: returns false, having done
 * nothing, for anything else. */
static inline bool play_plain(arb_reader *r, uint64_t end, const san_syntax_t *s)
{
    move_t m;
    uint32_t ply = r->rules.ply + 1;
    if (s->kind != SAN_MOVE || ply >= r->ply_end_cap || ply != r->ply_marked ||
        san_resolve(r->rules.pos, s, &m, NULL, 0) != SAN_OK)
        return false;
    play_found(r, m, end);
    return true;
}

static void marker_set(arb_reader *r, const lex_token_t *t, const char *text);

/* A mainline move that is not replayed (the replay stopped at an error, or
 * never started): its text goes into the id. */
static ARB_NOINLINE void tail_note(arb_reader *r, const char *text, size_t len)
{
    r->id_tail = gameid_tail(r->id_tail, text, len);
}

/* A mainline symbol.  Most are one move; a symbol that is not is read the
 * way python-chess reads movetext, skipping what cannot start a move, so
 * "Sf3" plays f3 and "Rd6+1-0" plays Rd6 and ends the game.  Returns true
 * if a result ended the game. */
static bool play(arb_reader *r, const lex_token_t *t)
{
    san_syntax_t s;
    if (san_parse(t->text, t->len, &s) == 0) {
        if (r->replaying)
            play_text(r, t, t->text, t->len, t->col, &s);
        else
            tail_note(r, t->text, t->len);
        return false;
    }
    size_t pos = 0, start, n;
    enum san_scan kind;
    bool found = false;
    while ((kind = san_scan(t->text, t->len, &pos, &start, &n)) != SCAN_NONE) {
        found = true;
        if (kind == SCAN_RESULT) {
            const char *res = n == 1 ? "*" : n == 3 ? (t->text[start] == '1' ? "1-0" : "0-1") : "1/2-1/2";
            /* The marker is the result's own bytes, not the whole word. */
            lex_token_t sub = *t;
            sub.offset += start;
            sub.end = sub.offset + n;
            sub.col += (uint32_t)start;
            marker_set(r, &sub, res);
            r->rec.marker_in_word = n < t->len;
            return true;
        }
        if (r->replaying)
            play_text(r, t, t->text + start, n, t->col + (uint32_t)start, NULL);
        else
            tail_note(r, t->text + start, n);
    }
    /* Text that starts like a move but holds none is a botched move ("Kx"
     * cut off at the end of a file); other unreadable text is skipped. */
    char c0 = t->text[0];
    if (!found && r->replaying && (strchr("NBRQKO", c0) || (c0 >= 'a' && c0 <= 'h')))
        play_text(r, t, t->text, t->len, t->col, NULL);
    return false;
}

/* The moves at the head of a run from lex_next_moves() that san_quick()
 * reads, played as play_run_symbol() would play them, with the tests it
 * makes per move made once: the ply marks are in step and have room for
 * the run, and each move played keeps them so.  Returns how many it
 * played; play_run_symbol() takes the next. */
static size_t play_quick_run(arb_reader *r, const lex_move_t *run, size_t n)
{
    rules_t *rules = &r->rules;
    if (n == 0 || !r->replaying || rules->ply + 1 != r->ply_marked || rules->ply + n >= r->ply_end_cap)
        return 0;
    size_t i = 0;
    uint64_t *ends = r->ply_end;
    for (; i < n; i++) {
        move_t m;
        if (san_quick(rules->pos, run[i].text, run[i].len, &m) != 0)
            break;
        r->id_moves = gameid_move(r->id_moves, m);
        if (rules_play(rules, m) < 0) {
            r->oom = true; /* as play_found() leaves it */
            r->ply_marked = rules->ply;
            r->rec.where.end = run[i].end;
            return i;
        }
        ends[rules->ply] = run[i].end;
    }
    r->ply_marked = (size_t)rules->ply + 1;
    if (i > 0)
        r->rec.where.end = run[i - 1].end;
    return i;
}

/* A symbol of a run from lex_next_moves(), as the mainline loop reads one:
 * returns true if a result in it ended the game. */
static inline bool play_run_symbol(arb_reader *r, const lex_move_t *mv)
{
    r->rec.where.end = mv->end;
    san_syntax_t s;
    bool plain = san_parse(mv->text, mv->len, &s) == 0;
    if (plain && !r->replaying) {
        tail_note(r, mv->text, mv->len);
        return false;
    }
    if (plain && play_plain(r, mv->end, &s))
        return false;
    lex_token_t t = {
        .kind = TOK_SYMBOL,
        .offset = mv->end - mv->len,
        .end = mv->end,
        .line = mv->line,
        .col = lex_move_col(r->lx, mv),
        .text = mv->text,
        .len = mv->len,
    };
    if (!plain)
        return play(r, &t);
    play_text(r, &t, t.text, t.len, t.col, &s);
    return false;
}

/* ---- recorded reasons ---- */

/* The value of the first tag named `name` (White, Black), NULL if none. */
static const char *tag_named(const arb_reader *r, const char *name)
{
    size_t i = tagtab_find(&r->tt, name, strlen(name));
    return i == SIZE_MAX ? NULL : r->tt.tags[i].value;
}

/* The sentence closing the last mainline comment, if it is one the table
 * knows and the comment follows the last move played: into r->comment. */
static bool comment_reason(arb_reader *r, const char *recorded, reason_parsed_t *p, arb_reason *out)
{
    lex_comment_t c;
    uint64_t after = r->rec.where.offset;
    if (r->rules_live && r->ply_marked > r->rules.ply)
        after = r->ply_end[r->rules.ply];
    if (!lex_last_comment(r->lx, &c) || c.offset < after || c.offset < r->rec.where.offset)
        return false;
    return reason_from_comment(&c, recorded, r->comment, p, out);
}

/* Reads the game's reason texts into parsed[] and r->rec.reasons[] (text,
 * from, position, claim, winner), the most telling first; returns how many.
 * Each is read in place, in the order Termination, TerminationDetails,
 * comment; the most telling then moves to the front, the others keeping
 * their order. */
static size_t reasons_read(arb_reader *r, const char *recorded, reason_parsed_t parsed[ARB_MAX_REASONS])
{
    arb_game *g = &r->rec;
    arb_reason *texts = g->reasons;
    size_t n = 0;
    for (int t = 0; t < 2; t++) {
        enum known k = t ? K_DETAILS : K_TERMINATION;
        if (r->known[k] == NO_TAG)
            continue;
        const arb_tag *ref = &r->tt.tags[r->known[k]];
        const char *value = ref->value;
        arb_reason_from from = t ? ARB_FROM_TERMINATION_DETAILS : ARB_FROM_TERMINATION;
        if (!reason_parse_tag(&r->reason_memo[t], value, ref->value_len, from, recorded, &parsed[n]))
            continue;
        /* Up to the value's end (blanks after the words too): NUL-terminated.
         * Where it is; claim and winner follow below, the rest in
         * reasons_check(), as for a comment. */
        texts[n].text = value + parsed[n].start;
        texts[n].text_len = ref->value_len - parsed[n].start;
        texts[n].from = from;
        texts[n].line = r->reason_tag[t].line;
        texts[n].col = r->reason_tag[t].col;
        n++;
    }
    if (comment_reason(r, recorded, &parsed[n], &texts[n]))
        n++;
    g->nreasons = n;
    if (n == 0)
        return 0;
    const char *white = NULL, *black = NULL;
    for (size_t i = 0; i < n; i++) {
        reason_parsed_t *p = &parsed[i];
        texts[i].claim = p->claim;
        texts[i].reading = p->words ? ARB_READ_WORDS : ARB_READ_EXACT;
        if (p->user_len) {
            /* chess.com: "<user> won ...", the user being one of the players. */
            if (!white) {
                white = tag_named(r, "White");
                black = tag_named(r, "Black");
            }
            reason_name_winner(p, texts[i].text, white, black);
        }
        texts[i].winner = p->winner;
    }
    /* The most telling text first; on a tie TerminationDetails, then
     * Termination, then the comment. */
    size_t best = 0;
    for (size_t i = 1; i < n; i++) {
        bool details = texts[i].from == ARB_FROM_TERMINATION_DETAILS;
        if (parsed[i].rank > parsed[best].rank || (parsed[i].rank == parsed[best].rank && details))
            best = i;
    }
    if (best > 0) {
        reason_parsed_t p = parsed[best];
        arb_reason t = texts[best];
        memmove(&parsed[1], &parsed[0], best * sizeof parsed[0]);
        memmove(&texts[1], &texts[0], best * sizeof texts[0]);
        parsed[0] = p;
        texts[0] = t;
    }
    return n;
}

/* The reader's analysis for reasons that claim a side cannot mate: the
 * budget of a single position's question (dead.h), asked only for such
 * claims (insufficient material, timeout draws): a fraction of the games. */
#define DEAD_REASON_BUDGET 400000

/* Weighs each reason text against the board, after adjudicate(). */
static void reasons_check(arb_reader *r, const reason_parsed_t *parsed, const adjudicate_input_t *in)
{
    arb_game *g = &r->rec;
    bool replayed = r->rules_live && !r->opt.legality_only;
    /* One text the board cannot weigh (most games of a lichess export):
     * nothing to compare, the verdict stands. */
    if (g->nreasons == 1 && reason_check_usual(g, &parsed[0], replayed, &g->reasons[0], r->reason_msg[0])) {
        g->reasons[0].disagrees = false;
        return;
    }
    reason_board_t b = { .rules = replayed ? &r->rules : NULL, .start_stm = r->start_stm };
    b.cannot_mate[0] = in->cannot_mate[0];
    b.cannot_mate[1] = in->cannot_mate[1];
    for (size_t i = 0; i < g->nreasons; i++) {
        arb_claim c = parsed[i].claim;
        if (b.rules && !b.dead && (c == ARB_CLAIM_INSUFFICIENT || c == ARB_CLAIM_TIME_INSUFFICIENT)) {
            if (!r->dead_reason)
                r->dead_reason = dead_search_new(DEAD_REASON_BUDGET);
            b.dead = r->dead_reason;
        }
        reason_check(g, &parsed[i], &b, &g->reasons[i], r->reason_msg[i], sizeof r->reason_msg[i]);
        g->reasons[i].disagrees = i > 0 && reason_disagree(&parsed[i], &parsed[0]);
    }
    /* The reason (the other texts are only compared with it) tells only
     * where the rules left the result be. */
    if (g->reasons[0].check == ARB_CHECK_CONTRADICTED && g->verdict != ARB_UNREADABLE &&
        g->verdict != ARB_WRONG_RESULT)
        g->verdict = ARB_WRONG_REASON;
}

/* Completes the game: settles the facts, adjudicates. */
static void game_complete(arb_reader *r)
{
    arb_game *g = &r->rec;
    if (!r->setup_done && g->status == ARB_OK)
        setup(r);
    g->tags = r->tt.tags;
    g->ntags = r->tt.n;
    g->open_variation = r->depth > 0;
    g->result = tag_value(r, K_RESULT);
    g->accept = tag_value(r, K_ACCEPT);
    g->marker = r->marker[0] ? r->marker : NULL;
    adjudicate_input_t in = { .start_stm = r->start_stm, .termination = tag_value(r, K_TERMINATION),
                              .why = r->why, .why_cap = sizeof r->why };
    for (int f = 0; f < ARB_FACT_COUNT; f++) {
        g->first[f] = -1;
        g->first_move[f] = "";
    }
    reason_parsed_t parsed[ARB_MAX_REASONS];
    const char *recorded = reason_recorded(g);
    int recorded_winner = reason_result_winner(recorded);
    size_t nreasons = reasons_read(r, recorded, parsed);
    /* Article 6.9 for every convention's "lost on time" whose loser is the
     * recorded loser (or unnamed); an adjudicated win asks the same. */
    int asks = -1;
    for (size_t i = 0; i < nreasons; i++) {
        int w = parsed[i].winner;
        if (parsed[i].claim == ARB_CLAIM_TIME && (w < 0 || w == recorded_winner))
            in.time_claim = true;
        if (parsed[i].claim == ARB_CLAIM_ADJUDICATION)
            asks = w >= 0 ? w : recorded_winner;
    }
    /* A Termination tag read as a reason is covered by time_claim: its
     * "time forfeit" needs no second reading. */
    if (nreasons && r->known[K_TERMINATION] != NO_TAG)
        in.termination = NULL;
    if (r->rules_live) {
        rules_finish(&r->rules);
        g->plies = r->rules.ply;
        for (int f = 0; f < ARB_FACT_COUNT; f++) {
            g->first[f] = r->rules.first[f];
            g->first_move[f] = r->rules.first_move[f];
        }
        for (int c = WHITE; c <= BLACK; c++)
            in.cannot_mate[c] = r->rules.cannot_win[c] || rules_side_insufficient(r->rules.pos, c);
        /* Article 6.9: a game lost on time is drawn if the winner could not
         * mate by any series of legal moves; worth the full analysis. */
        int winner = in.time_claim ? recorded_winner : adjudicate_time_winner(g, in.termination);
        if (winner >= 0 && !in.cannot_mate[winner] && dead_analysis(r))
            in.cannot_mate[winner] = winner_cannot_mate(r->dead, r->rules.pos, winner);
        if (asks >= 0 && asks != winner && !in.cannot_mate[asks] && dead_analysis(r))
            in.cannot_mate[asks] = winner_cannot_mate(r->dead, r->rules.pos, asks);
    }
    adjudicate(g, &in, r->opt.policy);
    if (nreasons)
        reasons_check(r, parsed, &in);
    if (g->has_end && (size_t)g->end_ply < r->ply_marked) {
        uint64_t at = r->ply_end[g->end_ply];
        g->end_move_span = (arb_span){ at, at, 0, 0 };
    }
    uint32_t plies = r->rules_live ? r->rules.ply : 0;
    uint64_t tail = r->id_tail;
    if (g->error.move[0])
        tail = gameid_fnv1a(tail, g->error.move, strlen(g->error.move));
    g->id_rest = gameid_rest(r->id_moves, plies, tail); /* the basis if no move was played */
    if (r->opt.game_id) {
        _Static_assert(K_FEN - K_EVENT + 1 == GAMEID_TAGS - 1 && TAGTAB_SLACK >= GAMEID_SLACK,
                       "the covered tags in the id's order, readable past their ends");
        const arb_tag *variant = r->known[K_VARIANT] == NO_TAG ? NULL : &r->tt.tags[r->known[K_VARIANT]];
        if (variant)
            variant = gameid_variant(variant, r->setup_done ? r->variant : tag_variant(variant->value));
        g->id = gameid_game(r->tt.tags, &r->known[K_EVENT], variant, g->id_rest);
    }
    r->emitted = true;
}

static void marker_set(arb_reader *r, const lex_token_t *t, const char *text)
{
    size_t n = strlen(text); /* a result: at most "1/2-1/2" */
    if (n >= sizeof r->marker)
        n = sizeof r->marker - 1;
    memcpy(r->marker, text, n);
    r->marker[n] = '\0';
    r->rec.marker_span = (arb_span){ t->offset, t->end, t->line, t->col };
}

static bool sym_is(const lex_token_t *t, const char *lit)
{
    size_t n = strlen(lit);
    return t->len == n && memcmp(t->text, lit, n) == 0;
}

static const char *result_half(const lex_token_t *t)
{
    if (sym_is(t, "1")) return "1";
    if (sym_is(t, "0")) return "0";
    if (sym_is(t, "1/2") || sym_is(t, "\xc2\xbd")) return "1/2";
    return NULL;
}

static bool all_digits(const lex_token_t *t)
{
    for (size_t i = 0; i < t->len; i++)
        if (t->text[i] < '0' || t->text[i] > '9')
            return false;
    return t->len > 0;
}

/* A symbol in the mainline.  Returns true if it ended the game (a result
 * written as free text, "1 - 0" or "½-½"). */
static bool movetext_symbol(arb_reader *r, const lex_token_t *t)
{
    if (!r->pend && move_start((unsigned char)t->text[0]))
        return play(r, t);
    const char *half = result_half(t);
    if (r->pend && r->pend_dash && half) {
        const char *res = NULL;
        if (strcmp(r->pend, "1") == 0 && strcmp(half, "0") == 0) res = "1-0";
        else if (strcmp(r->pend, "0") == 0 && strcmp(half, "1") == 0) res = "0-1";
        else if (strcmp(r->pend, "1/2") == 0 && strcmp(half, "1/2") == 0) res = "1/2-1/2";
        r->pend = NULL;
        if (res) {
            marker_set(r, t, res);
            /* The marker is the whole "1 - 0", for --fix replaces it whole. */
            r->rec.marker_span.offset = r->pend_at.offset;
            r->rec.marker_span.line = r->pend_at.line;
            r->rec.marker_span.col = r->pend_at.col;
            return true;
        }
    }
    if (r->pend && !r->pend_dash && sym_is(t, "-")) {
        r->pend_dash = true;
        return false;
    }
    r->pend = NULL;
    r->pend_dash = false;
    if (half) {
        r->pend = half;
        r->pend_at = (arb_span){ t->offset, t->end, t->line, t->col };
        return false;
    }
    if (sym_is(t, "\xc2\xbd-\xc2\xbd")) {
        marker_set(r, t, "1/2-1/2");
        return true;
    }
    if (all_digits(t) && !sym_is(t, "0000"))
        return false; /* a move number written without its dot (0000 is a null move) */
    return play(r, t);
}

/* Copies a token whose text lives in the lexer into saved storage. */
static void save(struct saved *sv, const lex_token_t *t)
{
    char *text = sv->text, *value = sv->value;
    sv->tok = *t;
    if (t->text) {
        size_t n = t->len > LEX_MAX_SYMBOL + LEX_MAX_NAME ? LEX_MAX_SYMBOL + LEX_MAX_NAME : t->len;
        memmove(text, t->text, n);
        sv->tok.text = text;
        sv->tok.len = n;
    }
    if (t->value) {
        memmove(value, t->value, t->value_len);
        sv->tok.value = value;
    }
}

/* Puts a token back, to come out before anything else. */
static void push_back(arb_reader *r, const lex_token_t *t)
{
    /* The slot before the head: the one that came out last, whose buffers
     * t may be using (save() copies with memmove). */
    r->head = r->head ? r->head - 1 : QUEUE_MAX - 1;
    save(&r->queue[r->head], t);
    r->queued++;
}

/* True if a bad token holds control bytes or NULs: binary data, not text. */
static bool is_binary(const lex_token_t *t)
{
    for (size_t i = 0; i < t->len; i++)
        if ((unsigned char)t->text[i] < 0x20 || (unsigned char)t->text[i] == 0x7f)
            return true;
    return false;
}

/* Feeds one token to the state machine.  Returns true when a game is complete. */
static bool step(arb_reader *r, const lex_token_t *t)
{
    switch (r->state) {
    case IDLE:
        /* Between games: comments, glyphs, a stray ')' and stray
         * punctuation belong to no game. */
        if (t->kind == TOK_COMMENT || t->kind == TOK_NAG || t->kind == TOK_VAR_CLOSE ||
            (t->kind == TOK_BAD && !is_binary(t)) || (t->kind == TOK_BAD && t->text && t->text[0] == '['))
            return false;
        if (t->kind == TOK_TAG) {
            game_begin(r, t, TAGS);
            name_seen(r, lex_name_bit(t->text, t->len));
            tag_add(r, t, false);
            return false;
        }
        game_begin(r, t, MOVES);
        break;
    case TAGS:
        if (t->kind == TOK_TAG) {
            unsigned bit = lex_name_bit(t->text, t->len);
            if (tag_known(r, t->text, t->len, bit)) {
                push_back(r, t);
                game_complete(r);
                return true;
            }
            r->rec.where.end = t->end;
            name_seen(r, bit);
            tag_add(r, t, false);
            return false;
        }
        if (t->kind == TOK_COMMENT || (t->kind == TOK_BAD && t->text && t->text[0] == '[')) {
            /* A malformed tag line is ignored, as python-chess ignores it. */
            r->rec.where.end = t->end;
            return false;
        }
        r->state = MOVES;
        break;
    case MOVES:
        if (t->kind == TOK_TAG) {
            push_back(r, t);
            game_complete(r);
            return true;
        }
        break;
    }

    /* Movetext. */
    r->rec.has_movetext = true;
    if (!r->setup_done) {
        setup(r);
        ply_mark(r, 0, t->offset);
    }
    r->rec.where.end = t->end;
    if (t->kind != TOK_SYMBOL || r->depth > 0) {
        /* A free-text result is one run of mainline symbols ("1 {x} - 0"
         * is none), so that --fix, replacing it whole, drops nothing else. */
        r->pend = NULL;
        r->pend_dash = false;
    }
    switch (t->kind) {
    case TOK_RESULT:
        if (r->depth > 0)
            return false;
        marker_set(r, t, t->len == 1 ? "*" : (t->len == 3 ? (t->text[0] == '1' ? "1-0" : "0-1") : "1/2-1/2"));
        game_complete(r);
        return true;
    case TOK_VAR_OPEN:
        /* The last move's comment is the mainline's: none in a variation. */
        if (r->depth++ == 0)
            lex_keep_comments(r->lx, false);
        return false;
    case TOK_VAR_CLOSE:
        if (r->depth > 0 && --r->depth == 0)
            lex_keep_comments(r->lx, true);
        return false;
    case TOK_SYMBOL:
        if (r->depth > 0)
            return false;
        if (movetext_symbol(r, t)) {
            game_complete(r);
            return true;
        }
        return false;
    case TOK_BAD: {
        /* Stray punctuation is skipped, as python-chess does; control bytes
         * and NULs mean the text is not PGN at all. */
        if (is_binary(t) && r->depth == 0)
            set_error(r, ARB_SYNTAX, t, NULL, 0, "binary data (control bytes) in the movetext");
        return false;
    }
    default: /* move numbers, NAGs, comments */
        return false;
    }
}

/* Does t begin movetext: a move number, a termination marker, or a word
 * that reads as a move? */
static bool starts_movetext(const lex_token_t *t)
{
    if (t->kind == TOK_MOVENUM || t->kind == TOK_RESULT)
        return true;
    san_syntax_t s;
    return t->kind == TOK_SYMBOL && move_start((unsigned char)t->text[0]) && san_parse(t->text, t->len, &s) >= 0;
}

/* The next token: read ahead first, then the lexer. */
static void next_token(arb_reader *r, lex_token_t *t)
{
    if (r->queued) {
        /* The slot's buffers stay put until it is reused. */
        *t = r->queue[r->head].tok;
        r->head = r->head + 1 < QUEUE_MAX ? r->head + 1 : 0;
        r->queued--;
        return;
    }
    lex_next(r->lx, t);
}

/* Keeps the n tags of a run as tag_add() would keep each, with one copy;
 * false if a limit would drop one (the caller then takes them one at a time). */
static bool tags_put_run(arb_reader *r, const lex_tag_run_t *run, const lex_tag_at_t *at, size_t n)
{
    size_t first = r->tt.n;
    int kept = tagtab_add_run(&r->tt, run, at, n);
    if (kept <= 0) {
        r->oom = r->oom || kept < 0;
        return kept < 0;
    }
    /* Only the last roster tag of the run is noted (roster_end), after
     * the others; a Result tag is noted as a roster tag too. */
    size_t roster = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        enum known k = tag_kind(r->tt.tags[first + i].name, at[i].name_len);
        if (k == K_OTHER)
            continue;
        if (r->known[k] == NO_TAG)
            r->known[k] = first + i;
        if (known_roster(k) || k == K_RESULT)
            roster = i;
        if (!known_roster(k)) {
            lex_token_t tok;
            lex_tag_token(run, &at[i], &tok);
            tag_note(r, k, &tok, first + i);
        }
    }
    if (roster != SIZE_MAX) {
        const lex_tag_at_t *t = &at[roster];
        r->rec.roster_end = (arb_span){ run->offset + t->at, run->offset + t->close + 1, run->line + t->line, t->col };
    }
    const lex_tag_at_t *last = &at[n - 1];
    r->rec.tags_end = (arb_span){ run->offset + last->at, run->offset + last->close + 1, run->line + last->line,
                                  last->col };
    return true;
}

/* A run of plain tags, each alone on its line, as step() takes them one at
 * a time: none of them is held (its line is known to hold nothing else) or
 * ends the game (the lexer stops before a name the game may have).  Returns
 * false if the lexer had none. */
static bool take_tags(arb_reader *r)
{
    lex_tag_run_t run;
    lex_tag_at_t at[RUN_TAGS];
    size_t n = lex_next_tags(r->lx, &run, at, RUN_TAGS, r->names_seen);
    if (n == 0)
        return false;
    lex_token_t t;
    if (r->state == IDLE) {
        lex_tag_token(&run, &at[0], &t);
        game_begin(r, &t, TAGS);
    }
    if (!tags_put_run(r, &run, at, n)) {
        for (size_t i = 0; i < n; i++) {
            lex_tag_token(&run, &at[i], &t);
            tag_add(r, &t, true);
        }
    }
    r->rec.where.end = run.offset + at[n - 1].close + 1;
    return true;
}

const arb_game *arb_reader_next(arb_reader *r, bool *oom)
{
    if (r->emitted) {
        game_reset(r);
        r->emitted = false;
    }
    for (;;) {
        if (r->oom || r->exhausted)
            break;
        lex_token_t t;
        bool fresh = r->queued == 0; /* t comes from the lexer */
        if (fresh && r->state == MOVES && r->depth == 0 && !r->pend && !r->skip_line && !r->holding) {
            /* The usual movetext, as step() would take it: move numbers,
             * comments and glyphs only move the game's end, and moves that
             * resolve change none of the conditions above.  Runs of moves
             * first, then one token at a time for the rest. */
            bool ended = false;
            for (;;) {
                lex_move_t run[RUN_MOVES];
                uint64_t passed = 0;
                size_t n = lex_next_moves(r->lx, run, RUN_MOVES, &passed);
                for (size_t i = 0; i < n && !ended && !r->oom;) {
                    i += play_quick_run(r, run + i, n - i);
                    if (i < n && !r->oom)
                        ended = play_run_symbol(r, &run[i++]);
                }
                if (passed > r->rec.where.end)
                    r->rec.where.end = passed;
                if (ended || r->oom || n < RUN_MOVES)
                    break;
            }
            if (r->oom)
                break;
            if (ended) {
                game_complete(r);
                if (oom) *oom = r->oom;
                return &r->rec;
            }
            bool move;
            for (;;) {
                lex_next_mainline(r->lx, &t, &r->rec.where.end);
                move = t.kind == TOK_SYMBOL && move_start((unsigned char)t.text[0]);
                if (!move)
                    break;
                r->rec.where.end = t.end;
                san_syntax_t s;
                if (san_parse(t.text, t.len, &s) < 0)
                    break; /* not one move: read as play() reads it */
                if (!r->replaying)
                    tail_note(r, t.text, t.len);
                else if (!play_plain(r, t.end, &s))
                    play_text(r, &t, t.text, t.len, t.col, &s);
                if (r->oom)
                    break;
            }
            if (r->oom)
                break;
            if (move) {
                if (play(r, &t)) {
                    game_complete(r);
                    if (oom) *oom = r->oom;
                    return &r->rec;
                }
                continue;
            }
        } else if (fresh && r->state != MOVES && !r->holding && !r->skip_line && take_tags(r)) {
            continue;
        } else {
            next_token(r, &t);
        }
        if (t.kind == TOK_MORE)
            break;
        if (r->skip_line) {
            if (t.kind != TOK_EOF && t.line == r->skip_line) {
                r->rec.where.end = t.end;
                continue;
            }
            r->skip_line = 0;
        }
        if (r->holding) {
            /* python-chess reads a tag line whole: "[Name "value"]" and
             * nothing else, and ignores a line with more after the tag.  So
             * do we, unless movetext follows: the import format (PGN
             * standard 8.1) lets a tag pair and the moves share a line, and
             * "[Event "A"] 1. f3 e5 2. g4 Qh4# 0-1" is a game. */
            r->holding = false;
            if (t.kind != TOK_EOF && t.kind != TOK_TAG && t.line == r->held.tok.line && !starts_movetext(&t)) {
                if (r->state == IDLE)
                    game_begin(r, &r->held.tok, TAGS);
                r->rec.where.end = t.end;
                r->skip_line = t.line;
                continue;
            }
            push_back(r, &t);
            t = r->held.tok;
        } else if (t.kind == TOK_TAG && t.col == 1 && r->state != MOVES &&
                   !(fresh && lex_line_done(r->lx))) {
            /* Held unless the lexer already sees the rest of its line blank. */
            save(&r->held, &t);
            r->holding = true;
            continue;
        }
        if (t.kind == TOK_EOF) {
            r->exhausted = true;
            if (r->state != IDLE) {
                game_complete(r);
                if (oom) *oom = r->oom;
                return &r->rec;
            }
            break;
        }
        if (step(r, &t)) {
            if (oom) *oom = r->oom;
            return &r->rec;
        }
    }
    if (oom)
        *oom = r->oom;
    return NULL;
}
