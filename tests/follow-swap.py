#!/usr/bin/env python3
"""follow-swap.py: `pgn-arbiter --follow` when a followed path stops being
the plain file it was, or its watch goes away.

    follow-swap.py --arbiter PROG --work DIR --scenario NAME

Scenarios:
  special     a FIFO, then a symbolic link to /dev/zero, renamed over one
              of two followed files: the other file's events still come,
              each is said once ("not a plain file"), memory stays small,
              the file is read again once it is a plain file, and SIGTERM
              still ends the program;
  symlink     followed paths that are symbolic links, to a file in another
              directory and to another name in the same directory: the file
              they lead to rewritten in place is read, and so is the file a
              link leads to after it is made to lead elsewhere;
  directory   the followed file's directory removed and made again, then
              moved away and another made in its place: the file written
              in the new directory is read (said once each time);
  unreadable  a file written while it cannot be read is read once it is
              made readable again, without another write.  Run as root, the
              program runs without the capabilities that let root read
              every file (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH).

Each game written is stalemate at its start, with a Board tag of its own,
so that each write makes one event, known in advance; the script waits for
it with a generous bound that only a lost event reaches, never for a time.
Standard library only; Linux (/proc, mkfifo, /dev/zero).
"""
import argparse
import ctypes
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

TIMEOUT = 120.0  # seconds: only reached if an awaited event never comes
MAX_RSS_KB = 512 * 1024  # a followed file of a few hundred bytes needs far less
GAME = ('[Event "swap"]\n[Round "1"]\n[Board "%s"]\n[White "-"]\n[Black "-"]\n[Result "*"]\n'
        '[SetUp "1"]\n[FEN "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"]\n\n*\n')


def fail(msg):
    print("FAIL: " + msg, flush=True)
    sys.exit(1)


def write_in_place(path, board):
    with open(path, "w") as f:
        f.write(GAME % board)


def write_by_rename(path, board):
    with open(path + ".part", "w") as f:
        f.write(GAME % board)
    os.replace(path + ".part", path)


class Arbiter:
    """pgn-arbiter --follow --json, its event lines and its messages."""

    def __init__(self, prog, args, cwd, drop=None):
        self.proc = subprocess.Popen([prog, "--follow", "--json"] + args, cwd=cwd, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, preexec_fn=drop)
        self.cond = threading.Condition()
        self.boards, self.errors = [], []
        threading.Thread(target=self.collect, args=(self.proc.stdout, self.boards, True), daemon=True).start()
        threading.Thread(target=self.collect, args=(self.proc.stderr, self.errors, False), daemon=True).start()

    def collect(self, stream, into, is_json):
        for raw in stream:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if is_json:
                ev = json.loads(line)
                line = ev["tags"].get("Board", "?") + " " + ev["event"]
            else:
                print("  stderr: " + line, flush=True)
            with self.cond:
                into.append(line)
                self.cond.notify_all()

    def rss_kb(self):
        try:
            with open("/proc/%d/status" % self.proc.pid) as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    def wait(self, what, into, test):
        deadline = time.monotonic() + TIMEOUT
        with self.cond:
            while not test():
                if self.proc.poll() is not None:
                    fail("pgn-arbiter ended (status %s) while waiting for %s" % (self.proc.returncode, what))
                if self.rss_kb() > MAX_RSS_KB:
                    fail("pgn-arbiter holds %d KB while waiting for %s" % (self.rss_kb(), what))
                left = deadline - time.monotonic()
                if left <= 0:
                    fail("no %s in %.0f s; events: %s; messages: %s" % (what, TIMEOUT, self.boards, self.errors))
                self.cond.wait(min(left, 0.2))

    def event(self, board):
        self.wait("stalemate event of board " + board, self.boards,
                  lambda: board + " stalemate" in self.boards)
        print("ok: event of board " + board, flush=True)

    def said(self, text, times=1):
        self.wait("message '%s' (%d times)" % (text, times), self.errors,
                  lambda: sum(text in e for e in self.errors) >= times)

    def count(self, text):
        with self.cond:
            return sum(text in e for e in self.errors)

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            fail("pgn-arbiter did not end at SIGTERM")
        if rc != 0:
            fail("pgn-arbiter exited %d at SIGTERM" % rc)

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def special(prog, work):
    a, b = os.path.join(work, "a.pgn"), os.path.join(work, "b.pgn")
    write_in_place(a, "a0")
    write_in_place(b, "b0")
    arb = Arbiter(prog, ["a.pgn", "b.pgn"], work)
    try:
        arb.event("a0")
        arb.event("b0")
        # A FIFO with no writer: open() without O_NONBLOCK would wait for one.
        os.mkfifo(a + ".part")
        os.replace(a + ".part", a)
        for _ in range(3):
            os.utime(a)  # looked at again: still said once
        write_by_rename(b, "b1")
        arb.event("b1")
        arb.said("a.pgn: not a plain file")
        write_by_rename(a, "a1")
        arb.event("a1")
        arb.said("a.pgn: readable again")
        # A device that reads without end.
        os.symlink("/dev/zero", a + ".part")
        os.replace(a + ".part", a)
        write_by_rename(b, "b2")
        arb.event("b2")
        arb.said("a.pgn: not a plain file", 2)
        write_by_rename(a, "a2")
        arb.event("a2")
        arb.said("a.pgn: readable again", 2)
        arb.stop()
        if arb.count("not a plain file") != 2:
            fail("'not a plain file' said %d times, not once for each swap" % arb.count("not a plain file"))
    finally:
        arb.kill()


