"""The observation tensor (Game.observation_tensor, the engine's one encoder),
checked entry for entry against an encoder written here in plain Python from
the game's public properties, for every preset, the rob auction, every seat
and every phase; and ObservationLayout, which describes it."""
import re
import subprocess
import sys

import numpy as np
import pytest

import ddz_fast as ddz
from ddz_fast import Game, PRESETS, VecGame, parse_move
from ddz_fast.observation import ObservationLayout

RULES = [PRESETS[name] for name in PRESETS]
RULES += [PRESETS["standard"].replace(auction="rob", name="standard-rob"),
          PRESETS["four"].replace(auction="rob", name="four-rob")]
IDS = [r.name for r in RULES]


def _spec(r):
    """The fields (name, length, bound), written out from the documentation."""
    n = r.players
    bid = r.auction == "bid"
    return (
        ("hand", 15, r.max_count),
        ("played", n * 15, r.max_count),
        ("hand_sizes", n, r.hand_size + r.kitty_size),
        ("kitty", 15, r.max_count),
        ("last_move", 15, r.max_count),
        ("last_kind", 15, 1),
        ("last_player", n, 1),
        ("me", n, 1),
        ("to_move", n, 1),
        ("landlord", n, 1),
        ("phase", 4, 1),
        ("auction_level", 1, 3 if bid else n),
        ("auction_leader", n, 1),
        ("base", 1, 3 if bid else 2 ** (n - 1)),
        ("bombs", 1, 13 * r.decks + 1),
        ("doubles", 1, n),
    ) + ((("wild", 13, 1),) if r.wild_ranks else ())


def _slices(r):
    out, pos = {}, 0
    for name, length, _ in _spec(r):
        out[name] = slice(pos, pos + length)
        pos += length
    return out, pos


def oracle(game, player):
    """The observation of ``player``, field by field from public properties."""
    f, size = _slices(game.rules)
    out = np.zeros(size, dtype=np.float32)
    out[f["hand"]] = game.hand(player)
    out[f["played"]] = game.played_cards.reshape(-1)
    out[f["hand_sizes"]] = game.hand_sizes
    if game.kitty_revealed and game.kitty is not None:
        out[f["kitty"]] = game.kitty
    last = game.last_move
    if last is not None:
        out[f["last_move"]] = last.represents
        out[f["last_kind"].start + int(last.kind)] = 1.0
        out[f["last_player"].start + game.last_player] = 1.0
    out[f["me"].start + player] = 1.0
    if game.to_move is not None:
        out[f["to_move"].start + game.to_move] = 1.0
    if game.landlord is not None:
        out[f["landlord"].start + game.landlord] = 1.0
    out[f["phase"].start + int(game.phase)] = 1.0
    out[f["auction_level"].start] = game.auction_level
    if game.auction_leader is not None:
        out[f["auction_leader"].start + game.auction_leader] = 1.0
    out[f["base"].start] = game.base
    out[f["bombs"].start] = game.bombs
    out[f["doubles"].start] = game.doubles
    if game.wild is not None:
        out[[f["wild"].start + r for r in game.wild]] = 1.0
    return out


def _check_all_seats(game, seen):
    for seat in range(game.players):
        got = game.observation_tensor(seat)
        assert got.dtype == np.float32 and got.shape == (ObservationLayout(game.rules).size,)
        want = oracle(game, seat)
        assert got.tobytes() == want.tobytes(), (game.phase, seat, np.flatnonzero(got != want))
    seen.add(game.phase)


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_every_seat_and_phase_matches_the_oracle(rules):
    rng = np.random.default_rng(7)
    seen = set()
    kinds = set()
    for seed in range(12):
        g = Game(rules, seed=seed)
        _check_all_seats(g, seen)
        while not g.is_over:
            legal = g.legal_actions()
            g.step(legal[int(rng.integers(len(legal)))])
            _check_all_seats(g, seen)
            if g.last_move is not None:
                kinds.add(g.last_move.kind)
    assert seen == set(ddz.Phase) if rules.auction == "rob" else seen >= {ddz.Phase.AUCTION, ddz.Phase.PLAY,
                                                                          ddz.Phase.OVER}
    assert len(kinds) >= 4


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_positions_match_the_oracle(rules):
    """A given position: its move to beat, its kitty known or not."""
    hands = ["3456789", "TTT5", "JJ"] if rules.players == 3 else ["3456789", "TTT5", "JJ", "QQ"]
    wild = {0: None, 1: "5", 2: "58"}[rules.wild_ranks]
    seen = set()
    for kitty in (None, "2XD" if rules.players == 3 else "22XDKKQQ"):
        for last, last_player in ((None, None), (parse_move("44", rules=rules, wild=wild), 2)):
            g = Game.from_position(hands, landlord=0, base=2, to_move=0, last=last, last_player=last_player,
                                   rules=rules, bombs=1, kitty=kitty, played=[1] * rules.players, wild=wild)
            _check_all_seats(g, seen)
            while not g.is_over:
                g.step(g.legal_actions()[-1])
                _check_all_seats(g, seen)


@pytest.mark.parametrize("rules", [r for r in RULES if not r.wild_ranks],
                         ids=[r.name for r in RULES if not r.wild_ranks])
