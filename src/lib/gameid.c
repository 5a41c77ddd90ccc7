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


static void little_endian(gameid_t *h, uint64_t v, int n);

void gameid_string(gameid_t *h, const char *value, size_t len)
{
    little_endian(h, value ? (uint32_t)len : 0xFFFFFFFFu, 4);
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

/* v in n bytes, least significant first. */
static void little_endian(gameid_t *h, uint64_t v, int n)
{
    unsigned char le[8];
    for (int i = 0; i < n; i++)
        le[i] = (unsigned char)(v >> (8 * i));
    gameid_update(h, le, (size_t)n);
}

uint64_t gameid_game(const arb_game *g, const move_t *moves, uint32_t plies, uint64_t tail)
{
    static const char *const names[] = { "Event", "Site", "Date", "Round", "White", "Black", "SetUp", "FEN", "Variant" };
    _Static_assert(sizeof(move_t) == 4, "a move is four bytes: from, to, promo, flags");
    gameid_t h;
    gameid_init(&h, 0);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const arb_tag *t = NULL;
        for (size_t k = 0; k < g->ntags && !t; k++)
            if (strcmp(g->tags[k].name, names[i]) == 0)
                t = &g->tags[k];
        gameid_string(&h, t ? t->value : NULL, t ? t->value_len : 0);
    }
    little_endian(&h, plies, 4);
    if (plies)
        gameid_update(&h, moves, plies * sizeof(move_t));
    gameid_string(&h, g->error.move, strlen(g->error.move));
    little_endian(&h, tail, 8);
    return gameid_digest(&h);
}

void arb_game_id_text(const arb_game *g, char out[ARB_ID_TEXT])
{
    static const char hex[] = "0123456789abcdef";
    memcpy(out, "v1:", 3);
    for (int i = 0; i < 16; i++)
        out[3 + i] = hex[(g->id >> (60 - 4 * i)) & 15];
    out[19] = '\0';
}
