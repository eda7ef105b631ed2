"""The dependency direction of design.md, checked on the source itself.

Two checks read every module of the five folders with :mod:`ast` (no import runs):

- **no import circles** (:func:`import_circles`): the module import graph has no strongly
  connected component of more than one module. Every import counts, wherever it stands: at the
  top, inside a function (a lazy import still ties the two files) and under ``if
  TYPE_CHECKING:`` (the lower file still knows the upper one's type; docs/design.md, "The
  layers", says why). ``from pkg import name`` is an edge to the submodule ``pkg.name`` where
  there is one, else to ``pkg`` itself; relative imports are resolved. A submodule's implicit
  import of its own package (Python runs ``pkg/__init__.py`` first) is not an edge, or every
  package that re-exports its submodules would be a circle. A registry that names modules as
  strings (``tablekeeper.games.KITS``, ``tablekeeper.tablesetup.readiness.STEPS``) imports them
  with importlib: that is the designed way down-to-up, and not an edge.
- **imports point down** (:data:`FORBIDDEN`): engine/, vision/ and firmware/ import nothing of
  display/ or tablekeeper/ (and the engine no I/O at all), in any of those places either.

And docs/design.md's drawing of the layers is the folder graph the code has.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: the product's folders, each a top-level package
PACKAGES = ("engine", "firmware", "vision", "display", "tablekeeper")

FORBIDDEN = {
    "engine": {"tablekeeper", "display", "firmware", "vision", "pygame", "cv2", "gpiozero",
               "picamera2", "lgpio", "time", "datetime", "socket", "os", "io", "pathlib",
               "threading", "subprocess"},
    "firmware": {"tablekeeper", "display", "vision"},
    "vision": {"tablekeeper", "display", "firmware", "gpiozero"},
    "display": {"tablekeeper", "firmware", "vision", "gpiozero", "cv2"},
    # the ground layer (the bounded file reader): below every package, so it imports none
    "ground": {"tablekeeper", "display", "firmware", "vision", "engine", "pygame", "cv2",
               "gpiozero", "numpy"},
}


@dataclass(frozen=True)
class Import:
    """One import statement's target, where it stands."""

    target: str  # the module named (absolute, relative ones resolved)
    path: Path
    line: int


