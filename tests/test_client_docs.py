"""The runnable examples of docs/for-ai-developers.md and of the README's "Connect a model over
HTTP" run against a real seat service: every fenced block whose info string is
``bash runnable`` or ``python runnable``. The bash blocks of a page run in order as one script
(curl and jq, ``set -euo pipefail``), with ``BANGARENA_URL`` and ``BANGARENA_ADMIN_TOKEN`` set;
its python blocks run in order in one namespace, with the same environment."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
from service_support import running_service, service_settings

from bangarena.client import AdminClient, bot, remote

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "for-ai-developers.md"
README = ROOT / "README.md"
FENCE = re.compile(r"^```(\w+)((?: [\w-]+)*)\n(.*?)^```", re.M | re.S)


def runnable(path: Path, lang: str) -> list[str]:
    """The bodies of the blocks of ``path`` marked ``<lang> runnable``, in order."""
    return [
        body
        for fence_lang, flags, body in FENCE.findall(path.read_text("utf-8"))
        if fence_lang == lang and "runnable" in flags.split()
    ]


def readme_section() -> str:
    text = README.read_text("utf-8")
    start = text.index("## Connect a model over HTTP")
    return text[start : text.index("\n## ", start + 1)]


@pytest.fixture(scope="module")
def svc(tmp_path_factory: pytest.TempPathFactory):
    with running_service(service_settings(tmp_path_factory.mktemp("docs"))) as running:
        yield running


def test_the_page_has_runnable_examples_of_both_kinds() -> None:
    assert len(runnable(PAGE, "bash")) >= 2 and len(runnable(PAGE, "python")) >= 2
    section = readme_section()
    assert "bangarena serve" in section
    (block,) = [b for lang, flags, b in FENCE.findall(section) if "runnable" in flags]
    assert len(block.strip().splitlines()) < 10, "the README shows it in under ten lines"


@pytest.mark.skipif(not (shutil.which("curl") and shutil.which("jq")), reason="curl and jq")
def test_the_bash_examples_run(svc, tmp_path: Path) -> None:
    script = "set -euo pipefail\n" + "\n".join(runnable(PAGE, "bash"))
    env = os.environ | {"BANGARENA_URL": svc.url, "BANGARENA_ADMIN_TOKEN": svc.admin_token}
    out = subprocess.run(
        ["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert '"decision_id"' in out.stdout and svc.admin_token not in out.stdout
    assert out.stdout.split()[-1] in ("aborted", "match_over")  # the cancel, the last block


def test_the_python_examples_run(svc, monkeypatch, capsys) -> None:
    monkeypatch.setenv("BANGARENA_URL", svc.url)
    monkeypatch.setenv("BANGARENA_ADMIN_TOKEN", svc.admin_token)
    namespace: dict[str, object] = {"__name__": "docs_example"}
    for block in runnable(PAGE, "python"):
        exec(compile(block, str(PAGE), "exec"), namespace)
    printed = capsys.readouterr().out
    assert "end" in printed and namespace["events"]


def test_the_service_serves_the_page_at_developers(svc) -> None:
    page = httpx.get(f"{svc.url}/developers", timeout=10)
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "connect a model or an agent to a seat" in page.text
    assert "<table>" in page.text and "decision_id" in page.text


def test_the_readme_example_runs(svc) -> None:
    with AdminClient(svc.url, svc.admin_token) as admin:
        made = admin.create_match([remote("readme"), *[bot("rule")] * 4], seed=2)
    (block,) = [b for _, flags, b in FENCE.findall(readme_section()) if "runnable" in flags]
    namespace = {"url": svc.url, "token": made.token_for(0), "match_id": made.match_id}
    exec(compile(block, str(README), "exec"), namespace)
    with AdminClient(svc.url, svc.admin_token) as admin:
        status = admin.status(made.match_id)
    assert status["status"] == "over" and namespace["result"] == status["result"]
