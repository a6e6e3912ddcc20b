"""Scripted seats (a bot policy answering through the model text path): full matches at 30 %
injected faults always finish and the record counts exactly what was injected; no leak through a
seat's prompts; notes carried to the next prompt; every prompt language plays."""

from __future__ import annotations

import copy
import json
import random

import pytest
from test_match import check_record

from bangarena.engine import GameConfig, new_game
from bangarena.engine.conformance import resample
from bangarena.harness.match import MatchSettings, run_match
from bangarena.harness.model_spec import ModelOptions, parse_model_spec
from bangarena.harness.providers import ProviderReply, ProviderRequest, Usage
from bangarena.harness.providers.scripted import FAULT_KINDS, ScriptedProvider
from bangarena.harness.seats import BotSeat, Deadline, ModelSeat, build_seat
from bangarena.harness.seats.factory import SeatPlan, scripted_policy
from bangarena.prompts.catalog import catalog

# which failure class each injected fault must produce
FAULT_CLASS = {
    "invalid_json": "unparsable",
    "illegal_id": "illegal",
    "empty": "empty",
    "truncated": "truncated",
    "refusal": "refusal",
    "delay": "timeout",
}


def scripted(seat: int, seed: int, options: ModelOptions, **kw) -> ModelSeat:
    plan = SeatPlan("scripted", "scripted", parse_model_spec("scripted"), options)
    return build_seat(plan, seat=seat, seed=seed, environ={}, **kw)


@pytest.mark.parametrize(("seats", "mode", "seed"), [(5, "classic", 1), (7, "double_agent", 2),
                                                      (8, "partners", 3), (6, "old_classic", 4)])  # fmt: skip
async def test_all_scripted_at_30_percent_faults_finishes_and_counts_match(
    seats: int, mode: str, seed: int
) -> None:
    share = 0.30 / len(FAULT_KINDS)
    options = ModelOptions(
        faults=dict.fromkeys(FAULT_KINDS, share), delay_s=0.2, timeout_s=0.02, retry_budget=2
    )
    settings = MatchSettings(seats=seats, mode=mode, seed=seed, model_time_per_move_s=5,
                             transcripts=False)  # fmt: skip
    table = [scripted(i, seed, options) for i in range(seats)]
    rec = await run_match(settings, table)
    data = check_record(rec, settings)
    injected_total = 0
    for s, t in zip(rec.seats, rec.totals.seats, strict=True):
        assert (s.controller, s.kind) == ("bot", "scripted")
        inj = s.injected_faults
        injected_total += sum(inj.values())
        for fault, cls in FAULT_CLASS.items():
            assert t.failures[cls] == inj.get(fault, 0), (s.seat, fault)
        assert t.failures["transport"] == 0
        assert t.attempts == t.decisions + t.retries
        # every autopiloted decision spent its whole retry budget
        assert t.autopilot.keys() <= {"failures"}
        assert sum(1 for m in rec.moves if m.seat == s.seat and len(m.attempts) == 3
                   and all(a.outcome != "ok" for a in m.attempts)) == t.autopilot_moves  # fmt: skip
    assert injected_total > 0.2 * rec.totals.match.attempts
    assert all(a["transcript"] is None for m in data["moves"] for a in m["attempts"])


async def test_scripted_seats_play_in_every_language() -> None:
    for n, lang in enumerate(("pt", "es", "fr")):
        settings = MatchSettings(seats=4, seed=30 + n, lang=lang)
        table = [scripted(i, 30 + n, ModelOptions(), lang=lang) if i < 2 else BotSeat("random", i, i)
                 for i in range(4)]  # fmt: skip
        rec = await run_match(settings, table)
        check_record(rec, settings)
        cat = catalog(lang)
        sent = rec.moves[[m.seat for m in rec.moves].index(0)].attempts[0].transcript.messages[0]
        assert cat.turn["moves"] in sent["content"]
        assert sent["content"].splitlines()[-1].startswith("Legal move ids: ")
        assert cat.system["answer_title"] in rec.seats[0].system_prompt
        assert rec.seats[0].lang == lang


