"""The layers import downwards only (docs/architecture.md, import rules).

``vision`` and ``firmware_interfaces`` know nothing of ``controller``, the one that joins
them; neither knows the other: devices know bytes and pins, the camera knows images.
"""

from __future__ import annotations

import ast
import subprocess
import sys
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


SIMULATION = "controller.simulation"
REAL_PATH = ("controller/cli.py", "controller/commands/table.py", "controller/table/*.py",
             "controller/live/*.py", "controller/display/**/*.py")
"""What ``paigow run`` runs: the command's modules, the table package (live loop, devices,
ports), the live table and the display."""


def _resolved(node: ast.Import | ast.ImportFrom, module: str) -> list[str]:
    """The absolute modules an import names, relative ones resolved against ``module``."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = node.module or ""
    if node.level:
        parent = module.split(".")[:-node.level]
        base = ".".join([*parent, *([base] if base else [])])
    return [base] if node.module else [f"{base}.{a.name}" for a in node.names]


def module_imports(path: Path) -> list[tuple[str | None, str]]:
    """(enclosing top-level function or None, absolute module) for every import in ``path``."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    module = ".".join(parts if parts[-1] != "__init__" else [*parts[:-1], "x"])
    found: list[tuple[str | None, str]] = []
    for top in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(top, ast.If) and isinstance(top.test, ast.Name) \
                and top.test.id == "TYPE_CHECKING":
            continue  # type-only imports: never imported when the program runs
        where = top.name if isinstance(top, ast.FunctionDef | ast.AsyncFunctionDef) else None
        for node in ast.walk(top):
            if isinstance(node, ast.Import | ast.ImportFrom):
                found += [(where, name) for name in _resolved(node, module)]
    return found


def _under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_resolver_sees_relative_imports() -> None:
    mod = ROOT / "controller" / "simulation" / "runner.py"
    names = [n for _, n in module_imports(mod)]
    assert "controller.table.people" in names and "controller.live" in names
    assert _resolved(ast.parse("from .. import simulation").body[0],  # type: ignore[arg-type]
                     "controller.commands.table") == ["controller.simulation"]


def test_the_real_path_does_not_import_the_simulation() -> None:
    files = sorted({p for pattern in REAL_PATH for p in ROOT.glob(pattern)})
    assert ROOT / "controller/table/live.py" in files
    assert ROOT / "controller/table/devices.py" in files
    bad = [(str(p.relative_to(ROOT)), where, name) for p in files
           for where, name in module_imports(p) if _under(name, SIMULATION)]
    assert bad == []


def test_the_demo_command_imports_the_simulation_only_when_it_runs() -> None:
    """``commands/demo.py`` is registered by ``cli`` with the other commands; its imports of the
    simulation are inside its functions, so no other command loads it."""
    path = ROOT / "controller" / "commands" / "demo.py"
    where = {where for where, name in module_imports(path) if _under(name, SIMULATION)}
    assert where and None not in where


def test_loading_the_run_command_loads_no_simulation() -> None:
    code = ("import sys, controller.cli, controller.commands.table, controller.commands.demo, "
            "controller.table.live, controller.display.app; "
            "print(sorted(m for m in sys.modules if m.startswith('controller.simulation')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"


def test_only_the_simulation_imports_the_renderer() -> None:
    renders = {str(p.relative_to(ROOT)) for p in (ROOT / "controller").rglob("*.py")
               if any(_under(name, "vision.scene") for _, name in module_imports(p))}
    assert renders == {"controller/simulation/camera.py"}


CONTROLLER_LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors",),
    ("rules",),
    ("config", "journal"),
    ("profiles", "analysis"),
    ("round", "settle"),
    ("live", "staff", "audit"),
    ("table", "display"),
    ("replay", "simulation"),
    ("commands",),
    ("cli",),
)
"""The packages (and root modules) inside ``controller``, bottom row first: each imports only
rows below its own (docs/architecture.md, "Import rules")."""
ROW = {name: row for row, names in enumerate(CONTROLLER_LAYERS) for name in names}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def controller_imports() -> dict[str, set[str]]:
    """Every ``controller`` module and the ``controller`` modules it imports when it runs
    (at module level or inside a function; type-only imports left out)."""
    graph: dict[str, set[str]] = {}
    for path in sorted((ROOT / "controller").rglob("*.py")):
        name = _module_name(path)
        found = graph.setdefault(name, set())
        for _, imported in module_imports(path):
            if _under(imported, "controller") and imported != "controller":
                found.add(imported)
    return graph


def _part(module: str) -> str:
    """The package (or root module) of ``controller`` a module belongs to."""
    return module.split(".")[1]


def _known(module: str, modules: set[str]) -> str:
    """``module``, or the module it names an attribute of (``from .x import Name``)."""
    while module not in modules and "." in module:
        module = module.rsplit(".", 1)[0]
    return module


def test_every_controller_package_has_a_row() -> None:
    parts = {_part(m) for m in controller_imports() if m != "controller"}
    assert parts == set(ROW)


def test_controller_packages_import_only_lower_rows() -> None:
    upward = sorted((src, dst) for src, targets in controller_imports().items()
                    for dst in targets if src != "controller"
                    and _part(src) != _part(dst) and ROW[_part(dst)] >= ROW[_part(src)])
    assert upward == []


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (its modules in order), or None."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := walk(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := walk(node)) is not None:
            return found
    return None


def test_the_cycle_finder_finds_cycles() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_module_of_controller_imports_itself_round_about() -> None:
    graph = controller_imports()
    modules = set(graph)
    # A package's __init__ re-exports its modules: an import of the package is an import of
    # the module that defines the name, so packages are left out as targets.
    packages = {m for m in modules if (ROOT / Path(*m.split(".")) / "__init__.py").exists()}
    edges = {src: {t for t in (_known(d, modules) for d in targets)
                   if t != src and t not in packages}
             for src, targets in graph.items()}
    assert _cycle(edges) is None
