"""Real engine objects against the published schemas, over seeded random games (300 in the
default run; the full 1,000-game, 20,000-objects-per-kind run is ``pytest -m slow``).

Every decision of every game is checked cheaply (each legal id matches its decision kind's id
patterns); a seeded sample of at least 20,000 decisions, legal moves, views and events is
validated with jsonschema against the schemas (20 per game and kind: 4,000 in the default run) — every rare decision kind and every event kind
included — and every sampled decision's legal ids against its constrained answer schema.

jsonschema is slow on big unions, so the bulk runs with a Draft 2020-12 validator that follows
the ``discriminator`` of a ``oneOf`` straight to its branch and looks ``#/$defs/…`` references
up directly; a test below proves the unions are exactly discriminated (one ``const`` kind per
branch, the mapping naming each), which makes that the same verdict, and each sampler's first
objects are checked with the plain validator too.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator, validators
from jsonschema import _keywords as keywords

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
PLAIN = {"Decision": 100, "Move": 100, "SeatView": 50, "Event": 100, "GameRecord": 2}
"""How many of each sampler's first objects the plain validator checks too (it is slow)."""


def _discriminated_one_of(
    validator: Any, one_of: list[dict[str, Any]], instance: Any, schema: dict[str, Any]
) -> Iterator[Any]:
    disc = schema.get("discriminator")
    if disc and isinstance(instance, dict):
        ref = disc["mapping"].get(instance.get(disc["propertyName"]))
        for i, sub in enumerate(one_of):
            if ref is not None and sub.get("$ref") == ref:
                yield from validator.descend(instance, sub, schema_path=i)
                return
    yield from keywords.oneOf(validator, one_of, instance, schema)


def discriminating(root: dict[str, Any]) -> Any:
    """A Draft 2020-12 validator of ``root`` that follows discriminators and resolves its
    ``#/$defs/…`` references by a dict lookup (our schemas have no ``$id``)."""
    defs = root.get("$defs", {})

    def local_ref(validator: Any, ref: str, instance: Any, schema: dict[str, Any]) -> Any:
        name = ref.removeprefix("#/$defs/")
        if name != ref and name in defs:
            yield from validator.descend(instance, defs[name])
        else:
            yield from keywords.ref(validator, ref, instance, schema)

    cls = validators.extend(
        Draft202012Validator, {"oneOf": _discriminated_one_of, "$ref": local_ref}
    )
    return cls(root)


def decision_dict(d: Decision) -> dict[str, Any]:
    out = dataclasses.asdict(d)
    out["moves"] = list(out["moves"])  # asdict keeps the tuple; JSON has arrays
    return out


class Sampler:
    """Validates objects of one schema: all of a kind's first ALWAYS, then a seeded share."""

    def __init__(self, name: str, rnd: random.Random) -> None:
        self.name = name
        self.fast = discriminating(schema(name))
        self.plain = Draft202012Validator(schema(name))
        self.rate = RATES[name]
        self.rnd = rnd
        self.seen: Counter[str] = Counter()
        self.validated: Counter[str] = Counter()
        self.plain_checked = 0

    def wants(self, kind: str) -> bool:
        self.seen[kind] += 1
        return self.seen[kind] <= ALWAYS or self.rnd.random() < self.rate

    def check(self, obj: Any, kind: str) -> None:
        errors = list(self.fast.iter_errors(obj))
        assert not errors, (self.name, kind, [e.message for e in errors[:3]], obj)
        if self.plain_checked < PLAIN[self.name]:
            assert self.plain.is_valid(obj), (self.name, kind, "plain validator disagrees")
            self.plain_checked += 1
        self.validated[kind] += 1

    @property
    def total(self) -> int:
        return sum(self.validated.values())


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


