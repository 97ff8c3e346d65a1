"""Hypothesis strategies for wild-card positions (the laizi and tiandi presets).

Wild moves are plain ``(kind, represents, counts)`` tuples, as
``ddz_fast.reference.wild_moves`` gives them.  A position is drawn in this
order: the wild ranks, the move on the table (none, PASS, any move another
hand can make, or a bomb of each class), then the hand from the cards the
move on the table leaves in the deck, with 0-4 wild cards (tiandi: 0-8 over
the two wild ranks) among its 1-20 cards.
"""
from hypothesis import strategies as st

from ddz_fast import Kind
from ddz_fast import reference as ref

#: The one-deck deck as 15 counts.
DECK = (4,) * 13 + (1, 1)
B, R = 13, 14  # the jokers


def vec(ranks):
    out = [0] * 15
    for x in ranks:
        out[x] += 1
    return tuple(out)


def minus(a, b):
    out = tuple(x - y for x, y in zip(a, b))
    assert min(out) >= 0
    return out


def text(counts):
    return "".join("3456789TJQKA2BR"[r] * c for r, c in enumerate(counts))


def wild_ranks(preset):
    """The wild ranks of a deal: one rank 3..2 (laizi) or two different ones
    (tiandi), as a sorted tuple of rank indices."""
    n = {"laizi": 1, "tiandi": 2}[preset]
    return st.lists(st.integers(0, 12), min_size=n, max_size=n, unique=True).map(
        lambda xs: tuple(sorted(xs)))


@st.composite
def wild_hand(draw, wild, avail=DECK, max_size=20, max_wild=None):
    """A hand of 1..max_size cards within `avail`: first its wild cards (any
    number the deck leaves, at most `max_wild`), then natural cards, either a
    random sample or runs of pairs, trios and fours with scattered cards."""
    avail = list(avail)
    counts = [0] * 15
    limit = sum(avail[x] for x in wild)
    if max_wild is not None:
        limit = min(limit, max_wild)
    for _ in range(draw(st.integers(0, min(limit, max_size)))):
        x = draw(st.sampled_from([x for x in wild if counts[x] < avail[x]]))
        counts[x] += 1
    natural = [0 if r in wild else avail[r] for r in range(15)]
    room = max_size - sum(counts)
    if draw(st.booleans()):
        cards = [r for r in range(15) for _ in range(natural[r])]
        for r in draw(st.permutations(cards))[:draw(st.integers(0, room))]:
            counts[r] += 1
    else:
        lo = draw(st.integers(0, 11))
        for r in range(lo, min(lo + draw(st.integers(1, 6)), 12)):
            counts[r] += min(natural[r], draw(st.sampled_from([1, 2, 3, 3, 4])))
        for r in draw(st.lists(st.integers(0, 14), max_size=6)):
            if counts[r] < natural[r]:
                counts[r] += 1
        if draw(st.booleans()):
            counts[B], counts[R] = natural[B], natural[R]
        while sum(counts) > max_size:  # drop natural cards from the top
            counts[max(r for r in range(15) if counts[r] and r not in wild)] -= 1
    if sum(counts) == 0:
        counts[draw(st.sampled_from([r for r in range(15) if avail[r]]))] += 1
    return tuple(counts)


@st.composite
def bomb_last(draw, wild):
    """A bomb of each class as the move on the table: the rocket, a wild bomb
    (four cards of a wild rank for themselves), a hard bomb (four natural
    cards) or a soft bomb (four of a rank with a wild card standing in)."""
    classes = ["rocket", "hard", "wild", "soft"]
    cls = draw(st.sampled_from(classes))
    if cls == "rocket":
        rocket = vec([B, R])
        return (Kind.ROCKET, rocket, rocket)
    if cls in ("hard", "wild"):
        pool = [r for r in range(13) if (r in wild) == (cls == "wild")]
        four = vec([draw(st.sampled_from(pool))] * 4)
        return (Kind.BOMB, four, four)
    # soft: a rank and four cards each of that rank or of a wild rank, at
    # least one of them a wild card standing in for another rank
    pool = [r for r in range(13) if r not in wild or len(wild) == 2]
    rank = draw(st.sampled_from(pool))
    stand_ins = [x for x in wild if x != rank]
    n_in = draw(st.integers(1, 4))
    cards = [rank] * (4 - n_in) + [draw(st.sampled_from(stand_ins)) for _ in range(n_in)]
    return (Kind.BOMB, vec([rank] * 4), vec(cards))


@st.composite
def other_last(draw, wild, rules):
    """Any move another hand of up to 8 cards (with its own wild cards) can
    make, as the reference lists it."""
    other = draw(wild_hand(wild, max_size=8, max_wild=3))
    return draw(st.sampled_from(ref.wild_moves(other, rules=rules, wild=wild)))


@st.composite
def wild_position(draw, preset, rules=None, bombs=True):
    """(wild, last, hand): the wild ranks, the move on the table (None for a
    lead, the PASS tuple, another hand's move or a bomb of any class) and a
    hand drawn from the cards that move leaves in the deck.  `rules` (the
    preset by default) reads the other hand's moves."""
    rules = preset if rules is None else rules
    wild = draw(wild_ranks(preset), label="wild")
    choices = ["lead", "pass", "other", "bomb"] if bombs else ["lead", "pass", "other"]
    how = draw(st.sampled_from(choices))
    if how == "lead":
        last = None
    elif how == "pass":
        last = ref.WILD_PASS
    elif how == "other":
        last = draw(other_last(wild, rules), label="last")
    else:
        last = draw(bomb_last(wild), label="last")
    avail = DECK if last is None else minus(DECK, last[2])
    hand = draw(wild_hand(wild, avail), label="hand")
    return wild, last, hand


@st.composite
def wild_cards(draw, preset, max_size=20, max_wild=None):
    """(wild, cards): the wild ranks and a set of physical cards (to read
    with classify)."""
    wild = draw(wild_ranks(preset), label="wild")
    return wild, draw(wild_hand(wild, max_size=max_size, max_wild=max_wild), label="cards")
