"""Property tests of the engine (hypothesis): random positions built through the scenario
loader and random games from drawn seeds and configs keep the conformance invariants after any
legal move and round-trip through their JSON state; hostile seats, seeds and ids always raise
the typed errors and never change the state hash; move-id parsing is total.

Runs derandomized (the same examples every run, no example database on disk: xdist-safe and
reproducible); the whole file takes a few seconds. ``ENGINE_PROPERTY_EXAMPLES=N`` runs N fresh
random examples per test instead.
"""

from __future__ import annotations

import json
import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bangarena.engine import (
    EngineError,
    Game,
    GameConfig,
    IllegalMove,
    InvalidCursor,
    InvalidSeat,
    MoveSyntaxError,
    ScenarioError,
    SeedError,
    new_game,
)
from bangarena.engine.cards import BLUE, DECK, KIND_BY_ID, WEAPON
from bangarena.engine.characters import CHARACTER_IDS
from bangarena.engine.conformance import step_violations
from bangarena.engine.moves import parse_move_id
from bangarena.engine.roles import (
    DEPUTY,
    DOUBLE_AGENT,
    MODES,
    OLD_CLASSIC,
    OUTLAW,
    RENEGADE,
    SHERIFF,
    UPGRADES,
)
from bangarena.engine.scenario import MAX_SHOTS, load_scenario

