"""The offline `scripted` provider: a bot policy answering through the model text path.

It never calls a network and is never a model: records label it "scripted". It writes the
answer JSON a model would write and injects seeded faults (invalid JSON, an illegal id, empty
text, truncated text, a refusal, a delay) at configured rates, counting each in `injected` so
tests can compare a match record with what was injected.

Token usage is counted with a real tokenizer (o200k_base from `bpe-openai`, offline) over the
system prompt, the messages and the answer text; cached tokens are always 0.
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bangarena.rules_machine.tokens import count_tokens as count_tokens_raw

from .base import FinishReason, ProviderError, ProviderReply, ProviderRequest, Usage

FAULT_KINDS: tuple[str, ...] = (
    "invalid_json",
    "illegal_id",
    "empty",
    "truncated",
    "refusal",
    "delay",
)
ILLEGAL_MOVE_ID = "no_such_move"
REFUSAL_TEXT = "I can't help with that request."
SDK_LABEL = "bangarena-scripted"

Policy = Callable[[Any], str]


@dataclass(frozen=True, slots=True)
class ScriptedContext:
    """What the match driver puts in `ProviderRequest.context` for a scripted seat.

    `view` is the seat's `SeatView` (events since its previous decision) and `decision` the
    pending `Decision`; only this seat's information, as for every other seat kind.
    """

    seat: int
    view: Any
    decision: Any


@functools.lru_cache(maxsize=256)
def _count_cached(text: str) -> int:
    return count_tokens_raw(text)


def count_tokens(text: str) -> int:
    """o200k_base token count; long stable texts (system prompts) are memoised."""
    if not text:
        return 0
    if len(text) > 2000:
        return _count_cached(text)
    return count_tokens_raw(text)


def _field(context: Any, name: str) -> Any:
    if isinstance(context, Mapping):
        return context.get(name)
    return getattr(context, name, None)


def legal_ids(context: Any) -> list[str]:
    """The legal move ids in a context: a decision's moves, or a plain list of ids."""
    if isinstance(context, Sequence) and not isinstance(context, str | bytes):
        return [str(x) for x in context]
    decision = _field(context, "decision")
    moves = getattr(decision, "moves", None) or _field(context, "moves") or ()
    return [m if isinstance(m, str) else m.id for m in moves]


def bot_policy(kind: str = "rule", seed: int = 0) -> Policy:
    """A policy playing like the `rule`/`random` bots: one bot per seat, created on first use.

    Falls back to a seeded choice among the legal ids when the context has no view/decision or
    the bots package is not available.
    """
    bots: dict[int, Any] = {}
    rng = random.Random(seed)

    def choose(context: Any) -> str:
        seat, view, decision = (_field(context, k) for k in ("seat", "view", "decision"))
        if view is not None and decision is not None and seat is not None:
            bot = bots.get(seat)
            if bot is None:
                try:
                    from bangarena.harness.bots import make_bot
                except ImportError:
                    bot = None
                else:
                    bot = bots[seat] = make_bot(kind, seed, seat)
            if bot is not None:
                return bot.choose(view, decision)
        ids = legal_ids(context)
        if not ids:
            raise ValueError("scripted policy: the context carries no legal move")
        return ids[0] if kind == "rule" else rng.choice(ids)

    choose.__name__ = f"{kind}_policy"
    return choose


def answer_json(schema: Mapping[str, Any], move: str, reason: str) -> str:
    """The answer object in the schema's property order (`reason`, [`notes`], `move`)."""
    props = list((schema.get("properties") or {}).keys()) or ["reason", "move"]
    values = {"reason": reason, "notes": None, "move": move}
    obj = {k: values.get(k) for k in props}
    obj.setdefault("move", move)
    return json.dumps(obj, ensure_ascii=False)


class ScriptedProvider:
    """Answers with `policy(req.context)`; faults are drawn from its own seeded stream."""

    name = "scripted"

    def __init__(
        self,
        policy: Policy,
        faults: Mapping[str, float] | None = None,
        delay_s: float = 1.0,
        seed: int = 0,
        *,
        label: str = "scripted",
        count_usage: bool = True,
    ) -> None:
        faults = dict(faults or {})
        unknown = set(faults) - set(FAULT_KINDS)
        if unknown:
            raise ValueError(f"unknown fault kinds {sorted(unknown)}; valid: {FAULT_KINDS}")
        if any(not 0.0 <= p <= 1.0 for p in faults.values()) or sum(faults.values()) > 1 + 1e-9:
            raise ValueError(f"fault probabilities must be in [0, 1] and add up to <= 1: {faults}")
        self.policy = policy
        self.faults = faults
        self.delay_s = delay_s
        self.seed = seed
        self.label = label
        self.count_usage = count_usage
        if count_usage:
            count_tokens_raw("")  # the tokenizer loads in ~0.1 s: now, not on a decision's clock
        self.injected: Counter[str] = Counter()
        self.calls = 0
        self._rng = random.Random(seed)
        # Cumulative thresholds in a fixed order, so one draw per call picks at most one fault.
        self._thresholds: list[tuple[float, str]] = []
        total = 0.0
        for kind in FAULT_KINDS:
            if faults.get(kind):
                total += faults[kind]
                self._thresholds.append((total, kind))

    def draw_fault(self) -> str | None:
        """The fault for the next answer, or None (one uniform draw per call)."""
        u = self._rng.random()
        for threshold, kind in self._thresholds:
            if u < threshold:
                return kind
        return None

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        started = time.perf_counter()
        self.calls += 1
        fault = self.draw_fault()
        if fault is not None:
            self.injected[fault] += 1
        if fault == "delay":
            await asyncio.sleep(min(self.delay_s, req.timeout_s))
            if self.delay_s > req.timeout_s:
                raise ProviderError("timeout", f"scripted delay {self.delay_s}s > timeout")
        move = self.policy(req.context)
        name = getattr(self.policy, "__name__", "policy")
        text: str | None = answer_json(req.answer_schema, move, f"scripted {name}")
        refusal: str | None = None
        finish: FinishReason = "tool" if req.answer_mode == "tool" else "stop"
        if fault == "invalid_json":
            text = f"{{move: {move}, reason: scripted}}"
        elif fault == "illegal_id":
            text = answer_json(req.answer_schema, ILLEGAL_MOVE_ID, f"scripted {name}")
        elif fault == "empty":
            text = ""
        elif fault == "truncated":
            text = text[: len(text) // 2]
            finish = "length"
        elif fault == "refusal":
            text, refusal, finish = None, REFUSAL_TEXT, "refusal"
        usage = self._usage(req, text or refusal or "")
        return ProviderReply(
            text=text,
            finish_reason=finish,
            refusal=refusal,
            usage=usage,
            model_id=f"scripted:{self.label}",
            latency_s=time.perf_counter() - started,
            request_params={
                "model": req.model,
                "answer_mode": req.answer_mode,
                "max_tokens": req.max_tokens,
                "faults": self.faults,
                "delay_s": self.delay_s,
                "seed": self.seed,
            },
            sdk=SDK_LABEL,
        )

    def _usage(self, req: ProviderRequest, out: str) -> Usage:
        if not self.count_usage:
            return Usage()
        prompt = count_tokens(req.system) + sum(count_tokens(m.content) for m in req.messages)
        return Usage(input_tokens=prompt, output_tokens=count_tokens(out))

    async def aclose(self) -> None:
        return None
