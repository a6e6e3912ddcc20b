"""A thin HTTP client for remote agents (imports no other BangArena package).

Connect an agent to its seat on the seat service and play::

    from bangarena.client import SeatClient

    with SeatClient("http://127.0.0.1:8000", token, match_id=match_id) as seat:
        seat.play(lambda decision: decision.moves[0].id)

:class:`SeatClient` blocks; :class:`AsyncSeatClient` has the same methods as coroutines.
:class:`AdminClient` (or :func:`create_match`) creates matches with the service's admin token.
Every failure is a typed :class:`ServiceError`.
"""

from .admin import (
    AdminClient,
    AsyncAdminClient,
    bot,
    create_match,
    human,
    match_body,
    model,
    remote,
)
from .async_seat_client import AsyncSeatClient
from .errors import (
    BadRequest,
    Forbidden,
    IllegalMove,
    MatchOver,
    NotFound,
    ServiceError,
    StaleDecision,
    TransportError,
    Unauthorized,
)
from .models import (
    Decision,
    MatchCreated,
    MoveOption,
    PromptPair,
    PromptPart,
    SeatSlot,
    StreamEvent,
)
from .seat_client import SeatClient
from .wire import Backoff

__all__ = [
    "AdminClient",
    "AsyncAdminClient",
    "AsyncSeatClient",
    "Backoff",
    "BadRequest",
    "Decision",
    "Forbidden",
    "IllegalMove",
    "MatchCreated",
    "MatchOver",
    "MoveOption",
    "NotFound",
    "PromptPair",
    "PromptPart",
    "SeatClient",
    "SeatSlot",
    "ServiceError",
    "StaleDecision",
    "StreamEvent",
    "TransportError",
    "Unauthorized",
    "bot",
    "create_match",
    "human",
    "match_body",
    "model",
    "remote",
]
