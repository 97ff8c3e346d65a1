"""DouZeroAgent against DouZero's own DeepAgent, on the same positions.

The networks are DouZero's own classes (``douzero.dmc.models``) with seeded
random weights, saved as DouZero saves its checkpoints; DeepAgent
(``douzero.evaluation.deep_agent``) loads them and plays the positions of a
DouZero ``GameEnv`` dealt the cards of each table of a VecGame, replaying the
moves DouZeroAgent plays there.
"""
from __future__ import annotations

import numpy as np
import pytest

import ddz_fast as ddz
from ddz_fast.convert import counts_to_douzero
from optional import require

torch = require("torch")
require("git")                      # (douzero.dmc imports GitPython)
douzero_models = require("douzero.dmc.models")
from douzero.env.env import get_obs as douzero_get_obs  # noqa: E402
from douzero.env.game import GameEnv  # noqa: E402
from douzero.evaluation.deep_agent import DeepAgent  # noqa: E402

from ddz_fast.train import DouZeroAgent, make_model, save_checkpoint  # noqa: E402

POSITIONS = ("landlord", "landlord_up", "landlord_down")
# Two actions whose values DouZero computes closer than this are a tie in
# float32: the LSTM and the matrix products of a batch of rows may round
# differently (a few units in the last place) with the batch's size and
# make-up, so DeepAgent (one position's rows per call) and DouZeroAgent
# (every table's rows at once) may break such a tie differently.
TIE = 1e-5


@pytest.fixture(autouse=True)
def one_torch_thread():
    # (small batches: one thread is faster than several on a shared machine)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory):
    folder = tmp_path_factory.mktemp("douzero_ckpt")
    for k, pos in enumerate(POSITIONS):
        torch.manual_seed(100 + k)
        net = douzero_models.model_dict[pos]()
        # (larger weights than the default initialisation: values far apart, few near-ties)
        with torch.no_grad():
            for p in net.parameters():
                p.mul_(3.0)
        torch.save(net.state_dict(), folder / f"{pos}.ckpt")
    return folder


class _Told:
    """A DouZero player making the move it was told."""

    action: list = []

    def act(self, infoset):
        return self.action


def _replay(game):
    hands = {}
    for seat in range(3):
        role = ("landlord", "landlord_down", "landlord_up")[(seat - game.landlord) % 3]
        hands[role] = counts_to_douzero(game.hand(seat), rules="douzero")
    hands["three_landlord_cards"] = counts_to_douzero(game.kitty, rules="douzero")
    player = _Told()
    env = GameEnv({p: player for p in POSITIONS})
    env.card_play_init(hands)
    return env, player


def _compare(agent, deep, tables, positions_each, seed):
    """Play DouZeroAgent on a VecGame; at each of its positions, DeepAgent
    decides on the same position of the replayed GameEnv.  Returns the count
    of positions per type, of near-ties decided differently and of
    positions where DeepAgent's choice is not legal under the rules."""
    vec = ddz.VecGame(tables, rules="douzero", seed=seed, skip_auction=True, observations=False)
    replays = [_replay(vec.games(i)) for i in range(tables)]
    seen = dict.fromkeys(POSITIONS, 0)
    ties = refused = 0
    every = np.arange(tables)
    while min(seen.values()) < positions_each:
        ids = agent.act_batch(vec, every)
        for i in range(tables):
            env, player = replays[i]
            info = env.game_infoset
            pos = info.player_position
            seen[pos] += 1
            ours = counts_to_douzero(vec.action(int(ids[i])).counts, rules="douzero")
            theirs = deep[pos].act(info)
            if sorted(theirs) != ours:
                obs = douzero_get_obs(info)
                with torch.no_grad():
                    values = deep[pos].model.forward(torch.from_numpy(obs["z_batch"]).float(),
                                                     torch.from_numpy(obs["x_batch"]).float(),
                                                     return_value=True)["values"].numpy().ravel()
                best = float(values.max())
                legal = {tuple(m) for m in (vec.action(int(a)).counts for a in
                         vec.legal_ids[vec.legal_offsets[i]:vec.legal_offsets[i + 1]])}
                mine = float(max(values[k] for k, a in enumerate(info.legal_actions) if sorted(a) == ours))
                if tuple(ddz.convert.douzero_to_counts(theirs)) not in legal:
                    refused += 1                # DeepAgent played a move the rules refuse
                    assert mine == max(values[k] for k, a in enumerate(info.legal_actions)
                                       if tuple(ddz.convert.douzero_to_counts(a)) in legal)
                else:
                    assert best - mine <= TIE, (pos, info.player_hand_cards, info.last_move, theirs, ours,
                                                best, mine)
                    ties += 1
            player.action = ours
            env.step()
        vec.step(ids)
        for i in np.flatnonzero(vec.done):
            assert replays[i][0].game_over
            replays[i] = _replay(vec.games(int(i)))
    return seen, ties, refused


def test_decisions_equal_douzero_deep_agent_on_1000_positions_per_position(checkpoints):
    torch.manual_seed(0)
    agent = DouZeroAgent(checkpoints)
    deep = {pos: DeepAgent(pos, str(checkpoints / f"{pos}.ckpt")) for pos in POSITIONS}
    seen, ties, refused = _compare(agent, deep, tables=64, positions_each=1000, seed=11)
    total = sum(seen.values())
    assert min(seen.values()) >= 1000
    assert ties + refused <= total // 200, (ties, refused, total)
