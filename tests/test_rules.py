"""Rule options and presets (docs/rules.md, "Where the sources disagree: options", "Presets")."""
import dataclasses
import pickle

import pytest

from ddz_fast import PRESETS, Rules, resolve_rules
from ddz_fast import reference


def test_preset_names():
    assert list(PRESETS) == ["standard", "strict", "four", "laizi", "tiandi", "douzero", "rlcard"]
    for name, r in PRESETS.items():
        assert r.name == name
        assert resolve_rules(name) is r
        assert resolve_rules(r) is r


def test_compat_presets_differ_from_standard_only_in_kicker_options():
    std = PRESETS["standard"]
    assert PRESETS["douzero"] == std.replace(four_two_solo_distinct=False,
                                             both_jokers_as_kickers=True)
    assert PRESETS["rlcard"] == std.replace(four_two_solo_distinct=False,
                                            airplane_bomb_kickers=False,
                                            airplane_adjacent_trio_kickers=False)


def test_presets_are_read_only():
    with pytest.raises(TypeError):
        PRESETS["mine"] = Rules()  # type: ignore[index]


def test_standard_options_as_in_rules_table():
    s = PRESETS["standard"]
    assert (s.players, s.decks) == (3, 1)
    assert s.solo_kickers and s.four_with_kickers
    assert s.airplane_solo_distinct is False
    assert s.four_two_solo_distinct is True
    assert s.both_jokers_as_kickers is False


def test_strict_differs_from_standard_only_in_airplane_singles():
    s, t = PRESETS["standard"], PRESETS["strict"]
    assert t.airplane_solo_distinct is True
    diff = [f.name for f in dataclasses.fields(Rules)
            if f.name != "name" and getattr(s, f.name) != getattr(t, f.name)]
    assert diff == ["airplane_solo_distinct"]


def test_four_preset():
    f = PRESETS["four"]
    assert (f.players, f.decks) == (4, 2)
    assert f.solo_kickers is False
    assert f.four_with_kickers is False
    assert f.both_jokers_as_kickers is False


@pytest.mark.parametrize(
    "name, deck, hand, kitty, max_count, max_jokers",
    [("standard", 54, 17, 3, 4, 1), ("strict", 54, 17, 3, 4, 1), ("four", 108, 25, 8, 8, 2)],
)
def test_derived_deck_facts(name, deck, hand, kitty, max_count, max_jokers):
    r = PRESETS[name]
    assert r.deck_size == deck
    assert r.hand_size == hand
    assert r.kitty_size == kitty
    assert r.max_count == max_count
    assert r.max_jokers == max_jokers
    # landlord holds hand + kitty: 20 in the 3-player game, 33 in the 4-player one
    assert r.hand_size + r.kitty_size == (20 if r.players == 3 else 33)
    assert r.players * r.hand_size + r.kitty_size == r.deck_size


def test_rules_are_frozen_and_hashable():
    r = PRESETS["standard"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.players = 4  # type: ignore[misc]
    assert len({PRESETS["standard"], PRESETS["strict"], PRESETS["four"]}) == 3
    assert pickle.loads(pickle.dumps(r)) == r


def test_name_takes_no_part_in_equality():
    assert Rules() == PRESETS["standard"]
    assert hash(Rules()) == hash(PRESETS["standard"])
    assert Rules().name == "custom"
    assert Rules(airplane_solo_distinct=True, name="mine") == PRESETS["strict"]
    assert Rules(players=4, decks=2, solo_kickers=False, four_with_kickers=False) == PRESETS["four"]


def test_replace():
    s = PRESETS["standard"]
    t = s.replace(airplane_solo_distinct=True)
    assert t == PRESETS["strict"]
    assert t.name == "custom"
    assert s.replace(auction="rob", name="robbing").name == "robbing"
    assert s.airplane_solo_distinct is False  # unchanged
    with pytest.raises(ValueError, match="unsupported game"):
        s.replace(players=4)


def test_repr_lists_every_option():
    text = repr(PRESETS["strict"])
    for f in dataclasses.fields(Rules):
        assert f.name in text
    assert "airplane_solo_distinct=True" in text and "name='strict'" in text


@pytest.mark.parametrize("name", ["", "Standard", "STANDARD", "three", "4", "double", "standard "])
def test_unknown_preset_lists_valid_ones(name):
    with pytest.raises(ValueError) as info:
        resolve_rules(name)
    msg = str(info.value)
    assert repr(name) in msg
    for valid in PRESETS:
        assert valid in msg


@pytest.mark.parametrize("value", [None, 3, 1.0, ["standard"], {"players": 3}, b"standard"])
def test_rules_must_be_a_name_or_rules(value):
    with pytest.raises(TypeError, match="preset name or a Rules"):
        resolve_rules(value)


@pytest.mark.parametrize(
    "players, decks",
    [(4, 1), (3, 2), (2, 1), (5, 2), (4, 3), (0, 0), (3, 0), (-3, 1), (6, 2)],
)
def test_unsupported_players_or_decks(players, decks):
    with pytest.raises(ValueError) as info:
        Rules(players=players, decks=decks)
    msg = str(info.value)
    assert f"players={players}" in msg and f"decks={decks}" in msg
    assert "supported" in msg


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"players": "3"}, "players"),
        ({"players": 3.0}, "players"),
        ({"players": True}, "players"),
        ({"decks": None}, "decks"),
        ({"solo_kickers": 1}, "solo_kickers"),
        ({"airplane_solo_distinct": "no"}, "airplane_solo_distinct"),
        ({"four_two_solo_distinct": None}, "four_two_solo_distinct"),
        ({"both_jokers_as_kickers": 0}, "both_jokers_as_kickers"),
        ({"four_with_kickers": "yes"}, "four_with_kickers"),
    ],
)
def test_option_types(kwargs, field):
    with pytest.raises(TypeError, match=f"Rules.{field}"):
        Rules(**kwargs)


