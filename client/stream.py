"""The state of one resumable event stream, shared by the sync and the async client: the SSE
parser, the last event id, and when the stream is finished.

A stream is finished when the service sends its end event, when it answers 410 or 204 to a
(re)connection, or when a connection ends cleanly after the match status says it is over (the
last reconnection drains what was left). Anything else that ends a connection is a drop, and the
client reconnects with ``Last-Event-ID``.

The service's events: ``game`` (one event of the match as the token's holder sees it; its id is
the view cursor after it, so resuming from it neither loses nor repeats one), ``decision`` (a
seat's pending decision, without an id: a notice, sent again on every new connection while it
is pending — given once per decision here) and ``end`` (the public status, last).
"""

from __future__ import annotations

from typing import Any

import httpx

from .errors import MatchOver, error_for
from .models import StreamEvent
from .sse import SSEParser

STREAM_READ_S = 60.0
"""A stream that sends nothing (not even a keep-alive comment) for this long counts as dropped."""
END_EVENTS = frozenset({"end", "match_over", "over"})
"""Event names with which the service closes a stream for good."""
OVER_STATES = frozenset({"over", "finished", "done", "ended", "aborted"})


class StreamState:
    """Where a stream is: the parser (with the last id) and whether it is finished."""

    def __init__(self, last_event_id: str | None) -> None:
        self.parser = SSEParser(last_event_id)
        self.finished = False
        self.finishing = False
        self._decision: object = None

    @property
    def last_id(self) -> str | None:
        """The id to resume after (``Last-Event-ID``)."""
        return self.parser.last_id

    @property
    def retry_s(self) -> float | None:
        """The server's ``retry:`` hint, in seconds."""
        return self.parser.retry_s

    def opened(self, response: httpx.Response) -> bool:
        """Check a (re)connection's answer (its body read when not 200): True when there is
        nothing more to stream (410, 204); a typed error for any other failure."""
        if response.status_code == 204:
            return True
        if response.status_code != 200:
            error = error_for(response)
            if isinstance(error, MatchOver):
                return True
            raise error
        return False

    def feed(self, line: str) -> StreamEvent | None:
        """One line of the stream; the completed event, if any (marking an end event, and
        dropping a decision already given)."""
        event = self.parser.feed(line)
        if event is None:
            return None
        if event.event in END_EVENTS:
            self.finished = True
        elif event.event == "decision" and isinstance(event.data, dict):
            # A reconnection re-announces the pending decision: it is not a new event.
            key = event.data.get("decision_id")
            if key is not None and key == self._decision:
                return None
            self._decision = key
        return event

    def dropped(self) -> None:
        """The connection ended: a half-received event is discarded (it is sent again)."""
        self.parser.reset()

    @staticmethod
    def over(status: Any) -> bool:
        """Whether a match status (``GET /v1/matches/{id}``) says the match is over."""
        if not isinstance(status, dict):
            return False
        if status.get("over") is True or status.get("finished") is True:
            return True
        return any(status.get(k) in OVER_STATES for k in ("state", "status", "phase"))
