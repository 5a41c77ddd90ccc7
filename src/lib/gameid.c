/* gameid.c: the game id (gameid.h; its bytes in pgnarbiter.h, arb_game.id).
 *
 * The hash takes the bytes sixteen at a time as two 64-bit words x and y,
 * least significant byte first, and makes each block one multiply:
 * a = fold(x ^ K, y ^ a), fold being the 128-bit product's halves XOR-ed
 * (the step of wyhash, and of XXH3 on mid-sized inputs); splitmix64's
 * finalizer mixes the last a.  Four moves fill a block, so a ply costs
 * about two instructions, and a tag value is read where it lies, its last
 * block one load and a mask: no bytes are copied. */
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

static inline uint64_t block(uint64_t a, uint64_t x, uint64_t y)
{
    return fold(x ^ K, y ^ a);
}

static inline uint64_t read64(const unsigned char *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static inline uint64_t read32(const unsigned char *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
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
/* For the last block of a value, n 1..16 bytes of it: the masks of x, y. */
#define LAST(n) { LOW(n), (n) > 8 ? LOW((n) - 8) : 0 }

/* The blocks of tag value tags[at] (none if at is SIZE_MAX) after a;
 * *len its length, 0xFFFFFFFF if absent. */
static inline ARB_ALWAYS_INLINE uint64_t value(uint64_t a, const arb_tag *tags, size_t at, uint64_t *len)
{
    static const uint64_t last[17][2] = { { 0, 0 },  LAST(1),  LAST(2),  LAST(3),  LAST(4),  LAST(5),
                                          LAST(6),   LAST(7),  LAST(8),  LAST(9),  LAST(10), LAST(11),
                                          LAST(12),  LAST(13), LAST(14), LAST(15), LAST(16) };
    if (at == SIZE_MAX) {
        *len = 0xFFFFFFFFu;
        return a;
    }
    const unsigned char *p = (const unsigned char *)tags[at].value;
    size_t n = tags[at].value_len; /* below 2^32: LEX_MAX_VALUE */
    *len = n;
    if (n == 0)
        return a;
    for (; n > 16; p += 16, n -= 16)
        a = block(a, read64(p), read64(p + 8));
    return block(a, read64(p) & last[n][0], read64(p + 8) & last[n][1]);
}

uint64_t gameid_game(const arb_tag *tags, const size_t at[GAMEID_TAGS], const char *failed, const move_t *moves,
                     uint32_t plies, uint64_t tail)
{
    _Static_assert(sizeof(move_t) == 4, "a move is four bytes: from, to, promo, flags");
    _Static_assert(GAMEID_TAGS == 9, "nine tags, three blocks of lengths with the plies and the tail");
    uint64_t a = IV, n[GAMEID_TAGS];
    a = value(a, tags, at[0], &n[0]);
    a = value(a, tags, at[1], &n[1]);
    a = value(a, tags, at[2], &n[2]);
    a = value(a, tags, at[3], &n[3]);
    a = value(a, tags, at[4], &n[4]);
    a = value(a, tags, at[5], &n[5]);
    a = value(a, tags, at[6], &n[6]);
    a = value(a, tags, at[7], &n[7]);
    a = value(a, tags, at[8], &n[8]);
    const unsigned char *m = (const unsigned char *)moves;
    for (uint32_t k = plies / 8; k; k--, m += 32) {
        a = block(a, read64(m), read64(m + 8));
        a = block(a, read64(m + 16), read64(m + 24));
    }
    if (plies & 4) {
        a = block(a, read64(m), read64(m + 8));
        m += 16;
    }
    switch (plies & 3) {
    case 1: a = block(a, read32(m), 0); break;
    case 2: a = block(a, read64(m), 0); break;
    case 3: a = block(a, read64(m), read32(m + 8)); break;
    default: break;
    }
    if (*failed)
        tail = gameid_fnv1a(tail, failed, strlen(failed));
    a = block(a, n[0] | n[1] << 32, n[2] | n[3] << 32);
    a = block(a, n[4] | n[5] << 32, n[6] | n[7] << 32);
    a = block(a, n[8] | (uint64_t)plies << 32, tail);
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
