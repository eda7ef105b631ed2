"""What the machine lacks is named, once, with the one command that installs it.

tests/system_needs.py tags the skip reasons; tests/conftest.py collects them and ends the run
with one line; tools/system-deps.sh is the one list of Debian packages (.ci/run installs from
it). Here: every package a test names is on that list, .ci/run has no list of its own, the
closing line is the run's last (with xdist too), and the script names what is missing.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import system_needs

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tools" / "system-deps.sh"
HELPERS = {"requires_system", "skip_for_system"}


def _listed() -> list[str]:
    done = subprocess.run([str(SCRIPT), "--list"], capture_output=True, text=True, check=True,
                          timeout=60)
    return done.stdout.split()


def _names(arg: ast.expr) -> list[str]:
    """The package names an argument can be: a string, or either string of ``a if c else b``."""
    if isinstance(arg, ast.IfExp):
        return _names(arg.body) + _names(arg.orelse)
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return [arg.value]
    raise AssertionError(f"name the package as a string, not {ast.dump(arg)}")


def _named_in_tests() -> dict[str, list[str]]:
    """package -> where a test names it (the helpers' first argument)."""
    named: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in HELPERS and node.args):
                for name in _names(node.args[0]):
                    named.setdefault(name, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return named


def test_every_package_a_test_names_is_on_the_one_list() -> None:
    named = _named_in_tests()
    assert {"mosquitto", "chromium", "libchewing3", "libchewing3-data", "systemd",
            "shellcheck"} <= set(named)  # the helpers are used where those skips are
    missing = {name: where for name, where in named.items() if name not in _listed()}
    assert not missing, f"not in tools/system-deps.sh: {missing}"


def test_ci_installs_from_that_list_and_keeps_none_of_its_own() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "tools/system-deps.sh" in ci
    assert "apt-get" not in ci
    assert system_needs.INSTALL == "sudo tools/system-deps.sh"


def test_reasons_are_tagged_and_read_back() -> None:
    reason = system_needs.package_reason("mosquitto", "the café's broker")
    assert system_needs.parse(reason) == ("package", "mosquitto")
    assert system_needs.parse("Skipped: " + reason) == ("package", "mosquitto")
    assert system_needs.parse(system_needs.root_reason("mounting")) == ("root", "")
    assert system_needs.parse("no real card photo to enrol") is None


def test_the_line_names_the_packages_their_counts_and_the_command() -> None:
    line = system_needs.summary([("package", "mosquitto"), ("package", "libchewing3"),
                                 ("package", "mosquitto"), ("root", "")])
    assert line == ("system packages: skipped for lack of libchewing3 (1 test), mosquitto "
                    "(2 tests); install them with 'sudo tools/system-deps.sh' (what .ci/run "
                    "runs), or run './tk test --full'; 1 more skipped: they need root, as CI "
                    "runs")
    assert system_needs.summary([]) == "system packages: no test skipped for lack of one"


MADE_UP = '''
import pytest
from system_needs import requires_system, skip_for_system, skip_for_root

@requires_system("mosquitto", None, "a broker")
def test_broker() -> None:
    pass

def test_browser() -> None:
    skip_for_system("chromium", "a browser")

def test_mount() -> None:
    skip_for_root("a mount")

def test_data() -> None:
    pytest.skip("no photos")

@pytest.mark.parametrize("n", [1, 2])
def test_more_broker(n: int) -> None:
    skip_for_system("mosquitto", "a broker")

def test_fine() -> None:
    pass
'''


def test_the_run_ends_with_that_line_with_xdist(tmp_path: Path) -> None:
    """A made-up suite with this conftest, run as ./tk test runs it (two workers): the last
    line counts what each worker skipped for a package, and nothing else."""
    for name in ("conftest.py", "system_needs.py"):
        shutil.copy(ROOT / "tests" / name, tmp_path / name)
    (tmp_path / "test_made_up.py").write_text(MADE_UP, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "2", "-p",
                           "no:cacheprovider", str(tmp_path)], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path, env=dict(env, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stdout + done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert last == ("system packages: skipped for lack of chromium (1 test), mosquitto "
                    "(3 tests); install them with 'sudo tools/system-deps.sh' (what .ci/run "
                    "runs), or run './tk test --full'; 1 more skipped: they need root, as CI "
                    "runs"), done.stdout


def test_the_script_names_what_is_missing(tmp_path: Path) -> None:
    """On a PATH without chromium, setpriv, useradd or ldconfig: --check names them and
    fails; nothing is installed."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "dirname", "paste", "id", "sed"):
        found = shutil.which(tool)
        assert found is not None
        (bin_dir / tool).symlink_to(found)
    done = subprocess.run([str(bin_dir / "bash"), str(SCRIPT), "--check"], capture_output=True,
                          text=True, timeout=60, env={"PATH": str(bin_dir)})
    assert done.returncode == 1, done.stdout + done.stderr
    missing = done.stdout.removeprefix("missing: ").split()
    assert {"libchewing3", "chromium", "util-linux", "passwd"} <= set(missing), done.stdout
    assert set(missing) <= set(_listed())
