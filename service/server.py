"""The uvicorn server of ``bangarena serve``, which stops the matches before the connections.

uvicorn's own stop waits for every open request before the app's shutdown runs, and a seat's
long-poll may wait 60 s for its turn: Ctrl-C took up to a minute with agents connected. Here a
stop first stops the running matches (each stored as void, as the app's shutdown would): their
seats' open polls answer 410 and their streams end at once. What is left, a poll of a match
that never started, is cut after :data:`SHUTDOWN_GRACE_S`."""

from __future__ import annotations

import socket
from typing import Final

import uvicorn

SHUTDOWN_GRACE_S: Final = 3.0
"""How long a stopping server waits for requests still open once the matches have stopped."""


class SeatServer(uvicorn.Server):
    """``uvicorn.Server`` whose shutdown stops the service's running matches first."""

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        state = getattr(getattr(self.config.app, "state", None), "service", None)
        if state is not None:
            await state.registry.aclose()
        await super().shutdown(sockets)


def serve(app: object, **options: object) -> None:
    """Run ``app`` as ``uvicorn.run(app, **options)`` does, with :class:`SeatServer`."""
    options.setdefault("timeout_graceful_shutdown", SHUTDOWN_GRACE_S)
    SeatServer(uvicorn.Config(app, **options)).run()  # type: ignore[arg-type]


__all__ = ["SHUTDOWN_GRACE_S", "SeatServer", "serve"]
