"""Reading the files a user names (round files, hand lists, table and staff files): the text
as UTF-8, JSON and TOML, each failure one ``FileReadError`` naming the file.

Every file the ``paigow`` command reads by a name it was given comes through here, so a file
that is missing, not UTF-8, too big, or nested deeper than a parser can follow is refused with
one line (``cli`` turns a ``ControllerError`` into ``paigow: error: ...`` and exit 2), never
a traceback.
"""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path
from typing import Any

from ..errors import ConfigError

MAX_TEXT_BYTES = 64 * 1024 * 1024
"""The largest text file read (a hand list of a million lines fits; ``/dev/zero`` does not)."""

STDIN = "-"
"""The name that stands for standard input."""


class FileReadError(ConfigError):
    """A named file that cannot be read as the text it should hold; the message names it."""


def read_text(path: str | Path, what: str) -> str:
    """The text of ``path`` (``-``: standard input), decoded as UTF-8; ``what`` names the file's
    role in the error (``round file``, ``table file``)."""
    where = str(path)
    try:
        if where == STDIN:
            stream = getattr(sys.stdin, "buffer", None)
            if stream is None:  # a text stream put in place of stdin (tests): already text
                text = str(sys.stdin.read(MAX_TEXT_BYTES + 1))
                if len(text) > MAX_TEXT_BYTES:
                    raise FileReadError(f"{what} on standard input is larger than "
                                        f"{MAX_TEXT_BYTES} characters")
                return text
            data: bytes = stream.read(MAX_TEXT_BYTES + 1)
        else:
            with Path(path).open("rb") as file:
                data = file.read(MAX_TEXT_BYTES + 1)
    except OSError as err:
        raise FileReadError(f"cannot read {what} {where!r}: {err.strerror or err}") from err
    if len(data) > MAX_TEXT_BYTES:
        raise FileReadError(f"{what} {where!r} is larger than {MAX_TEXT_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        bad = data[err.start:err.start + 1]
        raise FileReadError(f"{what} {where!r} is not UTF-8 text (byte {bad!r} at offset "
                            f"{err.start})") from None


def parse_json(text: str, where: str) -> Any:
    """JSON text parsed; a syntax error or nesting too deep for the parser names ``where``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise FileReadError(f"{where}: not JSON: {err}") from err
    except RecursionError:
        raise FileReadError(f"{where}: JSON nested too deeply to read") from None


def parse_toml(text: str, where: str) -> dict[str, Any]:
    """TOML text parsed; a syntax error or nesting too deep for the parser names ``where``."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise FileReadError(f"{where}: bad TOML: {err}") from err
    except RecursionError:
        raise FileReadError(f"{where}: TOML nested too deeply to read") from None


def read_json(path: str | Path, what: str) -> Any:
    """A JSON file (``-``: standard input) read and parsed."""
    return parse_json(read_text(path, what), str(path))


def read_toml(path: str | Path, what: str) -> dict[str, Any]:
    """A TOML file read and parsed."""
    return parse_toml(read_text(path, what), str(path))


__all__ = ["MAX_TEXT_BYTES", "FileReadError", "parse_json", "parse_toml", "read_json",
           "read_text", "read_toml"]
