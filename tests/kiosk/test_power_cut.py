"""Power-cut safety: SIGKILL a journaling game at random moments, restart it, lose nothing.

The process under test plays a seeded simulated game through the real journal
(``powercut_driver.py``: ``JournaledGame`` + ``SimTable``) and prints ``ACK <seq> <event>`` after
each event is journaled (fsynced). The test kills it with SIGKILL right after reading a random
number of acknowledgements, i.e. at whatever point it has reached by then (mid-write, mid-fsync,
between fsync and the ACK, during start-up and replay), and starts it again on the same
journal, at least ``KILLS`` times.

SIGKILL alone loses nothing the process wrote (the kernel's page cache survives it), so each
kill is made a power cut: what was not yet fsynced may be lost. Everything after the last
durable point (the end of the last acknowledged line; the header once the driver said START)
is cut at a random byte, and sometimes NUL bytes are left where the lost data was (as some file
systems do after a crash). The torn last line this leaves must be dropped on restart. It checks:

- **no acknowledged event is lost**: after every kill the journal still holds every event
  acknowledged so far, at its seq, unchanged; an ACK never reuses an acknowledged seq;
- **no corrupt state**: the journal reads back (at most a torn last line, never damage in the
  middle) and the engine replays it; on restart the journal matches the simulation event for
  event (the driver exits 3 on divergence);
- **the same game**: the finished journal holds exactly the events of an uninterrupted run of
  the same seed, and the final state (scores, round, outcome) is the same.

(That the fsync really comes before the acknowledgement is checked in ``tests/test_journal.py``.)
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from engine import something_missing as sm
from tablekeeper.games.something_missing.simplayers import SimTable
from tablekeeper.journal import read, replay

DRIVER = Path(__file__).with_name("powercut_driver.py")
KILLS = 50
PLAYERS = 5
#: wall-clock guard for CI; the run normally takes a fraction of it
BUDGET_S = 120.0


@dataclass
class Figures:
    kills: int = 0
    restarts: int = 0
    games: int = 0
    torn_tails: int = 0
    written_not_acked: int = 0
    killed_before_start: int = 0
    bytes_lost: int = 0
    events: int = 0
    seconds: float = 0.0
    acked: dict[int, str] = field(default_factory=dict)


def reference_game(seed: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The uninterrupted run of the same seed, in process, without a journal."""
    table = SimTable.generate(random.Random(seed), PLAYERS, sm.Variant.STANDARD)
    state = sm.initial_state()
    events = []
    while not sm.is_over(state):
        event = table.propose(state)
        result = sm.apply(state, event)
        assert isinstance(result, sm.State)
        events.append(event.to_dict())
        state = result
    return events, sm.summary(state)


def lose_unsynced_tail(path: Path, acked: dict[int, str], header_durable: bool,
                       rng: random.Random) -> int:
    """Model the power cut: drop a random part of what is past the last durable point.

    Returns how many bytes were lost.
    """
    if not path.exists():
        return 0
    data = path.read_bytes()
    lines = data.split(b"\n")
    if not acked and not header_durable:
        # Killed before the journal was surely created: the journal writes its header beside
        # and links it into place, so the file holds the whole header or is not there at all
        # (its directory entry may not have reached the card).
        if rng.random() < 0.5:
            path.unlink()
            return len(data)
        header_durable = True
    # line 1 is the header, line k+1 event seq k (the demo never undoes)
    durable_lines = 1 + max(acked) if acked else int(header_durable)
    durable = sum(len(ln) + 1 for ln in lines[:durable_lines]) if durable_lines else 0
    durable = min(durable, len(data))
    cut = rng.randint(durable, len(data))
    tail = b"\0" * rng.randint(1, 64) if cut < len(data) and rng.random() < 0.3 else b""
    with open(path, "r+b") as f:
        f.truncate(cut)
        f.seek(cut)
        f.write(tail)
    return len(data) - cut


def journal_events(path: Path) -> tuple[dict[int, str], bool]:
    """seq -> canonical event JSON of the events in force, and whether a torn tail was cut."""
    contents = read(path)
    replay(contents)  # must replay: no corrupt state
    out = {r.seq: json.dumps(r.event.to_dict(), sort_keys=True)
           for r in contents.active() if r.event is not None}
    return out, contents.torn_tail is not None