class Recorder:
    """Wraps a provider and keeps every request it was asked (to compare prompts)."""

    name = "recorder"

    def __init__(self, inner) -> None:
        self.inner, self.requests = inner, []

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        self.requests.append(req)
        return await self.inner.complete(req)

    async def aclose(self) -> None:
        await self.inner.aclose()


def recorded_seat(seat: int) -> tuple[ModelSeat, Recorder]:
    rec = Recorder(ScriptedProvider(scripted_policy("random", seat), seed=seat))
    return ModelSeat(parse_model_spec("scripted:random"), rec, seat=seat), rec


async def test_no_leak_through_a_seats_requests() -> None:
    """Mid-game, a seat that has played so far and a copy of it, shown the same decision in a
    game where everything it cannot know is re-dealt, send byte-identical requests."""
    compared = 0
    for seats, mode, seed in [(5, "classic", 7), (7, "double_agent", 8), (8, "partners", 9)]:
        game = new_game(GameConfig(seats=seats, mode=mode), seed)
        pairs = [recorded_seat(i) for i in range(seats)]
        cursors = [0] * seats
        step = 0
        while not game.over:
            d = game.decision
            s = d.seat
            seat, recorder = pairs[s]
            if step % 11 == 5 and step > 20:
                for k in range(2):
                    other_game = resample(game, s, random.Random(k))
                    twin, twin_rec = recorded_seat(s)
                    twin.memory, twin.system, twin.notes = (
                        copy.deepcopy(seat.memory),
                        seat.system,
                        seat.notes,
                    )
                    await twin.decide(
                        other_game.view(s, since=cursors[s]), other_game.decision, Deadline(5)
                    )
                    mine = copy.deepcopy(seat.memory)
                    probe, probe_rec = recorded_seat(s)
                    probe.memory, probe.system, probe.notes = mine, seat.system, seat.notes
                    await probe.decide(game.view(s, since=cursors[s]), d, Deadline(5))
                    a, b = probe_rec.requests[0], twin_rec.requests[0]
                    assert a.system == b.system and a.messages == b.messages
                    assert a.answer_schema == b.answer_schema
                    compared += 1
            view = game.view(s, since=cursors[s])
            cursors[s] = view.cursor
            ans = await seat.decide(view, d, Deadline(5))
            move = ans.move_id or game.autopilot().id
            game.apply(s, move)
            step += 1
    assert compared >= 20
    # and the system prompt never changed across a seat's decisions
    assert len({r.system for r in pairs[0][1].requests}) == 1


class NotesProvider:
    """A provider whose 'model' keeps a counter in its notes and plays the first legal id."""

    name = "notes"

    def __init__(self) -> None:
        self.prompts: list[str] = []

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        prompt = req.messages[-1].content
        self.prompts.append(prompt)
        ids = prompt.splitlines()[-1].removeprefix("Legal move ids: ").split(", ")
        text = json.dumps({"reason": "first id", "notes": f"decision {len(self.prompts)}",
                           "move": ids[0]})  # fmt: skip
        return ProviderReply(text=text, finish_reason="stop", usage=Usage(input_tokens=1),
                             model_id="notes-1", latency_s=0.0, request_params={}, sdk="test")  # fmt: skip

    async def aclose(self) -> None:
        return None


async def test_notes_are_shown_back_to_the_same_seat_only() -> None:
    provider = NotesProvider()
    seat = ModelSeat(parse_model_spec("openai:notes"), provider, seat=1)
    settings = MatchSettings(seats=4, seed=5)
    table = [seat if i == 1 else BotSeat("rule", i, i) for i in range(4)]
    rec = await run_match(settings, table)
    mine = [m for m in rec.moves if m.seat == 1]
    assert [m.notes for m in mine] == [f"decision {i + 1}" for i in range(len(mine))]
    assert "Your notes:" not in provider.prompts[0]
    for i, prompt in enumerate(provider.prompts[1:], 1):
        assert f"Your notes: decision {i}\n" in prompt
    no_notes = ModelSeat(parse_model_spec("openai:notes"), NotesProvider(), seat=1, notes=False)
    rec = await run_match(
        settings, [no_notes if i == 1 else BotSeat("rule", i, i) for i in range(4)]
    )
    assert all(m.notes is None for m in rec.moves) and '"notes"' not in rec.seats[1].system_prompt
