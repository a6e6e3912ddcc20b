"""Every ``bangarena play`` example in README.md and docs/*.md evaluates something: played offline
(model and human seats replaced by scripted ones, which answer through the same text path), each
seat that is not a bot gets at least one decision."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bangarena.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BOTS = {"rule", "random"}
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
# options whose value is dropped (a file the example names) or replaced (where the record goes)
DROP_WITH_VALUE = {"--models-file"}
FLAGS = {"--no-transcripts", "--no-notes", "--constrain-ids", "--quiet"}


def play_examples() -> list[tuple[str, list[str]]]:
    """(where, the arguments after ``play``) for every ``bangarena play`` in a code block."""
    found = []
    for doc in DOCS:
        for block in FENCE.findall(doc.read_text("utf-8")):
            text = re.sub(r"\\\n\s*", " ", block)  # shell line continuations
            for line in text.splitlines():
                line = line.split(" #", 1)[0] if not line.lstrip().startswith("#") else ""
                for part in re.split(r"&&|;|\|\|", line):
                    if "bangarena" not in part or "play" not in part:
                        continue  # other commands (curl, heredocs) need not be shell words
                    words = shlex.split(part)
                    for i, w in enumerate(words[:-1]):
                        if w.endswith("bangarena") and words[i + 1] == "play":
                            found.append((f"{doc.name}: {part.strip()}", words[i + 2 :]))
    return found


def offline(args: list[str], out: Path) -> tuple[list[str], set[int]]:
    """The example's arguments with every non-bot seat scripted, and the seats that must play."""
    seats, fill, given = 5, "rule", {}
    rest: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in FLAGS:
            i += 1
            continue
        value = args[i + 1]
        if a == "--seats":
            seats = int(value)
        elif a == "--fill":
            fill = value
        elif a == "--seat":
            n, _, spec = value.partition("=")
            given[int(n)] = spec
        elif a == "--out" or a in DROP_WITH_VALUE:
            pass
        else:
            rest += [a, value]
        i += 2
    specs = [given.get(n, fill) for n in range(seats)]
    players = {n for n, s in enumerate(specs) if s not in BOTS}
    seat_args = [f"--seat={n}={s if s in BOTS else 'scripted'}" for n, s in enumerate(specs)]
    return ["--seats", str(seats), *rest, *seat_args, "--quiet", "--no-transcripts",
            "--out", str(out)], players  # fmt: skip


EXAMPLES = play_examples()


def test_the_docs_have_play_examples() -> None:
    where = {w.split(":")[0] for w, _ in EXAMPLES}
    assert len(EXAMPLES) >= 5 and {"README.md", "model-seats.md"} <= where


@pytest.mark.parametrize(("where", "args"), EXAMPLES, ids=[w for w, _ in EXAMPLES])
def test_every_non_bot_seat_of_an_example_gets_a_decision(
    where: str, args: list[str], tmp_path: Path
) -> None:
    out = tmp_path / "match.json"
    argv, players = offline(args, out)
    assert players, f"{where}: no seat to evaluate"
    r = CliRunner().invoke(
        app, ["play", *argv], env={"OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": ""}
    )
    assert r.exit_code == 0, r.output
    record = json.loads(out.read_text("utf-8"))
    decided = {m["seat"] for m in record["moves"]}
    idle = sorted(players - decided)
    assert not idle, f"{where}: seats {idle} never decide (eliminated first?) — pick another seed"


def test_the_substitution_catches_an_example_that_evaluates_nothing(tmp_path: Path) -> None:
    """The README's model example as it was (seed 7): both model seats die before moving."""
    argv, players = offline(
        shlex.split("--seats 5 --seed 7 --seat 0=openai:m --seat 1=anthropic:m --fill rule"),
        tmp_path / "m.json",
    )
    r = CliRunner().invoke(app, ["play", *argv])
    assert r.exit_code == 0, r.output
    record = json.loads((tmp_path / "m.json").read_text("utf-8"))
    assert players == {0, 1} and not players & {m["seat"] for m in record["moves"]}
