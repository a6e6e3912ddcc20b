"""The PettingZoo AEC environment: PettingZoo's own api_test and seed_test over several tables,
the action mask against the engine's legal moves at every step of 200 games, the encoding's
spec against rules.json, rewards and truncation by the round cap."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from bangarena.engine.moves import parse_move_id
from bangarena.engine.roles import MAX_SEATS
from bangarena.harness.rl import (
    IllegalAction,
    action_ids,
    action_table,
    encoding_spec,
    env,
    observation_size,
)
from bangarena.harness.rl.encoding import Encoder, vocab
from bangarena.rules_machine.document import rules_document
from bangarena.rules_machine.ids import DECISION_MOVES, pattern_regex

TABLES = [(4, "classic"), (5, "classic"), (6, "double_agent"), (7, "partners"), (8, "old_classic")]


@pytest.mark.parametrize(("seats", "mode"), TABLES)
def test_pettingzoo_api_test(seats: int, mode: str) -> None:
    with warnings.catch_warnings():
        # api_test warns that dict observations are not arrays (it only whitelists its own
        # classic games by name): the {"observation", "action_mask"} dict is PettingZoo's own
        # convention for masked games.
        warnings.simplefilter("ignore")
        api_test(env(seats, mode, seed=seats), num_cycles=1000)


@pytest.mark.parametrize(("seats", "mode"), TABLES)
def test_pettingzoo_seed_test(seats: int, mode: str) -> None:
    seed_test(lambda: env(seats, mode), num_cycles=300)


def test_the_mask_is_the_engines_legal_moves_at_every_step_of_200_games() -> None:
    ids = action_ids()
    steps = 0
    for k in range(200):
        seats, mode = TABLES[k % len(TABLES)]
        e = env(seats, mode, seed=k)
        e.reset()
        space = e.observation_space(e.agents[0])
        chooser = random.Random(k)
        for agent in e.agent_iter():
            obs, _, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            game = e.unwrapped.game
            assert f"seat_{game.to_move}" == agent
            legal = {m.id for m in game.legal_moves}
            mask = obs["action_mask"]
            assert {ids[i] for i in np.flatnonzero(mask)} == legal
            assert set(info["legal_ids"]) == legal
            assert [ids[i] for i in info["legal_actions"]] == list(info["legal_ids"])
            if steps % 7 == 0:  # the bounds of the space (checked on a sample: it is slow)
                assert space.contains(obs)
            action = info["legal_actions"][chooser.randrange(len(info["legal_actions"]))]
            e.step(action)
            steps += 1
    assert steps > 15_000


def test_action_ids_are_generated_from_the_move_patterns_and_parse_back() -> None:
    ids = action_ids()
    assert len(ids) == len(set(ids))
    patterns = [p for entries in DECISION_MOVES.values() for _, p in entries]
    import re

    regexes = [re.compile(pattern_regex(p)) for p in patterns]
    for mid in ids:
        assert parse_move_id(mid).id == mid
        assert any(r.match(mid) for r in regexes), mid
    # Every seat of the largest table and every card of the deck can be named.
    assert f"shot@{MAX_SEATS - 1}" in ids
    assert all(f"return:{c['id']}" in ids for c in rules_document()["deck"]["cards"])
    table = action_table()
    assert [row["id"] for row in table] == list(ids)
    assert all(row["decisions"] for row in table)


def test_encoding_spec_matches_rules_json() -> None:
    doc = rules_document()
    spec = {f.name: f for f in encoding_spec()}
    kinds = tuple(c["id"] for c in doc["cards"])
    assert spec["hand"].labels == kinds
    assert spec["discard_top"].labels == kinds
    assert spec["hand"].high == max(c["copies"] for c in doc["cards"])
    assert spec["role"].labels == tuple(r["id"] for r in doc["roles"])
    assert spec["mode"].labels == tuple(m["id"] for m in doc["modes"])
    assert spec["decision_kind"].labels == tuple(k["id"] for k in doc["decision_kinds"])
    seats = range(doc["seats"]["min"], doc["seats"]["max"] + 1)
    assert spec["seats"].labels == tuple(map(str, seats))
    p0 = "player_0."
    assert spec[p0 + "character"].labels == tuple(c["id"] for c in doc["characters"])
    assert spec[p0 + "in_play"].labels == tuple(
        c["id"] for c in doc["cards"] if c["color"] == "blue"
    )
    assert spec[p0 + "weapon"].labels == tuple(
        c["id"] for c in doc["cards"] if c["color"] == "weapon"
    )
    upgrades = tuple(u["id"] for u in doc["glory"]["upgrades"])
    assert spec[p0 + "stars"].labels == (*upgrades, "none")
    assert f"player_{doc['seats']['max'] - 1}.alive" in spec
    # The fields tile the vector exactly.
    at = 0
    for f in encoding_spec():
        assert f.offset == at and f.size >= 1 and (not f.labels or len(f.labels) == f.size)
        at += f.size
    assert at == observation_size()
    assert vocab().kinds == kinds


def test_observations_come_from_the_view_only() -> None:
    """The encoding of a seat is a function of its view: two games that differ only in what
    the seat cannot see give it the same vector."""
    from bangarena.engine import GameConfig, new_game
    from bangarena.engine.conformance import resample

    for seed in range(20):
        game = new_game(GameConfig(6, "double_agent"), seed)
        chooser = random.Random(seed)
        for _ in range(chooser.randrange(1, 60)):
            if game.over:
                break
            moves = game.legal_moves
            game.apply_fast(moves[chooser.randrange(len(moves))])
        for seat in range(6):
            alt = resample(game, seat, random.Random(seed))
            a = Encoder().encode(game.view(seat))
            b = Encoder().encode(alt.view(seat))
            assert np.array_equal(a, b)


def test_rewards_by_faction_and_the_round_cap_is_a_truncation() -> None:
    outcomes = set()
    for seed in range(40):
        e = env(5, "classic", seed=seed, max_rounds=2 if seed % 2 else 40)
        e.reset()
        finals: dict[str, tuple[float, bool, bool]] = {}
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                finals[agent] = (reward, term, trunc)
                e.step(None)
                continue
            legal = info["legal_actions"]
            e.step(legal[random.Random(seed).randrange(len(legal))])
        g = e.unwrapped.game.state
        assert set(finals) == set(e.possible_agents)
        if g.winning_team == "draw":
            assert all(r == 0 and not t and tr for r, t, tr in finals.values())
            outcomes.add("draw")
        else:
            for s, agent in enumerate(e.possible_agents):
                reward, term, trunc = finals[agent]
                assert term and not trunc
                assert reward == (1 if s in g.winners else -1)
            outcomes.add(g.winning_team)
    assert "draw" in outcomes and len(outcomes) >= 3


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    e = env(5, seed=3)
    e.reset()
    _, _, _, _, info = e.last()
    illegal = next(i for i in range(len(action_ids())) if i not in info["legal_actions"])
    before = e.unwrapped.game.state_hash()
    with pytest.raises(IllegalAction):
        e.step(illegal)
    with pytest.raises(IllegalAction):
        e.step(None)
    assert e.unwrapped.game.state_hash() == before


def test_reset_seed_fixes_the_deals_and_render_is_text() -> None:
    a, b = env(7, seed=1), env(7)
    a.reset()
    b.reset(seed=1)
    assert a.unwrapped.game_seed == b.unwrapped.game_seed
    a.reset()
    b.reset()
    assert a.unwrapped.game_seed == b.unwrapped.game_seed
    text = env(5, render_mode="ansi")
    text.reset(seed=2)
    out = text.render()
    assert isinstance(out, str) and "seat 4" in out and "round 1" in out


@pytest.mark.parametrize("expansions", [(), ("armed_dangerous",)])
def test_docs_research_holds_the_generated_tables(expansions: tuple[str, ...]) -> None:
    from pathlib import Path

    from bangarena.harness.rl.spec_doc import actions_markdown, encoding_markdown

    doc = (Path(__file__).resolve().parent.parent / "docs" / "research.md").read_text("utf-8")
    what = f"docs/research.md ({expansions or 'base'}): regenerate"
    assert encoding_markdown(expansions) in doc, f"{what} the encoding table"
    assert actions_markdown(expansions) in doc, f"{what} the action table"


def test_the_base_enumeration_and_encoding_are_frozen() -> None:
    """Trained policies read these indexes: an expansion (or anything else) may append to its
    own enumeration and encoding, never move the base ones."""
    import hashlib

    ids = action_ids()
    assert len(ids) == 201
    digest = hashlib.sha256("\n".join(ids).encode()).hexdigest()
    assert digest == "1a0e042f5bf174249cc5783325d1e13bd0b464a013fd2941714b680f9fc0074d"
    assert observation_size() == 473
    layout = repr([(f.name, f.offset, f.size, f.high, f.labels) for f in encoding_spec()])
    digest = hashlib.sha256(layout.encode()).hexdigest()
    assert digest == "4fa8ecd1bf1875d501d9e4249ed993a33b008e2341b07c87e07768cd08f085c7"


def test_the_random_policy_example_runs(tmp_path) -> None:
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "examples" / "rl_random_policy.py"
    out = subprocess.run(
        [sys.executable, str(script), "--games", "3", "--seats", "4"],
        capture_output=True, text=True, check=True, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert "3 games, 4 seats, classic" in out.stdout


def _reference(view) -> np.ndarray:
    """The encoding written the slow way, from the spec's names and labels alone."""
    from bangarena.engine import card_kind

    spec = {f.name: f for f in encoding_spec()}
    x = np.zeros(observation_size(), dtype=np.float32)

    def one(name: str, label: str, value: float = 1.0, add: bool = False) -> None:
        f = spec[name]
        i = f.offset + f.labels.index(label)
        x[i] = x[i] + value if add else value

    def put(name: str, value: float) -> None:
        x[spec[name].offset] = value

    one("seat", f"seat_{view.seat}")
    one("seats", str(view.seats))
    one("mode", view.mode)
    if view.role:
        one("role", view.role)
    for c in view.hand:
        one("hand", card_kind(c), add=True)
    one("turn", f"seat_{view.turn}")
    put("round", view.round)
    put("high_noon", view.high_noon)
    put("deck_size", view.deck_size)
    put("discard_size", view.discard_size)
    if view.discard_top:
        one("discard_top", card_kind(view.discard_top))
    d = view.decision
    if d is not None:
        one("decision_kind", d.kind)
        one("decision_seat", f"seat_{d.seat}")
        if d.source is not None:
            one("decision_source", f"seat_{d.source}")
        if d.needed is not None:
            put("decision_needed", d.needed)
        if d.card is not None:
            one("decision_card", d.card)
    for s in view.named_deputies:
        one("named_deputies", f"seat_{s}")
    for pv in view.players:
        p = f"player_{pv.seat}."
        put(p + "present", 1)
        put(p + "alive", pv.alive)
        put(p + "life", pv.life)
        put(p + "max_life", pv.max_life)
        put(p + "hand_size", pv.hand_size)
        put(p + "distance", pv.distance or 0)
        one(p + "character", pv.character)
        for c in pv.in_play:
            if card_kind(c) in spec[p + "in_play"].labels:
                one(p + "in_play", card_kind(c), add=True)
        if pv.weapon:
            one(p + "weapon", card_kind(pv.weapon))
        for star in pv.stars:
            one(p + "stars", star or "none", add=True)
        if pv.role:
            one(p + "known_role", pv.role)
        put(p + "revealed", pv.revealed)
    return x


