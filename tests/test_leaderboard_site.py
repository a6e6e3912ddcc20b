"""The static site, built from a real store: every page and file, ``leaderboard.json`` against
its schema, page sizes (a 7-seat match with transcripts included), the replays' information
sets checked with the engine's own knowledge masks, and bad input (an empty store, an unknown
suite or match key, a foreign folder, several rules versions)."""

from __future__ import annotations

import html
import json
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from leaderboard_site_support import SEVEN_MATCHES, SOLO_SUITE, make_store
from typer.testing import CliRunner

from bangarena.cli.app import app
from bangarena.engine import GameConfig, new_game
from bangarena.engine.cards import DECK
from bangarena.engine.events import event_dict, event_from_dict
from bangarena.engine.state import PUBLIC_BIT
from bangarena.engine.views import known_roles
from bangarena.evals.store import open_store
from bangarena.leaderboard.board import board_json_schema
from bangarena.leaderboard.site import MARKER, SiteError, build_site
from bangarena.leaderboard.site.pages import slug
from bangarena.leaderboard.site.replay import (
    ReplayError,
    build_replay,
    expand_frames,
    read_mode_script,
)
from bangarena.prompts.catalog import catalog
from bangarena.prompts.events import event_line

MB = 1_000_000
RESAMPLES = 40
KINDS = "|".join(sorted({c.kind for c in DECK}, key=len, reverse=True))
CARD_ID = re.compile(rf"\b(?:{KINDS})_\d{{2}}\b")
OWN_ONLY = ("legal", "reason", "notes")
OWN_ONLY_ATTEMPT = ("msgs", "reply", "refusal", "detail", "named", "finish")
runner = CliRunner()


@pytest.fixture(scope="module")
def store_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    return make_store(tmp_path_factory.mktemp("store") / "store.db")


