"""Endgame solver: ddz_fast.solve against anchor solvers built from source, on
the published puzzle table: their search against ours, and whole runs.

    python benchmarks/solver_compare.py --anchors DIR [--markdown] [--strict] [--anchor-memory-gb G]
                                        [--timeout S] [--one-core]

DIR holds checkouts of the anchors' public repositories (cloned when missing
and git can reach GitHub):

* ``DIR/doudizhu_solver``  -- github.com/WZ403809264/doudizhu_solver (C++,
  memoised minimax over card strings; its README's table is the puzzle set);
* ``DIR/doudizhu_endgame`` -- github.com/YunyanDeng/doudizhu_endgame (C++
  negamax with a 2M-entry table and one thread per root move);
* ``DIR/ChinesePokerGame`` -- github.com/Whotakesmyname/ChinesePokerGame
  (C++ minimax building the whole game tree; needs the Boost headers, e.g.
  Debian's libboost-dev; it has no airplanes with attachments).

They are built here with the system compiler (g++ -O3), unchanged, and
driven through their stdin prompts (the process is killed once the result
is printed: all go on to ask for the opponent's moves).  An anchor that
cannot be built gets a note saying why; each anchor process is limited to
4 GiB of address space (an anchor that runs out counts as not finished).

Two times of each solver on each puzzle:

* **search**: the search alone.  An anchor's is its own timer around its
  search function, read from its output (YunyanDeng: steady_clock around
  ``search_multithreading``; Whotakesmyname: steady_clock around
  ``CalcWinnableMoves``; WZ403809264: ``clock()`` CPU time from the search's
  start to its last node -- the program prints ``0.001 * (end - start)``,
  milliseconds under POSIX's CLOCKS_PER_SEC of 10^6, labelled seconds).  Not
  in it: process start-up, input, and YunyanDeng's value-initialised 16 MiB
  table (made before its timer starts).  Ours is ``SolveResult.seconds``,
  the compiled search's call (making and clearing its table included;
  checking the arguments in Python not).
* **wall**: a whole run.  An anchor's is from its process's start until its
  result line is printed; ours *warm* is one ``solve()`` call in a process
  that has solved before, ours *cold* a fresh Python process (interpreter
  start-up and ``import ddz_fast`` included) until its first ``solve()``
  returns -- whose search time is the *cold search* column.  The start-up
  alone of each anchor (its wall time on "3 vs 4", where its search takes
  microseconds) is printed below the table.

The target ratio is search against search: the fastest anchor's search
time over ours, warm, each the best of its rounds.  Its spread follows: the
ratio of each round (the fastest anchor's search that round over our best
warm call that round; an anchor run once counts with its one time in every
round) as min / median / max -- a best-of ratio near the top of a wide
spread is luck of the draw.  The row also shows the best-of ratio against
our cold first solve, and the wall ratio (the fastest anchor's wall time
over our cold process).

Timing: every solver is run REPEATS times on each puzzle, round-robin (ours
warm -- WARM_CALLS calls back to back --, ours cold, then each anchor, then
again), each run from a fresh table (ours: a new ``solve()`` call, whose
table starts empty; an anchor: a new process), and the best of each is
kept; an anchor whose run takes over a second is run once.  Each anchor
runs in a temporary directory of its own, removed after the run (the
anchors write files where they run).  At equal resources, twice:

* **one core**: ours is ``solve(..., threads=1)`` with the calling thread
  pinned to one CPU (``os.sched_setaffinity``), the cold process pinned to
  it too; every anchor process is pinned to that same CPU
  (``os.sched_setaffinity(0, {cpu})`` before it starts);
* **all cores** (not with ``--one-core``): ours is
  ``solve(..., threads=os.cpu_count())``, unpinned; the anchors unpinned
  (YunyanDeng runs one thread per root move; the other two are
  single-threaded whatever they are given).

Each row also shows our node count, and whether the answers agree: ours,
the published one, each anchor's, and (on puzzles small enough for it) the
pure-Python brute-force search ``ddz_fast.solver_reference.wins``.  The
anchors' rules differ from ours in details (WZ: airplane singles of
distinct ranks, no two jokers as attachments -- our ``strict`` preset is
closest; YunyanDeng: a four may carry one pair as its two singles;
Whotakesmyname: no airplane with attachments), which does not change any
published answer.

Targets (issue 14, issue 35): every published puzzle in <= 1 s on one core;
our search >= 10x faster than the fastest anchor's search on each puzzle,
judged at equal resources (one core against one core, all cores against all
cores).
"""
from __future__ import annotations