# ENGINE_PROPERTY_EXAMPLES=5000 explores further, with fresh random examples each run.
_EXAMPLES = int(os.environ.get("ENGINE_PROPERTY_EXAMPLES", "0"))
FAST = settings(
    max_examples=_EXAMPLES or 60,
    deadline=None,
    database=None,
    derandomize=not _EXAMPLES,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
ENEMIES = (OUTLAW, RENEGADE, DOUBLE_AGENT)


def _color(card: int) -> str:
    return KIND_BY_ID[DECK[card].kind].color


@st.composite
def positions(draw: st.DrawFn) -> dict[str, Any]:
    """A scenario dict within the format's constraints (docs/scenarios.md): one living sheriff,
    a living enemy, every card placed at most once and in its place, a living seat to move."""
    n = draw(st.integers(4, 8))
    mode = draw(st.sampled_from(MODES))
    others = draw(
        st.lists(st.sampled_from([DEPUTY, OUTLAW, RENEGADE]), min_size=n - 1, max_size=n - 1)
    )
    if mode == "double_agent" and n >= 5 and draw(st.booleans()):
        others[draw(st.integers(0, n - 2))] = DOUBLE_AGENT
    if not any(r in ENEMIES for r in others):
        others[0] = OUTLAW
    sheriff = draw(st.integers(0, n - 1))
    roles = others[:sheriff] + [SHERIFF] + others[sheriff:]
    alive = [r == SHERIFF or draw(st.booleans()) for r in roles]
    if not any(a and r in ENEMIES for a, r in zip(alive, roles, strict=True)):
        alive[next(i for i, r in enumerate(roles) if r in ENEMIES)] = True
    chars = draw(st.permutations(CHARACTER_IDS))[:n]
    pool = list(draw(st.permutations(range(len(DECK)))))

    def take(pred: Any) -> int | None:
        for i, c in enumerate(pool):
            if pred(c):
                return pool.pop(i)
        return None

    seats = []
    for i, role in enumerate(roles):
        spec: dict[str, Any] = {"role": role, "character": chars[i], "alive": alive[i]}
        max_life = draw(st.integers(1, 6))
        spec["max_life"] = max_life
        if not alive[i]:
            spec["life"] = 0
            seats.append(spec)
            continue
        spec["life"] = draw(st.integers(1, max_life))
        spec["hand"] = [DECK[pool.pop()].id for _ in range(draw(st.integers(0, 6)))]
        kinds: set[str] = set()
        in_play = []
        for _ in range(draw(st.integers(0, 2))):
            c = take(
                lambda c, kinds=kinds, role=role: (
                    _color(c) == BLUE
                    and DECK[c].kind not in kinds
                    and not (role == SHERIFF and DECK[c].kind == "jail")
                )
            )
            if c is not None:
                kinds.add(DECK[c].kind)
                in_play.append(DECK[c].id)
        spec["in_play"] = in_play
        if draw(st.booleans()):
            c = take(lambda c: _color(c) == WEAPON)
            spec["weapon"] = None if c is None else DECK[c].id
        if mode != OLD_CLASSIC:
            spec["stars"] = draw(st.lists(st.sampled_from([None, *UPGRADES]), max_size=2))
        seats.append(spec)
    deck = [DECK[pool.pop()].id for _ in range(draw(st.integers(0, 5)))]
    discard = [DECK[pool.pop()].id for _ in range(draw(st.integers(0, 5)))]
    living = [i for i in range(n) if alive[i]]
    step = draw(st.sampled_from(["turn_start", "draw", "play"]))
    max_rounds = draw(st.integers(1, 40))
    return {
        "mode": mode,
        "seed": draw(st.integers(0, 2**64 - 1)),
        "max_rounds": max_rounds,
        "seats": seats,
        "deck": deck,
        "discard": discard,
        "coins": draw(st.lists(st.booleans(), max_size=4)),
        "turn": draw(st.sampled_from(living)),
        "step": step,
        "round": draw(st.integers(1, max_rounds)),
        "shots": draw(st.integers(0, MAX_SHOTS)) if step == "play" else 0,
    }


def _roundtrips(game: Game) -> None:
    back = Game.from_omniscient_state(json.loads(json.dumps(game.omniscient_state())))
    assert back.state_hash() == game.state_hash()
    assert [m.id for m in back.legal_moves] == [m.id for m in game.legal_moves]


def _play_checked(game: Game, choices: list[int]) -> None:
    """Apply the drawn legal moves, checking every invariant after each."""
    assert step_violations(game) == []
    for k in choices:
        if game.over:
            break
        moves = game.legal_moves
        game.apply(game.to_move, moves[k % len(moves)].id)
        assert step_violations(game) == [], game.history[-1]
    _roundtrips(game)


@FAST
@given(positions(), st.lists(st.integers(0, 1000), max_size=25))
def test_random_positions_keep_every_invariant(sc: dict[str, Any], choices: list[int]) -> None:
    game = load_scenario(sc)
    _roundtrips(game)
    _play_checked(game, choices)


@FAST
@given(
    st.integers(4, 8),
    st.sampled_from(MODES),
    st.integers(0, 2**64 - 1),
    st.integers(1, 40),
    st.lists(st.integers(0, 1000), min_size=1, max_size=60),
)
def test_random_games_keep_every_invariant(
    seats: int, mode: str, seed: int, max_rounds: int, choices: list[int]
) -> None:
    game = new_game(GameConfig(seats=seats, mode=mode, max_rounds=max_rounds), seed)
    _play_checked(game, choices)


def _not_a_seat(seats: int, spectator: bool) -> st.SearchStrategy[Any]:
    out = st.one_of(
        st.integers(max_value=-1),
        st.integers(min_value=seats),
        st.booleans(),
        st.floats(allow_nan=True),
        st.text(max_size=5),
        st.binary(max_size=3),
        st.lists(st.integers(0, 3), max_size=2),
    )
    return out if spectator else st.one_of(out, st.none())


HOSTILE = st.data()


@FAST
@given(st.integers(0, 2**64 - 1), HOSTILE)
def test_hostile_input_raises_typed_errors_and_changes_nothing(seed: int, data: Any) -> None:
    game = new_game(GameConfig(seats=5), seed)
    for _ in range(data.draw(st.integers(0, 30))):
        if game.over:
            return
        game.apply_fast(game.legal_moves[0 if seed % 2 else -1])
    if game.over:
        return
    before = game.state_hash()
    legal = {m.id for m in game.legal_moves}
    seat = data.draw(_not_a_seat(5, spectator=True))
    try:
        game.view(seat)
        raise AssertionError(f"view({seat!r}) was accepted")
    except InvalidSeat:
        pass
    bad_seat = data.draw(_not_a_seat(5, spectator=False))
    try:
        game.apply(bad_seat, next(iter(legal)))
        raise AssertionError(f"apply({bad_seat!r}, …) was accepted")
    except InvalidSeat:
        pass
    since = data.draw(st.one_of(st.integers(max_value=-1), st.booleans(), st.floats(), st.text()))
    try:
        game.view(0, since=since)
        raise AssertionError(f"since={since!r} was accepted")
    except InvalidCursor:
        pass
    move_id = data.draw(
        st.one_of(st.text(max_size=30), st.integers(), st.none(), st.binary(max_size=5))
    )
    if move_id not in legal:
        try:
            game.apply(game.to_move, move_id)
            raise AssertionError(f"apply(…, {move_id!r}) was accepted")
        except (IllegalMove, MoveSyntaxError) as e:
            assert isinstance(e, IllegalMove) == isinstance(move_id, str)
    assert game.state_hash() == before


@FAST
@given(
    st.one_of(
        st.integers(max_value=-1),
        st.integers(min_value=2**64),
        st.booleans(),
        st.floats(),
        st.text(max_size=20),
        st.none(),
        st.lists(st.integers(0, 9), max_size=2),
    )
)
def test_hostile_seeds_raise_seed_errors(seed: Any) -> None:
    try:
        new_game(GameConfig(), seed)
        raise AssertionError(f"seed {seed!r} was accepted")
    except SeedError:
        pass
    sc = {"seed": seed, "seats": [{"role": r} for r in (SHERIFF, RENEGADE, OUTLAW, OUTLAW)]}
    try:
        load_scenario(sc)
        raise AssertionError(f"scenario seed {seed!r} was accepted")
    except ScenarioError as e:
        assert e.location == "seed"


ID_PIECES = st.sampled_from(
    ["shot", "@", ":", "grip", "discard", "return", "pick", "upgrade", "bounty", "none", "hand",
     "ricochet_as_shot", "_as_", "0", "7", "8", "01", "٣", "shot_07", "marksman", " ", "\n"]
)  # fmt: skip


@FAST
@given(st.one_of(st.text(max_size=40), st.lists(ID_PIECES, max_size=5).map("".join)))
def test_parse_move_id_is_total(text: str) -> None:
    try:
        move = parse_move_id(text)
    except MoveSyntaxError as e:
        assert len(str(e)) < 400
        return
    except EngineError as e:  # any other engine error is a bug here
        raise AssertionError(f"{text!r}: {type(e).__name__}") from e
    assert move.id == text
