"""Wild-card (laizi) move generation: ddz-fast against the one open-source
laizi engine we found that can be built and called, on the same seeded deals.

    python benchmarks/laizi_compare.py [--engine-dir DIR] [--source auto|compiled|oracle]
                                       [--deals N] [--set-hands M] [--seed S]
                                       [--rounds R] [--examples K]

The other engine: github.com/fattigerlee/poker (Go, package ``ddz``; no
licence file, so it is never copied into this repository: ``DIR`` is a
checkout of it, cloned when missing and git can reach GitHub; default
``$DDZ_LAIZI_DIR`` or ``~/.cache/ddz_fast_bench/laizi/poker``).  It is built
here with the system Go (``go build``, no network: a ``replace`` directive
points at the checkout) together with our driver
``benchmarks/laizi/fattiger_harness.go``, which calls only its exported API.
benchmarks/README.md ("Laizi engines") lists its rules and how they differ
from ours.

The engine has no move-list generator.  It has

* ``FindCardsTianDiLaiZi(last, hand, wild...)``: the prompt ("hint") of a
  game client, ONE move of the hand that beats ``last`` (or nothing); and
* ``GetCardType(cards, wild...)``: the readings of a set of physical cards,
  as (type, min, max), where it reports the lowest and the highest reading
  of each kind only.

So two comparisons, each with its timing (the engine is timed inside the Go
process, without any call overhead; ddz-fast from Python, per call):

1. **Responses**, on ``--deals`` deals (``benchmarks/deals.make_deals``; one
   wild rank per deal, uniform over 3..2): the landlord's move to beat is
   drawn from ddz-fast's own leads of the landlord's hand (a kind uniformly,
   then a move of that kind), farmer1 answers.  Each hint of the engine must
   be one of ddz-fast's responses (same physical cards, same kind, rank and
   length, same bomb class); where the engine finds nothing although
   ddz-fast has an answer, the miss is grouped by kind.
2. **Leads as readings**, on ``--set-hands`` random hands of 5..17 cards:
   every sub-multiset of the hand is given to ``GetCardType``; the playable
   sets and their readings are compared with ddz-fast's lead list grouped
   by physical cards.  A reading of ddz-fast strictly between the engine's
   lowest and highest reading of the same kind is counted as "between the
   engine's min and max" (its design), not as a difference.

ddz-fast is read through one adapter per source, each giving moves as
(kind, represents, counts) triples (WILD.md):

* ``compiled``: ``ddz_fast.legal_moves(hand, last, rules="laizi", wild=w)``;
* ``oracle``: ``ddz_fast.reference.wild_moves(hand, last, rules="standard", wild=(w,))``;
* ``auto`` (default): the compiled one when it takes ``wild=``, else the oracle.

Every difference is printed with its count, its explanation (the engine's
rule choice, its hint strategy, or its bug, from reading its code) and a few
concrete examples.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict
from functools import lru_cache, partial
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from deals import N_RANKS, RANKS, as_u8, make_deals, random_hands  # noqa: E402

from ddz_fast import Kind  # noqa: E402
from ddz_fast import reference  # noqa: E402
from ddz_fast.rules import resolve_rules  # noqa: E402

REPO_URL = "https://github.com/fattigerlee/poker"
HARNESS = Path(__file__).resolve().parent / "laizi" / "fattiger_harness.go"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "ddz_fast_bench" / "laizi"

Counts = Tuple[int, ...]
Triple = Tuple[Kind, Counts, Counts]
#: A reading as both sides can state it: kind, rank index of the highest
#: primal card, length (cards of a chain, pairs, trios; 1 otherwise), bomb
#: class (None, "soft", "hard", "wild", "rocket").
Key = Tuple[Kind, int, int, Optional[str]]

# ---------------------------------------------------------------------------
# The engine's card types (ddz/const.go, CardType, in its iota order)
# ---------------------------------------------------------------------------

THEIR_TYPES = [
    "None", "Dan", "Dui", "SanBuDai", "SanDaiYi", "SanDaiEr", "SiDaiDan", "SiDaiDui",
    "ShunZi", "LianDui", "FeiJiBuDai", "FeiJiDaiYi", "FeiJiDaiEr", "RuanZhaDan4", "ZhaDan",
    "LaiZiZhaDan4", "ChunLaiZiZhaDan", "RuanZhaDan5", "LaiZiZhaDan5", "RuanZhaDan6",
    "LaiZiZhaDan6", "RuanZhaDan7", "LaiZiZhaDan7", "RuanZhaDan8", "LaiZiZhaDan8",
    "RuanZhaDan9", "RuanZhaDan10", "RuanZhaDan11", "RuanZhaDan12", "HuoJian",
    "RuanLianZha", "LianZha",
]
T = {name: i for i, name in enumerate(THEIR_TYPES)}
#: The engine's type -> (our kind, bomb class); the types with no counterpart
#: in our rules (bombs of 5+ cards, chain bombs, mixed-rank wild bombs) are absent.
TYPE_KIND: Dict[int, Tuple[Kind, Optional[str]]] = {
    T["Dan"]: (Kind.SOLO, None), T["Dui"]: (Kind.PAIR, None), T["SanBuDai"]: (Kind.TRIO, None),
    T["SanDaiYi"]: (Kind.TRIO_SOLO, None), T["SanDaiEr"]: (Kind.TRIO_PAIR, None),
    T["SiDaiDan"]: (Kind.FOUR_TWO_SOLO, None), T["SiDaiDui"]: (Kind.FOUR_TWO_PAIR, None),
    T["ShunZi"]: (Kind.CHAIN, None), T["LianDui"]: (Kind.PAIR_CHAIN, None),
    T["FeiJiBuDai"]: (Kind.AIRPLANE, None), T["FeiJiDaiYi"]: (Kind.AIRPLANE_SOLO, None),
    T["FeiJiDaiEr"]: (Kind.AIRPLANE_PAIR, None), T["RuanZhaDan4"]: (Kind.BOMB, "soft"),
    T["ZhaDan"]: (Kind.BOMB, "hard"), T["ChunLaiZiZhaDan"]: (Kind.BOMB, "wild"),
    T["HuoJian"]: (Kind.ROCKET, "rocket"),
}
SEQUENCES = (Kind.CHAIN, Kind.PAIR_CHAIN, Kind.AIRPLANE, Kind.AIRPLANE_SOLO, Kind.AIRPLANE_PAIR)


def num(rank: int) -> int:
    """Our rank index (0..14) -> the engine's card number (3..15, jokers 16, 17)."""
    return rank + 3