def test_the_fast_encoder_equals_the_spec_written_the_slow_way() -> None:
    from bangarena.engine import GameConfig, new_game

    checked = 0
    for k in range(40):
        seats, mode = TABLES[k % len(TABLES)]
        game = new_game(GameConfig(seats, mode), k)
        chooser = random.Random(k)
        encoders = [Encoder() for _ in range(seats)]
        cursors = [0] * seats
        while not game.over:
            s = game.to_move
            view = game.view(s, since=cursors[s])
            cursors[s] = view.cursor
            assert np.array_equal(encoders[s].encode(view), _reference(view)), (k, checked)
            checked += 1
            moves = game.legal_moves
            game.apply_fast(moves[chooser.randrange(len(moves))])
    assert checked > 3000


@pytest.mark.parametrize("seats", [4, 7])
def test_observations_equal_the_slow_encoding_across_resets(seats: int) -> None:
    """The environment reuses its encoders from one game to the next: every observation of
    several games in one environment, the finished agents' last ones included, equals the
    spec written the slow way from the view the agent holds."""
    e = env(seats, "classic", seed=seats)
    chooser = random.Random(seats)
    checked = 0
    for _ in range(4):
        e.reset()
        for _agent in e.agent_iter():
            obs, _, term, trunc, info = e.last()
            assert np.array_equal(obs["observation"], _reference(info["view"])), checked
            checked += 1
            if term or trunc:
                e.step(None)
                continue
            legal = info["legal_actions"]
            e.step(legal[chooser.randrange(len(legal))])
    assert checked > 200
