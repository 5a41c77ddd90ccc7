/* gameid.c: the game id (gameid.h; its bytes in pgnarbiter.h, arb_game.id).
 *
 * The hash takes the bytes sixteen at a time as two 64-bit words x and y,
 * least significant byte first, and makes each block one multiply:
 * a = fold(x ^ K, y ^ a), fold being the 128-bit product's halves XOR-ed
 * (the step of wyhash, and of XXH3 on mid-sized inputs); splitmix64's
 * finalizer mixes the last a.  The moves come folded into one word as
 * the replay played them (gameid_move()), and a tag value is read where
 * it lies, its last block one load and a mask: no bytes are copied. */
#include "gameid.h"

#include <stdbool.h>
#include <string.h>

#include "pgnarbiter.h"

#define IV 0x243F6A8885A308D3ULL /* the first 64 bits of pi's fraction */
#define K GAMEID_K

#define fold gameid_fold

static inline uint64_t read64(const unsigned char *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

uint64_t gameid_fnv1a(uint64_t h, const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)text[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

uint64_t gameid_tail(uint64_t tail, const char *text, size_t len)
{
    while (len && (text[len - 1] == '+' || text[len - 1] == '#' || text[len - 1] == '!' || text[len - 1] == '?'))
        len--;
    return gameid_fnv1a(gameid_fnv1a(tail, text, len), " ", 1);
}

/* The bytes of n 1..8 low bytes of a word. */
#define LOW(n) ((n) >= 8 ? ~0ULL : (1ULL << (8 * (n) & 63)) - 1)
/* For the last block of a value, n 0..16 bytes of it: the masks of x, y. */
#define LAST(n) { LOW(n), (n) > 8 ? LOW((n) - 8) : 0 }

/* The key of a block: C(j) = (2j + 1) K, distinct for every j, and j says
 * which tag the block is of and, for its last, how many bytes it holds. */
#define C(j) ((uint64_t)(2 * (j) + 1) * K)
_Static_assert(C(144) == GAMEID_C144, "the moves' key");
#define KEYS(k) { C(18 * (k) + 0),  C(18 * (k) + 1),  C(18 * (k) + 2),  C(18 * (k) + 3),  C(18 * (k) + 4),  \
                  C(18 * (k) + 5),  C(18 * (k) + 6),  C(18 * (k) + 7),  C(18 * (k) + 8),  C(18 * (k) + 9),  \
                  C(18 * (k) + 10), C(18 * (k) + 11), C(18 * (k) + 12), C(18 * (k) + 13), C(18 * (k) + 14), \
                  C(18 * (k) + 15), C(18 * (k) + 16), C(18 * (k) + 17) }

/* The blocks of tag value v after a, the k-th covered tag: a whole
 * block's key is C(18k + 17), the last's C(18k + r) for its r bytes (0
 * only for an empty value), so neither the lengths nor the tags missing
 * need a word of their own. */
static inline ARB_ALWAYS_INLINE uint64_t value(uint64_t a, const arb_tag *v, int k, bool padded)
{
    static const uint64_t last[17][2] = { LAST(0),  LAST(1),  LAST(2),  LAST(3),  LAST(4),  LAST(5),
                                          LAST(6),  LAST(7),  LAST(8),  LAST(9),  LAST(10), LAST(11),
                                          LAST(12), LAST(13), LAST(14), LAST(15), LAST(16) };
    static const uint64_t keys[GAMEID_TAGS][18] = { KEYS(0), KEYS(1), KEYS(2), KEYS(3),
                                                    KEYS(4), KEYS(5), KEYS(6), KEYS(7) };
    const unsigned char *p = (const unsigned char *)v->value;
    size_t n = v->value_len; /* below 2^32: LEX_MAX_VALUE */
    for (; __builtin_expect(n > 16, 0); p += 16, n -= 16)
        a = fold(read64(p) ^ keys[k][17], read64(p + 8) ^ a);
    unsigned char b[16];
    if (!padded) { /* a record made elsewhere: its last bytes copied */
        memset(b, 0, sizeof b);
        memcpy(b, p, n);
        p = b;
    }
    return fold((read64(p) & last[n][0]) ^ keys[k][n], (read64(p + 8) & last[n][1]) ^ a);
}

/* Room for a block read past its end, as the reader's tags have. */
static const char chess960[8 + GAMEID_SLACK] = "chess960";
const arb_tag gameid_chess960 = { .name = "Variant", .value = chess960, .name_len = 7, .value_len = 8 };

/* gameid_game(), the values readable past their ends if padded. */
static inline ARB_ALWAYS_INLINE uint64_t tags_id(const arb_tag *tags, const size_t at[GAMEID_TAGS - 1],
                                                 const arb_tag *variant, uint64_t rest, bool padded)
{
    _Static_assert(GAMEID_TAGS == 8, "eight tags, keys C(0) to C(143); the moves C(144), the end C(145)");
    uint64_t a = IV;
    /* Unrolled: each key row is then an address. */
#define TAG(k)             \
    if (at[k] != SIZE_MAX) \
        a = value(a, &tags[at[k]], k, padded);
    TAG(0) TAG(1) TAG(2) TAG(3) TAG(4) TAG(5) TAG(6)
#undef TAG
    if (variant)
        a = value(a, variant, 7, padded);
    a = fold(a ^ C(145), rest);
    /* splitmix64's finalizer */
    a ^= a >> 30;
    a *= 0xbf58476d1ce4e5b9ULL;
    a ^= a >> 27;
    a *= 0x94d049bb133111ebULL;
    return a ^ a >> 31;
}

uint64_t gameid_game(const arb_tag *tags, const size_t at[GAMEID_TAGS - 1], const arb_tag *variant, uint64_t rest)
{
    return tags_id(tags, at, variant, rest, true);
}

uint64_t arb_game_id(const arb_game *g)
{
    if (g->id)
        return g->id;
    /* Not made as the game was read: the first tag of each covered name,
     * as the reader notes them (K_EVENT.. in the id's order). */
    _Static_assert(K_VARIANT - K_EVENT + 1 == GAMEID_TAGS, "the covered tags in the id's order");
    size_t at[GAMEID_TAGS];
    for (int k = 0; k < GAMEID_TAGS; k++)
        at[k] = SIZE_MAX;
    for (size_t i = 0; i < g->ntags; i++) {
        enum known k = tag_kind(g->tags[i].name, g->tags[i].name_len);
        if (k >= K_EVENT && k <= K_VARIANT && at[k - K_EVENT] == SIZE_MAX)
            at[k - K_EVENT] = i;
    }
    const arb_tag *variant = NULL;
    if (at[GAMEID_TAGS - 1] != SIZE_MAX) {
        variant = &g->tags[at[GAMEID_TAGS - 1]];
        variant = gameid_variant(variant, tag_variant(variant->value));
    }
    return tags_id(g->tags, at, variant, g->id_rest, false);
}

#if defined(__SSE2__) && defined(__GNUC__) && defined(__x86_64__)
#include <emmintrin.h>
/* The sixteen digits at once: the bytes most significant first, each
 * split into its two nibbles side by side, and every nibble made a digit
 * (every JSON record writes an id). */
static void id_digits(char out[16], uint64_t id)
{
    __m128i x = _mm_cvtsi64_si128((long long)__builtin_bswap64(id)), low = _mm_set1_epi8(0x0F);
    __m128i nibbles = _mm_unpacklo_epi8(_mm_and_si128(_mm_srli_epi16(x, 4), low), _mm_and_si128(x, low));
    __m128i letters = _mm_and_si128(_mm_cmpgt_epi8(nibbles, _mm_set1_epi8(9)), _mm_set1_epi8('a' - '0' - 10));
    _mm_storeu_si128((__m128i *)(void *)out, _mm_add_epi8(_mm_add_epi8(nibbles, _mm_set1_epi8('0')), letters));
}
#else
static void id_digits(char out[16], uint64_t id)
{
    for (int i = 0; i < 16; i++)
        out[i] = "0123456789abcdef"[id >> (60 - 4 * i) & 15];
}
#endif

void arb_id_text(uint64_t id, char out[ARB_ID_TEXT])
{
    memcpy(out, "v1:", 3);
    id_digits(out + 3, id);
    out[19] = '\0';
}

void arb_game_id_text(const arb_game *g, char out[ARB_ID_TEXT])
{
    arb_id_text(arb_game_id(g), out);
}
