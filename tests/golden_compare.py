#!/usr/bin/env python3
"""golden_compare.py: compare a `pgn-arbiter --json` report with a reference.

Usage: golden_compare.py [--name NAME] [--pgn PGN --arbiter PROGRAM --fen-at FEN_AT]
                         REFERENCE.jsonl [REPORT.jsonl]

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
relaxed.  Such a dead position is tolerated only when it is proven apart
from the replay that found it: the reference has no checkmate after that
ply, and `PROGRAM --fen` (a search some forty thousand times larger than a
replay's) finds neither side able to checkmate in the position, which
FEN_AT (tests/fen-at, a replay of its own) gives for that ply of the game
in PGN, the file the report is about.  Without --pgn, --arbiter and --fen-at
an early dead position is a difference like any other.

Prints one line per difference ("NAME: game 3: plies: expected 12, got 11")
and then "N passed, M failed", counting games.  Exit status 0 if every game
agreed, 1 if not, 2 on a usage error or unreadable input.

Only the Python standard library is used.
"""

import json
import subprocess
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


def early_dead(ref, got_first):
    """The ply of a dead position reported earlier than the reference's
    insufficient material (the difference tolerated if proven), or None."""
    dead = got_first.get("dead")
    ins = (ref.get("first") or {}).get("insufficient")
    if isinstance(dead, int) and earlier(dead, ins) and ref.get("status") == "ok":
        return dead
    return None


def disproof(ref, ply, prover):
    """Why the dead position at ply of this game is not proven, or None
    when it is.  prover: (pgn, arbiter, fen_at), or None."""
    if prover is None:
        return "not proven (no --pgn, --arbiter and --fen-at to check it with)"
    mate = (ref.get("first") or {}).get("checkmate")
    if mate is not None and mate > ply:
        return "the reference has a checkmate after it, at ply %s" % mate
    pgn, arbiter, fen_at = prover
    try:
        at = subprocess.run([fen_at, pgn, str(ref.get("game")), str(ply)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True)
    except OSError as e:
        return "%s: %s" % (fen_at, e.strerror)
    fields = at.stdout.rstrip("\n").split("\t")
    if at.returncode != 0 or len(fields) != 2:
        return "no position for it: %s" % (at.stderr.strip() or "fen-at failed")
    fen, plies = fields
    # The same game as the reference's, or the position proves nothing.
    if plies != str(ref.get("plies")):
        return "fen-at read %s plies in that game, the reference %s" % (plies, ref.get("plies"))
    try:
        judged = subprocess.run([arbiter, "--fen=" + fen, "--json"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                universal_newlines=True)
        facts = json.loads(judged.stdout)
    except OSError as e:
        return "%s: %s" % (arbiter, e.strerror)
    except ValueError:
        return "--fen=%s gave no JSON" % fen
    if not (isinstance(facts, dict) and facts.get("dead") is True
            and (facts.get("white") or {}).get("answer") == "unwinnable"
            and (facts.get("black") or {}).get("answer") == "unwinnable"):
        return "--fen=%s does not find it dead: %s" % (fen, judged.stdout.strip())
    return None


def compare(name, ref, got, prover=None):
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
    dead = early_dead(ref, got_first)
    why = None if dead is None else disproof(ref, dead, prover)
    if why is not None:
        diffs.append("%s: game %s: first.dead: %s, before the reference's insufficient"
                     " material: %s" % (name, ref.get("game", "?"), dead, why))
        got_first = dict(got_first)
        got_first["dead"] = None
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
    opts = {"--name": None, "--pgn": None, "--arbiter": None, "--fen-at": None}
    args = list(argv[1:])
    while len(args) >= 2 and args[0] in opts:
        opts[args[0]] = args[1]
        args = args[2:]
    name = opts["--name"]
    proof = (opts["--pgn"], opts["--arbiter"], opts["--fen-at"])
    if len(args) not in (1, 2) or args[0] in ("-h", "--help") \
            or (None in proof and proof != (None, None, None)):
        sys.stderr.write("usage: golden_compare.py [--name NAME] [--pgn PGN --arbiter PROGRAM"
                         " --fen-at FEN_AT]\n                         REFERENCE.jsonl"
                         " [REPORT.jsonl]\n")
        return 2
    prover = None if None in proof else proof
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
        diffs = compare(name, refs[i], gots[i], prover)
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
