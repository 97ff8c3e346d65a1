"""The web app (``ddz-fast serve``) over its test client: what a seat is
sent, refused requests, concurrent games, replays and game records."""
from __future__ import annotations

import asyncio
import io
import json
import random
import threading

import pytest

from optional import require

require("starlette")
require("httpx")

import httpx  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from ddz_fast import Game, arena, cli, game_seed  # noqa: E402
from ddz_fast.cards import RANKS  # noqa: E402
from ddz_fast.web import create_app  # noqa: E402
from ddz_fast.web.views import cards_json, wild_json  # noqa: E402

# Every field a playing client may receive (the seat view and its session fields).
VIEW_KEYS = {"seat", "phase", "to_move", "your_turn", "hand", "hand_sizes", "wild", "landlord", "kitty", "base",
             "bombs", "doubles", "stake", "deal_number", "auction_level", "last_move", "last_player", "played",
             "history", "trick", "legal", "options", "can_pass", "result", "id", "preset", "auction", "players",
             "names", "ply", "totals", "deals", "finished"}


@pytest.fixture
def client():
    with TestClient(create_app()) as c:
        yield c


def _card_lists(obj, path=""):
    """Every list of card labels in a JSON value, with its path."""
    if isinstance(obj, list):
        if obj and all(isinstance(x, str) and len(x) == 1 and x in RANKS for x in obj):
            yield path, obj
        for i, x in enumerate(obj):
            if isinstance(x, (list, dict)):         # (a wild lead lists thousands of moves: skip the leaves)
                yield from _card_lists(x, f"{path}[{i}]")
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, (list, dict)):
                yield from _card_lists(v, f"{path}.{k}")


def _key(cards):
    return tuple(sorted(cards))


def assert_seat_safe(view, game, seat):
    """``view`` (sent to ``seat``) shows only what the seat may see: every
    card list in it is the seat's own hand, a legal move from it or what it
    reads as, the revealed kitty, a move played or its reading, a seat's
    played cards, or the drawn wild ranks; the other hands appear only as
    their counts."""
    assert set(view) <= VIEW_KEYS, set(view) - VIEW_KEYS
    assert view["seat"] == seat
    own = cards_json(game.hand(seat))
    assert view["hand"] == own
    assert view["hand_sizes"] == list(game.hand_sizes)
    allowed = {_key(own)}
    assert view["wild"] == wild_json(game.wild)          # (public once drawn, None before)
    if game.wild is not None:
        allowed.add(_key(view["wild"]))
    if game.kitty_revealed:
        assert view["kitty"] == cards_json(game.kitty)
        allowed.add(_key(view["kitty"]))
    else:
        assert view["kitty"] is None
    for _, a in game.history:
        if hasattr(a, "counts"):
            allowed.update({_key(cards_json(a.counts)), _key(cards_json(a.represents))})
    for row in game.played_cards:
        allowed.add(_key(cards_json(row)))
    legal = game.legal_actions() if game.to_move == seat else ()
    for m in legal:
        if hasattr(m, "counts"):
            allowed.update({_key(cards_json(m.counts)), _key(cards_json(m.represents))})
    hidden = {s: _key(cards_json(game.hand(s))) for s in range(game.players) if s != seat}
    for path, cards in _card_lists(view):
        assert _key(cards) in allowed, f"{path} = {cards} is no card list seat {seat} may see"
    # (the counts: a hidden hand of several cards never appears as a list unless it is public anyway)
    text = json.dumps(view)
    for s, h in hidden.items():
        if len(h) > 1 and h not in allowed:
            assert json.dumps(sorted(h)) not in text and json.dumps(list(h)) not in text, s


def _game(app, sid):
    return app.state.sessions.get(sid).game


