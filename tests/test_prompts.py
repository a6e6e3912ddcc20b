"""Prompts: every decision kind renders in every language, the turn prompt ends with the legal
ids line, its size stays bounded, and nothing a seat cannot know reaches its prompts (re-dealing
the hidden information with the engine's resampler leaves them byte-identical)."""

from __future__ import annotations

import copy
import random
import string
import tomllib
from collections.abc import Iterator

import pytest

from bangarena.engine import DECISION_KINDS, MOVE_KINDS, Game, GameConfig, new_game
from bangarena.engine.conformance import resample
from bangarena.prompts.catalog import LANGS, TEMPLATES_DIR, UnknownLanguage, catalog
from bangarena.prompts.memory import RECENT_MAX_LINES, PromptMemory
from bangarena.prompts.render import PROMPT_VERSION, render_system, render_turn
from bangarena.rules_machine.tokens import encoding

MODES = ("classic", "partners", "double_agent", "old_classic")


def random_game(seats: int, mode: str, seed: int) -> Iterator[tuple[Game, list[int]]]:
    """Yield (game, cursors) at every decision of a uniform-random game; the caller renders the
    decision's seat from cursors[seat] and must store the new cursor."""
    game = new_game(GameConfig(seats=seats, mode=mode), seed)
    rnd = random.Random(seed)
    cursors = [0] * seats
    while not game.over:
        yield game, cursors
        moves = game.legal_moves
        game.apply_fast(moves[rnd.randrange(len(moves))])


def test_catalogs_have_the_same_keys_and_fields_in_every_language() -> None:
    fmt = string.Formatter()
    docs = {
        lang: tomllib.loads((TEMPLATES_DIR / lang / "messages.toml").read_text("utf-8"))
        for lang in LANGS
    }
    for lang in LANGS[1:]:
        assert docs[lang].keys() == docs["en"].keys()
        for section, strings in docs["en"].items():
            assert docs[lang][section].keys() == strings.keys(), (lang, section)
            for key, text in strings.items():
                fields = {f[1] for f in fmt.parse(text) if f[1]}
                other = {f[1] for f in fmt.parse(docs[lang][section][key]) if f[1]}
                assert fields == other, (lang, section, key)
        for section in ("system", "feedback", "moves"):  # really translated
            for key, text in docs["en"][section].items():
                if key not in ("upgrade", "character_line"):
                    assert docs[lang][section][key] != text, (lang, key)


def test_unknown_language_is_refused_and_regional_codes_map() -> None:
    assert catalog("pt-BR").lang == "pt"
    with pytest.raises(UnknownLanguage, match="available: en, pt, es, fr"):
        catalog("de")


def test_prompt_version_names_series_and_content() -> None:
    series, _, digest = PROMPT_VERSION.partition("+")
    assert series == "1" and len(digest) == 10 and int(digest, 16) >= 0


def test_every_decision_and_move_kind_renders_in_every_language() -> None:
    seen_decisions: set[str] = set()
    seen_moves: set[str] = set()
    games = [(4 + s % 5, MODES[s % 4], s) for s in range(24)] + [(8, "classic", 1)]
    for seats, mode, seed in games:
        lang = LANGS[seed % 4]
        memories = [PromptMemory() for _ in range(seats)]
        for game, cursors in random_game(seats, mode, seed):
            d = game.decision
            view = game.view(d.seat, since=cursors[d.seat])
            cursors[d.seat] = view.cursor
            text = render_turn(view, d, memories[d.seat], lang, notes="n", notes_enabled=True)
            last = text.splitlines()[-1]
            assert last == "Legal move ids: " + ", ".join(d.ids)
            for m in d.moves:
                assert f"- {m.id}: " in text
            assert "None" not in text and "{" not in text.replace('{"reason"', "")
            seen_decisions.add(d.kind)
            seen_moves.update(m.kind for m in d.moves)
    assert seen_decisions == set(DECISION_KINDS)
    assert seen_moves == set(MOVE_KINDS)


