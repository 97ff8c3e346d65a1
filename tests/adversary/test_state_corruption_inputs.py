"""Arrays the docs call read-only cannot be made writeable again
(``setflags(write=True)`` raises ValueError), so no caller can change a
shared table, a move list or a batch in place."""
import numpy as np
import pytest

import ddz_fast
from ddz_fast import envs


def _space():
    return ddz_fast.action_space("standard")


def _moves():
    return ddz_fast.legal_moves("33344455566")


def _batch():
    return ddz_fast.legal_moves_batch(np.array([[1] * 15, [2] * 13 + [0, 0]], np.uint8))


def _pickled_batch():
    import pickle
    return pickle.loads(pickle.dumps(_batch()))


_READ_ONLY = {
    "ActionSpace.rows": lambda: _space().rows,
    "MoveRanks.table": lambda: _space()._lookup.table,
    "MoveList.rows": lambda: _moves().rows,
    "MoveList.counts": lambda: _moves().counts,
    "MoveList.kinds": lambda: _moves().kinds,
    "MoveList.ranks": lambda: _moves().ranks,
    "MoveList.lengths": lambda: _moves().lengths,
    "MoveList.n_cards": lambda: _moves().n_cards,
    "empty MoveList.rows": lambda: ddz_fast.legal_moves("").rows,
    "empty MoveList.ranks": lambda: ddz_fast.legal_moves("").ranks,
    "MoveBatch.rows": lambda: _batch().rows,
    "MoveBatch.offsets": lambda: _batch().offsets,
    "MoveBatch.counts": lambda: _batch().counts,
    "MoveBatch.kinds": lambda: _batch().kinds,
    "MoveBatch.ranks": lambda: _batch().ranks,
    "MoveBatch[i].rows": lambda: _batch()[1].rows,
    "unpickled MoveBatch.rows": lambda: _pickled_batch().rows,
    "unpickled MoveBatch.offsets": lambda: _pickled_batch().offsets,
    "empty MoveBatch.rows": lambda: ddz_fast.legal_moves_batch(np.zeros((0, 15), np.uint8)).rows,
}


@pytest.mark.parametrize("name", sorted(_READ_ONLY))
def test_documented_read_only_arrays_cannot_be_made_writeable(name):
    arr = _READ_ONLY[name]()
    assert not arr.flags.writeable
    with pytest.raises(ValueError):
        arr.setflags(write=True)
    with pytest.raises(ValueError):
        arr[...] = 0
    # nor through the base chain: every base that is an array is read-only too
    base = arr.base
    while isinstance(base, np.ndarray):
        with pytest.raises(ValueError):
            base.setflags(write=True)
        base = base.base


def test_the_shared_action_table_keeps_applying_the_same_actions():
    """The table is shared by every space of the rules in the process: an
    attempt to edit it fails and the ids still map to the same moves."""
    space = _space()
    before = space.id_to_move(1)
    rows = space.rows
    with pytest.raises(ValueError):
        rows.setflags(write=True)
    assert ddz_fast.action_space("standard").id_to_move(1) == before
    assert space.move_to_id(before) == 1


def test_table_legal_ids_is_a_copy_the_caller_can_change_without_effect():
    """envs.Table.legal_ids() is a fresh array each call (the ids it acts on
    stay private): writing the returned array changes nothing."""
    table = envs.Table("standard")
    table.new_game(seed=3)
    ids = table.legal_ids()
    want = ids.tolist()
    ids[:] = -1
    assert table.legal_ids().tolist() == want
    assert want == table.actions.ids(table.game.legal_actions()).tolist()
