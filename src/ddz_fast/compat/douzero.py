"""DouZero compatibility: its legal card-play actions, computed by ddz-fast.

DouZero (``douzero.env.game.GameEnv``) lists a player's legal actions in pure
Python.  :func:`listed_actions` gives exactly that list (the same actions in
the same order, repeats included) from compiled code, and :func:`accelerate`
makes ``GameEnv.get_legal_card_play_actions`` use it, so that a model trained
on the accelerated env sees the very lists DouZero would give it::

    import ddz_fast.compat.douzero as dz
    dz.accelerate()          # every GameEnv now lists its actions with ddz-fast
    ...
    dz.restore()             # back to DouZero's own generator

Cards are DouZero's ints: 3..14 for 3..A, 17 for 2, 20 and 30 for the low and
high joker.  An action is a list of them in ascending order; ``[]`` is a pass.

The rules' legal actions
------------------------
:func:`legal_actions` gives the same actions from the move kernels under
the ``douzero`` preset.  It equals DouZero's own list *as a set*: each
action once (DouZero
lists some airplanes and fours-with-two more than once) and in ddz-fast's
move order (PASS last, as DouZero puts it) instead of DouZero's.

DouZero ranks an airplane with singles by the highest rank held three times
in it, kickers included, so ``555666777+999`` counts as a 9 there and as a 7
in the rules; and it cannot classify some airplanes it generates itself
(``333444555666+7777``, ``333444555666777+8``), answering them with bombs
only.  In those situations (an airplane with singles of three or more trios
on the table, and the table or the hand holding more three-of-a-kind ranks
than the airplane has trios) :func:`legal_actions` calls DouZero's own code
(the installed package; :func:`legal_actions` raises ImportError there if it
is missing), so the result stays exactly DouZero's.  How often that happens
is measured in ``benchmarks/compare.py``; in random games it is rare.

DouZero's own list and features
-------------------------------
:func:`listed_actions` is DouZero's list itself, compiled: the same actions
in the same order, repeats included, DouZero's reading of the move to beat
included.  :func:`get_obs` is a drop-in for ``douzero.env.env.get_obs``
(bit-exact arrays, same shapes and dtypes), :func:`game_obs` gives the same
dict for a :class:`~ddz_fast.Game` under the ``douzero`` preset,
:func:`observation_obs` for a player's :class:`~ddz_fast.Observation` of one,
and
:class:`VecFeatures` fills them for every table of a
:class:`~ddz_fast.VecGame` at once, without the GIL (docs/douzero.md).
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, cast

import numpy as np

from .._engine.douzero import POSITIONS, X_SIZES, VecFeatures, game_obs, listed_actions, obs_from_lists
from .._core.entry import classify, legal_moves
from .._core.move import Move
from ..convert import DOUZERO_CARDS, counts_to_douzero, douzero_to_counts
from ..game_values import Observation, Phase
from ..kinds import Kind
from ..rules import PRESETS

__all__ = [
    "DOUZERO_CARDS", "POSITIONS", "X_SIZES", "legal_actions", "listed_actions", "get_obs", "game_obs",
    "observation_obs", "VecFeatures", "accelerate", "restore", "is_accelerated",
]

_RULES = PRESETS["douzero"]
_original: Optional[Callable[[Any], List[List[int]]]] = None


_CACHE: Dict[Tuple[int, ...], "np.ndarray[Any, np.dtype[np.uint8]]"] = {}
_CACHE_SIZE = 1 << 16


def _counts(cards: Sequence[int]) -> "np.ndarray[Any, np.dtype[np.uint8]]":
    """Counts of a DouZero card list (read-only; cached, since a game keeps
    answering the same moves)."""
    try:
        key = tuple(cards)
        hit = _CACHE.get(key)
    except TypeError:  # unhashable cards: douzero_to_counts names the bad one
        key, hit = (), None
    if hit is not None and all(type(v) is int for v in key):
        return hit
    counts = douzero_to_counts(cards)
    counts.setflags(write=False)
    if key:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        _CACHE[key] = counts
    return counts


def _needs_douzero(last_kind: int, length: int, last: np.ndarray, hand: np.ndarray) -> bool:
    """Is this one of the situations where DouZero's airplane ranking or
    classification departs from the rules (see the module docstring)?"""
    if last_kind != Kind.AIRPLANE_SOLO or length < 3:
        return False
    return int((last >= 3).sum()) > length or int((hand >= 3).sum()) > length


def _douzero_own(hand: Sequence[int], rival: Sequence[int]) -> List[List[int]]:
    from douzero.env.game import GameEnv, InfoSet  # type: ignore[import-untyped,import-not-found,unused-ignore]

    env = GameEnv.__new__(GameEnv)
    env.acting_player_position = "landlord"
    env.info_sets = {"landlord": InfoSet("landlord")}
    env.info_sets["landlord"].player_hand_cards = list(hand)
    env.card_play_action_seq = [list(rival)]
    own = _original if _original is not None else GameEnv.get_legal_card_play_actions
    seen = set()
    out = []
    for action in own(env):
        key = tuple(action)
        if key not in seen:
            seen.add(key)
            out.append(sorted(action))
    return out


def legal_actions(hand: Sequence[int], rival_move: Sequence[int] = ()) -> List[List[int]]:
    """DouZero's legal actions for `hand` facing `rival_move` (``[]``: lead).

    The hand and the rival move are lists of DouZero ints.  Returns fresh
    lists, each action once; a pass (``[]``) is last and present whenever
    there is a rival move.
    """
    h = _counts(hand)
    if len(rival_move) == 0:
        return legal_moves(h, rules=_RULES).card_lists(DOUZERO_CARDS, unique=True)
    last_counts = _counts(rival_move)
    readings = classify(last_counts, rules=_RULES)
    if not readings:
        # DouZero never generates such a move; let it answer for itself.
        return _douzero_own(hand, rival_move)
    # Only an airplane of four trios also reads as an airplane with singles;
    # DouZero reads it as the plain airplane, which comes first in kind order.
    last = readings[0]
    if _needs_douzero(last.kind, last.length, last_counts, h):
        return _douzero_own(hand, rival_move)
    moves = legal_moves(h, last, rules=_RULES).card_lists(DOUZERO_CARDS)
    # legal_moves puts PASS first; DouZero puts it last.
    moves.append(moves.pop(0))
    return moves


def _get_legal_card_play_actions(self: Any) -> List[List[int]]:
    # Mirrors GameEnv.get_legal_card_play_actions: the rival move is the last
    # action, or the one before it when the last is a pass.
    hand = self.info_sets[self.acting_player_position].player_hand_cards
    seq = self.card_play_action_seq
    rival: Sequence[int] = []
    if len(seq) != 0:
        rival = seq[-2] if len(seq[-1]) == 0 else seq[-1]
    return listed_actions(hand, rival)


def accelerate() -> None:
    """Make DouZero's ``GameEnv.get_legal_card_play_actions`` use ddz-fast:
    :func:`listed_actions`, DouZero's own list (same actions, same order,
    repeats included), compiled.

    Patches the class in the installed ``douzero`` package (every instance,
    existing and future).  Calling it twice is harmless; :func:`restore`
    undoes it.
    """
    global _original
    from douzero.env.game import GameEnv  # type: ignore[import-untyped,import-not-found,unused-ignore]

    if _original is None:
        _original = GameEnv.get_legal_card_play_actions
        GameEnv.get_legal_card_play_actions = _get_legal_card_play_actions


def restore() -> None:
    """Undo :func:`accelerate` (no effect when not accelerated)."""
    global _original
    if _original is not None:
        from douzero.env.game import GameEnv  # type: ignore[import-untyped,import-not-found,unused-ignore]

        GameEnv.get_legal_card_play_actions = _original
        _original = None


def is_accelerated() -> bool:
    """Is DouZero's GameEnv currently patched by :func:`accelerate`?"""
    return _original is not None


