#!/bin/sh
# formats.sh: --check --format=gnu|github|sarif|junit against each other
# and against what each format requires, and the pre-commit hook.
#
#  - Every problem of the gnu lines is in every other format once, at the
#    same file, line and column, with the same level, game and message
#    (python3, standard library only: the github lines unescaped, the SARIF
#    log read with the json module, the JUnit report with xml.etree).
#  - The SARIF log has what SARIF 2.1.0 requires: version "2.1.0", $schema,
#    runs[].tool.driver.name, and for each result ruleId (one of the
#    driver's rules), level, message.text and a physical location with
#    artifactLocation.uri and region.startLine/startColumn; standard output
#    is that one JSON document and nothing else.
#    A relative file name with ':' in its first segment (c:x.pgn) gives a
#    uri that reads as a relative path, not a scheme (RFC 3986, 4.2).
#  - Control characters of tags, reasons and file names are '?' in the
#    text report and the gnu and github lines, and on standard error.
#  - The JUnit report is well-formed (xmllint --noout) and its failures
#    are the errors of the count line; each testsuite's counts are its own.
#  - The same with -j2 over many files and over one large file cut into
#    pieces (game numbers renumbered), with --max-errors, with --strict, and
#    with inputs that cannot be read (a SARIF notification, a JUnit error);
#    the exit status is the same in every format.
#  - The hook of .pre-commit-hooks.yaml, run by pre-commit in a throwaway
#    repository (no network: the hook repository is a local clone), fails
#    a commit that adds a PGN file with a wrong result and passes one
#    without.
# xmllint (libxml2-utils) and pre-commit are needed: without them their
# checks are skipped, and fail when CI=true.
#
# Environment: PGN_ARBITER (default src/pgn-arbiter), abs_top_srcdir or
# top_srcdir (default: the directory above this script's).