import argparse
import os
import re
import select
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

# NumPy's BLAS threads are never used here; started, they spin and take a
# core from whichever solver is being timed.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from ddz_fast.solver_reference import PUBLISHED_PUZZLES, published_text  # noqa: E402

# The published table (github.com/WZ403809264/doudizhu_solver, README.md),
# in the source's notation ("0" = ten, "Y"/"Z" = low/high joker), which both
# anchors read.
PUZZLES = [(published_text(a), published_text(b), w) for a, b, w in PUBLISHED_PUZZLES]
REPOS = {"doudizhu_solver": "https://github.com/WZ403809264/doudizhu_solver",
         "doudizhu_endgame": "https://github.com/YunyanDeng/doudizhu_endgame",
         "ChinesePokerGame": "https://github.com/Whotakesmyname/ChinesePokerGame"}
NAMES = {"doudizhu_solver": "WZ403809264", "doudizhu_endgame": "YunyanDeng",
         "ChinesePokerGame": "Whotakesmyname"}


def ours_text(wz: str) -> str:
    """A hand of PUZZLES in our notation (the inverse of published_text)."""
    return wz.translate(str.maketrans({"0": "T", "Y": "B", "Z": "R"}))


def build_anchors(root: Path) -> Tuple[dict, List[str]]:
    """Compile the anchors found (or cloned) under root; returns {name: exe}
    and notes about the ones that could not be built."""
    exes, notes = {}, []
    root.mkdir(parents=True, exist_ok=True)
    for name, url in REPOS.items():
        src = root / name
        if not src.exists() and shutil.which("git"):
            subprocess.run(["git", "clone", "--depth", "1", url, str(src)], capture_output=True)
        if not src.exists():
            notes.append(f"{name}: no source at {src} (and git clone of {url} failed)")
            continue
        exe = root / f"{name}.bin"
        if name == "doudizhu_solver":
            # gnu++98: the file names a global `end`, ambiguous with std::end
            # (using namespace std) from C++11 on.
            cmd = ["g++", "-O3", "-std=gnu++98", "-o", str(exe), str(src / "doudizhu_solver.cpp")]
        elif name == "doudizhu_endgame":
            cmd = ["g++", "-O3", "-std=c++11", "-pthread", "-o", str(exe)] + sorted(
                str(p) for p in (src / "doudizhu").glob("*.cc"))
        else:
            cmd = ["g++", "-O3", "-std=c++17", "-pthread", "-o", str(exe)] + sorted(
                str(p) for p in (src / "ChinesePokerGame").glob("*.cpp"))
        if not exe.exists():
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                err = [ln for ln in r.stderr.splitlines() if "error" in ln] or r.stderr.strip().splitlines()
                why = err[0].strip() if err else f"exit status {r.returncode}"
                if "boost/" in r.stderr:
                    why = "the Boost headers are missing (install e.g. Debian's libboost-dev): " + why
                notes.append(f"{name}: build failed: {why}")
                continue
        exes[name] = exe
    return exes, notes


ANCHOR_MEMORY_GB = 4.0     # address-space limit of an anchor process (--anchor-memory-gb)


def _anchor_setup(cpu: Optional[int]) -> Callable[[], None]:
    """The anchor process's set-up before it starts: the memory limit, and
    the one CPU it may run on (None: any)."""
    def setup() -> None:
        import resource

        cap = int(ANCHOR_MEMORY_GB * (1 << 30))
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})
    return setup


