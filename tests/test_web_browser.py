"""The web app in a real browser: headless Chromium driven by Selenium plays
whole deals by clicking, for each preset (wild cards too: a reading chosen
among several), and replays a saved arena game; the page must report no
JavaScript error.  Screenshots go to
``$DDZ_WEB_ARTIFACTS`` (default: a temporary directory, printed).

A missing browser fails these tests (it does not skip them): install
Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` does).
"""
from __future__ import annotations

import io
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

from optional import require

require("starlette")
require("uvicorn")
require("selenium")

import uvicorn  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from ddz_fast import arena  # noqa: E402
from ddz_fast.web import create_app  # noqa: E402

pytestmark = pytest.mark.browser

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
WAIT = 30          # seconds any one page update may take (a bound, not a measurement)


def _browser():
    exe = next((p for p in map(shutil.which, BROWSERS) if p), None)
    driver = shutil.which("chromedriver")
    if exe is None or driver is None:
        pytest.fail("the browser tests need Chromium and its driver: apt-get install chromium chromium-driver "
                    f"(found browser {exe}, driver {driver})")
    return exe, driver


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    d = Path(os.environ.get("DDZ_WEB_ARTIFACTS") or tmp_path_factory.mktemp("web-screenshots"))
    d.mkdir(parents=True, exist_ok=True)
    print(f"screenshots: {d}")
    return d


@pytest.fixture(scope="module")
def saved_games(tmp_path_factory):
    """An arena run's games, as ``arena --save-games`` writes them."""
    path = tmp_path_factory.mktemp("arena") / "games.jsonl"
    buf = io.StringIO()
    arena.play(["simple", "random"], deals=2, seed=7, save_games=buf)
    path.write_text(buf.getvalue())
    return path


@pytest.fixture(scope="module")
def server(saved_games):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(replays=[str(saved_games)]), host="127.0.0.1", port=port,
                                        log_level="warning"))
    t = threading.Thread(target=srv.run, daemon=True)
    t.start()
    deadline = time.monotonic() + WAIT
    while not srv.started:
        assert time.monotonic() < deadline and t.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    t.join(WAIT)


@pytest.fixture(scope="module")
def browser():
    exe, driver_path = _browser()
    opts = webdriver.ChromeOptions()
    opts.binary_location = exe
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,1000"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(driver_path), options=opts)
    yield d
    d.quit()


def _idle(d):
    WebDriverWait(d, WAIT, poll_frequency=0.02).until(lambda d: d.execute_script(
        "return document.body.dataset.busy === '0' && document.body.dataset.ready === '1'"))


def _no_js_errors(d):
    assert d.execute_script("return window.ddzErrors") == []
    severe = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    assert severe == [], severe
    assert not d.find_element(By.ID, "errors").is_displayed()


def _click(d, element_id):
    d.find_element(By.ID, element_id).click()
    _idle(d)


def _visible(d, css):
    return [e for e in d.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()]


def _choose_reading(d, which):
    """When the selected cards make several moves, click the reading
    ``which`` (an index into the buttons); returns its move text, or None
    when the selection makes one move."""
    choices = _visible(d, "#selection-info .reading-choice")
    if not choices:
        return None
    assert len(choices) > 1
    assert not d.find_element(By.ID, "play").is_enabled()        # (no reading chosen yet)
    button = choices[which]
    text = button.get_attribute("data-text")
    button.click()
    chosen = d.find_elements(By.CSS_SELECTOR, "#selection-info .reading-choice.chosen")
    assert [b.get_attribute("data-text") for b in chosen] == [text]
    assert d.find_element(By.ID, "play").is_enabled()
    return text


