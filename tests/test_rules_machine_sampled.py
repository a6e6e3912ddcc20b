"""Real engine objects against the published schemas, over seeded random games (200 in the
default run; the full 1,000-game, 20,000-objects-per-kind run is ``pytest -m slow``).

Every decision of every game is checked cheaply (each legal id matches its decision kind's id
patterns); a seeded sample of decisions, legal moves, views and events (20 per game and kind:
4,000 in the default run, 20,000 in the slow one) is validated against the schemas — every rare
decision kind and every event kind included — and every sampled decision's legal ids against
its constrained answer schema.

Pure-Python jsonschema takes ~20 ms per view, so the bulk runs through ``jsonschema_rs``, a
compiled Draft 2020-12 validator (one per schema, built once); each schema's first sampled
objects, and the first sampled answer schemas, are checked with the plain jsonschema validator
too (one test per schema, so that pytest-xdist spreads them), which must agree.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import jsonschema_rs
import pytest
from jsonschema import Draft202012Validator

from bangarena.engine import (
    DECISION_KINDS,
    EVENT_TYPES,
    Decision,
    GameConfig,
    event_dict,
    new_game,
    view_to_dict,
)
from bangarena.engine.cards import DECK
from bangarena.engine.roles import MODES
from bangarena.engine.scenario import load_scenario
from bangarena.rules_machine import answer_schema, schema
from bangarena.rules_machine.ids import DECISION_MOVES, pattern_regex

GAMES = 200
"""Games of the default run; the slow run plays FULL_GAMES."""
FULL_GAMES = 1000
PER_GAME = 20
"""Objects of each kind validated per game played (20,000 in the full run)."""
ALWAYS = 100  # every kind's first ALWAYS objects are validated, so rare kinds all are
RATES = {"Decision": 0.14, "Move": 0.24, "SeatView": 0.137, "Event": 0.045, "GameRecord": 1.0}
"""Then a seeded share of the rest (148k decisions, ~1M legal moves, ~490k events in all)."""
PLAIN = {"Decision": 100, "Move": 100, "SeatView": 50, "Event": 100, "GameRecord": 2, "Answer": 100}
"""How many of each sampler's first objects the plain validator checks too (it is slow); for
``Answer``, the first sampled decisions' constrained answer schemas."""


@functools.cache
def compiled(name: str) -> Any:
    """The compiled (Rust) Draft 2020-12 validator of the schema ``name``, built once."""
    return jsonschema_rs.Draft202012Validator(schema(name))


def decision_dict(d: Decision) -> dict[str, Any]:
    out = dataclasses.asdict(d)
    out["moves"] = list(out["moves"])  # asdict keeps the tuple; JSON has arrays
    return out


class Sampler:
    """Picks objects of one schema: all of a kind's first ALWAYS, then a seeded share."""

    def __init__(self, name: str, rnd: random.Random) -> None:
        self.name = name
        self.rate = RATES[name]
        self.rnd = rnd
        self.seen: Counter[str] = Counter()
        self.validated: Counter[str] = Counter()

    def wants(self, kind: str) -> bool:
        self.seen[kind] += 1
        return self.seen[kind] <= ALWAYS or self.rnd.random() < self.rate

    def check(self, obj: Any, kind: str) -> None:
        """Validate ``obj`` with the compiled validator of this sampler's schema."""
        fast = compiled(self.name)
        if not fast.is_valid(obj):
            errors = list(fast.iter_errors(obj))
            raise AssertionError((self.name, kind, [e.message for e in errors[:3]], obj))
        self.validated[kind] += 1

    @property
    def total(self) -> int:
        return sum(self.validated.values())


@dataclasses.dataclass(frozen=True, slots=True)
class AnswerCase:
    """A sampled decision's constrained answer schema, its legal ids and an id it must refuse."""

    kind: str
    ids: tuple[str, ...]
    bad: str

    def check(self, make: Any) -> None:
        """Every legal id passes the validator ``make`` builds, the other id does not."""
        answer = make(answer_schema(self.ids))
        for move_id in self.ids:
            assert answer.is_valid({"reason": None, "move": move_id}), (self.kind, move_id)
        assert not answer.is_valid({"reason": "x", "move": self.bad}), (self.kind, self.bad)