def symlink(prog, work):
    for d in ("live", "store", "store2"):
        os.mkdir(os.path.join(work, d))
    real = os.path.join(work, "store", "round.pgn")
    write_in_place(real, "s0")
    os.symlink("../store/round.pgn", os.path.join(work, "live", "round.pgn"))
    near = os.path.join(work, "live", "near-v1.pgn")
    write_in_place(near, "n0")
    os.symlink("near-v1.pgn", os.path.join(work, "live", "near.pgn"))
    arb = Arbiter(prog, ["live/round.pgn", "live/near.pgn"], work)
    try:
        arb.event("s0")
        arb.event("n0")
        write_in_place(real, "s1")  # nothing changes in live/
        arb.event("s1")
        write_in_place(near, "n1")  # another name in live/
        arb.event("n1")
        # The link made to lead elsewhere: seen in live/; then its new target rewritten in place.
        other = os.path.join(work, "store2", "round.pgn")
        write_in_place(other, "s2")
        os.symlink("../store2/round.pgn", os.path.join(work, "live", "link.part"))
        os.replace(os.path.join(work, "live", "link.part"), os.path.join(work, "live", "round.pgn"))
        arb.event("s2")
        write_in_place(other, "s3")
        arb.event("s3")
        arb.stop()
    finally:
        arb.kill()


def directory(prog, work):
    d = os.path.join(work, "round")
    a = os.path.join(d, "a.pgn")
    os.mkdir(d)
    write_in_place(a, "r0")
    arb = Arbiter(prog, ["--interval", "0.05", "round/a.pgn"], work)
    try:
        arb.event("r0")
        os.unlink(a)
        os.rmdir(d)
        os.mkdir(d)
        write_in_place(a, "r1")
        arb.event("r1")
        arb.said("round/a.pgn: its directory was removed or moved")
        arb.said("round/a.pgn: watching its directory again")
        write_in_place(a, "r2")
        arb.event("r2")
        # Moved away, another made in its place: the path is followed, not the directory.
        os.rename(d, d + ".old")
        os.mkdir(d)
        write_by_rename(a, "r3")
        arb.event("r3")
        arb.said("round/a.pgn: its directory was removed or moved", 2)
        arb.said("round/a.pgn: watching its directory again", 2)
        write_in_place(a, "r4")
        arb.event("r4")
        arb.stop()
    finally:
        arb.kill()


def without_dac():
    """Run in the child before exec: drops CAP_DAC_OVERRIDE and
    CAP_DAC_READ_SEARCH from the bounding set, so that the program, run by
    root, is held to the file's mode like any user."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            os._exit(126)


def unreadable(prog, work):
    drop = None
    if os.geteuid() == 0:
        drop = without_dac  # root would read the file whatever its mode
        probe = os.path.join(work, "probe")
        with open(probe, "w") as f:
            f.write("x")
        os.chmod(probe, 0)
        status = subprocess.run(["cat", probe], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                preexec_fn=drop).returncode
        os.unlink(probe)
        if status == 0:
            print("SKIP: root's capabilities cannot be dropped here, so no file is unreadable to it")
            sys.exit(77)
    a, b = os.path.join(work, "a.pgn"), os.path.join(work, "b.pgn")
    write_in_place(a, "u0")
    write_in_place(b, "t0")
    arb = Arbiter(prog, ["a.pgn", "b.pgn"], work, drop)
    try:
        arb.event("u0")
        arb.event("t0")
        with open(a, "r+") as f:  # opened while it may be
            os.chmod(a, 0)
            f.truncate(0)
            f.write(GAME % "u1")
        # The tick: files are read in the order named, so once its event is
        # written, a.pgn has been tried after the write above.
        write_by_rename(b, "t1")
        arb.event("t1")
        arb.said("a.pgn: Permission denied; waiting for it")
        if "u1 stalemate" in arb.boards:
            fail("a.pgn read while it had mode 000")
        os.chmod(a, 0o644)  # no write: only its mode changes
        arb.event("u1")
        arb.said("a.pgn: readable again")
        arb.stop()
    finally:
        arb.kill()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arbiter", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--scenario", required=True, choices=["special", "symlink", "directory", "unreadable"])
    args = ap.parse_args()
    globals()[args.scenario](os.path.abspath(args.arbiter), os.path.abspath(args.work))


if __name__ == "__main__":
    main()