def get_obs(infoset: Any) -> Dict[str, Any]:
    """``douzero.env.env.get_obs(infoset)``, compiled: the same dict
    (``position``, ``x_batch``, ``z_batch``, ``legal_actions``,
    ``x_no_action``, ``z``) with bit-identical arrays of the same shapes and
    dtypes, rows in ``infoset.legal_actions`` order.

    ``infoset`` is anything with DouZero's ``InfoSet`` fields (it need not
    be DouZero's class); a missing field is a TypeError, a wrong card or
    count a ValueError naming the field.
    """
    try:
        pos = infoset.player_position
        played = infoset.played_cards
        last_moves = infoset.last_move_dict
        left = infoset.num_cards_left_dict
        fields = (infoset.player_hand_cards, infoset.other_hand_cards, infoset.last_move,
                  infoset.bomb_num, infoset.card_play_action_seq, infoset.legal_actions)
    except AttributeError as e:
        raise TypeError(f"get_obs needs a DouZero InfoSet: {e}") from None
    if type(pos) is not str:
        raise TypeError(f"player_position must be a str, not {type(pos).__name__}")
    for name, d in (("played_cards", played), ("last_move_dict", last_moves), ("num_cards_left_dict", left)):
        if not isinstance(d, dict):
            raise TypeError(f"{name} must be a dict by position, not {type(d).__name__}")
        for p in POSITIONS:
            if p not in d:
                raise ValueError(f"{name} has no entry for {p!r}")
    hand, other, last, bombs, seq, legal = fields
    return obs_from_lists(pos, hand, other, last, [played[p] for p in POSITIONS],
                          [last_moves[p] for p in POSITIONS], [left[p] for p in POSITIONS],
                          bombs, seq, legal)