Picked = tuple[Sampler | None, Any, str]
"""One object of the sample: its sampler (None for an AnswerCase), the object, its kind."""


_BOOM = next(c.id for c in DECK if c.explodes and c.kind != "dynamite")  # a ♠ 2–9 card
_OTHERS = [{"role": "outlaw"}, {"role": "outlaw"}, {"role": "renegade"}]
TARGETED: list[tuple[dict[str, Any], list[tuple[int, str]], str]] = [
    (  # Bonesetter, hurt, meets an exploding Dynamite: heal first or take it
        {
            "seats": [
                {"role": "sheriff", "character": "bonesetter", "life": 4,
                 "hand": ["shot", "wagon"], "in_play": ["dynamite"]},
                *_OTHERS,
            ],
            "deck": [_BOOM],
            "step": "turn_start",
        },
        [],
        "brace",
    ),
    (  # Bonesetter heals on his turn: which card goes first
        {
            "seats": [
                {"role": "sheriff", "character": "bonesetter", "life": 3,
                 "hand": ["wagon", "horse"]},
                *_OTHERS,
            ],
        },
        [(0, "heal")],
        "heal_discard",
    ),
    (  # eliminating a player with two different stars: which one to take
        {
            "seats": [
                {"role": "sheriff", "character": "lucky", "hand": ["shot"]},
                {"role": "outlaw", "character": "grip", "life": 1, "hand": ["wagon"],
                 "stars": ["marksman", "endurance"]},
                {"role": "outlaw"},
                {"role": "renegade"},
            ],
        },
        [(0, "shot@1")],
        "bounty_pick",
    ),
]  # fmt: skip


def _illegal_id(ids: set[str], pool: list[str], rnd: random.Random) -> str:
    """An id from some other decision that this decision does not list."""
    while True:
        candidate = pool[rnd.randrange(len(pool))]
        if candidate not in ids:
            return candidate


@dataclasses.dataclass
class Sample:
    """What playing the sample's games saw (filled as :func:`sampled_objects` is consumed)."""

    games: int
    rnd: random.Random = dataclasses.field(default_factory=lambda: random.Random(20_261_129))
    samplers: dict[str, Sampler] = dataclasses.field(default_factory=dict)
    targeted: list[str] = dataclasses.field(default_factory=list)
    patterns_seen: Counter[tuple[str, str, str]] = dataclasses.field(default_factory=Counter)
    constrained: dict[str, int] = dataclasses.field(
        default_factory=lambda: {"legal": 0, "illegal": 0}
    )
    view_events: Counter[str] = dataclasses.field(default_factory=Counter)

    def __post_init__(self) -> None:
        for name in RATES:
            self.samplers[name] = Sampler(name, self.rnd)


