/* gameid.c: XXH64 and the game id's text (gameid.h).  The hash follows the
 * steps of the XXH64 specification: four accumulators over 32-byte stripes,
 * their merge, the remaining 8-, 4- and 1-byte lanes, the avalanche.  Lanes
 * are read least significant byte first on every machine. */
#include "gameid.h"

#include <string.h>

#include "pgnarbiter.h"

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL
#define P4 0x85EBCA77C2B2AE63ULL
#define P5 0x27D4EB2F165667C5ULL

static inline uint64_t rotl(uint64_t x, unsigned r)
{
    return (x << r) | (x >> (64 - r));
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

static inline uint64_t round64(uint64_t acc, uint64_t lane)
{
    acc += lane * P2;
    return rotl(acc, 31) * P1;
}

static inline uint64_t merge(uint64_t acc, uint64_t v)
{
    acc ^= round64(0, v);
    return acc * P1 + P4;
}

void gameid_init(gameid_t *h, uint64_t seed)
{
    h->v[0] = seed + P1 + P2;
    h->v[1] = seed + P2;
    h->v[2] = seed;
    h->v[3] = seed - P1;
    h->total = 0;
    h->used = 0;
    h->seed = seed;
}

static inline void stripe(uint64_t v[4], const unsigned char *p)
{
    v[0] = round64(v[0], read64(p));
    v[1] = round64(v[1], read64(p + 8));
    v[2] = round64(v[2], read64(p + 16));
    v[3] = round64(v[3], read64(p + 24));
}

void gameid_update(gameid_t *h, const void *data, size_t len)
{
    const unsigned char *p = data;
    h->total += len;
    if (h->used) {
        size_t k = 32 - h->used < len ? 32 - h->used : len;
        memcpy(h->buf + h->used, p, k);
        h->used += k;
        p += k;
        len -= k;
        if (h->used < 32)
            return;
        stripe(h->v, h->buf);
        h->used = 0;
    }
    for (; len >= 32; p += 32, len -= 32)
        stripe(h->v, p);
    if (len) {
        memcpy(h->buf, p, len);
        h->used = len;
    }
}

uint64_t gameid_digest(const gameid_t *h)
{
    uint64_t acc;
    if (h->total >= 32) {
        const uint64_t *v = h->v;
        acc = rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18);
        for (int i = 0; i < 4; i++)
            acc = merge(acc, v[i]);
    } else {
        acc = h->seed + P5;
    }
    acc += h->total;
    const unsigned char *p = h->buf;
    size_t n = h->used;
    for (; n >= 8; p += 8, n -= 8) {
        acc ^= round64(0, read64(p));
        acc = rotl(acc, 27) * P1 + P4;
    }
    if (n >= 4) {
        acc ^= read32(p) * P1;
        acc = rotl(acc, 23) * P2 + P3;
        p += 4;
        n -= 4;
    }
    for (; n; p++, n--) {
        acc ^= *p * P5;
        acc = rotl(acc, 11) * P1;
    }
    acc ^= acc >> 33;
    acc *= P2;
    acc ^= acc >> 29;
    acc *= P3;
    acc ^= acc >> 32;
    return acc;
}

uint64_t gameid_xxh64(const void *data, size_t len, uint64_t seed)
{
    gameid_t h;
    gameid_init(&h, seed);
    gameid_update(&h, data, len);
    return gameid_digest(&h);
}


static inline unsigned char *put32(unsigned char *o, uint32_t v);

void gameid_string(gameid_t *h, const char *value, size_t len)
{
    unsigned char le[4];
    put32(le, value ? (uint32_t)len : 0xFFFFFFFFu);
    gameid_update(h, le, 4);
    if (value)
        gameid_update(h, value, len);
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

/* The tags the id covers, in its order (Event, Site, Date, Round, White,
 * Black, SetUp, FEN, Variant): the index of name[0..len) among them, -1 if
 * it is none.  By length first, with compares of known size: most tags are
 * other tags, and every game asks for each of its tags. */
static inline int covered(const char *name, size_t len)
{
    switch (len) {
    case 3: return memcmp(name, "FEN", 3) == 0 ? 7 : -1;
    case 4: return memcmp(name, "Site", 4) == 0 ? 1 : memcmp(name, "Date", 4) == 0 ? 2 : -1;
    case 5:
        switch (name[0]) {
        case 'E': return memcmp(name, "Event", 5) == 0 ? 0 : -1;
        case 'R': return memcmp(name, "Round", 5) == 0 ? 3 : -1;
        case 'W': return memcmp(name, "White", 5) == 0 ? 4 : -1;
        case 'B': return memcmp(name, "Black", 5) == 0 ? 5 : -1;
        case 'S': return memcmp(name, "SetUp", 5) == 0 ? 6 : -1;
        default: return -1;
        }
    case 7: return memcmp(name, "Variant", 7) == 0 ? 8 : -1;
    default: return -1;
    }
}

/* Writes v in four bytes, least significant first, at o; the end.  (The
 * compiler makes one store of it on a little-endian machine.) */
static inline unsigned char *put32(unsigned char *o, uint32_t v)
{
    o[0] = (unsigned char)v;
    o[1] = (unsigned char)(v >> 8);
    o[2] = (unsigned char)(v >> 16);
    o[3] = (unsigned char)(v >> 24);
    return o + 4;
}

uint64_t gameid_game(const arb_game *g, const move_t *moves, uint32_t plies, uint64_t tail)
{
    _Static_assert(sizeof(move_t) == 4, "a move is four bytes: from, to, promo, flags");
    enum { COVERED = 9 };
    const arb_tag *t[COVERED] = { NULL };
    for (size_t k = 0; k < g->ntags; k++) {
        int i = covered(g->tags[k].name, g->tags[k].name_len);
        if (i >= 0 && !t[i])
            t[i] = &g->tags[k];
    }
    /* The tags' part in one piece where it fits (the usual case), so that
     * the hash is fed three times a game, not twenty. */
    unsigned char part[512], *o = part;
    gameid_t h;
    gameid_init(&h, 0);
    for (int i = 0; i < COVERED; i++) {
        size_t n = t[i] ? t[i]->value_len : 0;
        if ((size_t)(part + sizeof part - o) < n + 4) {
            gameid_update(&h, part, (size_t)(o - part));
            o = part;
            gameid_string(&h, t[i]->value, n);
            continue;
        }
        o = put32(o, t[i] ? (uint32_t)n : 0xFFFFFFFFu);
        if (n)
            memcpy(o, t[i]->value, n);
        o += n;
    }
    o = put32(o, plies);
    gameid_update(&h, part, (size_t)(o - part));
    if (plies)
        gameid_update(&h, moves, plies * sizeof(move_t));
    size_t failed = strlen(g->error.move); /* below 64 */
    o = put32(part, (uint32_t)failed);
    memcpy(o, g->error.move, failed);
    o = put32(put32(o + failed, (uint32_t)tail), (uint32_t)(tail >> 32));
    gameid_update(&h, part, (size_t)(o - part));
    return gameid_digest(&h);
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
    memcpy(out, "v1:", 3);
    uint64_t id = g->id;
    for (int i = 7; i >= 0; i--, id >>= 8)
        memcpy(out + 3 + 2 * i, pairs + 2 * (id & 255), 2);
    out[19] = '\0';
}
