"""A deck written whole (``vision.deck.replace_deck``): after a power cut at any moment of
the save, a full disk or a kill, the folder is the old deck or the new one, never a mix.

The power cut is real: a child process saves the deck and is killed (SIGKILL) just before
its n-th write or rename, for every n of the save; the parent then loads what is on disk.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import vision.deck as vdeck
from vision.deck import CardSpec, Deck, load_deck, recover_deck, replace_deck

SIZE = (60, 90)


def _deck(root: Path, shade: int, ids: tuple[str, ...] = ("a", "b", "c")) -> Deck:
    deck = Deck(root=root, id="t", game="the-game", title_zh="測", title_en="t", demo=False,
                shape="card", size=SIZE, use_colour=False, cards=())
    for k, cid in enumerate(ids):
        img = np.full((SIZE[1], SIZE[0], 3), shade + k, dtype=np.uint8)
        more = [np.full_like(img, shade + k + 40)]
        deck = deck.with_card(CardSpec(cid, cid, cid, "card", f"{cid}.png"), img, more)
    return deck


def _shade(deck: Deck) -> int:
    return int(deck.template(deck.ids[0])[0, 0, 0])


def test_replace_deck_swaps_the_whole_deck(tmp_path: Path) -> None:
    root = tmp_path / "deck"
    replace_deck(_deck(root, 10), root)
    new = replace_deck(_deck(root, 100, ("a", "b", "c", "d")), root)
    assert _shade(new) == 100 and new.ids == ("a", "b", "c", "d")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck"]  # nothing left beside it


CHILD = textwrap.dedent("""
    import os, signal, sys
    sys.path.insert(0, {src!r})
    sys.path.insert(0, {tests!r})
    import vision.deck as vdeck
    from test_deck_replace import _deck
    from pathlib import Path
    n = int(sys.argv[1])
    calls = [0]
    def hook(real):
        def f(*a, **k):
            calls[0] += 1
            if calls[0] == n:
                os.kill(os.getpid(), signal.SIGKILL)  # the power goes, mid-save
            return real(*a, **k)
        return f
    vdeck.atomic_write = hook(vdeck.atomic_write)
    vdeck.os.replace = hook(os.replace)
    root = Path(sys.argv[2])
    vdeck.replace_deck(_deck(root, 100, ("a", "b", "c", "d")), root)
""")


@pytest.mark.parametrize("cut", range(1, 14))
def test_a_power_cut_mid_save_leaves_the_old_deck_or_the_new(tmp_path: Path, cut: int) -> None:
    root = tmp_path / "deck"
    replace_deck(_deck(root, 10), root)
    script = tmp_path / "child.py"
    here = Path(__file__).parent
    script.write_text(CHILD.format(src=str(here.parent.parent), tests=str(here)))
    run = subprocess.run([sys.executable, str(script), str(cut), str(root)],
                         capture_output=True, text=True, timeout=120)
    killed = run.returncode == -signal.SIGKILL
    assert killed or run.returncode == 0, run.stderr
    deck = load_deck(root)  # (recovers an interrupted swap first)
    if _shade(deck) == 10:
        assert deck.ids == ("a", "b", "c") and killed
        assert [t[0, 0, 0] for t in deck.templates_of("c")] == [12, 52]
    else:
        assert _shade(deck) == 100 and deck.ids == ("a", "b", "c", "d")
        assert [t[0, 0, 0] for t in deck.templates_of("d")] == [103, 143]
    recover_deck(root)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("deck")) == ["deck"]


def test_a_full_disk_keeps_the_old_deck(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         ) -> None:
    root = tmp_path / "deck"
    replace_deck(_deck(root, 10), root)
    real = vdeck.atomic_write
    calls = [0]

    def full(path: Path, data: bytes) -> None:
        calls[0] += 1
        if calls[0] >= 4:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        real(path, data)

    monkeypatch.setattr(vdeck, "atomic_write", full)
    with pytest.raises(OSError) as caught:
        replace_deck(_deck(root, 100, ("a", "b", "c", "d")), root)
    assert caught.value.errno == errno.ENOSPC
    monkeypatch.setattr(vdeck, "atomic_write", real)
    deck = load_deck(root)
    assert _shade(deck) == 10 and deck.ids == ("a", "b", "c")
    assert not (tmp_path / "deck.new").exists()  # the half-written new deck is gone