top=${abs_top_srcdir:-${top_srcdir:-$(dirname "$0")/..}}
top=$(cd "$top" && pwd) || exit 99
prog=${PGN_ARBITER:-src/pgn-arbiter}
case $prog in
/*) ;;
*) prog=$(pwd)/$prog ;;
esac
data=$top/tests/e2e/a-formats-data

. "$top/tests/testlib.sh"
# need TOOL: true if TOOL is there; if not, a skip note, or a failure in CI.
need() {
    if command -v "$1" >/dev/null 2>&1; then
        return 0
    fi
    if [ "${CI:-}" = true ]; then
        fail "$1 is not installed (CI needs it: see the apt-get line of .ci/run)"
    else
        echo "SKIP: $1 is not installed: its checks are left out"
    fi
    return 1
}

need python3 || { tally && exit 77; exit 1; }

test_tmp formats
tmp=$(cd "$tmp" && pwd -P) || exit 99

# The inputs: the bundled problem files, a gzip copy, and one large file
# (2.5 MB, so that -j2 cuts it into pieces of about 1 MiB).
mkdir "$tmp/in" "$tmp/sub dir" || exit 99
cp "$data/problems.pgn" "$data/kinds.pgn" "$tmp/in/" || exit 99
cp "$data/kinds.pgn" "$tmp/sub dir/k,1%.pgn" || exit 99
gzip -c "$data/kinds.pgn" >"$tmp/in/kinds.pgn.gz" || exit 99
i=0
while [ $i -lt 700 ]; do
    cat "$data/problems.pgn" "$data/kinds.pgn"
    i=$((i + 1))
done >"$tmp/in/large.pgn"
# A gzip file cut short: read until it fails.
gzip -c "$tmp/in/large.pgn" | head -c 1000 >"$tmp/in/bad.pgn.gz"

cat >"$tmp/check.py" <<'EOF'
"""check.py GNU OTHER FORMAT STATUS_GNU STATUS_OTHER SUMMARY_LINE CWD: every gnu
problem once in OTHER, in order, with the same place, level, game and
message; OTHER has what FORMAT requires.  Prints what differed; exit 1."""
import json, re, sys
import xml.etree.ElementTree as ET

gnu_path, other_path, fmt, st_gnu, st_other, summary, cwd = sys.argv[1:8]

def norm(f):
    """The path as the other formats give it: relative to the working directory."""
    while f.startswith('./'):
        f = f[2:]
    if f.startswith(cwd + '/'):
        f = f[len(cwd) + 1:]
    return f

problems = []
line_re = re.compile(r'^(.*):(\d+):(\d+): (error|warning): game (\d+) \((.*) v (.*)\): (.*)$')
for line in open(gnu_path, encoding='utf-8'):
    m = line_re.match(line.rstrip('\n'))
    if not m:
        sys.exit('gnu line not understood: %r' % line)
    f, l, c, level, game, white, black, msg = m.groups()
    problems.append((norm(f), int(l), int(c), level, int(game), white, black, msg))
m = re.match(r'pgn-arbiter: (\d+) games?, (\d+) errors?, (\d+) warnings?', summary)
if not m:
    sys.exit('no count line: %r' % summary)
games, errors, warnings = map(int, m.groups())
if sum(p[3] == 'error' for p in problems) != errors or sum(p[3] == 'warning' for p in problems) != warnings:
    sys.exit('the gnu lines do not add up to the count line')
if st_gnu != st_other:
    sys.exit('exit status %s with gnu, %s with %s' % (st_gnu, st_other, fmt))

def unescape_github(s):
    return s.replace('%3A', ':').replace('%2C', ',').replace('%0A', '\n').replace('%0D', '\r').replace('%25', '%')

def compare(got):
    want = [(f, l, c, level, game, '%s v %s: %s' % (w, b, msg)) for f, l, c, level, game, w, b, msg in problems]
    if len(got) != len(want):
        sys.exit('%s: %d problems, gnu has %d' % (fmt, len(got), len(want)))
    for g, w in zip(got, want):
        if g != w:
            sys.exit('%s: %r\n  gnu: %r' % (fmt, g, w))

text = open(other_path, 'rb').read().decode('utf-8')
got = []
if fmt == 'github':
    cmd_re = re.compile(r'^::(error|warning) file=([^,]*),line=(\d+),col=(\d+),title=game (\d+) \(([^,]*)\)::(.*) \[([a-z-]+)\]$')
    for line in text.splitlines():
        m = cmd_re.match(line)
        if not m:
            sys.exit('github: not a workflow command: %r' % line)
        level, f, l, c, game, title, msg, rule = m.groups()
        # No raw : or , in a property, no raw CR or LF anywhere.
        got.append((unescape_github(f), int(l), int(c), level, int(game),
                    unescape_github(title) + ': ' + unescape_github(msg)))
elif fmt == 'sarif':
    log = json.loads(text)  # the whole of standard output: one document
    assert log['version'] == '2.1.0', 'version'
    assert isinstance(log['$schema'], str) and 'sarif' in log['$schema'], '$schema'
    assert isinstance(log['runs'], list) and len(log['runs']) == 1, 'one run'
    run = log['runs'][0]
    driver = run['tool']['driver']
    assert driver['name'] == 'pgn-arbiter' and driver['version'], 'tool.driver'
    ids = [r['id'] for r in driver['rules']]
    assert len(set(ids)) == len(ids) and all(re.match(r'^[a-z]+(-[a-z]+)*$', i) for i in ids), 'rule ids'
    for r in driver['rules']:
        assert r['defaultConfiguration']['level'] in ('error', 'warning') and r['shortDescription']['text']
    for r in run['results']:
        assert r['ruleId'] in ids and ids[r['ruleIndex']] == r['ruleId'], 'ruleId %r' % r['ruleId']
        assert r['level'] in ('error', 'warning'), 'level'
        loc = r['locations'][0]['physicalLocation']
        uri = loc['artifactLocation']['uri']
        assert not re.search(r'[ %#?\x00-\x1f]', re.sub(r'%[0-9A-F]{2}', '', uri)), 'uri %r' % uri
        from urllib.parse import unquote
        region = loc['region']
        m = re.match(r'^game (\d+) \((.*)$', r['message']['text'], re.S)
        assert m, 'message %r' % r['message']['text']
        assert r['properties']['game'] == int(m.group(1))
        rest = m.group(2)
        got.append((unquote(uri), region['startLine'], region['startColumn'], r['level'], int(m.group(1)),
                    rest.replace('): ', ': ', 1)))
    inv = run['invocations'][0]
    notes = inv.get('toolExecutionNotifications', [])
    if (st_other == '2') == inv['executionSuccessful']:
        sys.exit('sarif: executionSuccessful is %s with exit status %s' % (inv['executionSuccessful'], st_other))
    for n in notes:
        assert n['level'] == 'error' and n['message']['text'] and n['locations'][0]['physicalLocation']['artifactLocation']['uri']
    print('sarif: %d results, %d notifications' % (len(run['results']), len(notes)))
elif fmt == 'junit':
    root = ET.fromstring(text.encode('utf-8'))
    assert root.tag == 'testsuites'
    nfail = 0
    for suite in root.findall('testsuite'):
        cases = suite.findall('testcase')
        f_here = sum(len(tc.findall('failure')) for tc in cases)
        e_here = sum(len(tc.findall('error')) for tc in cases)
        assert int(suite.get('tests')) == len(cases), 'tests of %s' % suite.get('name')
        assert int(suite.get('failures')) == f_here and int(suite.get('errors')) == e_here, 'counts of %s' % suite.get('name')
        nfail += f_here
        for tc in cases:
            m = re.match(r'^game (\d+) \((.*)\)$', tc.get('name'), re.S)
            if not m:
                assert tc.find('error') is not None, 'test case %r' % tc.get('name')
                continue
            game, players = int(m.group(1)), m.group(2)
            lines = [x.text for x in tc.findall('failure')]
            out = tc.find('system-out')
            if out is not None:
                lines += out.text.split('\n')
            for t in lines:
                m = re.match(r'^(.*):(\d+):(\d+): (error|warning): (.*) \[([a-z-]+)\]$', t, re.S)
                assert m, 'junit line %r' % t
                f, l, c, level, msg, rule = m.groups()
                got.append((f, int(l), int(c), level, game, players + ': ' + msg))
    assert int(root.get('failures')) == nfail and int(root.get('tests')) == sum(int(s.get('tests')) for s in root.findall('testsuite'))
    if nfail != errors:
        sys.exit('junit: %d failures, %d errors in the count line' % (nfail, errors))
    print('junit: %d failures' % nfail)
    # A test case gives its game's errors first, then its warnings: both
    # sides in that order (sorted is stable), files in their order.
    files = {f: i for i, f in enumerate(dict.fromkeys(p[0] for p in problems))}
    problems.sort(key=lambda p: (files.get(p[0], -1), p[4], p[3] != 'error'))
    got.sort(key=lambda p: (files.get(p[0], -1), p[4], p[3] != 'error'))
compare(got)
print('%s: %d problems, as in the gnu lines' % (fmt, len(got)))
EOF

# run NAME ARGS...: the four formats of `pgn-arbiter --check ARGS`, each
# checked against the gnu one.
run() {
    name=$1
    shift
    (cd "$tmp" && "$prog" --check "$@" <"$input" >"$tmp/$name.gnu" 2>"$tmp/$name.gnu.err")
    st_gnu=$?
    summary=$(tail -n 1 "$tmp/$name.gnu.err")
    for fmt in github sarif junit; do
        (cd "$tmp" && "$prog" --check --format=$fmt "$@" <"$input" >"$tmp/$name.$fmt" 2>"$tmp/$name.$fmt.err")
        st=$?
        if ! cmp -s "$tmp/$name.gnu.err" "$tmp/$name.$fmt.err"; then
            fail "$name: $fmt: standard error differs from gnu's"
            diff "$tmp/$name.gnu.err" "$tmp/$name.$fmt.err" | head -n 5
            continue
        fi
        if out=$(python3 "$tmp/check.py" "$tmp/$name.gnu" "$tmp/$name.$fmt" $fmt $st_gnu $st "$summary" "$tmp" 2>&1); then
            pass "$name: $fmt (status $st): $(echo "$out" | tr '\n' ' ')"
        else
            fail "$name: $fmt: $out"
        fi
        if [ $fmt = junit ] && [ -n "$xmllint" ]; then
            if xmllint --noout "$tmp/$name.junit" 2>"$tmp/xmllint.err"; then
                pass "$name: junit: xmllint finds it well-formed"
            else
                fail "$name: junit: xmllint: $(head -n 3 "$tmp/xmllint.err")"
            fi
        fi
    done
}

xmllint=
need xmllint && xmllint=xmllint
input=/dev/null

run files -j1 in/problems.pgn in/kinds.pgn in/kinds.pgn.gz "sub dir/k,1%.pgn"
run files-j2 -j2 in/problems.pgn in/kinds.pgn in/kinds.pgn.gz "$tmp/sub dir/k,1%.pgn"
run strict --strict in/problems.pgn in/kinds.pgn
run max-errors --max-errors=3 in/problems.pgn in/kinds.pgn
run unreadable -j2 in/problems.pgn in/missing.pgn in/bad.pgn.gz in/kinds.pgn
run large-j2 -j2 in/large.pgn in/kinds.pgn
input=$tmp/in/kinds.pgn
run stdin -
input=/dev/null

# The same bytes with -j1 and -j2 (pieces renumbered, files in order).
for fmt in github sarif junit; do
    (cd "$tmp" && "$prog" --check --format=$fmt -j1 in/large.pgn in/kinds.pgn >"$tmp/j1" 2>/dev/null)
    (cd "$tmp" && "$prog" --check --format=$fmt -j2 in/large.pgn in/kinds.pgn >"$tmp/j2" 2>/dev/null)
    if cmp -s "$tmp/j1" "$tmp/j2" && [ -s "$tmp/j1" ]; then
        pass "$fmt: -j1 and -j2 give the same bytes"
    else
        fail "$fmt: -j1 and -j2 differ"
    fi
done

# Unreadable inputs: a notification and an error test case each.
if grep -c '"level": "error", "message"' "$tmp/unreadable.sarif" | grep -qx 2; then
    pass "unreadable: two SARIF notifications"
else
    fail "unreadable: not two SARIF notifications"
fi
if [ "$(grep -c '<error message=' "$tmp/unreadable.junit")" = 2 ]; then
    pass "unreadable: two JUnit errors"
else
    fail "unreadable: not two JUnit errors"
fi

# A relative name with ':' in its first segment is no URI scheme (RFC 3986,
# 4.2): the SARIF uri of c:x.pgn and col::on.pgn reads as a relative path.
mkdir "$tmp/colon" "$tmp/colon/d:1" || exit 99
for f in c:x.pgn col::on.pgn d:1/k.pgn; do
    cp "$data/kinds.pgn" "$tmp/colon/$f" || exit 99
done
(cd "$tmp/colon" && "$prog" --check --format=sarif c:x.pgn col::on.pgn d:1/k.pgn "$tmp/colon/c:x.pgn" \
    >"$tmp/colon.sarif" 2>/dev/null)
if out=$(cd "$tmp/colon" && python3 -c '
import json, os, sys
from urllib.parse import unquote, urlsplit
log = json.load(open(sys.argv[1]))
uris = set(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"])
for u in sorted(uris):
    if urlsplit(u).scheme or not os.path.isfile(unquote(u)):
        sys.exit("uri %r reads as a scheme or names no file here" % u)
if len(uris) != 3:
    sys.exit("uris %r, expected three files" % sorted(uris))
' "$tmp/colon.sarif" 2>&1); then
    pass "sarif: names with ':' in their first segment are relative URIs"
else
    fail "sarif: $out"
fi

# Control characters from the input (tags, a reason, the file name) reach
# no text output: each is '?' (a tab or line end in a
# field, a space), in the text report, the gnu and github lines and the
# messages on standard error (pgn-arbiter(1), OUTPUT).
esc=$(printf '\033')
ctl="$tmp/ctl${esc}[31m.pgn"
printf '[Event "e\033]0;title\007"]\n[White "W\033[2J\177"]\n[Black "B\tx"]\n[Result "1-0"]\n' >"$ctl"
printf '[Termination "abandoned \033[8m"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n' >>"$ctl"
printf '[White "\033[5m"]\n[Result "*"]\n\n1. e4 Nf9 *\n' >>"$ctl"
cat >"$tmp/ctl.py" <<'EOF'
"""ctl.py OUT ERR MODE: no control character in OUT or ERR (but tabs and
line ends, in the text report and the gnu lines); OUT shows the fields
with ? for each."""
import re, sys
out, err, mode = open(sys.argv[1], 'rb').read(), open(sys.argv[2], 'rb').read(), sys.argv[3]
allowed = b'\n' if mode == 'github' else b'\t\n'
for name, text in (('stdout', out), ('stderr', err)):
    bad = set(c for c in re.findall(rb'[\x00-\x1f\x7f]', text) if c not in allowed)
    if bad:
        sys.exit('%s holds control characters %r' % (name, sorted(bad)))
want = {'report': [b'ctl?[31m.pgn:1\t', b'\tW?[2J?\tB x\t', b'"abandoned ?[8m"', b'ctl?[31m.pgn:9\t'],
        'check': [b'ctl?[31m.pgn:4:1: error: game 1 (W?[2J? v B x): '],
        'github': [b'ctl?[31m.pgn,line=4,', b'title=game 1 (W?[2J? v B x)::']}[mode]
for w in want:
    if w not in out:
        sys.exit('stdout lacks %r: %r' % (w, out))
if mode == 'report' and b'ctl?[31m.pgn:12:' not in err:
    sys.exit('stderr lacks the file name with ? for ESC: %r' % err)
EOF
for mode in report check github; do
    case $mode in
    report) "$prog" -j1 "$ctl" >"$tmp/ctl.out" 2>"$tmp/ctl.err" ;;
    check) "$prog" -j1 --check "$ctl" >"$tmp/ctl.out" 2>"$tmp/ctl.err" ;;
    github) "$prog" -j1 --check --format=github "$ctl" >"$tmp/ctl.out" 2>"$tmp/ctl.err" ;;
    esac
    if out=$(python3 "$tmp/ctl.py" "$tmp/ctl.out" "$tmp/ctl.err" $mode 2>&1); then
        pass "control characters: $mode: each shown as ? (tabs and line ends as spaces)"
    else
        fail "control characters: $mode: $out"
    fi
done
# Accepted problems (a baseline, ArbiterAccept tags): SARIF 2.1.0's
# constraints on the fields that say so, as its schema states them:
# partialFingerprints an object of strings; baselineState one of new,
# unchanged, updated, absent; suppressions an array of objects whose kind
# is inSource or external, whose status is accepted, underReview or
# rejected, and whose justification is a string.  Every result has the game
# id and rule as fingerprints; with a baseline, every result its state:
# unchanged exactly where the baseline accepted it, absent for its stale
# entries (games.pgn corrected after the baseline was written).  JUnit: a game whose problems are all accepted is skipped.
acc=$top/tests/e2e/a-accept-data
mkdir "$tmp/acc" && cp "$acc/games.pgn" "$acc/moved.pgn" "$acc/corrected.pgn" "$acc/accept.pgn" "$tmp/acc/" || exit 99
(cd "$tmp/acc" && "$prog" --check --write-baseline=bl games.pgn 2>/dev/null &&
    cp corrected.pgn games.pgn) || exit 99
cat >"$tmp/acc.py" <<'EOF'
import json, re, sys
log = json.load(open(sys.argv[1]))
baseline = sys.argv[2] == 'with'
m = re.match(r'pgn-arbiter: (\d+) games?, (\d+) errors?, (\d+) warnings?, (\d+) accepted(?:, (\d+) stale)?', sys.argv[3])
assert m, 'count line %r' % sys.argv[3]
errors, warnings, accepted, stale = int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5) or 0)
results = log['runs'][0]['results']
ids = [r['id'] for r in log['runs'][0]['tool']['driver']['rules']]
suppressed = absent = plain = 0
for r in results:
    fp = r['partialFingerprints']
    assert isinstance(fp, dict) and all(isinstance(v, str) for v in fp.values()), 'partialFingerprints %r' % fp
    assert re.match(r'^v1:[0-9a-f]{16}$', fp['gameId/v1']) and fp['ruleId/v1'] == r['ruleId'], fp
    assert ids[r['ruleIndex']] == r['ruleId']
    state = r.get('baselineState')
    assert (state is not None) == baseline, 'baselineState %r' % state
    assert state in (None, 'new', 'unchanged', 'updated', 'absent'), state
    sup = r.get('suppressions')
    if sup is not None:
        assert isinstance(sup, list) and len(sup) == 1, sup
        s = sup[0]
        assert s['kind'] in ('inSource', 'external') and s.get('status', 'accepted') in ('accepted', 'underReview', 'rejected')
        assert isinstance(s.get('justification', ''), str)
        assert (state == 'unchanged') == (s['kind'] == 'external'), (state, s)
        if s['kind'] == 'inSource':
            assert s['justification'] == 'the appeals committee upheld 1-0', s
        suppressed += 1
    elif state == 'absent':
        absent += 1
    else:
        assert state in (None, 'new'), state
        plain += 1
assert suppressed == accepted, 'suppressed %d, accepted %d' % (suppressed, accepted)
assert absent == stale and plain == errors + warnings - stale, (absent, stale, plain, errors, warnings)
assert accepted >= 1 and (stale >= 1) == baseline
print('%d results, %d suppressed, %d absent' % (len(results), suppressed, absent))
EOF
for b in with without; do
    opt=
    [ $b = with ] && opt=--baseline=bl
    (cd "$tmp/acc" && "$prog" --check --format=sarif $opt games.pgn accept.pgn >"$tmp/acc/$b.sarif" 2>"$tmp/acc/$b.err")
    if out=$(python3 "$tmp/acc.py" "$tmp/acc/$b.sarif" $b "$(tail -n 1 "$tmp/acc/$b.err")" 2>&1); then
        pass "accepted, $b a baseline: sarif: $out"
    else
        fail "accepted, $b a baseline: sarif: $out"
    fi
done
(cd "$tmp/acc" && "$prog" --check --format=junit --baseline=bl moved.pgn accept.pgn >"$tmp/acc/acc.junit" 2>/dev/null)
if [ -n "$xmllint" ] && ! xmllint --noout "$tmp/acc/acc.junit" 2>"$tmp/xmllint.err"; then
    fail "accepted: junit: xmllint: $(head -n 3 "$tmp/xmllint.err")"
elif out=$(python3 - "$tmp/acc/acc.junit" 2>&1 <<'EOF'
import sys, xml.etree.ElementTree as ET
cases = {c.get('name'): c for c in ET.parse(sys.argv[1]).getroot().iter('testcase')}
g1 = cases['game 1 (Abel, Ann v Berg, Bo)']
skip = g1.find('skipped')
assert skip is not None and 'the appeals committee upheld 1-0' in skip.get('message'), 'game 1 not skipped'
assert g1.find('failure') is None
assert cases['game 2 (N3 v N4)'].find('failure') is not None, 'the new error is not a failure'
assert cases['game 6 (Clark, Carl v Diaz, Dora)'].find('skipped') is not None, 'a baselined game not skipped'
# Each test suite, and the whole, counts its skipped cases as it counts failures.
root = ET.parse(sys.argv[1]).getroot()
for suite in [root] + list(root.iter('testsuite')):
    n = sum(c.find('skipped') is not None for c in suite.iter('testcase'))
    assert int(suite.get('skipped', '0')) == n, '%s: skipped="%s", %d cases skipped' % (suite.get('name'), suite.get('skipped'), n)
assert int(root.get('skipped', '0')) >= 2, 'skipped="%s" in all' % root.get('skipped')
EOF
); then
    pass "accepted: junit: accepted games skipped with the reason and counted, the new error a failure"
else
    fail "accepted: junit: $out"
fi

# The pre-commit hook, offline: the hook repository is a local git
# repository holding this .pre-commit-hooks.yaml.
if need pre-commit && need git; then
    export HOME="$tmp/home" PRE_COMMIT_HOME="$tmp/cache" GIT_CONFIG_NOSYSTEM=1
    export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
    PATH=$(dirname "$prog"):$PATH
    export PATH
    mkdir "$HOME" "$tmp/hooks" "$tmp/db" || exit 99
    cp "$top/.pre-commit-hooks.yaml" "$tmp/hooks/" || exit 99
    (cd "$tmp/hooks" && git init -q && git add . && git commit -qm hooks) || exit 99
    rev=$(cd "$tmp/hooks" && git rev-parse HEAD)
    cat >"$tmp/db/.pre-commit-config.yaml" <<EOF
repos:
  - repo: $tmp/hooks
    rev: $rev
    hooks:
      - id: pgn-arbiter
EOF
    (cd "$tmp/db" && git init -q && git add .pre-commit-config.yaml && git commit -qm config &&
        pre-commit install >/dev/null) || fail "pre-commit install"
    # A game whose Result the rules contradict (Fool's mate is 0-1).
    printf '[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n' >"$tmp/db/wrong.pgn"
    printf '[White "A"]\n[Black "B"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n' >"$tmp/db/right.pgn"
    gzip -c "$tmp/db/wrong.pgn" >"$tmp/db/wrong2.pgn.gz"
    (cd "$tmp/db" && git add wrong.pgn && git commit -qm wrong) >"$tmp/pc.out" 2>&1
    if [ $? -ne 0 ] && grep -q 'wrong.pgn:3:1: error: game 1 (A v B): Result "1-0" contradicts checkmate' "$tmp/pc.out"; then
        pass "pre-commit: a commit adding a wrong result fails"
    else
        fail "pre-commit: a commit adding a wrong result did not fail: $(cat "$tmp/pc.out")"
    fi
    (cd "$tmp/db" && git reset -q && git add wrong2.pgn.gz && git commit -qm wrong2) >"$tmp/pc.out" 2>&1
    if [ $? -ne 0 ] && grep -q 'wrong2.pgn.gz:3:1: error:' "$tmp/pc.out"; then
        pass "pre-commit: a compressed PGN file is checked too"
    else
        fail "pre-commit: a commit adding a wrong result (.pgn.gz) did not fail: $(cat "$tmp/pc.out")"
    fi
    (cd "$tmp/db" && git reset -q && git add right.pgn && git commit -qm right) >"$tmp/pc.out" 2>&1
    if [ $? -eq 0 ] && (cd "$tmp/db" && git log --format=%s -1) | grep -qx right; then
        pass "pre-commit: a commit adding a right result passes"
    else
        fail "pre-commit: a commit adding a right result failed: $(cat "$tmp/pc.out")"
    fi
fi

tally