def their_key(t: int, lo: int, hi: int) -> Optional[Key]:
    """The engine's (type, min, max) as our Key; None for its types that have
    no counterpart in our rules."""
    if t not in TYPE_KIND:
        return None
    kind, cls = TYPE_KIND[t]
    if kind == Kind.ROCKET:
        return (kind, 14, 1, cls)
    if kind in SEQUENCES:
        return (kind, hi - 3, hi - lo + 1, cls)
    return (kind, lo - 3, 1, cls)


def their_info(key: Key) -> Tuple[int, int, int]:
    """Our Key -> the engine's CardTypeInfo (type, min, max) of that move."""
    kind, rank, length, cls = key
    t = next(t for t, kc in TYPE_KIND.items() if kc == (kind, cls))
    if kind in SEQUENCES:
        return t, num(rank - length + 1), num(rank)
    return t, (0 if kind == Kind.ROCKET else num(rank)), 0


def text(counts: Sequence[int]) -> str:
    return "".join(RANKS[r] * int(c) for r, c in enumerate(counts)) or "-"


# ---------------------------------------------------------------------------
# ddz-fast: one adapter per source, all giving (kind, represents, counts)
# ---------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _rank_length(kind: Kind, represents: Counts) -> Tuple[int, int]:
    """Rank and length of the highest reading of `kind` of the represented
    cards (the standard game's classify; this is how ddz-fast ranks a move)."""
    for m in reference.classify(represents, rules="standard"):
        if m.kind == kind:
            return m.rank, m.length
    raise ValueError(f"{text(represents)} is no {kind.name}")


def key_of(move: Triple, wild: int) -> Key:
    kind, rep, cnt = move
    rank, length = _rank_length(kind, rep)
    cls: Optional[str] = None
    if kind == Kind.ROCKET:
        cls = "rocket"
    elif kind == Kind.BOMB:
        cls = "soft" if cnt != rep else ("wild" if rank == wild else "hard")
    return (kind, rank, length, cls)


