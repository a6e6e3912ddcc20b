"""``bangarena.client`` without a server: the SSE parser, the typed errors per status, the
resumable stream's bookkeeping over a transport that breaks mid-event, the play loop's retries,
and that a token never shows in a repr, a URL or an error. The same client against the real
service is in ``test_client_service.py``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import httpx
import pytest

from bangarena.client import (
    AdminClient,
    AsyncSeatClient,
    Backoff,
    BadRequest,
    Decision,
    Forbidden,
    IllegalMove,
    MatchOver,
    NotFound,
    SeatClient,
    StaleDecision,
    TransportError,
    Unauthorized,
)
from bangarena.client.sse import SSEParser

TOKEN = "seat-token-0123456789abcdefghij"
DECISION = {
    "match_id": "m1",
    "decision_id": 3,
    "seat": 1,
    "kind": "play",
    "moves": [{"id": "end", "text": "End the turn"}, {"id": "shot@2", "text": "Shot seat 2"}],
    "view": {"seat": 1},
    "schema": {"type": "object"},
    "prompt": {"system": "S", "turn": "T"},
    "deadline_s": 30.0,
    "lang": "en",
    "a_field_from_a_newer_server": {"x": 1},
}


def _parse(text: str, last: str | None = None) -> tuple[list, SSEParser]:
    parser = SSEParser(last)
    events = [e for line in text.split("\n") if (e := parser.feed(line)) is not None]
    return events, parser


def test_sse_parser_follows_the_event_stream_format() -> None:
    text = (
        ": keep-alive comment\n"
        "retry: 1500\n"
        'id: 1\nevent: move\ndata: {"a": 1}\n\n'
        "data: line one\ndata:line two\n\n"  # no id: the last id stays 1
        "id: 3\ndata: [1, 2]\n\n"
        "id: 4\n\n"  # an id without data dispatches nothing but moves the last id
        "id: 5\ndata: half"  # cut before its blank line: never given
    )
    events, parser = _parse(text)
    assert [(e.id, e.event, e.data) for e in events] == [
        ("1", "move", {"a": 1}),
        (None, "message", "line one\nline two"),
        ("3", "message", [1, 2]),
    ]
    assert parser.last_id == "4" and parser.retry_s == 1.5


def _response(status: int, body: object = None, headers: dict | None = None) -> httpx.Response:
    return httpx.Response(status, json=body, headers=headers, request=httpx.Request("GET", "x"))


@pytest.mark.parametrize(
    ("status", "body", "cls"),
    [
        (401, {"detail": "missing token"}, Unauthorized),
        (403, {"detail": "not your seat"}, Forbidden),
        (404, {"detail": "no such match"}, NotFound),
        (409, {"detail": "decision 3 is not pending"}, StaleDecision),
        (422, {"detail": [{"loc": ["body", "move_id"], "msg": "field required"}]}, BadRequest),
        (413, {"detail": "body too large"}, BadRequest),
        (503, {"detail": "busy"}, TransportError),
    ],
)
def test_each_status_has_its_typed_error_with_the_reason(status, body, cls) -> None:
    from bangarena.client.errors import error_for

    err = error_for(_response(status, body))
    assert type(err) is cls and err.status == status
    assert err.reason and (err.reason == body["detail"] or "move_id" in err.reason)


def test_illegal_move_and_match_over_carry_their_payloads() -> None:
    from bangarena.client.errors import error_for

    body = {"error": "illegal_move", "reason": "not legal", "legal": ["end", "shot@2"]}
    err = error_for(_response(422, body))
    assert isinstance(err, IllegalMove) and err.legal == ["end", "shot@2"]
    assert err.reason == "not legal"
    over = error_for(_response(410, {"error": "match_over", "reason": "over", "result": {"w": 0}}))
    assert isinstance(over, MatchOver) and over.result == {"w": 0} and not over.eliminated
    out = error_for(_response(410, {"error": "eliminated", "reason": "this seat was eliminated"}))
    assert isinstance(out, MatchOver) and out.result is None and out.eliminated
    assert out.code == "eliminated" and out.reason == "this seat was eliminated"
    busy = error_for(_response(429, {}, {"retry-after": "2"}))
    assert isinstance(busy, TransportError) and busy.retry_after == 2.0


def test_the_token_is_never_in_a_repr_a_url_or_an_error() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(401, json={"detail": "unknown token"})

    seat = SeatClient("http://svc", TOKEN, match_id="m1", transport=httpx.MockTransport(handler))
    admin = AdminClient("http://svc", TOKEN, transport=httpx.MockTransport(handler))
    with pytest.raises(Unauthorized) as caught:
        seat.wait_decision(wait=1)
    assert TOKEN not in repr(seat) and TOKEN not in repr(admin)
    assert TOKEN not in str(caught.value) and TOKEN not in repr(caught.value)
    assert seen[0].headers["authorization"] == f"Bearer {TOKEN}"
    assert TOKEN not in str(seen[0].url)
    for bad in ("http://user:pw@svc", "http://svc/?token=x", "ftp://svc"):
        with pytest.raises(ValueError):
            SeatClient(bad, TOKEN, match_id="m1")
    with pytest.raises(ValueError):
        SeatClient("http://svc", "two words", match_id="m1")


def test_decisions_tolerate_unknown_fields_and_204_is_none() -> None:
    answers = iter([httpx.Response(204), httpx.Response(200, json=DECISION)])
    params: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        params.append(request.url.params["wait"])
        return next(answers)

    with SeatClient(
        "http://svc", TOKEN, match_id="m1", transport=httpx.MockTransport(handler)
    ) as seat:
        assert seat.wait_decision(wait=0.5) is None
        decision = seat.wait_decision(wait=999)  # clamped to the service's 60 s
    assert isinstance(decision, Decision)
    assert decision.move_ids == ["end", "shot@2"] and decision.answer_schema == {"type": "object"}
    assert params == ["0.5", "60"]


class _Cut(httpx.SyncByteStream):
    """A stream body that sends ``chunks`` and then breaks the connection."""

    def __init__(self, chunks: list[bytes], cut: bool) -> None:
        self.chunks, self.cut = chunks, cut

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks
        if self.cut:
            raise httpx.ReadError("connection reset by peer")


def _sse(i: int) -> bytes:
    return f"id: {i}\nevent: move\ndata: {json.dumps({'n': i})}\n\n".encode()


def test_events_resume_after_a_drop_mid_event_without_loss_or_repeat(monkeypatch) -> None:
    """Three connections: the first breaks inside event 3, the second ends cleanly while the
    match goes on, the third ends with the end event. Events 1..6 come out once each."""
    monkeypatch.setattr("bangarena.client.seat_client.time.sleep", lambda s: None)
    asked: list[str | None] = []
    total = 6

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/events"):
            last = request.headers.get("last-event-id")
            asked.append(last)
            start = int(last or 0) + 1
            sse = {"content-type": "text/event-stream"}
            if len(asked) == 1:
                body = _Cut([_sse(1) + _sse(2) + _sse(3)[:9]], cut=True)
            elif len(asked) == 2:
                body = _Cut([_sse(i) for i in range(start, 5)], cut=False)
            else:
                end = b"id: 7\nevent: end\ndata: {}\n\n"
                body = _Cut([*(_sse(i) for i in range(start, total + 1)), end], cut=False)
            return httpx.Response(200, stream=body, headers=sse)
        return httpx.Response(200, json={"state": "running"})

    with SeatClient(
        "http://svc", TOKEN, match_id="m1", transport=httpx.MockTransport(handler)
    ) as seat:
        got = [e for e in seat.events() if e.event == "move"]
    assert [e.data["n"] for e in got] == [1, 2, 3, 4, 5, 6]
    assert asked == [None, "2", "4"]


def test_play_retries_transport_errors_and_repolls_stale_and_illegal(monkeypatch) -> None:
    monkeypatch.setattr("bangarena.client.seat_client.time.sleep", lambda s: None)
    polls = iter(
        [
            httpx.ConnectError("refused"),
            httpx.Response(503, json={"detail": "restarting"}),
            httpx.Response(204),
            httpx.Response(200, json=DECISION),  # answered: 409 (the clock ran out)
            httpx.Response(200, json=DECISION | {"decision_id": 4}),  # illegal: 422
            httpx.Response(200, json=DECISION | {"decision_id": 4}),  # illegal again → legal[0]
            httpx.Response(410, json={"detail": "over", "result": {"winners": [1]}}),
        ]
    )
    moves: list[dict] = []
    answers = iter(
        [
            httpx.Response(409, json={"detail": "stale"}),
            httpx.Response(422, json={"error": "illegal_move", "reason": "no", "legal": ["end"]}),
            httpx.Response(200, json={"events": [{"type": "move"}]}),
        ]
    )

    def handler(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            moves.append(json.loads(request.content))
            return next(answers)
        item = next(polls)
        if isinstance(item, Exception):
            raise item
        return item

    with SeatClient(
        "http://svc", TOKEN, match_id="m1", transport=httpx.MockTransport(handler)
    ) as seat:
        result = seat.play(lambda d: "nonsense" if d.decision_id == 4 else "shot@2")
    assert result == {"winners": [1]}
    assert moves == [
        {"decision_id": 3, "move_id": "shot@2"},
        {"decision_id": 4, "move_id": "nonsense"},
        {"decision_id": 4, "move_id": "end"},
    ]


def test_play_treats_an_answer_that_is_no_id_as_illegal() -> None:
    """A policy that returns no usable id (the service's validation 422) gets one more chance,
    then the decision's first legal move is played: the loop never dies on a bad policy."""
    polls = iter([httpx.Response(200, json=DECISION)] * 2 + [httpx.Response(410, json={})])
    sent: list[object] = []

    def handler(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            body = json.loads(request.content)
            sent.append(body["move_id"])
            if not body["move_id"]:
                return httpx.Response(422, json={"error": "invalid_request", "reason": "short"})
            return httpx.Response(200, json={"events": []})
        return next(polls)

    with SeatClient(
        "http://svc", TOKEN, match_id="m1", transport=httpx.MockTransport(handler)
    ) as seat:
        assert seat.play(lambda d: "") is None
    assert sent == ["", "end"]


def test_backoff_grows_honours_retry_after_and_gives_up() -> None:
    b = Backoff(first_s=0.1, max_s=1.0, give_up_s=3.0)
    delays = [b.next_delay() for _ in range(4)]
    assert all(d is not None for d in delays)
    assert delays[0] <= 0.1 and delays[3] >= 0.4  # the 4th: between 0.8/2 and 0.8
    assert b.next_delay(retry_after=2.5) >= 2.5
    while (d := b.next_delay()) is not None:
        assert d <= 1.0
    b.reset()
    assert b.next_delay() is not None


def test_the_async_client_speaks_the_same_protocol() -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            body = json.loads(request.content)
            if body["decision_id"] == 3:
                return httpx.Response(200, json=[{"type": "move", "seat": 1}])
        if request.url.path.endswith("/decision"):
            return httpx.Response(410, json={"detail": "over", "result": {"done": True}})
        return httpx.Response(404, json={"detail": "no such match"})

    async def run() -> None:
        async with AsyncSeatClient(
            "http://svc", TOKEN, match_id="m1", transport=httpx.MockTransport(handler)
        ) as seat:
            assert await seat.move(3, "end") == [{"type": "move", "seat": 1}]
            with pytest.raises(MatchOver) as over:
                await seat.wait_decision(1)
            assert over.value.result == {"done": True}
            with pytest.raises(NotFound):
                await seat.view()
            assert TOKEN not in repr(seat)
            # a plain (sync) policy works with the async loop too; the 410 ends it
            assert await seat.play(lambda d: d.move_ids[0]) == {"done": True}

    asyncio.run(run())


def test_the_client_decision_mirrors_every_field_of_the_service_payload() -> None:
    """A field added to the service's DecisionPayload must be added to the client's Decision
    (old clients ignore it; this client should expose it)."""
    from bangarena.harness.decision_payload import DecisionPayload

    def names(model) -> set[str]:
        return {f.alias or name for name, f in model.model_fields.items()}

    assert names(DecisionPayload) == names(Decision)
