"""Seeded benchmark inputs, shared by the pytest-benchmark suite and compare.py.

Everything here is built once, outside any timed code, from a seed.

Card representation: a 15-slot count vector, rank index 0..14 =
``3 4 5 6 7 8 9 T J Q K A 2 B R`` (B = low joker, R = high joker).

* :func:`make_deals` -- 3-player deals over card ids 0..53 (OpenSpiel's
  convention: rank(id) = id % 13 for id < 52, 52 = low joker, 53 = high joker),
  so every engine can replay exactly the same deal.  Landlord =
  ``perm[0:17] + perm[51:54]`` (20 cards), farmer1 = ``perm[17:34]`` (plays
  after the landlord), farmer2 = ``perm[34:51]``.
* :func:`make_deals4` -- 4-player two-deck deals (the ``four`` preset): three
  farmers with 25 cards, the landlord with 25 + 8 = 33.
* :func:`random_hands` -- hands of any size drawn from one or two decks.
* :func:`pick_prev_moves` -- engine-neutral choice of the landlord move that
  farmer1 answers (used by compare.py, where OpenSpiel must replay it).
* :func:`pick_lasts` -- the same idea with our own generator (used by the
  pytest suite, any rules preset).
"""
from __future__ import annotations

import random

import numpy as np

RANKS = "3456789TJQKA2BR"
N_RANKS = 15
DEFAULT_SEED = 12345


# ---------------------------------------------------------------------------
# Deals
# ---------------------------------------------------------------------------

def card_id_rank(card_id: int) -> int:
    """OpenSpiel card id (0..53) -> our rank index (0..14)."""
    if card_id >= 52:
        return card_id - 52 + 13
    return card_id % 13


def ids_to_counts(ids) -> list:
    c = [0] * N_RANKS
    for i in ids:
        c[card_id_rank(int(i))] += 1
    return c


def counts_to_text(counts) -> str:
    return "".join(RANKS[r] * int(c) for r, c in enumerate(counts))


def as_u8(counts) -> np.ndarray:
    """A count vector as the fast-path input: uint8 array of shape (15,)."""
    return np.asarray(counts, dtype=np.uint8).reshape(N_RANKS)


def make_deals(n: int, seed: int = DEFAULT_SEED):
    """n seeded 3-player deals.

    Each is a dict: ``perm`` (54 card ids), ``landlord`` / ``farmer1`` /
    ``farmer2`` (count lists of 20 / 17 / 17 cards), ``bottom`` (the 3
    landlord card ids).  The first k deals of ``make_deals(n, s)`` are the
    same for every n >= k.
    """
    rng = np.random.default_rng(seed)
    deals = []
    for _ in range(n):
        perm = [int(x) for x in rng.permutation(54)]
        deals.append({
            "perm": perm,
            "landlord": ids_to_counts(perm[0:17] + perm[51:54]),
            "farmer1": ids_to_counts(perm[17:34]),
            "farmer2": ids_to_counts(perm[34:51]),
            "bottom": perm[51:54],
        })
    return deals


def _deck(decks: int) -> np.ndarray:
    """The deck as an array of rank indices (4*decks of 3..2, decks of each joker)."""
    return np.repeat(np.arange(N_RANKS), [4 * decks] * 13 + [decks] * 2)


def make_deals4(n: int, seed: int = DEFAULT_SEED):
    """n seeded 4-player two-deck deals (the ``four`` preset): dicts with
    ``landlord`` (33 cards: 25 + the 8-card kitty) and ``farmer1`` ..
    ``farmer3`` (25 cards each) as count lists; farmer1 plays after the
    landlord, farmer3 before."""
    rng = np.random.default_rng(seed)
    deck = _deck(2)
    deals = []
    for _ in range(n):
        perm = deck[rng.permutation(len(deck))]

        def cnt(sl):
            return np.bincount(sl, minlength=N_RANKS).tolist()

        deals.append({
            "landlord": cnt(np.concatenate([perm[0:25], perm[100:108]])),
            "farmer1": cnt(perm[25:50]),
            "farmer2": cnt(perm[50:75]),
            "farmer3": cnt(perm[75:100]),
        })
    return deals


