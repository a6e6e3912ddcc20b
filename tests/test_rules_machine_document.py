"""rules.json agrees with the engine, its hashes are stable, and the rules for AI name
everything they must, in the seeds' own words."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from bangarena.engine import DECISION_KINDS, ENGINE_VERSION, RULES_VERSION, texts
from bangarena.engine.cards import CARD_KINDS, DECK
from bangarena.engine.characters import CHARACTERS
from bangarena.engine.config import DEFAULT_MAX_ROUNDS
from bangarena.engine.moves import MOVE_ID_PATTERNS, MOVE_KINDS
from bangarena.engine.roles import MODES, ROLE_TABLE, ROLES, TEAM_OF, roles_for
from bangarena.engine.version import play_data
from bangarena.rules_machine import (
    LANGS,
    UnknownLanguage,
    count_tokens,
    rules_document,
    rules_text,
    texts_version,
)
from bangarena.rules_machine.document import digest
from bangarena.rules_machine.phrases import PHRASES
from bangarena.rules_machine.tokens import encoding
from bangarena.rules_machine.wording import snake

SEEDS = Path(__file__).resolve().parents[1] / "docs" / "seeds"
SEED_FILES = {
    "pt": "000_d256f0bec6091658.txt",
    "es": "001_1caf52e054aba464.txt",
    "fr": "003_acc9e1d87345c258.txt",
}
COMPACT_EN_MAX_TOKENS = 2500


@pytest.fixture(scope="module")
def doc() -> dict:
    return rules_document()


# -- versions ----------------------------------------------------------------------------------
def test_versions_are_the_engines(doc: dict) -> None:
    assert doc["rules_version"] == RULES_VERSION
    assert doc["engine_version"] == ENGINE_VERSION
    assert doc["rules_version_input"] == {"engine_version": ENGINE_VERSION, "data": play_data()}
    # anyone can recompute it: sha256 of canonical JSON, first 16 hex digits
    blob = json.dumps(
        doc["rules_version_input"], sort_keys=True, separators=(",", ":"), ensure_ascii=True
    )
    assert hashlib.sha256(blob.encode()).hexdigest()[:16] == RULES_VERSION
    assert doc["texts_version"] == texts_version()


_PROBE = """
import hashlib, json
from bangarena.rules_machine import rules_document, texts_version
from bangarena.engine import RULES_VERSION
d = rules_document()
blob = json.dumps(d, ensure_ascii=False).encode()
print(RULES_VERSION, texts_version(), hashlib.sha256(blob).hexdigest())
"""


def test_hashes_and_document_are_stable_across_processes(doc: dict) -> None:
    """Nothing depends on dict or set order, hash seeds or float formatting."""
    outs = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(
            [sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, check=True
        )
        outs.add(out.stdout.strip())
    assert len(outs) == 1
    rules, textv, whole = outs.pop().split()
    assert rules == RULES_VERSION and textv == doc["texts_version"]
    assert whole == hashlib.sha256(json.dumps(doc, ensure_ascii=False).encode()).hexdigest()


def test_texts_version_changes_with_a_sentence_and_rules_version_does_not() -> None:
    before = texts_version()
    original = PHRASES["intro"]
    try:
        PHRASES["intro"] = texts.Text(en="x", pt="x", es="x", fr="x")
        assert texts_version() != before
        assert digest({"engine_version": ENGINE_VERSION, "data": play_data()}) == RULES_VERSION
    finally:
        PHRASES["intro"] = original
    assert texts_version() == before


# -- agreement with the engine -----------------------------------------------------------------
def test_cards_and_deck_agree_with_the_engine(doc: dict) -> None:
    assert [c["id"] for c in doc["cards"]] == [k.id for k in CARD_KINDS]
    assert len(doc["cards"]) == 22
    deck = doc["deck"]
    assert deck["size"] == len(deck["cards"]) == len(DECK) == 80
    by_kind = Counter(c["kind"] for c in deck["cards"])
    for card in doc["cards"]:
        assert by_kind[card["id"]] == card["copies"]
        assert card["card_ids"] == [c["id"] for c in deck["cards"] if c["kind"] == card["id"]]
    assert sum(c["copies"] for c in doc["cards"]) == 80
    hearts = sum(c["suit"] == "hearts" for c in deck["cards"])
    boom = sum(
        c["suit"] == "spades" and c["rank"] in ["2", "3", "4", "5", "6", "7", "8", "9"]
        for c in deck["cards"]
    )
    assert hearts == deck["counts"]["hearts"] == 21
    assert boom == deck["counts"]["spades_2_9"] == 12
    assert sum(deck["counts"]["by_suit"].values()) == 80
    assert [(c["id"], c["kind"], c["suit"], c["rank"]) for c in deck["cards"]] == [
        (c.id, c.kind, c.suit, c.rank) for c in DECK
    ]
    assert len({c["id"] for c in deck["cards"]}) == 80
    weapons = {c["id"]: c["range"] for c in doc["cards"] if c["color"] == "weapon"}
    assert weapons == {
        "vulcan": 1, "sawed_off": 2, "shotgun": 3, "carbine": 4, "long_rifle": 5,
    }  # fmt: skip
    assert doc["default_weapon"]["range"] == 1


def test_characters_agree_with_the_engine(doc: dict) -> None:
    assert len(doc["characters"]) == 16
    for c, ch in zip(doc["characters"], CHARACTERS, strict=True):
        assert (c["id"], c["life"], c["old_classic_life"]) == (
            ch.id,
            ch.life,
            ch.old_classic_life,
        )
    life = {c["id"]: c["life"] for c in doc["characters"]}
    assert life["bonesetter"] == 5 and life["stone_leopard"] == 3 and life["collector"] == 3
    old = next(m for m in doc["modes"] if m["id"] == "old_classic")
    assert old["character_life"] == {"stone_leopard": 4}


def test_roles_teams_and_tables_agree_with_the_engine(doc: dict) -> None:
    assert [r["id"] for r in doc["roles"]] == list(ROLES)
    for r in doc["roles"]:
        assert r["team"] == TEAM_OF[r["id"]]
        assert r["public"] == (r["id"] == "sheriff")
    teams = {t["id"]: t["roles"] for t in doc["teams"]}
    assert teams == {"law": ["sheriff", "deputy"], "outlaws": ["outlaw", "double_agent"],
                     "renegade": ["renegade"]}  # fmt: skip
    assert [m["id"] for m in doc["modes"]] == list(MODES)
    for m in doc["modes"]:
        for n in ROLE_TABLE:
            assert m["roles_by_seats"][str(n)] == list(roles_for(n, m["id"]))
            assert len(m["roles_by_seats"][str(n)]) == n
    classic = next(m for m in doc["modes"] if m["id"] == "classic")
    assert classic["roles_by_seats"]["4"] == ["sheriff", "renegade", "outlaw", "outlaw"]
    assert Counter(classic["roles_by_seats"]["8"]) == Counter(
        {"sheriff": 1, "deputy": 2, "renegade": 2, "outlaw": 3}
    )
    agent = next(m for m in doc["modes"] if m["id"] == "double_agent")
    assert agent["double_agent_from_seats"] == 5
    assert "double_agent" not in agent["roles_by_seats"]["4"]
    assert doc["constants"]["sheriff_life_bonus"] == {"4": 2, "5": 0, "6": 2, "7": 1, "8": 1}
    assert doc["constants"]["max_rounds_default"] == DEFAULT_MAX_ROUNDS
    assert doc["checks"]["jail_escape"]["fraction"] == "21/80"
    assert doc["checks"]["dynamite_explodes"]["fraction"] == "3/20"


def test_decision_and_move_kinds_carry_their_texts_and_patterns(doc: dict) -> None:
    assert [d["id"] for d in doc["decision_kinds"]] == list(DECISION_KINDS)
    for d in doc["decision_kinds"]:
        assert d["names"] == {lang: texts.DECISION_KINDS[d["id"]].get(lang) for lang in LANGS}
        assert d["help"]["pt"] == texts.DECISION_HELP[d["id"]].pt
        assert set(d["move_kinds"]) == {m["kind"] for m in d["moves"]}
    assert [m["id"] for m in doc["move_kinds"]] == list(MOVE_KINDS)
    for m in doc["move_kinds"]:
        assert m["id_pattern"] == MOVE_ID_PATTERNS[m["id"]]
        assert m["text"]["fr"] == texts.MOVE_KINDS[m["id"]].fr
    assert {e["id"] for e in doc["engine_decisions"]} >= {
        "engine_forced", "engine_copies", "engine_same_weapon", "engine_old_jail",
        "engine_glory_dropped",
    }  # fmt: skip


def test_names_are_the_engine_texts_and_the_seeds_own(doc: dict) -> None:
    seeds = {lang: (SEEDS / f).read_text("utf-8") for lang, f in SEED_FILES.items()}
    for section, source in (("cards", texts.CARDS), ("characters", texts.CHARACTERS)):
        for item in doc[section]:
            for lang in LANGS:
                assert item["names"][lang] == source[item["id"]].name.get(lang)
            for lang, seed in seeds.items():
                assert item["names"][lang] in seed, (item["id"], lang, item["names"][lang])
    for card in doc["cards"]:
        assert card["effect"]["es"] == texts.CARDS[card["id"]].effect.es
        assert card["hint"]["fr"] == texts.CARDS[card["id"]].hint.fr


# -- the rules for AI --------------------------------------------------------------------------
def _named(text: str, name: str, ident: str) -> bool:
    """Named with its id (``Tiro `shot` ``), or the id alone when it is the name in snake_case."""
    if snake(name) == ident:
        return f"`{ident}`" in text
    return f"{name} `{ident}`" in text


@pytest.mark.parametrize("compact", [True, False])
@pytest.mark.parametrize("lang", LANGS)
def test_texts_name_every_card_character_role_mode_and_decision(
    doc: dict, lang: str, compact: bool
) -> None:
    text = rules_text(lang, compact=compact)
    for section in ("cards", "characters", "roles", "modes"):
        for item in doc[section]:
            assert _named(text, item["names"][lang], item["id"]), (section, item["id"], lang)
    for d in DECISION_KINDS:
        assert f"`{d}`" in text
    for u in doc["glory"]["upgrades"]:
        assert _named(text, u["names"][lang], u["id"])
    assert (RULES_VERSION in text) != compact  # the versions head the full text only
    assert "{" not in text.replace("{n:", "")  # no placeholder left unfilled
    assert text.startswith("# ") and text.endswith("\n")


def test_full_texts_carry_hints_help_and_the_deck(doc: dict) -> None:
    for lang in LANGS:
        full, compact = rules_text(lang, compact=False), rules_text(lang, compact=True)
        assert len(full) > len(compact)
        assert texts.CARDS["shot"].hint.get(lang) in full
        assert texts.DECISION_HELP["brace"].get(lang) in full
        assert texts.ROLES["renegade"].objective.get(lang) in full
        assert re.search(r"`long_rifle` ?: [0-9JQKA]+[♥♦♣♠]", full)  # the deck table
        assert texts.CARDS["shot"].hint.get(lang) not in compact


def test_compact_english_fits_the_system_prompt_budget() -> None:
    tokens = count_tokens(rules_text("en", compact=True))
    assert 1000 < tokens <= COMPACT_EN_MAX_TOKENS, tokens


def test_token_counts_come_from_the_real_o200k_tokenizer() -> None:
    # o200k_base facts (the same ids as tiktoken's): "hello" is token 24912
    enc = encoding("o200k_base")
    assert type(enc).__module__.startswith("bpe_openai")
    assert enc.encode("hello") == [24912]
    assert count_tokens("hello world") == len(enc.encode("hello world")) == 2
    assert enc.decode(enc.encode("Bang! à Sid Ketchum")) == "Bang! à Sid Ketchum"


def test_a_special_token_string_is_counted_as_text() -> None:
    # a prompt that quotes "<|endoftext|>" is counted, not refused
    assert count_tokens("<|endoftext|> hi") == 8


def test_counting_tokens_skips_the_wrapper_import() -> None:
    # the Rust core alone: the wrapper's registry costs ~1 s at import (rules_machine/tokens.py)
    code = (
        "import sys; from bangarena.rules_machine.tokens import count_tokens; "
        "assert count_tokens('hello') == 1; assert 'bpe_openai' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(UnknownLanguage) as e:
        rules_text("xx")
    assert all(lang in str(e.value) for lang in LANGS)
    assert isinstance(e.value, ValueError)


def test_the_docs_state_the_current_token_counts() -> None:
    """docs/rules-for-ai.md's table is the measured count of each text (run
    benchmarks/rules_tokens.py and copy its figures when a text changes)."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "rules-for-ai.md").read_text("utf-8")
    rows = {
        m.group(1): (int(m.group(2).replace(",", "")), int(m.group(3).replace(",", "")))
        for m in re.finditer(r"^\| (en|pt|es|fr) \| ([\d,]+) \| ([\d,]+) \|$", doc, re.M)
    }
    assert set(rows) == set(LANGS)
    for lang, (compact, full) in rows.items():
        assert compact == count_tokens(rules_text(lang, compact=True)), lang
        assert full == count_tokens(rules_text(lang, compact=False)), lang


def test_the_rules_machine_imports_the_engine_and_never_the_harness() -> None:
    probe = (
        "import sys, bangarena.rules_machine as r; r.rules_text('fr'); r.schema('SeatView'); "
        "print(sorted({m.split('.')[1] for m in sys.modules if m.startswith('bangarena.')}))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['engine', 'rules_machine']"