def test_a_seat_is_never_sent_another_seats_hidden_cards():
    app = create_app()
    rng = random.Random(5)
    with TestClient(app) as c:
        for i in range(30):
            # (six wild deals cover each wild preset at each level: a wild lead lists thousands of
            # moves, and a master weighs each of them)
            preset = ["standard", "strict", "four"][i % 3] if i < 24 else ["tiandi", "laizi"][i % 2]
            body = {"preset": preset, "level": ["leisure", "challenge", "master"][i % 3], "seed": i,
                    "seat": i % (4 if preset == "four" else 3)}
            if i % 4 == 1:
                body["auction"] = "rob"
            r = c.post("/api/games", json=body)
            assert r.status_code == 201, r.text
            v = r.json()
            sid, seat = v["id"], body["seat"]
            for _ in range(400):
                g = _game(app, sid)
                assert_seat_safe(v, g, seat)
                assert_seat_safe(c.get(f"/api/games/{sid}").json(), g, seat)
                if v["result"] is not None:
                    break
                h = c.post(f"/api/games/{sid}/hint")
                assert h.status_code == 200 and "cards" not in h.json() or set(h.json()["cards"]) <= set(v["hand"])
                n = len(v["legal"]) or len(v["options"])
                # mostly the last option (bids end the auction), moves at random
                pick = n - 1 if v["options"] else rng.randrange(n)
                r = c.post(f"/api/games/{sid}/action", json={"index": pick, "ply": v["ply"]})
                assert r.status_code == 200, r.text
                v = r.json()
            assert v["result"] is not None
            assert v["totals"] == v["result"]["scores"]
            assert sum(v["result"]["scores"]) == 0


def _started(client, **body):
    r = client.post("/api/games", json={"preset": "standard", "level": "challenge", "seed": 3, **body})
    assert r.status_code == 201, r.text
    return r.json()


def _to_play(client, v):
    """Bid up until the seat is to play a move."""
    while v["phase"] != "PLAY" or not v["your_turn"]:
        assert v["result"] is None
        n = len(v["options"]) or len(v["legal"])
        v = client.post(f"/api/games/{v['id']}/action", json={"index": n - 1 if v["options"] else 0}).json()
    return v


BAD_ACTIONS = [
    (b"{", 400, "not JSON"),
    (b"[1, 2]", 400, "JSON object"),
    (b'"index"', 400, "JSON object"),
    (b'{"index": 0, "cheat": 1}', 400, "unknown field"),
    (b"{}", 400, "index must be an integer"),
    (b'{"index": "0"}', 400, "index must be an integer"),
    (b'{"index": true}', 400, "index must be an integer"),
    (b'{"index": 1.5}', 400, "index must be an integer"),
    (b'{"index": -1}', 400, "out of range"),
    (b'{"index": 100000}', 400, "out of range"),
    (b'{"index": 123456789012345678901234567890}', 400, "out of range"),
    (b'{"index": 0, "ply": 999}', 409, "stale"),
    (b'{"index": 0, "ply": "x"}', 409, "stale"),
    (b'\xff\xfe', 400, "not JSON"),
    (b'{"index": 0, "pad": "' + b"x" * 20000 + b'"}', 413, "larger than"),
]


@pytest.mark.parametrize("body,status,words", BAD_ACTIONS)
def test_a_malformed_or_illegal_action_is_refused_and_changes_nothing(client, body, status, words):
    v = _to_play(client, _started(client))
    sid = v["id"]
    before = client.get(f"/api/games/{sid}").json()
    r = client.post(f"/api/games/{sid}/action", content=body, headers={"content-type": "application/json"})
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert client.get(f"/api/games/{sid}").json() == before
    # the game goes on from where it was
    ok = client.post(f"/api/games/{sid}/action", json={"index": 0, "ply": before["ply"]})
    assert ok.status_code == 200 and ok.json()["ply"] > before["ply"]