def random_hands(n: int, n_cards: int, decks: int = 1, seed: int = DEFAULT_SEED) -> np.ndarray:
    """(n, 15) uint8: n hands of n_cards cards, each drawn uniformly from a
    fresh deck of `decks` decks."""
    rng = np.random.default_rng([seed, n_cards, decks])
    deck = _deck(decks)
    out = np.empty((n, N_RANKS), dtype=np.uint8)
    for i in range(n):
        pick = rng.choice(len(deck), n_cards, replace=False)
        out[i] = np.bincount(deck[pick], minlength=N_RANKS)
    return out


# ---------------------------------------------------------------------------
# The move to answer (compare.py): engine-neutral, simple kinds only
# ---------------------------------------------------------------------------

def simple_moves_by_kind(h):
    """The hand's moves of the simple kinds, grouped by kind (not a full
    generator: only what OpenSpiel, DouZero and RLCard all agree on)."""
    out = {}
    rs = range(N_RANKS)

    def add(kind, mv):
        out.setdefault(kind, []).append(tuple(mv))

    for r in rs:
        if h[r] >= 1:
            add("solo", [1 if i == r else 0 for i in rs])
        if h[r] >= 2 and r < 13:
            add("pair", [2 if i == r else 0 for i in rs])
        if h[r] >= 3 and r < 13:
            add("trio", [3 if i == r else 0 for i in rs])
            for k in rs:
                if k != r and h[k] >= 1:
                    mv = [0] * N_RANKS
                    mv[r] = 3
                    mv[k] = 1
                    add("trio_solo", mv)
                if k != r and k < 13 and h[k] >= 2:
                    mv = [0] * N_RANKS
                    mv[r] = 3
                    mv[k] = 2
                    add("trio_pair", mv)
        if h[r] == 4 and r < 13:
            add("bomb", [4 if i == r else 0 for i in rs])
    for need, minlen, kind in ((1, 5, "chain"), (2, 3, "pair_chain"), (3, 2, "airplane")):
        for start in range(12):
            end = start
            while end < 12 and h[end] >= need:
                end += 1
                if end - start >= minlen:
                    mv = [0] * N_RANKS
                    for i in range(start, end):
                        mv[i] = need
                    add(kind, mv)
    return out


_PRIMAL = {"solo": 1, "pair": 2, "trio": 3, "trio_solo": 3, "trio_pair": 3,
           "bomb": 4, "chain": 1, "pair_chain": 2, "airplane": 3}


def _simple_key(kind, mv):
    ranks = [r for r in range(N_RANKS) if mv[r] == _PRIMAL[kind]]
    return kind, len(ranks), max(ranks)


def pick_prev_moves(deals, seed: int = DEFAULT_SEED):
    """(kind, counts) of the landlord move that farmer1 answers, for three
    scenarios (lists aligned with `deals`):

    * random:   kind uniform among the landlord's simple kinds, then a move of it;
    * beatable: the same, restricted to moves farmer1 can beat without a bomb
      or rocket (falls back to `random` when there is none);
    * solo:     the landlord's lowest single card.
    """
    rng = random.Random(seed)
    rand, beat, solo = [], [], []
    for d in deals:
        h = d["landlord"]
        by_kind = simple_moves_by_kind(h)
        # OpenSpiel 2.0.2 cannot lead a chain / pair chain / airplane whose
        # lowest rank the leader holds 4 times (its search skips such heads),
        # so such moves are never picked: every engine replays the same trick.
        for k in ("chain", "pair_chain", "airplane"):
            if k in by_kind:
                by_kind[k] = [m for m in by_kind[k]
                              if h[min(r for r in range(N_RANKS) if m[r])] != 4]
                if not by_kind[k]:
                    del by_kind[k]
        kind = rng.choice(sorted(by_kind))
        rand.append((kind, list(rng.choice(by_kind[kind]))))
        f1 = simple_moves_by_kind(d["farmer1"])
        f1_keys = {_simple_key(k, m) for k, ms in f1.items() for m in ms}
        ok = {}
        for k, ms in by_kind.items():
            for m in ms:
                kk, ln, rk = _simple_key(k, m)
                if any(fk == kk and fl == ln and fr > rk for fk, fl, fr in f1_keys):
                    ok.setdefault(k, []).append(m)
        if ok:
            kind = rng.choice(sorted(ok))
            beat.append((kind, list(rng.choice(ok[kind]))))
        else:
            beat.append(rand[-1])
        low = min(r for r in range(N_RANKS) if h[r])
        solo.append(("solo", [1 if i == low else 0 for i in range(N_RANKS)]))
    return rand, beat, solo


