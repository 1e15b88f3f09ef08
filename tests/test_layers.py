"""The layers import downwards only (docs/architecture.md, import rules).

``vision`` and ``firmware_interfaces`` know nothing of ``controller``, the one that joins
them; neither knows the other: devices know bytes and pins, the camera knows images.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {
    "vision": ("controller", "firmware_interfaces"),
    "firmware_interfaces": ("controller", "vision"),
}


def imports_of(source: str, packages: tuple[str, ...]) -> list[str]:
    """The modules of ``packages`` a source file imports (absolute imports)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        found += [n for n in names if n.split(".")[0] in packages]
    return found


def test_the_checker_sees_imports() -> None:
    assert imports_of("import controller.rules\nfrom controller import cli",
                      ("controller",)) == ["controller.rules", "controller"]
    assert imports_of("from .cards import x\nimport cv2\nimport controllers",
                      ("controller",)) == []


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_layer_does_not_import_upwards_or_sideways(package: str) -> None:
    bad = {str(p.relative_to(ROOT)): imports_of(p.read_text(encoding="utf-8"), FORBIDDEN[package])
           for p in (ROOT / package).rglob("*.py")}
    assert {k: v for k, v in bad.items() if v} == {}
