"""What the ``cli_*`` command families share: one-line errors with exit code 2, and reading the
files and folders a command is given without a traceback for any of them (missing, a folder, a
device, unreadable, not UTF-8, not JSON, nested too deeply, too big, not writable).

Only typer and the standard library are imported here, so a family can use it at import."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any, Final

import typer

EXIT_USAGE: Final = 2
STDIN: Final = "-"
MAX_INPUT_BYTES: Final = 256 * 2**20
"""The largest input file read (a device such as /dev/zero would otherwise never end)."""
MAX_ERROR_CHARS: Final = 600


def one_line(text: str, limit: int = MAX_ERROR_CHARS) -> str:
    """``text`` on one line (whitespace runs collapsed), cut to ``limit`` characters."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def shown(value: str, limit: int = 60) -> str:
    """``repr(value)`` cut to about ``limit`` characters (input echoed back in a message)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fail(message: str) -> typer.Exit:
    """Print ``error: <message>`` as one line on stderr; returns the exit (code 2) to raise."""
    typer.echo(f"error: {one_line(message)}", err=True)
    return typer.Exit(EXIT_USAGE)


def os_reason(e: OSError) -> str:
    """An OSError's reason without its errno and file name (``Permission denied``)."""
    return e.strerror or str(e)


def read_bytes(name: str, what: str = "file") -> bytes:
    """The bytes of file ``name`` (``-``: stdin); raises :func:`fail` for a missing file, a
    folder, an unreadable file or one over :data:`MAX_INPUT_BYTES`."""
    if name == STDIN:
        data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    else:
        if not name:
            raise fail(f"the {what} name is empty")
        path = Path(name)
        try:
            info = path.stat()
        except FileNotFoundError:
            raise fail(f"{name}: no such {what}") from None
        except OSError as e:
            raise fail(f"{name}: cannot read the {what}: {os_reason(e)}") from None
        if stat.S_ISDIR(info.st_mode):
            raise fail(f"{name}: is a folder, not a {what}")
        if stat.S_ISREG(info.st_mode) and info.st_size > MAX_INPUT_BYTES:
            raise fail(f"{name}: {info.st_size:,} bytes is over the {MAX_INPUT_BYTES:,}-byte limit")
        try:
            with path.open("rb") as f:
                data = f.read(MAX_INPUT_BYTES + 1)
        except OSError as e:
            raise fail(f"{name}: cannot read the {what}: {os_reason(e)}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise fail(f"{_label(name)}: over the {MAX_INPUT_BYTES:,}-byte input limit")
    return data


def read_text(name: str, what: str = "file") -> str:
    """The UTF-8 text of file ``name`` (``-``: stdin; a UTF-8 BOM is dropped); raises
    :func:`fail` as :func:`read_bytes` does, and for bytes that are not UTF-8 text."""
    data = read_bytes(name, what)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise fail(
            f"{_label(name)}: not UTF-8 text (byte {e.start} is 0x{data[e.start]:02x}); "
            f"expected a JSON {what}"
        ) from None


class NotJSON(ValueError):
    """A text that is not (usable) JSON: ``reason``, and where (1-based line and column) when
    the parser says."""

    def __init__(self, reason: str, line: int | None = None, column: int | None = None) -> None:
        self.reason, self.line, self.column = reason, line, column
        where = f" at line {line} column {column}" if line is not None else ""
        super().__init__(f"{reason}{where}")


def _no_constant(word: str) -> Any:
    raise NotJSON(f"{word} is not JSON")


def parse_json(text: str) -> Any:
    """``json.loads`` that raises :class:`NotJSON` for every way a text is not (usable) JSON:
    bad syntax, nesting too deep for the parser, and the NaN/Infinity words JSON lacks."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise NotJSON("nested too deeply") from None
    except json.JSONDecodeError as e:
        raise NotJSON(e.msg, e.lineno, e.colno) from None


def read_json(name: str, what: str = "file") -> Any:
    """The JSON value in file ``name`` (``-``: stdin); raises :func:`fail` for any reason it
    cannot be had."""
    text = read_text(name, what)
    try:
        return parse_json(text)
    except ValueError as e:
        raise fail(f"{_label(name)}: not valid JSON: {e}") from None


def writable_dir(path: Path, option: str) -> Path:
    """Make sure folder ``path`` exists (creating it) and can be written; raises :func:`fail`
    naming ``option`` otherwise."""
    if not str(path):
        raise fail(f"{option}: the folder name is empty")
    if path.exists() and not path.is_dir():
        raise fail(f"{option} {path}: not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise fail(f"{option} {path}: cannot create the folder: {os_reason(e)}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise fail(f"{option} {path}: the folder is not writable")
    return path


def _label(name: str) -> str:
    return "<stdin>" if name == STDIN else name
