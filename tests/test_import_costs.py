"""The heavy SDKs load only where they are used: importing the command line, its families, the
library's entry points and the test modules that talk to one SDK (as pytest's collection does,
in every xdist worker) loads none of litellm (~5 s), anthropic, openai, a2a-sdk, mcp, ray or
schemathesis. Each of them costs seconds per process; a test or a command that needs one
imports it when it runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SDKS = frozenset({"litellm", "anthropic", "openai", "a2a", "mcp", "ray", "schemathesis"})

LIBRARY = (
    "bangarena.cli.app",
    "bangarena.cli.eval",
    "bangarena.cli.play",
    "bangarena.cli.serve",
    "bangarena.cli.simulate",
    "bangarena.harness.providers",
    "bangarena.harness.providers.openai_provider",
    "bangarena.harness.providers.anthropic_provider",
    "bangarena.harness.providers.litellm_provider",
    "bangarena.harness.seats.factory",
    "bangarena.harness.match",
    "bangarena.evals.runner",
    "bangarena.service.app",
)
"""Library modules whose import must not load an SDK."""

TEST_MODULES = (
    "test_providers_litellm",
    "test_providers_anthropic",
    "test_providers_openai",
    "test_providers_pricing",
    "test_rules_machine_schemas",
    "test_agents_mcp",
    "fakes.agent_a2a",
)
"""Test modules (and helpers) that use an SDK in their tests, not at import."""


def _roots_after(modules: tuple[str, ...]) -> set[str]:
    """The top-level packages a fresh interpreter holds after importing ``modules`` (with the
    tests folder on the path, as pytest puts it)."""
    probe = (
        f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        + "".join(f"import {m}\n" for m in modules)
        + "import json; print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_importing_the_library_and_collecting_the_sdk_tests_loads_no_sdk() -> None:
    loaded = _roots_after(LIBRARY + TEST_MODULES)
    # the probe saw the imports (the project, the tests' helpers, what they build on) …
    assert {"bangarena", "fakes", "pytest", "fastapi", "httpx"} <= loaded
    # … and no SDK among them
    assert not loaded & SDKS, sorted(loaded & SDKS)
