"""Hostile input at every public entry point of the engine: seats, cursors, move ids, seeds,
configs, saved states and move-id parsing raise typed errors with bounded messages and leave
the game unchanged; the full-truth APIs are marked in their names (issue 9)."""

from __future__ import annotations

import contextlib
import inspect
import json
import random
from typing import Any

import pytest
from scenario_helpers import scenario, seat

from bangarena.engine import (
    ConfigError,
    EngineError,
    Game,
    GameConfig,
    IllegalMove,
    InvalidCursor,
    InvalidSeat,
    MoveSyntaxError,
    NotYourDecision,
    ScenarioError,
    SeedError,
    StateError,
    new_game,
    replay,
)
from bangarena.engine import moves as moves_module
from bangarena.engine.cards import DECK, KIND_BY_ID, KIND_IDS
from bangarena.engine.conformance import resample
from bangarena.engine.errors import shown
from bangarena.engine.events import event_dict
from bangarena.engine.moves import MOVE_KINDS, parse_move_id
from bangarena.engine.roles import UPGRADES
from bangarena.engine.scenario import load_scenario

HUGE = "x" * 10_000_000
BOUND = 400  # characters: every message below stays short whatever the input's size


class _Weird:
    """Equal to everything, hashes like 1: would pass an == test for a seat or an id."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 1


class _Str(str):
    """A str subclass: equal to an id, but not an id (it could carry other behaviour)."""


HOSTILE_SEATS = [-1, -5, 5, 99, 2**70, True, False, 1.0, "1", b"1", [1], _Weird()]
HOSTILE_SINCE = [-1, -(10**30), True, False, 1.5, "0", None, [0], _Weird()]
HOSTILE_IDS = [3, None, b"end_turn", ["end_turn"], ("end_turn",), _Weird(), _Str("end_turn")]


def _id(value: Any) -> str:
    return shown(value, 30)  # repr() of 10**5000 raises ValueError


def _midgame(seed: int = 11, steps: int = 25, seats: int = 5) -> Game:
    game = new_game(GameConfig(seats=seats), seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        game.apply(game.to_move, game.legal_moves[rnd.randrange(len(game.legal_moves))].id)
    assert not game.over
    return game


# -- 1. seats, cursors and move ids ------------------------------------------------------------
@pytest.mark.parametrize("bad", HOSTILE_SEATS, ids=_id)
def test_hostile_seats_are_refused_everywhere(bad: Any) -> None:
    game = _midgame()
    before = game.state_hash()
    move = game.legal_moves[0].id
    for call in (
        lambda: game.view(bad),
        lambda: game.view(bad, since=3),
        lambda: game.events(bad),
        lambda: game.apply(bad, move),
        lambda: resample(game, bad, random.Random(0)),
    ):
        with pytest.raises(InvalidSeat) as err:
            call()
        assert err.value.seat is bad
        assert err.value.seats == 5
        assert len(str(err.value)) < BOUND
    assert game.state_hash() == before


def test_a_spectator_is_none_and_only_where_a_view_is_asked() -> None:
    game = _midgame()
    assert game.view(None).hand == []
    assert game.events(None) == game.view(None).events
    with pytest.raises(InvalidSeat):
        game.apply(None, game.legal_moves[0].id)  # type: ignore[arg-type]


def test_a_float_seat_no_longer_changes_the_state_hash() -> None:
    """``apply(1.0, m)`` used to be accepted (1.0 == 1) and recorded a float in the history."""
    a, b = _midgame(), _midgame()
    seat_, move = a.to_move, a.legal_moves[0].id
    with pytest.raises(InvalidSeat):
        b.apply(float(seat_), move)  # type: ignore[arg-type]
    assert a.state_hash() == b.state_hash()
    a.apply(seat_, move)
    b.apply(seat_, move)
    assert a.state_hash() == b.state_hash()
    assert all(type(s) is int and type(m) is str for s, m in b.history)


def test_view_minus_one_no_longer_shows_the_last_seat() -> None:
    game = _midgame(seats=5)
    with pytest.raises(InvalidSeat):
        game.view(-1)
    assert game.view(4).seat == 4  # the seat Python's indexing used to answer for -1


@pytest.mark.parametrize("bad", HOSTILE_SINCE, ids=_id)
def test_hostile_cursors_are_refused(bad: Any) -> None:
    game = _midgame()
    before = game.state_hash()
    for call in (
        lambda: game.view(1, since=bad),
        lambda: game.view(None, since=bad),
        lambda: game.events(1, bad),
        lambda: game.omniscient_events(bad),
    ):
        with pytest.raises(InvalidCursor) as err:
            call()
        assert err.value.since is bad
        assert len(str(err.value)) < BOUND
    assert game.state_hash() == before


def test_a_cursor_past_the_end_gives_no_events() -> None:
    game = _midgame()
    end = len(game.state.log)
    view = game.view(2, since=end + 50)
    assert view.events == [] and view.cursor == end
    assert game.events(2, end + 50) == [] and game.omniscient_events(end + 50) == []


@pytest.mark.parametrize("bad", HOSTILE_IDS, ids=_id)
def test_move_ids_that_are_not_str_are_refused(bad: Any) -> None:
    game = _midgame()
    before = game.state_hash()
    with pytest.raises(MoveSyntaxError) as err:
        game.apply(game.to_move, bad)
    assert err.value.text is bad
    assert game.state_hash() == before
    with pytest.raises(MoveSyntaxError):
        parse_move_id(bad)


def test_the_checks_come_before_the_game_state_checks() -> None:
    """A bad seat is an InvalidSeat even when it is also not the seat to move."""
    game = _midgame()
    other = (game.to_move + 1) % 5
    with pytest.raises(NotYourDecision):
        game.apply(other, game.legal_moves[0].id)
    with pytest.raises(InvalidSeat):
        game.apply(-1, game.legal_moves[0].id)


def test_replay_refuses_malformed_move_lists() -> None:
    config = GameConfig(seats=4)
    first = new_game(config, 3)
    good = [first.to_move, first.legal_moves[0].id]
    for moves in ([good[:1]], [[*good, "extra"]], ["end_turn"], [[good[0] + 0.0, good[1]]]):
        with pytest.raises((MoveSyntaxError, InvalidSeat)):
            replay(config, 3, moves)  # type: ignore[arg-type]
    assert replay(config, 3, [good]).history == [tuple(good)]


# -- 2. bounded messages -----------------------------------------------------------------------
def test_illegal_move_message_is_bounded_but_keeps_everything() -> None:
    game = _midgame()
    before = game.state_hash()
    with pytest.raises(IllegalMove) as err:
        game.apply(game.to_move, HUGE)
    message = str(err.value)
    assert len(message) < BOUND
    assert "(10000000 chars)" in message
    assert err.value.move_id is HUGE
    assert err.value.legal == tuple(m.id for m in game.legal_moves)
    assert game.state_hash() == before


@pytest.mark.parametrize(
    "call",
    [
        lambda: parse_move_id(HUGE),
        lambda: parse_move_id("shot@" + "9" * 100_000),
        lambda: GameConfig(mode=HUGE),
        lambda: new_game(GameConfig(), 10**5000),
        lambda: new_game(GameConfig(), HUGE),
        lambda: _midgame().view(HUGE),  # type: ignore[arg-type]
        lambda: _midgame().view(0, since=HUGE),  # type: ignore[arg-type]
        lambda: _midgame().view(0, since=list(range(10**6))),  # type: ignore[arg-type]
        lambda: load_scenario(scenario("sheriff", "renegade", "outlaw", seat("outlaw", hand=[HUGE]))),
        lambda: load_scenario(scenario("sheriff", "renegade", "outlaw", seat("outlaw", character=HUGE))),
        lambda: load_scenario(scenario("sheriff", "renegade", "outlaw", seat(HUGE))),
        lambda: load_scenario(scenario("sheriff", "renegade", "outlaw", "outlaw", mode=HUGE)),
        lambda: load_scenario({**scenario("sheriff", "renegade", "outlaw", "outlaw"), HUGE: 1}),
        lambda: load_scenario(scenario("sheriff", "renegade", "outlaw", "outlaw", deck=[1] * 10**5)),
    ],
    ids=[
        "parse-huge", "parse-huge-target", "config-mode", "seed-5000-digits", "seed-huge-str",
        "view-seat", "view-since", "view-since-list", "scenario-card", "scenario-character",
        "scenario-role", "scenario-mode", "scenario-field", "scenario-100k-errors",
    ],
)  # fmt: skip
def test_every_error_that_echoes_input_is_bounded(call: Any) -> None:
    with pytest.raises(EngineError) as err:
        call()
    assert len(str(err.value)) < BOUND, str(err.value)[:1000]


# -- 3. the full truth is marked in the names -------------------------------------------------
def test_full_truth_apis_are_named_omniscient_and_the_old_names_are_gone() -> None:
    for old in ("record", "to_dict", "from_dict"):
        assert not hasattr(Game, old), old
    assert list(inspect.signature(Game.events).parameters) == ["self", "viewer", "since"]
    game = _midgame()
    with pytest.raises(TypeError):
        game.events(None, 0, True)  # type: ignore[call-arg]
    log = game.state.log
    assert game.omniscient_events() == [event_dict(e, None, full=True) for e in log]
    assert game.omniscient_events(7) == game.omniscient_events()[7:]
    assert game.omniscient_record()["events"] == game.omniscient_events()
    for s in range(5):
        assert game.events(s) == game.view(s).events  # a seat's events are its view's
    # The seat's form hides what the whole truth shows (its rivals' dealt cards).
    assert game.events(0) != game.omniscient_events()


# -- 5. saved states ---------------------------------------------------------------------------
def _saved(game: Game | None = None) -> dict[str, Any]:
    return json.loads(json.dumps((game or _midgame()).omniscient_state()))


def _edit_player(i: int, **fields: Any):
    def edit(d: dict[str, Any]) -> None:
        d["state"]["players"][i].update(fields)

    return edit


def _card_in_two_hands(d: dict[str, Any]) -> None:
    players = d["state"]["players"]
    players[1]["hand"].append(players[0]["hand"][0])


def _weapon_from_hand(d: dict[str, Any]) -> None:
    p, card = next(
        (p, c) for p in d["state"]["players"] for c in p["hand"] if KIND_BY_ID[DECK[c].kind].color != "weapon"
    )  # fmt: skip
    p["hand"].remove(card)
    if p["weapon"] >= 0:
        d["state"]["discard"].append(p["weapon"])
    p["weapon"] = card


def _set(path: str, value: Any):
    def edit(d: dict[str, Any]) -> None:
        *head, last = path.split(".")
        node: Any = d
        for k in head:
            node = node[int(k)] if k.isdigit() else node[k]
        node[int(last) if last.isdigit() else last] = value

    return edit


def _drop(key: str):
    def edit(d: dict[str, Any]) -> None:
        del d["state"][key]

    return edit


def _pending_for_the_dead(d: dict[str, Any]) -> None:
    s = d["state"]
    victim = s["pending"][1]
    p = s["players"][victim]
    s["discard"] += p["hand"] + p["in_play"] + ([p["weapon"]] if p["weapon"] >= 0 else [])
    p.update(alive=False, life=0, hand=[], in_play=[], weapon=-1)


IMPOSSIBLE = [
    pytest.param(_edit_player(1, life=99), "life 99", id="life-99-of-4"),
    pytest.param(_card_in_two_hands, "card conservation", id="one-card-in-two-hands"),
    pytest.param(_edit_player(2, role="sheriff"), "sheriffs", id="two-sheriffs"),
    pytest.param(_edit_player(2, alive=False), "eliminated seat 2", id="dead-with-life"),
    pytest.param(_edit_player(2, life=0), "alive at 0", id="alive-at-0"),
    pytest.param(_weapon_from_hand, "as its weapon", id="shot-as-a-weapon"),
    pytest.param(_set("state.seats", 6), "", id="seat-count-disagrees"),
    pytest.param(_set("config.seats", 6), "config", id="config-disagrees"),
    pytest.param(_set("config.seats", True), "config", id="config-bool"),
    pytest.param(_set("config", {"seats": 5}), "", id="config-partial-ok-but-mode-default"),
    pytest.param(_set("state.players.1.hand", ["shot_01"]), "hand", id="card-ids-not-indexes"),
    pytest.param(_set("state.players.1.life", True), "life", id="life-a-bool"),
    pytest.param(_set("state.players.1.stars", ["speed"]), "stars", id="unknown-upgrade"),
    pytest.param(_set("state.deck", [80]), "deck", id="card-out-of-range"),
    pytest.param(_set("state.seed", -1), "seed", id="negative-seed"),
    pytest.param(_set("state.pending", None), "over", id="neither-over-nor-pending"),
    pytest.param(_set("state.pending", ["vote", 0]), "pending", id="unknown-decision"),
    pytest.param(_set("state.pending", ["play", 9]), "pending", id="pending-seat-out-of-range"),
    pytest.param(_set("state.stack", [["teleport", 0]]), "stack", id="unknown-task"),
    pytest.param(_set("state.log.0.kind", "explosion"), "log[0]", id="unknown-event"),
    pytest.param(_set("state.log.1.private_to", 3), "private_to", id="private-to-not-a-list"),
    pytest.param(_set("state.log.1.seat", "one"), "log[1]", id="event-field-type"),
    pytest.param(_drop("rng"), "rng", id="missing-key"),
    pytest.param(_set("state.dealer", 2), "dealer", id="unknown-key"),
    pytest.param(_pending_for_the_dead, "eliminated seat", id="decision-for-a-dead-seat"),
]


@pytest.mark.parametrize(("edit", "words"), IMPOSSIBLE)
def test_impossible_states_are_refused(edit: Any, words: str) -> None:
    d = _saved()
    edit(d)
    if d["config"] == {"seats": 5}:  # the one edit that stays valid: config defaults apply
        assert Game.from_omniscient_state(d).config == GameConfig(seats=5)
        return
    with pytest.raises(StateError) as err:
        Game.from_omniscient_state(d)
    assert words in str(err.value), str(err.value)
    assert err.value.violations
    assert len(str(err.value)) < 2000


@pytest.mark.parametrize(
    "doc",
    [None, [], "state", {"config": {}}, {"config": [], "state": {}}, {"config": {}, "state": 1}],
)
def test_documents_that_are_no_state_at_all(doc: Any) -> None:
    with pytest.raises(StateError):
        Game.from_omniscient_state(doc)


def test_a_tampered_pending_context_is_refused_before_it_runs() -> None:
    # Find an answer_shot decision and corrupt its shooter.
    for seed in range(50):
        game = new_game(GameConfig(seats=5), seed)
        rnd = random.Random(seed)
        while not game.over and game.decision.kind != "answer_shot":
            game.apply_fast(game.legal_moves[rnd.randrange(len(game.legal_moves))])
        if not game.over:
            break
    d = _saved(game)
    assert d["state"]["pending"][0] == "answer_shot"
    d["state"]["pending"][2] = 17  # no such shooter
    with pytest.raises(StateError):
        Game.from_omniscient_state(d)


def test_a_tampered_task_is_found_by_applying_every_legal_move() -> None:
    d = _saved()
    d["state"]["stack"][0] = ["end_turn", 42]  # the turn's end, for a seat that does not exist
    with pytest.raises(StateError) as err:
        Game.from_omniscient_state(d)
    assert "failed" in str(err.value)


@pytest.mark.parametrize("seed", range(6))
def test_real_states_round_trip(seed: int) -> None:
    config = GameConfig(
        seats=4 + seed % 5, mode=("classic", "double_agent", "old_classic")[seed % 3]
    )
    game = new_game(config, seed)
    rnd = random.Random(seed)
    while not game.over:
        back = Game.from_omniscient_state(_saved(game))
        assert back.state_hash() == game.state_hash()
        for _ in range(rnd.randrange(1, 40)):
            if game.over:
                break
            game.apply_fast(game.legal_moves[rnd.randrange(len(game.legal_moves))])
    assert Game.from_omniscient_state(_saved(game)).state_hash() == game.state_hash()


def test_scenario_positions_round_trip() -> None:
    game = load_scenario(
        scenario(seat("sheriff", hand=["shot", "wagon"], stars=["marksman"]), "renegade", "outlaw",
                 seat("outlaw", in_play=["jail"], weapon="carbine"))
    )  # fmt: skip
    assert Game.from_omniscient_state(_saved(game)).state_hash() == game.state_hash()


# -- 6. seeds ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "bad", [None, "7", 1.5, True, False, -1, 2**64, 2**64 + 7, 10**5000, [7]], ids=_id
)
def test_seeds_outside_the_range_are_refused(bad: Any) -> None:
    with pytest.raises(SeedError) as err:
        new_game(GameConfig(), bad)
    assert isinstance(err.value, ConfigError)
    assert len(str(err.value)) < BOUND
    with pytest.raises(SeedError):
        replay(GameConfig(), bad, [])


def test_the_seed_range_is_zero_to_two_to_the_64_exclusive() -> None:
    top = new_game(GameConfig(), 2**64 - 1)
    assert top.state.seed == 2**64 - 1
    # Seeds that used to alias: 2**64 + 7 dealt seed 7's game under its own number.
    assert new_game(GameConfig(), 7).state_hash() != top.state_hash()
    with pytest.raises(SeedError):
        new_game(GameConfig(), 2**64 + 7)


def test_new_game_wants_a_game_config() -> None:
    with pytest.raises(ConfigError):
        new_game({"seats": 5}, 1)  # type: ignore[arg-type]


# -- 7. move-id parsing ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "bad",
    ["shot@99999999999999999999", "shot@" + "9" * 5000, "shot@²", "shot@٣", "shot@01", "shot@8",
     "shot@-1", "shot@ 1", "grip@", "grip@9", "ricochet_as_shot@12", "end_turn\n", "\x00"],
)  # fmt: skip
def test_parse_move_id_raises_only_move_syntax_errors(bad: str) -> None:
    with pytest.raises(MoveSyntaxError):
        parse_move_id(bad)


def _well_formed_ids() -> list[str]:
    seats = [str(s) for s in range(8)]
    ids = ["end_turn", "take_hit", "heal", "draw_deck", "draw_discard", "pick:hand"]
    ids += ["ricochet", "shot_as_ricochet", "shot", "ricochet_as_shot", "canteen"]
    ids += [k for k in KIND_IDS] + [f"{k}@{s}" for k in KIND_IDS for s in seats]
    ids += [f"grip@{s}" for s in seats] + [f"ricochet_as_shot@{s}" for s in seats]
    ids += [f"discard:{k}" for k in KIND_IDS] + [f"pick:{k}" for k in KIND_IDS]
    ids += [f"return:{c.id}" for c in DECK] + [f"upgrade:{u}" for u in UPGRADES]
    ids += [f"bounty:{u}" for u in (*UPGRADES, "none")]
    return ids


def test_every_well_formed_id_parses_to_itself() -> None:
    for text in _well_formed_ids():
        move = parse_move_id(text)
        assert move.id == text and move.kind in MOVE_KINDS


def test_the_move_cache_stays_bounded_under_junk() -> None:
    """300k distinct ids used to keep 600k Moves (91 MB); junk is no longer interned, so the
    cache never outgrows the finite set of well-formed ids."""
    for text in _well_formed_ids():
        parse_move_id(text)
    full = len(moves_module._CACHE)
    rnd = random.Random(0)
    for i in range(50_000):
        text = rnd.choice(["shot@", "grip@", "discard:", "return:", "bang@", "pick:"]) + str(i)
        with contextlib.suppress(MoveSyntaxError):
            parse_move_id(text)
    assert len(moves_module._CACHE) == full
    # Finite and small: the base ids above plus whatever well-formed ids other tests in this
    # process interned (an expansion game alone interns about 750; the expansion's whole
    # action enumeration is 713 ids, the base one's 201), never the junk.
    assert full < 2000


def test_typed_errors_share_one_base() -> None:
    for cls in (InvalidSeat, InvalidCursor, SeedError, StateError, ScenarioError, MoveSyntaxError):
        assert issubclass(cls, EngineError)
