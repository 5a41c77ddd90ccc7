#!/usr/bin/env python3
"""follow-stream.py: `pgn-arbiter --follow -` on a stream where each game is
sent again whole as it grows, checked against `--follow` on a file.

    follow-stream.py --arbiter PROG --data DIR --work DIR [--memory]

Two streams are replayed through a pipe, with pauses:

  recorded  tests/data/follow/broadcast-stream.pgn.gz: three games of a
            lichess broadcast round cut into sends as the lichess stream
            sends them (see tests/data/SOURCES.md): the initial dump of the
            round, growth move by move, a resend unchanged and one with only
            a clock comment changed, a game added later, the mating move
            taken back and played again, the whole round sent once more.
            The replay pauses in the middle of the mating move.
  boards    the games of tests/data/follow/ played move by move as a relay
            sends them (Round and Board tags, a board joining late, two
            moves taken back after a threefold claim), for the claims.

The events of each stream must equal, line for line (all but the time and
the file name), those of `pgn-arbiter --follow` on a file that holds,
after each send, the latest copy of every game in the order of first
arrival, read once per send (a handshake on a second followed file, as in
tests/follow-sim.py).  The recorded round's events are also checked against
the list worked out by hand.  Then: the round's final games sent again
fifty times each, unchanged or with only their clocks changed, give their
events once; a stream broken off in the middle of a move ends with exit 0,
a message on stderr and no event the cut could show falsely.  --memory
(not under sanitizers or valgrind): a game sent 10,000 times with its
clocks changed takes no more memory than sent 1,000 times, and 70 MiB that
end no game are dropped (said) without stopping the games after them.
Standard library only.
"""
import argparse
import gzip
import importlib.util
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("follow_sim", os.path.join(here, "follow-sim.py"))
sim = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sim)

TIMEOUT = 120.0
SETTLE = "600"  # nothing waits out the settle time during a run: only the end writes what waits


def fail(msg):
    print("FAIL: " + msg, flush=True)
    sys.exit(1)


def split_sends(data):
    """The sends of a recorded stream: each game's text up to the next game's tags."""
    starts = [m.start() for m in re.finditer(rb'^\[Event ', data, re.M)]
    return [data[a:b] for a, b in zip(starts, starts[1:] + [len(data)])]


def game_key(send):
    """The game a send names, by the rule of the manual (FOLLOWING A LIVE ROUND)."""
    tags = dict(re.findall(r'^\[(\w+) "(.*)"\]', send.decode('utf-8', 'replace'), re.M))
    chapter = re.compile(r'^https?://lichess\.org/(study/[^/?#]+/[^/?#]+|broadcast/[^/?#]+/[^/?#]+/[^/?#]+/[^/?#]+)$')
    for name in ("GameURL", "Site"):
        if chapter.match(tags.get(name, "")):
            return ("url", tags[name])
    if "Round" in tags and "Board" in tags:
        return ("rb", tags["Round"], tags["Board"])
    return ("rwb", tags.get("Round"), tags.get("White"), tags.get("Black"))