def test_turn_prompt_stays_bounded_over_long_games() -> None:
    enc = encoding("o200k_base")
    sizes: list[int] = []
    for seed in range(4):
        memories = [PromptMemory() for _ in range(8)]
        for game, cursors in random_game(8, "old_classic", 100 + seed):
            d = game.decision
            view = game.view(d.seat, since=cursors[d.seat])
            cursors[d.seat] = view.cursor
            text = render_turn(view, d, memories[d.seat], "en", notes="x" * 400, notes_enabled=True)
            lines = text.splitlines()
            start = next(i for i, ln in enumerate(lines) if ln.startswith("Since "))
            assert lines[start + 1 :].index("Your notes: " + "x" * 400) <= RECENT_MAX_LINES + 1
            sizes.append(len(enc.encode(text)))
    # old_classic at 8 seats runs long (no High Noon): late prompts are no bigger than early ones
    half = len(sizes) // 2
    assert max(sizes[half:]) <= max(sizes[:half]) * 1.3
    assert max(sizes) < 1600


def _memory_for(game: Game, seat: int, bounds: list[int]) -> PromptMemory:
    """A seat's prompt memory rebuilt from ``game``'s views of it at the given cursors."""
    memory = PromptMemory()
    cat = catalog("en")
    for a, b in zip([0, *bounds], bounds, strict=False):
        memory.observe(game.view(seat, since=a).events[: b - a], cat)
    return memory


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_leak_through_the_turn_prompt(lang: str) -> None:
    """At many mid-game decisions, re-deal what the deciding seat cannot know (other hands, the
    deck order, hidden roles): its turn prompt stays byte-identical."""
    checked = 0
    for n, (seats, mode) in enumerate([(5, "classic"), (7, "double_agent"), (8, "partners"),
                                       (6, "old_classic"), (7, "classic"), (5, "double_agent")]):  # fmt: skip
        bounds: list[list[int]] = [[] for _ in range(seats)]
        memories = [PromptMemory() for _ in range(seats)]
        for step, (game, cursors) in enumerate(random_game(seats, mode, 40 + n)):
            d = game.decision
            s = d.seat
            if step % 9 == 4 and step > 20:
                mine = copy.deepcopy(memories[s])
                text = render_turn(game.view(s, since=cursors[s]), d, mine, lang)
                for k in range(2):
                    other = resample(game, s, random.Random(k))
                    assert other.state_hash() != game.state_hash() or k > 0
                    theirs = _memory_for(other, s, bounds[s])
                    assert theirs.attacks == memories[s].attacks
                    again = render_turn(
                        other.view(s, since=cursors[s]), other.decision, theirs, lang
                    )
                    assert again == text
                    checked += 1
            view = game.view(s, since=cursors[s])
            cursors[s] = view.cursor
            bounds[s].append(view.cursor)
            render_turn(view, d, memories[s], lang)
    assert checked >= 60


def test_no_leak_through_the_system_prompt() -> None:
    for seats, mode, seed in [(5, "classic", 3), (7, "double_agent", 4), (8, "partners", 5)]:
        for step, (game, _) in enumerate(random_game(seats, mode, seed)):
            if step % 25 != 10:
                continue
            s = game.to_move
            text = render_system(game.view(s), "en", notes=True)
            for k in range(3):
                other = resample(game, s, random.Random(k))
                assert render_system(other.view(s), "en", notes=True) == text


@pytest.mark.parametrize("lang", LANGS)
def test_system_prompt_is_fixed_for_a_seat_and_carries_role_and_contract(lang: str) -> None:
    game = new_game(GameConfig(seats=6, mode="classic"), 11)
    seat = 3
    first = render_system(game.view(seat), lang, answer_mode="tool", notes=True)
    cat = catalog(lang)
    role = game.view(seat).role
    assert cat.role[role] in first and cat.objective[role] in first
    assert '"move"' in first and "bangarena_move" in first
    rnd = random.Random(0)
    while not game.over:
        if game.to_move == seat:
            assert render_system(game.view(seat), lang, answer_mode="tool", notes=True) == first
        game.apply_fast(game.legal_moves[rnd.randrange(len(game.legal_moves))])


