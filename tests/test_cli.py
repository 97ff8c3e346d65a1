"""The command line end to end: selfplay, play (scripted stdin), moves."""
import io
import json
import re
import subprocess
import sys

import pytest

from ddz_fast import play_random_games
from ddz_fast.cli import main


def run_main(argv, stdin_text="", monkeypatch=None, capsys=None):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin_text))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------------
# selfplay
# ---------------------------------------------------------------------------

def test_selfplay_summary(monkeypatch, capsys):
    code, out, err = run_main(["selfplay", "--games", "200", "--seed", "4"], "", monkeypatch, capsys)
    assert code == 0
    res = play_random_games(200, seed=4)
    s = res.summary()
    assert "200 uniformly random games" in out
    assert f"{100 * s['landlord_win_rate']:.1f} %" in out
    assert f"{s['bombs_per_game']:.3f}" in out
    assert "games per second" in out and "springs" in out and "anti-springs" in out
    totals = "  ".join(f"{int(t):+,}" for t in res.scores.sum(axis=0))
    assert totals in out
    assert "200/200" not in err          # (the progress bar is drawn on a terminal only)


def test_selfplay_json_matches_library_and_threads(monkeypatch, capsys):
    code, out, _ = run_main(["selfplay", "--games", "3000", "--json", "-q", "--rules", "four",
                             "--auction", "rob", "--threads", "2", "--seed", "8"], "", monkeypatch, capsys)
    assert code == 0
    got = json.loads(out)
    from ddz_fast import PRESETS
    res = play_random_games(3000, rules=PRESETS["four"].replace(auction="rob"), seed=8)
    s = res.summary()
    for k in ("games", "landlord_win_rate", "mean_landlord_score", "bombs_per_game", "springs",
              "anti_springs", "redeals_per_game", "plies_per_game", "mean_value", "max_value"):
        assert got[k] == pytest.approx(s[k]), k
    assert got["players"] == 4 and got["auction"] == "rob"
    assert got["seat_totals"] == [int(x) for x in res.scores.sum(axis=0)]


def test_selfplay_zero_games_and_errors(monkeypatch, capsys):
    code, out, _ = run_main(["selfplay", "--games", "0", "-q"], "", monkeypatch, capsys)
    assert code == 0 and "no games" in out
    code, _, err = run_main(["selfplay", "--games", "-5"], "", monkeypatch, capsys)
    assert code == 2 and "--games" in err
    code, _, err = run_main(["selfplay", "--threads", "0"], "", monkeypatch, capsys)
    assert code == 2 and "--threads" in err


def test_selfplay_record_writes_a_dataset_the_reader_opens(monkeypatch, capsys, tmp_path):
    pytest.importorskip("pyarrow")
    from ddz_fast.trajectories import TrajectoryDataset
    d = tmp_path / "ds"
    code, out, err = run_main(["selfplay", "--games", "40", "--record", str(d), "--tables", "8",
                               "--policy", "bot", "--shard-games", "15", "--json"], "", monkeypatch, capsys)
    assert code == 0, err
    s = json.loads(out)
    ds = TrajectoryDataset(d)
    assert (s["games"], s["steps"], s["files"]) == (40, len(ds), len(ds.files)) and s["files"] >= 2
    assert len(set(ds.read(["game"])["game"].tolist())) == 40
    assert ds.metadata["policy"] == "bot" and "record: 40/40 games" in err
    code, _, err = run_main(["selfplay", "--games", "5", "--record", str(d)], "", monkeypatch, capsys)
    assert code == 2 and "already holds a dataset" in err and "--overwrite" in err
    code, out, _ = run_main(["selfplay", "--games", "5", "--record", str(d), "--overwrite", "-q"], "",
                            monkeypatch, capsys)
    assert code == 0 and "recorded 5 games" in out and len(TrajectoryDataset(d).read(["game"])["game"])
    code, _, err = run_main(["selfplay", "--games", "5", "--policy", "bot"], "", monkeypatch, capsys)
    assert code == 2 and "--policy needs --record" in err


def test_a_closed_stdout_pipe_is_not_an_error():
    proc = subprocess.run(f"{sys.executable} -m ddz_fast selfplay --games 2000 -q | head -1",
                          shell=True, capture_output=True, text=True)
    assert proc.stdout.startswith("ddz-fast selfplay:") and "Traceback" not in proc.stderr


# ---------------------------------------------------------------------------
# play
# ---------------------------------------------------------------------------

