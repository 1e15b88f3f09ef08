"""``vision`` never imports ``controller`` (docs/architecture.md, import rules)."""

from __future__ import annotations

import ast
from pathlib import Path

VISION = Path(__file__).resolve().parents[2] / "vision"


def controller_imports(source: str) -> list[str]:
    """The ``controller`` modules a source file imports."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        found += [n for n in names if n == "controller" or n.startswith("controller.")]
    return found


def test_the_checker_sees_imports() -> None:
    assert controller_imports("import controller.rules\nfrom controller import cli") == [
        "controller.rules", "controller"]
    assert controller_imports("from .cards import x\nimport cv2") == []


def test_vision_does_not_import_controller() -> None:
    bad = {str(p.relative_to(VISION)): controller_imports(p.read_text(encoding="utf-8"))
           for p in VISION.rglob("*.py")}
    assert {k: v for k, v in bad.items() if v} == {}
