"""The question about a card the camera could not name (issue 37), as the screen shows it:
a pure value the app fills (:class:`AskView`) and its screen (:func:`draw_ask`).

The card's picture as the camera saw it, beside its best candidates a page of
:data:`PAGE` at a time (the best first and focused: *confirm* names it in one press; the next
best on a second page, *back* or "more cards" turns to it), then "none of these" (the game's
entry by hand) and "later" (drawn by ``display.screens.draw_ask``). The focused answer is
echoed above the cards in the screen's largest text: what *confirm* will do. The names and
pictures of the candidates come from the game's deck (``CardView``), so the screen knows no
game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from display.model import CardView

PICK = "ask.pick"
NONE = "ask.none"
LATER = "ask.later"
MORE = "ask.more"  # the other page of candidates (touch; *back* for the host buttons)
#: Candidates on a page.
PAGE = 3


@dataclass(frozen=True)
class AskView:
    """What the question screen draws: ``crop`` the card as the camera saw it (RGB),
    ``candidates`` its best cards on the page shown (best first) and ``waiting`` the
    questions pending in all (this one included)."""

    serial: int
    candidates: tuple[CardView, ...]
    crop: Any = field(default=None, compare=False, repr=False)
    waiting: int = 1
    #: the game (zh-TW, en), for the header
    titles: tuple[str, str] = ("", "")
    #: the page shown (0: the best :data:`PAGE`) and how many there are
    page: int = 0
    pages: int = 1