def _play_deal(d, played=None):
    """Play the seat by clicking until the deal ends: the auction's last
    option, a lead of the lowest card chosen by clicking it, else the hint.
    At the seat's first turn of play, an illegal selection is tried first.
    Under wild rules the first lead holding a wild card plays that card
    alone, read as the last of its readings, and a lead of a wild card
    takes its first reading; ``played`` collects the texts of the readings
    chosen.  Returns the number of the seat's turns of play."""
    checked_illegal = hinted_auction = wild_lead = False
    turns = 0
    played = [] if played is None else played
    for _ in range(500):
        _idle(d)
        if d.find_element(By.ID, "result").is_displayed():
            return turns
        options = _visible(d, "#auction-options .auction-option")
        if options:
            if not hinted_auction:
                _click(d, "hint")                                 # outlines one option
                assert len(d.find_elements(By.CSS_SELECTOR, ".auction-option.hinted")) == 1
                hinted_auction = True
            options[-1].click()
            continue
        assert d.execute_script("return document.body.dataset.yourTurn") == "1"
        assert d.execute_script("return document.body.dataset.phase") == "PLAY"
        turns += 1
        cards = d.find_elements(By.CSS_SELECTOR, "#hand .card")
        leading = not d.find_element(By.ID, "pass").is_enabled()
        ranks = [c.get_attribute("data-rank") for c in cards]
        if not checked_illegal:
            # two natural cards of different ranks (not the two jokers) make
            # no move (with a wild card among them they could make a pair)
            natural = [i for i, c in enumerate(cards) if c.get_attribute("data-wild") != "1"]
            i, j = next(((i, j) for i in natural for j in natural
                         if ranks[j] != ranks[i] and {ranks[i], ranks[j]} != {"B", "R"}), (None, None))
            if j is not None:
                cards[i].click()
                cards[j].click()
                assert "illegal" in d.find_element(By.ID, "hand").get_attribute("class")
                assert not d.find_element(By.ID, "play").is_enabled()
                d.find_element(By.ID, "play").click()              # refused by the page: nothing sent
                assert len(d.find_elements(By.CSS_SELECTOR, "#hand .card")) == len(cards)
                _click(d, "clear")
                checked_illegal = True
                cards = d.find_elements(By.CSS_SELECTOR, "#hand .card")
        if leading:
            wild = [c for c in cards if c.get_attribute("data-wild") == "1"]
            card, which = (wild[0], -1) if wild and not wild_lead else (cards[0], 0)
            wild_lead = wild_lead or bool(wild)
            card.click()                                          # a solo: always a legal lead
            assert "legal" in d.find_element(By.ID, "hand").get_attribute("class").split()
            text = _choose_reading(d, which)
            _click(d, "play")
            if text is not None:
                played.append(text)
                assert any(li.get_attribute("textContent").startswith(f"you: {text} (")
                           for li in d.find_elements(By.CSS_SELECTOR, "#log li"))
            continue
        _click(d, "hint")
        hinted = d.find_element(By.ID, "message").text
        assert hinted.startswith("hint: ")
        if hinted != "hint: pass":
            # the hinted move is selected, its reading chosen when its cards have several
            assert d.find_element(By.ID, "play").is_enabled(), hinted
            _click(d, "play")
        else:
            _click(d, "pass")
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize("preset,auction,level,seat", [
    ("standard", "", "master", 0),
    ("strict", "rob", "challenge", 1),
    ("four", "", "leisure", 2),
    ("tiandi", "", "challenge", 1),
])
def test_a_whole_deal_is_played_by_clicking(browser, server, artifacts, preset, auction, level, seat):
    d = browser
    d.get(server + "/")
    _idle(d)
    Select(d.find_element(By.ID, "preset")).select_by_value(preset)
    Select(d.find_element(By.ID, "auction")).select_by_value(auction)
    Select(d.find_element(By.ID, "level")).select_by_value(level)
    Select(d.find_element(By.ID, "seat")).select_by_value(str(seat))
    _click(d, "start")
    players = 4 if preset == "four" else 3
    assert d.find_element(By.ID, "wild-box").is_displayed() == (preset == "tiandi")
    counts = d.find_elements(By.CSS_SELECTOR, ".opponent .count")
    assert len(counts) == players - 1
    assert all(0 < int(c.text) <= (33 if players == 4 else 20) for c in counts)
    d.save_screenshot(str(artifacts / f"{preset}-start.png"))
    assert _play_deal(d) > 0
    d.save_screenshot(str(artifacts / f"{preset}-result.png"))
    explain = d.find_element(By.ID, "result-explain").text
    assert explain.startswith("stake ")
    assert "Session score after 1 deal" in d.find_element(By.ID, "totals").text
    # the finished deal, watched face up
    _click(d, "watch-deal")
    hands = d.find_elements(By.CSS_SELECTOR, "#replay-hands .replay-seat")
    assert len(hands) == players
    _click(d, "last")
    assert d.find_element(By.ID, "replay-status").text.startswith(("The landlord wins", "The farmers win"))
    _no_js_errors(d)