@pytest.fixture(scope="module")
def site(store_url: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    out = tmp_path_factory.mktemp("site") / "site"
    report = build_site(store_url, out, resamples=RESAMPLES, workers=1)
    return out, report


def _records(url: str) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    store = open_store(url)
    try:
        return {row["key"]: (row, rec) for row, rec in store.iter_records(status="done")}
    finally:
        store.close()


def test_the_site_has_every_page(site: tuple[Path, Any], store_url: str) -> None:
    out, report = site
    assert report.problems == [] and report.replay_errors == []
    for name in (
        "index.html",
        "compare.html",
        "methodology.html",
        "leaderboard.json",
        "leaderboard.schema.json",
        "replays/index.html",
        "static/site.css",
        "static/board.js",
        "static/replay.js",
        "static/names.js",
        MARKER,
    ):
        assert (out / name).is_file(), name
    boards = json.loads((out / "leaderboard.json").read_text())
    ids = {p["id"] for b in boards for p in b["participants"]}
    # "scripted" names two specs in two suites: they are two participants.
    assert ids == {"rule", "faulty", "random", "small/scripted", "seven/scripted"}
    index = (out / "index.html").read_text()
    for pid in ids:
        assert (out / "participants" / f"{slug(pid)}.html").is_file()
        assert f'data-participant="{pid}"' in index
    assert index.count("<svg") == 3  # ratings, role heatmap, cost against rating
    assert "No participant has a price" not in index  # "faulty" has one: a real cost plot
    records = _records(store_url)
    assert report.replays == len(records) == 4 + SEVEN_MATCHES  # fewer than --replays: all
    for key, (row, rec) in records.items():
        folder = out / "replays" / row["suite"] / key
        modes = {p.name for p in folder.iterdir()}
        seats = rec["config"]["seats"]
        assert modes == {"index.html", "spectator.js", *(f"seat-{i}.js" for i in range(seats))}
        assert f"{row['suite']}/{key}/index.html" in (out / "replays/index.html").read_text()
    # Every link between pages resolves to a file of the site.
    for page in out.rglob("*.html"):
        for href in re.findall(r'href="([^"#:]+)"', page.read_text()):
            assert (page.parent / href).resolve().is_file(), (page, href)


def test_leaderboard_json_validates_against_its_schema(site: tuple[Path, Any]) -> None:
    out, _ = site
    boards = json.loads((out / "leaderboard.json").read_text())
    schema = json.loads((out / "leaderboard.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(boards)
    one = jsonschema.Draft202012Validator(board_json_schema())
    assert len(boards) == 1
    for board in boards:
        one.validate(board)
        for key in ("generated_at", "suite", "rules_version", "split_half", "head_to_head"):
            assert key in board
        for p in board["participants"]:
            for key in (
                "id", "spec", "rating", "ci", "rank", "matches", "deals", "win_rate",
                "by_role", "first_try_valid", "autopilot_rate", "cost_usd",
            ):  # fmt: skip
                assert key in p, key
    # The schema refuses what is not a board.
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate([{"participants": "none"}])


def test_pages_stay_under_a_megabyte(site: tuple[Path, Any], store_url: str) -> None:
    out, report = site
    for page in out.rglob("*.html"):
        assert page.stat().st_size < MB, page
    heaviest = report.largest_replay_of(7)
    assert heaviest is not None and heaviest["seats"] == 7
    # A heavy record: six text-path seats with every prompt and answer kept.
    store = open_store(store_url)
    try:
        rows = {r["key"]: r for r in store.matches(suite="seven")}
    finally:
        store.close()
    key = heaviest["path"].split("/")[2]
    assert rows[key]["record_bytes"] > 300_000
    for result in report.replay_results:
        folder = out / Path(result.job.path).parent
        total = sum(p.stat().st_size for p in folder.iterdir())
        assert total == result.total_bytes < MB, folder


def _hidden_from(state: Any, viewer: int | None) -> set[str]:
    """The card ids ``viewer`` cannot know now: in the deck, in other hands and in limbo,
    without its bit (or the public bit) in the engine's knowledge mask."""
    mask = PUBLIC_BIT | ((1 << viewer) if viewer is not None else 0)
    cards = list(state.deck) + list(state.limbo)
    for p in state.players:
        if p.seat != viewer:
            cards += p.hand
    return {DECK[c].id for c in cards if not state.known[c] & mask}


def _mode_files(out: Path, row: dict[str, Any], seats: int) -> dict[int | None, dict[str, Any]]:
    folder = out / "replays" / row["suite"] / row["key"]
    files = {None: folder / "spectator.js", **{i: folder / f"seat-{i}.js" for i in range(seats)}}
    return {v: read_mode_script(p.read_text()) for v, p in files.items()}


def _check_knowledge(game_rec: dict[str, Any], modes: dict[int | None, dict[str, Any]]) -> int:
    """Replay the match and check, step by step and per mode: no card id the viewer cannot
    know, no role it does not know, no event line in the form only others may see. Returns the
    card ids checked."""
    cat = catalog("en")
    game = new_game(GameConfig(**game_rec["config"]), game_rec["seed"])
    frames = {v: expand_frames(d["frames"]) for v, d in modes.items()}
    moves = game_rec["moves"]
    checked, since = 0, 0
    for t in range(len(moves) + 1):
        st = game.state
        full = game.omniscient_events(since)
        for v, data in modes.items():
            step = [frames[v][t], data["log"][t], data["moves"][t] if t < len(moves) else None]
            seen = set(CARD_ID.findall(json.dumps(step, ensure_ascii=False)))
            leaked = seen & _hidden_from(st, v)
            assert not leaked, (t, v, leaked)
            checked += len(seen)
            known = known_roles(st, v) if st.mode == "double_agent" else {}
            for j, p in enumerate(frames[v][t]["p"]):
                public = st.over or not st.players[j].alive or j == st.sheriff or j == v
                if p["r"] is not None:
                    assert public or j in known, (t, v, j)
            lines = set(data["log"][t])
            for e in full:
                if e.get("private_to") is None or (v is not None and v in e["private_to"]):
                    continue
                secret = event_line({k: x for k, x in e.items() if k != "private_to"}, cat)
                mine = event_line(event_dict(event_from_dict(e), v), cat)
                if secret is not None and secret != mine:
                    assert secret not in lines, (t, v, secret)
        since = len(st.log)
        if t < len(moves):
            game.apply(*moves[t])
    return checked


def test_every_mode_holds_only_what_its_viewer_knew(site: tuple[Path, Any], store_url: str) -> None:
    out, _ = site
    checked = 0
    for _key, (row, rec) in _records(store_url).items():
        modes = _mode_files(out, row, rec["config"]["seats"])
        checked += _check_knowledge(rec["game"], modes)
    assert checked > 10_000  # the check saw the hands, the table and the prompts


def test_the_knowledge_check_catches_a_leak(site: tuple[Path, Any], store_url: str) -> None:
    out, _ = site
    row, rec = next(v for v in _records(store_url).values() if v[0]["suite"] == "seven")
    modes = _mode_files(out, row, 7)
    swapped = {**modes, 0: modes[1]}  # seat 1's data shown as seat 0's
    with pytest.raises(AssertionError):
        _check_knowledge(rec["game"], swapped)
    public = {None: modes[None], 0: {**modes[0], "log": modes[None]["log"]}}
    _check_knowledge(rec["game"], public)  # less than it may see is no leak


def test_prompts_and_answers_show_only_in_the_deciding_seats_mode(
    site: tuple[Path, Any], store_url: str
) -> None:
    out, _ = site
    prompts = 0
    for row, rec in _records(store_url).values():
        seats = rec["config"]["seats"]
        modes = _mode_files(out, row, seats)
        texts = {v: json.dumps(d, ensure_ascii=False) for v, d in modes.items()}
        for v, data in modes.items():
            for m in data["moves"]:
                if m["seat"] == v:
                    continue
                assert not set(OWN_ONLY) & set(m), (v, m)
                for a in m["att"]:
                    assert not set(OWN_ONLY_ATTEMPT) & set(a), (v, a)
            assert (data["system"] is not None) == (
                v is not None and rec["seats"][v]["system_prompt"] is not None
            )
        for m in rec["moves"]:
            for a in m["attempts"]:
                if a.get("transcript") is None:
                    continue
                prompt = a["transcript"]["messages"][0]["content"]
                prompts += 1
                shown_in = {
                    v
                    for v, text in texts.items()
                    if json.dumps(prompt, ensure_ascii=False)[1:-1] in text
                }
                assert shown_in == {m["seat"]}, (m["index"], shown_in)
    assert prompts > 500


def test_an_unreplayable_record_is_refused() -> None:
    from leaderboard_site_support import played_seven

    _, record = played_seven()[0]
    bad = record.model_dump(mode="json")
    bad["game"]["moves"][3] = [bad["game"]["moves"][3][0], "no_such_move"]
    with pytest.raises(ReplayError, match="move 3"):
        build_replay(bad)
    with pytest.raises(ReplayError):
        build_replay({"seats": []})


def test_an_empty_store_builds_a_site_that_says_so(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'empty.db'}"
    open_store(url).close()
    out = tmp_path / "site"
    report = build_site(url, out, resamples=RESAMPLES, workers=1)
    assert report.problems == [] and report.boards == 0 and report.replays == 0
    assert json.loads((out / "leaderboard.json").read_text()) == []
    index = (out / "index.html").read_text()
    assert "Nothing to rate yet" in index and "holds no done match yet" in index
    r = runner.invoke(app, ["leaderboard", "show", "--db", url])
    assert r.exit_code == 0 and "Nothing to rate yet" in r.stdout


def test_an_unknown_suite_or_key_is_one_clear_line_and_the_site_still_builds(
    store_url: str, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    report = build_site(store_url, out, suite="nope", resamples=RESAMPLES, workers=1)
    assert len(report.problems) == 1
    assert "'nope'" in report.problems[0] and "seven" in report.problems[0]
    assert "'nope'" in html.unescape((out / "index.html").read_text())
    r = runner.invoke(
        app, ["leaderboard", "build", "--db", store_url, "--suite", "nope", "--out", str(out)]
    )
    assert r.exit_code == 2 and "Traceback" not in r.stderr
    errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "'nope'" in errors[0]
    r = runner.invoke(app, ["leaderboard", "show", "--db", store_url, "--suite", "nope"])
    assert r.exit_code == 2 and r.stderr.startswith("error:") and "'nope'" in r.stderr
    r = runner.invoke(
        app,
        ["leaderboard", "build", "--db", store_url, "--out", str(out), "--replays", "0"]
        + ["--match", "ffff", "--resamples", str(RESAMPLES)],
    )
    assert r.exit_code == 2 and "--match 'ffff': no match with that key" in r.stderr
    assert (out / "index.html").is_file()


def test_the_cli_builds_and_shows(store_url: str, tmp_path: Path) -> None:
    out = tmp_path / "site"
    key = next(iter(_records(store_url)))
    args = ["leaderboard", "build", "--db", store_url, "--out", str(out), "--workers", "1"]
    r = runner.invoke(app, [*args, "--replays", "1", "--match", key[:10], "--resamples", "20"])
    assert r.exit_code == 0, r.stderr
    assert f"open {out / 'index.html'}" in r.stderr
    built = sorted(p.parent.name for p in out.glob("replays/*/*/index.html"))
    assert key in built and len(built) == 2
    # A rebuild replaces the previous one: no stale replay stays behind.
    r = runner.invoke(app, [*args, "--replays", "1", "--resamples", "20"])
    assert r.exit_code == 0, r.stderr
    assert len(list(out.glob("replays/*/*/index.html"))) == 1
    r = runner.invoke(app, ["leaderboard", "show", "--db", store_url, "--resamples", "20"])
    assert r.exit_code == 0, r.stderr
    for pid in ("rule", "faulty", "random", "small/scripted", "seven/scripted"):
        assert pid in r.stdout
    assert "rating [95 %]" in r.stdout


def test_bad_requests_are_one_line(store_url: str, tmp_path: Path) -> None:
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    with pytest.raises(SiteError, match="not built by"):
        build_site(store_url, foreign, resamples=RESAMPLES, workers=1)
    assert (foreign / "notes.txt").read_text() == "keep me"
    cases = [
        ["--db", store_url, "--out", str(foreign)],
        ["--db", str(tmp_path / "missing.db"), "--out", str(tmp_path / "x")],
        ["--db", store_url, "--out", str(tmp_path / "y"), "--replays", "-1"],
        ["--db", store_url, "--out", str(tmp_path / "y"), "--resamples", "0"],
        ["--db", store_url, "--out", str(foreign / "notes.txt")],
    ]
    for extra in cases:
        r = runner.invoke(app, ["leaderboard", "build", *extra])
        assert r.exit_code == 2, (extra, r.stdout, r.stderr)
        assert r.stderr.startswith("error:") and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_rules_versions_are_rated_apart_and_the_page_says_so(
    store_url: str, tmp_path: Path
) -> None:
    db = tmp_path / "two.db"
    shutil.copyfile(store_url.removeprefix("sqlite:///"), db)
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE matches SET rules_version = '00000000feedbeef' WHERE suite_id = "
            "(SELECT id FROM suites WHERE name = 'small')"
        )
    out = tmp_path / "site"
    report = build_site(f"sqlite:///{db}", out, replays=0, resamples=RESAMPLES, workers=1)
    assert report.boards == 2 and report.problems == []
    assert any("rated apart" in n for n in report.notices)
    index = (out / "index.html").read_text()
    assert "rated apart" in index and "00000000feedbeef" in index
    boards = json.loads((out / "leaderboard.json").read_text())
    assert {b["rules_version"] for b in boards} >= {"00000000feedbeef"}


def test_one_participant_alone_builds_a_board_that_says_why(tmp_path: Path) -> None:
    url = make_store(tmp_path / "solo.db", (SOLO_SUITE,))
    out = tmp_path / "site"
    report = build_site(url, out, resamples=RESAMPLES, workers=1)
    assert report.boards == 1 and report.participants == 1 and report.problems == []
    assert "only one participant" in (out / "index.html").read_text()
    r = runner.invoke(app, ["leaderboard", "show", "--db", url, "--resamples", "20"])
    assert r.exit_code == 0 and "rule" in r.stdout, r.stderr
