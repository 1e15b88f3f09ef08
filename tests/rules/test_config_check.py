"""The one TOML check (``config_check``): unknown keys and tables, the same in every layer.

The layers may not import each other (``tests/test_layers.py``), so the module is kept byte
for byte the same in ``controller/rules/``, ``firmware_interfaces/`` and ``vision/``.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

import firmware_interfaces.config_check
import vision.config_check
from controller.rules import config_check
from controller.rules.errors import ProfileError
from firmware_interfaces.errors import DeviceConfigError
from vision.errors import LayoutError

ROOT = Path(__file__).resolve().parents[2]
COPIES = ("controller/rules", "firmware_interfaces", "vision")
MODULES = [config_check, firmware_interfaces.config_check, vision.config_check]


def test_the_copies_are_the_same() -> None:
    texts = {(ROOT / d / "config_check.py").read_bytes() for d in COPIES}
    assert len(texts) == 1


@pytest.mark.parametrize(("module", "error"), list(zip(MODULES, (ProfileError, DeviceConfigError,
                                                                 LayoutError), strict=True)))
def test_an_unknown_key_is_named_in_the_layers_own_error(module: ModuleType,
                                                         error: type[Exception]) -> None:
    module.check_keys({"b": 1, "a": 2}, ("b", "a"), error, "f.toml")  # all known: no error
    with pytest.raises(error) as raised:
        module.check_keys({"zeta": 1, "colour": 2, "b": 3}, ["b", "a"], error, "f.toml")
    assert str(raised.value) == "f.toml: unknown key 'colour'; known: ['a', 'b']"


def test_the_message_forms() -> None:
    def message(**options: str) -> str:
        with pytest.raises(ValueError) as raised:
            config_check.check_keys({"x": 1}, ("a",), ValueError, **options)
        return str(raised.value)

    assert message() == "unknown key 'x'; known: ['a']"
    assert message(what="pot key") == "unknown pot key 'x'; known: ['a']"
    assert message(where="w", section="in [shaker]") == (
        "w: unknown key 'x' in [shaker]; known: ['a']")
    assert message(where="display", listed="") == "display: unknown key 'x'"
    assert message(where="way", listed="allowed") == "way: unknown key 'x'; allowed: ['a']"
    assert config_check.unknown_keys({"c": 0, "b": 0, "a": 0}, "a") == ["b", "c"]


def test_a_table_is_required() -> None:
    assert config_check.require_table({"a": 1}, ValueError, "[sessions]") == {"a": 1}
    with pytest.raises(ValueError, match=r"^\[sessions\] must be a table, not 3$"):
        config_check.require_table(3, ValueError, "[sessions]")
