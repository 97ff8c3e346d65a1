"""The progress bar of long runs (ddz_fast._util.progress, drawn by tqdm):
on a terminal by default, with the rate and the time left; silent elsewhere
unless asked; and the arena's bar moves with every game."""
import io

import pytest

from ddz_fast import arena
from ddz_fast._util.progress import Progress, progress_enabled


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_terminal_gets_a_live_bar_with_the_rate_and_the_time_left():
    out = _Terminal()
    bar = Progress("arena", 1000, "games", stream=out)
    assert bar.enabled and bar.live
    for done in range(1, 1001):
        bar.update(done)
    bar.close()
    text = out.getvalue()
    assert "arena" in text and "1.00k/1.00k" in text and "100%" in text
    assert "games/s" in text and "<" in text            # [elapsed<remaining, rate]


def test_elsewhere_the_bar_is_off_by_default_and_a_final_line_when_asked():
    quiet = io.StringIO()
    bar = Progress("record", 50, stream=quiet)
    bar.update(50)
    bar.close()
    assert quiet.getvalue() == ""
    log = io.StringIO()
    bar = Progress("record", 50, stream=log, enabled=True)
    bar.update(20)
    bar.update(50)
    bar.close()
    bar.close()
    assert log.getvalue().count("\n") == 1 and "50/50" in log.getvalue() and "\r" not in log.getvalue()
    assert Progress("x", 5, stream=_Terminal(), enabled=False).live is False


def test_the_option_is_none_or_a_bool():
    assert progress_enabled(None, _Terminal()) and not progress_enabled(None, io.StringIO())
    assert progress_enabled(True, io.StringIO()) and not progress_enabled(False, _Terminal())
    with pytest.raises(TypeError, match="progress must be None"):
        progress_enabled(1)


def test_the_arena_reports_every_game(monkeypatch):
    seen = []
    real_update = Progress.update

    def update(self, done):
        seen.append(done)
        real_update(self, done)
    monkeypatch.setattr(Progress, "update", update)
    arena.play(["simple", "random"], deals=30, seed=1, tables=8, progress=True)
    assert seen == list(range(1, 61))
    seen.clear()
    arena.play(["simple", "random"], deals=3, seed=1, progress=False)
    assert seen == []
    with pytest.raises(TypeError, match="progress"):
        arena.play(["simple", "random"], deals=3, progress="yes")
