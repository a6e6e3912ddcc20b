"""The built site in a real browser: Playwright driving Debian's Chromium (``/usr/bin/chromium``)
on pages opened from ``file://``. The board shows every participant, sorting a column reorders
the rows, the plots are drawn, a replay steps forward and back, a seat's view shows its hand and
hides the others', and no page logs an error.

Skipped (saying why) without ``/usr/bin/chromium`` or the ``playwright`` package. With
``BANGARENA_SCREENSHOTS=DIR`` the board and a replay are saved as ``DIR/leaderboard.png`` and
``DIR/replay.png`` (``docs/img`` keeps them); ``BANGARENA_SITE_DB=URL`` builds the site from
that store instead of the tests' small one (for screenshots of a fuller board).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from evals_support import SMALL_SUITE
from leaderboard_site_support import make_store

from bangarena.leaderboard.site import build_site

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
if not CHROMIUM.is_file():
    pytest.skip(
        f"{CHROMIUM} is missing: the browser tests need Debian's chromium", allow_module_level=True
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    url = os.environ.get("BANGARENA_SITE_DB") or make_store(
        tmp_path_factory.mktemp("store") / "store.db", (SMALL_SUITE,)
    )
    out = tmp_path_factory.mktemp("site") / "site"
    report = build_site(url, out, replays=6, resamples=40, workers=1)
    assert report.replays and not report.problems
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


class Page:
    """A fresh context and page that records every console error and page error."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        # Nothing may leave the file system: any other request fails the test.
        self.requests: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))

    def open(self, path: Path) -> Any:
        self.page.goto(path.as_uri())
        return self.page

    def close(self) -> None:
        assert self.errors == [], self.errors
        assert all(u.startswith(("file://", "data:")) for u in self.requests), self.requests
        self.context.close()


@pytest.fixture
def tab(browser: Any) -> Iterator[Page]:
    t = Page(browser)
    yield t
    t.close()


def _shots() -> Path | None:
    folder = os.environ.get("BANGARENA_SCREENSHOTS")
    if not folder:
        return None
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    return path


def test_the_board_shows_every_participant_and_sorts(site: Path, tab: Page) -> None:
    boards = json.loads((site / "leaderboard.json").read_text())
    wanted = {p["id"]: p for p in boards[0]["participants"]}
    page = tab.open(site / "index.html")
    rows = page.locator("[data-testid=board] tbody tr")
    assert rows.count() == len(wanted)
    shown = rows.evaluate_all("rs => rs.map(r => r.dataset.participant)")
    assert set(shown) == set(wanted)
    by_rating = sorted(wanted, key=lambda p: wanted[p]["position"])
    assert shown == by_rating  # the board opens in rating order
    head = page.locator("[data-testid=board] thead th", has_text="Win rate")
    head.locator("button").click()
    assert head.get_attribute("aria-sort") == "descending"
    order = rows.evaluate_all("rs => rs.map(r => r.dataset.participant)")
    rates = [wanted[p]["win_rate"] for p in order]
    assert rates == sorted(rates, reverse=True)
    head.locator("button").click()
    assert head.get_attribute("aria-sort") == "ascending"
    order = rows.evaluate_all("rs => rs.map(r => r.dataset.participant)")
    assert [wanted[p]["win_rate"] for p in order] == sorted(rates)
    name = page.locator("[data-testid=board] thead th", has_text="Participant")
    name.locator("button").click()
    order = rows.evaluate_all("rs => rs.map(r => r.dataset.participant)")
    assert order == sorted(wanted, key=str.lower)
    priced = any(p["cost_per_match"] is not None for p in wanted.values())
    for testid in ("plot-ratings", "plot-roles", "plot-cost"):
        svg = page.locator(f"[data-testid={testid}] svg.plot")
        assert svg.count() == 1
        box = svg.bounding_box()
        assert box is not None and box["width"] > 200 and box["height"] > 50, testid
        if testid == "plot-cost" and not priced:
            assert "No participant has a price" in svg.inner_text()
        else:
            # Marks (paths; the heatmap is an image) and labels.
            assert svg.locator("path, image").count() > 3, testid
            assert svg.locator("text").count() > 3, testid
    shots = _shots()
    if shots is not None:
        page.reload()  # the board as it opens: in rating order
        page.screenshot(path=str(shots / "leaderboard.png"), full_page=True)


def _first_replay(site: Path) -> Path:
    """The replay of the largest table (the most viewer modes), first by path among those."""
    pages = sorted(site.glob("replays/*/*/index.html"))
    return max(pages, key=lambda p: (len(list(p.parent.glob("seat-*.js"))), -pages.index(p)))


def _step(page: Any) -> int:
    return int(page.locator("body").get_attribute("data-step"))


