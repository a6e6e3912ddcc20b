"""The replay data of one match, per viewer mode: the spectator and every seat.

A stored record holds the whole truth (the engine's omniscient events, every seat's prompts).
None of it goes to a page as it is: the match is replayed through the engine
(:func:`bangarena.engine.replay` move by move) and each mode gets only what
:meth:`Game.view` gives its viewer at each step — the spectator the public view, seat ``i``
its own view (its hand; the others' hands as counts). Each mode's data is built apart and
written to its own file, so the file a seat mode loads holds no other seat's hidden card.

What the record adds beside each move is split the same way. Every mode sees, per decision,
who decided, the decision kind, the move as the viewer saw it (a secret move's id only in its
seat's mode), whether the autopilot chose it and why, and each attempt's outcome, latency,
tokens and cost. Only the deciding seat's own mode sees the legal moves (their count depends
on its hand), the prompt (it renders the seat's view), the answer, the failure details, the
stated reason and notes, and its system prompt (it names the seat's role).

Format of one mode (JSON, ``version`` :data:`REPLAY_VERSION`)::

    {"version": 1, "mode": "spectator" | "seat-3", "seat": null | 3,
     "frames": [full, delta, …],   # frame t: the table when decision t is pending; the last
                                   # frame: the table at the end
     "log": [[line, …], …],        # per frame: the events that led to it, as the viewer saw them
     "moves": [{…}, …],            # per decision t: what is shown beside it (see _public_move)
     "system": str | null}         # the seat's system prompt (its own mode, with transcripts)

A frame is ``{"turn", "round", "hn", "deck", "disc", "top", "over", "win", "winners", "dec",
"hand", "role", "nd", "p": [player, …]}`` with a player ``{"c", "a", "l", "m", "h", "d", "ip",
"w", "st", "r", "rv"}`` (character, alive, life, max life, hand size, distance from the viewer,
cards in play, weapon, stars, role as the viewer knows it, role revealed). Frame 0 is whole;
each later frame holds only the keys that changed, and ``p`` only the players that changed
(``{"3": {"l": 2}}``): :func:`expand_frames` (and the page's script) rebuilds whole frames.

On disk each mode is a small script, ``BA.replayData("<mode>", "<base64 zlib JSON>")``: a
classic script loads from ``file://`` where ``fetch`` cannot, and the page inflates it with the
browser's own ``DecompressionStream`` (prompts repeat most of their text from one decision
to the next, so a 7-seat match with transcripts shrinks about tenfold).
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from bangarena.engine import EngineError, GameConfig, SeatView, new_game
from bangarena.harness.provenance import redact_credentials
from bangarena.prompts.catalog import Catalog, catalog
from bangarena.prompts.events import event_line

REPLAY_VERSION: Final = 1
SPECTATOR: Final = "spectator"
SCRIPT_PREFIX: Final = "BA.replayData("
ZLIB_LEVEL: Final = 6


class ReplayError(ValueError):
    """A record that cannot be replayed (not a match record, or moves the engine refuses)."""


def mode_name(seat: int | None) -> str:
    """``spectator`` or ``seat-<n>``: a mode's name and its file's stem."""
    return SPECTATOR if seat is None else f"seat-{seat}"


@dataclass(slots=True)
class MatchReplay:
    """One match ready for its page: the public header and one JSON-ready dict per mode."""

    header: dict[str, Any]
    modes: dict[str, dict[str, Any]] = field(default_factory=dict)

    def scripts(self) -> dict[str, str]:
        """Each mode's file text (``<mode>.js``), see :func:`mode_script`."""
        return {name: mode_script(name, data) for name, data in self.modes.items()}


def mode_script(name: str, data: Mapping[str, Any]) -> str:
    """The script that hands mode ``name``'s data to the page (base64 of zlib of JSON)."""
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    packed = base64.b64encode(zlib.compress(raw, ZLIB_LEVEL)).decode("ascii")
    return f'{SCRIPT_PREFIX}"{name}","{packed}");\n'


def read_mode_script(text: str) -> dict[str, Any]:
    """The mode data in a file written from :func:`mode_script` (for tests and tools)."""
    if not text.startswith(SCRIPT_PREFIX):
        raise ReplayError("not a replay mode script")
    _, packed, _ = text[len(SCRIPT_PREFIX) :].rsplit('"', 2)
    return json.loads(zlib.decompress(base64.b64decode(packed)))


