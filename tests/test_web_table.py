"""The table in the browser (issue 14), driven in Debian's Chromium through Playwright against a
real seat service on loopback: a person plays a whole game against bots by clicking cards and
targets, to the summary and Play again; two people create and join a room by code and play
together; host controls (fill, seat, remove, replace, hand to a bot and return, host hand-over
after absence); a timeout's autopilot move said on the page; a stale move, an unknown room, a
full room, two tabs of one seat and a dropped connection, each a clear message while the game
goes on; a spectator's table; and no hidden information in anything a seat's page receives.

With ``BANGARENA_SCREENSHOTS=DIR`` the tables at 4 and 8 seats and the summary are saved as
``DIR/table-4.png``, ``DIR/table-8.png`` and ``DIR/summary.png`` (``docs/img`` keeps them).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from service_support import played_moves, running_service, service_settings
from web_table_support import (
    ARGS,
    CHROMIUM,
    DropProxy,
    Person,
    click_one_move,
    hidden_fields_of_others,
    need_browser,
    play_until_over,
)

from bangarena.engine.cards import CARD_IDS
from bangarena.service.rooms import HANDED_NOTE, RoomSettings

sync_api = need_browser()
SHOTS = os.environ.get("BANGARENA_SCREENSHOTS")
FAST = RoomSettings(
    pause_s={"slow": 0.2, "normal": 0.05, "fast": 0.0}, host_absent_s=1.5, start_wait_s=5.0,
    max_rounds=40 if SHOTS else 5,
)  # fmt: skip


@pytest.fixture(scope="module")
def svc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    settings = service_settings(tmp_path_factory.mktemp("web"), disconnect_grace_s=2.0)
    with running_service(settings) as s:
        s.call(lambda: setattr(s.app.state.rooms, "settings", FAST))
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=True)


def match_of(page: Any) -> str:
    m = re.search(r"/table/([A-Za-z0-9_-]+)", page.url)
    assert m, page.url
    return m.group(1)


def wait_for_own_decision(page: Any, svc: Any, timeout_ms: int = 45_000) -> bool:
    """Wait until the page holds a decision for its seat (True) or the seat is out of the game,
    dead or at a finished table (False); on a timeout, fail with what the page and the
    service each say, so a stall says where it is."""
    ready = """() => { const S = window.bangTable.state; const v = S.view;
        const me = S.entry ? S.entry.seat : null;
        if (S.decision !== null) return "decision";
        if (S.over || (v && (v.over || (me !== null && !v.players[me].alive)))) return "out";
        return null; }"""
    try:
        return page.wait_for_function(ready, timeout=timeout_ms, polling=100).json_value() == (
            "decision"
        )
    except Exception as error:  # noqa: BLE001 - re-raised with the page's and service's state
        if "Timeout" not in type(error).__name__:
            raise
        seen = page.evaluate(
            """() => { const S = window.bangTable.state; return {entry: S.entry,
               conn: document.getElementById('conn').textContent, log: S.log.slice(-5),
               view_decision: S.view && S.view.decision, over: S.over}; }"""
        )
        mid = match_of(page)

        def served_state() -> str:
            live = svc.state.registry.get(mid)
            d = live.game.decision
            deciding = d and (d.seat, d.kind, len(d.moves))
            return f"{live.status}, {len(live.match.moves)} moves, deciding {deciding}"

        served = svc.call(served_state)
        pytest.fail(f"no decision reached the page: page {seen}, service {served}")


def start_play(person: Person, name: str, seats: int = 4, **extra: Any) -> Any:
    page = person.goto("/")
    page.fill("#name", name)
    page.select_option("#seats", str(seats))
    page.select_option("#speed", "fast")
    if extra:  # settings the home screen does not offer (a short clock): the same route
        body = {"name": name, "seats": seats, "speed": "fast", **extra}
        entry = page.evaluate(
            """async (body) => { const r = await fetch('/web/v1/play', {method: 'POST',
               headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
               return r.json(); }""",
            body,
        )
        page.goto(person.base + entry["table"])
    else:
        page.click("#play")
        page.wait_for_url("**/table/**")
    page.wait_for_selector("#me .player")
    return page


def start_with_a_choice(person: Person, svc: Any, name: str, **extra: Any) -> Any:
    """Sit down at a table (as :func:`start_play`) and wait for the seat's first choice. A deal
    can end the seat's game before it has one (forced hits are applied for it, and a seat can
    die before its first turn): then it sits down at a fresh table, as a player would."""
    for _ in range(3):
        page = start_play(person, name, **extra)
        if wait_for_own_decision(page, svc):
            return page
    pytest.fail(f"three deals in a row ended {name}'s game before a first choice")


def test_a_full_game_against_bots_by_clicking_to_the_summary_and_again(svc, browser) -> None:
    ana = Person(browser, svc.url)
    page = start_with_a_choice(ana, svc, "Ana")
    mid = match_of(page)
    assert "You are the" in page.inner_text("#role-banner")
    assert page.locator("#others .player").count() == 3
    page.wait_for_function("document.getElementById('roles-line').textContent.length > 0")
    assert "Roles at the table" in page.inner_text("#roles-line")
    # only legal moves can be chosen: the highlighted cards are those of the legal moves
    legal = page.evaluate(
        """() => { const S = window.bangTable.state;
           const kinds = [...document.querySelectorAll('#hand .card.legal')].map(b => b.dataset.card);
           const ids = S.decision.moves.map(m => m.id);
           return kinds.every(k => ids.some(i => i === k || i.startsWith(k + '@')
             || i.startsWith(k + '_as_') || i === 'discard:' + k)); }"""
    )
    assert legal
    shot(page, "table-4.png")
    moves = play_until_over([page])
    assert moves > 0
    summary = page.locator("#summary")
    assert summary.is_visible()
    text = summary.inner_text()
    assert "Play again" in text and "Damage dealt" in text
    assert page.locator("#summary tbody tr").count() == 4
    assert page.get_attribute("#message", "data-kind") != "error", page.inner_text("#message")
    shot(page, "summary.png")
    # nothing the page received for seat 0 tells it what seat 0 may not know
    received = ana.received()
    assert received
    assert hidden_fields_of_others(received, 0) == []
    live = svc.call(lambda: svc.state.registry.get(mid))
    deck = svc.call(lambda: [CARD_IDS[c] for c in live.game.state.deck[-3:]])
    blob = " ".join(t for _, t in ana.answers) + " ".join(e["data"] for e in ana.sse())
    if len(deck) == 3:
        assert ",".join(f'"{c}"' for c in reversed(deck)) not in blob
    page.click("#again")
    page.wait_for_url(lambda url: match_of_url(url) not in (None, mid))
    page.wait_for_selector("#me .player")
    # a click racing the last move of the game is answered 410 (the game is over): the browser
    # logs that response
    ana.close(allow=("the server responded with a status of 410",))


def match_of_url(url: str) -> str | None:
    m = re.search(r"/table/([A-Za-z0-9_-]+)", url)
    return m.group(1) if m else None


def test_two_people_create_and_join_a_room_by_code_and_play_together(svc, browser) -> None:
    ana, bea = Person(browser, svc.url), Person(browser, svc.url)
    a = ana.goto("/")
    a.fill("#name", "Ana")
    a.select_option("#seats", "4")
    a.select_option("#speed", "fast")
    a.click("#create")
    a.wait_for_url("**/room/**")
    code = a.inner_text("#room-code").strip()
    assert re.fullmatch(r"[A-Z2-9]{6}", code)
    a.wait_for_function(f"document.getElementById('share-link').textContent.includes('{code}')")
    b = bea.goto("/")
    b.fill("#name", "Bea")
    b.fill("#code", code.lower())
    b.click("#join")
    b.wait_for_url(f"**/room/{code}")
    a.wait_for_function("document.querySelectorAll('.chair-human').length === 2")
    assert "Bea" in a.inner_text("#chairs")
    assert b.locator("#host-controls").is_hidden()
    a.click("#fill")
    a.wait_for_function("document.querySelectorAll('.chair-bot').length === 2")
    a.click("#start")
    a.wait_for_url("**/table/**")
    b.wait_for_url("**/table/**")
    assert match_of(a) == match_of(b)
    for p in (a, b):
        p.wait_for_selector("#me .player")
    # the names come with the table's own stream, which can reach the page after the view
    a.wait_for_function("document.getElementById('others').textContent.includes('Bea')")
    play_until_over([a, b])
    for person, seat in ((ana, 0), (bea, 1)):
        assert hidden_fields_of_others(person.received(), seat) == []
    # a click racing the last move of the game (or made by a person just eliminated) is
    # answered 410: the browser logs that response
    for person in (ana, bea):
        person.close(allow=("the server responded with a status of 410",))


class DealEnded(Exception):
    """The game (or the part of it a test needs) ended before the test could play it through."""


def test_host_controls_hand_to_a_bot_return_and_host_hand_over(svc, browser) -> None:
    for _ in range(3):
        if hand_over_and_back(svc, browser):
            return
    pytest.fail("three deals in a row ended before the host's controls were played through")


def hand_over_and_back(svc: Any, browser: Any) -> bool:
    """Host controls in one game: hand an absent person's seat to a bot, see the stand-in play,
    return it, then the host's role passing on. False when the game ended first (a deal can end
    in a few moves; then the host's panel is gone): the caller deals again."""
    ana, bea, cid = (Person(browser, svc.url) for _ in range(3))
    a = ana.goto("/")
    a.fill("#name", "Ana")
    a.select_option("#seats", "5")
    a.select_option("#speed", "fast")
    a.click("#create")
    a.wait_for_url("**/room/**")
    code = a.inner_text("#room-code").strip()
    for person, name in ((bea, "Bea"), (cid, "Cid")):
        p = person.goto(f"/room/{code}")
        p.fill("#join-name", name)
        p.click("#room-join button")
        p.wait_for_selector("#room-wait:not([hidden])")
    a.wait_for_function("document.querySelectorAll('.chair-human').length === 3")
    # seat a bot in chair 4, replace Cid (chair 2) with a bot, remove it again, fill
    a.select_option(".chair-set[data-chair='4']", "bot")
    a.wait_for_function("document.querySelectorAll('.chair-bot').length === 1")
    a.select_option(".chair-set[data-chair='2']", "bot")
    a.wait_for_function("document.querySelectorAll('.chair-bot').length === 2")
    cid.page.wait_for_selector("#room-join:not([hidden])")  # Cid is no longer in the room
    a.select_option(".chair-set[data-chair='2']", "empty")
    a.wait_for_function("document.querySelectorAll('.chair-empty').length === 2")
    a.click("#start")
    a.wait_for_function(
        "document.getElementById('message').textContent.includes('Fill the empty chairs')"
    )
    a.click("#fill")
    a.wait_for_function("document.querySelectorAll('.chair-empty').length === 0")
    a.click("#start")
    a.wait_for_url("**/table/**")
    b = bea.page
    b.wait_for_url("**/table/**")
    mid = match_of(a)
    live = svc.call(lambda: svc.state.registry.get(mid))
    try:
        a.wait_for_selector("#host-panel:not([hidden])")
        assert b.locator("#host-panel").is_hidden()
        # Bea is here: no hand-over button for her seat once her presence reached the host's page
        # (the panel can be drawn before it; a count taken at once raced it on a loaded CI)
        a.wait_for_function(
            "document.querySelectorAll(\"#host-panel [data-hand='1']\").length === 0"
        )
        # Bea leaves; the host hands her seat to a bot; back, she sees a bot plays it
        table_url = b.url
        b.goto("about:blank")
        a.wait_for_selector("#host-panel [data-hand='1']", timeout=15_000)
        a.click("#host-panel [data-hand='1']")
        b.goto(table_url)
        b.wait_for_function("document.querySelector('#me .handed') !== null", timeout=10_000)

        def handed_moves() -> int:
            return sum(m.seat == 1 and m.reason == HANDED_NOTE for m in played_moves(svc, live))

        def over_for_bea() -> bool:  # the game, or Bea's part in it
            return svc.call(lambda: live.ended or not live.match.game.state.players[1].alive)

        deadline = a.evaluate("Date.now()") + 30_000
        while handed_moves() == 0 and not over_for_bea():
            a.wait_for_timeout(100)
            click_one_move(a)  # Ana keeps playing her own seat
            assert a.evaluate("Date.now()") < deadline, "the stand-in never played"
        if handed_moves() == 0 or svc.call(lambda: live.ended):
            raise DealEnded
        a.click("#host-panel [data-return='1']")
        b.wait_for_function("document.querySelector('#me .handed') === null", timeout=10_000)
        # the host leaves: after host_absent_s another person present becomes host
        a.goto("about:blank")
        b.wait_for_selector("#host-panel:not([hidden])", timeout=15_000)
        assert "Host controls" in b.inner_text("#host-panel")
    except (DealEnded, sync_api.TimeoutError) as e:
        if not isinstance(e, DealEnded) and not svc.call(lambda: live.ended):
            raise
        ended_early = True
    else:
        ended_early = False
    for p in (ana, bea, cid):
        p.close(allow=("the server responded with a status of 4",))
    return not ended_early


def test_a_timeout_plays_the_autopilot_and_a_late_move_is_refused(svc, browser) -> None:
    ana = Person(browser, svc.url)
    for _ in range(3):
        page = start_with_a_choice(ana, svc, "Ana", time_per_move=1.5)
        # A pending decision of Ana's, read in one step: on a loaded machine the 1.5 s clock
        # can run out between the first choice showing and this read (the next one is as good).
        try:
            old = page.wait_for_function(
                """() => { const d = window.bangTable.state.decision;
                   return d ? [d.decision_id, d.moves[0].id] : null; }""",
                timeout=10_000,
            ).json_value()
        except sync_api.TimeoutError:
            continue  # the autopilot's moves ended Ana's game meanwhile: deal again
        # no click: the clock runs out, the autopilot plays, the page says so
        page.wait_for_function(
            "document.getElementById('message').textContent.includes('autopilot played for you')",
            timeout=15_000,
        )
        assert "time ran out" in page.inner_text("#message")
        page.evaluate("([d, m]) => window.bangTable.sendMove(d, m)", old)
        try:
            said = page.wait_for_function(
                """() => { const t = document.getElementById('message').textContent;
                   return t.includes('Too late') ? 'late'
                     : t.includes('game is over') || t.includes('out of the game') ? 'out'
                     : null; }""",
                timeout=5_000,
            ).json_value()
        except Exception as error:  # noqa: BLE001 - re-raised with what the page says
            said = page.evaluate(
                "[document.getElementById('message').textContent, window.bangTable.state.log"
                ".slice(-4), window.bangTable.state.sending]"
            )
            pytest.fail(f"the late move got no 'Too late' ({type(error).__name__}): {said}")
        if said == "late":
            break
        # the autopilot's answer cost Ana her last life (or ended the game) before the late
        # move arrived: that move is answered 410, rightly; deal again for the 409
    else:
        pytest.fail("three deals in a row ended Ana's game with the autopilot's move")
    assert "autopilot" in page.inner_text("#log")
    # 409 is the late move's answer; 410 is the contract's answer to the moves and polls of a
    # deal the loop left because Ana's game had ended (the page logs both as failed loads)
    ana.close(allow=("status of 409", "status of 410"))


def test_bad_input_says_so_on_the_page_and_the_game_goes_on(svc, browser) -> None:
    ana, bea = Person(browser, svc.url), Person(browser, svc.url)
    # an unknown room code, from the home screen and from a link
    b = bea.goto("/")
    b.fill("#name", "Bea")
    b.fill("#code", "ZZZZZZ")
    b.click("#join")
    b.wait_for_selector("#message:not([hidden])")
    assert "no room" in b.inner_text("#message")
    bea.goto("/room/QQQQQQ").wait_for_selector("#message:not([hidden])")
    assert "There is no room QQQQQQ" in b.inner_text("#message")
    # a full room
    a = ana.goto("/")
    a.fill("#name", "Ana")
    a.select_option("#seats", "4")
    a.click("#create")
    a.wait_for_url("**/room/**")
    code = a.inner_text("#room-code").strip()
    a.click("#fill")
    a.wait_for_function("document.querySelectorAll('.chair-bot').length === 3")
    b = bea.goto("/")
    b.fill("#name", "Bea")
    b.fill("#code", code)
    b.click("#join")
    b.wait_for_selector("#message:not([hidden])")
    assert "full" in b.inner_text("#message")
    # two tabs of the same seat: the older one steps aside and says why
    a.click("#start")
    a.wait_for_url("**/table/**")
    a.wait_for_selector("#me .player")
    second = ana.context.new_page()
    second.goto(a.url)
    second.wait_for_selector("#me .player")
    a.wait_for_function(
        "document.getElementById('conn').textContent.includes('open in another tab')"
    )
    a.close()
    second.close()
    ana.close()
    bea.close(allow=("Failed to load resource",))


def test_a_dropped_connection_says_so_and_the_game_goes_on(svc, browser) -> None:
    port = int(svc.url.rsplit(":", 1)[1])
    proxy = DropProxy(port)
    ana = Person(browser, proxy.url)
    page = start_with_a_choice(ana, svc, "Ana", time_per_move=2.5)
    decided = page.evaluate("window.bangTable.state.decision.decision_id")
    mid = match_of(page)
    live = svc.call(lambda: svc.state.registry.get(mid))
    played = svc.call(lambda: len(live.game.state.history))  # (kept once the match is stored)
    proxy.drop()
    page.wait_for_selector("#conn:not([hidden])", timeout=10_000)
    assert "Connection lost" in page.inner_text("#conn")
    # away, the seat's clock runs out and the autopilot plays: the game goes on
    deadline = time.monotonic() + 10
    while svc.call(lambda: len(live.game.state.history)) <= played:
        assert time.monotonic() < deadline, "no move was made for the absent seat"
        page.wait_for_timeout(100)
    proxy.restore()
    page.wait_for_selector("#conn", state="hidden", timeout=15_000)
    page.wait_for_function(
        f"(window.bangTable.state.decision?.decision_id ?? {decided}) > {decided}"
        " || window.bangTable.state.over",
        timeout=20_000,
    )
    proxy.close()
    ana.close(allow=("Failed to load resource", "ERR_"))


def test_a_spectator_watches_a_bot_match_at_eight_seats(svc, browser) -> None:
    eve = Person(browser, svc.url, width=1500, height=1100)
    page = eve.goto("/")
    page.select_option("#seats", "8")
    page.select_option("#speed", "slow")
    page.click("#watch")
    page.wait_for_url("**/table/**")
    page.wait_for_selector("#others .player")
    assert page.locator("#others .player").count() == 8
    assert "You are watching" in page.inner_text("#role-banner")
    assert page.locator("#hand .card").count() == 0
    assert page.locator("#signals").is_hidden()
    page.wait_for_function("document.querySelectorAll('#log li').length > 5")
    assert hidden_fields_of_others(eve.received(), -1) == []
    eve.close()


def test_a_view_older_than_the_decision_leaves_it_on_screen(svc, browser) -> None:
    # A /view asked for just before the seat's decision arrived, answered after it: the page
    # once took the decision off the screen (a CI run of the keyboard test below caught it),
    # and the clock would then have played for the seat. Here the late answer is made to order.
    page = start_with_a_choice(Person(browser, svc.url), svc, "Ana")
    kept = page.evaluate(
        """async () => {
           const S = window.bangTable.state;
           const id = S.decision.decision_id;
           const late = {view: {...S.view, cursor: S.view.cursor - 1, decision: null}};
           const real = window.fetch;
           window.fetch = async (url, opts) => {
             if (!String(url).endsWith('/view')) return real(url, opts);
             window.fetch = real;
             return new Response(JSON.stringify(late),
                                 {status: 200, headers: {'Content-Type': 'application/json'}});
           };
           await window.bangTable.refresh();
           return [S.decision && S.decision.decision_id === id, S.view.decision !== null,
                   document.querySelectorAll('#decision button.move, #hand .card.legal').length];
        }"""
    )
    assert kept[0] and kept[1], "a late, older view took the decision away"
    assert kept[2] > 0  # still drawn: its moves or legal cards


def test_the_phone_layout_and_keyboard_play(svc, browser) -> None:
    ana = Person(browser, svc.url, width=390, height=844)
    page = start_with_a_choice(ana, svc, "Ana")
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > 400:  # which elements stick out: looked up only to say so
        wide = page.evaluate(
            """() => [...document.querySelectorAll('body *')].filter(e => {
                 const r = e.getBoundingClientRect(); return r.width > 0 && r.right > 400; })
               .slice(0, 8).map(e => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`
                 + ` right=${Math.round(e.getBoundingClientRect().right)}`
                 + ` text=${(e.textContent || '').slice(0, 40)}`)"""
        )
        pytest.fail(f"the page is {width} px wide on a 390 px screen: {wide}")
    # the two boxes that once widened a phone's page (a CI run caught the first): the card
    # check shown for 1.6 s (a Dynamite flip) and the summary's stats table, each as the
    # page draws it
    widths = page.evaluate(
        """() => { const box = document.getElementById('check-card');
           box.innerHTML = '<span class="check-what">Ana · Dynamite</span>'
             + '<span class="card big">Shot</span><span class="check-result">Success</span>';
           box.hidden = false;
           const check = document.documentElement.scrollWidth;
           box.hidden = true;
           const sum = document.getElementById('summary');
           const cols = ['Player', 'Role', 'Character', '♥', 'Damage dealt', 'Damage taken',
                         'Eliminations', 'Cards played', 'Stars'];
           sum.innerHTML = '<table class="stats"><thead><tr>'
             + cols.map(c => `<th>${c}</th>`).join('') + '</tr></thead></table>';
           sum.hidden = false;
           const summary = document.documentElement.scrollWidth;
           sum.hidden = true;
           sum.innerHTML = '';
           return [check, summary]; }"""
    )
    assert max(widths) <= 400, f"a 390 px screen widened to {widths} px (check card, summary)"
    # keyboard only: focus a move or a card and press Enter
    before = page.evaluate("window.bangTable.state.decision.decision_id")
    page.focus("#decision button.move, #hand .card.legal")
    # the table is drawn again at every event (here at once): the focus stays where it was
    which = "(a => a.dataset.card || a.dataset.move || null)(document.activeElement)"
    focused = page.evaluate(which)
    assert focused
    page.evaluate("window.bangTable.render()")
    assert page.evaluate(which) == focused
    page.keyboard.press("Enter")
    if page.locator(".player.target").count():
        page.focus(".player.target")
        page.keyboard.press("Enter")
    elif page.locator("#decision .menu button.move").count():
        page.focus("#decision .menu button.move")
        page.keyboard.press("Enter")
    page.wait_for_function(
        f"(window.bangTable.state.decision?.decision_id ?? -1) !== {before}", timeout=10_000
    )
    labels = page.evaluate(
        "[...document.querySelectorAll('.player')].map(p => p.getAttribute('aria-label'))"
    )
    assert all(label and "life" in label for label in labels)
    assert page.get_attribute("#btn-notify", "aria-label") == "Turn notifications"
    # the top buttons: turn notifications (permission granted) and focus mode
    ana.context.grant_permissions(["notifications"])
    page.click("#btn-notify")
    page.wait_for_function("document.getElementById('btn-notify').ariaPressed === 'true'")
    assert page.evaluate("Notification.permission") == "granted"
    page.click("#btn-focus")
    assert page.evaluate("document.body.classList.contains('focus')")
    assert page.locator("#log-box").is_hidden()
    # The bots play on after Ana's move, on a random deal: her game can end meanwhile (she is
    # eliminated, or the game is over), and a poll is then answered 410, which the browser logs
    ana.close(allow=("the server responded with a status of 410",))


def test_the_language_switch_changes_the_interface_and_the_card_texts(svc, browser) -> None:
    from bangarena.rules_machine.document import rules_document

    names = {c["id"]: c["names"] for c in rules_document()["cards"]}
    ana = Person(browser, svc.url, width=1500, height=1100)
    # at her own choice, which the table waits for: a seat can die before it has one, and its
    # hand goes with it (seen once: an empty hand to read the names from)
    page = start_with_a_choice(ana, svc, "Ana", seats=8)
    page.wait_for_selector("#hand .card")
    page.wait_for_function("document.querySelectorAll('#log li').length > 0")
    shot(page, "table-8.png")

    def hand_names_are(lang: str) -> None:
        # kind and name read in one step: a bot can take a card from the hand between two reads
        hand = page.evaluate(
            """[...document.querySelectorAll('#hand .card')].map(
                 c => [c.dataset.card, c.querySelector('.cname').textContent])"""
        )
        assert hand and all(name == names[kind][lang] for kind, name in hand), (lang, hand)

    hand_names_are("en")
    page.select_option("#lang", "fr")
    page.wait_for_function(
        "document.getElementById('role-banner').textContent.includes('Vous êtes')"
    )
    hand_names_are("fr")
    assert page.get_attribute("#btn-focus", "aria-label") == "Mode focus"
    page.select_option("#lang", "ru")  # the interface in Russian, the cards in English
    page.wait_for_function(
        "document.getElementById('role-banner').textContent.includes('Ваша роль')"
    )
    hand_names_are("en")
    lib = ana.context.new_page()  # the choice is remembered; the library follows it
    lib.goto(svc.url + "/library")
    lib.wait_for_selector("#lib-cards .lib-item")
    assert "Библиотека" in lib.inner_text("h1")
    lib.select_option("#lang", "es")
    lib.wait_for_function("document.getElementById('lib-cards').textContent.includes('Disparo')")
    lib.click("[data-tab=rules]")
    # the English text (shown for ru) stays until the Spanish one has arrived
    lib.wait_for_selector("#lib-rules[lang=es]")
    assert "Mariscal" in lib.inner_text("#lib-rules")
    lib.click("[data-tab=characters]")
    lib.wait_for_function("document.querySelectorAll('#lib-characters .lib-item').length >= 16")
    assert lib.locator("#lib-characters .lib-item").count() == 16
    lib.close()
    # The bots play on meanwhile: Ana can be eliminated or the game end, and her table's poll
    # is then answered 410, which the browser logs
    ana.close(allow=("the server responded with a status of 410",))