def run_until(exe: Path, stdin: str, markers: Tuple[bytes, ...], timeout: float,
              cpu: Optional[int] = None) -> Tuple[Optional[float], bytes]:
    """Wall seconds from start until a line holding one of `markers` is printed
    whole (None on timeout, or when the process ends first -- e.g. out of
    its memory limit), and the output read until then; the process pinned
    to `cpu` unless None.

    The process runs in a temporary directory of its own, removed once it
    is killed (with whatever it started: its session): anchors write files
    where they run (WZ403809264's ``system("pause>nul")``, meant for
    Windows, makes a file named ``nul``), and none may be left behind."""
    with tempfile.TemporaryDirectory(prefix="ddz-anchor-") as cwd:
        t0 = time.perf_counter()
        p = subprocess.Popen([str(Path(exe).resolve())], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, preexec_fn=_anchor_setup(cpu), cwd=cwd,
                             start_new_session=True)
        assert p.stdin is not None and p.stdout is not None
        buf = b""
        found = None
        try:
            p.stdin.write(stdin.encode())
            p.stdin.flush()
            while time.perf_counter() - t0 < timeout:
                r, _, _ = select.select([p.stdout], [], [], 0.05)
                if r:
                    chunk = os.read(p.stdout.fileno(), 1 << 16)
                    if not chunk:
                        break
                    buf += chunk
                    if any(b"\n" in buf[i:] for i in (buf.find(m) for m in markers) if i >= 0):
                        found = time.perf_counter() - t0
                        break
        finally:
            try:
                os.killpg(p.pid, signal.SIGKILL)    # (the anchor and any shell its system() started)
            except ProcessLookupError:
                pass
            p.wait()
            p.stdin.close()
            p.stdout.close()
    return found, buf


REPEATS = 5        # rounds of each solver on a puzzle, best taken (an anchor's: while under 1 s)


def wz_answer(out: bytes) -> Optional[bool]:
    text = out.decode("utf-8", "replace")
    if "P1赢" in text:
        return True
    if "P2赢" in text:
        return False
    return None


def yd_answer(out: bytes) -> Optional[bool]:
    text = out.decode("utf-8", "replace")
    if "can not win" in text:
        return False
    if "play: [" in text:
        return True
    return None


def cpg_answer(out: bytes) -> Optional[bool]:
    text = out.decode("utf-8", "replace")
    if "无必胜策略" in text:        # "the landlord (first hand) has no winning strategy"
        return False
    if "必胜" in text:
        return True
    return None


def cpg_text(wz: str) -> str:
    """ChinesePokerGame's notation: ten is "O"."""
    return wz.replace("0", "O")


# One anchor: how to run it, read its answer and its own search timer.
class Anchor:
    def __init__(self, key: str, markers: Tuple[bytes, ...], stdin: Callable[[str, str], str],
                 answer: Callable[[bytes], Optional[bool]], timer: Callable[[bytes], Optional[float]]) -> None:
        self.key, self.name, self.markers = key, NAMES[key], markers
        self.stdin, self.answer, self.timer = stdin, answer, timer


def _number_after(out: bytes, label: bytes) -> Optional[float]:
    i = out.rfind(label)
    if i < 0:
        return None
    m = re.match(rb"\s*([0-9.]+(?:e[-+]?[0-9]+)?)", out[i + len(label):])
    return float(m.group(1)) if m else None


def wz_search(out: bytes) -> Optional[float]:
    # 0.001 * (clock() ticks), printed as seconds: ms under POSIX (CLOCKS_PER_SEC 10^6)
    ms = _number_after(out, "用时".encode())
    return None if ms is None else ms * 1e-3


ANCHORS = [
    Anchor("doudizhu_solver", ("计算完毕".encode(),), lambda a, b: f"{a}\n{b}\n0\n", wz_answer, wz_search),
    # (YunyanDeng prints its answer after its timer's line)
    Anchor("doudizhu_endgame", (b"play: [", b"can not win"), lambda a, b: f"{a}\n{b}\n", yd_answer,
           lambda out: _number_after(out, b"search_multithreading time:")),
    Anchor("ChinesePokerGame", ("必胜".encode(),), lambda a, b: f"{cpg_text(a)}\n{cpg_text(b)}\n\n", cpg_answer,
           lambda out: _number_after(out, "共花费".encode())),
]


class Best:
    """The best (least) search and wall times of one solver over the rounds,
    and each round's best search (per_round; None: not run that round)."""

    def __init__(self) -> None:
        self.search: Optional[float] = None
        self.wall: Optional[float] = None
        self.done = True            # False: a run did not finish
        self.runs = 0
        self.per_round: List[Optional[float]] = []
        self._round: Optional[float] = None

    def add(self, search: Optional[float], wall: Optional[float]) -> None:
        self.runs += 1
        if wall is None:
            self.done = False
            return
        self.wall = wall if self.wall is None else min(self.wall, wall)
        if search is not None:
            self.search = search if self.search is None else min(self.search, search)
            self._round = search if self._round is None else min(self._round, search)

    def end_round(self) -> None:
        self.per_round.append(self._round)
        self._round = None


