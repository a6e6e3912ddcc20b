"""The last JSON object in a text, found in linear time: the answer parser's scanner.

A model's reply is hostile input. ``json.JSONDecoder.raw_decode`` tried at every ``{`` is
quadratic (a failed try costs up to the rest of the text, and its error message counts lines
from the start) and recursive (deep nesting raises RecursionError). Here a left-to-right scan
finds the balanced ``{…}`` spans, and json.loads decodes candidates, last first, within a budget.

Outside a candidate everything is prose (quotes and brackets there mean nothing). Inside, strings
are lexed as JSON lexes them, so a brace in a string does not count. When what is open can no
longer be JSON — a string broken by a control character or the end, a ``]`` closing a ``{``,
nesting past :data:`MAX_DEPTH`, the end of the text — the candidate is dropped (objects already
closed inside it stay candidates). Its first brace may have been prose (``say "{" then
{"move": …}``), lexing a real object as a string: the scan goes back to the first brace it read
inside a string, while the re-reading stays under :data:`REWIND_CHARS` in all; else it goes on
from where it stopped. A closed candidate that does not decode gives way to what is inside it,
searched afresh.

Whether a quote ends a string depends only on the backslashes just before it, so a string opened
at any quote inside a broken string breaks at the same place: nothing starting before the broken
string's last quote can be an object (but ``{}``), the scan goes on after that quote, and goes
back over one place where strings break at most :data:`REWINDS_PER_BREAK` times. Every character
is thus read a bounded number of times, and every scan and decode is charged to a budget of about
four times the text: time is linear in ``len(text)``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from operator import itemgetter
from typing import Final

MAX_DEPTH: Final = 32
"""Deepest nesting of ``{`` and ``[`` a JSON object is taken with (an answer needs 1 or 2)."""
REWIND_CHARS: Final = 16_384
"""How much text the scan may read again after dropping a candidate whose brace was prose."""
REWINDS_PER_BREAK: Final = 3
"""How many times the scan goes back over one place where strings break."""
DECODE_OVERHEAD: Final = 1_024
"""What one failed json.loads costs (raising and catching), counted in characters decoded."""

# A JSON string as JSON lexes it: no raw control character, escapes taken whole. Possessive
# quantifiers (Python 3.11): a match that fails never backtracks, so every match is linear.
_STRING = r'"(?:[^"\\\x00-\x1f]++|\\[^\x00-\x1f])*+'
# Outside a candidate, a brace starts one only if an object can start there: a whole key string
# or the end of the object next. Another brace is prose, and what follows it is read as prose
# too, so nothing inside it is missed. (The key is read once: a key cannot run past the next
# brace that starts a candidate, since that brace's quote ends any string.) Then a flat object
# (no bracket inside, strings whole), which is what almost every answer is, is one match,
# anything else just the brace.
_START = r"\{(?=[ \t\n\r]*+(?:\}|" + _STRING + r'"))'
_PROSE = re.compile(_START + r'(?:[^{}\[\]"]++|' + _STRING + r'")*+\}|' + _START)
# Inside a candidate only brackets and strings matter. Tokens: a run of opening brackets, a
# closing one, a run of anything else with only complete strings in it (group 4), or a string
# that does not close before a control character or the end (no group: then nothing open can be
# JSON).
_TOKEN = re.compile(r'([{\[]+)|(\})|(\])|((?:[^{}\[\]"]++|' + _STRING + r'")++)|' + _STRING)
# What an object's text starts with; other balanced spans are not worth a json.loads.
_OBJECT_START = re.compile(r'\{[ \t\n\r]*["}]')


@dataclass(frozen=True, slots=True)
class JsonScan:
    """What a scan found: the last JSON object (or None), and why none may have been found."""

    obj: dict | None
    too_deep: bool = False
    gave_up: bool = False


def scan_json(text: str) -> JsonScan:
    """The last JSON object in ``text``: see the module's doc. Never raises."""
    budget = [4 * len(text) + 65_536]
    obj, too_deep, gave_up = _search(text, 0, len(text), budget, 0)
    return JsonScan(obj, too_deep, gave_up)


def _search(
    text: str, lo: int, hi: int, budget: list[int], level: int
) -> tuple[dict | None, bool, bool]:
    """The last object in ``text[lo:hi]``: (the object or None, nested too deep, gave up).

    Candidates are tried by their end, last first (an object before the objects inside it).
    One that is not an object gives way to what is inside it, searched afresh (its inside may
    have been lexed wrongly), at most :data:`MAX_DEPTH` searches deep. Every scan and decode is
    charged to ``budget`` (about four times the text): past it the search gives up.
    """
    budget[0] -= hi - lo
    spans, too_deep = _spans(text, lo, hi, budget)
    searched = (hi, lo)  # the last span searched inside: spans within it were covered
    for s, e in reversed(spans):
        if budget[0] < 0:
            return None, too_deep, True
        if s > searched[0] and e <= searched[1]:
            continue
        if _OBJECT_START.match(text, s, e):
            budget[0] -= e - s + DECODE_OVERHEAD
            try:
                obj = json.loads(text[s:e])
            except (ValueError, RecursionError):  # ValueError: JSON errors, ints > 4300 digits
                obj = None
            if isinstance(obj, dict):
                return obj, too_deep, False
        if level < MAX_DEPTH and text.find("{", s + 1, e - 1) >= 0:
            obj, deep, gave_up = _search(text, s + 1, e - 1, budget, level + 1)
            too_deep = too_deep or deep
            if obj is not None or gave_up:
                return obj, too_deep, gave_up
            searched = (s, e)
    return None, too_deep, budget[0] < 0


def _spans(text: str, lo: int, hi: int, budget: list[int]) -> tuple[list[tuple[int, int]], bool]:
    """Every balanced ``{…}`` in ``text[lo:hi]``, in end order, and whether one nested too
    deep. Re-reading is charged to ``budget`` as well."""
    spans: list[tuple[int, int]] = []  # closed objects: (start, end), in closing order
    too_deep = rewound = False
    pos = lo
    rewind = REWIND_CHARS
    breaks: dict[int, int] = {}  # where strings were found to break: times gone back over it
    while pos < hi:
        nested = -1
        for m in _PROSE.finditer(text, pos, hi):
            if m.end() - m.start() > 1:
                spans.append(m.span())
            else:
                nested = m.start()
                break
        if nested < 0:
            break
        stop, deep, closed, broken, hidden = _nested(text, nested, hi, spans)
        too_deep = too_deep or deep
        back = not closed and hidden >= 0 and stop - hidden <= min(rewind, budget[0])
        if broken >= 0:  # the string opened at `stop` breaks at `broken`
            back = back and breaks.get(broken, 0) < REWINDS_PER_BREAK
            if back:
                breaks[broken] = breaks.get(broken, 0) + 1
            else:
                stop = text.rfind('"', stop + 1, broken) + 1 or stop + 1
        if back:
            rewind -= stop - hidden
            budget[0] -= stop - hidden
            pos, rewound = hidden, True
        else:
            pos = stop
    if rewound:  # re-read spans break closing order; they are few, so this is nearly sorted
        spans.sort(key=itemgetter(1))
    return spans, too_deep


def _nested(
    text: str, i: int, hi: int, spans: list[tuple[int, int]]
) -> tuple[int, bool, bool, int, int]:
    """Scan the candidate opened at ``i`` (up to ``hi``), recording the objects that close in
    it.

    Returns where it stopped, whether it nested too deep, whether it closed, where a string
    that never closes breaks (it opened where the scan stopped; -1: none), and the first brace
    read inside a string (-1: none).
    """
    opened = [i]  # starts of the open objects
    depth = ["{"]  # the open brackets
    push, pop, record = depth.append, depth.pop, spans.append
    hidden = -1
    for m in _TOKEN.finditer(text, i + 1, hi):
        kind = m.lastindex
        if kind == 4:  # nothing that counts; a brace in it is in a string
            if hidden < 0:
                hidden = text.find("{", m.start(), m.end())
            continue
        if kind == 2:  # }
            if depth[-1] != "{":
                return m.end(), False, False, -1, hidden
            pop()
            record((opened.pop(), m.end()))
            if not depth:
                return m.end(), False, True, -1, hidden
        elif kind == 1:  # opening brackets
            run = m.group(1)
            room = MAX_DEPTH - len(depth)
            if len(run) > room:
                # An object opened in this run before its last MAX_DEPTH brackets ends up too
                # deep as well: go on from there.
                return max(m.start() + room + 1, m.end() - MAX_DEPTH), True, False, -1, hidden
            at = m.start()
            for k, c in enumerate(run):
                push(c)
                if c == "{":
                    opened.append(at + k)
        elif kind == 3:  # ]
            if depth[-1] != "[":
                return m.end(), False, False, -1, hidden
            pop()
        else:  # a string that never closes
            return m.start(), False, False, m.end(), hidden
    return hi, False, False, -1, hidden


def last_json_object(text: str) -> dict | None:
    """The last top-level JSON object in ``text`` (prose, code fences and earlier objects
    around it are ignored), or None when there is no complete object. Never raises; time is
    linear in ``len(text)``; objects nested deeper than :data:`MAX_DEPTH` are not taken."""
    return scan_json(text).obj