BAD_GAMES = [
    ({"preset": "nope"}, "preset must be one of"),
    ({"preset": "douzero"}, "preset must be one of"),
    ({"preset": ["standard"]}, "preset must be one of"),
    ({"auction": "auction"}, "auction must be one of"),
    ({"level": "grandmaster"}, "unknown opponent"),
    ({"level": "os:system"}, "unknown opponent"),
    ({"level": "pimc"}, "unknown opponent"),
    ({"opponents": ["master"]}, "opponents"),
    ({"opponents": "master"}, "opponents must be a list"),
    ({"opponents": ["master", "master"], "level": "master"}, "not both"),
    ({"seat": 3}, "seat must be"),
    ({"seat": "0"}, "seat must be"),
    ({"seed": -1}, "seed must be"),
    ({"seed": 1 << 64}, "seed must be"),
    ({"players": 2}, "unknown field"),
]


@pytest.mark.parametrize("body,words", BAD_GAMES)
def test_a_bad_new_game_is_refused_with_a_4xx(client, body, words):
    r = client.post("/api/games", json=body)
    assert r.status_code == 400, r.text
    assert words in r.json()["error"]


def test_a_move_sent_as_text_is_checked_against_the_legal_moves(client):
    v = _started(client, preset="laizi")
    sid = v["id"]
    assert v["phase"] == "AUCTION" and v["your_turn"] and v["wild"] is None
    r = client.post(f"/api/games/{sid}/action", json={"move": "3"})
    assert r.status_code == 400 and "play phase" in r.json()["error"]
    v = _to_play(client, v)
    g = _game(client.app, sid)
    assert v["wild"] == wild_json(g.wild) and len(v["wild"]) == 1
    legal = v["legal"]
    # the page's premise: some selected cards make several moves, one per reading
    readings = {}
    for m in legal:
        readings.setdefault(_key(m["cards"]), set()).add(tuple(m.get("reads", m["cards"])))
    assert max(map(len, readings.values())) > 1
    read = next(m for m in legal if "reads" in m)           # a wild card read as another rank
    other = next(m for m in legal if m["index"] != read["index"])
    hand = g.hand(v["seat"])
    absent = next(RANKS[r] for r in range(12) if hand[r] == 0 and r not in g.wild)
    bad = [
        ({"move": 5}, 400, "move must be the text"),
        ({"move": "7" * 101}, 400, "move must be the text"),
        ({"move": "zz"}, 400, "move 'zz'"),
        ({"move": read["text"], "kind": 3}, 400, "kind must be"),
        ({"move": read["text"], "kind": "NOPE"}, 400, "unknown move kind"),
        ({"move": read["text"], "kind": "ROCKET"}, 400, f"move {read['text']!r}"),
        ({"move": read["cards"][0] + "=R"}, 400, "move"),                  # a wild card is no joker
        ({"move": absent * 2}, 400, "not a legal move now"),
        ({"move": absent * 2 + "=" + absent * 2}, 400, "move"),
        ({"move": "pass"}, 400, "not a legal move now"),                   # (a lead)
        ({"kind": "SOLO", "index": 0}, 400, "kind goes with a move"),
        ({"move": read["text"], "index": other["index"]}, 409, "is not action"),
        ({"move": read["text"], "index": len(legal)}, 400, "out of range"),
        ({"move": read["text"], "ply": v["ply"] + 1}, 409, "stale"),
        ({"move": read["text"], "index": "0"}, 400, "index must be an integer"),
    ]
    before = client.get(f"/api/games/{sid}").json()
    for body, status, words in bad:
        r = client.post(f"/api/games/{sid}/action", json=body)
        assert r.status_code == status and words in r.json()["error"], (body, r.text)
        assert client.get(f"/api/games/{sid}").json() == before
    r = client.post(f"/api/games/{sid}/action", json={"move": read["text"], "kind": read["kind"],
                                                      "index": read["index"], "ply": v["ply"]})
    assert r.status_code == 200, r.text
    mine = r.json()["history"][v["ply"]]
    assert (mine["seat"], mine["text"], mine["reads"]) == (v["seat"], read["text"], read["reads"])


