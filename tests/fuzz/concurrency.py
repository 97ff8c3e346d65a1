"""Concurrent use of one Game from threads, and signals during compiled calls:
the stress shared by tests/test_threads.py, tests/test_signals.py and the
fuzz driver's ``shared_game`` and ``signals`` targets (the nightly fuzz and
the sanitizer job run the driver).

Run it in its own process: a race in the compiled code is a segfault."""
from __future__ import annotations

import os
import signal
import sys
import threading
import time
from typing import Any, Callable, List

import numpy as np

import ddz_fast as ddz


def play_phase_game(rules: str, seed: int, plies: int) -> ddz.Game:
    """A game of ``rules`` in its play phase, ``plies`` random actions in
    (fewer when the deal ends first)."""
    rng = ddz.SplitMix64(seed)
    g = ddz.Game(rules, seed=seed)
    while g.phase != ddz.Phase.PLAY:
        acts = g.legal_actions()
        if g.phase == ddz.Phase.AUCTION and len(acts) > 1:
            g.step(acts[-1])          # (bid or rob: all-pass auctions only redeal)
        else:
            g.step(acts[rng.below(len(acts))])
    for _ in range(plies):
        acts = g.legal_actions()
        nxt = ddz.Game.clone(g)
        nxt.step(acts[rng.below(len(acts))])
        if nxt.is_over:
            break
        g = nxt
    return g


def check_worlds(worlds: np.ndarray, player: int, decks: int) -> None:
    """The worlds of one sample_worlds call come from one state: every
    world gives each seat the same number of cards, the player the same
    hand, and no rank more cards than the deck has."""
    assert worlds.ndim == 3 and worlds.dtype == np.uint8
    if len(worlds) == 0:
        return
    sizes = worlds.sum(axis=2, dtype=np.int64)
    assert (sizes == sizes[0]).all(), f"worlds with different hand sizes: {np.unique(sizes, axis=0)}"
    assert (worlds[:, player] == worlds[0, player]).all(), "worlds with different own hands"
    deck = np.array([4 * decks] * 13 + [decks] * 2)
    assert (worlds.sum(axis=1, dtype=np.int64) <= deck).all(), "a world holds more cards than the deck"


def shared_game(rules: str = "four", seed: int = 0, seconds: float = 1.0, plies: int = 3,
                steppers: int = 1, readers: int = 2) -> int:
    """``steppers`` threads step and undo one Game as fast as they can
    while ``readers`` threads sample worlds from it (checking each call's
    worlds) and run its other compiled calls (rollout, move_values,
    legal_ids, solve_values), for ``seconds``.  Returns the calls made;
    raises the first failure of any thread."""
    g = play_phase_game(rules, seed, plies)
    decks = g.rules.decks
    done = threading.Event()
    errors: List[BaseException] = []
    calls = [0]

    def stepper(k: int) -> None:
        rng = ddz.SplitMix64(seed * 7919 + k)
        while not done.is_set():
            try:
                acts = g.legal_actions()
                g.step(acts[rng.below(len(acts))])
                g.undo()
            except (ValueError, IndexError):
                pass        # another stepper moved first: the action or the undo no longer fits

    def reader(k: int) -> None:
        i = 0
        while not done.is_set():
            i += 1
            p = (k + i) % g.players
            check_worlds(g.sample_worlds(p, 256, seed=i), p, decks)
            try:
                if i % 4 == 0:
                    g.rollout(8, seed=i)
                elif i % 4 == 1:
                    w = g.sample_worlds(g.to_move, 4, seed=i)
                    g.move_values(w, g.legal_actions()[:4], policy="random", seed=i)
                elif i % 4 == 2:
                    g.legal_ids()
                elif g.players == 3 and sum(g.hand_sizes) <= 18:
                    w = g.sample_worlds(g.to_move, 2, seed=i)
                    g.solve_values(w, g.legal_actions()[:3], max_nodes=2000)
            except ValueError:
                pass        # the worlds or moves no longer fit the state another thread changed
            calls[0] += 1

    def guard(fn: Callable[[int], None], k: int) -> Callable[[], None]:
        def run() -> None:
            try:
                fn(k)
            except BaseException as e:      # reported by the caller
                errors.append(e)
                done.set()
        return run

    threads = [threading.Thread(target=guard(stepper, k)) for k in range(steppers)]
    threads += [threading.Thread(target=guard(reader, k)) for k in range(readers)]
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)     # (the GIL changes hands often: more interleavings)
    try:
        for t in threads:
            t.start()
        done.wait(seconds)
        done.set()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(switch)
    if errors:
        raise errors[0]
    return calls[0]


class Interrupted:
    """What :func:`with_signal` returns when the call raised KeyboardInterrupt."""

    def __init__(self, latency: float) -> None:
        self.latency = latency      # seconds from the signal to the KeyboardInterrupt


def with_signal(call: Callable[[], Any], delay: float) -> Any:
    """Run ``call`` on the main thread with SIGINT sent to the process by
    another thread after ``delay`` seconds.  Returns the call's result, or
    an :class:`Interrupted` when it raised KeyboardInterrupt.  The handler
    raises KeyboardInterrupt (as Python's default one does) only while the
    call runs: a signal that lands after the call returned is dropped."""
    assert threading.current_thread() is threading.main_thread()
    armed = [False]
    sent = [0.0]
    fired = threading.Event()

    def handler(signum: int, frame: Any) -> None:
        fired.set()
        if armed[0]:
            raise KeyboardInterrupt

    def send() -> None:
        sent[0] = time.perf_counter()
        os.kill(os.getpid(), signal.SIGINT)

    old = signal.signal(signal.SIGINT, handler)
    try:
        timer = threading.Timer(delay, send)
        timer.start()
        try:
            armed[0] = True
            result = call()
            armed[0] = False
        except KeyboardInterrupt:
            armed[0] = False
            result = Interrupted(time.perf_counter() - sent[0])
        finally:
            armed[0] = False
            timer.join()
            while not fired.wait(0.01):     # (the handler runs in this wait)
                pass
        return result
    finally:
        signal.signal(signal.SIGINT, old)
