"""The Pi's lock (requirements/pi-bookworm-aarch64.txt): exact versions with hashes, matching
pyproject.toml's dependencies; the installer uses it with --require-hashes, and .ci/pi-deps
tests the same versions. (That it still resolves against PyPI is `requirements/lock-pi.sh
--check`, run by .ci/pi-deps: it needs the network.)"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements" / "pi-bookworm-aarch64.txt"
PINS = ROOT / "requirements" / "pi.in"


def _lock() -> dict[str, tuple[Version, list[str]]]:
    text = LOCK.read_text(encoding="utf-8").replace("\\\n", " ")
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


def test_every_line_is_an_exact_version_with_a_hash() -> None:
    lock = _lock()
    assert lock and all(hashes for _, hashes in lock.values())


def test_the_lock_satisfies_every_pyproject_dependency() -> None:
    lock = _lock()
    for req in _pyproject_deps():
        name = canonicalize_name(req.name)
        assert name in lock, f"{req} is not in the lock"
        assert req.specifier.contains(lock[name][0], prereleases=True), \
            f"the lock's {name} {lock[name][0]} does not satisfy pyproject's {req}"


def test_the_lock_holds_the_pins_and_what_they_need() -> None:
    lock = _lock()
    pins = {canonicalize_name(Requirement(line).name): Requirement(line)
            for line in PINS.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")}
    for name, req in pins.items():
        assert str(req.specifier).startswith("=="), f"{req}: pi.in pins exact versions"
        assert req.specifier.contains(lock[name][0]), f"{name}: lock and pi.in differ"
    # the kiosk's dependencies, and the café publisher's (paho-mqtt, of the `cafe` extra: the
    # box runs tablekeeper-publisher beside the kiosk; the board's Starlette is not on the box)
    kiosk = {canonicalize_name(r.name) for r in _pyproject_deps()}
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    cafe = {canonicalize_name(Requirement(r).name): Requirement(r)
            for r in data["project"]["optional-dependencies"]["cafe"]}
    assert set(pins) - kiosk == {"paho-mqtt"} and kiosk <= set(pins)
    paho = canonicalize_name("paho-mqtt")
    assert cafe[paho].specifier.contains(lock[paho][0])
    # the rest are the pins' own dependencies (gpiozero -> colorzero -> setuptools)
    assert set(lock) - set(pins) == {"colorzero", "setuptools"}


def test_the_pi_keeps_numpy_1_and_opencv_4_11() -> None:
    lock = _lock()
    assert lock["numpy"][0] < Version("2")
    assert lock["opencv-python-headless"][0] == Version("4.11.0.86")


def test_the_installer_and_ci_use_the_lock() -> None:
    install = (ROOT / "systemd" / "install.sh").read_text(encoding="utf-8")
    assert "--require-hashes" in install and "requirements/pi-bookworm-aarch64.txt" in install
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
    assert "requirements/pi-bookworm-aarch64.txt" in pi_branch
    assert '"${TK_PI:-}" = 1' in tk and "/proc/device-tree/model" in tk
