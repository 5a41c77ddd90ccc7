/* tagtab.c: a game's tags as the reader keeps them (tagtab.h). */
#include <stdlib.h>
#include <string.h>

#include "tagtab.h"

enum known tag_kind(const char *s, size_t n)
{
    /* By length first. */
    switch (n) {
    case 3:
        return memcmp(s, "FEN", 3) == 0 ? K_FEN : K_OTHER;
    case 4:
        return memcmp(s, "Site", 4) == 0 ? K_SITE : memcmp(s, "Date", 4) == 0 ? K_DATE : K_OTHER;
    case 5:
        switch (s[0]) {
        case 'E': return memcmp(s, "Event", 5) == 0 ? K_EVENT : K_OTHER;
        case 'R': return memcmp(s, "Round", 5) == 0 ? K_ROUND : K_OTHER;
        case 'W': return memcmp(s, "White", 5) == 0 ? K_WHITE : K_OTHER;
        case 'B': return memcmp(s, "Black", 5) == 0 ? K_BLACK : K_OTHER;
        default: return K_OTHER;
        }
    case 6:
        return memcmp(s, "Result", 6) == 0 ? K_RESULT : K_OTHER;
    case 7:
        return memcmp(s, "Variant", 7) == 0 ? K_VARIANT : K_OTHER;
    case 11:
        return memcmp(s, "Termination", 11) == 0 ? K_TERMINATION : K_OTHER;
    case 12:
        return memcmp(s, "Adjudication", 12) == 0 ? K_ADJUDICATION : K_OTHER;
    case 13:
        return memcmp(s, "ArbiterAccept", 13) == 0 ? K_ACCEPT : K_OTHER;
    case 18:
        return memcmp(s, "TerminationDetails", 18) == 0 ? K_DETAILS : K_OTHER;
    default:
        return K_OTHER;
    }
}

/* Is v one of names (NULL-terminated), as tag_variant() reads names? */
static bool variant_is(const char *v, const char *const *names)
{
    char norm[32];
    size_t n = 0;
    for (; *v && n < sizeof norm - 1; v++)
        if (*v != ' ' && *v != '-' && *v != '_')
            norm[n++] = *v >= 'A' && *v <= 'Z' ? (char)(*v + ('a' - 'A')) : *v; /* tolower in the C locale */
    norm[n] = '\0';
    for (; *names; names++)
        if (strcmp(norm, *names) == 0)
            return true;
    return false;
}

enum variant tag_variant(const char *value)
{
    static const char *const chess960[] = { "chess960", "fischerandom", "fischerrandom", "960", NULL };
    static const char *const standard[] = { "standard", "fromposition", "chess", "normal", "", NULL };
    if (strcmp(value, "Standard") == 0) /* lichess writes it in every game */
        return VARIANT_STANDARD;
    return variant_is(value, chess960) ? VARIANT_CHESS960 : variant_is(value, standard) ? VARIANT_STANDARD : VARIANT_OTHER;
}

void tagtab_free(tagtab_t *tt)
{
    free(tt->tags);
    free(tt->arena);
    *tt = (tagtab_t){0};
}

/* Room for need more bytes in the arena and n more tags. */
static bool room(tagtab_t *tt, size_t need, size_t n)
{
    if (tt->len + need > tt->arena_cap) {
        size_t cap = tt->arena_cap ? tt->arena_cap : 4096;
        while (cap < tt->len + need)
            cap *= 2;
        /* The tags point into the arena: moved with it.  Zeroed, so that
         * the bytes read past a value's end are set. */
        char *p = calloc(1, cap + TAGTAB_SLACK);
        if (!p)
            return false;
        if (tt->len)
            memcpy(p, tt->arena, tt->len);
        for (size_t i = 0; i < tt->n; i++) {
            tt->tags[i].name = p + (tt->tags[i].name - tt->arena);
            tt->tags[i].value = p + (tt->tags[i].value - tt->arena);
        }
        free(tt->arena);
        tt->arena = p;
        tt->arena_cap = cap;
    }
    if (tt->n + n > tt->cap) {
        size_t cap = tt->cap ? tt->cap * 2 : 32;
        while (cap < tt->n + n)
            cap *= 2;
        arb_tag *tags = realloc(tt->tags, cap * sizeof *tags);
        if (!tags)
            return false;
        tt->tags = tags;
        tt->cap = cap;
    }
    return true;
}

int tagtab_add(tagtab_t *tt, const lex_token_t *t, bool in_chunk, bool force)
{
    /* Name "value": the value a few bytes on, copied with the name. */
    size_t gap = in_chunk ? (size_t)(t->value - (t->text + t->len)) : 1;
    if (gap > 8)
        gap = 1;
    if (!force && (tt->n >= TAGTAB_MAX_TAGS || tt->count + t->len + t->value_len + 2 > TAGTAB_MAX_TEXT))
        return 0;
    size_t an = t->len, bn = t->value_len, need = an + gap + bn + 1;
    if (!room(tt, need, 1))
        return -1;
    char *o = tt->arena + tt->len;
    if (gap > 1) {
        memcpy(o, t->text, an + gap + bn);
    } else {
        memcpy(o, t->text, an);
        memcpy(o + an + 1, t->value, bn);
    }
    o[an] = '\0';
    o[an + gap + bn] = '\0';
    tt->tags[tt->n++] = (arb_tag){ .name = o, .value = o + an + gap, .name_len = an, .value_len = bn };
    tt->len += need;
    tt->count += need;
    return 1;
}

int tagtab_add_run(tagtab_t *tt, const lex_tag_run_t *run, const lex_tag_at_t *at, size_t n)
{
    if (tt->n + n > TAGTAB_MAX_TAGS)
        return 0;
    size_t len = (size_t)at[n - 1].close + 1;
    if (!room(tt, len, n))
        return -1;
    /* The copy and the refs are made first and kept only if every tag
     * passes tagtab_add()'s test: its count grows by more than each tag's
     * test, so the total after the last tag is enough.  Each name and value
     * is NUL-terminated where it lies: on the blank or quote after the name,
     * on the value's closing quote. */
    size_t count = tt->count;
    char *a = tt->arena + tt->len;
    memcpy(a, run->text, len);
    arb_tag *tag = tt->tags + tt->n;
    for (size_t i = 0; i < n; i++) {
        const lex_tag_at_t *t = &at[i];
        size_t gap = t->value - (t->name + t->name_len);
        count += t->name_len + (gap > 8 ? 1 : gap) + t->value_len + 1;
        a[t->name + t->name_len] = '\0';
        a[t->value + t->value_len] = '\0';
        tag[i] = (arb_tag){ .name = a + t->name, .value = a + t->value, .name_len = t->name_len,
                            .value_len = t->value_len };
    }
    if (count > TAGTAB_MAX_TEXT)
        return 0;
    tt->n += n;
    tt->len += len;
    tt->count = count;
    return 1;
}

size_t tagtab_find(const tagtab_t *tt, const char *name, size_t len)
{
    for (size_t i = 0; i < tt->n; i++)
        if (tt->tags[i].name_len == len && memcmp(tt->tags[i].name, name, len) == 0)
            return i;
    return SIZE_MAX;
}