def test_play_bad_input_then_valid_then_eof(monkeypatch, capsys):
    # Seat 0 is asked first or after the bots; "0" is always legal in the
    # auction (pass / decline).  Bad inputs are re-asked, EOF exits cleanly.
    stdin = "nonsense\n999\n-3\n\nhelp\nhand\nZZZ\n0\n"
    code, out, err = run_main(["play", "--seed", "3"], stdin, monkeypatch, capsys)
    assert code == 0, err
    assert "not a choice here" in out
    assert "#999 is not a choice now" in out
    assert "Type the cards of a move" in out and "#3" in out          # help
    assert "you: pass" in out
    assert "input ended" in out
    assert "Traceback" not in out + err


def test_play_whole_deals_by_numbers_and_card_text(monkeypatch, capsys):
    # "#1" picks the first choice (a bid of 1, a call, or the first move);
    # when it is not offered, "#0" (pass) is.  Card text that is not a legal
    # move is re-asked.
    stdin = "3\n" + "55555\n#1\n#0\n" * 400
    code, out, err = run_main(["play", "--seed", "11", "--deals", "2"], stdin, monkeypatch, capsys)
    assert code == 0, err
    assert out.count("over:") == 2 and "totals:" in out
    assert "Traceback" not in out + err


def test_play_opponents_are_arena_agents(monkeypatch, capsys):
    """--opponent names the bots as the arena does: simple (the default)
    plays as before, others play their own moves, bad names are refused."""
    stdin = "3\n" + "55555\n#1\n#0\n" * 400
    runs = {}
    for extra in ([], ["--opponent", "simple"], ["--opponent", "random"], ["--opponent", "pimc(worlds=4)"]):
        code, out, err = run_main(["play", "--seed", "11", *extra], stdin, monkeypatch, capsys)
        assert code == 0 and out.count("over:") == 1, err
        runs[" ".join(extra)] = re.sub(r"^ddz-fast play: .*$", "", out, flags=re.M)
    assert runs[""] == runs["--opponent simple"]
    assert runs["--opponent random"] != runs[""]
    code, out, err = run_main(["play", "--seed", "11", "--opponent", "random"], stdin, monkeypatch, capsys)
    assert re.sub(r"^ddz-fast play: .*$", "", out, flags=re.M) == runs["--opponent random"]   # seeded
    assert "against 2 random bots" in out
    for bad, message in (("strong", "unknown agent"), ("douzero:", "name the directory"),
                         ("nosuchmodule:x", "cannot import")):
        code, out, err = run_main(["play", "--opponent", bad], "", monkeypatch, capsys)
        assert code == 2 and message in err and "Traceback" not in err


def test_play_card_text_and_ambiguity(monkeypatch, capsys):
    # Find a deal where seat 0 leads after bidding 3 and owns a pair, then
    # type the pair as card text.
    from ddz_fast import Game
    from ddz_fast.game import game_seed
    seed = next(s for s in range(200) if Game(seed=game_seed(s, 0)).first_bidder == 0)
    g = Game(seed=game_seed(seed, 0))
    pair_rank = next(r for r in range(13) if g.hand(0)[r] >= 2)
    text = "3456789TJQKA2"[pair_rank] * 2
    typed = " ".join(text).lower()              # "6 6": cards, with a separator
    stdin = f"3\n{typed}\nquit\n"
    code, out, err = run_main(["play", "--seed", str(seed)], stdin, monkeypatch, capsys)
    assert code == 0, err
    assert f"you: {text} (pair)" in out and "(bye)" in out


def _leading_seed(holding):
    """A session seed whose first deal gives seat 0 the first bid (a bid of 3
    then makes it the landlord, to lead) and a hand holding these counts."""
    from ddz_fast import Game
    from ddz_fast.game import game_seed
    return next(s for s in range(2000) if Game(seed=game_seed(s, 0)).first_bidder == 0
                and all(Game(seed=game_seed(s, 0)).hand(0)[r] >= c for r, c in holding.items()))


@pytest.mark.parametrize("typed, played", [("7", "7 (solo)"), ("22", "22 (pair)"), ("7 7", "77 (pair)")])
def test_play_digits_are_cards_never_choice_numbers(monkeypatch, capsys, typed, played):
    # 7 and 22 are the cards 7 and 22 even when choices #7 and #22 exist (the
    # lead offers dozens of choices): a number picks a choice only after '#'.
    seed = _leading_seed({4: 2, 12: 2})          # two 7s and two 2s
    code, out, err = run_main(["play", "--seed", str(seed)], f"3\n{typed}\nquit\n", monkeypatch, capsys)
    assert code == 0, err
    assert "#22 " in out and f"you: {played}" in out


