"""The research interfaces with the Armed & Dangerous expansion: PettingZoo's api_test and
seed_test on an expansion environment, the mask against the engine's legal moves at every step
of 40 expansion games (every move id they offer is in the enumeration), the expansion's
enumeration (the base one, then its own ids) and encoding (the base layout, then its block)
against its rules.json, and OpenSpiel's random-simulation test on an expansion game."""

from __future__ import annotations

import random
import re
import warnings
from collections import Counter

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from bangarena.engine import GameConfig, new_game
from bangarena.engine.errors import ConfigError
from bangarena.engine.moves import parse_move_id
from bangarena.harness.rl import action_ids, action_table, encoding_spec, env, observation_size
from bangarena.harness.rl import actions as actions_module
from bangarena.harness.rl.encoding import DECISION_CARD_WORDS, Encoder, context_words, vocab
from bangarena.rules_machine.document import rules_document
from bangarena.rules_machine.ids import decision_moves, pattern_regex

AD = ("armed_dangerous",)
TABLES = [(4, "classic"), (5, "classic"), (6, "double_agent"), (7, "partners"), (8, "old_classic")]


@pytest.mark.parametrize(("seats", "mode"), [(5, "classic"), (8, "double_agent")])
def test_pettingzoo_api_test_on_an_expansion_env(seats: int, mode: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations: see tests/test_rl_env.py
        api_test(env(seats, mode, seed=seats, expansions=AD), num_cycles=1000)


@pytest.mark.parametrize(("seats", "mode"), [(4, "partners"), (7, "old_classic")])
def test_pettingzoo_seed_test_on_an_expansion_env(seats: int, mode: str) -> None:
    seed_test(lambda: env(seats, mode, expansions=AD), num_cycles=300)


def test_the_mask_is_the_engines_legal_moves_in_40_expansion_games() -> None:
    ids = action_ids(AD)
    index = set(ids)
    spec = {f.name: f for f in encoding_spec(expansions=AD)}
    card_labels = {*spec["decision_card"].labels, *spec["ad_decision_card"].labels}
    offered: Counter[str] = Counter()
    kinds: set[str] = set()
    steps = 0
    for k in range(40):
        seats, mode = TABLES[k % len(TABLES)]
        e = env(seats, mode, seed=1000 + k, expansions=AD)
        e.reset()
        space = e.observation_space(e.agents[0])
        assert e.action_space(e.agents[0]).n == len(ids)
        chooser = random.Random(k)
        for agent in e.agent_iter():
            obs, _, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            game = e.unwrapped.game
            assert f"seat_{game.to_move}" == agent
            legal = [m.id for m in game.legal_moves]
            offered.update(legal)
            mask = obs["action_mask"]
            assert mask.shape == (len(ids),)
            assert {ids[i] for i in np.flatnonzero(mask)} == set(legal)
            assert list(info["legal_ids"]) == legal
            assert [ids[i] for i in info["legal_actions"]] == legal
            d = info["view"].decision
            kinds.add(d.kind)
            assert d.card is None or d.card in card_labels, d.card  # nothing left unencoded
            if steps % 11 == 0:  # the bounds of the space, on a sample (contains is slow)
                assert space.contains(obs)
            e.step(info["legal_actions"][chooser.randrange(len(info["legal_actions"]))])
            steps += 1
    assert set(offered) <= index
    # The games reached the expansion: its decision kinds and moves of every new move kind.
    assert {"optional_effect", "pay_token", "load_token", "pass_bomb"} <= kinds
    heads = {re.split(r"[:@]", mid)[0] for mid in offered}
    assert {"use", "pay", "load", "pass", "give"} <= heads
    assert steps > 5000


def test_base_and_expansion_envs_in_one_process_keep_their_own_masks() -> None:
    """The legal-set cache is per enumeration: a legal set first met in a base game gets the
    expansion's mask in an expansion game (and the base mask again in a base game)."""

    def play(expansions: tuple[str, ...], games: int) -> list[tuple[tuple[str, ...], int]]:
        """(legal ids, mask length) at every step."""
        e = env(5, seed=11, expansions=expansions)
        chooser = random.Random(11)
        out = []
        for _ in range(games):
            e.reset()
            for agent in e.agent_iter():
                obs, _, term, trunc, info = e.last()
                if term or trunc:
                    e.step(None)
                    continue
                assert e.observe(agent)["observation"].shape == (
                    observation_size(expansions=expansions),
                )
                out.append((info["legal_ids"], obs["action_mask"].shape[0]))
                e.step(info["legal_actions"][chooser.randrange(len(info["legal_actions"]))])
        return out

    base = play((), 3)
    seen = {ids for ids, _ in base}
    ad = play(AD, 3)
    assert {n for _, n in base} == {201} and {n for _, n in ad} == {len(action_ids(AD))}
    assert sum(ids in seen for ids, _ in ad) >= 20  # the same legal sets, met in both games
    assert {n for _, n in play((), 1)} == {201}


def test_the_expansion_enumeration_extends_the_base_one() -> None:
    base, ad = action_ids(), action_ids(AD)
    assert ad[: len(base)] == base  # a base index means the same move
    assert len(ad) == len(set(ad)) > len(base)
    assert action_ids(list(AD)) is ad  # a list names the same enumeration
    regexes = [
        re.compile(pattern_regex(p, AD))
        for entries in decision_moves(AD).values()
        for _, p in entries
    ]
    for mid in ad:
        assert parse_move_id(mid).id == mid
        assert any(r.match(mid) for r in regexes), mid
    doc = rules_document(AD)
    assert all(f"return:{c['id']}" in ad for c in doc["deck"]["cards"])
    for c in doc["characters"]:
        assert (f"use:{c['id']}" in ad) == bool(c.get("expansion"))
    assert {"pass", "give@7", "take:character@7", "pay:bomb", "load:whip", "duck"} <= set(ad)
    table = action_table(AD)
    assert [row["id"] for row in table] == list(ad)
    assert all(row["decisions"] for row in table)
    assert "discard_card" in table[base.index("discard:shot")]["decisions"]
    with pytest.raises(ConfigError):
        action_ids(("no_such_expansion",))


def test_an_unknown_placeholder_fails_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    patterns = {**decision_moves(AD), "pass_bomb": (("give", "give@<seat>:<mystery>"),)}
    monkeypatch.setattr(actions_module, "decision_moves", lambda expansions: patterns)
    with pytest.raises(actions_module.ActionSpecError, match="mystery"):
        actions_module._offers(AD)


def test_the_expansion_encoding_spec_matches_its_rules_json() -> None:
    doc = rules_document(AD)
    base, spec = encoding_spec(), encoding_spec(expansions=AD)
    # The base layout first: the same fields at the same offsets with the same labels.
    assert [(f.name, f.offset, f.size, f.labels) for f in spec[: len(base)]] == [
        (f.name, f.offset, f.size, f.labels) for f in base
    ]
    by = {f.name: f for f in spec}
    new = [c for c in doc["cards"] if c.get("expansion") == "armed_dangerous"]
    kinds = tuple(c["id"] for c in new)
    chars = tuple(c["id"] for c in doc["characters"] if c.get("expansion"))
    assert by["hand"].high == max(c["copies"] for c in doc["cards"] if not c.get("expansion"))
    assert by["deck_size"].high == by["player_0.hand_size"].high == doc["deck"]["size"] == 108
    tokens = doc["armed_dangerous"]["tokens"]
    assert by["supply"].high == tokens["supply"]
    assert by["ad_hand"].labels == by["ad_discard_top"].labels == kinds
    assert by["ad_decision_kind"].labels == tuple(
        k["id"] for k in doc["decision_kinds"] if k.get("expansion")
    )
    assert by["ad_decision_card"].labels == (*kinds, *chars, *DECISION_CARD_WORDS)
    assert set(DECISION_CARD_WORDS) == context_words(AD)  # the words rules.json names
    for s in range(8):
        p = f"player_{s}."
        assert by[p + "ad_character"].labels == chars
        assert by[p + "ad_in_play"].labels == tuple(c["id"] for c in new if c["color"] == "blue")
        assert by[p + "ad_weapon"].labels == tuple(c["id"] for c in new if c["color"] == "weapon")
        assert by[p + "loads"].labels == tuple(c["id"] for c in new if c["dangerous"])
        assert by[p + "tokens"].high == by[p + "loads"].high == tokens["max_per_holder"]
    at = 0
    for f in spec:  # the fields tile the vector exactly
        assert f.offset == at and f.size >= 1 and (not f.labels or len(f.labels) == f.size)
        at += f.size
    assert at == observation_size(expansions=AD) == 837
    assert vocab(AD).kinds == vocab().kinds


def _reference(view) -> np.ndarray:
    """An expansion view's encoding written the slow way, from the spec's names and labels:
    every card, character or decision kind goes to the field whose labels hold it."""
    from bangarena.engine import card_kind

    spec = {f.name: f for f in encoding_spec(expansions=AD)}
    x = np.zeros(observation_size(expansions=AD), dtype=np.float32)

    def one(names: tuple[str, ...], label: str, value: float = 1.0, add: bool = False) -> None:
        f = next(spec[n] for n in names if label in spec[n].labels)
        i = f.offset + f.labels.index(label)
        x[i] = x[i] + value if add else value

    def put(name: str, value: float) -> None:
        x[spec[name].offset] = value

    one(("seat",), f"seat_{view.seat}")
    one(("seats",), str(view.seats))
    one(("mode",), view.mode)
    one(("role",), view.role)
    for c in view.hand:
        one(("hand", "ad_hand"), card_kind(c), add=True)
    one(("turn",), f"seat_{view.turn}")
    for name in ("round", "high_noon", "deck_size", "discard_size", "supply"):
        put(name, getattr(view, name))
    if view.discard_top:
        one(("discard_top", "ad_discard_top"), card_kind(view.discard_top))
    d = view.decision
    one(("decision_kind", "ad_decision_kind"), d.kind)
    one(("decision_seat",), f"seat_{d.seat}")
    if d.source is not None:
        one(("decision_source",), f"seat_{d.source}")
    if d.needed is not None:
        put("decision_needed", d.needed)
    if d.card is not None:
        one(("decision_card", "ad_decision_card"), d.card)
    for s in view.named_deputies:
        one(("named_deputies",), f"seat_{s}")
    for pv in view.players:
        p = f"player_{pv.seat}."
        for name in ("alive", "life", "max_life", "hand_size", "revealed", "tokens"):
            put(p + name, getattr(pv, name))
        put(p + "present", 1)
        put(p + "distance", pv.distance or 0)
        one((p + "character", p + "ad_character"), pv.character)
        for c in pv.in_play:
            one((p + "in_play", p + "ad_in_play"), card_kind(c), add=True)
        if pv.weapon:
            one((p + "weapon", p + "ad_weapon"), card_kind(pv.weapon))
        for star in pv.stars:
            one((p + "stars",), star or "none", add=True)
        if pv.role:
            one((p + "known_role",), pv.role)
        for c, n in pv.loads.items():
            one((p + "loads",), card_kind(c), n)
    return x


def test_the_fast_encoder_equals_the_spec_written_the_slow_way_in_expansion_games() -> None:
    checked = 0
    for k in range(8):
        seats, mode = TABLES[k % len(TABLES)]
        game = new_game(GameConfig(seats, mode, expansions=AD), 500 + k)
        chooser = random.Random(k)
        encoders = [Encoder(expansions=AD) for _ in range(seats)]
        cursors = [0] * seats
        while not game.over:
            s = game.to_move
            view = game.view(s, since=cursors[s])
            cursors[s] = view.cursor
            assert np.array_equal(encoders[s].encode(view), _reference(view)), (k, checked)
            checked += 1
            moves = game.legal_moves
            game.apply_fast(moves[chooser.randrange(len(moves))])
    assert checked > 800


def test_expansion_observations_come_from_the_view_only() -> None:
    from bangarena.engine.conformance import resample

    for seed in range(8):
        game = new_game(GameConfig(6, "double_agent", expansions=AD), seed)
        chooser = random.Random(seed)
        for _ in range(chooser.randrange(20, 120)):
            if game.over:
                break
            moves = game.legal_moves
            game.apply_fast(moves[chooser.randrange(len(moves))])
        for seat in range(6):
            alt = resample(game, seat, random.Random(seed))
            a = Encoder(expansions=AD).encode(game.view(seat))
            b = Encoder(expansions=AD).encode(alt.view(seat))
            assert np.array_equal(a, b)


def test_expansions_are_named_as_the_engine_names_them_and_render_shows_tokens() -> None:
    with pytest.raises(ConfigError, match="list of expansion names"):
        env(5, expansions="armed_dangerous")  # a bare string is no list of names
    with pytest.raises(ConfigError, match="unknown expansion"):
        env(5, expansions=["armed"])
    e = env(5, seed=2, expansions=list(AD), render_mode="ansi")
    e.reset()
    assert e.unwrapped.config.expansions == AD
    out = e.render()
    assert "supply" in out and "tokens" in out
    base = env(5, seed=2, render_mode="ansi")
    base.reset()
    assert "supply" not in base.render() and "tokens" not in base.render()


def test_openspiel_random_sim_test_on_an_expansion_game() -> None:
    import pyspiel

    from bangarena.harness.rl.openspiel_game import GAME_NAME, load, parse_expansions

    game = load(4, "classic", expansions="armed_dangerous")
    assert game.num_distinct_actions() == len(action_ids(AD))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    by_name = pyspiel.load_game(GAME_NAME, {"players": 4, "expansions": "armed_dangerous"})
    state = by_name.new_initial_state()
    state.apply_action(0)  # the deal
    assert state.engine.config.expansions == AD
    assert len(state.observation_tensor(0)) == observation_size(expansions=AD)
    assert pyspiel.load_game(GAME_NAME, {"players": 4}).num_distinct_actions() == 201
    assert parse_expansions("none") == parse_expansions("") == ()
    assert parse_expansions("armed_dangerous") == parse_expansions(" armed_dangerous+") == AD
    with pytest.raises(ConfigError):
        parse_expansions("armed_dangerous+nope")


def test_the_random_policy_example_plays_expansion_games(tmp_path) -> None:
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "examples" / "rl_random_policy.py"
    out = subprocess.run(
        [sys.executable, str(script), "--games", "2", "--seats", "4", "--expansions",
         "armed_dangerous"],
        capture_output=True, text=True, check=True, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert "2 games, 4 seats, classic, armed_dangerous" in out.stdout
