"""The fault suite's tally (tests/kiosk/test_faults_*.py): how many faults were injected, how
many the kiosk survived (the test passed: no crash, the reason said, nothing acknowledged
lost), printed at the end of the run. Each test case is one fault unless it records its own
count (``record_property("faults", n)``: a test that tries many in a loop, or each example
of a hypothesis test). Rerun it with:

    PYTHONPATH=. .venv/bin/pytest -q -n 2 -p no:cacheprovider tests/kiosk/test_faults_*.py
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest


@dataclass
class _Tally:
    tried: int = 0
    survived: int = 0
    tests: int = 0
    failed: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


_TALLY = _Tally()


def _faults(report: pytest.TestReport) -> int:
    counts = [v for k, v in report.user_properties if k == "faults" and isinstance(v, int)]
    return sum(counts) if counts else 1


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if "/test_faults_" not in "/" + report.nodeid.replace("::", "/"):
        return
    if report.when == "call" or (report.when == "setup" and not report.passed):
        _TALLY.tests += 1
        if report.skipped:
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
            _TALLY.skipped.append(f"{report.nodeid} ({reason})")
            return
        faults = _faults(report)
        _TALLY.tried += faults
        if report.passed:
            _TALLY.survived += faults
        else:
            _TALLY.failed.append(report.nodeid)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    t = _TALLY
    if not t.tests:
        return
    lost = "nothing lost" if not t.failed else f"{len(t.failed)} tests FAILED"
    terminalreporter.write_line(
        f"fault suite: {t.tried} faults tried in {t.tests} tests, {t.survived} survived, "
        f"{lost}; {len(t.skipped)} tests skipped")
    for name in t.failed:
        terminalreporter.write_line(f"  failed: {name}")
    for name in t.skipped:
        terminalreporter.write_line(f"  skipped: {name}")
