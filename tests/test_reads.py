"""Every read of a file in product code goes through the one bounded reader (ground/files.py).

The box reads files a host (or an accident) may have replaced by a FIFO, a device or a
gigabyte of noise: a plain ``open().read()`` blocks on the FIFO before the screen is up, or
reads without a bound. This test lists, from the source itself, every call that reads a file
-- ``open(...)`` not for writing, ``Path.read_text``/``read_bytes``, ``json.load``,
``tomllib.load``, ``cv2.imread``, ``numpy.load``, ``pickle.load`` -- and fails on one that is
not in :data:`ALLOWED` (each entry with its reason). Reads through :mod:`ground.files`
(``read_regular``, ``read_text``, ``read_head``) and the image reader built on it
(``vision.imagefile.read_image_file``) are the way.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("engine", "vision", "firmware", "display", "tablekeeper", "ground")

#: (file, the call as shown by _describe): why this read may stay a plain one
ALLOWED: dict[tuple[str, str], str] = {
    ("display/fonts/make_subset.py", "path.read_text"):
        "a build tool run on a checkout: reads our own source to find the characters",
    ("display/fonts/make_subset.py", "(root / 'pyproject.toml').read_text"):
        "a build tool run on a checkout: reads our own pyproject.toml",
    ("display/fonts/make_subset.py", "manifest.read_text"):
        "a build tool run on a checkout: reads our own bundled manifests",
    ("tablekeeper/cafe/broker.py", "self.log_file.read_text"):
        "the log of the mosquitto this process started itself (a test/demo broker), "
        "shown when it fails to start",
}

READ_CALLS = {"read_text", "read_bytes"}
LOAD_CALLS = {("json", "load"), ("tomllib", "load"), ("cv2", "imread"), ("np", "load"),
              ("numpy", "load"), ("pickle", "load")}


def _describe(func: ast.expr) -> str:
    return ast.unparse(func)


def _mode(call: ast.Call, position: int) -> str | None:
    """The mode argument of an open call, if it is a constant (None: the default, "r")."""
    for kw in call.keywords:
        if kw.arg == "mode" and isinstance(kw.value, ast.Constant):
            return str(kw.value.value)
    if len(call.args) > position and isinstance(call.args[position], ast.Constant):
        return str(call.args[position].value)  # type: ignore[attr-defined]
    return None


def _path_like(base: ast.expr) -> bool:
    """Could ``base.open()`` be ``Path.open``? Not ``os.open`` (a descriptor, no read), not
    a class's ``open`` (``Journal.open``), not an object's own (``self.screen.open``)."""
    root = base
    while isinstance(root, ast.Attribute):
        root = root.value
    if isinstance(root, ast.Name) and (root.id in ("os", "self") or root.id[:1].isupper()):
        return isinstance(base, ast.Call)
    return True


def _is_read(call: ast.Call) -> str | None:
    """The call's description when it reads a file, else None."""
    func = call.func
    if isinstance(func, ast.Attribute):
        base = func.value
        if func.attr in READ_CALLS:
            return _describe(func)
        if isinstance(base, ast.Name) and (base.id, func.attr) in LOAD_CALLS:
            return _describe(func)
        if func.attr == "open" and _path_like(base) and (
                not call.args or isinstance(call.args[0], ast.Constant)):
            mode = _mode(call, 0)  # (Path.open(mode): a class's or an object's own open
            if mode is None or not set(mode) & set("wax"):  # takes other arguments)
                return _describe(func)
        if func.attr == "fdopen":
            mode = _mode(call, 1)
            if mode is None or not set(mode) & set("wax"):
                return _describe(func)
    elif isinstance(func, ast.Name) and func.id == "open":
        mode = _mode(call, 1)
        if mode is None or not set(mode) & set("wax"):
            return "open"
    return None


def reads() -> list[tuple[str, int, str]]:
    """Every plain read in product code: (file, line, the call)."""
    out = []
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and (what := _is_read(node)) is not None:
                    out.append((rel, node.lineno, what))
    return out


def test_every_read_goes_through_the_bounded_reader() -> None:
    found = reads()
    bad = [f"{f}:{line}: {what}" for f, line, what in found if (f, what) not in ALLOWED]
    assert not bad, ("plain reads of files (use ground.files.read_text/read_regular, or add "
                     "an ALLOWED entry with its reason):\n" + "\n".join(bad))
    unused = set(ALLOWED) - {(f, what) for f, _, what in found}
    assert not unused, f"ALLOWED entries no longer needed: {sorted(unused)}"


def test_the_check_sees_a_plain_read() -> None:
    """The lister finds each kind of read (a test that cannot fail is worse than none)."""
    source = """
import json, tomllib, cv2
from pathlib import Path
a = Path("x").read_text()
b = Path("x").read_bytes()
c = open("x").read()
d = json.load(open("x"))
e = tomllib.load(open("x", "rb"))
f = cv2.imread("x")
with Path("x").open() as fh: pass
with open("x", "w") as out: pass
"""
    calls = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call)]
    found = sorted(w for n in calls if (w := _is_read(n)) is not None)
    assert found == sorted(["Path('x').read_text", "Path('x').read_bytes", "open",
                            "json.load", "open", "tomllib.load", "open", "cv2.imread",
                            "Path('x').open"])