def test_auction_option():
    assert Rules(auction="rob").auction == "rob"
    with pytest.raises(ValueError, match="bid, rob"):
        Rules(auction="dutch")


def test_every_public_function_takes_a_rules_value_or_a_name():
    custom = Rules(airplane_solo_distinct=True)
    assert reference.classify("33344455", rules=custom) == []
    assert reference.classify("33344455", rules="strict") == []
    assert reference.classify("33344455", rules=PRESETS["standard"]) != []
    for fn, args in ((reference.classify, ("3",)), (reference.legal_moves, ("3",)),
                     (reference.parse_move, ("3",))):
        with pytest.raises(ValueError, match="standard, strict, four"):
            fn(*args, rules="nope")
        with pytest.raises(TypeError):
            fn(*args, rules=1)


# ---------------------------------------------------------------------------
# One source of truth: the Rules fields drive the checks, the compiled
# registry's key and the C struct of the kernels.
# ---------------------------------------------------------------------------

def test_move_options_are_the_bool_fields_of_rules():
    from ddz_fast.rules import MOVE_OPTIONS
    bools = [f.name for f in dataclasses.fields(Rules) if f.type in ("bool", bool)]
    assert list(MOVE_OPTIONS) == bools
    assert "auction" not in MOVE_OPTIONS and "name" not in MOVE_OPTIONS


def test_wild_forms_are_their_own_compiled_rule_sets():
    """laizi and tiandi differ from standard only in the wild form; each gets
    its own registry entry holding its number of wild ranks."""
    from ddz_fast._core.testing import rules_c_of
    assert [rules_c_of(n)["wild_ranks"] for n in ("standard", "laizi", "tiandi")] == [0, 1, 2]
    assert len({rules_c_of(n)["id"] for n in ("standard", "laizi", "tiandi")}) == 3


@pytest.mark.parametrize("bad, error", [
    (dict(wild="joker"), ValueError), (dict(wild=1), TypeError),
    (dict(bomb_doubling="x8"), ValueError), (dict(wild="laizi", players=4, decks=2), ValueError),
])
def test_wild_options_are_checked(bad, error):
    with pytest.raises(error, match="wild|bomb_doubling"):
        Rules(**bad)


def test_c_rules_struct_holds_exactly_the_move_options():
    from ddz_fast._core.testing import rules_c_fields
    from ddz_fast.rules import MOVE_OPTIONS
    deck_facts = ["id", "decks", "max_count", "max_joker", "wild_ranks", "hard_x4"]
    c_fields = rules_c_fields()
    assert c_fields[:len(deck_facts)] == deck_facts
    assert c_fields[len(deck_facts):] == list(MOVE_OPTIONS)


@pytest.mark.parametrize("option", [f.name for f in dataclasses.fields(Rules)
                                    if f.type in ("bool", bool)])
def test_each_move_option_is_its_own_compiled_rule_set(option):
    """Flipping one option gives another registry entry: a Move made under
    one is re-checked under the other (here: its validity bit differs)."""
    from ddz_fast import legal_moves
    from ddz_fast._core.testing import move_valid_bits
    base = Rules()
    other = base.replace(**{option: not getattr(base, option)})
    a = legal_moves("3", rules=base)[0]
    b = legal_moves("3", rules=other)[0]
    assert a == b
    assert move_valid_bits(a) != move_valid_bits(b)


@pytest.mark.parametrize("option", [f.name for f in dataclasses.fields(Rules)
                                    if f.type in ("bool", bool)])
def test_check_rules_checks_every_bool_option(option):
    from ddz_fast.rules import check_rules
    r = Rules()
    object.__setattr__(r, option, 1)
    with pytest.raises(TypeError, match=option):
        check_rules(r)
