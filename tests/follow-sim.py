#!/usr/bin/env python3
"""follow-sim.py: a broadcast of a round, played into a PGN file while
`pgn-arbiter --follow --json` follows it, and the events it writes checked.

    follow-sim.py --arbiter PROG --data DIR --work DIR --scenario round|poll

The simulator is the broadcast software: it plays the real games of
tests/data/follow/ move by move, several boards in one file, and rewrites
the whole file after every step, as DGT LiveChess and the relays do: in
place (truncate and write) or by writing another file and renaming it over
the first, sometimes first cut in the middle of a move or of a tag (the file
caught half-written), with a game that joins the round late, a board that
takes back two moves, and (scenario poll, which runs the tool with --poll)
an illegal move recorded and then corrected.

What the tool must say is worked out independently of its watching: each
complete file the simulator writes is read once by the batch report
(`pgn-arbiter --json`), and each fact, illegal move or contradicted result
that a board's report shows and did not show before is one event; each one
that it showed and shows no more is one `withdrawn` event.  The move of each
event is the simulator's own text of the move that reached the ply (from the
source game's score), not the tool's.

Handshake, no sleeps: after each write of the round's file the simulator
rewrites a second followed file, tick.pgn, with a game that is stalemate at
its start and a Board tag counting the writes; the tool reads changed files
in the order they were named, so once it has written the tick's stalemate
event, it has read the round's file as written.  After each complete write
the events so far must equal those the batch reports imply up to that write
(events that wait for --settle are waited for, with a generous bound that
only fails if they never come).  A write cut short must add no event that
the next complete write does not imply.  Standard library only.
"""
import argparse
import collections
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading

TIMEOUT = 120.0  # seconds: only reached if an awaited event never comes
FACTS = ["checkmate", "stalemate", "dead", "fivefold", "seventyfive", "threefold", "fifty"]
TICK_GAME = ('[Event "tick"]\n[Round "tick"]\n[Board "%d"]\n[White "-"]\n[Black "-"]\n[Result "*"]\n'
             '[SetUp "1"]\n[FEN "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"]\n\n*\n')


def fail(msg):
    print("FAIL: " + msg, flush=True)
    sys.exit(1)


def parse_game(text):
    """(tags as [(name, value)], mainline SAN list, result) of one PGN game."""
    tags = re.findall(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]', text, re.M)
    body = re.sub(r'^\[.*$', '', text, flags=re.M)
    body = re.sub(r'\{[^}]*\}', ' ', body)
    body = re.sub(r';[^\n]*', ' ', body)
    while '(' in body:
        body = re.sub(r'\([^()]*\)', ' ', body)
    body = re.sub(r'\$\d+', ' ', body)
    sans, result = [], '*'
    for tok in body.split():
        tok = re.sub(r'^\d+\.+', '', tok)
        if not tok:
            continue
        if tok in ('1-0', '0-1', '1/2-1/2', '*'):
            result = tok
            continue
        sans.append(re.sub(r'[!?]+$', '', tok))
    return tags, sans, result