# ---------------------------------------------------------------------------
# The move to answer (pytest suite): any preset, picked with our generator
# ---------------------------------------------------------------------------

def pick_lasts(leader_hands, rules: str = "standard", seed: int = DEFAULT_SEED):
    """One lead of each leader hand, as a ``ddz_fast.Move``: a kind uniformly
    among the kinds the hand can lead, then a move of that kind uniformly."""
    import ddz_fast

    rng = random.Random(seed)
    out = []
    for h in leader_hands:
        moves = ddz_fast.legal_moves(as_u8(h), rules=rules)
        by_kind = {}
        for m in moves:
            by_kind.setdefault(int(m.kind), []).append(m)
        out.append(rng.choice(by_kind[rng.choice(sorted(by_kind))]))
    return out


def lasts_as_rows(lasts) -> np.ndarray:
    """(N, 16) uint8 rows (15 counts + kind code) of a list of Moves, the
    fast form of ``lasts`` for legal_moves_batch / count_moves."""
    rows = np.zeros((len(lasts), 16), dtype=np.uint8)
    for i, m in enumerate(lasts):
        rows[i, :15] = m.counts
        rows[i, 15] = int(m.kind)
    return rows


# ---------------------------------------------------------------------------
# The pytest-benchmark suite's hand sets
# ---------------------------------------------------------------------------

# Hands per single-call round, per batch call, and for the reference engine
# (which needs milliseconds to a tenth of a second per hand).
N_SINGLE = 256
N_BATCH = {"17": 2048, "20": 2048, "25": 2048, "33": 1024}
N_REFERENCE = {"17": 8, "20": 4, "25": 2, "33": 1}

HAND_SETS = ("17", "20", "25", "33")


class HandSet:
    """Hands of one size plus, for each, a move to answer.

    ``hands``: list of (15,) uint8 arrays; ``array``: the same as (N, 15);
    ``lasts``: one ``Move`` per hand (a lead of the player before);
    ``last_rows``: the lasts as (N, 16) uint8 rows; ``rules``: preset name.
    """

    def __init__(self, name, rules, hands, lasts):
        self.name = name
        self.rules = rules
        self.array = np.ascontiguousarray(np.asarray(hands, dtype=np.uint8))
        self.hands = [self.array[i].copy() for i in range(len(self.array))]
        self.lasts = lasts
        self.last_rows = lasts_as_rows(lasts)

    def __len__(self):
        return len(self.hands)

    def head(self, n):
        """The first n hands (and lasts) as a new HandSet."""
        return HandSet(self.name, self.rules, self.array[:n], self.lasts[:n])


def build_hand_set(name: str, n: int, seed: int) -> HandSet:
    """'17': farmer answering the landlord; '20': landlord answering the farmer
    before; '25' / '33': the same in the 4-player ``four`` game."""
    if name in ("17", "20"):
        deals = make_deals(n, seed)
        me, before = ("farmer1", "landlord") if name == "17" else ("landlord", "farmer2")
        rules = "standard"
    else:
        deals = make_deals4(n, seed)
        me, before = ("farmer1", "landlord") if name == "25" else ("landlord", "farmer3")
        rules = "four"
    hands = [d[me] for d in deals]
    lasts = pick_lasts([d[before] for d in deals], rules, seed)
    return HandSet(name, rules, hands, lasts)