def test_requests_out_of_turn_or_for_nothing_get_4xx(client):
    assert client.get("/api/games/nope").status_code == 404
    assert "no game" in client.post("/api/games/nope/action", json={"index": 0}).json()["error"]
    assert client.get("/api/games/x/action").status_code == 405
    assert client.get("/api/nothing").status_code == 404
    v = _started(client, level="leisure", seed=11)
    sid = v["id"]
    r = client.post(f"/api/games/{sid}/next")
    assert r.status_code == 409 and "not over" in r.json()["error"]
    while v["result"] is None:
        n = len(v["options"]) or len(v["legal"])
        v = client.post(f"/api/games/{sid}/action", json={"index": n - 1}).json()
    over = client.get(f"/api/games/{sid}").json()
    for path in ("action", "hint"):
        r = client.post(f"/api/games/{sid}/{path}", json={"index": 0})
        assert r.status_code == 409, r.text
    assert client.get(f"/api/games/{sid}").json() == over
    assert client.get(f"/api/games/{sid}/replays/1").status_code == 404
    assert client.get(f"/api/games/{sid}/replays/0/verdict/100000").status_code == 404
    assert client.get(f"/api/games/{sid}/replays/0/verdict/x1").status_code == 404
    nxt = client.post(f"/api/games/{sid}/next").json()
    assert nxt["deals"] == 1 and nxt["result"] is None and nxt["totals"] == over["totals"]


async def _play_over_http(app, k, seed):
    rng = random.Random(seed)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        r = await c.post("/api/games", json={"preset": ["standard", "four", "laizi", "tiandi"][k % 4],
                                              "level": "challenge",
                                              "seed": seed, "seat": k % 3})
        assert r.status_code == 201, r.text
        v = r.json()
        while v["result"] is None:
            n = len(v["options"]) or len(v["legal"])
            pick = n - 1 if v["options"] else rng.randrange(n)
            r = await c.post(f"/api/games/{v['id']}/action", json={"index": pick, "ply": v["ply"]})
            assert r.status_code == 200, r.text
            v = r.json()
        return [v["seat"], v["result"], [(e["seat"], e["text"]) for e in v["history"]]]


def test_fifty_concurrent_games_over_http_do_not_interfere():
    async def run(app, ks):
        return await asyncio.gather(*[_play_over_http(app, k, 1000 + k) for k in ks])

    together = asyncio.run(run(create_app(), range(50)))
    assert len({json.dumps(t) for t in together}) > 40       # (50 different deals)
    app = create_app()
    alone = [asyncio.run(run(app, [k]))[0] for k in range(50)]
    assert together == alone


class BlockingAgent:
    """An opponent whose first decision waits until another game's request
    has been answered."""

    def __init__(self):
        self.called = threading.Event()
        self.release = threading.Event()

    def __call__(self, obs, legal_actions=None):
        if not self.called.is_set():
            self.called.set()
            assert self.release.wait(10), "the other game's request never came back"
        return (legal_actions or obs.legal_actions)[0]


def test_an_agent_thinking_does_not_block_other_games():
    agent = BlockingAgent()
    app = create_app({"blocker": agent})
    first = Game("standard", seed=game_seed(2, 0))      # (the session's first deal)
    assert first.to_move != 0          # (the blocking agent acts before the person)

    async def main():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            slow = asyncio.ensure_future(c.post("/api/games", json={"preset": "standard", "level": "blocker",
                                                                     "seat": 0, "seed": 2}))
            while not agent.called.is_set():        # (the agent is thinking: the loop must still run)
                await asyncio.sleep(0.01)
            other = await c.post("/api/games", json={"preset": "standard", "level": "challenge", "seed": 4})
            assert other.status_code == 201
            agent.release.set()
            return (await slow).status_code

    assert asyncio.run(main()) == 201