def _bids_with_a_gap_seed():
    """A session seed whose first deal offers seat 0 bids with a gap (after a
    bot's bid of 1: pass, 2 or 3)."""
    from ddz_fast import Game, game_seed
    from ddz_fast.game import simple_bot
    for s in range(2000):
        g = Game(seed=game_seed(s, 0))
        while g.to_move != 0:
            g.step(simple_bot(g.observation(g.to_move), g.rules))
        bids = sorted(a.value for a in g.legal_actions())
        if bids != list(range(bids[0], bids[-1] + 1)):
            return s, bids
    raise AssertionError("no such seed")


def test_play_a_choice_that_is_not_offered_is_named_with_the_offered_ones(monkeypatch, capsys):
    seed, bids = _bids_with_a_gap_seed()
    missing = next(b for b in range(bids[0], bids[-1]) if b not in bids)
    code, out, err = run_main(["play", "--seed", str(seed)], f"#{missing}\nquit\n", monkeypatch, capsys)
    assert code == 0, err
    offered = ", ".join(f"#{b}" for b in bids[:-1]) + f" or #{bids[-1]}"
    assert f"#{missing} is not a choice now; choose {offered}" in out
    assert f"#{bids[0]}..#{bids[-1]}" not in out


def test_play_hash_numbers_pick_choices(monkeypatch, capsys):
    # "3" in the auction is a bid of 3 (no cards to type there); in the play a
    # bare "1" is no card and the reply says how to pick choice #1; "#9999"
    # is no choice; "#1" picks the first lead, the lowest solo.
    seed = _leading_seed({})
    code, out, err = run_main(["play", "--seed", str(seed)], "3\n1\n#9999\n# 1\nquit\n", monkeypatch, capsys)
    assert code == 0, err
    assert "you: bid 3" in out and "type #1" in out and "#9999 is not a choice now" in out
    assert re.search(r"#1 [3-9TJQKA2BR]  #2 ", out)
    assert re.search(r"you: [3-9TJQKA2BR] \(solo\)", out)


@pytest.mark.parametrize("junk", ["²", "①", "#²", "#①", "٣", "#" + "9" * 5000, "9" * 5000, "-3", "#-1",
                                  "1e9", "\x00", "#", "##1", "pass pass", "bid", "3" * 40])
def test_play_never_ends_on_junk_input(monkeypatch, capsys, junk):
    # Junk in the auction and in the play is answered and asked again; the
    # game goes on to the next, valid input ('quit').  ('²'.isdigit() is true
    # but int('²') fails; int() refuses digit strings longer than 4300.)
    seed = _leading_seed({})
    code, out, err = run_main(["play", "--seed", str(seed)], f"{junk}\n3\n{junk}\nquit\n", monkeypatch, capsys)
    assert code == 0 and "Traceback" not in out + err, err
    assert "you: bid 3" in out and "(bye)" in out


def test_play_keyboard_interrupt(monkeypatch, capsys):
    class Boom(io.StringIO):
        def readline(self, *a):
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", Boom())
    code = main(["play", "--seed", "3"])
    out, err = capsys.readouterr()
    assert code == 130 and "interrupted" in out and "Traceback" not in err


def test_play_rob_and_four(monkeypatch, capsys):
    stdin = "#1\n#0\n" * 500
    code, out, err = run_main(["play", "--seed", "2", "--rules", "four", "--auction", "rob"],
                              stdin, monkeypatch, capsys)
    assert code == 0, err
    assert "over:" in out and "bot 3" in out