def test_vec_game_rows_match_the_oracle(rules):
    vg = VecGame(6, rules, seed=3)
    rng = np.random.default_rng(1)
    for _ in range(60):
        for i in range(len(vg)):
            g = vg.games(i)
            seat = g.result.winner if g.is_over else g.to_move
            assert vg.observations[i].tobytes() == oracle(g, seat).tobytes()
        off = vg.legal_offsets
        pick = off[:-1] + (rng.random(len(vg)) * np.diff(off)).astype(np.int64)
        vg.step(vg.legal_ids[pick].copy())


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_layout_is_the_documented_one(rules):
    layout = ObservationLayout(rules)
    fields, size = _slices(rules)
    assert layout.fields == fields
    assert layout.size == size == 68 + 21 * rules.players + (13 if rules.wild_ranks else 0)
    assert layout.low.tolist() == [0.0] * size
    assert layout.high.tolist() == [float(b) for _, length, b in _spec(rules) for _ in range(length)]
    assert layout.low.dtype == layout.high.dtype == np.float32


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_entries_lie_within_the_bounds(rules):
    layout = ObservationLayout(rules)
    rng = np.random.default_rng(5)
    for seed in range(5):
        g = Game(rules, seed=seed)
        while True:
            for seat in range(g.players):
                o = g.observation_tensor(seat)
                assert ((layout.low <= o) & (o <= layout.high)).all()
            if g.is_over:
                break
            legal = g.legal_actions()
            g.step(legal[int(rng.integers(len(legal)))])


def _doc_names(text, pattern):
    return re.findall(pattern, text, flags=re.M)


def test_documentation_lists_the_fields_in_order():
    names = list(ObservationLayout("laizi").fields)
    import ddz_fast.observation as module
    assert _doc_names(module.__doc__, r"^``(\w+)``\s{2,}") == names
    from pathlib import Path
    envs_md = (Path(__file__).parents[1] / "docs" / "envs.md").read_text()
    section = envs_md.split("## Observation", 1)[1]
    assert _doc_names(section, r"^\| `(\w+)` \| [^|]+ \| ")[:len(names)] == names


def test_split_and_encode():
    layout = ObservationLayout("four")
    g = Game("four", seed=2)
    parts = layout.split(layout.encode(g, 3))
    assert list(parts) == list(layout.fields)
    assert parts["me"].tolist() == [0, 0, 0, 1]
    assert parts["hand"].tolist() == g.hand(3).tolist()
    with pytest.raises(ValueError, match="152"):
        layout.split(np.zeros(131))
    with pytest.raises(ValueError, match="3 players, the game has 4"):
        ObservationLayout("standard").encode(g, 0)
    assert repr(layout) == "ObservationLayout(rules='four', size=152)"


def test_out_is_written_in_full_and_returned():
    g = Game(seed=4)
    buf = np.full(131, 99.0, dtype=np.float32)
    assert g.observation_tensor(1, out=buf) is buf
    assert buf.tobytes() == oracle(g, 1).tobytes()
    assert g.observation_tensor(2, buf) is buf                 # out may be passed by position
    assert buf.tobytes() == oracle(g, 2).tobytes()


class _Sub(np.ndarray):
    pass


@pytest.mark.parametrize("out, error, match", [
    ([0.0] * 131, TypeError, "numpy array"),
    (np.zeros(131, dtype=np.float64), TypeError, "float32"),
    (np.zeros(131, dtype=">f4" if sys.byteorder == "little" else "<f4"), TypeError, "byte order"),
    (np.zeros(131, dtype=np.int32), TypeError, "float32"),
    (np.zeros(130, dtype=np.float32), ValueError, r"shape \(131,\)"),
    (np.zeros((1, 131), dtype=np.float32), ValueError, r"shape \(131,\)"),
    (np.zeros(262, dtype=np.float32)[::2], ValueError, "C-contiguous"),
    (np.ma.zeros(131, dtype=np.float32), TypeError, "plain"),
    (np.zeros(131, dtype=np.float32).view(_Sub), TypeError, "plain"),
], ids=["list", "float64", "swapped", "int32", "short", "2-D", "strided", "masked", "subclass"])
def test_a_bad_out_is_refused(out, error, match):
    with pytest.raises(error, match=match):
        Game(seed=0).observation_tensor(0, out=out)


def test_a_read_only_out_is_refused_and_left_alone():
    buf = np.zeros(131, dtype=np.float32)
    buf.setflags(write=False)
    with pytest.raises(ValueError, match="writeable"):
        Game(seed=0).observation_tensor(0, out=buf)
    assert not buf.any()


@pytest.mark.parametrize("player, error", [(3, ValueError), (-1, ValueError), ("0", TypeError), (1.0, TypeError)])
def test_a_bad_player_is_refused(player, error):
    with pytest.raises(error, match="player"):
        Game(seed=0).observation_tensor(player)


def test_the_package_does_not_load_the_environments():
    code = "import ddz_fast, sys; print([m for m in sys.modules if m.startswith('ddz_fast.envs')])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_environments_name_the_same_layout():
    from ddz_fast.envs import ObservationLayout as from_envs
    from ddz_fast.envs.observation import ObservationLayout as from_envs_module
    assert from_envs is from_envs_module is ObservationLayout
