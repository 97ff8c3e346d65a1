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
    assert "100.0%" in err and "200/200" in err          # the progress bar, on stderr


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
    assert ds.metadata["policy"] == "bot" and "record [" in err
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
    assert "no choice numbered 999" in out
    assert "Type the number of a choice" in out          # help
    assert "you: pass" in out
    assert "input ended" in out
    assert "Traceback" not in out + err


def test_play_whole_deals_by_numbers_and_card_text(monkeypatch, capsys):
    # "1" picks the first choice (a bid of 1, a call, or the first move); when
    # it is not offered, "0" (pass) is.  Card text that is not a legal move
    # is re-asked.
    stdin = "3\n" + "55555\n1\n0\n" * 400
    code, out, err = run_main(["play", "--seed", "11", "--deals", "2"], stdin, monkeypatch, capsys)
    assert code == 0, err
    assert out.count("over:") == 2 and "totals:" in out
    assert "Traceback" not in out + err


def test_play_card_text_and_ambiguity(monkeypatch, capsys):
    # Find a deal where seat 0 leads after bidding 3 and owns a pair, then
    # type the pair as card text.
    from ddz_fast import Game
    from ddz_fast.game import game_seed
    seed = next(s for s in range(200) if Game(seed=game_seed(s, 0)).first_bidder == 0)
    g = Game(seed=game_seed(seed, 0))
    pair_rank = next(r for r in range(13) if g.hand(0)[r] >= 2)
    text = "3456789TJQKA2"[pair_rank] * 2
    typed = " ".join(text).lower()              # "6 6": separated, so not a choice number
    stdin = f"3\n{typed}\nquit\n"
    code, out, err = run_main(["play", "--seed", str(seed)], stdin, monkeypatch, capsys)
    assert code == 0, err
    assert f"you: {text} (pair)" in out and "(bye)" in out


def test_play_digits_pick_choices_first_then_cards(monkeypatch, capsys):
    from ddz_fast import Game
    from ddz_fast.game import game_seed
    seed = next(s for s in range(200) if Game(seed=game_seed(s, 0)).first_bidder == 0)
    # "3" in the auction is a bid of 3; "1" then picks the first lead; a
    # four-digit number that is no choice is re-asked (it is no legal cards).
    code, out, err = run_main(["play", "--seed", str(seed)], "3\n9999\n1\nquit\n", monkeypatch, capsys)
    assert code == 0, err
    assert "you: bid 3" in out and "no choice numbered 9999" in out
    assert re.search(r"you: [3-9TJQKA2BR] \(solo\)", out)


def test_play_keyboard_interrupt(monkeypatch, capsys):
    class Boom(io.StringIO):
        def readline(self, *a):
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", Boom())
    code = main(["play", "--seed", "3"])
    out, err = capsys.readouterr()
    assert code == 130 and "interrupted" in out and "Traceback" not in err


def test_play_rob_and_four(monkeypatch, capsys):
    stdin = "1\n0\n" * 500
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


def test_selfplay_subprocess():
    p = subprocess.run([sys.executable, "-m", "ddz_fast", "selfplay", "--games", "200"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert "landlord win rate" in p.stdout and "200/200" in p.stderr


def test_play_undecodable_input_and_bad_options(monkeypatch, capsys):
    p = subprocess.run([sys.executable, "-m", "ddz_fast", "play", "--seed", "1"],
                       input=b"\xff\xfe\n0\n", capture_output=True, timeout=60,
                       env={**__import__("os").environ, "PYTHONIOENCODING": "utf-8"})
    assert p.returncode == 0 and b"Traceback" not in p.stderr
    code, _, err = run_main(["play", "--seat", "5"], "", monkeypatch, capsys)
    assert code == 2 and "--seat" in err
    code, _, err = run_main(["play", "--deals", "0"], "", monkeypatch, capsys)
    assert code == 2 and "--deals" in err