def sampled_objects(sample: Sample) -> Iterator[Picked]:
    """Play ``sample.games`` seeded random games; yield the seeded sample of their objects, in
    a fixed order (the same whether or not anything is validated), counting what was seen."""
    rnd = sample.rnd
    decisions, moves, views, events, records = (
        sample.samplers[n] for n in ("Decision", "Move", "SeatView", "Event", "GameRecord")
    )
    regexes = {
        k: [(mk, p, re.compile(pattern_regex(p))) for mk, p in pairs]
        for k, pairs in DECISION_MOVES.items()
    }
    id_pool: list[str] = ["end_turn", "take_hit", "draw_deck", "pick:hand", "upgrade:marksman"]

    def decision_objects(d: Decision) -> Iterator[Picked]:
        dd = decision_dict(d)
        yield decisions, dd, d.kind
        for m in dd["moves"]:
            if moves.wants(m["kind"]):
                yield moves, m, m["kind"]
        ids = d.ids
        bad = _illegal_id(set(ids), id_pool, rnd)
        yield None, AnswerCase(d.kind, ids, bad), d.kind
        if len(id_pool) < 5000:
            id_pool.extend(ids)

    for i in range(sample.games):
        config = GameConfig(seats=4 + i % 5, mode=MODES[(i // 5) % len(MODES)])
        game = new_game(config, seed=i)
        chooser = random.Random(i)
        cursors = [0] * config.seats
        while not game.over:
            d = game.decision
            for m in d.moves:
                hits = [(mk, p) for mk, p, rx in regexes[d.kind] if mk == m.kind and rx.match(m.id)]
                assert hits, (d.kind, m.id, m.kind)
                sample.patterns_seen[(d.kind, *hits[0])] += 1
            if decisions.wants(d.kind):
                yield from decision_objects(d)
            seat = d.seat
            if views.wants(d.kind):
                v = view_to_dict(game.view(seat, since=cursors[seat]))
                yield views, v, d.kind
                sample.view_events.update(e["kind"] for e in v["events"])
            cursors[seat] = len(game.state.log)  # the cursor the seat's view would return
            legal = game.legal_moves
            game.apply_fast(legal[chooser.randrange(len(legal))])
        for ev in game.state.log:
            if events.wants(ev.KIND):
                yield events, event_dict(ev, None), ev.KIND
                if ev.private_to:
                    yield events, event_dict(ev, ev.private_to[0]), ev.KIND
        if i % 50 == 0:
            yield records, game.omniscient_record(), config.mode
            spectator = view_to_dict(game.view(None))
            yield views, spectator, "spectator"
            sample.view_events.update(e["kind"] for e in spectator["events"])
    # The rarest decision kinds also come from exact positions, so the sample has them even if
    # a change of the engine's random streams made random play miss them.
    for scenario, moves_before, kind in TARGETED:
        game = load_scenario(scenario)
        for seat, move_id in moves_before:
            game.apply(seat, move_id)
        d = game.decision
        assert d.kind == kind, (kind, d.kind)
        yield from decision_objects(d)
        yield views, view_to_dict(game.view(d.seat)), d.kind
        sample.targeted.append(d.kind)


@functools.cache
def build_sample(games: int) -> Sample:
    """Play ``games`` seeded random games and validate a seeded sample of their objects with
    the compiled validators."""
    sample = Sample(games)
    for sampler, obj, kind in sampled_objects(sample):
        if sampler is None:
            obj.check(jsonschema_rs.Draft202012Validator)
            sample.constrained["legal"] += len(obj.ids)
            sample.constrained["illegal"] += 1
        else:
            sampler.check(obj, kind)
    return sample


def _check_totals(sampled: Sample) -> None:
    target = PER_GAME * sampled.games
    for name in ("Decision", "Move", "SeatView", "Event"):
        assert sampled.samplers[name].total >= target, (name, sampled.samplers[name].total)
    # views carry the events each seat saw, in that seat's form: those validated too
    assert sum(sampled.view_events.values()) >= target
    assert sampled.samplers["GameRecord"].total >= sampled.games // 50


def _check_all(sampled: Sample) -> None:
    _check_totals(sampled)
    _check_every_decision_kind_and_event_kind_is_in_the_sample(sampled)
    _check_every_legal_id_fits_its_constrained_schema_and_others_do_not(sampled)
    _check_every_decision_move_pattern_occurs(sampled)


def test_sampled_objects_validate_and_cover_every_kind() -> None:
    """One test, so that one process builds the sample (pytest-xdist spreads tests)."""
    _check_all(build_sample(GAMES))


@pytest.mark.parametrize("name", list(PLAIN))
def test_the_plain_validator_agrees_on_the_first_sampled_objects(name: str) -> None:
    """The sample's first objects of each schema (the same ones, in the same order, as the
    compiled run validates) pass the plain jsonschema validator too: one test per schema, so
    that pytest-xdist spreads the slow plain checks. Only as many games are played as it
    takes to reach them."""
    sample = Sample(GAMES)
    plain = None if name == "Answer" else Draft202012Validator(schema(name))
    checked = 0
    for sampler, obj, kind in sampled_objects(sample):
        if (sampler.name if sampler is not None else "Answer") != name:
            continue
        if plain is None:
            obj.check(Draft202012Validator)
        else:
            assert plain.is_valid(obj), (name, kind, "plain validator disagrees")
        checked += 1
        if checked == PLAIN[name]:
            break
    assert checked == PLAIN[name], (name, checked)


@pytest.mark.slow
def test_at_least_20000_objects_of_each_kind_validate() -> None:
    _check_all(build_sample(FULL_GAMES))


def _check_every_decision_kind_and_event_kind_is_in_the_sample(sampled: Sample) -> None:
    assert set(sampled.samplers["Decision"].validated) == set(DECISION_KINDS)
    assert sampled.targeted == [kind for _, _, kind in TARGETED]
    for kind in ("brace", "bounty_pick", "heal_discard"):  # random play met them too
        assert sampled.samplers["Decision"].seen[kind] > 1, kind
    kinds = {c.KIND for c in EVENT_TYPES}
    assert set(sampled.samplers["Event"].validated) == kinds
    assert set(sampled.view_events) == kinds


def _check_every_legal_id_fits_its_constrained_schema_and_others_do_not(
    sampled: Sample,
) -> None:
    c = sampled.constrained
    assert c["illegal"] == sampled.samplers["Decision"].total
    assert c["legal"] >= 2 * c["illegal"]  # every asked decision has at least two moves


def _check_every_decision_move_pattern_occurs(sampled: Sample) -> None:
    """The per-decision id patterns are not broader than the engine: each one is met."""
    seen = sampled.patterns_seen
    for kind, pairs in DECISION_MOVES.items():
        for mk, p in pairs:
            assert seen[(kind, mk, p)] > 0, (kind, mk, p)


def test_unions_are_exactly_discriminated() -> None:
    """Each ``oneOf`` with a discriminator: one branch per mapping entry, each branch's
    discriminator property a ``const`` equal to its key — so following the mapping gives the
    same verdict as evaluating every branch."""
    found = 0
    for name in ("Move", "Decision", "SeatView", "Event", "GameRecord"):
        doc = schema(name)
        defs = doc["$defs"]

        def walk(node: Any) -> Iterator[dict[str, Any]]:
            if isinstance(node, dict):
                if "discriminator" in node:
                    yield node
                for v in node.values():
                    yield from walk(v)
            elif isinstance(node, list):
                for v in node:
                    yield from walk(v)

        for union in walk(doc):
            found += 1
            prop = union["discriminator"]["propertyName"]
            mapping = union["discriminator"]["mapping"]
            refs = [b["$ref"] for b in union["oneOf"]]
            assert sorted(refs) == sorted(mapping.values())
            for key, ref in mapping.items():
                branch = defs[ref.rsplit("/", 1)[1]]
                assert branch["properties"][prop]["const"] == key
                assert prop in branch["required"]
    assert found >= 4


def test_a_broken_object_is_rejected_by_both_validators() -> None:
    game = new_game(GameConfig(seats=5), seed=3)
    d = decision_dict(game.decision)
    for make in (jsonschema_rs.Draft202012Validator, Draft202012Validator):
        v = make(schema("Decision"))
        assert v.is_valid(d)
        bad = {**d, "moves": d["moves"][:1]}  # a single move is never asked
        assert not v.is_valid(bad)
        bad = {**d, "kind": "answer_shot"}  # a play decision's moves under another kind
        assert not v.is_valid(bad)
        bad = {**d, "moves": [{**d["moves"][0], "id": "shot@9"}, *d["moves"][1:]]}
        assert not v.is_valid(bad)
    view = view_to_dict(game.view(0))
    ev = dict(view["events"][0])
    ev["extra"] = 1
    for make in (jsonschema_rs.Draft202012Validator, Draft202012Validator):
        v = make(schema("SeatView"))
        assert v.is_valid(view)
        assert not v.is_valid({**view, "events": [ev]})
        assert not v.is_valid({**view, "mode": "chaos"})