def round_ratios(warm: Best, anchors: Dict[str, Best], timeout: float) -> List[float]:
    """The search ratio of each round: the fastest anchor's search that round
    over our warm search that round (the best of its WARM_CALLS calls).  An
    anchor run once (over 1 s) counts with its one time in every round; when
    no anchor finished, the fastest took `timeout` (as the best-of ratio)."""
    finished = [b for b in anchors.values() if b.done and b.search is not None]
    out = []
    for r, ours in enumerate(warm.per_round):
        if ours is None:
            continue
        times = [b.per_round[r] if r < len(b.per_round) and b.per_round[r] is not None else b.search
                 for b in finished]
        fastest = min((t for t in times if t is not None), default=timeout if anchors else None)
        if fastest is not None:
            out.append(fastest / ours)
    return out


def spread(xs: List[float]) -> str:
    """min / median / max of ratios, as a string ("n/a" when none)."""
    if not xs:
        return "n/a"
    return f"{min(xs):.1f}x / {statistics.median(xs):.1f}x / {max(xs):.1f}x"


def run_anchor(a: Anchor, exe: Path, first: str, second: str, timeout: float,
               cpu: Optional[int]) -> Tuple[Optional[float], Optional[float], Optional[bool]]:
    """One run of an anchor: (its search timer, wall seconds, its answer); Nones when it did not finish."""
    wall, out = run_until(exe, a.stdin(first, second), a.markers, timeout, cpu)
    if wall is None:
        return None, None, None
    return a.timer(out), wall, a.answer(out)


def solve_ours(first: str, second: str, threads: int) -> Tuple[float, float, Optional[bool], int]:
    """One solve() from a fresh table: (search seconds, call seconds, win, nodes)."""
    from ddz_fast import solve

    t0 = time.perf_counter()
    r = solve([ours_text(first), ours_text(second)], rules="strict", threads=threads)
    return r.seconds, time.perf_counter() - t0, r.win, r.nodes


# The cold run: a fresh interpreter that imports ddz_fast and solves once.
_COLD = """
import os, sys, time
t0 = float(sys.argv[4])
if sys.argv[3] != "-":
    os.sched_setaffinity(0, {int(sys.argv[3])})
from ddz_fast import solve
r = solve([sys.argv[1], sys.argv[2]], rules="strict", threads=int(sys.argv[5]))
print(r.seconds, r.win, r.nodes, flush=True)
"""


def solve_cold(first: str, second: str, cpu: Optional[int], threads: int) -> Tuple[float, float]:
    """A fresh Python process's first solve(): (its search seconds, wall
    seconds from the process's start until the result is printed)."""
    env = dict(os.environ)
    src = str(Path(__import__("ddz_fast").__file__).resolve().parent.parent)
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", _COLD, ours_text(first), ours_text(second),
                          "-" if cpu is None else str(cpu), repr(t0), str(threads)],
                         capture_output=True, text=True, env=env, check=True,
                         preexec_fn=None if cpu is None else (lambda: os.sched_setaffinity(0, {cpu})))
    wall = time.perf_counter() - t0
    return float(out.stdout.split()[0]), wall


MODES = ("one core", "all cores")
# Ours warm: back-to-back calls in each round (each from a fresh table), the
# first of which brings code and data back into the caches after the other
# solvers' runs (a 0.05 ms solve takes 0.1-0.3 ms alone after them).
WARM_CALLS = 3
ORACLE_MAX_CARDS = 14   # the brute-force oracle's limit (the fourth puzzle, 22 cards, takes minutes)


def oracle_answer(first: str, second: str) -> Optional[bool]:
    """The pure-Python brute force's answer (None above ORACLE_MAX_CARDS cards)."""
    from ddz_fast.solver_reference import wins

    a, b = ours_text(first), ours_text(second)
    if len(a) + len(b) > ORACLE_MAX_CARDS:
        return None
    return wins([a, b], rules="strict")