def test_an_agent_that_fails_gets_a_5xx_naming_it():
    def broken(obs, legal_actions=None):
        raise KeyError("boom")

    with TestClient(create_app({"broken": broken}), raise_server_exceptions=False) as c:
        r = c.post("/api/games", json={"preset": "standard", "level": "broken", "seed": 2})
        assert r.status_code == 500
        assert "broken" in r.json()["error"] and "KeyError" in r.json()["error"]


def test_a_finished_deal_replays_face_up_to_its_result(client):
    v = _started(client, seed=21, level="challenge")
    sid = v["id"]
    while v["result"] is None:
        h = client.post(f"/api/games/{sid}/hint").json()
        v = client.post(f"/api/games/{sid}/action", json={"index": h["index"]}).json()
    rep = client.get(f"/api/games/{sid}/replays/0").json()
    frames = rep["frames"]
    assert len(frames) == len(v["history"]) + 1
    assert sum(len(h) for h in frames[0]["hands"]) == 51 and len(frames[0]["kitty"]) == 3   # (face up)
    assert frames[-1]["result"] == v["result"]
    assert frames[-1]["history"] == v["history"]
    # the solver speaks only near the end
    early = client.get(f"/api/games/{sid}/replays/0/verdict/0").json()
    assert early["status"] == "n/a"
    k = next(i for i, f in enumerate(frames) if f["phase"] == "PLAY" and sum(map(len, f["hands"])) <= 20)
    late = client.get(f"/api/games/{sid}/replays/0/verdict/{k}").json()
    assert late["status"] in ("win", "loss") and late["cards"] <= 20


def test_a_finished_wild_deal_replays_with_its_wild_ranks_and_readings(client):
    v = _started(client, preset="tiandi", seed=5)
    sid = v["id"]
    while v["result"] is None:
        h = client.post(f"/api/games/{sid}/hint").json()
        v = client.post(f"/api/games/{sid}/action", json={"index": h["index"]}).json()
    assert len(v["wild"]) == 2
    frames = client.get(f"/api/games/{sid}/replays/0").json()["frames"]
    assert frames[0]["wild"] is None and frames[-1]["wild"] == v["wild"]
    assert frames[-1]["history"] == v["history"] and frames[-1]["result"] == v["result"]
    k = next(i for i, f in enumerate(frames) if f["phase"] == "PLAY" and sum(map(len, f["hands"])) <= 20)
    late = client.get(f"/api/games/{sid}/replays/0/verdict/{k}").json()
    assert late["status"] in ("win", "loss")


def test_arena_records_of_wild_games_replay_to_their_results(client):
    buf = io.StringIO()
    arena.play(["simple", "random"], deals=3, seed=2, rules="laizi", save_games=buf)
    recs = [json.loads(x) for x in buf.getvalue().splitlines()]
    r = client.post("/api/replays?name=laizi.jsonl", content=buf.getvalue().encode())
    assert r.status_code == 201 and r.json()["games"] == len(recs) == 6
    src = r.json()["id"]
    read_seen = 0
    for k, rec in enumerate(recs):
        g = arena.game_from_record(rec)
        frames = client.get(f"/api/replays/{src}/{k}").json()["frames"]
        assert frames[-1]["result"]["scores"] == list(g.result.scores)
        assert frames[-1]["wild"] == wild_json(g.wild)
        moves = [a for _, a in g.history if hasattr(a, "counts")]
        shown = [e for e in frames[-1]["history"] if e["type"] == "move"]
        assert [e["text"] for e in shown] == ["pass" if m.is_pass else str(m) for m in moves]
        assert [e.get("reads") for e in shown] == [cards_json(m.represents) if m.represents != m.counts else None
                                                   for m in moves]
        read_seen += sum("reads" in e for e in shown)
    assert read_seen > 0                         # (some wild card was read as another rank)