def test_a_replay_steps_and_shows_only_the_viewers_hand(site: Path, tab: Page) -> None:
    path = _first_replay(site)
    page = tab.open(path)
    page.wait_for_selector("body[data-mode=spectator][data-step]")
    seats = page.locator("[data-testid^=seat-]").count()
    assert seats >= 4
    last = int(page.locator("#slider").get_attribute("max"))
    assert _step(page) == 0 and last > 10
    page.get_by_test_id("next").click()
    page.get_by_test_id("next").click()
    assert _step(page) == 2
    assert page.get_by_test_id("step").inner_text() == f"step 2 / {last}"
    page.get_by_test_id("prev").click()
    assert _step(page) == 1
    page.keyboard.press("End")
    assert _step(page) == last
    page.keyboard.press("ArrowLeft")
    assert _step(page) == last - 1
    page.keyboard.press("Home")
    assert _step(page) == 0
    # The spectator sees no card in any hand, only how many.
    assert page.locator("[data-testid^=hand-] .card").count() == 0
    for s in range(seats):
        backs = page.locator(f"[data-testid=hand-{s}] .card-back").count()
        assert backs == int(page.get_by_test_id(f"hand-{s}").get_attribute("data-count")) > 0
    for seat in (0, seats - 1):
        page.get_by_test_id("mode").select_option(f"seat-{seat}")
        page.wait_for_selector(f"body[data-mode=seat-{seat}]:not([data-loading])")
        mine = page.locator(f"[data-testid=hand-{seat}] .card")
        assert mine.count() == int(page.get_by_test_id(f"hand-{seat}").get_attribute("data-count"))
        assert mine.count() > 0
        for other in range(seats):
            if other != seat:
                assert page.locator(f"[data-testid=hand-{other}] .card").count() == 0
                assert page.locator(f"[data-testid=hand-{other}] .card-back").count() > 0
        assert page.locator(f"[data-testid=seat-{seat}]").get_attribute("class").find("me") >= 0
    # Step to one of the seat's own model decisions: its prompt and answer are there.
    page.get_by_test_id("mode").select_option("spectator")
    page.wait_for_selector("body[data-mode=spectator]:not([data-loading])")
    assert page.locator("[data-testid=answer]").count() == 0
    shots = _shots()
    if shots is not None:
        # A text-path seat's own decision, a few turns in, with its answer open.
        for seat in reversed(range(seats)):
            page.get_by_test_id("mode").select_option(f"seat-{seat}")
            page.wait_for_selector(f"body[data-mode=seat-{seat}]:not([data-loading])")
            page.keyboard.press("Home")
            for _ in range(last):
                page.keyboard.press("ArrowRight")
                if _step(page) > 10 and page.locator("[data-testid=answer]").count():
                    break
            if page.locator("[data-testid=answer]").count():
                break
        page.locator("[data-testid=answer] summary").first.click()
        page.screenshot(path=str(shots / "replay.png"), full_page=True)


def test_a_seats_own_decisions_show_prompt_and_answer(site: Path, tab: Page) -> None:
    page = tab.open(_first_replay(site))
    page.wait_for_selector("body[data-mode=spectator][data-step]")
    last = int(page.locator("#slider").get_attribute("max"))
    # Find a decision of a text-path seat (one with attempts) and view it as that seat.
    for t in range(last):
        page.locator("#slider").fill(str(t))
        if page.locator("[data-testid=decision] table.data").count():
            break
    else:
        pytest.fail("no decision with attempts in the replay")
    decider = int(page.locator("[data-testid=decision] p").first.inner_text().split()[0][1:])
    assert page.locator("[data-testid=answer]").count() == 0  # not in the spectator's view
    page.get_by_test_id("mode").select_option(f"seat-{decider}")
    page.wait_for_selector(f"body[data-mode=seat-{decider}]:not([data-loading])")
    assert _step(page) == t  # switching views keeps the step
    assert page.locator("[data-testid=answer]").count() >= 1
    page.locator("[data-testid=decision] details summary").first.click()
    assert "Legal move" in page.locator("[data-testid=decision]").inner_text()
    other = (decider + 1) % page.locator("[data-testid^=seat-]").count()
    page.get_by_test_id("mode").select_option(f"seat-{other}")
    page.wait_for_selector(f"body[data-mode=seat-{other}]:not([data-loading])")
    assert page.locator("[data-testid=answer]").count() == 0


def test_every_other_page_opens_without_errors(site: Path, tab: Page) -> None:
    for rel in ("compare.html", "methodology.html", "replays/index.html"):
        page = tab.open(site / rel)
        assert page.locator("h1").count() == 1
    for path in sorted(site.glob("participants/*.html")):
        page = tab.open(path)
        assert page.get_by_test_id("participant").count() == 1
        assert page.get_by_test_id("by-role").count() >= 1
