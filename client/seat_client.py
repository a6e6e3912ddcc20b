"""``SeatClient``: one seat of one match on the seat service, over blocking HTTP (httpx).

The async twin is :class:`~.async_seat_client.AsyncSeatClient`, with the same methods as
coroutines; both read answers with :mod:`.wire`, so they speak the same protocol.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx

from .errors import (
    BadRequest,
    IllegalMove,
    MatchOver,
    StaleDecision,
    TransportError,
    transport_error,
)
from .http_base import SyncConnection
from .models import Decision, PromptPart, StreamEvent
from .stream import STREAM_READ_S, StreamState
from .wire import (
    API,
    Backoff,
    SystemPrompt,
    clamp_wait,
    decision_of,
    events_of,
    json_of,
    match_path,
    poll_timeout,
    prompt_params,
    stream_headers,
)

Policy = Callable[[Decision], str]


class SeatClient(SyncConnection):
    """A seat's connection to the service: ``SeatClient(base_url, token, match_id=...)``.

    ``token`` is the seat's token from ``POST /v1/matches``; it travels only in the
    ``Authorization`` header and never shows in ``repr``. ``timeout`` (seconds) bounds each
    request; a long-poll may take its ``wait`` on top. Use it as a context manager, or
    :meth:`close` it. Failures raise the typed errors of :mod:`bangarena.client.errors`.
    """

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        match_id: str,
        timeout: float = 10.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        match_path(match_id)  # refuse an empty id now rather than at the first call
        super().__init__(base_url, token, timeout=timeout, transport=transport)
        self.match_id = match_id
        self._system = SystemPrompt()

    def _repr_extra(self) -> str:
        return f", match_id={self.match_id!r}"

    # --- the seat's routes -------------------------------------------------------------------

    def wait_decision(self, wait: float = 30.0, *, prompt: PromptPart = "full") -> Decision | None:
        """This seat's pending decision, waiting up to ``wait`` seconds (≤ 60) for one; None
        when none came. Raises :class:`MatchOver` (with the result) once the match is over or
        the seat is eliminated. Polling also tells the service the seat is connected.

        ``prompt``: the service's prompts in ``decision.prompt`` — ``"full"`` (both),
        ``"turn"`` (the same text, with ~9 KB less per poll: the match's system prompt comes
        once and the client fills it in) or ``"none"`` (empty: for agents with their own
        prompts, and the lightest poll for the service)."""
        wait = clamp_wait(wait)
        response = self._send(
            "GET",
            match_path(self.match_id, "/decision"),
            params=self._system.params(wait, prompt),
            timeout=poll_timeout(self.timeout, wait),
        )
        return self._system.fill(decision_of(response), prompt)

    def move(self, decision_id: int, move_id: str) -> list[dict[str, Any]]:
        """Answer decision ``decision_id`` with ``move_id``; the events the move caused, as this
        seat sees them. :class:`StaleDecision` when the decision is no longer pending,
        :class:`IllegalMove` (with ``.legal``) when the id is not legal."""
        response = self._send(
            "POST",
            match_path(self.match_id, "/moves"),
            json={"decision_id": decision_id, "move_id": move_id},
        )
        return events_of(response)

    def view(self) -> dict[str, Any]:
        """The seat's current view of the table."""
        return json_of(self._send("GET", match_path(self.match_id, "/view")))

    def status(self) -> dict[str, Any]:
        """The match's public status."""
        return json_of(self._send("GET", match_path(self.match_id)))

    def rules(self) -> dict[str, Any]:
        """The rules document (``rules.json``)."""
        return json_of(self._send("GET", f"{API}/rules"))

    def schema(self, name: str) -> dict[str, Any]:
        """A JSON Schema by name (``decision-payload``, ``seat-view``, ``event``, …)."""
        return json_of(self._send("GET", f"{API}/schemas/{name}"))

    # --- the event stream ----------------------------------------------------------------------

    def events(
        self,
        last_event_id: str | None = None,
        *,
        reconnect: bool = True,
        prompt: PromptPart = "full",
    ) -> Iterator[StreamEvent]:
        """The match's events as this seat may see them, from after ``last_event_id`` (from the
        start when None). A dropped connection is reopened with ``Last-Event-ID`` (backing off
        between tries), so no event is lost or repeated; the iterator ends when the match is
        over and every event has been given. ``reconnect=False`` ends it at the first drop
        instead (the last id is then ``event.id`` of the last event received). ``prompt``:
        our prompts in the ``decision`` events, as for :meth:`wait_decision` (with ``"turn"``
        their ``system`` is null: the stream gives the raw payloads)."""
        params = prompt_params(prompt)
        state = StreamState(last_event_id)
        backoff = Backoff()
        while True:
            clean = False
            try:
                with self._http.stream(
                    "GET",
                    match_path(self.match_id, "/events"),
                    params=params,
                    headers=stream_headers(self._token, state.last_id),
                    timeout=httpx.Timeout(self.timeout, read=STREAM_READ_S),
                ) as response:
                    if response.status_code != 200:
                        response.read()
                    if state.opened(response):
                        return
                    backoff.reset()
                    for line in response.iter_lines():
                        event = state.feed(line)
                        if event is not None:
                            yield event
                            if state.finished:
                                return
                clean = True
            except httpx.HTTPError as exc:
                if not reconnect or self._http.is_closed:
                    raise transport_error(exc) from None
            except TransportError:
                if not reconnect:
                    raise
            state.dropped()
            if not reconnect or (clean and state.finishing):
                return
            if clean and self._ended():
                state.finishing = True  # one more connection drains what is left
                continue
            delay = backoff.next_delay(state.retry_s)
            if delay is None:
                raise TransportError("the event stream kept failing; gave up")
            time.sleep(delay)

    def _ended(self) -> bool:
        """Whether the match is over (after a clean end of stream without the end event)."""
        try:
            return StreamState.over(self.status())
        except TransportError:
            return False

    # --- the play loop ---------------------------------------------------------------------------

    def play(
        self,
        policy: Policy,
        *,
        wait: float = 30.0,
        backoff: Backoff | None = None,
        prompt: PromptPart = "full",
    ) -> Any:
        """Play the seat until the match is over: poll, ``policy(decision) -> move_id``, move.

        Transport failures (and 5xx/429) are retried with exponential backoff; a stale decision
        (409: the clock ran out and the autopilot played) is re-polled. An illegal answer (or
        one that is no move id at all) is re-polled too, and a second bad answer to the same
        decision plays its first legal move, so a buggy policy never stalls the table. Returns
        the result the service gives when the match is over (or this seat is eliminated).
        ``prompt``: which of the service's prompts each decision carries (see
        :meth:`wait_decision`)."""
        backoff = backoff or Backoff()
        illegal_at: int | None = None
        while True:
            try:
                decision = self.wait_decision(wait, prompt=prompt)
                if decision is None:
                    backoff.reset()
                    continue
                move_id = policy(decision)
                if illegal_at == decision.decision_id:
                    move_id = move_id if decision.is_legal(move_id) else decision.move_ids[0]
                try:
                    self.move(decision.decision_id, move_id)
                    illegal_at = None
                except (IllegalMove, BadRequest):  # not a legal id, or not an id at all
                    illegal_at = decision.decision_id
                except StaleDecision:
                    pass
                backoff.reset()
            except MatchOver as over:
                return over.result
            except TransportError as exc:
                delay = backoff.next_delay(exc.retry_after)
                if delay is None:
                    raise
                time.sleep(delay)
