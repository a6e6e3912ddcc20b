"""What the web table's browser tests share: Debian's Chromium through Playwright, a page that
records its console errors and everything it receives (JSON answers and Server-Sent Events),
and a player that plays a game through the page by clicking, as a person does.

Skipped (saying why) without ``/usr/bin/chromium`` or the ``playwright`` package.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest

try:
    from playwright.sync_api import Error as PlaywrightError
except ImportError:  # pragma: no cover - the tests that click skip without playwright
    PlaywrightError = Exception  # type: ignore[misc,assignment]

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

# Every Server-Sent Event the page's EventSources get, kept for the leak checks.
RECORD_SSE = """
(() => {
  window.__sse = [];
  const add = EventSource.prototype.addEventListener;
  EventSource.prototype.addEventListener = function (type, fn, opts) {
    const url = this.url;
    return add.call(this, type, (ev) => {
      window.__sse.push({ url, type, data: ev.data });
      return fn(ev);
    }, opts);
  };
})();
"""


class DropProxy:
    """A TCP proxy on a free loopback port in front of the service: :meth:`drop` cuts every
    connection through it and refuses new ones until :meth:`restore` — a dropped network, as
    the browser sees it."""

    def __init__(self, target_port: int) -> None:
        self.target = ("127.0.0.1", target_port)
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.dropped = False
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if self.dropped:
                client.close()
                continue
            upstream = socket.create_connection(self.target)
            with self.lock:
                self.open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def drop(self) -> None:
        self.dropped = True
        with self.lock:
            for s in self.open:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self.open.clear()

    def restore(self) -> None:
        self.dropped = False

    def close(self) -> None:
        self.drop()
        self.server.close()


def need_browser() -> Any:
    """The Playwright sync API, or skip the module."""
    if not CHROMIUM.is_file():
        pytest.skip(
            f"{CHROMIUM} is missing: the browser tests need Debian's chromium",
            allow_module_level=True,
        )
    return pytest.importorskip("playwright.sync_api", reason="the playwright package is missing")


class Person:
    """One person: a fresh browser context and page on the service."""

    def __init__(self, browser: Any, base: str, *, width: int = 1300, height: int = 1000) -> None:
        self.base = base
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.context.add_init_script(RECORD_SSE)
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.errors: list[str] = []
        self.answers: list[tuple[str, str]] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("response", self._answer)

    def _answer(self, response: Any) -> None:
        url = response.url
        kind = response.headers.get("content-type", "")
        # rules.json is public (its deck table is the card list, not the deck's order)
        if "/v1/" in url and "application/json" in kind and not url.endswith("/v1/rules"):
            with contextlib.suppress(Exception):  # a body gone with a navigation
                self.answers.append((url, response.text()))

    def goto(self, path: str) -> Any:
        self.page.goto(self.base + path)
        return self.page

    def sse(self) -> list[dict[str, str]]:
        return list(self.page.evaluate("window.__sse || []"))

    def received(self) -> list[Any]:
        """Every JSON body and SSE data the page received so far (parsed)."""
        out = [json.loads(text) for _, text in self.answers if text]
        out += [json.loads(e["data"]) for e in self.sse()]
        return out

    def close(self, *, allow: tuple[str, ...] = ()) -> None:
        errors = [e for e in self.errors if not any(a in e for a in allow)]
        self.context.close()
        assert errors == [], errors


NEXT_CLICK = """() => {
    const shown = (el) => el !== null && !el.hidden && el.getClientRects().length > 0;
    if (shown(document.getElementById('summary'))) return 'over';
    const first = (sel) => [...document.querySelectorAll(sel)].some(shown) ? sel : null;
    const target = first('.player.target');
    if (target) return target;
    const menu = first('#decision .menu button.move');
    if (menu) return menu;
    const card = first('#hand .card.legal');
    const button = first('#decision .moves button.move');
    // end the turn now and then, so that games move on
    if (card && button && Math.random() < 0.2) return button;
    return card || button;
}"""
"""The page's next click, chosen in one round trip: the selector of a target, a menu item, a
highlighted card or a move button (in that order), ``'over'`` once the summary shows, or null
when nothing is offered."""


def click_one_move(page: Any) -> bool:
    """Make one move through the page if one is offered: a highlighted card (then its
    target), else a move button. Returns whether something was clicked: not when the page
    re-rendered under the click (the element it picked went away), which the caller's loop
    asks again."""
    try:
        return _click_next(page) == "clicked"
    except PlaywrightError:
        return False


def _click_next(page: Any) -> str:
    """Click what :data:`NEXT_CLICK` picks (a real click, through Playwright): ``'clicked'``,
    ``'over'`` or ``'nothing'``."""
    choice = page.evaluate(NEXT_CLICK)
    if choice is None:
        return "nothing"
    if choice == "over":
        return "over"
    # NEXT_CLICK saw it visible: a real mouse click at once, without Playwright's wait for the
    # element to hold still over two frames; a page that re-rendered under it is asked again
    page.locator(choice).locator("visible=true").first.click(force=True, timeout=300)
    return "clicked"


def play_until_over(pages: list[Any], timeout: float = 60.0) -> int:
    """Click through the game on every page until each shows its summary; returns the number
    of moves made."""
    end = time.monotonic() + timeout
    moves = 0
    while time.monotonic() < end:
        clicked = over = 0
        for p in pages:
            try:
                outcome = _click_next(p)
            except PlaywrightError:  # the page re-rendered under the click
                continue
            clicked += outcome == "clicked"
            over += outcome == "over"
        if over == len(pages):
            return moves
        moves += clicked
        if not clicked:
            pages[0].wait_for_timeout(40)
    raise AssertionError("the game did not end in time")


def hidden_fields_of_others(received: list[Any], me: int) -> list[str]:
    """What in the page's traffic would tell seat ``me`` something hidden: another seat's
    private draw, look, put-back, scavenged hand or role; a view with another hand in it."""
    problems: list[str] = []

    def walk(obj: Any) -> None:
        if isinstance(obj, dict):
            kind = obj.get("kind")
            seat = obj.get("seat")
            private = kind == "looked" or (kind == "drew" and obj.get("source") == "deck")
            if private and seat != me and obj.get("cards") is not None:
                problems.append(f"{kind} of seat {seat} shows its cards")
            if kind == "put_back" and seat != me and obj.get("card") is not None:
                problems.append(f"put_back of seat {seat} shows the card")
            if kind == "role_dealt" and seat != me and obj.get("role") is not None:
                problems.append(f"role_dealt of seat {seat} shows the role")
            if kind == "scavenged" and seat != me and obj.get("hand_cards") is not None:
                problems.append(f"scavenged of seat {seat} shows the hand")
            if (
                kind == "stole" and obj.get("from_hand") and obj.get("card")
                and me not in (seat, obj.get("victim"))
            ):  # fmt: skip
                problems.append(f"stole by seat {seat} shows the card")
            if "players" in obj and isinstance(obj["players"], list) and "hand" in obj:
                if obj.get("seat") not in (me, None):
                    problems.append(f"a view of seat {obj.get('seat')}")
                for p in obj["players"]:
                    if isinstance(p, dict) and "hand" in p:
                        problems.append("a player's hand in a view")
                    if (
                        isinstance(p, dict) and p.get("seat") != me and p.get("role")
                        and not p.get("revealed") and not obj.get("over")
                    ):  # fmt: skip
                        problems.append(f"the hidden role of seat {p.get('seat')}")
            for key in ("deck", "omniscient", "stack"):
                if key in obj:
                    problems.append(f"a {key!r} field")
            for v in obj.values():
                walk(v)
        elif isinstance(obj, list):
            for v in obj:
                walk(v)

    walk(received)
    return problems


__all__ = [
    "ARGS",
    "CHROMIUM",
    "DropProxy",
    "Person",
    "click_one_move",
    "hidden_fields_of_others",
    "need_browser",
    "play_until_over",
]
