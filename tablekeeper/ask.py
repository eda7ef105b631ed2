"""Ask, don't guess (issue 37): a card the camera found but could not name is put to the host.

The camera reports such a card once it has lain still (:class:`vision.tracker.UnsureCard`:
its picture and its best 3 candidates, computed once). The loop keeps them in :class:`Asks`
(``Loop.asks``); the screen shows the oldest as a question over the game: the card's picture
beside its candidates, the best one focused, so *confirm* names it in one press. The
candidates come a page of :data:`PAGE` at a time (the camera gives up to 6,
``vision.tracker.ASK_CANDIDATES``): *next* walks the best 3, then on to the second page's,
then "none of these" (the game's own entry by hand, its kit's ``hand_entry``), then "later";
*back* turns to the other page at once (its first card focused), so any of the best 6 is at
most 4 presses away (the 6th: *back*, *next*, *next*, *confirm*) and "none of these" 5.
Where there is one page, *back* puts the question off as "later" does. "Later" (and the host
menu) leave the question open: it stays pending, and the header says so, until it is
answered or the card is taken away or named by the camera.

An answer goes into the journal as an ``asked`` note (the card's candidates, the card chosen,
by whom: ``host``) and the chosen card enters the game as the camera's card would: the game's
table adapter gets a :class:`tablekeeper.referee.CardSeen` stamped with the frame the card was
first seen in, so the engine sees a normal event.

While a question is open (:attr:`Asks.open`) the host is busy with the box: a game's clocks
may pause on it (the hook for issue 41's "pause while a host question is open").
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: A question's answers, as the screen's buttons name them.
PICK = "ask.pick"  # a candidate (arg: its card id)
NONE = "ask.none"  # none of these: the game's entry by hand
LATER = "ask.later"  # not now: it stays pending
MORE = "ask.more"  # the other page of candidates
#: Candidates on a page of the question (the best 3, then the next 3).
PAGE = 3


@dataclass(frozen=True)
class Question:
    """One card the camera could not name, for the host. ``crop`` is its picture (RGB)."""

    serial: int
    t_ns: int  # the frame it was first seen in (camera time)
    zone: str | None
    centre: tuple[float, float]
    radius: float  # half its short side, px: a card named within it is this card
    candidates: tuple[tuple[str, float], ...]
    crop: Any = field(default=None, compare=False, repr=False)
    gate: str | None = None
    #: the card at the deck's size (BGR): learnt as the card the host names
    template: Any = field(default=None, compare=False, repr=False)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c for c, _ in self.candidates)


def question_of(unsure: Any, serial: int) -> Question:
    """A :class:`Question` from the watcher's :class:`vision.tracker.UnsureCard`."""
    corners = unsure.corners
    sides = [math.dist(corners[i], corners[(i + 1) % len(corners)])
             for i in range(len(corners))]
    crop = unsure.crop
    return Question(serial=serial, t_ns=int(unsure.first_seen_ns), zone=unsure.zone,
                    centre=(float(unsure.centre[0]), float(unsure.centre[1])),
                    radius=0.5 * min(sides) if sides else 0.0,
                    candidates=tuple((str(c), float(s)) for c, s in unsure.candidates),
                    crop=crop[..., ::-1] if getattr(crop, "ndim", 0) == 3 else crop,
                    gate=unsure.gate, template=getattr(unsure, "template", None))


def pages(q: Question) -> int:
    """How many pages of candidates ``q`` has (at least one: "none of these")."""
    return max(1, math.ceil(len(q.candidates) / PAGE))


def page_of(q: Question, page: int) -> tuple[str, ...]:
    """The candidates (card ids, best first) on page ``page`` of ``q``."""
    return q.ids[page * PAGE:(page + 1) * PAGE]


class Asks:
    """The questions not answered yet, oldest first, and whether the host put them off."""

    def __init__(self) -> None:
        self.pending: list[Question] = []
        #: the host said "later" (or *back*): the questions wait, the header says so, until
        #: the host opens them again (the host menu) or a new card is asked about
        self.deferred = False
        self._serial = 0
        #: told when a question opens or closes (True / False): the hook for a game's clocks
        self.on_open: Callable[[bool], None] | None = None
        self._was_open = False
        #: answers given, and host presses spent on them (the benches count them)
        self.answered = 0

    def next_serial(self) -> int:
        self._serial += 1
        return self._serial

    def add(self, q: Question) -> None:
        """A new question: it replaces a pending one about a card at the same place (the
        card was lifted and laid again), and opens the questions if they were put off."""
        self.pending = [p for p in self.pending if not _same_place(p, q)]
        self.pending.append(q)
        self.deferred = False
        self._changed()

    def named(self, zone: str | None, centre: tuple[float, float] | None) -> None:
        """The camera named a card there after all: the question about it is withdrawn
        (by place; by zone where the card's place is not known)."""
        kept = []
        for p in self.pending:
            if centre is not None:
                same = math.dist(p.centre, centre) <= max(p.radius, 1.0)
            else:
                same = zone is not None and p.zone == zone
            if not same:
                kept.append(p)
        if len(kept) != len(self.pending):
            self.pending = kept
            self._changed()

    def clear(self) -> None:
        """A new game, or home: the questions of the last one go."""
        self.pending = []
        self.deferred = False
        self._changed()

    @property
    def current(self) -> Question | None:
        return self.pending[0] if self.pending else None

    @property
    def open(self) -> bool:
        """Is a question on the screen now (modal: the host's buttons answer it)?"""
        return bool(self.pending) and not self.deferred

    def defer(self) -> None:
        self.deferred = True
        self._changed()

    def reopen(self) -> None:
        self.deferred = False
        self._changed()

    def done(self, q: Question) -> None:
        """``q`` was answered."""
        self.pending = [p for p in self.pending if p.serial != q.serial]
        self.answered += 1
        self._changed()

    def _changed(self) -> None:
        now = self.open
        if now != self._was_open:
            self._was_open = now
            if self.on_open is not None:
                self.on_open(now)


def _same_place(a: Question, b: Question) -> bool:
    return math.dist(a.centre, b.centre) <= max(a.radius, b.radius, 1.0)
