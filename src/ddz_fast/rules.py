"""Rule options and the named presets (docs/rules.md, "Where the sources disagree").

A :class:`Rules` value is frozen and hashable.  Every public function takes
``rules=`` as either a preset name or a ``Rules``; :func:`resolve_rules` turns
either into a ``Rules``.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType
from typing import Any, Dict, Mapping, Union

from ._util.checks import plain_str

__all__ = ["Rules", "PRESETS", "AUCTIONS", "resolve_rules", "check_rules", "RulesLike"]

#: Rules.auction: how the landlord is chosen (docs/rules.md, "One deal, three players").
AUCTIONS = ("bid", "rob")
_GAMES = ((3, 1), (4, 2))
#: Rules.wild: how many ranks are wild in each deal (docs/rules.md, "Wild cards").
WILD_RANKS = MappingProxyType({"none": 0, "laizi": 1, "tiandi": 2})
_BOMB_DOUBLING = ("all", "hard_x4")


def _check_choices(rules: "Rules") -> None:
    # The str options: one of their values, and wild cards only with one deck.
    if rules.auction not in AUCTIONS:
        raise ValueError(f"unknown auction {rules.auction!r}; valid: {', '.join(AUCTIONS)}")
    if rules.wild not in WILD_RANKS:
        raise ValueError(f"unknown Rules.wild {rules.wild!r}; valid: {', '.join(WILD_RANKS)}")
    if rules.bomb_doubling not in _BOMB_DOUBLING:
        raise ValueError(f"unknown Rules.bomb_doubling {rules.bomb_doubling!r}; "
                         f"valid: {', '.join(_BOMB_DOUBLING)}")
    if rules.wild != "none" and rules.decks != 1:
        raise ValueError(f"wild cards ({rules.wild!r}) are a variant of the one-deck game, "
                         f"not of {rules.decks} decks")


@dataclass(frozen=True)
class Rules:
    """A frozen set of rule options.

    Options
    -------
    players, decks
        ``(3, 1)``: the ordinary game; ``(4, 2)``: the 4-player two-deck
        variant.  With two decks a bomb is 4..8 cards of one rank (more cards
        beat fewer, whatever the rank), two equal jokers are a pair (and may be
        an attached pair), and the rocket needs all four jokers.
    solo_kickers
        Are single attachments allowed at all (``TRIO_SOLO``,
        ``AIRPLANE_SOLO``)?  Off in the 4-player variant.
    four_with_kickers
        Do the ``FOUR_TWO_SOLO`` / ``FOUR_TWO_PAIR`` kinds exist?  Off in the
        4-player variant.
    airplane_solo_distinct
        Must the singles on an airplane have pairwise distinct ranks?
    four_two_solo_distinct
        Must the two singles on a four have distinct ranks?
    both_jokers_as_kickers
        May a low and a high joker both be attachments of one move?  (With two
        decks: may a move carry both a low-joker pair and a high-joker pair?)
    airplane_bomb_kickers
        May the singles of an airplane include every card of a rank's bomb
        (four of a rank, ``333444555666+7777``)?  Off in ``rlcard``.
    airplane_adjacent_trio_kickers
        May the singles of an airplane include three or more cards of a rank
        next to the airplane's trios (``444555666+777``, which also reads as a
        longer airplane without attachments)?  A ``2`` is never next to a chain.  Off
        in ``rlcard``.  When off, a card set with two airplane readings has no
        valid reading at all (each reading holds a neighbouring trio).
    auction
        ``"bid"`` (pass or bid 1/2/3) or ``"rob"`` (call, rob, double).
    wild
        ``"none"``, ``"laizi"`` (one rank drawn after the auction is wild) or
        ``"tiandi"`` (two ranks are).  Only with one deck.  The move
        functions then take the deal's wild rank(s) as ``wild=``.
    bomb_doubling
        ``"all"``: every bomb and the rocket double the stake.
        ``"hard_x4"``: a soft bomb (made with a wild standing in) doubles it;
        a hard bomb, the wild bomb and the rocket multiply it by 4.

    ``name`` is a label only; it takes no part in equality or hashing, so a
    custom ``Rules`` with a preset's options equals that preset.
    """

    players: int = 3
    decks: int = 1
    solo_kickers: bool = True
    four_with_kickers: bool = True
    airplane_solo_distinct: bool = False
    four_two_solo_distinct: bool = True
    both_jokers_as_kickers: bool = False
    airplane_bomb_kickers: bool = True
    airplane_adjacent_trio_kickers: bool = True
    auction: str = "bid"
    wild: str = "none"
    bomb_doubling: str = "all"
    name: str = field(default="custom", compare=False)

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in ("bool", bool) and not isinstance(value, bool):
                raise TypeError(f"Rules.{f.name} must be a bool, not {type(value).__name__}")
            if f.type in ("int", int) and (isinstance(value, bool) or not isinstance(value, int)):
                raise TypeError(f"Rules.{f.name} must be an int, not {type(value).__name__}")
            if f.type in ("str", str):
                # (a plain str: a subclass could lie to the checks and the registry)
                object.__setattr__(self, f.name, plain_str(value, f"Rules.{f.name}"))
        if (self.players, self.decks) not in ((3, 1), (4, 2)):
            raise ValueError(
                f"unsupported game: players={self.players}, decks={self.decks}; "
                "supported are 3 players with 1 deck and 4 players with 2 decks"
            )
        _check_choices(self)

    # Derived facts of the deck -------------------------------------------
    @property
    def max_count(self) -> int:
        """Most cards of one ordinary rank (3..2) in the deck."""
        return 4 * self.decks

    @property
    def max_jokers(self) -> int:
        """Most cards of each joker in the deck."""
        return self.decks

    @property
    def wild_ranks(self) -> int:
        """How many ranks are wild in each deal: 0, 1 (laizi) or 2 (tiandi)."""
        return WILD_RANKS[self.wild]

    @property
    def deck_size(self) -> int:
        return 54 * self.decks

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player before the landlord takes the rest."""
        return 17 if self.players == 3 else 25

    @property
    def kitty_size(self) -> int:
        """Face-down cards the landlord takes."""
        return self.deck_size - self.players * self.hand_size

    def __getstate__(self) -> Dict[str, Any]:
        # The fast path caches a process-local registry id on the object
        # (``_ddz_cid``); it must not travel in a pickle.
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_ddz")}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        # A pickle of an earlier release lacks the options added since: they
        # take their defaults, which are what that release played.
        full = {f.name: f.default for f in fields(self)}
        full.update(state)
        self.__dict__.update(full)

    def replace(self, **changes: object) -> "Rules":
        """A copy with some options changed (named ``custom`` unless given)."""
        changes.setdefault("name", "custom")
        return replace(self, **changes)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        opts = ", ".join(
            f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.name != "name"
        )
        return f"Rules({opts}, name={self.name!r})"


