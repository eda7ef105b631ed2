"""The dependency direction of design.md, checked on the source itself."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

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


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_dependency_direction() -> None:
    problems = []
    for package, forbidden in FORBIDDEN.items():
        for path in sorted((ROOT / package).rglob("*.py")):
            bad = _imports(path) & forbidden
            if bad:
                problems.append(f"{path.relative_to(ROOT)} imports {sorted(bad)}")
    assert not problems, "\n".join(problems)


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