def time_puzzle(exes: Dict[str, Path], first: str, second: str, timeout: float,
                cpu: Optional[int]) -> dict:
    """Every solver on one puzzle, REPEATS rounds round-robin; the best of each."""
    threads = 1 if cpu is not None else (os.cpu_count() or 1)
    warm, cold = Best(), Best()
    cold_search: Optional[float] = None
    anchors = {a.name: Best() for a in ANCHORS if a.key in exes}
    answers: Dict[str, Optional[bool]] = {}
    ours_win, nodes = None, 0
    saved = os.sched_getaffinity(0)
    for _ in range(REPEATS):
        try:
            if cpu is not None:
                os.sched_setaffinity(0, {cpu})      # (this thread; threads=1 searches on it)
            for _ in range(WARM_CALLS):
                search, call, ours_win, nodes = solve_ours(first, second, threads)
                warm.add(search, call)
        finally:
            os.sched_setaffinity(0, saved)
        warm.end_round()
        cs, cw = solve_cold(first, second, cpu, threads)
        cold.add(None, cw)
        cold_search = cs if cold_search is None else min(cold_search, cs)
        for a in ANCHORS:
            if a.key not in exes:
                continue
            b = anchors[a.name]
            if b.runs and (not b.done or (b.wall or 0) >= 1.0):
                b.end_round()
                continue        # one run of a slow anchor
            s, w, ans = run_anchor(a, exes[a.key], first, second, timeout, cpu)
            b.add(s, w)
            b.end_round()
            if ans is not None:
                answers[a.name] = ans
    cold.search = cold_search
    return dict(warm=warm, cold=cold, anchors=anchors, answers=answers, win=ours_win, nodes=nodes)


def startup(exes: Dict[str, Path], timeout: float, cpu: Optional[int]) -> Dict[str, Optional[float]]:
    """Each anchor's best wall time on "3 vs 4" (its search: microseconds): its start-up."""
    out: Dict[str, Optional[float]] = {}
    for a in ANCHORS:
        if a.key in exes:
            b = Best()
            for _ in range(REPEATS):
                b.add(*run_anchor(a, exes[a.key], "3", "4", timeout, cpu)[:2])
            out[a.name] = b.wall
    return out


def _ms(x: Optional[float]) -> str:
    return "n/a" if x is None else (f"{x * 1e3:.3f} ms" if x < 0.01 else f"{x * 1e3:.1f} ms")


def _ratio(a: Optional[float], b: Optional[float]) -> Optional[float]:
    return a / b if a is not None and b else None


