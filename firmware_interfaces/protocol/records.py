"""Typed messages: frozen dataclasses that map field by field onto a payload ``Message`` (pure).

A record's field types say how each value is written: ``int``, ``float``, ``bool`` (``0`` or
``1``), ``str`` (one word), ``tuple[str, ...]`` or ``tuple[int, ...]`` (comma-separated), and
any of these ``| None`` (``-``). Unknown fields, missing fields and bad values are
``PayloadError``s that name the message, the field and the value.
"""

from __future__ import annotations

import re
import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, Self, Union, get_args, get_origin, get_type_hints

from ..errors import PayloadError
from .payload import Message, decode_message, encode_message

_INT = re.compile(r"-?[0-9]{1,18}")
_FLOAT = re.compile(r"-?[0-9]{1,9}(?:\.[0-9]{1,9})?")
_WORD = re.compile(r"[!-+.-~][!-~]*")  # printable, no comma, not starting with '-' alone
NONE = "-"

Writer = Callable[[Any], str]
Reader = Callable[[str], Any]


def _word(text: str) -> str:
    if text == NONE or "," in text or not _WORD.fullmatch(text):
        raise ValueError("not one word of printable ASCII without commas")
    return text


def _int(text: str) -> int:
    if not _INT.fullmatch(text):
        raise ValueError("not an integer")
    return int(text)


def _float(text: str) -> float:
    if not _FLOAT.fullmatch(text):
        raise ValueError("not a decimal number")
    return float(text)


def _bool(text: str) -> bool:
    if text not in ("0", "1"):
        raise ValueError("not 0 or 1")
    return text == "1"


_SCALARS: dict[type, tuple[Writer, Reader]] = {
    int: (str, _int),
    float: (repr, _float),
    bool: (lambda v: "1" if v else "0", _bool),
    str: (_word, _word),
}


def _codec(tp: Any) -> tuple[Writer, Reader]:
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        inner = [a for a in get_args(tp) if a is not type(None)]
        write, read = _codec(inner[0])
        return (lambda v: NONE if v is None else write(v)), (
            lambda t: None if t == NONE else read(t)
        )
    if origin is tuple:
        w, r = _SCALARS[get_args(tp)[0]]
        return (lambda v: ",".join(w(x) for x in v) if v else NONE), (
            lambda t: () if t == NONE else tuple(r(x) for x in t.split(","))
        )
    return _SCALARS[tp]


_SCHEMAS: dict[type, dict[str, tuple[Writer, Reader, bool]]] = {}


def _schema(cls: type[Record]) -> dict[str, tuple[Writer, Reader, bool]]:
    schema = _SCHEMAS.get(cls)
    if schema is None:
        hints = get_type_hints(cls)
        schema = {}
        for f in fields(cls):
            has_default = f.default is not MISSING or f.default_factory is not MISSING
            schema[f.name] = (*_codec(hints[f.name]), has_default)
        _SCHEMAS[cls] = schema
    return schema


@dataclass(frozen=True)
class Record:
    """Base of every typed message; a subclass names its wire ``NAME``."""

    NAME: ClassVar[str] = ""

    def to_message(self) -> Message:
        """This record as a payload ``Message``."""
        schema = _schema(type(self))
        try:
            return Message(
                self.NAME,
                tuple((k, write(getattr(self, k))) for k, (write, _, _) in schema.items()),
            )
        except (ValueError, TypeError) as err:
            raise PayloadError(f"{self.NAME}: cannot write {self!r}: {err}") from err

    @classmethod
    def from_message(cls, message: Message) -> Self:
        """The record that ``message`` encodes; ``PayloadError`` if it does not fit the schema."""
        if message.name != cls.NAME:
            raise PayloadError(f"expected a {cls.NAME} message, got {message.name!r}")
        schema = _schema(cls)
        values: dict[str, Any] = {}
        for key, text in message.fields:
            if key not in schema:
                raise PayloadError(f"{cls.NAME}: unknown field {key!r}")
            try:
                values[key] = schema[key][1](text)
            except (ValueError, TypeError) as err:
                raise PayloadError(f"{cls.NAME}: bad {key}={text!r}: {err}") from err
        missing = [k for k, (_, _, optional) in schema.items() if k not in values and not optional]
        if missing:
            raise PayloadError(f"{cls.NAME}: missing field(s) {', '.join(missing)}")
        return cls(**values)

    def __str__(self) -> str:
        return str(self.to_message())


class Catalogue:
    """The records one side may receive, looked up by name."""

    def __init__(self, records: Iterable[type[Record]]) -> None:
        self._by_name: dict[str, type[Record]] = {}
        for record in records:
            if record.NAME in self._by_name and self._by_name[record.NAME] is not record:
                raise ValueError(f"two records named {record.NAME!r}")
            self._by_name[record.NAME] = record

    @property
    def records(self) -> Mapping[str, type[Record]]:
        """Every record class by wire name."""
        return types.MappingProxyType(self._by_name)

    def parse(self, message: Message) -> Record:
        """The typed record for ``message``; ``PayloadError`` for an unknown name or bad field."""
        record = self._by_name.get(message.name)
        if record is None:
            raise PayloadError(f"unknown message {message.name!r}")
        return record.from_message(message)

    def decode(self, payload: bytes) -> Record:
        """The typed record in ``payload``."""
        return self.parse(decode_message(payload))


def encode_record(record: Record) -> bytes:
    """The payload bytes of ``record``."""
    return encode_message(record.to_message())


def check(condition: bool, record: str, message: str) -> None:
    """Raise ``PayloadError`` naming ``record`` unless ``condition`` holds (``__post_init__``)."""
    if not condition:
        raise PayloadError(f"{record}: {message}")