def play_with_kills(journal: Path, seed: int, rng: random.Random, figures: Figures,
                    kills_wanted: int, deadline: float) -> str:
    """Run the driver on ``journal`` until the game is over, killing it ``kills_wanted`` times.

    Returns the DONE line's summary JSON.
    """
    argv = [sys.executable, str(DRIVER), str(journal), "--seed", str(seed),
            "--players", str(PLAYERS)]
    kills_left = kills_wanted
    acked = figures.acked
    header_durable = False  # true once a run said START: Journal.create had returned
    while True:
        assert time.monotonic() < deadline, f"over the {BUDGET_S} s budget: {figures}"
        kill = kills_left > 0
        # 1 in 10 kills lands during start-up (imports, opening/truncating the journal)
        kill_after = -1 if kill and rng.random() < 0.1 else rng.randrange(0, 6)
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, bufsize=1)
        assert proc.stdout is not None
        lines: list[str] = []
        if kill and kill_after < 0:
            proc.send_signal(signal.SIGKILL)
        else:
            seen = 0
            for line in proc.stdout:
                lines.append(line)
                if line.startswith("ACK "):
                    seen += 1
                if kill and seen > kill_after:
                    proc.send_signal(signal.SIGKILL)
                    break
        # Read what is left through the same text stream: lines it has already buffered
        # (e.g. DONE, when the game ended just as it was killed) would be lost to
        # communicate(), which reads the pipe underneath it.
        lines.extend(proc.stdout.readlines())
        assert proc.stderr is not None
        err = proc.stderr.read()
        proc.wait(timeout=60)
        complete = [ln.rstrip("\n") for ln in lines if ln.endswith("\n")]
        killed = proc.returncode == -signal.SIGKILL
        if not killed:
            assert proc.returncode == 0, f"driver failed ({proc.returncode}): {err}"
        figures.restarts += 1

        started = any(ln.startswith("START ") for ln in complete)
        header_durable = header_durable or started
        for ln in complete:
            if ln.startswith("ACK "):
                _, seq_text, event_json = ln.split(" ", 2)
                seq = int(seq_text)
                assert seq not in acked, f"seq {seq} acknowledged twice: an ACK was lost"
                acked[seq] = event_json

        if killed:
            figures.kills += 1
            kills_left -= 1
            figures.killed_before_start += not started
            if journal.exists() and b"\n" in journal.read_bytes():
                on_disk, _ = journal_events(journal)
                figures.written_not_acked += len(set(on_disk) - set(acked)) > 0
            figures.bytes_lost += lose_unsynced_tail(journal, acked, header_durable, rng)
            if journal.exists() and b"\n" in journal.read_bytes():
                on_disk, torn = journal_events(journal)
                figures.torn_tails += torn
            else:
                on_disk = {}
            for seq, event_json in acked.items():
                assert on_disk.get(seq) == event_json, (
                    f"acknowledged event seq {seq} is not in the journal after the cut")
            continue
        done = [ln for ln in complete if ln.startswith("DONE ")]
        assert len(done) == 1, complete[-5:]
        return done[0][len("DONE "):]


@pytest.mark.slow
def test_power_cuts_lose_no_acknowledged_event(tmp_path: Path) -> None:
    rng = random.Random(20261129)
    figures = Figures()
    start = time.monotonic()
    deadline = start + BUDGET_S
    seed = 0
    while figures.kills < KILLS:
        seed += 1
        journal = tmp_path / f"game-{seed}.jsonl"
        figures.acked = {}
        ref_events, ref_summary = reference_game(seed)
        done = play_with_kills(journal, seed, rng, figures, KILLS - figures.kills, deadline)
        figures.games += 1
        figures.events += len(ref_events)

        # the same game as without power cuts: every event, in order, and the same end
        final, torn = journal_events(journal)
        assert not torn
        assert [json.loads(final[s]) for s in sorted(final)] == ref_events
        assert sorted(final) == list(range(1, len(ref_events) + 1))
        assert json.loads(done) == json.loads(json.dumps(ref_summary, sort_keys=True))
        assert sm.summary(replay(journal)) == ref_summary
    figures.seconds = time.monotonic() - start
    print(f"\npower cuts: {figures.kills} SIGKILLs over {figures.restarts} runs of "
          f"{figures.games} game(s), {figures.events} events; torn last line left "
          f"{figures.torn_tails}x ({figures.bytes_lost} unsynced bytes dropped), "
          f"written-but-not-acknowledged {figures.written_not_acked}x, "
          f"killed during start-up {figures.killed_before_start}x; "
          f"{figures.seconds:.1f} s")
    assert figures.kills >= KILLS


def test_driver_refuses_a_diverging_journal(tmp_path: Path) -> None:
    """The resume check can fail: a journal from another seed is not silently continued."""
    journal = tmp_path / "g.jsonl"
    argv = [sys.executable, str(DRIVER), str(journal), "--seed", "1", "--players", "5"]
    first = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    assert first.stdout is not None
    for line in first.stdout:
        if line.startswith("ACK 3 "):
            first.kill()
            break
    first.communicate(timeout=60)
    other = subprocess.run([*argv[:-3], "2", "--players", "5"], capture_output=True,
                           text=True, check=False, timeout=60)
    assert other.returncode == 3
    assert "DIVERGED" in other.stderr
    assert os.path.getsize(journal) > 0
