"""``bangarena.client`` against the real seat service (uvicorn on loopback): a full match with
two remote agents (a sync and an async play loop) and three bots; every typed error from a
real answer; the event stream resumed after the connection is cut under it (a loopback proxy
resets it mid-stream) and after a client is closed and reopened with the last id, with no event
lost or doubled; and the agents of ``examples/agents/`` end to end (the random one as a
subprocess, the OpenAI one through the real ``openai`` SDK against the fake OpenAI server)."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import logging
import os
import random
import selectors
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from fakes import FakeBehaviour, FakeServer, actions
from service_support import running_service, service_settings

from bangarena.client import (
    AdminClient,
    AsyncSeatClient,
    BadRequest,
    Decision,
    Forbidden,
    IllegalMove,
    MatchOver,
    NotFound,
    SeatClient,
    StaleDecision,
    Unauthorized,
    bot,
    remote,
)

ROOT = Path(__file__).resolve().parents[1]
AGENTS = ROOT / "examples" / "agents"


@pytest.fixture(scope="module")
def svc(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    with running_service(service_settings(tmp_path_factory.mktemp("client"))) as running:
        yield running


@pytest.fixture(scope="module")
def admin(svc) -> Iterator[AdminClient]:
    with AdminClient(svc.url, svc.admin_token) as client:
        yield client


def _wait_over(admin: AdminClient, match_id: str, timeout: float = 20.0) -> dict:
    end = time.monotonic() + timeout
    while True:
        status = admin.status(match_id)
        if status["status"] in ("over", "aborted") or time.monotonic() > end:
            assert status["status"] == "over", status
            return status
        time.sleep(0.02)


def test_a_match_with_two_remote_agents_and_three_bots_finishes(svc, admin) -> None:
    made = admin.create_match(
        [remote("sync-agent"), bot("rule"), remote("async-agent"), bot("rule"), bot("random")],
        seed=11,
        time_per_move=30,
    )
    assert made.remote_seats == [0, 2] and made.status == "waiting"
    seen: dict[int, list[Decision]] = {0: [], 2: []}
    results: dict[int, object] = {}
    rng = random.Random(3)

    def sync_policy(decision: Decision) -> str:
        assert decision.seat == 0 and decision.match_id == made.match_id
        seen[0].append(decision)
        return rng.choice(decision.move_ids)

    async def async_policy(decision: Decision) -> str:
        seen[2].append(decision)
        await asyncio.sleep(0)
        return decision.move_ids[-1]

    def run_sync() -> None:
        with SeatClient(svc.url, made.token_for(0), match_id=made.match_id) as seat:
            results[0] = seat.play(sync_policy, wait=10)

    async def run_async() -> None:
        async with AsyncSeatClient(svc.url, made.token_for(2), match_id=made.match_id) as seat:
            results[2] = await seat.play(async_policy, wait=10)

    threads = [
        threading.Thread(target=run_sync),
        threading.Thread(target=lambda: asyncio.run(run_async())),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads)
    status = _wait_over(admin, made.match_id)
    assert status["result"] is not None and status["decisions"] > 0
    # each seat decided, and each play loop came back with the result (or None: it was
    # eliminated before the end, which its 410 says)
    assert seen[0] and seen[2]
    for seat in (0, 2):
        # None only for a seat eliminated while the match went on (its 410 says so)
        alive = status["players"][seat]["alive"]
        assert results[seat] == status["result"] or (not alive and results[seat] is None)
    ids = [d.decision_id for d in seen[0]]
    assert ids == sorted(set(ids)), "each decision was given and answered once"


def test_every_typed_error_comes_from_a_real_answer(svc, admin, caplog) -> None:
    caplog.set_level(logging.DEBUG)  # httpx and httpcore log every request: never the token
    # by name too: importing litellm (another test of this worker) sets httpx's logger to WARNING
    caplog.set_level(logging.DEBUG, logger="httpx")
    caplog.set_level(logging.DEBUG, logger="httpcore")
    made = admin.create_match(
        [remote("a"), bot("rule"), remote("b"), bot("rule"), bot("rule")], seed=2, time_per_move=30
    )
    other = admin.create_match([remote("c"), *[bot("random")] * 3], time_per_move=30)
    with SeatClient(svc.url, made.token_for(2), match_id=made.match_id) as seat_2:
        assert seat_2.wait_decision(wait=0) is None  # connected once: seat 0's poll starts it
    with SeatClient(svc.url, made.token_for(0), match_id=made.match_id) as seat:
        decision = seat.wait_decision(wait=10)  # seed 2: seat 0 is the sheriff, first to play
        assert decision is not None and decision.seat == 0
        with pytest.raises(IllegalMove) as illegal:
            seat.move(decision.decision_id, "no_such_move")
        assert set(illegal.value.legal) == set(decision.move_ids) and illegal.value.reason
        with pytest.raises(StaleDecision) as stale:
            seat.move(decision.decision_id + 1000, decision.move_ids[0])
        assert stale.value.status == 409 and stale.value.reason
        with pytest.raises(BadRequest):
            seat.move(-1, "end_turn")  # a malformed body: a validation 422, not illegal_move
        events = seat.move(decision.decision_id, decision.move_ids[0])
        assert isinstance(events, list) and events
        assert seat.view()["seat"] == 0
    for token, match_id, cls in [
        ("not-a-token-of-this-service", made.match_id, Unauthorized),
        (made.token_for(0), other.match_id, Forbidden),  # another match's token
        (made.spectator_token, made.match_id, Forbidden),  # a spectator acting
        (made.token_for(0), "no-such-match", NotFound),
    ]:
        with SeatClient(svc.url, token, match_id=match_id) as seat, pytest.raises(cls) as err:
            seat.move(0, "end_turn")
        assert err.value.reason and token not in str(err.value)
    with pytest.raises(Unauthorized):
        AdminClient(svc.url, "wrong-admin-token").create_match([bot()] * 4)
    # to the end: both remote seats autopiloted by random play loops, then 410 with the result
    threads = [
        threading.Thread(target=_play_randomly, args=(svc.url, made.token_for(s), made.match_id))
        for s in (0, 2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    status = _wait_over(admin, made.match_id)
    with SeatClient(svc.url, made.token_for(2), match_id=made.match_id) as seat:
        with pytest.raises(MatchOver) as over:
            seat.wait_decision(wait=1)
        assert over.value.result == status["result"]
        with pytest.raises(MatchOver):
            seat.move(0, "end_turn")
    assert "HTTP Request" in caplog.text
    for token in (made.token_for(0), made.token_for(2), svc.admin_token):
        assert token not in caplog.text


def _play_randomly(url: str, token: str, match_id: str) -> None:
    rng = random.Random(match_id)
    with SeatClient(url, token, match_id=match_id) as seat:
        seat.play(lambda d: rng.choice(d.move_ids), wait=10)


class CuttingProxy:
    """A loopback TCP proxy to the service whose open connections can be reset (RST) at will:
    the client sees its stream die mid-way, as when a server or a middlebox drops it. One
    thread with a selector does everything, so a reset is a real abortive close."""

    def __init__(self, target: str) -> None:
        host, port = target.removeprefix("http://").split(":")
        self.target = (host, int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.setblocking(False)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.cuts = 0
        self._peer: dict[socket.socket, socket.socket] = {}
        self._wake_r, self._wake_w = socket.socketpair()
        self._cut_done = threading.Event()
        self._closing = False
        self._sel = selectors.DefaultSelector()
        self._sel.register(self.listener, selectors.EVENT_READ, "accept")
        self._sel.register(self._wake_r, selectors.EVENT_READ, "wake")
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._closing:
            for key, _ in self._sel.select(0.5):
                if key.data == "accept":
                    client, _ = self.listener.accept()
                    upstream = socket.create_connection(self.target)
                    for a, b in ((client, upstream), (upstream, client)):
                        a.setblocking(True)
                        self._peer[a] = b
                        self._sel.register(a, selectors.EVENT_READ, "pipe")
                elif key.data == "wake":
                    self._wake_r.recv(64)
                    self._reset_all()
                    self._cut_done.set()
                else:
                    src = key.fileobj
                    assert isinstance(src, socket.socket)
                    try:
                        data = src.recv(65536)
                        if data:
                            self._peer[src].sendall(data)
                            continue
                    except OSError:
                        pass
                    self._drop(src)
        self._reset_all()

    def _drop(self, sock: socket.socket) -> None:
        other = self._peer.pop(sock, None)
        for s in (sock, other):
            if s is not None:
                self._peer.pop(s, None)
                with contextlib.suppress(KeyError, ValueError):
                    self._sel.unregister(s)
                s.close()

    def _reset_all(self) -> None:
        for s in list(self._peer):
            with contextlib.suppress(KeyError, ValueError):
                self._sel.unregister(s)
            with contextlib.suppress(OSError):
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()  # linger 0: an RST, not a FIN
        self._peer.clear()

    def cut(self) -> None:
        """Reset every open connection now."""
        self._cut_done.clear()
        self._wake_w.send(b"x")
        assert self._cut_done.wait(5)
        self.cuts += 1

    def close(self) -> None:
        self._closing = True
        self._wake_w.send(b"x")
        self._thread.join(5)
        self.listener.close()
        self._wake_r.close()
        self._wake_w.close()


def _game_events(events) -> list[tuple[str, object]]:
    return [(e.id, e.data) for e in events if e.event == "game"]


def test_the_event_stream_resumes_after_cuts_with_nothing_lost_or_doubled(svc, admin) -> None:
    made = admin.create_match(
        [remote("streamer"), bot("rule"), bot("rule"), bot("rule"), bot("random")],
        seed=5,
        time_per_move=30,
    )
    token = made.token_for(0)

    def slow(decision: Decision) -> str:
        time.sleep(0.01)  # keep the match live while the stream is cut under the reader
        return decision.move_ids[0]

    player = threading.Thread(
        target=lambda: SeatClient(svc.url, token, match_id=made.match_id).play(slow, wait=10)
    )
    proxy = CuttingProxy(svc.url)
    got = []
    decisions: list[int] = []
    try:
        player.start()
        with SeatClient(proxy.url, token, match_id=made.match_id) as seat:
            for event in seat.events():
                if event.event == "decision":
                    decisions.append(event.data["decision_id"])
                got.append(event)
                if len(got) in (5, 40, 41, 120):
                    proxy.cut()
        player.join(60)
    finally:
        proxy.close()
    assert proxy.cuts >= 4 and got[-1].event == "end"
    assert len(decisions) == len(set(decisions)), "a decision was given twice"
    with SeatClient(svc.url, token, match_id=made.match_id) as seat:
        truth = list(seat.events())  # the match is over: one clean read from the start
    assert _game_events(got) == _game_events(truth)
    ids = [int(i) for i, _ in _game_events(truth)]
    assert ids == list(range(ids[0], ids[0] + len(ids))), "ids are consecutive cursors"

    # a client closed after some events and a new one resumed from its last id: the same
    first = []
    with SeatClient(svc.url, token, match_id=made.match_id) as seat:
        for event in seat.events():
            first.append(event)
            if len(first) == 17:
                break
    with SeatClient(svc.url, token, match_id=made.match_id) as seat:
        rest = list(seat.events(last_event_id=first[-1].id))
    assert _game_events(first + rest) == _game_events(truth)


async def test_the_async_stream_reconnects_too(svc, admin) -> None:
    made = await asyncio.to_thread(
        admin.create_match, [remote("x"), *[bot("random")] * 3], seed=4, start="now"
    )
    proxy = CuttingProxy(svc.url)
    got = []
    try:
        async with AsyncSeatClient(proxy.url, made.token_for(0), match_id=made.match_id) as seat:
            async for event in seat.events():
                got.append(event)
                if event.event == "decision":
                    if proxy.cuts < 3:
                        proxy.cut()  # cut right after a decision, then answer it
                    with contextlib.suppress(StaleDecision, MatchOver):
                        async with AsyncSeatClient(
                            svc.url, made.token_for(0), match_id=made.match_id
                        ) as mover:
                            await mover.move(
                                event.data["decision_id"], event.data["moves"][0]["id"]
                            )
    finally:
        proxy.close()
    assert got[-1].event == "end" and proxy.cuts >= 1
    async with AsyncSeatClient(svc.url, made.token_for(0), match_id=made.match_id) as seat:
        truth = [e async for e in seat.events()]
    assert _game_events(got) == _game_events(truth)


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"agents_{name}", AGENTS / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_polls_carry_the_prompts_asked_for(svc, admin) -> None:
    """``prompt=full|turn|none``: the same decision with both prompts, with the turn prompt
    alone (the client fills in the system prompt it kept from its first poll) or with none;
    the event stream's decisions likewise."""
    import httpx

    made = admin.create_match([remote("p"), *[bot("rule")] * 4], seed=6, start="now")
    token, url = made.token_for(0), f"{svc.url}/v1/matches/{made.match_id}/decision"
    raw = httpx.Client(headers={"Authorization": f"Bearer {token}"}, timeout=30)
    with (
        raw,
        SeatClient(svc.url, token, match_id=made.match_id) as lean,
        SeatClient(svc.url, token, match_id=made.match_id) as full,
    ):
        for _ in range(4):
            d = lean.wait_decision(10, prompt="turn")
            assert d is not None
            whole = full.wait_decision(0)
            assert whole is not None and whole.decision_id == d.decision_id
            assert d.prompt == whole.prompt and d.prompt.system and d.prompt.turn
            bare = full.wait_decision(0, prompt="none")
            assert bare is not None and bare.prompt.system == bare.prompt.turn == ""
            bodies = {part: raw.get(url, params={"prompt": part}) for part in ("turn", "none")}
            assert bodies["turn"].json()["prompt"] == {"system": None, "turn": d.prompt.turn}
            assert bodies["none"].json()["prompt"] is None
            assert bodies["none"].json()["moves"] == bodies["turn"].json()["moves"]
            assert (
                len(bodies["none"].content)
                < len(bodies["turn"].content)
                < 0.5 * len(json.dumps(whole.model_dump(by_alias=True)))
            )
            for event in full.events(reconnect=False, prompt="none"):  # the stream's too
                if event.event == "decision":
                    sent = event.data
                    assert sent["decision_id"] == d.decision_id and sent["prompt"] is None
                    break
            lean.move(d.decision_id, d.move_ids[0])
        bad = raw.get(url, params={"prompt": "some"})
        assert bad.status_code == 422 and "prompt" in bad.text
        with pytest.raises(ValueError, match="prompt must be one of"):
            lean.wait_decision(0, prompt="half")  # type: ignore[arg-type]