def expand_frames(frames: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Whole frames from a mode's delta-coded ``frames``."""
    out: list[dict[str, Any]] = []
    for i, delta in enumerate(frames):
        if i == 0:
            out.append({**delta, "p": [dict(p) for p in delta["p"]]})
            continue
        prev = out[-1]
        cur = {**prev, **{k: v for k, v in delta.items() if k != "p"}}
        changed = delta.get("p", {})
        cur["p"] = [
            {**p, **changed[str(s)]} if str(s) in changed else p for s, p in enumerate(prev["p"])
        ]
        out.append(cur)
    return out


# -- frames ------------------------------------------------------------------------------------
def _player(p: Any) -> dict[str, Any]:
    return {
        "c": p.character,
        "a": p.alive,
        "l": p.life,
        "m": p.max_life,
        "h": p.hand_size,
        "d": p.distance,
        "ip": list(p.in_play),
        "w": p.weapon,
        "st": list(p.stars),
        "r": p.role,
        "rv": p.revealed,
    }


class _Frames:
    """One viewer's frames, delta-coded as they come. The engine hands a viewer the same
    PlayerView object while that seat is unchanged, so only new ones are converted and
    compared."""

    __slots__ = ("frames", "_last", "_views")

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []
        self._last: dict[str, Any] = {}
        self._views: list[Any] = []

    def add(self, view: SeatView) -> None:
        d = view.decision
        cur: dict[str, Any] = {
            "turn": view.turn,
            "round": view.round,
            "hn": view.high_noon,
            "deck": view.deck_size,
            "disc": view.discard_size,
            "top": view.discard_top,
            "over": view.over,
            "win": view.winning_team,
            "winners": list(view.winners),
            "dec": None if d is None else [d.seat, d.kind, d.source, d.needed, d.card],
            "hand": list(view.hand),
            "role": view.role,
            "nd": list(view.named_deputies),
        }
        pviews = view.players
        if not self.frames:
            cur["p"] = [_player(p) for p in pviews]
            self.frames.append(cur)
            self._last, self._views = cur, list(pviews)
            return
        last = self._last
        delta = {k: v for k, v in cur.items() if last[k] != v}
        players = list(last["p"])
        changed = {}
        for s, pv in enumerate(pviews):
            if pv is self._views[s]:
                continue
            new = _player(pv)
            old = players[s]
            diff = {k: v for k, v in new.items() if old[k] != v}
            if diff:
                changed[str(s)] = diff
                players[s] = new
        if changed:
            delta["p"] = changed
        cur["p"] = players
        self.frames.append(delta)
        self._last, self._views = cur, list(pviews)


# -- the log -----------------------------------------------------------------------------------
def _move_line(e: Mapping[str, Any], cat: Catalog) -> str:
    what = e["move"] if e["move"] is not None else f"a secret {e['move_kind']} move"
    return f"#{e['seat']} → {what}"


class _Lines:
    """Log lines of events. Views of one game share the dicts of events everyone sees, so each
    such event is rendered once for all viewers (the cache holds the dict: its id stays its)."""

    __slots__ = ("cat", "_seen")

    def __init__(self, cat: Catalog) -> None:
        self.cat = cat
        self._seen: dict[int, tuple[Mapping[str, Any], str | None]] = {}

    def line(self, e: Mapping[str, Any]) -> str | None:
        hit = self._seen.get(id(e))
        if hit is not None and hit[0] is e:
            return hit[1]
        if e["kind"] == "move":
            # Forced moves are told by the events they cause.
            line = None if e["auto"] else _move_line(e, self.cat)
        else:
            line = event_line(dict(e), self.cat)
        self._seen[id(e)] = (e, line)
        return line

    def lines(self, events: Iterable[Mapping[str, Any]]) -> list[str]:
        out = []
        for e in events:
            line = self.line(e)
            if line is not None:
                out.append(line)
        return out


def _see_move(shown: list[dict[str, Any]], events: Iterable[Mapping[str, Any]]) -> None:
    """Set the last decision's ``move`` to the chosen move as the viewer saw it in ``events``
    (None: a secret move), copying a dict shared with viewers that saw it otherwise."""
    last = shown[-1]
    seen = None
    for e in events:
        if e["kind"] == "move" and not e["auto"] and e["seat"] == last["seat"]:
            seen = e["move"]
            break
    if "move" not in last:
        last["move"] = seen
    elif last["move"] != seen:
        shown[-1] = {**last, "move": seen}


# -- moves -------------------------------------------------------------------------------------
def _public_attempt(a: Mapping[str, Any]) -> dict[str, Any]:
    usage = a.get("usage") or {}
    return {
        "n": a.get("n"),
        "o": a.get("outcome"),
        "lat": round(float(a.get("latency_s") or 0.0), 4),
        "in": usage.get("input_tokens", 0),
        "out": usage.get("output_tokens", 0),
        "usd": a.get("cost_usd"),
    }


def _own_attempts(attempts: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The attempts with what only the deciding seat may see: each attempt's messages beyond
    the previous attempt's (a retry repeats the whole conversation), the reply, the details."""
    out = []
    prev: list[Any] = []
    for a in attempts:
        item = _public_attempt(a)
        item.update(detail=a.get("detail"), named=a.get("move"), finish=a.get("finish_reason"))
        t = a.get("transcript")
        if t:
            msgs = list(t.get("messages") or [])
            fresh = msgs[len(prev) :] if msgs[: len(prev)] == prev else msgs
            item["msgs"] = [[m.get("role"), m.get("content")] for m in fresh]
            item["reply"] = t.get("raw_reply")
            item["refusal"] = t.get("refusal")
            prev = msgs
        out.append(item)
    return out


def _public_move(m: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "seat": m["seat"],
        "kind": m["decision"],
        "how": m["how"],
        "why": m.get("autopilot_reason"),
        "by": m.get("chosen_by"),
        "s": round(float(m.get("elapsed_s") or 0.0), 4),
        "limit": m.get("time_limit_s"),
        "att": [_public_attempt(a) for a in m.get("attempts") or []],
    }


def _own_move(m: Mapping[str, Any], legal: Sequence[str]) -> dict[str, Any]:
    out = _public_move(m)
    out.update(
        legal=list(legal),
        reason=m.get("reason"),
        notes=m.get("notes"),
        att=_own_attempts(m.get("attempts") or []),
    )
    return out


# -- the whole match ---------------------------------------------------------------------------
def _header(record: Mapping[str, Any], row: Mapping[str, Any] | None) -> dict[str, Any]:
    """What every mode shows above the table: who sits where and the match's identity (not the
    roles, not the result: the last frame shows those, as the engine makes them public)."""
    lineup = list((row or {}).get("lineup") or [])
    seats = []
    for s in record["seats"]:
        i = s["seat"]
        seats.append(
            {
                "seat": i,
                "participant": lineup[i] if i < len(lineup) else s.get("display_name"),
                "name": s.get("display_name"),
                # Records are written redacted; a page is published, so once more.
                "spec": redact_credentials(str(s.get("spec") or "")),
                "kind": s.get("kind"),
                "controller": s.get("controller"),
                "model": s.get("model"),
            }
        )
    game = record["game"]
    row = row or {}
    return {
        "key": record.get("match_id"),
        "suite": row.get("suite"),
        "deal": row.get("deal"),
        "rotation": row.get("rotation"),
        "status": record.get("status"),
        "config": dict(game["config"]),
        "rules_version": game.get("rules_version"),
        "engine_version": game.get("engine_version"),
        "started_at": record.get("started_at"),
        "duration_s": record.get("duration_s"),
        "decisions": len(game["moves"]),
        "transcripts": bool(record.get("config", {}).get("transcripts")),
        "seats": seats,
    }


def build_replay(
    record: Mapping[str, Any], row: Mapping[str, Any] | None = None, lang: str = "en"
) -> MatchReplay:
    """Replay ``record`` (a match record as JSON) through the engine and build every mode's
    data; ``row`` (the store's match row) names the participants. Raises :class:`ReplayError`
    for a record the engine cannot replay."""
    try:
        game_rec = record["game"]
        config = GameConfig(**game_rec["config"])
        game = new_game(config, game_rec["seed"])
        moves = [tuple(m) for m in game_rec["moves"]]
        annotations = {m["index"]: m for m in record.get("moves") or []}
    except (KeyError, TypeError, ValueError, EngineError) as e:
        raise ReplayError(f"not a replayable match record: {e}") from None
    lines = _Lines(catalog(lang))
    viewers: list[int | None] = [None, *range(config.seats)]
    cursors = dict.fromkeys(viewers, 0)
    frames = {v: _Frames() for v in viewers}
    logs: dict[int | None, list[list[str]]] = {v: [] for v in viewers}
    shown: dict[int | None, list[dict[str, Any]]] = {v: [] for v in viewers}
    for t in range(len(moves) + 1):
        for v in viewers:
            view = game.view(v, since=cursors[v])
            cursors[v] = view.cursor
            frames[v].add(view)
            logs[v].append(lines.lines(view.events))
            if t:
                _see_move(shown[v], view.events)
        if t == len(moves):
            break
        seat, move_id = moves[t]
        note = annotations.get(t) or {"seat": seat, "decision": game.decision.kind, "how": "chosen"}
        # The seats that did not decide share one dict (the secret part is only the mover's).
        public = _public_move(note)
        for v in viewers:
            shown[v].append(
                _own_move(note, [m.id for m in game.legal_moves]) if v == seat else public
            )
        try:
            game.apply(seat, move_id)
        except EngineError as e:
            raise ReplayError(f"move {t} ({seat}, {move_id!r}) does not replay: {e}") from None
    system = {s["seat"]: s.get("system_prompt") for s in record["seats"]}
    out = MatchReplay(_header(record, row))
    for v in viewers:
        out.modes[mode_name(v)] = {
            "version": REPLAY_VERSION,
            "mode": mode_name(v),
            "seat": v,
            "frames": frames[v].frames,
            "log": logs[v],
            "moves": shown[v],
            "system": system.get(v) if v is not None else None,
        }
    return out


__all__ = [
    "REPLAY_VERSION",
    "SPECTATOR",
    "MatchReplay",
    "ReplayError",
    "build_replay",
    "expand_frames",
    "mode_name",
    "mode_script",
    "read_mode_script",
]
