"""Seats: one async protocol (:class:`Seat`) for bots, models, scripted seats and people.

```python
from bangarena.harness.seats import plan_seat, build_seat
seat = build_seat(plan_seat("openai:gpt-4.1-mini"), seat=0, seed=7)
answer = await seat.decide(view, decision, Deadline(60))
```
"""

from .bot_seat import BotSeat
from .factory import SeatPlan, SeatSpecError, build_seat, plan_seat, seat_seed
from .human_seat import HumanSeat
from .model_seat import ModelSeat
from .protocol import Deadline, Seat, SeatAnswer

__all__ = [
    "BotSeat",
    "Deadline",
    "HumanSeat",
    "ModelSeat",
    "Seat",
    "SeatAnswer",
    "SeatPlan",
    "SeatSpecError",
    "build_seat",
    "plan_seat",
    "seat_seed",
]