class Tool(sim.Arbiter):
    """pgn-arbiter, its JSON lines gathered whole by the thread of
    follow-sim.py's Arbiter, and waited for with its wait()."""

    def __init__(self, cmd, cwd, stdin=None):
        self.proc = subprocess.Popen(cmd, cwd=cwd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines = queue.Queue()
        self.events = []
        self.ended = False
        threading.Thread(target=self._read, daemon=True).start()

    def _take(self, timeout):
        line = self.lines.get(timeout=timeout)
        if line is None:
            if self.ended:
                self.proc.wait(timeout=TIMEOUT)
                fail("pgn-arbiter ended (exit %s): %s" % (self.proc.returncode,
                                                          self.proc.stderr.read().decode('utf-8', 'replace')))
            self.ended = True
            self.lines.put(None)  # a later wait for more fails at once
            return
        try:
            self.events.append(json.loads(line))
        except ValueError:
            fail("not a JSON line: %r" % line)

    def finish(self):
        """Waits for the end of the output and the exit; (status, stderr)."""
        self.wait(lambda: self.ended, "the end of the output")
        rc = self.proc.wait(timeout=TIMEOUT)
        return rc, self.proc.stderr.read().decode('utf-8', 'replace')


def same(ev):
    """What must be equal in an event line from a stream and from a file."""
    return {k: v for k, v in ev.items() if k not in ("time", "file")}


def run_stream(args, sends, pause_in=None, cut_end=None):
    """Replays sends into `--follow -`; pause_in=(i, at): pause in send i
    after byte at; cut_end=(i, at): the stream ends there.  (status,
    stderr, events)."""
    tool = Tool([args.arbiter, '--follow', '--json', '--settle', SETTLE, '-'], args.work, stdin=subprocess.PIPE)
    for i, data in enumerate(sends):
        if cut_end and i == cut_end[0]:
            tool.proc.stdin.write(data[:cut_end[1]])
            break
        if pause_in and i == pause_in[0]:
            tool.proc.stdin.write(data[:pause_in[1]])
            tool.proc.stdin.flush()
            time.sleep(0.3)
            data = data[pause_in[1]:]
        tool.proc.stdin.write(data)
        tool.proc.stdin.flush()
        if i % 8 == 0:
            time.sleep(0.005)
    tool.proc.stdin.close()
    rc, err = tool.finish()
    return rc, err, tool.events


def run_file(args, sends):
    """The same sends as rewrites of a file followed by `--follow`: the events."""
    path, tick = os.path.join(args.work, 'round.pgn'), os.path.join(args.work, 'tick.pgn')
    for p in (path, tick):
        with open(p, 'wb'):
            pass
    tool = Tool([args.arbiter, '--follow', '--json', '--settle', SETTLE, 'round.pgn', 'tick.pgn'], args.work)
    games = {}  # key -> latest send, in the order of first arrival
    for n, data in enumerate(sends, 1):
        games[game_key(data)] = data
        with open(path, 'wb') as f:
            f.write(b''.join(games.values()))
        with open(tick, 'w') as f:
            f.write(sim.TICK_GAME % n)
        tool.wait(lambda: any(e["file"] == "tick.pgn" and e["tags"]["Board"] == str(n) for e in tool.events),
                  "the tick of send %d" % n)
    tool.proc.send_signal(signal.SIGTERM)
    rc, err = tool.finish()
    if rc != 0 or err:
        fail("--follow on the file: exit %d: %s" % (rc, err))
    return [e for e in tool.events if e["file"] == "round.pgn"]


def compare(what, stream_events, file_events):
    a, b = [same(e) for e in stream_events], [same(e) for e in file_events]
    if a != b:
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                fail("%s: event %d differs:\n  stream %s\n  file   %s" % (what, i, x, y))
        fail("%s: %d events from the stream, %d from the file:\n  stream %s\n  file   %s" % (
            what, len(a), len(b), a[len(b):], b[len(a):]))
    print("ok: %s: %d events, the same as from the file" % (what, len(a)), flush=True)


def short(ev):
    return (ev["tags"].get("Round"), ev["event"] if ev["event"] != "withdrawn" else "withdrawn " + ev["withdraws"],
            ev["ply"], ev["move"])


def boards_sends(data):
    """The games of tests/data/follow/ as a relay sends them, move by move."""
    b1 = sim.Board(1, os.path.join(data, 'threefold.pgn'), 0)
    b2 = sim.Board(2, os.path.join(data, 'checkmate.pgn'), 30)
    b3 = sim.Board(3, os.path.join(data, 'stalemate.pgn'), 0)
    b4 = sim.Board(4, os.path.join(data, 'fifty.pgn'), 0)
    boards = [b1, b2, b3, b4]
    sends = [b.text().encode('latin-1') for b in boards if b.start_step == 0]
    step, took_back = 0, False
    while any(b.played != b.sans for b in boards):
        step += 1
        for b in boards:
            if step > b.start_step and len(b.played) < len(b.sans):
                b.played.append(b.sans[len(b.played)])
                if b is b1 and not took_back and len(b.played) == 104:
                    sends.append(b.text().encode('latin-1'))
                    del b.played[-2:]
                    took_back = True
                sends.append(b.text().encode('latin-1'))
    return sends


def is_instrumented(prog):
    """True under AddressSanitizer, ThreadSanitizer or valgrind."""
    if os.environ.get("VALGRIND"):
        return True
    for var, word in (("ASAN_OPTIONS", b"AddressSanitizer"), ("TSAN_OPTIONS", b"ThreadSanitizer")):
        env = dict(os.environ, **{var: "help=1"})
        out = subprocess.run([prog, '--version'], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout
        if word in out:
            return True
    return False


PROBE = (b'[Event "probe"]\n[Round "probe"]\n[Board "1"]\n[White "-"]\n[Black "-"]\n[Result "*"]\n'
         b'[SetUp "1"]\n[FEN "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"]\n\n*\n\n')


def peak_kb(args, data, copies):
    """The peak memory (VmHWM) of `--follow -` once it has read copies of a
    game, its clocks changed: a stalemate sent after them says when."""
    clk = re.compile(rb'\[%clk (\d+):(\d\d):(\d\d)\]')
    proc = subprocess.Popen([args.arbiter, '--follow', '--json', '-'], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for k in range(copies):
        proc.stdin.write(clk.sub(lambda m: b'[%%clk %s:%02d:%02d]' % (m.group(1), k // 60 % 60, k % 60), data))
    proc.stdin.write(PROBE)
    proc.stdin.flush()
    for line in proc.stdout:
        if b'"stalemate"' in line:
            break
    with open("/proc/%d/status" % proc.pid) as f:
        hwm = int(re.search(r'^VmHWM:\s+(\d+) kB', f.read(), re.M).group(1))
    proc.stdin.close()
    proc.stdout.read()
    if proc.wait(timeout=TIMEOUT) != 0:
        fail("%d copies: exit status %d: %s" % (copies, proc.returncode, proc.stderr.read()))
    return hwm


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--arbiter', required=True)
    ap.add_argument('--data', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--memory', action='store_true')
    args = ap.parse_args()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)

    with gzip.open(os.path.join(args.data, 'broadcast-stream.pgn.gz'), 'rb') as f:
        recorded = split_sends(f.read())
    mate = next(i for i, s in enumerate(recorded) if b'Qd1#' in s)
    at = recorded[mate].index(b'Qd1#') + 2
    rc, err, events = run_stream(args, recorded, pause_in=(mate, at))
    if rc != 0 or err:
        fail("recorded stream: exit %d, stderr %r" % (rc, err))
    # By hand, on the final position: 17...Qd1# checks the king on f1 along
    # the first rank; e1 and g1 lie on the queen's line, e2 and f2 hold
    # White's own knight and pawn, g2 is covered by the bishop on h1, and no
    # man of White's can take the queen or come between on e1 (Article
    # 5.1.1).  The send that takes the move back withdraws the mate, the next
    # makes it true again; every other send adds nothing (the other two
    # games end by resignation, as their results say).
    want = [("1.1", "checkmate", 34, "17...Qd1#"), ("1.1", "withdrawn checkmate", 34, "17...Qd1#"),
            ("1.1", "checkmate", 34, "17...Qd1#")]
    if [short(e) for e in events] != want:
        fail("recorded stream: events %s, not %s" % ([short(e) for e in events], want))
    compare("recorded broadcast, %d sends" % len(recorded), events, run_file(args, recorded))

    sends = boards_sends(args.data)
    rc, err, events = run_stream(args, sends)
    if rc != 0 or err:
        fail("boards: exit %d, stderr %r" % (rc, err))
    names = {short(e)[1] for e in events}
    for need in ("threefold", "fifty", "checkmate", "stalemate", "withdrawn threefold"):
        if need not in names:
            fail("boards: the stream never showed %s: %s" % (need, sorted(names)))
    compare("boards sent move by move, %d sends" % len(sends), events, run_file(args, sends))

    # Resends: the round's final games fifty times each, unchanged or with
    # only their clocks changed, then EOF: their events once.
    final = recorded[-3:]
    again = []
    for k in range(50):
        for s in final:
            again.append(s if k % 2 else re.sub(rb'\[%clk 0:', b'[%%clk 0:%d' % (k % 10), s, count=3))
    rc, err, events = run_stream(args, again)
    if rc != 0 or err or [short(e) for e in events] != want[:1]:
        fail("150 resends: exit %d, stderr %r, events %s" % (rc, err, [short(e) for e in events]))
    print("ok: 150 resends of the final games: one event", flush=True)

    # Broken off in the middle of the mating move: exit 0, said, no event.
    rc, err, events = run_stream(args, recorded, cut_end=(mate, at))
    if rc != 0 or "ended in the middle of a game" not in err or events:
        fail("broken off: exit %d, stderr %r, events %s" % (rc, err, [short(e) for e in events]))
    print("ok: a stream broken off inside a move: exit 0, said on stderr, no event", flush=True)

    if args.memory:
        if is_instrumented(args.arbiter) or not os.path.exists("/proc/self/status"):
            print("ok: memory: not measured (a sanitizer, valgrind, or no /proc)", flush=True)
        else:
            game = recorded[-2]
            small, large = peak_kb(args, game, 1000), peak_kb(args, game, 10000)
            # Keeping the copies would take 9,000 times the game's size more.
            if large - small > 4096:
                fail("memory: %d KB after 1,000 copies, %d KB after 10,000 (of %d bytes each)" % (
                    small, large, len(game)))
            print("ok: memory: %d KB after 1,000 copies of a %d-byte game, %d KB after 10,000" % (
                small, len(game), large), flush=True)
            # 70 MiB that never end a game (a device given by mistake), then
            # the round: dropped past 64 MiB, said, and the games still read.
            proc = subprocess.Popen([args.arbiter, '--follow', '--json', '-'], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            junk = b'\0' * (1 << 20)
            for _ in range(70):
                proc.stdin.write(junk)
            proc.stdin.write(b'\n\n' + b''.join(final) + PROBE)
            proc.stdin.flush()
            got = []
            for line in proc.stdout:
                got.append(json.loads(line))
                if got[-1]["event"] == "stalemate":
                    break
            with open("/proc/%d/status" % proc.pid) as f:
                hwm = int(re.search(r'^VmHWM:\s+(\d+) kB', f.read(), re.M).group(1))
            proc.stdin.close()
            proc.stdout.read()
            err = proc.stderr.read().decode('utf-8', 'replace')
            if proc.wait(timeout=TIMEOUT) != 0 or "without the end of a game: dropped" not in err or \
                    [short(e) for e in got[:-1]] != want[:1] or hwm > 160 * 1024:
                fail("70 MiB of no game: exit %d, %r, events %s, %d KB" % (
                    proc.returncode, err, [short(e) for e in got], hwm))
            print("ok: 70 MiB of no game: dropped past 64 MiB (peak %d KB), the round read after it" % hwm,
                  flush=True)

if __name__ == '__main__':
    main()