#: The named presets (read-only): ``standard``, ``strict``, ``four``,
#: ``douzero`` and ``rlcard`` (docs/rules.md, "Presets").
PRESETS: Mapping[str, Rules] = MappingProxyType({
    "standard": Rules(name="standard"),
    "strict": Rules(airplane_solo_distinct=True, name="strict"),
    "four": Rules(
        players=4,
        decks=2,
        solo_kickers=False,
        four_with_kickers=False,
        name="four",
    ),
    # Wild cards (docs/rules.md, "Wild cards"): the standard game's moves,
    # read with one or two wild ranks drawn per deal.
    "laizi": Rules(wild="laizi", name="laizi"),
    "tiandi": Rules(wild="tiandi", name="tiandi"),
    # Compatibility presets: the move sets of those engines (see docs/compat.md).
    "douzero": Rules(four_two_solo_distinct=False, both_jokers_as_kickers=True, name="douzero"),
    "rlcard": Rules(
        four_two_solo_distinct=False,
        airplane_bomb_kickers=False,
        airplane_adjacent_trio_kickers=False,
        name="rlcard",
    ),
})

#: What ``rules=`` accepts: a preset name or a :class:`Rules`.
RulesLike = Union[str, Rules]


#: Every bool field of Rules, in field order (check_rules checks them).
_BOOL_FIELDS = tuple(f.name for f in fields(Rules) if f.type in ("bool", bool))
#: The move options: the bool fields that change which moves exist (all of
#: them unless a field says ``metadata={"game_only": True}``).  The compiled
#: registry's key and its C struct ``RulesC`` (whose option fields carry
#: exactly these names) come from this one list.
MOVE_OPTIONS = tuple(f.name for f in fields(Rules)
                     if f.name in _BOOL_FIELDS and not f.metadata.get("game_only", False))


