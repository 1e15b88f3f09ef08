"""The import contract of the pure rules core, checked by parsing (never importing) its source."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = REPO_ROOT / "controller" / "rules"
RULES_PACKAGE = "controller.rules"

ALLOWED_STDLIB = frozenset({
    "__future__", "dataclasses", "enum", "typing", "collections", "collections.abc",
    "itertools", "functools", "math", "operator", "fractions", "decimal", "re", "json",
    "tomllib", "hashlib", "bisect", "types", "abc", "string",
})  # fmt: skip
# I/O builtins, and __import__ because it would sidestep the import check.
FORBIDDEN_CALLS = frozenset({"open", "print", "input", "__import__"})


def _allowed(module: str) -> bool:
    """True if the rules core may import `module`."""
    return module in ALLOWED_STDLIB or (module + ".").startswith(RULES_PACKAGE + ".")


def _targets(node: ast.ImportFrom, package: str) -> list[str]:
    """The absolute module names a `from ... import ...` statement reaches."""
    module = node.module or ""
    if node.level:
        parts = package.split(".")
        if node.level - 1 >= len(parts):
            return ["." * node.level + module]  # climbs out of every package
        base = ".".join(parts[: len(parts) - (node.level - 1)])
        module = f"{base}.{module}" if module else base
    # `from controller import rules` names a submodule of an ancestor package.
    if (RULES_PACKAGE + ".").startswith(module + "."):
        return [f"{module}.{alias.name}" for alias in node.names]
    return [module]


def check_source(source: str, filename: str, package: str = RULES_PACKAGE) -> list[str]:
    """Every breach of the contract in one module's source, as 'file:line: message'."""
    try:
        tree = ast.parse(source, filename)
    except SyntaxError as err:
        return [f"{filename}:{err.lineno}: cannot parse: {err.msg}"]
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            modules = _targets(node, package)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in FORBIDDEN_CALLS
        ):
            found.append(f"{filename}:{node.lineno}: calls builtin {node.func.id}()")
            continue
        else:
            continue
        found += [
            f"{filename}:{node.lineno}: imports {m!r}, outside {RULES_PACKAGE} and the allowlist"
            for m in modules
            if not _allowed(m)
        ]
    return found


def test_rules_core_imports_only_itself_and_allowed_stdlib() -> None:
    files = sorted(RULES_DIR.rglob("*.py"))
    assert files, f"no modules found under {RULES_DIR}"
    found: list[str] = []
    for path in files:
        rel = path.relative_to(REPO_ROOT)
        package = ".".join(rel.parent.parts)
        found += check_source(path.read_text(encoding="utf-8"), str(rel), package)
    assert not found, "rules core breaks its import contract:\n" + "\n".join(found)


def test_checker_catches_import_os() -> None:
    assert check_source("import os\n", "x.py") == [
        "x.py:1: imports 'os', outside controller.rules and the allowlist"
    ]


FLAGGED = [
    "from os import path", "import os.path", "import random", "import numpy",
    "from controller import cli", "from controller.profiles.poker import Profile",
    "import firmware_interfaces", "from vision.cards import read", "from .. import cli",
    "from ..cli import main", "from .... import x", "open('f')", "print(1)", "input()",
    "__import__('os')",
]  # fmt: skip
ALLOWED = [
    "from __future__ import annotations", "import collections.abc", "from typing import Final",
    "from . import cards", "from .cards import Card", "from .. import rules",
    "from ..rules.cards import Card", "import controller.rules.cards",
    "from controller import rules", "x.print('a method, not the builtin')",
]  # fmt: skip


@pytest.mark.parametrize("source", FLAGGED)
def test_checker_flags(source: str) -> None:
    assert len(check_source(source, "x.py", "controller.rules")) == 1


@pytest.mark.parametrize("source", ALLOWED)
def test_checker_allows(source: str) -> None:
    assert check_source(source, "x.py", "controller.rules") == []