def move_text(sans, ply):
    """The numbered text of the move that reached ply (games start at move 1, White)."""
    san = sans[ply - 1]
    return "%d.%s" % ((ply + 1) // 2, san) if ply % 2 else "%d...%s" % (ply // 2, san)


class Board:
    def __init__(self, number, path, start_step):
        with open(path, encoding='latin-1') as f:
            self.tags, self.sans, self.result = parse_game(f.read().replace('\r', ''))
        self.number = number
        self.start_step = start_step
        self.played = []  # the moves on the board now

    def text(self):
        """The game as the broadcast writes it now."""
        done = len(self.played) == len(self.sans) and self.played == self.sans
        result = self.result if done else '*'
        out = []
        for name, value in self.tags:
            if name in ('Round', 'Board', 'Result'):
                continue
            out.append('[%s "%s"]' % (name, value))
            if name == 'Site':
                out.append('[Round "1"]')
        out.append('[Result "%s"]' % result)
        out.append('[Board "%d"]' % self.number)
        line, lines = '', []
        for i, san in enumerate(self.played):
            word = ('%d. %s' % (i // 2 + 1, san)) if i % 2 == 0 else san
            if len(line) + len(word) + 1 > 79:
                lines.append(line)
                line = word
            else:
                line = (line + ' ' + word).strip()
        line = (line + ' ' + result).strip()
        lines.append(line)
        return '\n'.join(out) + '\n\n' + '\n'.join(lines) + '\n\n'


class Arbiter:
    """The tool under test, its event lines gathered by a thread."""

    def __init__(self, cmd, cwd):
        self.proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines = queue.Queue()
        self.events = []   # round events, (board, event, ply, move), in order
        self.messages = []
        self.ticks = set()
        self.ended = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.put(raw.decode('utf-8', 'replace'))
        self.lines.put(None)

    def _take(self, timeout):
        line = self.lines.get(timeout=timeout)
        if line is None:
            self.ended = True
            if self.proc.poll() is not None and self.proc.returncode == 0:
                return
            fail("pgn-arbiter ended early: %s" % self.proc.stderr.read().decode('utf-8', 'replace'))
        try:
            ev = json.loads(line)
        except ValueError:
            fail("not a JSON line: %r" % line)
        for key in ("time", "file", "game", "tags", "event", "ply", "move", "message"):
            if key not in ev:
                fail("event without %s: %s" % (key, line))
        if not re.match(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$', ev["time"]):
            fail("time is not ISO 8601 UTC: %s" % line)
        if ev["file"] == "tick.pgn":
            if ev["event"] != "stalemate":
                fail("tick.pgn: unexpected event %s" % line)
            self.ticks.add(int(ev["tags"]["Board"]))
            return
        if ev["file"] != "round.pgn":
            fail("unknown file in %s" % line)
        name = ev["event"] if ev["event"] != "withdrawn" else "withdrawn " + ev.get("withdraws", "?")
        self.events.append((int(ev["tags"]["Board"]), name, ev["ply"], ev["move"]))
        self.messages.append(ev["message"])

    def wait(self, until, what):
        """Reads event lines until until() holds; fails after TIMEOUT."""
        import time
        deadline = time.monotonic() + TIMEOUT
        while not until():
            left = deadline - time.monotonic()
            if left <= 0:
                fail("timed out waiting for " + what)
            try:
                self._take(left)
            except queue.Empty:
                pass


class Round:
    def __init__(self, args, boards, arbiter_args):
        self.args = args
        self.work = args.work
        self.boards = boards
        self.writes = 0
        self.reported = {}   # board -> set of (event, ply, move) the model holds
        self.expected = []   # the model's events, in order
        self.path = os.path.join(self.work, 'round.pgn')
        self.tick = os.path.join(self.work, 'tick.pgn')
        self.write_file(self.path, '', rename=False)
        self.write_file(self.tick, '', rename=False)
        cmd = [args.arbiter, '--follow', '--json'] + arbiter_args + ['round.pgn', 'tick.pgn']
        self.tool = Arbiter(cmd, self.work)

    def write_file(self, path, text, rename):
        data = text.encode('latin-1')
        if rename:
            tmp = path + '.part'
            with open(tmp, 'wb') as f:
                f.write(data)
            os.replace(tmp, path)
        else:
            with open(path, 'wb') as f:
                f.write(data)

    def text(self, step):
        return ''.join(b.text() for b in self.boards if step >= b.start_step)

    def handshake(self):
        self.writes += 1
        n = self.writes
        self.write_file(self.tick, TICK_GAME % n, rename=n % 2 == 0)
        self.tool.wait(lambda: n in self.tool.ticks, "the tick of write %d" % n)

    def model(self, text):
        """The events the batch report of a complete file implies."""
        out = subprocess.run([self.args.arbiter, '--json', '-'], input=text.encode("latin-1"), stderr=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, check=True).stdout.decode('utf-8')
        now = {}
        for line in out.splitlines():
            rec = json.loads(line)
            board = int(rec["tags"]["Board"])
            sans = next(b for b in self.boards if b.number == board).played
            facts = set()
            for f in FACTS:
                p = rec["first"][f]
                if p is not None:
                    facts.add((f, p, move_text(sans, p) if p else None))
            if rec["status"] == "illegal":
                facts.add(("illegal", rec["error"]["ply"], rec["error"]["move"]))
            if rec["verdict"] == "wrong-result" and rec["result"] not in (None, "*"):
                end = rec["end"] or {}
                facts.add(("result", end.get("ply"), end.get("move")))
            now[board] = facts
        for board, facts in now.items():
            old = self.reported.get(board, set())
            for f in sorted(old - facts, key=lambda x: (x[1] or 0, x[0])):
                self.expected.append((board, "withdrawn " + f[0], f[1], f[2]))
            for f in sorted(facts - old, key=lambda x: (x[1] or 0, x[0])):
                self.expected.append((board,) + f)
            self.reported[board] = facts

    def check(self, what):
        got = collections.Counter(self.tool.events)
        want = collections.Counter(self.expected)
        self.tool.wait(lambda: not (want - collections.Counter(self.tool.events)),
                       "%s: the events %s" % (what, sorted(want - collections.Counter(self.tool.events))))
        got = collections.Counter(self.tool.events)
        if got != want:
            fail("%s: events not implied by the batch report: %s" % (what, sorted(got - want)))

    def write(self, step, rename, cut=None):
        """One write of the round; cut: 'move' or 'tag' to write a cut copy first."""
        text = self.text(step)
        if cut:
            at = self.cut_point(text, cut)
            self.write_file(self.path, text[:at], rename=False)
            self.handshake()
            # What a cut copy may add: only events the complete file implies.
            self.model(text)
            extra = collections.Counter(self.tool.events) - collections.Counter(self.expected)
            if extra:
                fail("write %d cut (%s) at byte %d: false events %s" % (self.writes, cut, at, sorted(extra)))
        else:
            self.model(text)
        self.write_file(self.path, text, rename=rename)
        self.handshake()
        self.check("write %d (step %d)" % (self.writes, step))

    def cut_point(self, text, how):
        """A byte inside the last move of the second game (or inside its White tag)."""
        starts = [m.start() for m in re.finditer(r'^\[Event ', text, re.M)]
        if len(starts) < 2:
            return len(text) // 2
        g = text[starts[1]:starts[2] if len(starts) > 2 else len(text)]
        if how == 'tag':
            return starts[1] + g.index('[White "') + 10
        moves = [m for m in re.finditer(r'(?<![\d.])[A-Za-z][\w=+#-]+', g) if not g[:m.start()].rstrip().endswith('"')]
        moves = [m for m in moves if '\n\n' in g[:m.start()]]
        if not moves:
            return starts[1] + len(g) // 2
        last = moves[-1]
        return starts[1] + last.start() + max(1, (last.end() - last.start()) // 2)

    def stop(self, sig):
        self.tool.proc.send_signal(sig)
        try:
            rc = self.tool.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.tool.proc.kill()
            fail("pgn-arbiter did not stop on signal %d" % sig)
        if rc == 0:
            self.tool.wait(lambda: self.tool.ended, "the end of the output")
        if rc != 0:
            fail("pgn-arbiter exited %d on signal %d: %s" % (rc, sig, self.tool.proc.stderr.read()))
        err = self.tool.proc.stderr.read().decode('utf-8', 'replace')
        if err:
            fail("unexpected messages: %s" % err)


def no_twice(events):
    """No event is written twice, unless withdrawn in between."""
    live = set()
    for ev in events:
        board, name, ply, move = ev
        if name.startswith("withdrawn "):
            key = (board, name[len("withdrawn "):], ply, move)
            if key not in live:
                fail("withdrawn %s was never reported" % (key,))
            live.discard(key)
        elif ev in live:
            fail("written twice: %s" % (ev,))
        else:
            live.add(ev)


def scenario_round(args):
    d = args.data
    b1 = Board(1, os.path.join(d, 'threefold.pgn'), 0)
    b2 = Board(2, os.path.join(d, 'checkmate.pgn'), 30)   # joins the round late, between boards
    b3 = Board(3, os.path.join(d, 'stalemate.pgn'), 0)
    b4 = Board(4, os.path.join(d, 'fifty.pgn'), 0)
    boards = [b1, b2, b3, b4]
    # A long settle time: a cut copy stays in place for one handshake only.
    rnd = Round(args, boards, ['--settle', '600'])
    step = 0
    took_back = False
    while any(b.played != b.sans for b in boards):
        step += 1
        for b in boards:
            if step > b.start_step and len(b.played) < len(b.sans):
                b.played.append(b.sans[len(b.played)])
        # Board 1 reaches the ply after its threefold claim, then two moves are taken back.
        if not took_back and len(b1.played) == 104:
            rnd.write(step, rename=False)
            del b1.played[-2:]
            took_back = True
        cut = 'move' if step % 7 == 3 else 'tag' if step % 29 == 5 else None
        rnd.write(step, rename=step % 2 == 1, cut=cut)
    no_twice(rnd.tool.events)
    names = {e[1] for e in rnd.tool.events}
    for need in ("threefold", "fifty", "checkmate", "stalemate", "withdrawn threefold"):
        if need not in names:
            fail("the round never showed %s" % need)
    # Checked by hand on the scores: after 52.Kg1, 52...Qe1+ would give the
    # position after 48...Qe1+ and 50...Qe1+ a third time (FIDE 9.2.1.1); after
    # 101...Ke5 the clock stands at 99 and any move of White's that is
    # neither a pawn move nor a capture takes it to 100 (9.3.1).
    for want in ("Black may claim a draw by declaring 52...Qe1+",
                 "White may claim a draw by declaring a move that is neither a pawn move nor a capture, such as 102."):
        if not any(m.startswith(want) for m in rnd.tool.messages):
            fail("no message says: %s (messages: %s)" % (want, rnd.tool.messages))
    rnd.stop(signal.SIGTERM)
    print("ok: %d writes, %d events, as the batch reports imply" % (rnd.writes, len(rnd.tool.events)))


def scenario_poll(args):
    """--poll: a board records an illegal move and the next, then takes both back."""
    b1 = Board(1, os.path.join(args.data, 'checkmate.pgn'), 0)
    rnd = Round(args, [b1], ['--poll', '--interval', '0.02', '--settle', '0.2'])
    step = 0
    while b1.played != b1.sans:
        step += 1
        b1.played.append(b1.sans[len(b1.played)])
        if len(b1.played) == 5:
            # 3.Qd8: the queen cannot pass the pawn on d4.
            real = b1.played[4]
            b1.played[4] = 'Qd8'
            b1.played.append(b1.sans[5])
            rnd.write(step, rename=False)
            b1.played[4:] = [real]
        rnd.write(step, rename=step % 2 == 0)
    no_twice(rnd.tool.events)
    names = [e[1] for e in rnd.tool.events]
    if names != ["illegal", "withdrawn illegal", "checkmate"]:
        fail("poll: events %s" % names)
    if rnd.tool.events[0] != (1, "illegal", 5, "Qd8") or rnd.tool.events[2] != (1, "checkmate", 25, "13.Qe8#"):
        fail("poll: events %s" % rnd.tool.events)
    rnd.stop(signal.SIGINT)
    print("ok: --poll: %d writes, events %s" % (rnd.writes, names))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--arbiter', required=True)
    ap.add_argument('--data', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--scenario', choices=['round', 'poll'], required=True)
    args = ap.parse_args()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    {'round': scenario_round, 'poll': scenario_poll}[args.scenario](args)


if __name__ == '__main__':
    main()
