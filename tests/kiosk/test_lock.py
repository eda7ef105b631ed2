"""The Pi's locks (requirements/pi-<release>-aarch64.txt, one per Pi OS release: bookworm,
trixie) and the development lock (requirements/dev.txt): exact versions with hashes, matching
pyproject.toml's dependencies; the installer uses the Pi's with --require-hashes, ./tk the
development one, and .ci/pi-deps tests Bookworm's versions. (That they still resolve against
PyPI is `requirements/lock-pi.sh --check` and `requirements/lock.sh --check`, run by
.ci/pi-deps: they need the network.)"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
RELEASES = ("bookworm", "trixie")
DEV_LOCK = ROOT / "requirements" / "dev.txt"


def _lock(release: str = "bookworm") -> dict[str, tuple[Version, list[str]]]:
    path = ROOT / "requirements" / f"pi-{release}-aarch64.txt"
    text = path.read_text(encoding="utf-8").replace("\\\n", " ")
    out: dict[str, tuple[Version, list[str]]] = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        m = re.match(r"^([A-Za-z0-9_.-]+)==(\S+)((?:\s+--hash=sha256:[0-9a-f]{64})+)\s*$", line)
        assert m, f"not an exact, hashed requirement: {line!r}"
        hashes = re.findall(r"sha256:([0-9a-f]{64})", m.group(3))
        out[canonicalize_name(m.group(1))] = (Version(m.group(2)), hashes)
    return out


def _pyproject_deps() -> list[Requirement]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [Requirement(r) for r in data["project"]["dependencies"]]


@pytest.mark.parametrize("release", RELEASES)
def test_every_line_is_an_exact_version_with_a_hash(release: str) -> None:
    lock = _lock(release)
    assert lock and all(hashes for _, hashes in lock.values())


@pytest.mark.parametrize("release", RELEASES)
def test_the_lock_satisfies_every_pyproject_dependency(release: str) -> None:
    lock = _lock(release)
    for req in _pyproject_deps():
        name = canonicalize_name(req.name)
        assert name in lock, f"{req} is not in the lock"
        assert req.specifier.contains(lock[name][0], prereleases=True), \
            f"the lock's {name} {lock[name][0]} does not satisfy pyproject's {req}"


@pytest.mark.parametrize("release", RELEASES)
def test_the_lock_holds_the_pins_and_what_they_need(release: str) -> None:
    lock = _lock(release)
    pins_file = ROOT / "requirements" / f"pi-{release}.in"
    pins = {canonicalize_name(Requirement(line).name): Requirement(line)
            for line in pins_file.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")}
    for name, req in pins.items():
        assert str(req.specifier).startswith("=="), f"{req}: {pins_file.name} pins exactly"
        assert req.specifier.contains(lock[name][0]), f"{name}: lock and {pins_file.name} differ"
    # the kiosk's dependencies, and the café publisher's (paho-mqtt and pydantic, of the `cafe`
    # extra: the box runs tablekeeper-publisher beside the kiosk, and checks every message
    # against the café's schema before it sends; the board's Starlette is not on the box)
    kiosk = {canonicalize_name(r.name) for r in _pyproject_deps()}
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    cafe = {canonicalize_name(Requirement(r).name): Requirement(r)
            for r in data["project"]["optional-dependencies"]["cafe"]}
    assert set(pins) - kiosk == {"paho-mqtt", "pydantic"} and kiosk <= set(pins)
    for publisher_dep in ("paho-mqtt", "pydantic"):
        name = canonicalize_name(publisher_dep)
        assert cafe[name].specifier.contains(lock[name][0])
    # the rest are the pins' own dependencies (gpiozero -> colorzero -> setuptools; pydantic's)
    assert set(lock) - set(pins) == {"colorzero", "setuptools", "annotated-types",
                                     "pydantic-core", "typing-extensions",
                                     "typing-inspection"}


def test_the_pi_keeps_numpy_1_and_opencv_4_11() -> None:
    lock = _lock()
    assert lock["numpy"][0] < Version("2")
    assert lock["opencv-python-headless"][0] == Version("4.11.0.86")


def test_trixie_has_debians_numpy_and_the_development_opencv() -> None:
    # Debian trixie's python3-numpy is 1:2.2.4+ds-1, what Pi OS's picamera2 stack is built on
    lock = _lock("trixie")
    assert lock["numpy"][0] == Version("2.2.4")
    dev = _dev_lock()
    assert lock["opencv-python-headless"][0] in dev["opencv-python-headless"]


def _dev_lock() -> dict[str, set[Version]]:
    """requirements/dev.txt: name -> the versions it locks (one per marker fork)."""
    text = DEV_LOCK.read_text(encoding="utf-8").replace("\\\n", " ")
    out: dict[str, set[Version]] = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = re.match(r"^([A-Za-z0-9_.-]+)==([^ ;]+)(?: ;[^-]*)?((?:\s+--hash=sha256:[0-9a-f]{64})+)"
                     r"\s*$", line)
        assert m, f"not an exact, hashed requirement: {line!r}"
        out.setdefault(canonicalize_name(m.group(1)), set()).add(Version(m.group(2)))
    return out


def test_the_development_lock_covers_every_dependency_and_extra() -> None:
    dev = _dev_lock()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    asked = [Requirement(r) for r in project["dependencies"]]
    asked += [Requirement(r) for rs in project["optional-dependencies"].values() for r in rs]
    for req in asked:
        name = canonicalize_name(req.name)
        assert name in dev, f"{req} is not in requirements/dev.txt: run requirements/lock.sh"
        assert any(req.specifier.contains(v, prereleases=True) for v in dev[name]), \
            f"requirements/dev.txt's {name} {dev[name]} does not satisfy {req}"


def test_tk_installs_the_development_lock_with_hashes() -> None:
    tk = (ROOT / "tk").read_text(encoding="utf-8")
    assert 'install --quiet --require-hashes -r "$dev_lock"' in tk
    assert "--no-deps" in tk and "requirements/lock.sh" in tk


def test_the_installer_and_ci_use_the_lock() -> None:
    install = (ROOT / "systemd" / "install.sh").read_text(encoding="utf-8")
    assert "--require-hashes" in install and "requirements/pi-$release-aarch64.txt" in install
    assert "--only-binary=:all:" in install
    pi_deps = (ROOT / ".ci" / "pi-deps").read_text(encoding="utf-8")
    assert "requirements/pi-bookworm-aarch64.txt" in pi_deps
    assert "lock-pi.sh --check" in pi_deps
    assert "numpy<2" not in pi_deps  # no second list of versions to drift from the lock


def test_tk_on_a_pi_installs_the_lock() -> None:
    # ./tk on a Pi (or with TK_PI=1: tools/arm64-test.sh --as-pi) installs the kiosk's exact
    # versions with their hashes before the project, as systemd/install.sh does.
    tk = (ROOT / "tk").read_text(encoding="utf-8")
    pi_branch = tk[tk.index("if is_pi && [ -z"):]
    pi_branch = pi_branch[:pi_branch.index("\n  fi\n")]
    assert "--require-hashes" in pi_branch and "--only-binary=:all:" in pi_branch
    assert "$(pi_lock)" in pi_branch and "requirements/pi-$release-aarch64.txt" in tk
    assert '"${TK_PI:-}" = 1' in tk and "/proc/device-tree/model" in tk


def _tk_check_deps(tmp_path: Path, pyproject: str) -> subprocess.CompletedProcess[str]:
    """./tk's check_deps (is the venv what pyproject.toml asks for?) on this test's venv,
    against ``pyproject`` (the text of a pyproject.toml)."""
    tk = (ROOT / "tk").read_text(encoding="utf-8")
    start = tk.index("check_deps() {")
    function = tk[start:tk.index("\n}\n", start) + 3]
    (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    venv = Path(sys.prefix)
    script = f'here={shlex.quote(str(tmp_path))}\n{function}\ncheck_deps {shlex.quote(str(venv))}\n'
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=False,
                          timeout=60)


def test_tk_names_what_pyproject_asks_for_that_the_lock_lacks(tmp_path: Path) -> None:
    if not (Path(sys.prefix) / "bin" / "python").exists():
        pytest.skip("not run from a venv (./tk's check needs its bin/python)")
    # (pytest and packaging are in every venv that runs this; the extras' markers count)
    head = '[project]\nname = "x"\nversion = "1"\ndependencies = ["pytest>=1"]\n'
    extras = ('[project.optional-dependencies]\ndev = ["packaging>=1", '
              '"no-such-package-tk>=1; platform_machine == \'no-such-machine\'"]\n')
    assert _tk_check_deps(tmp_path, head + extras).returncode == 0
    missing = head.replace('"pytest>=1"]', '"pytest>=1", "no-such-package-tk>=1"]')
    raised = extras.replace('"packaging>=1"', '"packaging>=999"')
    proc = _tk_check_deps(tmp_path, missing + raised)
    assert proc.returncode != 0
    assert "no-such-package-tk>=1 (installed: none)" in proc.stderr
    assert "packaging>=999 (installed: " in proc.stderr
