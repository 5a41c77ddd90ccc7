#!/bin/sh
# gameid-collisions.sh: no two different games share a game id.
#
# Every PGN file bundled (data/, tests/data/), and with GAMEID_CORPUS=DIR
# every PGN file below DIR too (.gz and .zst read through gzip and zstd), is
# read by `pgn-arbiter --json -`.  Each record's game is told apart from
# the others independently of the program: by the values of the tags the id
# covers (the variant as it counts it) and by the main line's moves as text, read here from the game's
# bytes (from its offset to the next game's) with comments, variations,
# glyphs, move numbers, results and the suffixes + # ! ? taken out, and a
# promotion's piece and castling written one way.  Two
# records with one id but different games are a collision; the test fails
# on any, and prints the games, the distinct ids, the groups of identical
# games and the collisions.
#
# Environment: PGN_ARBITER (default src/pgn-arbiter), abs_top_srcdir or
# top_srcdir, GAMEID_CORPUS (optional).

top=${abs_top_srcdir:-${top_srcdir:-$(dirname "$0")/..}}
top=$(cd "$top" && pwd) || exit 99
prog=${PGN_ARBITER:-src/pgn-arbiter}
. "$top/tests/testlib.sh"
if ! command -v python3 >/dev/null 2>&1; then
    [ "${CI:-}" = true ] && { echo "FAIL: python3 is not installed"; exit 1; }
    echo "SKIP: python3 is not installed"
    exit 77
fi
test_tmp gameid
{
    find "$top/data" "$top/tests/data" -type f \( -name '*.pgn' -o -name '*.pgn.gz' -o -name '*.pgn.zst' \)
    [ -n "${GAMEID_CORPUS:-}" ] && find "$GAMEID_CORPUS" -type f \( -name '*.pgn' -o -name '*.pgn.gz' -o -name '*.pgn.zst' \)
} | sort >"$tmp/files"
cat >"$tmp/count.py" <<'EOF'
import json, re, subprocess, sys
prog, listing = sys.argv[1:3]
NAMES = ['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'FEN']

def variant(v):
    # As the id counts it (pgnarbiter(3)): nothing for standard chess, one
    # name for Chess960, else the value.
    if v is None:
        return None
    norm = re.sub(r'[ _-]', '', v).lower()
    if v == 'Standard' or norm in ('standard', 'fromposition', 'chess', 'normal', ''):
        return None
    return 'chess960' if norm in ('chess960', 'fischerandom', 'fischerrandom', '960') else v
TAG = re.compile(rb'\[\s*([A-Za-z0-9_]+)\s+"(?:[^"\\]|\\.)*"\s*\]')
games = {}
count = 0

def moves(text):
    # A line that starts with a tag pair followed by anything but more
    # pairs, a move number, a move or a marker is ignored whole (the man
    # page's reading).
    def tag_line(m):
        rest = re.sub(rb'^(?:' + TAG.pattern + rb'[ \t]*)+', b'', m.group(0))
        return m.group(0) if re.match(rb'[ \t]*($|[0-9a-hNBRQKO*])', rest) else b' '
    text = re.sub(rb'(?m)^\[[^\n]*', tag_line, text)
    text = TAG.sub(b' ', text)
    text = re.sub(rb'\{[^}]*\}', b' ', text)
    text = re.sub(rb';[^\n]*', b' ', text)
    text = re.sub(rb'(?m)^%[^\n]*', b' ', text)
    while True:
        t = re.sub(rb'\([^()]*\)', b' ', text)
        if t == text:
            break
        text = t
    text = re.sub(rb'\$\d+', b' ', text)
    out = []
    for w in text.split():
        if w in (b'1-0', b'0-1', b'1/2-1/2', b'*'):
            continue
        w = re.sub(rb'^0-0(-0)?(?=[!?+#]*$)', lambda m: b'O-O' + (b'-O' if m.group(1) else b''), w)  # castling with zeros
        w = re.sub(rb'^\d+\.*', b'', w)
        w = re.sub(rb'[!?+#]+$', b'', w)
        # A promotion's piece in either case, with or without "=".
        w = re.sub(rb'=?([QRBNqrbn])$', lambda m: b'=' + m.group(1).upper(), w) if re.search(rb'[1-8]=?[QRBNqrbn]$', w) else w
        if w:
            out.append(w)
    return b' '.join(out)

for path in open(listing).read().split('\n'):
    if not path:
        continue
    data = open(path, 'rb').read()
    if path.endswith('.gz'):
        data = subprocess.run(['gzip', '-dc', path], capture_output=True).stdout
    elif path.endswith('.zst'):
        data = subprocess.run(['zstd', '-dc', path], capture_output=True).stdout
    run = subprocess.run([prog, '--json', '-j1', '-'], input=data, capture_output=True)
    recs = [json.loads(l) for l in run.stdout.decode('utf-8').splitlines()]
    for i, r in enumerate(recs):
        end = recs[i + 1]['offset'] if i + 1 < len(recs) else len(data)
        key = (json.dumps([r['tags'].get(n) for n in NAMES] + [variant(r['tags'].get('Variant'))]),
               moves(data[r['offset']:end]))
        games.setdefault(r['id'], {}).setdefault(key, []).append('%s game %d' % (path, r['game']))
        count += 1
collisions = 0
for gid, keys in games.items():
    if len(keys) > 1:
        collisions += len(keys) - 1
        print('collision: %s: %s' % (gid, '; '.join(v[0] for v in keys.values())))
same = sum(1 for keys in games.values() for v in keys.values() if len(v) > 1)
# The other way round, for the record: one game (as text) under several ids.
ids_of = {}
for gid, keys in games.items():
    for key in keys:
        ids_of.setdefault(key, set()).add(gid)
split = sum(1 for v in ids_of.values() if len(v) > 1)
print('%d games, %d distinct ids, %d groups of identical games, %d collisions, %d games under several ids'
      % (count, len(games), same, collisions, split))
sys.exit(1 if collisions else 0)
EOF
if out=$(python3 "$tmp/count.py" "$prog" "$tmp/files" 2>&1); then
    pass "$(echo "$out" | tail -n 1)"
else
    fail "$out"
fi
tally