class Source:
    """ddz-fast's move lists for (hand, last, wild), as triples; `native` is
    the source's own move object (what it takes back as `last`)."""

    name = "?"
    error: Optional[str] = None

    def available(self) -> bool:
        return self.error is None

    def call(self, hand, last, wild: int) -> Callable[[], object]:
        """A zero-argument callable doing one move-generation call."""
        raise NotImplementedError

    def args(self, hand, last, wild: int) -> tuple:
        """The prepared arguments of one call, for run()."""
        raise NotImplementedError

    def run(self, chunk: Sequence[tuple]) -> None:
        """One call per prepared argument tuple: the timed loop (a direct
        call, no wrapper such as functools.partial in between)."""
        raise NotImplementedError

    def triples(self, result) -> List[Tuple[Triple, object]]:
        raise NotImplementedError

    def moves(self, hand, last, wild: int) -> List[Tuple[Triple, object]]:
        return self.triples(self.call(hand, last, wild)())


class CompiledSource(Source):
    name = 'ddz_fast.legal_moves(hand, last, rules="laizi", wild=w)'

    def __init__(self) -> None:
        import ddz_fast
        self._legal_moves = ddz_fast.legal_moves
        try:
            ddz_fast.legal_moves(as_u8([1] * 13 + [0, 0]), rules="laizi", wild=0)
        except (TypeError, ValueError) as exc:
            self.error = f"legal_moves has no wild= yet ({type(exc).__name__}: {exc})"

    def call(self, hand, last, wild):
        return partial(self._legal_moves, as_u8(hand), last, rules="laizi", wild=wild)

    def args(self, hand, last, wild):
        return (as_u8(hand), last, wild)

    def run(self, chunk):
        f = self._legal_moves
        for h, last, w in chunk:
            f(h, last, rules="laizi", wild=w)

    def triples(self, result):
        return [((Kind(m.kind), tuple(m.represents), tuple(m.counts)), m) for m in result]


class OracleSource(Source):
    name = 'ddz_fast.reference.wild_moves(hand, last, rules="standard", wild=(w,))'

    def __init__(self) -> None:
        self._wild_moves = getattr(reference, "wild_moves", None)
        if self._wild_moves is None:
            self.error = "ddz_fast.reference has no wild_moves yet"

    def call(self, hand, last, wild):
        return partial(self._wild_moves, tuple(hand), last, rules="standard", wild=(wild,))

    def args(self, hand, last, wild):
        return (tuple(hand), last, (wild,))

    def run(self, chunk):
        f = self._wild_moves
        for h, last, w in chunk:
            f(h, last, rules="standard", wild=w)

    def triples(self, result):
        return [((Kind(k), tuple(r), tuple(c)), (k, r, c)) for k, r, c in result]


def pick_source(which: str) -> Source:
    tried = []
    for cls in {"auto": (CompiledSource, OracleSource), "compiled": (CompiledSource,),
                "oracle": (OracleSource,)}[which]:
        src = cls()
        if src.available():
            return src
        tried.append(f"{cls.name}: {src.error}")
    sys.exit("no ddz-fast wild-card source:\n  " + "\n  ".join(tried))


# ---------------------------------------------------------------------------
# The other engine: build and call
# ---------------------------------------------------------------------------

