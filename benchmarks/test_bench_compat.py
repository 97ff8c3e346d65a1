"""DouZero's GameEnv.get_legal_card_play_actions: DouZero's own generator
against the same call answered by ddz_fast.compat.douzero (the accelerator),
on the same 17- and 20-card standard hands.  Skipped without DouZero
(``pip install --no-deps douzero``); benchmarks/compare.py prints the ratio.
"""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from deals import HAND_SETS, N_SINGLE

from ddz_fast.compat import douzero as dz
from ddz_fast.convert import counts_to_douzero

game = pytest.importorskip("douzero.env.game")

THREE_PLAYER = [h for h in HAND_SETS if h in ("17", "20")]


def _stubs(hs, respond):
    out = []
    for h, last in zip(hs.hands, hs.lasts):
        hand = counts_to_douzero(h)
        seq = [counts_to_douzero(last)] if respond else []
        out.append(SimpleNamespace(acting_player_position="landlord",
                                   info_sets={"landlord": SimpleNamespace(player_hand_cards=hand)},
                                   card_play_action_seq=seq))
    return out


@pytest.mark.parametrize("engine", ["douzero", "accelerated"])
@pytest.mark.parametrize("respond", [False, True], ids=["lead", "response"])
@pytest.mark.parametrize("hand_set", THREE_PLAYER)
def test_douzero_legal_actions(benchmark, hand_sets, hand_set, respond, engine):
    hs = hand_sets(hand_set).head(N_SINGLE)
    stubs = _stubs(hs, respond)
    fn = (game.GameEnv.get_legal_card_play_actions if engine == "douzero"
          else dz._get_legal_card_play_actions)
    benchmark.group = f"douzero-{'response' if respond else 'lead'}-{hand_set}"
    benchmark.extra_info.update(calls=len(stubs))

    def run():
        for s in stubs:
            fn(s)
    benchmark(run)
