"""The processes and Ray backends give the same records as the local one (one Ray cluster per
test session: ``ray.init(num_cpus=2, include_dashboard=False)``); the driver stays the single
writer, and a backend that cannot start is bad input."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from evals_runner_support import run, runner_suite, stored_records

from bangarena.evals.runner import RunInputError


def small():  # noqa: ANN201
    """The runner suite on one deal: 8 matches, both tables (transcripts on and off)."""
    return runner_suite(**{"deals = 2": "deals = 1"})


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[object]:
    ray = pytest.importorskip("ray")
    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def local_records(tmp_path_factory: pytest.TempPathFactory) -> dict:
    url = f"sqlite:///{tmp_path_factory.mktemp('local') / 'local.db'}"
    assert run(small(), url).exit_code == 0
    return stored_records(url, "runner")


def test_processes_give_the_same_records_as_local(local_records: dict, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'processes.db'}"
    result = run(small(), url, backend="processes", workers=2)
    assert result.exit_code == 0 and result.matches_run_now == 8
    assert result.tally.decisions > 0  # the workers' counts came back with their batches
    assert stored_records(url, "runner") == local_records


def test_ray_gives_the_same_records_as_local(
    ray_cluster: object, local_records: dict, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'ray.db'}"
    result = run(small(), url, backend="ray")
    assert result.exit_code == 0 and result.matches_run_now == 8
    assert stored_records(url, "runner") == local_records
    assert ray_cluster.is_initialized()  # a cluster the runner did not start is left running


def test_a_ray_cluster_that_cannot_be_reached_is_bad_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("ray")

    class Unreachable:
        @staticmethod
        def is_initialized() -> bool:
            return False

        @staticmethod
        def init(**kwargs: object) -> None:
            raise ConnectionError(f"Could not connect to {kwargs.get('address')}\nmore lines")

    monkeypatch.setitem(__import__("sys").modules, "ray", Unreachable)
    with pytest.raises(RunInputError, match="cannot start Ray at '10.0.0.1:6379'"):
        run(runner_suite(), f"sqlite:///{tmp_path / 'x.db'}", backend="ray",
            ray_address="10.0.0.1:6379")  # fmt: skip
