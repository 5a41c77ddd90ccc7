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

#include <string.h>

#include "pgnarbiter.h"

#define IV 0x243F6A8885A308D3ULL /* the first 64 bits of pi's fraction */
#define K 0x9E3779B97F4A7C15ULL  /* 2^64 divided by the golden ratio */

static inline uint64_t fold(uint64_t x, uint64_t y)
{
#ifdef ARB_HAVE_UINT128
    unsigned __int128 p = (unsigned __int128)x * y;
    return (uint64_t)p ^ (uint64_t)(p >> 64);
#else
    uint64_t xl = x & 0xFFFFFFFFu, xh = x >> 32, yl = y & 0xFFFFFFFFu, yh = y >> 32;
    uint64_t ll = xl * yl, lh = xl * yh, hl = xh * yl;
    uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);
    uint64_t lo = (ll & 0xFFFFFFFFu) | mid << 32;
    uint64_t hi = xh * yh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    return lo ^ hi;
#endif
}

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
#define LAST(n) { LOW(n) & -(uint64_t)((n) > 0), (n) > 8 ? LOW((n) - 8) : 0 }

/* The key of a block: C(j) = (2j + 1) K, distinct for every j, and j says
 * which tag the block is of and, for its last, how many bytes it holds. */
#define C(j) ((uint64_t)(2 * (j) + 1) * K)
#define KEYS(k) { C(18 * (k) + 0),  C(18 * (k) + 1),  C(18 * (k) + 2),  C(18 * (k) + 3),  C(18 * (k) + 4),  \
                  C(18 * (k) + 5),  C(18 * (k) + 6),  C(18 * (k) + 7),  C(18 * (k) + 8),  C(18 * (k) + 9),  \
                  C(18 * (k) + 10), C(18 * (k) + 11), C(18 * (k) + 12), C(18 * (k) + 13), C(18 * (k) + 14), \
                  C(18 * (k) + 15), C(18 * (k) + 16), C(18 * (k) + 17) }

/* The blocks of tag value tags[at] (none if at is SIZE_MAX) after a, the
 * k-th covered tag: a whole block's key is C(18k + 17), the last's
 * C(18k + r) for its r bytes (0 only for an empty value), so neither the
 * lengths nor the tags missing need a word of their own. */
static inline ARB_ALWAYS_INLINE uint64_t value(uint64_t a, const arb_tag *tags, size_t at, int k)
{
    static const uint64_t last[17][2] = { LAST(0),  LAST(1),  LAST(2),  LAST(3),  LAST(4),  LAST(5),
                                          LAST(6),  LAST(7),  LAST(8),  LAST(9),  LAST(10), LAST(11),
                                          LAST(12), LAST(13), LAST(14), LAST(15), LAST(16) };
    static const uint64_t keys[GAMEID_TAGS][18] = { KEYS(0), KEYS(1), KEYS(2), KEYS(3), KEYS(4),
                                                    KEYS(5), KEYS(6), KEYS(7), KEYS(8) };
    if (at == SIZE_MAX)
        return a;
    const unsigned char *p = (const unsigned char *)tags[at].value;
    size_t n = tags[at].value_len; /* below 2^32: LEX_MAX_VALUE */
    for (; __builtin_expect(n > 16, 0); p += 16, n -= 16)
        a = fold(read64(p) ^ keys[k][17], read64(p + 8) ^ a);
    return fold((read64(p) & last[n][0]) ^ keys[k][n], (read64(p + 8) & last[n][1]) ^ a);
}

uint64_t gameid_game(const arb_tag *tags, const size_t at[GAMEID_TAGS], const char *failed, uint64_t moves,
                     uint32_t plies, uint64_t tail)
{
    _Static_assert(GAMEID_TAGS == 9, "nine tags, keys C(0) to C(161); the moves C(162), the tail C(163)");
    uint64_t a = IV;
    a = value(a, tags, at[0], 0); /* unrolled: each key row is then an address */
    a = value(a, tags, at[1], 1);
    a = value(a, tags, at[2], 2);
    a = value(a, tags, at[3], 3);
    a = value(a, tags, at[4], 4);
    a = value(a, tags, at[5], 5);
    a = value(a, tags, at[6], 6);
    a = value(a, tags, at[7], 7);
    a = value(a, tags, at[8], 8);
    if (*failed)
        tail = gameid_fnv1a(tail, failed, strlen(failed));
    a = fold(moves ^ C(162), plies ^ a);
    a = fold(tail ^ C(163), a);
    /* splitmix64's finalizer */
    a ^= a >> 30;
    a *= 0xbf58476d1ce4e5b9ULL;
    a ^= a >> 27;
    a *= 0x94d049bb133111ebULL;
    return a ^ a >> 31;
}

void arb_game_id_text(const arb_game *g, char out[ARB_ID_TEXT])
{
    /* Two digits a byte: every JSON record writes one. */
    static const char pairs[] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
                                "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
                                "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
                                "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
                                "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
                                "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
                                "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
                                "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
    uint64_t id = g->id;
    memcpy(out, "v1:", 3);
    memcpy(out + 3, pairs + 2 * (id >> 56), 2);
    memcpy(out + 5, pairs + 2 * (id >> 48 & 255), 2);
    memcpy(out + 7, pairs + 2 * (id >> 40 & 255), 2);
    memcpy(out + 9, pairs + 2 * (id >> 32 & 255), 2);
    memcpy(out + 11, pairs + 2 * (id >> 24 & 255), 2);
    memcpy(out + 13, pairs + 2 * (id >> 16 & 255), 2);
    memcpy(out + 15, pairs + 2 * (id >> 8 & 255), 2);
    memcpy(out + 17, pairs + 2 * (id & 255), 2);
    out[19] = '\0';
}