def test_a_laizi_deal_is_played_by_clicking_with_a_reading_chosen(browser, server, artifacts):
    """?seed=0 (laizi, seat 0, challenge opponents): the seat bids 3, becomes
    the landlord and leads holding a wild 10, which reads as 13 solos; it
    plays it as a 2 (seed found by playing seeds 0.. with this strategy over
    the app's API until the first lead held a wild card)."""
    d = browser
    d.get(server + "/?seed=0")
    _idle(d)
    Select(d.find_element(By.ID, "preset")).select_by_value("laizi")
    Select(d.find_element(By.ID, "level")).select_by_value("challenge")
    Select(d.find_element(By.ID, "seat")).select_by_value("0")
    _click(d, "start")
    assert d.find_element(By.ID, "wild-box").is_displayed()
    assert d.find_elements(By.CSS_SELECTOR, "#wild .card") == []          # (drawn after the auction)
    options = _visible(d, "#auction-options .auction-option")
    options[-1].click()
    _idle(d)
    wild = [c.get_attribute("data-rank") for c in d.find_elements(By.CSS_SELECTOR, "#wild .card")]
    assert wild == ["T"]
    hand = d.find_elements(By.CSS_SELECTOR, "#hand .card")
    marked = [c.get_attribute("data-rank") for c in hand if "wild" in c.get_attribute("class").split()]
    assert marked and marked == [c.get_attribute("data-rank") for c in hand if c.get_attribute("data-rank") in wild]
    d.save_screenshot(str(artifacts / "laizi-start.png"))
    played: list = []
    assert _play_deal(d, played) > 0
    assert played[0] == "T=2"                  # (the wild 10 read as a 2: the last of its 13 readings)
    d.save_screenshot(str(artifacts / "laizi-result.png"))
    # the deal watched face up: the wild ranks, and the chosen reading shown beside the card played
    texts = [li.get_attribute("textContent") for li in d.find_elements(By.CSS_SELECTOR, "#log li")]
    k = next(i for i, t in enumerate(texts) if t.startswith("you: T=2 ("))
    _click(d, "watch-deal")
    box = d.find_element(By.ID, "ply-input")
    box.clear()
    box.send_keys(str(k + 1))
    _click(d, "jump")
    assert [c.get_attribute("data-rank") for c in d.find_elements(By.CSS_SELECTOR, "#replay-wild .card")] == ["T"]
    mine = d.find_element(By.CSS_SELECTOR, "#replay-seat-0 .trick")
    assert [c.get_attribute("data-rank") for c in mine.find_elements(By.CSS_SELECTOR, ".card")] == ["T"]
    assert mine.find_element(By.CSS_SELECTOR, ".reads").text == "= 2"
    _no_js_errors(d)


def test_a_saved_arena_game_is_replayed_move_by_move(browser, server, artifacts, saved_games):
    d = browser
    d.get(server + "/")
    _idle(d)
    _click(d, "tab-watch")
    # the file given at start, and the same file opened in the page
    d.find_element(By.ID, "replay-file").send_keys(str(saved_games))
    WebDriverWait(d, WAIT).until(lambda d: len(Select(d.find_element(By.ID, "replay-source")).options) == 2)
    _idle(d)
    Select(d.find_element(By.ID, "replay-game")).select_by_index(1)
    _click(d, "load-replay")
    label = d.find_element(By.ID, "ply-label")
    assert label.text.startswith("ply 0 / ")
    n = int(label.text.split("/ ")[1])
    total = sum(len(r.find_elements(By.CSS_SELECTOR, ".card")) for r in
                d.find_elements(By.CSS_SELECTOR, "#replay-hands .replay-seat"))
    assert total == 51                      # every hand face up before the first move (the kitty apart)
    _click(d, "forward")
    _click(d, "forward")
    assert label.text == f"ply 2 / {n}"
    _click(d, "back")
    assert label.text == f"ply 1 / {n}"
    box = d.find_element(By.ID, "ply-input")
    box.clear()
    box.send_keys(str(n - 2))
    _click(d, "jump")
    assert label.text == f"ply {n - 2} / {n}"
    WebDriverWait(d, WAIT).until(lambda d: d.find_element(By.ID, "verdict").text.startswith("Solver: "))
    d.save_screenshot(str(artifacts / "replay-endgame.png"))
    _click(d, "last")
    assert not d.find_element(By.ID, "forward").is_enabled()
    assert d.find_element(By.ID, "replay-status").text.startswith(("The landlord wins", "The farmers win"))
    _click(d, "first")
    assert label.text == f"ply 0 / {n}" and not d.find_element(By.ID, "back").is_enabled()
    _no_js_errors(d)