@pytest.mark.parametrize(
    ("seats", "mode", "lang"), [(7, "classic", "en"), (5, "double_agent", "pt")]
)
def test_cached_table_lines_and_summary_equal_fresh_ones(seats: int, mode: str, lang: str) -> None:
    """The memory's rendered-text caches (table lines per PlayerView, the summary until an
    attack or an elimination) give the very prompt a memory without them renders."""
    from bangarena.harness.bots import make_bot

    for seed in range(3):
        game = new_game(GameConfig(seats, mode), seed)
        bots = [make_bot("rule", seed * 100 + s, s) for s in range(seats)]
        cursors = [0] * seats
        cached = [PromptMemory() for _ in range(seats)]
        fresh = [PromptMemory() for _ in range(seats)]
        hits = 0
        while not game.over:
            decision = game.decision
            seat = decision.seat
            view = game.view(seat, since=cursors[seat])
            cursors[seat] = view.cursor
            before = dict(cached[seat].player_lines)
            got = render_turn(view, decision, cached[seat], lang)
            hits += sum(1 for i, p in enumerate(view.players) if before.get(i, (None,))[0] is p)
            fresh[seat].player_lines.clear()
            fresh[seat].summary_text = None
            assert got == render_turn(view, decision, fresh[seat], lang)
            game.apply(seat, bots[seat].choose(view, decision))
        assert hits > 0  # the cache was used, not only filled


def test_shared_event_lines_equal_fresh_ones_and_stay_bounded(monkeypatch) -> None:
    """The per-event cache of lines (and of what the memory tallies) gives what rendering
    afresh gives, for every seat's events in every language, and drops its oldest half at its
    cap."""
    from bangarena.prompts import events as ev

    monkeypatch.setattr(ev, "_LINES", {})
    monkeypatch.setattr(ev, "_LINES_CAP", 64)
    seen = 0
    for game, cursors in random_game(5, "classic", 11):
        seat = game.decision.seat
        view = game.view(seat, since=cursors[seat])
        cursors[seat] = view.cursor
        for lang in LANGS:
            cat = catalog(lang)
            for e in view.events:
                assert ev.shared_event_line(e, cat) == ev.event_line(e, cat)
                facts = ev.shared_event_facts(e, cat)
                assert facts[3] == ev.hostile_target(e)
                assert facts[4] == ((e["seat"], e["killer"]) if e["kind"] == "eliminated" else None)
                seen += 1
        assert len(ev._LINES) <= 64
    assert seen > 64  # the cap was reached and entries were dropped


@pytest.mark.parametrize("lang", LANGS)
def test_turn_prompts_render_as_jinja_render_does(lang: str) -> None:
    """The turn template rendered on a shared context gives the text of ``Template.render``,
    and a template error is still jinja's own, pointing at the template."""
    import jinja2

    from bangarena.prompts import render as render_module

    template = render_module._template("turn.j2")
    plain: list[str] = []
    real_shared = render_module._render_shared

    def both(t: jinja2.Template, ctx: dict) -> str:
        plain.append(t.render(dict(ctx)))
        return real_shared(t, ctx)

    for game, cursors in random_game(6, "classic", 11):
        decision = game.decision
        seat = decision.seat
        view = game.view(seat, since=cursors[seat])
        cursors[seat] = view.cursor
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(render_module, "_render_shared", both)
            got = render_turn(view, decision, PromptMemory(), lang)
        assert got == plain[-1]
    assert len(plain) > 50
    with pytest.raises(jinja2.UndefinedError) as err:
        render_module._render_shared(template, {"header": "x"})
    assert any(tb.name == "top-level template code" for tb in err.traceback)
