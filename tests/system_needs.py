"""Skips for what this machine lacks, tagged so that the run can say what and how to get it.

A test that needs something the Python venv cannot bring skips through one of these, never
fails as if the product had:

- a Debian package (a broker, a browser, a library): :func:`requires_system` (a mark) or
  :func:`skip_for_system` (inside a test); the package must be one of
  ``tools/system-deps.sh --list``, the one list .ci/run installs from;
- root (a mount, a user made for the test): :func:`requires_root` / :func:`skip_for_root`.

The skip reasons start with a tag (:data:`PACKAGE_TAG`, :data:`ROOT_TAG`) that
tests/conftest.py collects, so ``./tk test`` ends with one line naming them and the command
that installs the packages (:data:`INSTALL`).
"""

from __future__ import annotations

import os
import re
from typing import NoReturn

import pytest

PACKAGE_TAG = "system package missing"
ROOT_TAG = "needs root"
#: the one command that installs every package the tests use (what .ci/run runs)
INSTALL = "sudo tools/system-deps.sh"

_REASON = re.compile(rf"^(?:Skipped: )?(?:({PACKAGE_TAG}): ([\w.+-]+)|({ROOT_TAG})): ")


def package_reason(package: str, what: str) -> str:
    """The skip reason of a test that needs the Debian package ``package`` for ``what``."""
    return f"{PACKAGE_TAG}: {package}: {what} ({INSTALL} installs it)"


def root_reason(what: str) -> str:
    return f"{ROOT_TAG}: {what} (CI runs as root)"


def requires_system(package: str, found: object, what: str) -> pytest.MarkDecorator:
    """Skip unless ``found`` (the package's file, its check's result) is truthy."""
    return pytest.mark.skipif(not found, reason=package_reason(package, what))


def skip_for_system(package: str, what: str) -> NoReturn:
    pytest.skip(package_reason(package, what))


def is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def requires_root(what: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(not is_root(), reason=root_reason(what))


def skip_for_root(what: str) -> NoReturn:
    pytest.skip(root_reason(what))


def parse(reason: str) -> tuple[str, str] | None:
    """``("package", name)``, ``("root", "")`` or None (not one of these skips)."""
    m = _REASON.match(reason)
    if m is None:
        return None
    return ("package", m[2]) if m[1] else ("root", "")


def summary(needs: list[tuple[str, str]]) -> str:
    """The run's closing line: the packages whose tests skipped (with how many), the command
    that installs them, and how many more skipped for want of root."""
    counts: dict[str, int] = {}
    for kind, name in needs:
        if kind == "package":
            counts[name] = counts.get(name, 0) + 1
    roots = sum(1 for kind, _ in needs if kind == "root")
    if counts:
        listed = ", ".join(f"{name} ({n} test{'s' * (n != 1)})"
                           for name, n in sorted(counts.items()))
        line = (f"system packages: skipped for lack of {listed}; install them with "
                f"'{INSTALL}' (what .ci/run runs), or run './tk test --full'")
    else:
        line = "system packages: no test skipped for lack of one"
    if roots:
        line += f"; {roots} more skipped: they need root, as CI runs"
    return line