@functools.cache
def build_sample(games: int) -> dict[str, Any]:
    """Play ``games`` seeded random games and validate a seeded sample of their objects."""
    rnd = random.Random(20_261_129)
    decisions = Sampler("Decision", rnd)
    moves = Sampler("Move", rnd)
    views = Sampler("SeatView", rnd)
    events = Sampler("Event", rnd)
    records = Sampler("GameRecord", rnd)
    regexes = {
        k: [(mk, p, re.compile(pattern_regex(p))) for mk, p in pairs]
        for k, pairs in DECISION_MOVES.items()
    }
    patterns_seen: Counter[tuple[str, str, str]] = Counter()
    constrained = {"legal": 0, "illegal": 0}
    id_pool: list[str] = ["end_turn", "take_hit", "draw_deck", "pick:hand", "upgrade:marksman"]
    view_events: Counter[str] = Counter()

    def check_decision(d: Decision) -> None:
        dd = decision_dict(d)
        decisions.check(dd, d.kind)
        for m in dd["moves"]:
            if moves.wants(m["kind"]):
                moves.check(m, m["kind"])
        ids = d.ids
        answer = Draft202012Validator(answer_schema(ids))
        for move_id in ids:
            assert answer.is_valid({"reason": None, "move": move_id})
            constrained["legal"] += 1
        bad = _illegal_id(set(ids), id_pool, rnd)
        assert not answer.is_valid({"reason": "x", "move": bad}), (d.kind, bad, ids)
        constrained["illegal"] += 1
        if len(id_pool) < 5000:
            id_pool.extend(ids)

    for i in range(games):
        config = GameConfig(seats=4 + i % 5, mode=MODES[(i // 5) % len(MODES)])
        game = new_game(config, seed=i)
        chooser = random.Random(i)
        cursors = [0] * config.seats
        while not game.over:
            d = game.decision
            for m in d.moves:
                hits = [(mk, p) for mk, p, rx in regexes[d.kind] if mk == m.kind and rx.match(m.id)]
                assert hits, (d.kind, m.id, m.kind)
                patterns_seen[(d.kind, *hits[0])] += 1
            if decisions.wants(d.kind):
                check_decision(d)
            seat = d.seat
            if views.wants(d.kind):
                v = view_to_dict(game.view(seat, since=cursors[seat]))
                views.check(v, d.kind)
                view_events.update(e["kind"] for e in v["events"])
            cursors[seat] = len(game.state.log)  # the cursor the seat's view would return
            legal = game.legal_moves
            game.apply_fast(legal[chooser.randrange(len(legal))])
        for ev in game.state.log:
            if events.wants(ev.KIND):
                events.check(event_dict(ev, None), ev.KIND)
                if ev.private_to:
                    events.check(event_dict(ev, ev.private_to[0]), ev.KIND)
        if i % 50 == 0:
            records.check(game.omniscient_record(), config.mode)
            spectator = view_to_dict(game.view(None))
            views.check(spectator, "spectator")
            view_events.update(e["kind"] for e in spectator["events"])
    # The rarest decision kinds also come from exact positions, so the sample has them even if
    # a change of the engine's random streams made random play miss them.
    targeted = []
    for scenario, moves_before, kind in TARGETED:
        game = load_scenario(scenario)
        for seat, move_id in moves_before:
            game.apply(seat, move_id)
        d = game.decision
        assert d.kind == kind, (kind, d.kind)
        check_decision(d)
        views.check(view_to_dict(game.view(d.seat)), d.kind)
        targeted.append(d.kind)
    return {
        "games": games,
        "targeted": targeted,
        "decisions": decisions,
        "moves": moves,
        "views": views,
        "events": events,
        "records": records,
        "patterns_seen": patterns_seen,
        "constrained": constrained,
        "view_events": view_events,
    }


def _check_totals(sampled: dict[str, Any]) -> None:
    target = PER_GAME * sampled["games"]
    for key in ("decisions", "moves", "views", "events"):
        assert sampled[key].total >= target, (key, sampled[key].total)
    # views carry the events each seat saw, in that seat's form: those validated too
    assert sum(sampled["view_events"].values()) >= target
    assert sampled["records"].total >= sampled["games"] // 50
    for key in ("decisions", "moves", "views", "events", "records"):
        assert sampled[key].plain_checked == PLAIN[sampled[key].name], key


def _check_all(sampled: dict[str, Any]) -> None:
    _check_totals(sampled)
    _check_every_decision_kind_and_event_kind_is_in_the_sample(sampled)
    _check_every_legal_id_fits_its_constrained_schema_and_others_do_not(sampled)
    _check_every_decision_move_pattern_occurs(sampled)


def test_sampled_objects_validate_and_cover_every_kind() -> None:
    """One test, so that one process builds the sample (pytest-xdist spreads tests)."""
    _check_all(build_sample(GAMES))


@pytest.mark.slow
def test_at_least_20000_objects_of_each_kind_validate() -> None:
    _check_all(build_sample(FULL_GAMES))


def _check_every_decision_kind_and_event_kind_is_in_the_sample(sampled: dict[str, Any]) -> None:
    assert set(sampled["decisions"].validated) == set(DECISION_KINDS)
    assert sampled["targeted"] == [kind for _, _, kind in TARGETED]
    for kind in ("brace", "bounty_pick", "heal_discard"):  # random play met them too
        assert sampled["decisions"].seen[kind] > 1, kind
    kinds = {c.KIND for c in EVENT_TYPES}
    assert set(sampled["events"].validated) == kinds
    assert set(sampled["view_events"]) == kinds


def _check_every_legal_id_fits_its_constrained_schema_and_others_do_not(
    sampled: dict[str, Any],
) -> None:
    c = sampled["constrained"]
    assert c["illegal"] == sampled["decisions"].total
    assert c["legal"] >= 2 * c["illegal"]  # every asked decision has at least two moves


def _check_every_decision_move_pattern_occurs(sampled: dict[str, Any]) -> None:
    """The per-decision id patterns are not broader than the engine: each one is met."""
    seen = sampled["patterns_seen"]
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
    for make in (discriminating, Draft202012Validator):
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
    for make in (discriminating, Draft202012Validator):
        v = make(schema("SeatView"))
        assert v.is_valid(view)
        assert not v.is_valid({**view, "events": [ev]})
        assert not v.is_valid({**view, "mode": "chaos"})