def observation_obs(observation: Observation) -> Dict[str, Any]:
    """get_obs for the player of an :class:`~ddz_fast.Observation` of a
    dealt 3-player game in card play (``game.observation(seat)`` under the
    ``douzero`` preset): the same dict as :func:`game_obs` gives for the
    game when that player is to act, built from what the player sees (its
    hand, the unseen cards, the public history, the hand sizes)."""
    if not isinstance(observation, Observation):
        raise TypeError(f"observation_obs takes an Observation, not {type(observation).__name__}")
    o = observation
    if o.phase != Phase.PLAY:
        raise ValueError(f"the observation is in phase {Phase(o.phase).name}: DouZero's features describe "
                         "card play only")
    if len(o.hand_sizes) != 3 or o.landlord is None or o.unseen is None or o.played_cards is None:
        raise ValueError("DouZero's features need an observation of a dealt 3-player game")
    if o.wild is not None:
        raise ValueError("DouZero's features have no wild cards")

    def position(seat: int) -> int:
        # 0 landlord, then seat order: the next seat is landlord_down (2), the one after landlord_up (1)
        return (0, 2, 1)[(seat - cast(int, o.landlord)) % 3]

    seq: List[List[int]] = []
    last_moves: List[List[int]] = [[], [], []]
    for seat, action in o.history:
        if isinstance(action, Move):
            cards = counts_to_douzero(action.counts, rules=_RULES)
            seq.append(cards)
            last_moves[position(seat)] = cards
    rival: List[int] = []
    if seq:
        rival = seq[-2] if not seq[-1] and len(seq) >= 2 else seq[-1]
    hand = counts_to_douzero(o.hand, rules=_RULES)
    played: List[List[int]] = [[], [], []]
    left = [0, 0, 0]
    for seat in range(3):
        played[position(seat)] = counts_to_douzero(o.played_cards[seat], rules=_RULES)
        left[position(seat)] = int(o.hand_sizes[seat])
    return obs_from_lists(POSITIONS[position(o.player)], hand, counts_to_douzero(o.unseen, rules=_RULES),
                          rival, played, last_moves, left, int(o.bombs), seq, listed_actions(hand, rival))