def check_rules(rules: Rules) -> Rules:
    """Return `rules` after checking that it is sound: supported ``players``
    and ``decks`` (plain ints), bool options, a known auction, and derived
    deck facts (``max_count``, ``max_jokers``, ``deck_size``, ``hand_size``,
    ``kitty_size``) equal to those of a plain ``Rules`` with these options.

    ``Rules.__post_init__`` checks the options of a plain ``Rules``; a
    subclass can skip that or override the properties, and the compiled
    code sizes its buffers from these facts, so :func:`resolve_rules` checks
    every subclass instance here (TypeError/ValueError naming the problem).
    """
    if type(rules) is Rules:
        # A plain Rules: the deck facts are class properties of players and
        # decks, so only its stored options can be unsound (changed with
        # object.__setattr__).  One quick look at them; the checks below
        # name the problem when there is one.  (Game() calls this per deal.)
        v = rules.__dict__
        if (type(v.get("players")) is int and type(v.get("decks")) is int
                and (v["players"], v["decks"]) in _GAMES
                and type(v.get("auction")) is str and v["auction"] in AUCTIONS
                and type(v.get("wild")) is str and v["wild"] in WILD_RANKS
                and (v["wild"] == "none" or v["decks"] == 1)
                and type(v.get("bomb_doubling")) is str and v["bomb_doubling"] in _BOMB_DOUBLING):
            for name in _BOOL_FIELDS:
                if type(v.get(name)) is not bool:
                    break
            else:
                return rules
    for name in ("players", "decks"):
        if type(getattr(rules, name)) is not int:
            raise TypeError(f"Rules.{name} must be an int, not {type(getattr(rules, name)).__name__}")
    if (rules.players, rules.decks) not in ((3, 1), (4, 2)):
        raise ValueError(f"unsupported game: players={rules.players}, decks={rules.decks}")
    for name in _BOOL_FIELDS:
        if type(getattr(rules, name)) is not bool:
            raise TypeError(f"Rules.{name} must be a bool, not {type(getattr(rules, name)).__name__}")
    for name in ("auction", "wild", "bomb_doubling"):
        if type(getattr(rules, name)) is not str:
            raise TypeError(f"Rules.{name} must be a str, not {type(getattr(rules, name)).__name__}")
    _check_choices(rules)
    d = rules.decks
    want = {"max_count": 4 * d, "max_jokers": d, "deck_size": 54 * d,
            "hand_size": 17 if rules.players == 3 else 25}
    want["kitty_size"] = want["deck_size"] - rules.players * want["hand_size"]
    want["wild_ranks"] = WILD_RANKS[rules.wild]
    for name, value in want.items():
        got = getattr(rules, name)
        if type(got) is not int or got != value:
            raise ValueError(f"Rules.{name} is {got!r}; the {rules.players}-player {d}-deck game has {value}")
    return rules


def resolve_rules(rules: RulesLike) -> Rules:
    """Turn a preset name or a ``Rules`` into a ``Rules``.

    Raises ``ValueError`` for an unknown preset name (listing the valid ones)
    and ``TypeError`` for anything that is neither.  An instance of a
    subclass of ``Rules`` is checked with :func:`check_rules`.
    """
    if type(rules) is Rules:
        return rules
    if isinstance(rules, Rules):
        return check_rules(rules)
    if isinstance(rules, str):
        rules = plain_str(rules, "rules")
        try:
            return PRESETS[rules]
        except KeyError:
            raise ValueError(
                f"unknown rules preset {rules!r}; valid presets: {', '.join(PRESETS)}"
            ) from None
    raise TypeError(f"rules must be a preset name or a Rules, not {type(rules).__name__}")