def test_arena_save_games_writes_records_that_replay_to_the_arena_scores(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    assert cli.main(["arena", "simple", "random", "--deals", "3", "--seed", "4", "--save-games", str(path),
                     "-q", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    lines = path.read_text().splitlines()
    assert len(lines) == res["games"] == 6
    seen = set()
    for line in lines:
        rec = json.loads(line)
        g = arena.game_from_record(rec)
        base = g.result.base
        assert [s // base for s in g.result.scores] == rec["arena"]["scores"]
        seen.add((rec["arena"]["deal"], rec["arena"]["rotation"]))
    assert seen == {(d, r) for d in range(3) for r in range(2)}


def test_arena_save_games_with_an_auction_and_four_players(tmp_path):
    buf = io.StringIO()
    res = arena.play(["simple", "random"], deals=2, seed=1, rules="four", landlord="auction", save_games=buf)
    recs = [json.loads(x) for x in buf.getvalue().splitlines()]
    assert len(recs) == len(res)
    for rec in recs:
        g = arena.game_from_record(rec)
        q = rec["arena"]["deal"] * len(res.rotations) + rec["arena"]["rotation"]
        assert list(g.result.scores) == res.scores[q].tolist()
    with pytest.raises(ValueError, match="not with ray"):
        arena.play(["simple", "random"], deals=1, ray="local", save_games=io.StringIO())


def test_a_tampered_record_is_refused():
    g = Game("standard", seed=8)
    while not g.is_over:
        g.step(g.legal_actions()[-1])
    rec = arena.game_record(g)
    assert arena.game_from_record(json.loads(json.dumps(rec))).result == g.result
    bad_action = json.loads(json.dumps(rec))
    bad_action["actions"][5][1] = 0
    with pytest.raises(ValueError, match="bad game record"):
        arena.game_from_record(bad_action)
    bad_seat = json.loads(json.dumps(rec))
    bad_seat["actions"][0][0] = (bad_seat["actions"][0][0] + 1) % 3
    with pytest.raises(ValueError, match="is by seat"):
        arena.game_from_record(bad_seat)
    bad_result = json.loads(json.dumps(rec))
    bad_result["result"]["scores"][0] += 1
    with pytest.raises(ValueError, match="result"):
        arena.game_from_record(bad_result)
    for broken in ({}, {"format": "ddz-fast-game", "version": 1}, [], {**rec, "rules": {"players": 9}}):
        with pytest.raises(ValueError):
            arena.game_from_record(broken)          # type: ignore[arg-type]
    with pytest.raises(ValueError, match="position"):
        arena.game_record(Game.from_position(["3", "4", "5"], landlord=0))


def test_uploaded_records_replay_and_bad_uploads_are_refused(client, tmp_path):
    buf = io.StringIO()
    arena.play(["simple", "simple"], deals=1, seed=2, save_games=buf)
    r = client.post("/api/replays?name=run.jsonl", content=buf.getvalue().encode())
    assert r.status_code == 201 and r.json()["games"] == 2
    src = r.json()["id"]
    listing = client.get("/api/replays").json()
    assert [s["name"] for s in listing] == ["run.jsonl"]
    frames = client.get(f"/api/replays/{src}/1").json()["frames"]
    assert frames[-1]["result"] is not None
    assert client.get(f"/api/replays/{src}/2").status_code == 404
    assert client.get("/api/replays/zz/0").status_code == 404
    for body, words in [(b"not json\n", "line 1"), (b"\xff", "UTF-8"), (b"\n\n", "no game records"),
                        (b'{"format": "ddz-fast-game"}\n', "line 1")]:
        r = client.post("/api/replays", content=body)
        assert r.status_code in (400, 422) and words in r.json()["error"], r.text
    assert len(client.get("/api/replays").json()) == 1


def test_a_trajectory_dataset_replays_to_its_recorded_scores(tmp_path):
    require("pyarrow")
    from ddz_fast.trajectories import TrajectoryDataset, record

    record(tmp_path / "ds", 5, seed=3, policy="bot", tables=4, progress=False)
    app = create_app(replays=[str(tmp_path / "ds")])
    data = TrajectoryDataset(tmp_path / "ds").read(["game", "seat", "final_score", "done"])
    with TestClient(app) as c:
        (src,) = c.get("/api/replays").json()
        assert src["games"] == 5
        for k in range(5):
            frames = c.get(f"/api/replays/{src['id']}/{k}").json()["frames"]
            ends = (data["game"] == k) & data["done"]
            seat = int(data["seat"][ends][0])
            assert frames[-1]["result"]["scores"][seat] == int(data["final_score"][ends][0])


def test_serve_warns_off_loopback_and_checks_its_agents(monkeypatch, capsys):
    import uvicorn

    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    assert cli.main(["serve", "--port", "8123"]) == 0
    assert "warning" not in capsys.readouterr().err
    assert cli.main(["serve", "--host", "0.0.0.0", "--agents", "pimc(worlds=4)"]) == 0
    assert "warning: listening on 0.0.0.0" in capsys.readouterr().err
    assert calls == [{"host": "127.0.0.1", "port": 8123, "log_level": "warning"},
                     {"host": "0.0.0.0", "port": 8000, "log_level": "warning"}]
    assert cli.main(["serve", "--agents", "nosuchagent"]) == 2
    assert "unknown agent" in capsys.readouterr().err
    assert cli.main(["serve", "--port", "70000"]) == 2
    assert len(calls) == 2


def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "app.js" in page.text
    for name in ("app.js", "app.css"):
        assert client.get(f"/static/{name}").status_code == 200
    cfg = client.get("/api/config").json()
    assert [p["name"] for p in cfg["presets"]] == ["standard", "strict", "four", "laizi", "tiandi"]
    assert [p["wild"] for p in cfg["presets"]] == [0, 0, 0, 1, 2]
    assert cfg["levels"] == {"leisure": "random", "challenge": "simple", "master": "pimc"}
    assert "".join(r["label"] for r in cfg["ranks"]) == RANKS


def test_the_least_recently_used_session_makes_room():
    with TestClient(create_app(max_sessions=2)) as c:
        ids = [_started(c, seed=k)["id"] for k in range(2)]
        assert c.get(f"/api/games/{ids[0]}").status_code == 200        # (now the most recently used)
        third = _started(c, seed=9)["id"]
        assert c.get(f"/api/games/{ids[1]}").status_code == 404
        assert c.get(f"/api/games/{ids[0]}").status_code == 200
        assert c.get(f"/api/games/{third}").status_code == 200


def test_serve_refuses_a_replay_it_cannot_read(tmp_path, monkeypatch, capsys):
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: pytest.fail("the server must not start"))
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "ddz-fast-game"}\n')
    assert cli.main(["serve", "--replay", str(bad)]) == 2
    assert "bad.jsonl, line 1" in capsys.readouterr().err
    assert cli.main(["serve", "--replay", str(tmp_path / "missing.jsonl")]) == 2
    assert "missing.jsonl" in capsys.readouterr().err


@pytest.mark.parametrize("spec", ["random", "simple", "bot", "pimc", "pimc(worlds=4)"])
def test_observation_agent_plays_legal_actions_for_each_builtin_agent(spec):
    for preset in ("standard", "four"):
        g = Game(preset, seed=6)
        agent = arena.observation_agent(spec, seed=1, rules=preset)
        for _ in range(40):
            if g.is_over:
                break
            a = agent(g.observation(g.to_move))
            assert a in g.legal_actions()
            g.step(a)


def test_observation_agent_refuses_what_cannot_play_a_seat():
    class Batch:
        def act_batch(self, vec, tables):
            return [0] * len(tables)

    with pytest.raises(ValueError, match="batches"):
        arena.observation_agent(Batch())
    with pytest.raises(TypeError, match="name or a callable"):
        arena.observation_agent(3)
    with pytest.raises(ValueError, match="unknown agent"):
        arena.observation_agent("grandmaster")
