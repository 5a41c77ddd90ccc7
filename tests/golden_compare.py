#!/usr/bin/env python3
"""golden_compare.py: compare a `pgn-arbiter --json` report with a reference.

Usage: golden_compare.py [--name NAME] REFERENCE.jsonl [REPORT.jsonl]

REFERENCE holds one JSON object per game, as in tests/data/golden/*.jsonl
(computed with python-chess; see tests/data/golden/SOURCES.md); REPORT is
the program's --json output (standard input if absent or "-").  Games are
matched in order; for each one these must agree:

    game, status, plies, result, adjudicated,
    first.{checkmate, stalemate, insufficient, dead, fivefold, seventyfive,
           threefold, fifty},
    end (null, or its reason and ply).

One difference is allowed: the reference knows only insufficient material
(its first.dead is python-chess's is_insufficient_material), while
pgn-arbiter may find a dead position (FIDE Article 5.2.2) earlier, or where
material alone does not tell.  So first.dead may be earlier than the
reference's first.insufficient (or set where that is null).  When it is,
the game ends there if nothing ended it before, and the expected end and
adjudicated result are worked out again from that ply; nothing else is
relaxed.

Prints one line per difference ("NAME: game 3: plies: expected 12, got 11")
and then "N passed, M failed", counting games.  Exit status 0 if every game
agreed, 1 if not, 2 on a usage error or unreadable input.

Only the Python standard library is used.
"""

import json
import sys

FACTS = ("checkmate", "stalemate", "insufficient", "dead",
         "fivefold", "seventyfive", "threefold", "fifty")
# The facts that end a game by themselves, in the order that breaks a tie
# on one ply (checkmate first: FIDE 9.6, mate on the last move stands).
ENDING = ("checkmate", "stalemate", "dead", "fivefold", "seventyfive")


def load(path, what):
    """The JSON objects of a JSON-lines file (blank lines skipped)."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
    except OSError as e:
        sys.stderr.write("golden_compare.py: %s: %s\n" % (path, e.strerror))
        sys.exit(2)
    games = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as e:
            sys.stderr.write("golden_compare.py: %s (%s) line %d is not JSON: %s\n"
                             % (path, what, n, e))
            sys.exit(2)
        if not isinstance(obj, dict):
            sys.stderr.write("golden_compare.py: %s (%s) line %d is not an object\n"
                             % (path, what, n))
            sys.exit(2)
        games.append(obj)
    return games


def show(v):
    return json.dumps(v, sort_keys=True, ensure_ascii=False)


def end_of(end):
    """The comparable part of an end object: (reason, ply), or None."""
    if end is None:
        return None
    if not isinstance(end, dict):
        return ("?", show(end))
    return (end.get("reason"), end.get("ply"))


def earlier(a, b):
    """Is ply a earlier than ply b, where None means never?"""
    return a is not None and (b is None or a < b)


def expected_for(ref, got_first):
    """The reference's first, end and adjudicated, adjusted for a dead
    position found earlier than the reference's insufficient material."""
    first = dict(ref.get("first") or {})
    end = end_of(ref.get("end"))
    adjudicated = ref.get("adjudicated")
    dead = got_first.get("dead") if isinstance(got_first, dict) else None
    ref_ins = first.get("insufficient")
    if isinstance(dead, int) and earlier(dead, ref_ins) and ref.get("status") == "ok":
        first["dead"] = dead
        # Which automatic end comes first now, ties broken in ENDING order.
        best = None
        for fact in ENDING:
            ply = first.get(fact)
            if ply is not None and (best is None or ply < best[1]):
                best = (fact, ply)
        if best is not None and best != end:
            # Only a dead position can have moved the end.
            if best[0] == "dead":
                end = best
                adjudicated = "1/2-1/2"
    return first, end, adjudicated


def compare(name, ref, got):
    """The differences between one reference game and one reported game."""
    diffs = []

    def check(field, want, have):
        if want != have:
            diffs.append("%s: game %s: %s: expected %s, got %s"
                         % (name, ref.get("game", "?"), field, show(want), show(have)))

    for key in ("game", "status", "plies", "result"):
        check(key, ref.get(key), got.get(key))
    got_first = got.get("first")
    if not isinstance(got_first, dict):
        check("first", ref.get("first"), got_first)
        got_first = {}
    first, end, adjudicated = expected_for(ref, got_first)
    for fact in FACTS:
        if fact not in got_first:
            diffs.append("%s: game %s: first.%s: missing from the report"
                         % (name, ref.get("game", "?"), fact))
            continue
        check("first." + fact, first.get(fact), got_first.get(fact))
    have_end = end_of(got.get("end"))
    if end != have_end:
        fmt = lambda e: None if e is None else {"reason": e[0], "ply": e[1]}
        check("end", fmt(end), fmt(have_end))
    check("adjudicated", adjudicated, got.get("adjudicated"))
    return diffs


def main(argv):
    name = None
    args = list(argv[1:])
    if len(args) >= 2 and args[0] == "--name":
        name = args[1]
        args = args[2:]
    if len(args) not in (1, 2) or args[0] in ("-h", "--help"):
        sys.stderr.write("usage: golden_compare.py [--name NAME] REFERENCE.jsonl [REPORT.jsonl]\n")
        return 2
    ref_path = args[0]
    got_path = args[1] if len(args) == 2 else "-"
    if name is None:
        name = ref_path
    refs = load(ref_path, "reference")
    gots = load(got_path, "report")

    passed = failed = 0
    for i in range(max(len(refs), len(gots))):
        if i >= len(gots):
            print("%s: game %s: missing from the report (it has %d games, the reference %d)"
                  % (name, refs[i].get("game", i + 1), len(gots), len(refs)))
            failed += 1
            continue
        if i >= len(refs):
            print("%s: game %s: not in the reference (it has %d games, the report %d)"
                  % (name, gots[i].get("game", i + 1), len(refs), len(gots)))
            failed += 1
            continue
        diffs = compare(name, refs[i], gots[i])
        for d in diffs:
            print(d)
        if diffs:
            failed += 1
        else:
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