def test_the_random_agent_plays_a_match_end_to_end(svc, admin) -> None:
    made = admin.create_match([remote("random-agent"), *[bot("rule")] * 4], seed=2)
    argv = [sys.executable, str(AGENTS / "random_agent.py"), "--url", svc.url,
            "--match", made.match_id, "--seed", "1", "--wait", "10"]  # fmt: skip
    env = os.environ | {"BANGARENA_SEAT_TOKEN": made.token_for(0)}  # not on the command line
    out = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    printed = json.loads(out.stdout.strip().splitlines()[-1])
    status = _wait_over(admin, made.match_id)
    assert printed["match_id"] == made.match_id and printed["result"] == status["result"]
    bad = subprocess.run(
        [*argv[:-4], "--token", "not-a-token"], capture_output=True, text=True, timeout=60
    )
    assert bad.returncode == 1 and "401" in bad.stderr


def test_the_openai_agent_plays_through_the_sdk_and_never_forfeits(svc, admin, capsys) -> None:
    agent = _load("openai_agent")
    made = admin.create_match([remote("gpt-fake"), *[bot("rule")] * 4], seed=4)
    # decision 1: not JSON → re-asked → an illegal id → the first legal move;
    # decision 2: prose → re-asked → a valid answer; then valid answers from the schema's enum
    behaviour = FakeBehaviour(
        [actions.invalid_json(), actions.illegal_id(), actions.reply_text("I shoot!")]
    )
    with FakeServer("openai", behaviour) as fake:
        code = agent.main(
            [
                "--url",
                svc.url,
                "--match",
                made.match_id,
                # one argument with '=': a token may start with '-', which argparse would read
                # as an option (it failed once in CI)
                f"--token={made.token_for(0)}",
                "--model",
                "fake-model",
                "--base-url",
                fake.base_url,
                "--wait",
                "10",
            ]  # fmt: skip
        )
    assert code == 0
    printed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    counts = printed["counts"]
    assert counts["fallbacks"] == 1 and counts["reasks"] == 2
    assert counts["answers"] >= 2 and counts["calls"] == len(fake.requests)
    first, second = fake.requests[0].body, fake.requests[1].body
    assert [m["role"] for m in first["messages"]] == ["system", "user"]
    assert first["response_format"]["type"] == "json_schema"
    enum = first["response_format"]["json_schema"]["schema"]["properties"]["move"]["enum"]
    feedback = second["messages"][-1]["content"]
    assert second["messages"][-2]["role"] == "assistant" and all(i in feedback for i in enum)
    status = _wait_over(admin, made.match_id)
    # the result, or None when the agent's seat was eliminated while the match went on
    alive = status["players"][0]["alive"]
    assert printed["result"] == status["result"] or (not alive and printed["result"] is None)


