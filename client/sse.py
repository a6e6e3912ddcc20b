"""A Server-Sent Events parser (the WHATWG event-stream format), fed one line at a time.

It is shared by the sync and the async client: the transport hands it lines, it hands back a
:class:`~.models.StreamEvent` on each blank line that ends an event. Comments (``: ping``) and
events without data are dropped, as browsers drop them; ``retry:`` sets the reconnection delay.
"""

from __future__ import annotations

import json

from .models import StreamEvent


class SSEParser:
    """Incremental parser. ``last_id`` keeps the id of the last event (``Last-Event-ID``)."""

    def __init__(self, last_id: str | None = None) -> None:
        self.last_id = last_id
        self.retry_s: float | None = None
        self._data: list[str] = []
        self._event = ""
        self._id: str | None = None

    def reset(self) -> None:
        """Forget a half-received event (the connection broke inside it)."""
        self._data, self._event, self._id = [], "", None

    def feed(self, line: str) -> StreamEvent | None:
        """One line without its end-of-line; the completed event when ``line`` is blank."""
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return None
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "data":
            self._data.append(value)
        elif field == "event":
            self._event = value
        elif field == "id":
            if "\0" not in value:
                self._id = value
        elif field == "retry" and value.isdigit():
            self.retry_s = int(value) / 1000
        return None

    def _dispatch(self) -> StreamEvent | None:
        if self._id is not None:
            self.last_id = self._id
        if not self._data:
            self._event, self._id = "", None
            return None
        text = "\n".join(self._data)
        try:
            data = json.loads(text)
        except ValueError:
            data = text
        event = StreamEvent(id=self._id, event=self._event or "message", data=data)
        self.reset()
        return event