def build_engine(engine_dir: Path) -> Tuple[Optional[Path], str]:
    """Clone (when missing) and build the driver; returns (exe, description)
    or (None, why not)."""
    if not (engine_dir / "ddz").is_dir():
        if shutil.which("git") is None:
            return None, f"no checkout at {engine_dir} and no git to clone {REPO_URL}"
        engine_dir.parent.mkdir(parents=True, exist_ok=True)
        r = subprocess.run(["git", "clone", "-q", REPO_URL, str(engine_dir)], capture_output=True, text=True)
        if r.returncode != 0:
            return None, f"no checkout at {engine_dir} (git clone {REPO_URL} failed: {r.stderr.strip()})"
    if shutil.which("go") is None:
        return None, "no Go toolchain (e.g. Debian's golang-go) to build the engine"
    commit = subprocess.run(["git", "-C", str(engine_dir), "rev-parse", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "unknown commit"
    build = CACHE / "build"
    build.mkdir(parents=True, exist_ok=True)
    (build / "main.go").write_text(HARNESS.read_text())
    (build / "go.mod").write_text(
        "module laizi_harness\n\ngo 1.12\n\nrequire github.com/fattigerlee/poker v0.0.0\n\n"
        f"replace github.com/fattigerlee/poker => {engine_dir.resolve()}\n")
    exe = build / "fattiger_harness"
    env = dict(os.environ, GOFLAGS="-mod=mod", GOPROXY="off", GOTOOLCHAIN="local")
    env.setdefault("GOCACHE", str(CACHE / "gocache"))
    r = subprocess.run(["go", "build", "-o", str(exe), "."], cwd=build, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        return None, f"go build failed: {r.stderr.strip()[:500]}"
    go = subprocess.run(["go", "version"], capture_output=True, text=True).stdout.strip()
    return exe, f"fattigerlee/poker @ {commit[:12]} ({go})"


def run_engine(exe: Path, mode: str, lines: Iterable[str], rounds: int) -> Tuple[List[List[int]], int, int]:
    """Run the driver; returns (output rows as ints, best ns, calls)."""
    stdin = f"{mode} {rounds}\n" + "".join(line + "\n" for line in lines)
    r = subprocess.run([str(exe)], input=stdin, capture_output=True, text=True, check=True)
    lines_out = r.stdout.splitlines()
    head, tail = lines_out[0].split(), lines_out[-1].split()
    if head != ["TYPES"] + [str(i) for i in range(len(THEIR_TYPES))]:
        raise RuntimeError(f"the engine's card types are not those of THEIR_TYPES: {lines_out[0]}")
    assert tail[0] == "TIME", tail
    return [[int(x) for x in line.split()] for line in lines_out[1:-1]], int(tail[1]), int(tail[2])


# ---------------------------------------------------------------------------
# Timing of ddz-fast (best of `rounds` per chunk of calls, chunks summed)
# ---------------------------------------------------------------------------

def time_calls(src: Source, args: List[tuple], rounds: int, chunk: int = 256) -> int:
    """Nanoseconds for one call per prepared argument tuple (GC off)."""
    import gc
    total = 0
    was = gc.isenabled()
    gc.disable()
    try:
        for i in range(0, len(args), chunk):
            part = args[i:i + chunk]
            best = None
            for _ in range(rounds):
                t0 = time.perf_counter_ns()
                src.run(part)
                dt = time.perf_counter_ns() - t0
                best = dt if best is None or dt < best else best
            total += best or 0
    finally:
        if was:
            gc.enable()
    return total


# ---------------------------------------------------------------------------
# Explanations of differences (from reading the engine's code)
# ---------------------------------------------------------------------------

WHY = {
    # the engine's rule choices
    "big-bomb": "rule: bombs of 5 to 12 cards, wild bombs of 5+ wilds and chain bombs (RuanZhaDan5+, "
                "LaiZiZhaDan5+, RuanLianZha, LianZha); ours: at most 4 of a rank, no chain bomb",
    "lone-wild": "rule: wild cards played alone (1, 2 or 3 of them, or all four) read only as "
                 "their own rank; ours: any rank 3..2 (a lone wild leads as 13 singles)",
    "kicker-pair": "rule: a four's two singles may be a pair, or both jokers (isSiDaiDan); "
                   "ours: two different ranks, never both jokers (four_two_solo_distinct, "
                   "both_jokers_as_kickers)",
    "pairs-one-rank": "rule: two attached pairs may have one rank (a four as two pairs: "
                      "isSiDaiDui, isFeiJiDaiEr); ours: attached pairs of different ranks",
    "kicker-primal-rank": "rule: an attached single may have the rank of a trio (a four as "
                          "trio + single, isFeiJiDaiYi counts >= 3); ours: never",
    "one-natural-rank": "rule: a chain, pair chain, airplane, trio with attachment or four with "
                        "attachments needs natural cards of at least two ranks besides the wilds "
                        "(isLianLaiZi, isSanDaiYiLaiZi ... return nothing for 0 or 1 natural rank)",
    "min-max": "design: the classifier reports the lowest and highest reading of each kind only",
    # the engine's hint strategy
    "hint-no-split": "hint strategy: with more than 3 cards in hand it does not break wild cards "
                     "to answer a single or a pair (findBigDanLaiZi / findBigDuiLaiZi)",
    "hint-miss": "hint: no answer found although one exists (its search tries a fixed list "
                 "of shapes; not traced further)",
    # the engine's bugs
    "wild-joker": "bug: wild cards stand for a joker (a pair, trio or soft bomb of jokers; "
                  "e.g. findBigRuanZhaDan4 does not skip jokers, its own classifier refuses them)",
    "short": "bug: fewer cards than the combination it claims (findBigShunZiLaiZi completes "
             "a chain with two wilds but plays only laiZiCards[0])",
    "chain-two": "bug: a chain reaching the 2 (findBigShunZiLaiZi starts the range at the "
                 "first natural card, MinValue = nums[0], when a wild fills the lowest rank)",
    "bad-kickers": "bug: attachments not checked against the cards (feiJiDaiErLaiZi, "
                   "siDaiDuiLaiZi: a rank of 3 or 4 cards counts as a pair, a fourth card of a "
                   "trio rank is ignored); no option of our rules allows it",
    "max-miss": "bug: its highest (or lowest) reading of the kind is not the highest (lowest): "
                "e.g. maxFeiJiDaiYiLaiZi tries only airplanes ending at a natural rank or at A",
    "crash": "bug: the engine crashes (a Go panic, index out of range) on these cards",
    "unexplained": "not explained by a rule found in the engine's code",
}
#: The differences that are no fault where the rules agree.
NOT_FAULTS = {why for why, text in WHY.items() if text.startswith(("rule:", "design:", "hint strategy:"))}


#: Cards of a move of each kind, per unit of length.
SIZE = {Kind.SOLO: 1, Kind.PAIR: 2, Kind.TRIO: 3, Kind.TRIO_SOLO: 4, Kind.TRIO_PAIR: 5,
        Kind.CHAIN: 1, Kind.PAIR_CHAIN: 2, Kind.AIRPLANE: 3, Kind.AIRPLANE_SOLO: 4,
        Kind.AIRPLANE_PAIR: 5, Kind.FOUR_TWO_SOLO: 6, Kind.FOUR_TWO_PAIR: 8, Kind.BOMB: 4,
        Kind.ROCKET: 2}


def tname(t: int) -> str:
    return "crash" if t < 0 else THEIR_TYPES[t]


def explain_extra(key: Optional[Key], t: int, cnt: Counts, wild: int) -> str:
    """Why an engine move/reading is missing from ours."""
    if t < 0:
        return "crash"
    if key is None:
        return "big-bomb"
    kind, rank, length, cls = key
    if sum(cnt) != SIZE[kind] * length:
        return "short"
    if rank >= 13 and kind not in (Kind.SOLO, Kind.ROCKET):
        return "wild-joker"
    if kind in SEQUENCES and rank >= 12:
        return "chain-two"
    if legal_under(key, cnt, wild, four_two_solo_distinct=False, both_jokers_as_kickers=True):
        return "kicker-pair"
    natural = [0 if r == wild else c for r, c in enumerate(cnt)]
    first = rank - length + 1
    primal = range(first, rank + 1)
    if kind in (Kind.AIRPLANE_SOLO, Kind.TRIO_SOLO) and any(natural[r] >= 4 for r in primal):
        return "kicker-primal-rank"
    if kind in (Kind.FOUR_TWO_PAIR, Kind.AIRPLANE_PAIR):
        each = 4 if kind == Kind.FOUR_TWO_PAIR else 3
        spare = cnt[wild] - sum(max(0, each - natural[r]) for r in primal)
        rest = [0 if r in primal else natural[r] for r in range(N_RANKS)]
        if spare >= 0 and any(rest[q] + spare >= 4 and rest[q] <= 4 for q in range(13) if rest[q]):
            return "pairs-one-rank"
    if kind in (Kind.TRIO_SOLO, Kind.TRIO_PAIR, Kind.FOUR_TWO_SOLO, Kind.FOUR_TWO_PAIR,
                Kind.AIRPLANE_SOLO, Kind.AIRPLANE_PAIR):
        return "bad-kickers"
    return "unexplained"


def legal_under(key: Key, cnt: Counts, wild: int, **options: bool) -> bool:
    """Is `key` a reading of the cards `cnt` under the standard rules with
    these options changed?  (The oracle's wild_readings; False without it.)"""
    readings = getattr(reference, "wild_readings", None)
    if readings is None:
        return False
    rules = resolve_rules("standard").replace(**options)
    for kind, rep, c in readings(cnt, rules=rules, wild=(wild,)):
        if kind == key[0]:
            for m in reference.classify(rep, rules=rules):
                if m.kind == kind and (m.rank, m.length) == key[1:3]:
                    return True
    return False


def explain_missing(key: Key, their_keys: List[Key], cnt: Counts, wild: int, hint: bool,
                    hand: Optional[Counts] = None) -> str:
    """Why one of our moves/readings is missing from the engine's."""
    kind, rank, length, cls = key
    n_wild = cnt[wild]
    natural_ranks = [r for r in range(N_RANKS) if r != wild and cnt[r]]
    if n_wild and not natural_ranks:
        return "lone-wild"
    if not hint:
        same = [k[1] for k in their_keys if k[0] == kind and k[2] == length and k[3] == cls]
        if same and min(same) < rank < max(same):
            return "min-max"
        if same:
            return "max-miss"
    if n_wild and len(natural_ranks) <= 1 and kind in SEQUENCES + (
            Kind.TRIO_SOLO, Kind.TRIO_PAIR, Kind.FOUR_TWO_SOLO, Kind.FOUR_TWO_PAIR):
        return "one-natural-rank"
    if hint and hand is not None and kind in (Kind.SOLO, Kind.PAIR) and sum(hand) > 3:
        return "hint-no-split"
    if hint:
        return "hint-miss"
    return "unexplained"


class Diffs:
    """Differences grouped by (side, why, kind), with a few examples each."""

    def __init__(self, examples: int) -> None:
        self.examples = examples
        self.count: Counter = Counter()
        self.samples: Dict[Tuple[str, str, str], List[str]] = defaultdict(list)

    def add(self, side: str, why: str, kind: str, example: str) -> None:
        k = (side, why, kind)
        self.count[k] += 1
        if len(self.samples[k]) < self.examples:
            self.samples[k].append(example)

    def report(self, title: str) -> None:
        print(f"\n{title}")
        if not self.count:
            print("  none")
            return
        for (side, why, kind), n in sorted(self.count.items(), key=lambda kv: (kv[0][0], -kv[1])):
            print(f"  [{side}] {kind}: {n}  -- {WHY[why]}")
            for ex in self.samples[(side, why, kind)]:
                print(f"      {ex}")


# ---------------------------------------------------------------------------
# 1. Responses: the engine's hint against ddz-fast's response list
# ---------------------------------------------------------------------------

def compare_responses(src: Source, exe: Path, n_deals: int, seed: int, rounds: int,
                      examples: int) -> None:
    rng = random.Random(seed)
    deals = make_deals(n_deals, seed)
    queries = []
    for d in deals:
        wild = rng.randrange(13)
        leads = src.moves(d["landlord"], None, wild)
        by_kind: Dict[Kind, list] = defaultdict(list)
        for tri, native in leads:
            by_kind[tri[0]].append((tri, native))
        kind = rng.choice(sorted(by_kind))
        last, last_native = rng.choice(by_kind[kind])
        queries.append((tuple(d["farmer1"]), wild, last, last_native))

    lines = []
    for hand, wild, last, _ in queries:
        t, lo, hi = their_info(key_of(last, wild))
        lines.append(f"{num(wild)} {' '.join(map(str, hand))} {t} {lo} {hi}")
    rows, their_ns, their_calls = run_engine(exe, "hint", lines, rounds)

    calls = [src.call(hand, native, wild) for hand, wild, _, native in queries]
    ours_ns = time_calls(src, [src.args(hand, native, wild) for hand, wild, _, native in queries], rounds)
    answers = [src.triples(f()) for f in calls]
    n_ours = sum(len(a) for a in answers)
    n_theirs = sum(1 for row in rows if row[0] > 0)

    diffs = Diffs(examples)
    n_queries = len(queries)
    agree = misses = none_both = faults = 0
    for (hand, wild, last, _), row, ans in zip(queries, rows, answers):
        t, lo, hi, cnt = row[0], row[1], row[2], tuple(row[3:18])
        ours = {(tri[2], key_of(tri, wild)) for tri, _ in ans if tri[0] != Kind.PASS}
        head = f"wild {RANKS[wild]}, hand {text(hand)}, to beat {text(last[2])}={text(last[1])} ({last[0].name})"
        if t == 0:
            if not ours:
                none_both += 1
                continue
            misses += 1
            low = min(ours, key=lambda ck: (ck[1][3] is not None, ck[1][0], ck[1][1]))
            why = explain_missing(low[1], [], low[0], wild, True, hand)
            faults += why not in NOT_FAULTS
            diffs.add("ddz-fast only", why, last[0].name,
                      f"{head}: engine finds nothing; ddz-fast e.g. {text(low[0])} as {low[1][0].name} "
                      f"rank {RANKS[low[1][1]]} ({len(ours)} answers)")
            continue
        key = their_key(t, lo, hi) if t > 0 else None
        if key is not None and (cnt, key) in ours:
            agree += 1
            continue
        why = explain_extra(key, t, cnt, wild)
        faults += why not in NOT_FAULTS
        diffs.add("engine only", why, tname(t),
                  f"{head}: engine plays {text(cnt)} as {tname(t)} min {lo} max {hi}")

    print(f"\n## Responses ({n_deals} deals, farmer1 answers the landlord)")
    print(f"  ddz-fast ({src.name}): {ours_ns / len(calls) / 1e3:9.1f} us/call, "
          f"{len(calls) / ours_ns * 1e9:12.0f} calls/s, {n_ours / ours_ns * 1e9:14.0f} moves/s "
          f"({n_ours / len(calls):.1f} moves per call, PASS included)")
    print(f"  engine (FindCardsTianDiLaiZi, in Go): {their_ns / their_calls / 1e3:9.1f} us/call, "
          f"{their_calls / their_ns * 1e9:12.0f} calls/s, {n_theirs / their_ns * 1e9:14.0f} moves/s "
          f"(at most one move per call)")
    print(f"  ratio ddz-fast / engine: calls/s x{their_ns / their_calls / (ours_ns / len(calls)):.3g}, "
          f"moves/s x{(n_ours / ours_ns) / max(n_theirs / their_ns, 1e-30):.3g}")
    print(f"  the engine's hint is one of ours: {agree}/{n_theirs}; both have no answer: {none_both}; "
          f"engine finds nothing, ddz-fast has answers: {misses}")
    print(f"  answers the same as ours or different only by a rule choice: {n_queries - faults}/{n_queries} "
          f"(the other {faults}: the engine's bugs or unexplained)")
    diffs.report("  differences (grouped; count -- why):")


# ---------------------------------------------------------------------------
# 2. Leads as readings: GetCardType on every sub-multiset against the lead list
# ---------------------------------------------------------------------------

def compare_readings(src: Source, exe: Path, n_hands: int, seed: int, rounds: int,
                     examples: int) -> None:
    rng = random.Random(seed + 1)
    sizes = list(range(5, 18))
    hands = []
    for i in range(n_hands):
        size = sizes[i % len(sizes)]
        hand = tuple(int(x) for x in random_hands(1, size, seed=seed + i)[0])
        hands.append((hand, rng.randrange(13)))
    rows, their_ns, their_calls = run_engine(
        exe, "classify", (f"{num(w)} {' '.join(map(str, h))}" for h, w in hands), rounds)
    theirs: Dict[int, Dict[Counts, List[Tuple[int, int, int]]]] = defaultdict(dict)
    for row in rows:
        q, cnt, n = row[0], tuple(row[1:16]), row[16]
        theirs[q][cnt] = [tuple(row[17 + 3 * j: 20 + 3 * j]) for j in range(n)]

    calls = [src.call(h, None, w) for h, w in hands]
    ours_ns = time_calls(src, [src.args(h, None, w) for h, w in hands], rounds)
    n_ours = 0
    diffs = Diffs(examples)
    sets_agree = sets_total = between = sets_faulty = 0
    for q, ((hand, wild), f) in enumerate(zip(hands, calls)):
        ours: Dict[Counts, set] = defaultdict(set)
        for tri, _ in src.triples(f()):
            ours[tri[2]].add(key_of(tri, wild))
            n_ours += 1
        for cnt in set(ours) | set(theirs[q]):
            sets_total += 1
            mine = ours.get(cnt, set())
            infos = theirs[q].get(cnt, [])
            tk = [(their_key(*info) if info[0] > 0 else None, info) for info in infos]
            known = [k for k, _ in tk if k is not None]
            extra = [(k, info) for k, info in tk if k is None or k not in mine]
            missing = [k for k in mine if k not in known]
            head = f"wild {RANKS[wild]}, cards {text(cnt)}"
            for k, info in extra:
                why = explain_extra(k, info[0], cnt, wild)
                diffs.add("engine only", why, tname(info[0]),
                          f"{head}: engine reads {tname(info[0])} min {info[1]} max {info[2]}")
            whys = [explain_extra(k, info[0], cnt, wild) for k, info in extra]
            real_missing = []
            for k in missing:
                why = explain_missing(k, known, cnt, wild, False)
                if why == "min-max":
                    between += 1
                    continue
                real_missing.append(k)
                whys.append(why)
                diffs.add("ddz-fast only", why, k[0].name,
                          f"{head}: ddz-fast reads {k[0].name} rank {RANKS[k[1]]} length {k[2]}"
                          + (f" ({k[3]})" if k[3] else "")
                          + f"; engine: {', '.join(tname(i[0]) for i in infos) or 'no move'}")
            if not extra and not real_missing:
                sets_agree += 1
            sets_faulty += any(why not in NOT_FAULTS for why in whys)

    print(f"\n## Leads as readings ({n_hands} random hands of 5..17 cards, every sub-multiset)")
    print(f"  ddz-fast ({src.name}): {ours_ns / len(calls) / 1e3:9.1f} us per hand's lead list, "
          f"{n_ours / ours_ns * 1e9:14.0f} moves/s ({n_ours / len(calls):.1f} moves per hand)")
    print(f"  engine (GetCardType on each of {their_calls} sub-multisets, in Go): "
          f"{their_ns / len(hands) / 1e3:9.1f} us per hand, {their_calls / their_ns * 1e9:12.0f} calls/s")
    print(f"  ratio ddz-fast / engine, per hand (every lead each knows): x{their_ns / ours_ns:.3g}")
    print(f"  playable card sets with the same readings on both sides: {sets_agree}/{sets_total}; "
          f"ddz-fast readings between the engine's min and max (its design): {between}")
    print(f"  playable card sets the same or different only by a rule choice or the min/max design: "
          f"{sets_total - sets_faulty}/{sets_total} (the other {sets_faulty}: the engine's bugs or unexplained)")
    diffs.report("  differences (grouped; count -- why):")


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine-dir", type=Path,
                    default=Path(os.environ.get("DDZ_LAIZI_DIR", CACHE / "poker")))
    ap.add_argument("--source", choices=("auto", "compiled", "oracle"), default="auto")
    ap.add_argument("--deals", type=int, default=4000, help="deals for the responses (default 4000)")
    ap.add_argument("--set-hands", type=int, default=390,
                    help="random hands for the readings comparison (default 390)")
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--rounds", type=int, default=5, help="timing rounds, best kept (default 5)")
    ap.add_argument("--examples", type=int, default=3, help="examples per difference group")
    args = ap.parse_args(argv)

    src = pick_source(args.source)
    exe, what = build_engine(args.engine_dir)
    if exe is None:
        print(f"the laizi engine is not available: {what}")
        return 1
    print(f"# Laizi move generation: ddz-fast ({src.name}) against {what}")
    compare_responses(src, exe, args.deals, args.seed, args.rounds, args.examples)
    compare_readings(src, exe, args.set_hands, args.seed, args.rounds, args.examples)
    return 0


if __name__ == "__main__":
    sys.exit(main())
