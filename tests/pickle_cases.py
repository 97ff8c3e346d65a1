"""The objects of the pickle-compatibility test and how each is described as
plain data (ints, strings, tuples), so that a pickle written by one release
can be checked against what that release said the object was.

``tests/data/pickles/make_pickles.py`` writes ``ddz_fast-<version>.pickle``
with the release installed: a list of ``(name, object, description)``.
``tests/test_pickle_compat.py`` loads every such file with today's code and
compares ``describe(object)`` with the stored description.
"""
from __future__ import annotations

import dataclasses
import enum

import numpy as np


def _plain(x):
    """x as nested tuples of plain values (arrays, dataclasses, enums...)."""
    if isinstance(x, enum.Enum):
        return (type(x).__name__, x.name)
    if isinstance(x, np.ndarray):
        return ("array", str(x.dtype), x.shape, tuple(x.ravel().tolist()))
    if isinstance(x, (list, tuple)):
        return tuple(_plain(v) for v in x)
    if isinstance(x, dict):
        return tuple(sorted((str(k), _plain(v)) for k, v in x.items()))
    if isinstance(x, (np.integer, np.bool_, np.floating)):
        return x.item()
    if type(x).__name__ == "Rules":
        return _describe_object(x)
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (type(x).__name__, _plain(dataclasses.asdict(x)))
    if x is None or isinstance(x, (bool, int, float, str, bytes)):
        return x
    return _describe_object(x)


def _move(m):
    return ("Move", m.kind.name, tuple(int(c) for c in m.counts), m.rank, m.length, str(m))


_ADDED_SINCE_0_1_0 = {"wild": "none", "bomb_doubling": "all"}


def _describe_object(x):
    import ddz_fast as d

    if isinstance(x, d.Move):
        return _move(x)
    if isinstance(x, d.MoveList):
        return ("MoveList", x.rules.name if hasattr(x, "rules") else None, tuple(_move(m) for m in x))
    if isinstance(x, d.MoveBatch):
        return ("MoveBatch", tuple(tuple(_move(m) for m in x[i]) for i in range(len(x))))
    if isinstance(x, d.Rules):
        # Options added after 0.1.0 are described only away from their
        # defaults (what 0.1.0 played), so that its descriptions still compare.
        return ("Rules", _plain({k: v for k, v in dataclasses.asdict(x).items()
                                 if _ADDED_SINCE_0_1_0.get(k, object()) != v}))
    if isinstance(x, d.Game):
        acts = x.legal_actions()
        return ("Game", x.rules.name, x.seed, x.deal_number, x.phase.name, x.to_move, x.landlord,
                _plain(x.hands), _plain(x.kitty), x.base, x.bombs, x.doubles, x.plies, x.passes,
                x.last_player, _plain(x.last_move), tuple(str(a) for a in acts),
                tuple((seat, str(a)) for seat, a in x.history),
                _plain(x.result) if x.is_over else None)
    if isinstance(x, d.SplitMix64):
        return ("SplitMix64", repr(x))
    if isinstance(x, d.ActionSpace):
        return ("ActionSpace", x.rules.name, x.size)
    if isinstance(x, d.PIMCAgent):
        # (options added after 0.1.0 described only away from their defaults)
        return ("PIMCAgent", repr(x).replace(", candidates='auto'", "").replace(", time_budget=None", ""))
    if isinstance(x, d.PlayoutResults):
        return ("PlayoutResults", x.rules.name, x.seed, x.first_game, _plain(x.as_dict()))
    if isinstance(x, d.Solver):
        return ("Solver", x.table_mb)
    if callable(x) and hasattr(x, "__name__"):
        return ("function", x.__name__)
    if isinstance(x, d.AuctionAction):
        return ("AuctionAction", type(x).__name__, str(x))
    return (type(x).__name__, repr(x))


def describe(x):
    """The plain-data description of ``x`` (see the module docstring)."""
    return _plain(x)


def cases():
    """(name, object) pairs: every kind of value a user pickles."""
    import ddz_fast as d

    out = []
    out.append(("PASS", d.PASS))
    for text in ["3", "55", "777", "7778", "77788", "34567", "334455", "8888", "BR",
                 "333444", "33344456", "3334448899", "88883456", "888833JJ", "TJQKA2"[:-1]]:
        for m in d.classify(text):
            out.append((f"Move {text} {m.kind.name}", m))
    out.append(("Move strict", d.classify("8888", rules="strict")[0]))
    hand = d.to_counts("3345566778899TJQKA22BR")
    out.append(("MoveList lead", d.legal_moves(hand)))
    out.append(("MoveList response", d.legal_moves(hand, d.classify("TT")[0])))
    out.append(("MoveList empty response", d.legal_moves(d.to_counts("3"), d.classify("BR")[0])))
    out.append(("MoveList four", d.legal_moves(d.to_counts("33334444BBRR", rules="four"), rules="four")))
    hands = np.stack([d.to_counts("345678"), d.to_counts("2222"), d.to_counts("BR33")])
    out.append(("MoveBatch", d.legal_moves_batch(hands)))
    for name in sorted(d.PRESETS):
        out.append((f"Rules {name}", d.resolve_rules(name)))
    out.append(("Rules custom", d.Rules(name="custom")))
    out.append(("Kind", d.Kind.AIRPLANE))
    rng = d.SplitMix64(12345)
    for _ in range(3):
        rng.next()
    out.append(("SplitMix64", rng))
    for name in ("standard", "strict", "four"):
        out.append((f"ActionSpace {name}", d.action_space(name)))
    # Games: dealt, mid-auction, in play, finished, from a position, redealt.
    g = d.Game("standard", seed=7)
    out.append(("Game new", g.clone()))
    g.step(g.legal_actions()[1])           # a bid of 1
    out.append(("Game mid-auction", g.clone()))
    while g.phase != d.Phase.PLAY:
        g.step(g.legal_actions()[-1])      # the highest bid, or a double
    out.append(("Game kitty taken", g.clone()))
    for _ in range(7):
        g.step(g.legal_actions()[len(g.legal_actions()) // 2])
    out.append(("Game in play", g.clone()))
    while not g.is_over:
        g.step(g.legal_actions()[-1])
    out.append(("Game over", g.clone()))
    for preset, seed in (("strict", 3), ("four", 11)):
        g = d.Game(preset, seed=seed)
        while g.phase != d.Phase.PLAY:
            g.step(g.legal_actions()[-1])
        for _ in range(5):
            g.step(g.legal_actions()[-1])
        out.append((f"Game {preset}", g.clone()))
    p = d.Game.from_position(["3456789", "TT", "JJ"], landlord=0, to_move=1,
                             last=d.classify("99")[0], last_player=0)
    out.append(("Game position", p.clone()))
    p.step(p.legal_actions()[-1])
    out.append(("Game position stepped", p.clone()))
    out.append(("PIMCAgent", d.PIMCAgent(8, seed=3)))
    out.append(("Solver", d.Solver(16)))
    out.append(("PlayoutResults", d.play_random_games(5, rules="strict", seed=4)))
    out.append(("Bid", d.Bid(2)))
    out.append(("auction constants", (d.BID_PASS, d.CALL, d.ROB, d.DECLINE, d.DOUBLE, d.NO_DOUBLE)))
    out.append(("Phase", d.Phase.DOUBLING))
    out.append(("entry points", (d.legal_moves, d.classify, d.beats, d.count_moves, d.parse_move,
                                 d.legal_moves_batch)))
    return out
