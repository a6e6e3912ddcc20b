"""Every command of ``bangarena`` given hostile input (missing files, folders, binary files,
invalid JSON, unwritable destinations, bad numbers, unknown names) fails with one clear line on
stderr and exit code 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bangarena.cli.app import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
SCENARIO = str(ROOT / "docs" / "scenarios" / "twin_barrels_vs_cover.json")
BINARY = bytes(range(256)) * 4


def _write(name: str, data: bytes | str) -> Callable[[Path], str]:
    def make(tmp: Path) -> str:
        path = tmp / name
        path.write_bytes(data.encode() if isinstance(data, str) else data)
        return str(path)

    return make


def _folder(tmp: Path) -> str:
    (tmp / "d").mkdir()
    return str(tmp / "d")


def _missing(tmp: Path) -> str:
    return str(tmp / "missing.json")


def _under_a_file(tmp: Path) -> str:
    (tmp / "f").write_text("x")
    return str(tmp / "f" / "sub")


def _rules_json_is_a_folder(tmp: Path) -> str:
    (tmp / "out" / "rules.json").mkdir(parents=True)
    return str(tmp / "out")


BAD_FILES: list[tuple[str, Callable[[Path], str], str]] = [
    ("missing", _missing, "no such"),
    ("folder", _folder, "is a folder"),
    ("binary", _write("b.json", BINARY), "not UTF-8 text"),
    ("empty", _write("e.json", ""), "not valid JSON"),
    ("invalid", _write("i.json", '{"mode": '), "not valid JSON"),
    ("nan", _write("n.json", '{"seed": NaN}'), "NaN is not JSON"),
    ("deep", _write("deep.json", "[" * 100_000 + "]" * 100_000), "nested too deeply"),
    ("array", _write("a.json", "[1, 2]"), "<root>"),
    ("impossible", _write("s.json", '{"seats": []}'), "seats"),
]

# (case, argv with {f} for the made path, maker of the path or None, text in the error line)
CASES: list[tuple[str, list[str], Callable[[Path], str] | None, str]] = [
    # the top level
    ("unknown command", ["shoot"], None, "No such command 'shoot'"),
    ("close command", ["simulat"], None, "Did you mean 'simulate'"),
    ("unknown option", ["--nope"], None, "No such option"),
    # simulate
    ("games text", ["simulate", "--games", "x"], None, "--games"),
    ("games nan", ["simulate", "--games", "nan"], None, "--games"),
    ("games inf", ["simulate", "--games", "inf"], None, "--games"),
    ("games negative", ["simulate", "--games", "-3"], None, "--games"),
    ("games zero", ["simulate", "--games", "0"], None, "--games"),
    ("games float", ["simulate", "--games", "1.5"], None, "--games"),
    ("seed negative", ["simulate", "--seed", "-1"], None, "--seed"),
    ("seed 2**64", ["simulate", "--seed", str(2**64)], None, "2**64"),
    ("seeds past 2**64", ["simulate", "--seed", str(2**64 - 1), "--games", "2"], None, "2**64"),
    ("seed huge", ["simulate", "--seed", "9" * 5000], None, "--seed"),
    ("seats", ["simulate", "--seats", "9"], None, "4, 5, 6, 7, 8, all"),
    ("seats nan", ["simulate", "--seats", "nan"], None, "--seats"),
    ("mode", ["simulate", "--mode", "chaos"], None, "double_agent"),
    ("players", ["simulate", "--players", "law=smart"], None, "bad player spec"),
    ("extra argument", ["simulate", "extra"], None, "unexpected extra argument"),
    # scenario
    ("scenario no file", ["scenario", "run"], None, "Missing argument"),
    ("scenario unknown", ["scenario", "walk"], None, "No such command"),
    *[(f"scenario {n}", ["scenario", "run", "{f}"], make, text) for n, make, text in BAD_FILES],
    ("scenario empty name", ["scenario", "run", ""], None, "name is empty"),
    ("illegal move", ["scenario", "run", SCENARIO, "--moves", "nope"], None, "illegal move"),
    ("huge move", ["scenario", "run", SCENARIO, "--moves", "x" * 100_000], None, "illegal move"),
    # rules
    ("rules unknown", ["rules", "print"], None, "No such command"),
    ("build under a file", ["rules", "build", "--dest", "{f}"], _under_a_file, "cannot create"),
    ("build to a file", ["rules", "build", "--dest", "{f}"], _write("f", "x"), "not a folder"),
    ("build empty dest", ["rules", "build", "--dest", ""], None, "empty"),
    ("build write fails", ["rules", "build", "--dest", "{f}"], _rules_json_is_a_folder, "cannot"),
    ("show format", ["rules", "show", "--format", "yaml"], None, "json, md"),
    ("show lang", ["rules", "show", "--lang", "xx"], None, "en, pt, es, fr"),
    ("show json lang", ["rules", "show", "--format", "json", "--lang", "pt"], None, "md"),
    ("schema name", ["rules", "schema", "Moves"], None, "Move, Decision"),
    ("validate kind", ["rules", "validate", "Moves", SCENARIO], None, "MatchRecord"),
    ("validate no file", ["rules", "validate", "Move"], None, "Missing argument"),
    *[
        (f"validate {n}", ["rules", "validate", "Move", "{f}"], make, text)
        for n, make, text in BAD_FILES[:3]
    ],
    # play's usage errors go through the same one-line report
    ("play seats text", ["play", "--seats", "x"], None, "--seats"),
    ("play unknown option", ["play", "--colour"], None, "No such option"),
]


@pytest.mark.parametrize(("case", "argv", "make", "text"), CASES, ids=[c[0] for c in CASES])
def test_hostile_input_is_one_line_and_exit_2(
    tmp_path: Path,
    case: str,
    argv: list[str],
    make: Callable[[Path], str] | None,
    text: str,
) -> None:
    made = make(tmp_path) if make is not None else ""
    args = [a.replace("{f}", made) for a in argv]
    r = runner.invoke(app, args)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code == 2, (r.stdout, r.stderr)
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error: "), lines
    assert text in lines[0], lines
    assert len(lines[0]) < 1_000
    assert "Traceback" not in r.output
    assert r.stdout == ""


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")
def test_build_into_proc_is_one_line_through_the_real_entry_point() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "bangarena.cli", "rules", "build", "--dest", "/proc/nope"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert out.stderr.startswith("error: --dest /proc/nope: ") and out.stderr.count("\n") == 1
    assert out.stdout == ""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_on_stdout_is_one_line() -> None:
    with open("/dev/full", "w") as full:
        out = subprocess.run(
            [sys.executable, "-m", "bangarena.cli", "rules", "show"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert out.returncode == 2
    assert out.stderr == "error: No space left on device\n"


def test_binary_scenario_through_the_real_entry_point(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_bytes(BINARY)
    out = subprocess.run(
        [sys.executable, "-m", "bangarena.cli", "scenario", "run", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert (
        out.stderr == f"error: {path}: not UTF-8 text (byte 128 is 0x80); expected a JSON "
        "scenario file\n"
    )


def test_scenario_reads_stdin() -> None:
    r = runner.invoke(app, ["scenario", "run", "-"], input=Path(SCENARIO).read_text())
    assert r.exit_code == 0, r.stderr
    assert '"decision"' in r.stdout


def test_a_bare_group_shows_its_help() -> None:
    r = runner.invoke(app, ["rules"])
    assert "build" in r.output and "validate" in r.output
    assert "error" not in r.output


def test_double_agent_at_4_seats_says_it_plays_classic() -> None:
    r = runner.invoke(app, ["simulate", "--games", "2", "--seats", "4", "--mode", "double_agent"])
    assert r.exit_code == 0, r.stderr
    notes = r.stderr.splitlines()
    assert len(notes) == 1 and "4 seats plays the classic roles" in notes[0]
    quiet = runner.invoke(
        app, ["simulate", "--games", "2", "--seats", "5", "--mode", "double_agent"]
    )
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_simulate_runs_up_to_the_last_seed() -> None:
    r = runner.invoke(
        app,
        ["simulate", "--games", "2", "--seed", str(2**64 - 2), "--seats", "4", "--mode", "classic"],
    )
    assert r.exit_code == 0, r.stderr
