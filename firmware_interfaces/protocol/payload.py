"""The text form of a frame's payload: ``NAME key=value ...`` in printable ASCII (pure).

A name is upper case (``DEAL``), a key lower case (``cards``), a value any run of printable
ASCII without spaces; lists are comma-separated and ``-`` stands for "none" or an empty list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import PayloadError

NAME = re.compile(r"[A-Z][A-Z0-9_]{0,31}")
KEY = re.compile(r"[a-z][a-z0-9_]{0,31}")
VALUE = re.compile(r"[!-~]{1,512}")


@dataclass(frozen=True, slots=True)
class Message:
    """A payload parsed into its name and ordered ``key=value`` fields (values as text)."""

    name: str
    fields: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if not NAME.fullmatch(self.name):
            raise PayloadError(f"message name {self.name!r} is not upper-case A-Z, 0-9, _")
        seen: set[str] = set()
        for key, value in self.fields:
            if not KEY.fullmatch(key):
                raise PayloadError(f"{self.name}: field name {key!r} is not lower-case a-z, 0-9, _")
            if key in seen:
                raise PayloadError(f"{self.name}: field {key!r} given twice")
            if not VALUE.fullmatch(value):
                raise PayloadError(
                    f"{self.name}: value {value!r} of {key!r} is empty or not printable ASCII "
                    "without spaces"
                )
            seen.add(key)

    def get(self, key: str) -> str | None:
        """The text value of ``key``, or ``None`` when absent."""
        for k, v in self.fields:
            if k == key:
                return v
        return None

    def __str__(self) -> str:
        return " ".join([self.name, *(f"{k}={v}" for k, v in self.fields)])

    @classmethod
    def parse(cls, text: str) -> Message:
        """The message written as ``NAME key=value ...``; ``PayloadError`` if malformed."""
        words = text.split(" ")
        if not words[0]:
            raise PayloadError(f"empty message or leading space: {text!r}")
        fields = []
        for word in words[1:]:
            key, eq, value = word.partition("=")
            if not eq:
                raise PayloadError(f"{words[0]}: expected key=value, got {word!r}")
            fields.append((key, value))
        return cls(words[0], tuple(fields))


def encode_message(message: Message) -> bytes:
    """The payload bytes of ``message``."""
    return str(message).encode("ascii")


def decode_message(payload: bytes) -> Message:
    """The message in ``payload``; ``PayloadError`` for anything but the text form above."""
    try:
        text = payload.decode("ascii")
    except UnicodeDecodeError as err:
        raise PayloadError(f"payload is not ASCII: {payload[:40]!r}") from err
    return Message.parse(text)
