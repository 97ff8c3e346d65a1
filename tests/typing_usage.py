"""Typed use of the public API, checked by ``mypy --strict`` (CI's lint job
and tests/test_typing.py) and also run as a plain smoke test.

``assert_type`` pins what the stubs (src/ddz_fast/*.pyi) promise; at run time
the same lines check that the values really have those types.  Keep this
file short and typical of user code: what a type checker sees here is what
users see.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

import ddz_fast
from ddz_fast import (
    PASS,
    PRESETS,
    Kind,
    Move,
    MoveBatch,
    MoveList,
    Rules,
    beats,
    classify,
    count_moves,
    legal_moves,
    legal_moves_batch,
    parse_cards,
    parse_move,
)
from ddz_fast import reference as ref

if TYPE_CHECKING:
    from typing_extensions import assert_type
else:

    def assert_type(value: Any, _type: Any) -> Any:
        return value


def check_moves() -> None:
    hand = "3445678899TTJQKA22BR"
    moves = legal_moves(hand)
    assert_type(moves, MoveList)
    assert isinstance(moves, MoveList) and len(moves) > 0

    first = moves[0]
    assert_type(first, Move)
    assert isinstance(first, Move)
    some = moves[1:3]
    assert_type(some, list[Move])
    assert isinstance(some, list) and len(some) == 2

    kinds: list[Kind] = [m.kind for m in moves]
    assert kinds[0] is Kind.SOLO
    assert_type(first.counts, tuple[int, ...])
    assert_type(first.cards, str)
    assert_type(first.rank, int)
    assert_type(first.is_pass, bool)

    rows = moves.rows
    assert_type(rows, npt.NDArray[np.uint8])
    assert rows.dtype == np.uint8 and rows.shape == (len(moves), 16)
    assert_type(moves.ranks, npt.NDArray[np.int8])
    assert moves.ranks.dtype == np.int8

    last = parse_move("33")
    assert_type(last, Move)
    response = legal_moves(hand, last, rules="standard")
    assert response[0] == PASS
    assert PASS in response
    assert_type(beats(response[1], last), bool)
    assert beats(response[1], last)

    readings = classify("555666777888")
    assert_type(readings, list[Move])
    assert [m.kind for m in readings] == [Kind.AIRPLANE, Kind.AIRPLANE_SOLO]

    built = Move(Kind.PAIR, "TT")
    assert built == parse_move("TT", kind="pair")

    # The reference engine has the same names and plain lists.
    assert_type(ref.legal_moves(hand), list[Move])
    assert moves == ref.legal_moves(hand)


def check_batches() -> None:
    rules: Rules = PRESETS["standard"]
    hands = np.stack([parse_cards("3456789TJQKA2"), parse_cards("33344455BR")])
    batch = legal_moves_batch(hands, rules=rules, threads=2)
    assert_type(batch, MoveBatch)
    assert len(batch) == 2
    assert_type(batch[0], MoveList)
    assert_type(batch.offsets, npt.NDArray[np.int64])
    assert batch.rows.shape[0] == int(batch.offsets[-1])

    one = count_moves("33344455BR")
    assert_type(one, int)
    assert one == len(legal_moves("33344455BR"))
    per_hand: npt.NDArray[np.int64] = count_moves(hands)
    assert per_hand.tolist() == [len(batch[0]), len(batch[1])]


def check_game() -> None:
    game = ddz_fast.Game("standard", seed=7)
    while not game.is_over:
        actions = game.legal_actions()
        game.step(actions[-1])
    result = game.result
    assert result is not None
    assert sum(result.scores) == 0

    runs = ddz_fast.play_random_games(20, seed=1)
    assert_type(runs, ddz_fast.PlayoutResults)
    assert len(runs) == 20
    assert int(runs.scores.sum()) == 0


def check_interop() -> None:
    from ddz_fast.compat import rlcard as rl

    hand = ddz_fast.douzero_to_counts([3, 3, 4, 17, 30])
    assert_type(ddz_fast.counts_to_douzero(hand), list[int])
    assert_type(ddz_fast.counts_to_rlcard(parse_move("33")), str)
    assert_type(ddz_fast.encode_douzero(hand), npt.NDArray[np.int8])
    space = ddz_fast.action_space("standard")
    assert_type(space, ddz_fast.ActionSpace)
    moves = legal_moves(hand)
    ids = space.ids(moves)
    assert_type(ids, npt.NDArray[np.int64])
    assert_type(space.move_to_id(moves[0]), int)
    assert_type(space.id_to_move(int(ids[0])), Move)
    mask = space.mask(hand)
    assert_type(mask, npt.NDArray[np.bool_])
    assert int(mask.sum()) == len(moves)
    assert_type(rl.rlcard_actions(), tuple[str, ...])
    assert_type(rl.rlcard_ids(moves), npt.NDArray[np.int64])
    assert_type(rl.rlcard_id(PASS), int)


def check_wild_ids() -> None:
    from ddz_fast.actions import WildActionSpace, action_space

    space = action_space("laizi")
    assert_type(space, WildActionSpace)
    moves = legal_moves("5577", rules="laizi", wild="7")
    ids = space.ids(moves, wild="7")
    assert_type(ids, npt.NDArray[np.int64])
    pair = space.move_to_id(moves[1], wild="7")
    assert_type(pair, tuple[int, int])
    assert_type(space.id_to_move(pair, wild="7"), Move)
    assert_type(space.moves(ids, wild="7"), list[Move])
    assert_type(space.mask("5577", wild="7"), npt.NDArray[np.bool_])


def main() -> None:
    assert isinstance(ddz_fast.__version__, str)
    check_moves()
    check_batches()
    check_game()
    check_interop()
    check_wild_ids()


if __name__ == "__main__":
    main()