def test_the_openai_agent_parses_exactly_one_json_object() -> None:
    agent = _load("openai_agent")
    legal = ["end_turn", "shot@1"]
    assert agent.parse_answer('{"reason": "x", "move": "shot@1"}', legal) == ("shot@1", "")
    assert agent.parse_answer('```json\n{"move": "end_turn"}\n```', legal)[0] == "end_turn"
    for bad in ("", "shot@1", '["shot@1"]', '{"move": 3}', '{"move": "shot@9"}', "{} {}"):
        move, problem = agent.parse_answer(bad, legal)
        assert move is None and problem


def test_the_agents_refuse_to_start_without_a_token(monkeypatch) -> None:
    monkeypatch.delenv("BANGARENA_SEAT_TOKEN", raising=False)
    agent = _load("random_agent")
    with pytest.raises(SystemExit) as exit_:
        agent.parse_args(["--url", "http://127.0.0.1:1", "--match", "m"])
    assert exit_.value.code == 2


def test_a_dead_service_is_a_transport_error_not_a_hang() -> None:
    from bangarena.client import TransportError

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    with SeatClient(f"http://127.0.0.1:{port}", "t", match_id="m", timeout=2) as seat:
        with pytest.raises(TransportError):
            seat.wait_decision(wait=0)
        with pytest.raises(TransportError):
            list(seat.events(reconnect=False))