def run(anchors: Path, timeout: float, markdown: bool, modes: Tuple[str, ...] = MODES) -> bool:
    exes, notes = build_anchors(anchors)
    for n in notes:
        print(f"note: {n}")
    cpu = min(os.sched_getaffinity(0))         # the one CPU of the one-core runs
    ncpu = os.cpu_count() or 1
    rows = []
    for first, second, published in PUZZLES:
        oracle = oracle_answer(first, second)
        for mode in modes:
            pin = cpu if mode == "one core" else None
            t = time_puzzle(exes, first, second, timeout, pin)
            finished = {n: b for n, b in t["anchors"].items() if b.done and b.search is not None}
            fastest = min((b.search for b in finished.values()), default=None)
            fastest_wall = min((b.wall for b in finished.values() if b.wall is not None), default=None)
            ratio = _ratio(fastest, t["warm"].search)
            # anchors none of which finished took at least `timeout` seconds
            # (a memory limit hit sooner gives no time: counted as `timeout` too)
            if fastest is None and t["anchors"]:
                ratio = timeout / t["warm"].search
            agree = t["win"] is published and all(v is published for v in t["answers"].values()) and (
                oracle is None or oracle is published)
            rows.append(dict(puzzle=f"{ours_text(first)} vs {ours_text(second)}", mode=mode,
                             published="first wins" if published else "second wins", t=t, ratio=ratio,
                             per_round=round_ratios(t["warm"], t["anchors"], timeout),
                             ratio_cold=_ratio(fastest, t["cold"].search),
                             ratio_wall=_ratio(fastest_wall, t["cold"].wall),
                             oracle="n/a" if oracle is None else ("agrees" if oracle is published else "DIFFERS"),
                             pass_1s=(t["warm"].wall or 0) <= 1.0, pass_10x=ratio is not None and ratio >= 10,
                             agree=agree))
    starts = startup(exes, timeout, cpu)
    names = [a.name for a in ANCHORS if a.key in exes]
    head = (["puzzle", "published", "resources", "nodes", "ours search warm", "ours search cold",
             "ours wall warm", "ours wall cold"] + [f"{n} search / wall" for n in names]
            + ["search: fastest anchor / ours warm (best of each)", "per round: min / median / max",
               "/ ours cold", "wall: fastest anchor / ours cold",
               "<= 1 s", ">= 10x", "brute force", "answers agree"])
    sep = " | " if markdown else "  "
    lines = [sep.join(head)]
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        one = row["mode"] == "one core"
        t = row["t"]
        cells = [row["puzzle"] if one else "", row["published"] if one else "",
                 row["mode"] if one else f"all {ncpu} cores", str(t["nodes"]), _ms(t["warm"].search),
                 _ms(t["cold"].search), _ms(t["warm"].wall), _ms(t["cold"].wall)]
        for n in names:
            b = t["anchors"][n]
            cells.append(f"not done (> {timeout:.0f} s or > {ANCHOR_MEMORY_GB:g} GiB)" if not b.done
                         else f"{_ms(b.search)} / {_ms(b.wall)}")
        cells += [f"{r:.1f}x" if r else "n/a" for r in (row["ratio"], row["ratio_cold"], row["ratio_wall"])]
        cells.insert(-2, spread(row["per_round"]))
        cells += [("PASS" if row["pass_1s"] else "FAIL") if one else "",
                  "PASS" if row["pass_10x"] else "FAIL", row["oracle"] if one else "",
                  "yes" if row["agree"] else "NO"]
        lines.append(("| " + " | ".join(cells) + " |") if markdown else sep.join(cells))
    print("\n".join(lines))

    def verdict(ok: bool) -> str:
        return "PASS" if ok else "FAIL"

    one_rows = [r for r in rows if r["mode"] == "one core"]
    all_rows = [r for r in rows if r["mode"] == "all cores"]
    pass_1s = all(r["pass_1s"] for r in one_rows)
    pass_one = all(r["pass_10x"] for r in one_rows)
    pass_all = all(r["pass_10x"] for r in all_rows)
    print(f"targets: every puzzle <= 1 s on one core: {verdict(pass_1s)}; "
          f"search >= 10x the fastest anchor's search on each, one core against one core: {verdict(pass_one)}"
          + (f"; all {ncpu} cores against all {ncpu} cores: {verdict(pass_all)}" if all_rows else ""))
    short = [f"{r['puzzle']} at {r['ratio']:.1f}x ({10 / r['ratio']:.1f}x short)"
             for r in one_rows if r["ratio"] and r["ratio"] < 10]
    if short:
        print("below 10x on one core: " + "; ".join(short))
    print("anchors' start-up (wall time on \"3 vs 4\", one core, best of "
          f"{REPEATS}): " + ", ".join(f"{n} {_ms(v)}" for n, v in starts.items()))
    print(f"(one core: ours threads=1 on a thread pinned to CPU {cpu}, our cold process and each anchor process "
          f"pinned to CPU {cpu}; all cores: ours threads={ncpu}, anchors unpinned -- YunyanDeng runs one thread "
          f"per root move, the other two anchors are single-threaded; {REPEATS} rounds round-robin, best of "
          f"each (per round: the fastest anchor's search that round over our best of {WARM_CALLS} warm calls "
          f"that round, an anchor run once counted in every round), an anchor run over 1 s once; ours: a "
          f"fresh default (16 MiB) table each call; each anchor process, in a temporary directory of its own, "
          f"limited to {ANCHOR_MEMORY_GB:g} GiB; brute force: ddz_fast.solver_reference on puzzles "
          f"of <= {ORACLE_MAX_CARDS} cards)")
    return pass_1s and pass_one and pass_all and all(r["agree"] for r in rows)


def main(argv: Optional[List[str]] = None) -> int:
    global ANCHOR_MEMORY_GB
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--anchors", default=str(Path(__file__).resolve().parent / ".anchors"),
                    help="directory of the anchors' checkouts (default benchmarks/.anchors)")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per anchor run (default 300)")
    ap.add_argument("--anchor-memory-gb", type=float, default=ANCHOR_MEMORY_GB,
                    help="address-space limit of each anchor process, GiB (default 4; ChinesePokerGame "
                         "takes ~10 GB on its hardest problems): one that runs out counts as not finished")
    ap.add_argument("--one-core", action="store_true", help="only the one-core rows (no all-cores rows)")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a target fails")
    args = ap.parse_args(argv)
    ANCHOR_MEMORY_GB = args.anchor_memory_gb
    ok = run(Path(args.anchors), args.timeout, args.markdown, MODES[:1] if args.one_core else MODES)
    return 1 if (args.strict and not ok) else 0


if __name__ == "__main__":
    sys.exit(main())