def _modules(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Dotted module name -> its file, for every ``.py`` under the packages."""
    out: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _imports(module: str, path: Path, known: Mapping[str, Path]) -> list[Import]:
    """Every import of ``path``, at any depth (functions, ``if TYPE_CHECKING:``); a
    ``from X import name`` names ``X.name`` where that is a module in ``known``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [Import(alias.name, path, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
                here = here[:len(here) - (node.level - 1)]
                base = ".".join(here + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.append(Import(sub if sub in known else base, path, node.lineno))
    return out


def _owner(name: str, known: Mapping[str, Path]) -> str | None:
    """The module of ``known`` that ``name`` is or lies in (``a.b.C`` -> ``a.b``)."""
    parts = name.split(".")
    while parts:
        if ".".join(parts) in known:
            return ".".join(parts)
        parts.pop()
    return None


def import_graph(root: Path, packages: Iterable[str] = PACKAGES,
                 ) -> tuple[dict[str, Path], dict[str, dict[str, Import]]]:
    """The modules under ``packages`` and, per module, the modules it imports (each with the
    first import statement that does)."""
    known = _modules(root, packages)
    graph: dict[str, dict[str, Import]] = {m: {} for m in known}
    for module, path in known.items():
        for imp in _imports(module, path, known):
            target = _owner(imp.target, known)
            if target is not None and target != module:
                graph[module].setdefault(target, imp)
    return known, graph


def _components(graph: Mapping[str, Mapping[str, object]]) -> list[list[str]]:
    """Tarjan's strongly connected components, iteratively (no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                found.append(sorted(component))
    return found


def import_circles(root: Path, packages: Iterable[str] = PACKAGES) -> list[str]:
    """One message per import circle (a strongly connected component of more than one
    module): its files, and the imports inside it with their lines."""
    known, graph = import_graph(root, packages)
    messages = []
    for component in _components(graph):
        if len(component) < 2:
            continue
        files = ", ".join(str(known[m].relative_to(root)) for m in component)
        lines = [f"  {imp.path.relative_to(root)}:{imp.line} imports {target}"
                 for m in component for target, imp in sorted(graph[m].items())
                 if target in component]
        messages.append(f"import circle of {len(component)} files: {files}\n" + "\n".join(lines))
    return sorted(messages)


def forbidden_imports(root: Path, forbidden: Mapping[str, set[str]] = FORBIDDEN) -> list[str]:
    """One message per file that imports what its folder must not (at any depth)."""
    problems = []
    for package, names in forbidden.items():
        known = _modules(root, [package])
        for module, path in sorted(known.items()):
            bad = {i.target.split(".")[0] for i in _imports(module, path, known)} & names
            if bad:
                problems.append(f"{path.relative_to(root)} imports {sorted(bad)}")
    return problems


def folder_graph(root: Path, packages: Iterable[str] = PACKAGES) -> dict[str, set[str]]:
    """Which of the folders each folder imports."""
    _, graph = import_graph(root, packages)
    out: dict[str, set[str]] = {p: set() for p in packages}
    for module, targets in graph.items():
        for target in targets:
            if target.split(".")[0] != module.split(".")[0]:
                out[module.split(".")[0]].add(target.split(".")[0])
    return out


# --- the product ---------------------------------------------------------------------------


def test_no_import_circles() -> None:
    circles = import_circles(ROOT)
    assert not circles, "\n".join(circles)


def test_dependency_direction() -> None:
    problems = forbidden_imports(ROOT)
    assert not problems, "\n".join(problems)


def _drawn_layers() -> dict[str, set[str]]:
    """docs/design.md's layers: the ``<folder>/ -> <folder>/, ...`` lines of the block after
    its "The layers" heading."""
    text = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    section = text.split("## The layers", 1)[1].split("\n## ", 1)[0]
    block = section.split("```text\n", 1)[1].split("```", 1)[0]
    drawn: dict[str, set[str]] = {}
    for line in block.splitlines():
        m = re.match(r"(\w+)/\s+->\s+(.*?)\s*(?:#.*)?$", line)
        if m:
            drawn[m[1]] = set(re.findall(r"(\w+)/", m[2]))
    return drawn


def test_design_md_draws_the_folders_as_the_code_imports_them() -> None:
    assert _drawn_layers() == folder_graph(ROOT)


def test_picamera2_is_imported_lazily() -> None:
    """picamera2 may only be imported inside a function, never at module level."""
    for path in sorted(ROOT.rglob("*.py")):
        if ".venv" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [
                    node.module or ""]
                assert not any(m.startswith("picamera2") for m in mods), path


# --- the checks themselves, on a made-up tree ----------------------------------------------


def _tree(root: Path, files: Mapping[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_circle_is_found_and_named_by_its_files(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "vision/__init__.py": "",
        "vision/low.py": "from vision.high import thing\n",  # the upward import
        "vision/high.py": "import vision.mid\n",
        "vision/mid.py": "def f() -> None:\n    from vision import low\n",  # lazy, still a tie
        "vision/alone.py": "from vision.low import x\n",  # into the circle, not part of it
    })
    [circle] = import_circles(root, ["vision"])
    assert circle.startswith("import circle of 3 files: vision/high.py, vision/low.py, "
                             "vision/mid.py\n")
    assert "vision/mid.py:2 imports vision.low" in circle
    assert "alone" not in circle


def test_type_checking_and_relative_imports_count(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "display/__init__.py": "",
        "display/menu.py": ("from typing import TYPE_CHECKING\n"
                            "if TYPE_CHECKING:\n    from display.screen import Screen\n"),
        "display/screen.py": "from . import menu\n",
        "tablekeeper/__init__.py": "",
        "tablekeeper/games/__init__.py": "from .. import referee\n",
        "tablekeeper/referee.py": "from .games import Kit\n",
    })
    circles = import_circles(root)
    assert len(circles) == 2
    assert "display/menu.py, display/screen.py" in circles[0]
    assert "tablekeeper/games/__init__.py, tablekeeper/referee.py" in circles[1]


def test_a_package_importing_its_own_submodule_is_no_circle(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "display/__init__.py": "from display.games import wink\n",
        "display/games/__init__.py": "from display.games.wink import DISPLAY\n",
        "display/games/wink.py": "DISPLAY = 1\n",
    })
    assert import_circles(root) == []
    assert folder_graph(root)["display"] == set()


def test_an_upward_import_is_caught_inside_a_function_too(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "vision/__init__.py": "",
        "vision/cam.py": "def f() -> None:\n    from tablekeeper.kiosk import run\n",
        "engine/__init__.py": "",
        "engine/rules.py": "if True:\n    import display.fonts\n",
        "firmware/__init__.py": "",
        "firmware/ok.py": "import gpiozero\n",
    })
    assert forbidden_imports(root) == ["engine/rules.py imports ['display']",
                                       "vision/cam.py imports ['tablekeeper']"]
    assert folder_graph(root, ["engine", "vision", "firmware"]) == {
        "engine": set(), "vision": set(), "firmware": set()}
