"""Templates from one photo of several cards in a known order, and templates whose border is
not the card (issue 30 item 2: ``vision.layout``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.deck import Deck
from vision.layout import LayoutError, border_problem, cards_in_layout, recut
from vision.match import DeckMatcher
from vision.simtable import Conditions, Pose, SimulatedTable

DemoDecks = Callable[[str], Deck]


def _grid(deck: Deck, ids: list[str], rows: int, columns: int, seed: int = 4) -> np.ndarray:
    table = SimulatedTable(deck, seed=seed, conditions=Conditions.clean("cloth"))
    for k, cid in enumerate(ids):
        r, c = divmod(k, columns)
        table.place(cid, Pose(120 + 190 * c, 110 + 250 * r, angle=(k % 3 - 1) * 4.0,
                              width=120))
    return table.capture().image


def test_a_grid_of_cards_gives_each_cards_template_in_reading_order(
        demo_decks: DemoDecks) -> None:
    deck = demo_decks("wink")
    ids = list(deck.ids[3:9])
    image = _grid(deck, ids, 2, 3)
    laid = cards_in_layout(image, deck.size, 2, 3)
    assert [(c.row, c.column) for c in laid] == [(r, c) for r in range(2) for c in range(3)]
    matcher = DeckMatcher.from_deck(deck)
    got = [m.card_id for m in matcher.match_many([c.template for c in laid])]
    assert got == ids
    assert all(border_problem(c.template) is None for c in laid)


def test_a_layout_that_is_not_the_one_asked_for_says_what_it_saw(
        demo_decks: DemoDecks) -> None:
    deck = demo_decks("wink")
    image = _grid(deck, list(deck.ids[:5]), 2, 3)  # the last cell empty
    with pytest.raises(LayoutError, match="5 card"):
        cards_in_layout(image, deck.size, 2, 3)
    with pytest.raises(LayoutError, match="row"):
        cards_in_layout(_grid(deck, list(deck.ids[:6]), 2, 3), deck.size, 3, 2)
    with pytest.raises(LayoutError):
        cards_in_layout(image, deck.size, 0, 3)


def _with_table(template: np.ndarray, side: str, px: int, colour: int = 30) -> np.ndarray:
    """``template`` cut too large: ``px`` of table along ``side``, the card shifted in."""
    h, w = template.shape[:2]
    out = np.full_like(template, colour)
    if side == "left":
        out[:, px:] = cv2.resize(template, (w - px, h), interpolation=cv2.INTER_AREA)
    else:  # top
        out[px:, :] = cv2.resize(template, (w, h - px), interpolation=cv2.INTER_AREA)
    return out


def test_a_template_holding_a_strip_of_table_is_refused_and_cut_again(
        demo_decks: DemoDecks) -> None:
    deck = demo_decks("something-missing-items")
    clean = deck.template(deck.ids[0])
    assert border_problem(clean) is None
    bad = _with_table(clean, "left", 6)
    why = border_problem(bad)
    assert why is not None and "left" in why and "table" in why
    again = recut(bad, deck.size)
    assert again is not None and border_problem(again) is None
    # The re-cut template is the card again (what the strip of table hid is a few pixels).
    a = cv2.cvtColor(again, cv2.COLOR_BGR2GRAY).astype(np.float32)
    b = cv2.cvtColor(clean, cv2.COLOR_BGR2GRAY).astype(np.float32)
    assert float(cv2.matchTemplate(a, b, cv2.TM_CCOEFF_NORMED).max()) > 0.9


def test_a_template_half_of_another_card_or_table_is_refused_outright(
        demo_decks: DemoDecks) -> None:
    deck = demo_decks("something-missing-items")
    clean = deck.template(deck.ids[1])
    bad = _with_table(clean, "top", clean.shape[0] // 4)
    assert border_problem(bad) is not None
    assert recut(bad, deck.size) is None


def test_enrol_a_new_deck_from_one_photo_of_a_grid_at_the_command_line(
        tmp_path: Path, demo_decks: DemoDecks, capsys: pytest.CaptureFixture[str]) -> None:
    from tablekeeper.cli import main
    from vision.deck import load_deck

    deck = demo_decks("wink")
    ids = list(deck.ids[10:16])
    photo = tmp_path / "grid.png"
    ok, buf = cv2.imencode(".png", _grid(deck, ids, 2, 3))
    assert ok
    photo.write_bytes(buf.tobytes())
    out_dir = tmp_path / "mine"
    rc = main(["vision", "enroll", "--deck", str(out_dir), "--game", "wink",
               "--from-layout", str(photo), "--layout", "grid:2x3", "--ids",
               ",".join(["a", "b", "c", "d", "-", "f"])])
    text = capsys.readouterr().out
    assert rc == 0, text
    assert "row 2, place 3 of the photo" in text and "every card enrolled (5)" in text
    mine = load_deck(out_dir)
    assert mine.ids == ("a", "b", "c", "d", "f")
    matcher = DeckMatcher.from_deck(mine)
    got = [matcher.match(deck.template(c)).card_id for c in ids]
    assert got[:4] == ["a", "b", "c", "d"] and got[5] == "f"
    # Asked for a layout the photo does not show: says so, writes nothing more.
    rc = main(["vision", "enroll", "--deck", str(out_dir), "--from-layout", str(photo),
               "--layout", "row:6", "--ids", ",".join(ids)])
    err = capsys.readouterr().err
    assert rc == 2 and "row" in err
    rc = main(["vision", "enroll", "--deck", str(out_dir), "--from-layout", str(photo),
               "--layout", "grid:2x3"])
    assert rc == 2 and "--ids" in capsys.readouterr().err
