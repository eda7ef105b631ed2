"""What the camera reports to the game: a card that settled in a zone.

Its own small module because both sides of the game seam use it: the referee hands it to the
kit's table adapter (:meth:`tablekeeper.games.TableAdapter.card_seen`), and the seam's
protocol names it; neither imports the other for it (issue 42: no import circles).
``tablekeeper.referee.CardSeen`` is the same class.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CardSeen:
    """A card the camera saw settle in a zone (from the vision tracker)."""

    card_id: str  # the deck's id, e.g. "i07"
    t_ns: int  # the frame's timestamp: when the card was first seen
    score: float = 1.0
    margin: float = 1.0
    #: First seen in the first frames after the camera started or came back: it may have lain
    #: there already (the camera cannot tell), e.g. the card the host turned over by hand
    #: while the camera was missing.
    lying: bool = False
    #: the calibrated zone it lies in ("centre", "row1", "r3c4" ...; None: uncalibrated)
    zone: str | None = None
    #: where it lies in the frame (px; None: not told)
    centre: tuple[float, float] | None = None
