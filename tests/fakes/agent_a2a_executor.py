"""The faulty A2A agent's executor: the example's random player with the task-level faults of
a :class:`~fakes.agent_a2a.FaultPlan` (apart from ``agent_a2a``, so that importing the plan,
the example loader and the server helpers does not import a2a-sdk at collection)."""

from __future__ import annotations

import asyncio
import random
from typing import TYPE_CHECKING

from a2a.helpers.proto_helpers import (
    get_data_parts,
    new_data_part,
    new_task_from_user_message,
    new_text_message,
    new_text_part,
)
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types import Message, Role

if TYPE_CHECKING:
    from .agent_a2a import FaultPlan


class FaultyExecutor(AgentExecutor):
    """The example's random player, with the task-level faults of the plan."""

    def __init__(self, plan: FaultPlan, seed: int = 0, slow_s: float = 2.5) -> None:
        self.plan = plan
        self.rng = random.Random(seed)
        self.slow_s = slow_s

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        msg = context.message
        assert msg is not None
        payload = next(d for d in get_data_parts(msg.parts) if isinstance(d, dict))
        fault = self.plan.by_message.pop(msg.message_id, None)
        tid, cid = context.task_id or "", context.context_id or ""
        if fault == "other_context":
            reply = new_text_message('{"move_id": "x"}', context_id="someone-else")
            return await event_queue.enqueue_event(reply)
        if fault == "other_task":
            move = self.rng.choice(payload["moves"])["id"]
            reply = Message(role=Role.ROLE_AGENT, message_id="m-" + tid, context_id=cid,
                            task_id="another-task",
                            parts=[new_data_part({"move_id": move})])  # fmt: skip
            return await event_queue.enqueue_event(reply)
        if context.current_task is None:
            await event_queue.enqueue_event(new_task_from_user_message(msg))
        up = TaskUpdater(event_queue, tid, cid)
        await up.start_work()
        if fault == "slow":
            await asyncio.sleep(self.slow_s)
        if fault == "input_required":
            return await up.requires_input(new_text_message("which card did you mean?"))
        if fault == "failed":
            return await up.failed(new_text_message("my model is down"))
        if fault == "rejected":
            return await up.reject(new_text_message("I do not play cards"))
        if fault == "garbage":
            await up.add_artifact([new_text_part("I shall shoot the sheriff, obviously.")])
            return await up.complete()
        move = "no_such_move" if fault == "illegal" else self.rng.choice(payload["moves"])["id"]
        await up.add_artifact([new_data_part({"move_id": move})], name="move")
        await up.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        await TaskUpdater(event_queue, context.task_id or "", context.context_id or "").cancel()


__all__ = ["FaultyExecutor"]
