"""A table's hardware file (config/tables/NAME.toml): serial devices and GPIO pins.

``[shuffler]`` and ``[shaker]`` name each serial device's pyserial URL and what the table
approves of it (model, firmware hashes, whether a seeded simulator may stand in); ``[panel]`` and
``[shaker_lines]`` are the GPIO pin maps (``gpio.pins``).  Unknown sections and keys are errors
naming them; a device whose hello does not match is refused when its driver opens.

Each real device names its hello key (``key_file = PATH`` or ``key_env = NAME``, never the
key itself), read and checked here, once; a ``sim://`` device may leave it out, and the host
then makes a throwaway key for the simulator it starts.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .config_check import check_keys, require_table
from .device_keys import key_from_env, read_key_file
from .errors import DeviceConfigError
from .gpio.pins import TablePins
from .identity import Expected

_SECTIONS = {"name", "shuffler", "shaker", "panel", "shaker_lines"}
_DEVICE_KEYS = {"url", "model", "firmware_hashes", "allow_seeded", "key_file", "key_env"}
SIM_SCHEME = "sim://"


@dataclass(frozen=True, slots=True)
class SerialDevice:
    """Where a serial device is and what the table approves of it."""

    url: str
    expected: Expected


@dataclass(frozen=True, slots=True)
class TableHardware:
    """Everything a table's hardware file says."""

    name: str
    shuffler: SerialDevice | None
    shaker: SerialDevice | None
    pins: TablePins


def _device(data: Mapping[str, object], kind: str, where: str) -> SerialDevice | None:
    if kind not in data:
        return None
    table = require_table(data[kind], DeviceConfigError, f"{where}: [{kind}]")
    check_keys(table, _DEVICE_KEYS, DeviceConfigError, where, section=f"in [{kind}]")
    url = table.get("url")
    if not isinstance(url, str) or not url:
        raise DeviceConfigError(f"{where}: [{kind}] url must be a pyserial URL, not {url!r}")
    model = table.get("model")
    if model is not None and not isinstance(model, str):
        raise DeviceConfigError(f"{where}: [{kind}] model must be text, not {model!r}")
    hashes = table.get("firmware_hashes", [])
    if not isinstance(hashes, list) or not all(
        isinstance(h, str) and h.startswith("sha256:") for h in hashes
    ):
        raise DeviceConfigError(f"{where}: [{kind}] firmware_hashes must be a list of "
                                f"'sha256:...' texts, not {hashes!r}")
    seeded = table.get("allow_seeded", False)
    if not isinstance(seeded, bool):
        raise DeviceConfigError(f"{where}: [{kind}] allow_seeded must be true or false, "
                                f"not {seeded!r}")
    key = _key(table, kind, where, url.startswith(SIM_SCHEME))
    return SerialDevice(url, Expected(kind, model, frozenset(hashes), seeded, key))


def _key(table: Mapping[str, object], kind: str, where: str, simulated: bool) -> bytes | None:
    """The device's hello key from ``key_file`` (relative to the table file) or ``key_env``."""
    key_file, key_env = table.get("key_file"), table.get("key_env")
    if key_file is not None and key_env is not None:
        raise DeviceConfigError(f"{where}: [{kind}] names both key_file and key_env; give one")
    try:
        if key_file is not None:
            if not isinstance(key_file, str) or not key_file:
                raise DeviceConfigError(f"key_file must be a path, not {key_file!r}")
            path = Path(key_file)
            return read_key_file(path if path.is_absolute() else Path(where).parent / path)
        if key_env is not None:
            if not isinstance(key_env, str) or not key_env:
                raise DeviceConfigError(f"key_env must be a variable name, not {key_env!r}")
            return key_from_env(key_env)
    except DeviceConfigError as err:
        raise DeviceConfigError(f"{where}: [{kind}] {err}") from err
    if not simulated:
        raise DeviceConfigError(f"{where}: [{kind}] names no hello key: add key_file = PATH or "
                                f"key_env = NAME (docs/protocols.md, the hello's challenge)")
    return None


def parse_table(text: str, where: str) -> TableHardware:
    """Validate a table hardware file's text; errors name the file, section and key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise DeviceConfigError(f"{where}: bad TOML: {err}") from err
    except RecursionError:  # tomllib recurses per nested array or table
        raise DeviceConfigError(f"{where}: TOML nested too deeply to read") from None
    unknown = sorted(set(data) - _SECTIONS)
    if unknown:
        raise DeviceConfigError(f"{where}: unknown section or key {unknown[0]!r}; "
                                f"known: {sorted(_SECTIONS)}")
    name = data.get("name", Path(where).stem)
    if not isinstance(name, str):
        raise DeviceConfigError(f"{where}: name must be text, not {name!r}")
    try:
        pins = TablePins.from_config(data)
    except DeviceConfigError as err:
        raise DeviceConfigError(f"{where}: {err}") from err
    return TableHardware(name, _device(data, "shuffler", where), _device(data, "shaker", where),
                         pins)


def load_table(path: str | Path) -> TableHardware:
    """Read and validate a table hardware file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise DeviceConfigError(f"cannot read table file {str(path)!r}: {err.strerror}") from err
    except UnicodeDecodeError as err:
        raise DeviceConfigError(f"table file {str(path)!r} is not UTF-8 text (offset "
                                f"{err.start})") from None
    return parse_table(text, str(path))
