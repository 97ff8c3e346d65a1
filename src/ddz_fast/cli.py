"""The ``ddz-fast`` command line.

Subcommands: ``moves`` (the legal moves of a hand), ``selfplay`` (many seeded
random games in compiled code, with a summary table, or a recorded
dataset), ``play`` (you against simple bots in the terminal), ``solve`` (who
wins an open-hand endgame, with a winning line), ``arena`` (agents
against each other on duplicate deals, WP and ADP with 95% intervals),
``train`` (Deep Monte-Carlo training of card play and bidding, the train
extra) and ``serve`` (a local web app: play against agents, watch replays).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Sequence, cast

import numpy as np

from . import __version__
from .cards import RANKS as RANK_LABELS, format_cards, to_counts
from .moves import classify, legal_moves, parse_move
from ._util.train_options import ACTOR_PRECISIONS, TRAIN_AUCTIONS
from .rules import AUCTIONS, PRESETS, Rules

if TYPE_CHECKING:
    from .game import Observation

# The numbered choices offered to the person: Moves or auction actions.
_Options = Dict[int, Any]

__all__ = ["main"]

# The summary of ``selfplay`` keeps every game's results in memory (about
# 100 bytes a game with the concatenation): more games than this would ask
# for gigabytes and end in an out-of-memory error.  ``--record`` streams to
# disk and has only the recorder's own bound.
MAX_SELFPLAY_GAMES = 100_000_000


def _last_move(text: str, kind: Optional[str], rules: str, wild: Optional[str] = None) -> Any:
    """--last/--last-kind as a Move; cards that read as several kinds without
    --last-kind are refused naming the option (the library's message names
    parse_move's ``kind=`` argument).  With --wild the text may be a reading,
    ``"<cards>=<represented>"``."""
    if kind is None:
        cards, sep, rep = text.partition("=")
        readings = classify(cards, rules=rules, wild=wild)
        if wild is not None:
            want = tuple(to_counts(rep if sep else cards, rules=rules).tolist())
            readings = [m for m in readings if m.represents == want]
        if len(readings) > 1:
            kinds = [m.kind.name for m in readings]
            raise ValueError(f"--last {text!r} is ambiguous: it reads as {' or '.join(kinds)}; "
                             f"add --last-kind to choose, e.g. --last-kind {kinds[0]}")
    return parse_move(text, kind, rules=rules, wild=wild)


def _cmd_moves(args: argparse.Namespace) -> int:
    last = None
    if PRESETS[args.rules].wild_ranks and args.wild is None:
        raise ValueError(f"--rules {args.rules} has wild cards: give the deal's wild rank(s) with --wild, "
                         "e.g. --wild 7")
    if args.last is not None:
        last = _last_move(args.last, args.last_kind, args.rules, args.wild)
    moves = legal_moves(args.hand, last, rules=args.rules, wild=args.wild)
    if args.json:
        out = [
            {"kind": m.kind.name, "cards": m.cards, "rank": m.rank, "length": m.length,
             **({"represents": format_cards(m.represents, rules=args.rules),
                 "bomb_class": m.bomb_class} if args.wild is not None else {})}
            for m in moves
        ]
        print(json.dumps(out))
    else:
        for m in moves:
            print(f"{m.kind.name:<14} {m}")
        print(f"{len(moves)} moves")
    return 0


# ---------------------------------------------------------------------------
# solve
# ---------------------------------------------------------------------------

def _cmd_solve(args: argparse.Namespace) -> int:
    from .solver import solve, winning_line

    n = len(args.hands)
    if not 1 <= args.first <= n:
        raise ValueError(f"--first must be a hand number 1..{n}, not {args.first}")
    landlord = None if args.landlord is None else args.landlord - 1
    if landlord is not None and not 0 <= landlord < n:
        raise ValueError(f"--landlord must be a hand number 1..{n}, not {args.landlord}")
    last = None
    last_by = None
    if args.last is not None:
        last = _last_move(args.last, args.last_kind, args.rules, args.wild)
        if args.last_by is not None:
            last_by = args.last_by - 1
    elif args.last_by is not None:
        raise ValueError("--last-by needs --last")
    opts: Dict[str, Any] = dict(to_move=args.first - 1, landlord=landlord, last=last, last_by=last_by,
                                rules=args.rules, ban=args.ban or ())
    if args.wild is not None:
        opts["wild"] = args.wild
    res = solve(args.hands, max_time=args.max_time, table_mb=args.table_mb, **opts)
    if res.win is None:
        print(f"unknown: the search hit its {res.limit} limit after {res.nodes} nodes "
              f"({res.seconds:.3f} s); try a larger --max-time or --table-mb")
        return 1
    side = "the landlord" if landlord is not None and args.first - 1 == landlord else (
        "the farmers" if landlord is not None else f"hand {args.first}")
    verb = ("win" if res.win else "lose") + ("" if side == "the farmers" else "s")
    print(f"hand {args.first} to move: {side} {verb} with best play "
          f"({res.nodes} nodes, {res.seconds:.3f} s)")
    line = winning_line(args.hands, table_mb=args.table_mb, max_time=args.max_time, **opts)
    print("a winning line:" if res.win else "a line where the other side wins:")
    for i, (seat, move) in enumerate(line):
        print(f"  {i + 1:>2}. hand {seat + 1}: {'pass' if move.is_pass else move}")   # (wild: cards=reading)
    return 0


# ---------------------------------------------------------------------------
# selfplay
# ---------------------------------------------------------------------------

def _selfplay_rules(args: argparse.Namespace) -> Rules:
    from .rules import resolve_rules

    r = resolve_rules(args.rules)
    if args.auction and args.auction != r.auction:
        r = r.replace(auction=args.auction, name=f"{r.name}+{args.auction}")
    return r


def _cmd_record(args: argparse.Namespace, rules: Rules) -> int:
    from .trajectories import record

    s = record(args.record, args.games, rules=rules, seed=args.seed, policy=args.policy,
               tables=args.tables, threads=args.threads, games_per_shard=args.shard_games,
               observation_type=args.observation_type, compression=args.compression,
               overwrite=args.overwrite, progress=not args.quiet,
               independent_shards=args.independent_shards, ray=args.ray)
    summary = {"directory": s.directory, "files": len(s.files), "games": s.games, "steps": s.steps,
               "seconds": round(s.seconds, 3), "games_per_second": round(s.games_per_second, 1),
               "rules": rules.name, "policy": args.policy, "seed": args.seed}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"ddz-fast selfplay: recorded {s.games:,} games ({s.steps:,} steps, policy "
              f"{args.policy!r}, rules {rules.name!r}, seed {args.seed}) to {s.directory} in "
              f"{len(s.files)} file{'s' if len(s.files) != 1 else ''}, {s.games_per_second:,.0f} games/s")
    return 0


def _cmd_selfplay(args: argparse.Namespace) -> int:
    from ._engine.playout import PlayoutResults, play_random_games
    from ._util.progress import Progress

    if args.games < 0:
        raise ValueError(f"--games must be >= 0, not {args.games}")
    if args.threads < 1:
        raise ValueError(f"--threads must be >= 1, not {args.threads}")
    rules = _selfplay_rules(args)
    if args.record is not None:
        return _cmd_record(args, rules)
    if args.games > MAX_SELFPLAY_GAMES:
        raise ValueError(f"--games must be at most {MAX_SELFPLAY_GAMES:,} for the summary (it keeps every "
                         f"game's results in memory), not {args.games:,}; use --record DIR for more")
    if args.policy != "random":
        raise ValueError("--policy needs --record (the summary plays uniformly random games)")
    if args.ray is not None or args.independent_shards:
        raise ValueError("--ray and --independent-shards need --record")
    total = args.games
    # Chunks only pace the progress bar: game i's seed depends on i alone.
    chunk = max(500, -(-total // 100))
    parts = []
    started = time.perf_counter()
    bar = Progress("selfplay", total, enabled=False if args.quiet else None)
    done = 0
    while done < total:
        k = min(chunk, total - done)
        parts.append(play_random_games(k, rules=rules, seed=args.seed, threads=args.threads,
                                       first_game=done))
        done += k
        bar.update(done)
    elapsed = time.perf_counter() - started
    bar.close()
    if parts:
        arrays = {name: np.concatenate([getattr(p, name) for p in parts])
                  for name in PlayoutResults.FIELDS}
    else:
        arrays = play_random_games(0, rules=rules).as_dict()
    res = PlayoutResults(rules, args.seed, 0, elapsed, **arrays)
    summary = res.summary()
    n = len(res)
    bids = {int(b): int(c) for b, c in zip(*np.unique(res.base, return_counts=True))}
    totals = [int(x) for x in res.scores.sum(axis=0)] if n else [0] * rules.players
    if args.json:
        summary.update(rules=rules.name, auction=rules.auction, players=rules.players,
                       seed=args.seed, threads=args.threads, base_counts=bids,
                       seat_totals=totals)
        print(json.dumps(summary))
        return 0
    _print_summary(rules, args, summary, bids, totals)
    return 0


def _cmd_arena(args: argparse.Namespace) -> int:
    from .arena import load_agent, play

    if args.plot:
        from ._util.plot import require_matplotlib
        require_matplotlib()            # (before any game is played: a missing extra costs no work)
    # module:attribute agents are looked up from the current directory, as
    # `python -m ddz_fast` does (a console script puts only its own folder first).
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    agents = [load_agent(a) for a in args.agents]
    if args.save_games and args.ray:
        raise ValueError("--save-games records a local run: not with --ray")
    save = open(args.save_games, "w", encoding="utf-8") if args.save_games else None
    try:
        res = play(agents, args.deals, seed=args.seed, rules=_selfplay_rules(args), landlord=args.landlord,
                   tables=args.tables, ray=args.ray, progress=False if args.quiet else None, save_games=save)
    finally:
        if save is not None:
            save.close()
    # The results first, the figure last: a figure that fails loses nothing.
    if args.per_deal:
        import csv
        rows = res.per_deal()
        with open(args.per_deal, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    if args.json:
        print(res.to_json())
    else:
        print(res.format())
    if args.plot:
        sys.stdout.flush()
        res.plot(args.plot)
        if not args.json:
            print(f"plot: {args.plot}")
    return 0


def _pct(k: int, n: int) -> str:
    return f"{100.0 * k / n:.2f} %" if n else "-"


def _print_summary(rules: Rules, args: argparse.Namespace, s: Dict[str, Any], bids: Dict[int, int],
                   totals: List[int]) -> None:
    n = s["games"]
    threads = f"{args.threads} thread" + ("s" if args.threads != 1 else "")
    print(f"ddz-fast selfplay: {n:,} uniformly random games, rules {rules.name!r} "
          f"({rules.players} players, {rules.auction} auction), seed {args.seed}, {threads}")
    print()
    if n == 0:
        print("  no games played")
        return
    base_name = "winning bid" if rules.auction == "bid" else "base (2^robs)"
    rows = [
        ("games", f"{n:,}"),
        ("landlord win rate", f"{100 * s['landlord_win_rate']:.1f} %"),
        ("mean landlord score", f"{s['mean_landlord_score']:+.3f}"),
        ("mean stake per farmer", f"{s['mean_value']:.3f}  (largest {s['max_value']:,})"),
        ("bombs + rockets per game", f"{s['bombs_per_game']:.3f}"),
        ("springs", f"{s['springs']:,}  ({_pct(s['springs'], n)})"),
        ("anti-springs", f"{s['anti_springs']:,}  ({_pct(s['anti_springs'], n)})"),
        (base_name, "  ".join(f"{b}: {_pct(c, n)}" for b, c in sorted(bids.items()))),
        ("redeals per game", f"{s['redeals_per_game']:.4f}"),
        ("plies per game", f"{s['plies_per_game']:.1f}"),
        ("score totals by seat", "  ".join(f"{t:+,}" for t in totals)),
        ("time", f"{s['seconds']:.3f} s"),
        ("games per second", f"{s['games_per_second']:,.0f}"),
    ]
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"  {k:<{width}}  {v}")


# ---------------------------------------------------------------------------
# play
# ---------------------------------------------------------------------------

_KIND_NAMES = {
    "PASS": "pass", "SOLO": "solo", "PAIR": "pair", "TRIO": "trio",
    "TRIO_SOLO": "trio+solo", "TRIO_PAIR": "trio+pair", "CHAIN": "chain",
    "PAIR_CHAIN": "pair chain", "AIRPLANE": "airplane", "AIRPLANE_SOLO": "airplane+solos",
    "AIRPLANE_PAIR": "airplane+pairs", "FOUR_TWO_SOLO": "four+two solos",
    "FOUR_TWO_PAIR": "four+two pairs", "BOMB": "bomb", "ROCKET": "rocket",
}

_PLAY_HELP = """Type the cards of a move (e.g. 7, 22, KK, 3-4-5-6-7, 10 10 J J Q Q; jokers
B/R or X/D), or 'pass', or '#' and the number of a choice (#3 picks the choice
listed as #3).  Digits without '#' are always cards: 7 is the solo seven and 22
the pair of twos, never a choice number.  In the auction, where there are no
cards to type, a plain number picks the choice too (3 bids 3).  When the same
cards make two kinds of move, choose by number.  'hand' shows the table again,
'quit' leaves."""

# A choice number: '#' and ASCII digits (str.isdigit() also accepts '²' and
# '①', which int() refuses); a few digits at most, so int() never meets one of
# the over-long strings it refuses either.
_CHOICE = re.compile(r"#\s*([0-9]{1,6})", re.ASCII)
_PLAIN_NUMBER = re.compile(r"([0-9]{1,6})", re.ASCII)


class _Quit(Exception):
    pass


def _spaced(counts: Iterable[int]) -> str:
    from .cards import RANKS

    groups = [RANKS[r] * int(c) for r, c in enumerate(counts) if c]
    return " ".join(groups) if groups else "(none)"


def _choice_numbers(options: "_Options") -> str:
    """The listed choice numbers as the player types them: ``#1..#9`` when
    they run without a gap, else each (``#0, #2 or #3``: bids skip the ones
    below the highest bid)."""
    keys = sorted(options)
    if keys == list(range(keys[0], keys[-1] + 1)):
        return f"one of #{keys[0]}..#{keys[-1]}" if len(keys) > 1 else f"#{keys[0]}"
    return ", ".join(f"#{k}" for k in keys[:-1]) + f" or #{keys[-1]}"


def _action_text(a: object) -> str:
    from ._core.move import Move

    if isinstance(a, Move):
        return "pass" if a.is_pass else f"{a} ({_KIND_NAMES[a.kind.name]})"   # (wild: cards=reading)
    return str(a)


class _Human:
    """Reads the person's choices from stdin; never raises on bad input."""

    rules: Rules          # set by _cmd_play

    def __init__(self, seat: int, names: List[str]) -> None:
        self.seat = seat
        self.names = names

    def _read(self, prompt: str) -> str:
        while True:
            sys.stdout.write(prompt)
            sys.stdout.flush()
            try:
                line = sys.stdin.readline()
            except UnicodeDecodeError:
                print("   (could not read that input; please type plain text)")
                continue
            if line == "":
                raise EOFError
            return line.strip()

    def _show(self, obs: Observation) -> None:
        n = len(obs.hand_sizes)
        print()
        role = ""
        if obs.landlord is not None:
            role = " - you are the LANDLORD" if obs.landlord == self.seat else " - you are a farmer"
        print(f"== Your turn ({self.names[self.seat]}){role} ==")
        if obs.landlord is not None:
            kitty = cast(np.ndarray, obs.kitty)       # revealed once the landlord is known
            print(f"   landlord: {self.names[obs.landlord]}   kitty: {_spaced(kitty)}"
                  f"   stake: {obs.base << (obs.bombs + obs.doubles)}"
                  f" (base {obs.base}, bombs {obs.bombs}" + (f", doubles {obs.doubles}" if obs.doubles else "") + ")")
        if obs.landlord is None and obs.history:
            print("   auction so far: " + ", ".join(f"{self.names[s]} {_action_text(a)}" for s, a in obs.history))
        others = "   ".join(f"{self.names[s]}: {obs.hand_sizes[s]}" for s in range(n) if s != self.seat)
        print(f"   cards left: {others}")
        if obs.wild is not None:
            print("   wild: " + " ".join(RANK_LABELS[r] for r in obs.wild)
                  + "  (a move with a wild standing in prints as cards=reading)")
        if obs.last_move is not None:
            by = cast(int, obs.last_player)           # set whenever last_move is
            print(f"   to beat: {_action_text(obs.last_move)} by {self.names[by]}")
        elif obs.phase.name == "PLAY":
            print("   you lead")
        print(f"   your hand: {_spaced(obs.hand)}")

    def _options(self, obs: Observation) -> _Options:
        from ._core.move import Move
        from .game import Bid

        acts = cast(Sequence[Any], obs.legal_actions)   # a MoveList or auction actions
        if acts and isinstance(acts[0], Move):
            leading = obs.last_move is None
            return {i + (1 if leading else 0): a for i, a in enumerate(acts)}
        if acts and isinstance(acts[0], Bid):
            return {a.value: a for a in acts}
        return {i: a for i, a in enumerate(acts)}

    def _list(self, options: _Options) -> None:
        from ._core.move import Move

        by_kind: Dict[str, List[str]] = {}
        for key, a in options.items():
            label = a.kind.name if isinstance(a, Move) else "choices"
            text = ("pass" if a.is_pass else str(a)) if isinstance(a, Move) else str(a)
            by_kind.setdefault(label, []).append(f"#{key} {text}")
        for label, items in by_kind.items():
            name = _KIND_NAMES.get(label, label)
            line, lines = "", []
            for it in items:
                if line and len(line) + len(it) > 66:
                    lines.append(line)
                    line = ""
                line = f"{line}  {it}" if line else it
            lines.append(line)
            print(f"   {name + ':':<16}{lines[0]}")
            for extra in lines[1:]:
                print(f"   {'':<16}{extra}")

    def __call__(self, obs: Observation) -> object:
        from ._core.move import Move
        from .cards import to_counts

        self._show(obs)
        options = self._options(obs)
        self._list(options)
        while True:
            text = self._read("your choice> ")
            low = text.lower()
            if not text:
                continue
            if low in ("q", "quit", "exit"):
                raise _Quit
            if low in ("h", "help", "?"):
                print(_PLAY_HELP)
                continue
            if low in ("hand", "show", "table"):
                self._show(obs)
                self._list(options)
                continue
            is_move = isinstance(next(iter(options.values())), Move)
            number = _CHOICE.fullmatch(low) or (None if is_move else _PLAIN_NUMBER.fullmatch(low))
            if number is not None:
                k = int(number.group(1))
                if k in options:
                    return options[k]
                print(f"   #{k} is not a choice now; choose {_choice_numbers(options)}")
                continue
            if low.startswith("#"):
                print(f"   {text!r} is no choice number: type '#' and the number of a listed choice, "
                      f"{_choice_numbers(options)}")
                continue
            # text of an action: 'pass', 'bid 2', 'call', ... or card text
            for a in options.values():
                if _action_text(a).split(" (")[0] == low or (not isinstance(a, Move) and str(a) == low):
                    return a
            if not is_move:
                print("   not a choice here; type its number (or 'help')")
                continue
            # Digits typed for a choice number read as cards: say how to pick it.
            plain = _PLAIN_NUMBER.fullmatch(low)
            hint = f" (to pick choice #{low}, type #{low})" if plain and int(low) in options else ""
            cards, sep, reading = text.partition("=")
            try:
                counts = tuple(int(c) for c in to_counts(cards, rules=self.rules))
                rep = tuple(int(c) for c in to_counts(reading, rules=self.rules)) if sep else None
            except (ValueError, TypeError) as e:
                print(f"   {e}{hint}")
                continue
            hits = [(k, a) for k, a in options.items()
                    if a.counts == counts and not a.is_pass and (rep is None or a.represents == rep)]
            if len(hits) == 1:
                return hits[0][1]
            if hits:
                print("   those cards make more than one move; choose by number: "
                      + "  ".join(f"#{k} {_action_text(a)}" for k, a in hits))
            else:
                print(f"   {text!r} is not a legal move now{hint} (type 'hand' to see the choices)")


def _cmd_play(args: argparse.Namespace) -> int:
    from .arena import AgentError, observation_agent
    from .game import Session

    rules = _selfplay_rules(args)
    n = rules.players
    if not 0 <= args.seat < n:
        raise ValueError(f"--seat must be 0..{n - 1}")
    if args.deals < 1:
        raise ValueError("--deals must be >= 1")
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())         # module:attribute agents, as for the arena
    names = [("you" if s == args.seat else f"bot {s}") for s in range(n)]
    human = _Human(args.seat, names)
    human.rules = rules
    session = Session(rules, seed=args.seed)
    bot = observation_agent(args.opponent, seed=session.seed, rules=rules)
    kind = "simple bots" if args.opponent in ("simple", "bot") else f"{args.opponent} bots"
    print(f"ddz-fast play: you are seat {args.seat} against {n - 1} {kind}; rules {rules.name!r} "
          f"({rules.auction} auction); session seed {session.seed}.  Type 'help' for help.")
    try:
        for deal in range(args.deals):
            g = session.new_game()
            print(f"\n=== Deal {deal + 1} (game seed {g.seed}) ===")
            print(f"Your hand: {_spaced(g.hand(args.seat))}")
            seen_redeals = 0
            shown_kitty = False
            while not g.is_over:
                s = g.to_move
                assert s is not None          # the game is not over
                obs = g.observation(s)
                if s == args.seat:
                    a = human(obs)
                else:
                    try:
                        a = bot(obs)
                    except Exception as e:
                        raise AgentError(f"agent {args.opponent!r} raised {type(e).__name__}: {e}") from e
                g.step(a)
                if g.deal_number != seen_redeals:
                    seen_redeals = g.deal_number
                    print(f"{names[s]}: {_action_text(a)}")
                    print(f"-- everybody passed: redeal #{seen_redeals} --")
                    print(f"Your hand: {_spaced(g.hand(args.seat))}")
                    continue
                print(f"{names[s]}: {_action_text(a)}")
                if g.kitty_revealed and not shown_kitty:
                    shown_kitty = True
                    landlord = cast(int, g.landlord)      # known once the kitty is revealed
                    who = "you are" if landlord == args.seat else f"{names[landlord]} is"
                    print(f"-- {who} the landlord (base {g.base}); the kitty: {_spaced(cast(np.ndarray, g.kitty))} --")
            r = session.record(g)
            who = "the landlord wins" if r.landlord_won else "the farmers win"
            extra = {0: "", 1: ", spring", 2: ", anti-spring"}[r.spring]
            print(f"\n=== Deal {deal + 1} over: {names[r.winner]} went out; {who} "
                  f"(stake {r.value}: base {r.base}, bombs {r.bombs}{extra}"
                  + (f", doubles {r.doubles}" if r.doubles else "") + ") ===")
            print("   scores: " + "   ".join(f"{names[i]} {d:+d}" for i, d in enumerate(r.scores)))
            print("   totals: " + "   ".join(f"{names[i]} {t:+d}" for i, t in enumerate(session.totals)))
    except EOFError:
        print("\n(input ended - bye)")
        return 0
    except _Quit:
        print("(bye)")
        return 0
    except KeyboardInterrupt:
        print("\n(interrupted - bye)")
        return 130
    except BrokenPipeError:
        # stdout went away (e.g. piped into head): leave quietly.
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    return 0


# ---------------------------------------------------------------------------
# serve
# ---------------------------------------------------------------------------

_LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        from .web import create_app
    except ImportError as e:
        raise ImportError(f"ddz-fast serve needs the web extra: pip install \"ddz-fast[web]\" ({e})") from None
    import uvicorn

    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be 0..65535, not {args.port}")
    if args.host not in _LOOPBACK:
        print(f"ddz-fast serve: warning: listening on {args.host}, not on loopback: anyone who can reach "
              "this machine can use the app (it has no login)", file=sys.stderr)
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())         # module:attribute agents, as for the arena
    app = create_app(args.agents or (), replays=args.replay or ())
    print(f"ddz-fast serve: open http://{'[' + args.host + ']' if ':' in args.host else args.host}:{args.port}/",
          file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def _cmd_train(args: argparse.Namespace) -> int:
    try:
        from .train.dmc import TrainConfig, train
    except ImportError as e:
        raise ImportError(f"ddz-fast train needs the train extra: pip install \"ddz-fast[train]\" ({e})") from None
    if args.plot:
        from ._util.plot import require_matplotlib
        require_matplotlib()
    cfg = TrainConfig(frames=args.frames, out=args.out, auction=args.auction, lstm_size=args.lstm_size,
                      hidden_size=args.hidden_size, bid_hidden=args.bid_hidden, actors=args.actors,
                      tables=args.tables, batch_size=args.batch_size, unroll_length=args.unroll_length,
                      learning_rate=args.lr, bid_learning_rate=args.bid_lr, epsilon=args.epsilon,
                      bid_epsilon=args.bid_epsilon, seed=args.seed, device=args.device, threads=args.threads,
                      actor_precision=args.actor_precision,
                      save_every=args.save_every, snapshot_every=args.snapshot_every, eval_deals=args.eval_deals)
    evaluate = None
    if args.eval_deals:
        from .train.evaluate import wp_vs_simple

        def evaluate(directory: str) -> Any:
            return wp_vs_simple(directory, deals=args.eval_deals, seed=args.seed)
    try:
        stats = train(cfg, resume=args.resume, progress=False if args.quiet else None, evaluate=evaluate)
    except KeyboardInterrupt:
        print(f"ddz-fast train: interrupted; checkpoint written in {args.out} (--resume continues it)",
              file=sys.stderr)
        return 130
    print(f"ddz-fast train: {stats.frames:,} frames ({stats.actor_frames:,} actor decisions, {stats.deals:,} deals) "
          f"in {stats.seconds / 3600:.2f} h; checkpoints in {args.out}")
    if args.plot:
        from .train.evaluate import plot_log
        plot_log(args.out, args.plot)
    return 0


def build_parser() -> argparse.ArgumentParser:
    from .arena import LANDLORD_MODES
    p = argparse.ArgumentParser(prog="ddz-fast", description="Fast, exact Dou Dizhu move generation.")
    p.add_argument("--version", action="version", version=f"ddz-fast {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    m = sub.add_parser("moves", help="list the legal moves of a hand")
    m.add_argument("hand", help="the hand as card text, e.g. 33445566778899TTJJ")
    m.add_argument("--last", help="the move to beat, as card text (default: a free lead)")
    m.add_argument("--last-kind", help="kind of --last when its cards are ambiguous, e.g. AIRPLANE_SOLO")
    m.add_argument("--rules", default="standard", choices=list(PRESETS), help="rules preset")
    m.add_argument("--wild", help="the wild rank(s) under --rules laizi or tiandi, as card text: 7, or 79 "
                                  "(moves print as cards=reading; --last takes that form too)")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.set_defaults(func=_cmd_moves)

    sp = sub.add_parser("selfplay", help="play many seeded random games in compiled code and summarise them")
    sp.add_argument("--games", type=int, default=10000, help="number of games (default 10000)")
    sp.add_argument("--rules", default="standard", choices=list(PRESETS), help="rules preset")
    sp.add_argument("--auction", choices=AUCTIONS, help="override the preset's auction")
    sp.add_argument("--seed", type=int, default=0, help="run seed (default 0); game i's seed derives from it")
    sp.add_argument("--threads", type=int, default=1, help="worker threads (results do not depend on it)")
    sp.add_argument("--json", action="store_true", help="print the summary as JSON")
    sp.add_argument("-q", "--quiet", action="store_true", help="no progress bar (shown on a terminal)")
    sp.add_argument("--record", metavar="DIR",
                    help="write every step as a Parquet trajectory dataset in DIR (needs pyarrow)")
    from .trajectories import COMPRESSIONS, OBSERVATION_TYPES, POLICIES
    sp.add_argument("--policy", choices=POLICIES, default="random",
                    help="with --record: who plays every seat (default random)")
    sp.add_argument("--tables", type=int, default=1024, help="with --record: tables stepped together")
    sp.add_argument("--shard-games", type=int, default=100_000, help="with --record: about this many games a file")
    sp.add_argument("--observation-type", choices=OBSERVATION_TYPES, default="binary",
                    help="with --record: how observations are stored (default binary)")
    sp.add_argument("--compression", default=COMPRESSIONS[0], choices=COMPRESSIONS,
                    help=f"with --record: Parquet compression (default {COMPRESSIONS[0]})")
    sp.add_argument("--overwrite", action="store_true", help="with --record: replace a dataset in DIR")
    sp.add_argument("--independent-shards", action="store_true",
                    help="with --record: each file a seeded run of its own (what --ray records)")
    sp.add_argument("--ray", metavar="ADDRESS",
                    help="with --record: record the shards as Ray tasks (auto, local or an address)")
    sp.set_defaults(func=_cmd_selfplay)

    pl = sub.add_parser("play", help="play against bots in the terminal (simple bots by default)")
    pl.add_argument("--seed", type=int, default=None, help="session seed (default: random)")
    pl.add_argument("--rules", default="standard", choices=list(PRESETS), help="rules preset")
    pl.add_argument("--auction", choices=AUCTIONS, help="override the preset's auction")
    pl.add_argument("--deals", type=int, default=1, help="deals to play (default 1)")
    pl.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    pl.add_argument("--opponent", default="simple", metavar="AGENT",
                    help="the bots: an arena agent (simple, random, pimc, douzero:DIR with --rules douzero, "
                         "module:attribute); default simple")
    pl.set_defaults(func=_cmd_play)

    so = sub.add_parser("solve", help="who wins an open-hand endgame, and a winning line")
    so.add_argument("hands", nargs="+", metavar="HAND",
                    help="the hands as card text (two for the puzzle; one per seat with --landlord)")
    so.add_argument("--first", type=int, default=1, help="the hand that moves first (1-based, default 1)")
    so.add_argument("--ban", action="append", metavar="KIND",
                    help="a kind nobody may play, e.g. TRIO_PAIR (repeatable)")
    so.add_argument("--landlord", type=int, help="the landlord's hand (1-based): the landlord against the farmers")
    so.add_argument("--last", help="the move on the table, as card text")
    so.add_argument("--last-kind", help="kind of --last when its cards are ambiguous")
    so.add_argument("--last-by", type=int, help="the hand that played --last (default: the one before --first)")
    so.add_argument("--rules", default="standard", choices=list(PRESETS), help="rules preset")
    so.add_argument("--wild", help="the wild rank(s) under --rules laizi or tiandi, as card text: 7, or 79")
    so.add_argument("--max-time", type=float, default=60.0, help="seconds before giving up (default 60)")
    so.add_argument("--table-mb", type=float, default=256.0, help="transposition table size in MiB (default 256)")
    so.set_defaults(func=_cmd_solve)

    ar = sub.add_parser("arena", help="agents against each other on duplicate deals: WP and ADP with 95%% CIs")
    ar.add_argument("agents", nargs="+", metavar="AGENT",
                    help="random, simple, pimc, douzero:DIR (DouZero's checkpoints, with --rules douzero), "
                         "or module:attribute (2 agents, or one per seat)")
    ar.add_argument("--deals", type=int, default=1000, help="duplicate deals (default 1000)")
    ar.add_argument("--seed", type=int, default=0, help="run seed (default 0): deal k is game_seed(seed, k)")
    ar.add_argument("--rules", default="standard", choices=list(PRESETS), help="rules preset")
    ar.add_argument("--auction", choices=AUCTIONS, help="override the preset's auction")
    ar.add_argument("--landlord", choices=LANDLORD_MODES, default="fixed",
                    help="fixed: the deal's first bidder is landlord, no auction (default); auction: the agents bid")
    ar.add_argument("--tables", type=int, default=256, help="games played at once (default 256)")
    ar.add_argument("--ray", metavar="ADDRESS",
                    help="run on Ray: auto, local, or a cluster address (needs the ray extra)")
    ar.add_argument("--plot", metavar="FILE", help="write a figure of WP/ADP and their convergence (matplotlib)")
    ar.add_argument("--per-deal", metavar="FILE.csv",
                    help="write one row per deal (its seed, each agent's points and wins) as CSV")
    ar.add_argument("--save-games", metavar="FILE.jsonl",
                    help="write every game as one JSON line (docs/web.md: replay it with ddz-fast serve)")
    ar.add_argument("--json", action="store_true", help="print the results as JSON")
    ar.add_argument("-q", "--quiet", action="store_true", help="no progress bar (shown on a terminal)")
    ar.set_defaults(func=_cmd_arena)

    tr = sub.add_parser("train", help="train card play and bidding by Deep Monte-Carlo, as DouZero (the train extra)")
    tr.add_argument("--frames", type=int, required=True, help="card-play frames to learn from (DouZero's count)")
    tr.add_argument("--out", required=True, metavar="DIR",
                    help="checkpoints, log.csv and train.json (DouZero's .ckpt layout plus bidder.ckpt)")
    tr.add_argument("--resume", action="store_true", help="continue the run in DIR")
    tr.add_argument("--auction", choices=TRAIN_AUCTIONS, default="both",
                    help="the auction the bidder learns (default both: half the tables each; none: card "
                         "play alone on DouZero's deals, the first bidder the landlord, no bidder)")
    tr.add_argument("--lstm-size", type=int, default=64, help="LSTM size (default 64; DouZero's is 128)")
    tr.add_argument("--hidden-size", type=int, default=128, help="dense layer size (default 128; DouZero's is 512)")
    tr.add_argument("--bid-hidden", type=int, default=256, help="the bidding network's layer size (default 256)")
    tr.add_argument("--actors", type=int, default=1,
                    help="actor processes (default 1; 0: one actor in the learner's process)")
    tr.add_argument("--tables", type=int, default=256, help="tables each actor steps together (default 256)")
    tr.add_argument("--batch-size", type=int, default=32, help="DouZero's batch size (default 32)")
    tr.add_argument("--unroll-length", type=int, default=100,
                    help="DouZero's unroll length (default 100): a batch is batch size x unroll length frames")
    tr.add_argument("--lr", type=float, default=1e-4, help="card-play learning rate (RMSprop, default 1e-4)")
    tr.add_argument("--bid-lr", type=float, default=1e-4, help="bidding learning rate (default 1e-4)")
    tr.add_argument("--epsilon", type=float, default=0.01, help="card-play exploration (default 0.01)")
    tr.add_argument("--bid-epsilon", type=float, default=0.1, help="auction exploration (default 0.1)")
    tr.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    tr.add_argument("--device", default="cpu", help="torch device of the learner (default cpu; e.g. cuda)")
    tr.add_argument("--threads", type=int, default=1, help="torch threads per process (default 1)")
    tr.add_argument("--actor-precision", choices=ACTOR_PRECISIONS, default="float32",
                    help="the actors' card-play networks: float32 (default, the learner's own) or a bfloat16 "
                         "copy, about 1.5x the decisions a second on CPUs with bfloat16 instructions")
    tr.add_argument("--save-every", type=float, default=300.0, help="seconds between checkpoints (default 300)")
    tr.add_argument("--snapshot-every", type=int, default=0, metavar="FRAMES",
                    help="also keep the networks every FRAMES frames in DIR/snapshots (default 0: never)")
    tr.add_argument("--eval-deals", type=int, default=200, metavar="N",
                    help="at each checkpoint, WP against the simple bot on N duplicate deals, logged and shown "
                         "on the progress bar (default 200; 0: off)")
    tr.add_argument("--plot", metavar="FILE.png", help="at the end, plot log.csv (matplotlib)")
    tr.add_argument("-q", "--quiet", action="store_true", help="no progress bar (shown on a terminal)")
    tr.set_defaults(func=_cmd_train)

    se = sub.add_parser("serve", help="a local web app: play against agents, watch replays (the web extra)")
    se.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, loopback)")
    se.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    se.add_argument("--agents", nargs="+", metavar="AGENT",
                    help="more opponents besides the levels: arena agent names, e.g. pimc(worlds=64) or "
                         "module:attribute")
    se.add_argument("--replay", action="append", metavar="PATH",
                    help="a file of game records (arena --save-games) or a trajectory dataset to watch "
                         "(repeatable)")
    se.set_defaults(func=_cmd_serve)
    return p


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        func: Callable[[argparse.Namespace], int] = args.func
        return func(args)
    except BrokenPipeError:
        # The reader went away (``ddz-fast ... | head``): not an error of ours.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (ValueError, TypeError, ImportError, OSError) as e:
        # (OSError: a file named on the command line that cannot be written,
        # a Ray cluster address where nothing answers)
        print(f"ddz-fast: error: {e}", file=sys.stderr)
        return 2
    except RuntimeError as e:
        # an arena agent's own code failed (an agent named on the command
        # line is input like any other); anything else is ours: re-raised
        from .arena import AgentError
        if not isinstance(e, AgentError):
            raise
        print(f"ddz-fast: error: {e}", file=sys.stderr)
        return 2
    except MemoryError:
        print("ddz-fast: error: out of memory (ask for fewer games or deals)", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