def test_play_subprocess_eof():
    p = subprocess.run([sys.executable, "-m", "ddz_fast", "play", "--seed", "1"],
                       input="what\n0\n", capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert "input ended" in p.stdout and "Traceback" not in p.stderr


# ---------------------------------------------------------------------------
# moves (still works) and the console entry point
# ---------------------------------------------------------------------------

def test_moves_still_works(monkeypatch, capsys):
    code, out, _ = run_main(["moves", "33445", "--last", "4"], "", monkeypatch, capsys)
    assert code == 0 and out.splitlines()[0].startswith("PASS") and out.strip().endswith("moves")
    code, out, _ = run_main(["moves", "3344", "--json"], "", monkeypatch, capsys)
    assert code == 0 and {"kind": "PAIR", "cards": "33", "rank": 0, "length": 1} in json.loads(out)


def test_moves_ambiguous_last_names_the_option(monkeypatch, capsys):
    code, _, err = run_main(["moves", "3334", "--last", "555666777888"], "", monkeypatch, capsys)
    assert code == 2 and "--last-kind" in err and "kind=" not in err.replace("--last-kind", "")
    code, out, _ = run_main(["moves", "3334", "--last", "555666777888", "--last-kind", "AIRPLANE"], "",
                            monkeypatch, capsys)
    assert code == 0 and out.strip().endswith("\n1 moves")
    code, _, err = run_main(["solve", "3", "4", "--last", "555666777888"], "", monkeypatch, capsys)
    assert code == 2 and "--last-kind" in err


def test_selfplay_games_is_bounded_with_a_message(monkeypatch, capsys):
    from ddz_fast.cli import MAX_SELFPLAY_GAMES
    code, _, err = run_main(["selfplay", "--games", str(10**15)], "", monkeypatch, capsys)
    assert code == 2 and f"{MAX_SELFPLAY_GAMES:,}" in err and "--games" in err and "Traceback" not in err
    code, _, err = run_main(["selfplay", "--games", str(MAX_SELFPLAY_GAMES + 1), "-q"], "", monkeypatch, capsys)
    assert code == 2 and "at most" in err


@pytest.mark.parametrize("argv", [
    ["selfplay", "--games", "²"], ["selfplay", "--threads", str(10**30), "--games", "1"],
    ["selfplay", "--games", "3", "--seed", str(2**70), "-q"], ["selfplay", "--games", "2", "--record"],
    ["selfplay", "--games", "2", "--tables", str(10**15), "--record", "/nonexistent/x"],
    ["moves", "²"], ["moves", "33", "--last", "①"], ["moves", "33", "--last-kind", "nope", "--last", "3"],
    ["moves", "x" * 10000], ["solve", "²", "3"], ["solve", "3", "4", "--first", str(10**20)],
    ["solve", "3", "4", "--ban", "NOPE"], ["solve", "33", "44", "--table-mb", "-1"],
    ["solve", "33", "44", "--max-time", "nan"], ["solve", "3", "4", "--last-by", "2"],
    ["arena", "random"], ["arena", "random", "nope"], ["arena", "random", "random", "--deals", str(10**15)],
    ["arena", "random", "random", "--deals", "-1"], ["arena", "random", "random", "--tables", "0"],
    ["arena", "os:system", "random", "--deals", "1"], ["play", "--seat", str(10**30)],
    ["play", "--deals", "-5"], ["play", "--seed", str(-(2**70))], ["--bogus"], [],
])
def test_every_subcommand_refuses_junk_arguments_cleanly(argv, capsys, monkeypatch):
    # A usage error or a clean "ddz-fast: error: ..." with status 2 (argparse's
    # own errors exit 2 too); never a traceback.
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    assert code in (0, 2), (code, err)
    assert "Traceback" not in out + err
    if code == 2:
        assert "error" in err


def test_selfplay_subprocess():
    p = subprocess.run([sys.executable, "-m", "ddz_fast", "selfplay", "--games", "200"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert "landlord win rate" in p.stdout and p.stderr == ""      # (no terminal: no progress bar)


def test_play_undecodable_input_and_bad_options(monkeypatch, capsys):
    p = subprocess.run([sys.executable, "-m", "ddz_fast", "play", "--seed", "1"],
                       input=b"\xff\xfe\n0\n", capture_output=True, timeout=60,
                       env={**__import__("os").environ, "PYTHONIOENCODING": "utf-8"})
    assert p.returncode == 0 and b"Traceback" not in p.stderr
    code, _, err = run_main(["play", "--seat", "5"], "", monkeypatch, capsys)
    assert code == 2 and "--seat" in err
    code, _, err = run_main(["play", "--deals", "0"], "", monkeypatch, capsys)
    assert code == 2 and "--deals" in err


def test_moves_and_solve_take_the_wild_rank(monkeypatch, capsys):
    import ddz_fast

    code, out, _ = run_main(["moves", "5577", "--rules", "laizi", "--wild", "7", "--json"], "", monkeypatch, capsys)
    assert code == 0
    got = [(m["cards"], m["represents"], m["kind"]) for m in json.loads(out)]
    want = [(m.cards, ddz_fast.format_cards(m.represents), m.kind.name)
            for m in ddz_fast.legal_moves("5577", rules="laizi", wild="7")]
    assert got == want and ("5577", "5555", "BOMB") in got
    code, out, _ = run_main(["moves", "55779", "--rules", "laizi", "--wild", "7", "--last", "3337=3333"],
                            "", monkeypatch, capsys)
    assert code == 0 and out.split()[:4] == ["PASS", "PASS", "BOMB", "5577=5555"]
    code, _, err = run_main(["moves", "5577", "--rules", "laizi"], "", monkeypatch, capsys)
    assert code != 0 and "--wild" in err
    code, out, _ = run_main(["solve", "5557", "3333", "--rules", "laizi", "--wild", "7"], "", monkeypatch, capsys)
    assert code == 0 and "hand 1 wins" in out and "5557=" in out