def moves_in(results) -> int:
    return sum(len(r) for r in results)


# ---------------------------------------------------------------------------
# Mid-game positions (the engine benchmarks: clone, rollouts, world sampling)
# ---------------------------------------------------------------------------

N_POSITIONS = 2000


class MidGame:
    """One mid-game position of a seeded deal: ``game`` (a ``ddz_fast.Game``)
    and, when OpenSpiel was given, ``os_state`` (its ``dou_dizhu`` state after
    the same moves, else None); ``plies`` moves were made since the start of
    play (the landlord, seat 0, leads with 20 cards)."""

    __slots__ = ("game", "os_state", "plies")

    def __init__(self, game, os_state, plies):
        self.game = game
        self.os_state = os_state
        self.plies = plies


def mid_game_positions(n: int = N_POSITIONS, seed: int = DEFAULT_SEED, openspiel=None,
                       min_plies: int = 6, max_plies: int = 30):
    """n mid-game positions, one per seeded deal (``make_deals(n, seed)``).

    From the start of play, between min_plies and max_plies uniformly random
    legal moves are made, never one that would empty a hand (so no position
    is over).  With ``openspiel`` (an ``engines.OpenSpiel`` adapter) the moves
    are drawn from OpenSpiel's legal actions and the same cards are played in
    both engines, so both hold the same position; a move ddz-fast cannot
    replay the same way (a kicker reading it has no row for) ends that
    position's moves early.
    """
    import ddz_fast

    if openspiel is not None:
        from engines import openspiel_string_to_counts
    rng = random.Random(seed)
    out = []
    for d in make_deals(n, seed):
        g = ddz_fast.Game.from_position([as_u8(d["landlord"]), as_u8(d["farmer1"]),
                                         as_u8(d["farmer2"])], landlord=0)
        st = openspiel.state_for_deal(d["perm"]) if openspiel is not None else None
        made = 0
        for _ in range(rng.randint(min_plies, max_plies)):
            p = g.to_move
            if st is None:
                ml = g.legal_actions()
                ok = np.flatnonzero(ml.n_cards < g.hand_sizes[p]).tolist()
                if not ok:
                    break
                g.step(ml[rng.choice(ok)])
            else:
                acts = st.legal_actions()
                a = acts[rng.randrange(len(acts))]
                c = np.array(openspiel_string_to_counts(st.action_to_string(p, a)), dtype=np.uint8)
                if int(c.sum()) >= g.hand_sizes[p]:
                    continue  # would end the deal: draw again
                ml = g.legal_actions()
                hit = np.flatnonzero((ml.counts == c).all(axis=1))
                if not len(hit):
                    break
                g.step(ml[int(hit[0])])
                st.apply_action(a)
            made += 1
        assert not g.is_over and (st is None or not st.is_terminal())
        out.append(MidGame(g, st, made))
    return out


def aec_random_play(env, seeds, rng, on_step=None) -> int:
    """Whole deals through a ddz-fast AEC env (``reset(seed=s)`` for each of
    ``seeds``, or plain ``reset()`` for each when ``seeds`` is an int count),
    a uniformly random id among the action mask's each step;
    ``on_step(deal_index, obs, legal_ids, action)`` sees every step.  Returns
    the steps of live agents."""
    steps = 0
    deals = range(seeds) if isinstance(seeds, int) else seeds
    for g, s in enumerate(deals):
        if isinstance(seeds, int):
            env.reset()
        else:
            env.reset(seed=int(s))
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"].view(bool))
            a = int(legal[rng.integers(len(legal))])
            if on_step is not None:
                on_step(g, obs, legal, a)
            env.step(a)
            steps += 1
    return steps
