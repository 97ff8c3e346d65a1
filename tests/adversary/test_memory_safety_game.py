"""Game-side objects never read uninitialised or caller-owned memory: every
public class made with ``__new__`` alone refuses to work (TypeError), no
class can be subclassed around its checks, and the GIL-free runs work on
private copies.  Cases that could crash run in a child process, so a
segfault fails the test instead of killing pytest."""
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import ddz_fast as d
from ddz_fast import Game, VecGame


def _in_child(code):
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def test_objects_made_without_init_refuse_every_use_in_a_child_process():
    out = _in_child("""
        import ddz_fast as d
        from ddz_fast import Bid, Game, PIMCAgent, Session, Solver, VecGame
        calls = {
            Game: [lambda o: o.legal_actions(), lambda o: o.step(Bid(3)), lambda o: o.kitty,
                   lambda o: o.hand(0), lambda o: o.clone(), lambda o: o.__reduce__(),
                   lambda o: o.sample_worlds(0, 1), lambda o: o.rollout(1)],
            VecGame: [lambda o: o.step([0]), lambda o: o.reset(), lambda o: o.set_games([0], [1])],
            Solver: [lambda o: o.solve(["3", "4"]), lambda o: o.__reduce__()],
            PIMCAgent: [lambda o: o(Game(seed=1).observation(0)), lambda o: o.__reduce__()],
            Session: [lambda o: o.new_game(), lambda o: o.record(Game(seed=1)), lambda o: o.deals],
        }
        for cls, fs in calls.items():
            for f in fs:
                try:
                    f(cls.__new__(cls))
                except TypeError as e:
                    assert "initialised" in str(e), (cls, e)
                else:
                    raise AssertionError(f"{cls.__name__} without __init__ was usable")
        print("refused")
    """)
    assert "refused" in out


@pytest.mark.parametrize("cls", [Game, VecGame])
def test_compiled_game_classes_cannot_be_subclassed(cls):
    with pytest.raises(TypeError):
        type("Sub", (cls,), {})


def test_game_attributes_are_read_only_and_arrays_are_copies():
    g = Game(seed=3)
    for name in ("kitty", "hands", "landlord", "to_move"):
        with pytest.raises(AttributeError):
            setattr(g, name, None)
    h = g.hand(0)
    h[:] = 200
    k = g.kitty
    k[:] = 200
    assert int(g.hand(0).max()) <= 4 and int(g.kitty.max()) <= 1


def test_vecgame_step_reads_the_actions_once_while_another_thread_rewrites_them():
    # The ids are copied before the GIL-free step: a thread scribbling
    # junk over the caller's array can only make step() refuse the call.
    vg = VecGame(64, seed=5)
    legal = vg.legal_ids[vg.legal_offsets[:-1]].astype(np.int64)
    actions = legal.copy()
    stop = threading.Event()

    def scribble():
        junk = np.int64(2**40)
        while not stop.is_set():
            actions[:] = junk
            actions[:] = legal

    t = threading.Thread(target=scribble)
    t.start()
    try:
        for _ in range(200):
            try:
                vg.step(actions)
            except ValueError as e:
                assert "table" in str(e)
            legal = vg.legal_ids[vg.legal_offsets[:-1]].astype(np.int64)
    finally:
        stop.set()
        t.join()
    assert all(0 <= x < vg.n_actions for x in vg.legal_ids[vg.legal_offsets[:-1]].tolist())


def test_vecgame_refuses_masked_and_non_integer_actions():
    vg = VecGame(4, seed=1)
    ids = vg.legal_ids[vg.legal_offsets[:-1]].astype(np.int64)
    for bad in (np.ma.masked_array(ids, mask=[True] * 4), ids.astype(np.float64), ids.astype(bool),
                [float(x) for x in ids], "0123"):
        with pytest.raises(TypeError):
            vg.step(bad)


def test_sample_worlds_never_reads_a_changed_observation_array():
    g = Game(seed=8)
    obs = g.observation(0)
    want = d.sample_observed_worlds(obs, 50, seed=2)
    obs.unseen[:] = 0          # the caller's copy: the sampler took its own at the call
    with pytest.raises(ValueError):
        d.sample_observed_worlds(obs, 50, seed=2)
    assert np.array_equal(want, g.sample_worlds(0, 50, seed=2))
