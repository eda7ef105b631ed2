"""Sample snapshots of the zones, markers and buttons steps' screens, as the set-up area
shows them (``Snapshot.tablesetup``): every state of :func:`display.tablesetup.zones.samples`,
:func:`display.tablesetup.markers.samples` and :func:`display.tablesetup.buttons.samples`, for
``tablekeeper display shots`` and the display tests. The area's view is a stand-in of the
same shape as :class:`tablekeeper.tablesetup.area.AreaView` (the display cannot import it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from display.model import Snapshot

T0 = 1_000_000


@dataclass(frozen=True)
class SampleGame:
    """The game in the area (as ``tablekeeper.tablesetup.area.GameSteps``)."""

    name: str
    title_zh: str
    title_en: str
    steps: tuple[tuple[str, str], ...]

    def title(self, lang: str) -> str:
        return self.title_en if lang == "en" else self.title_zh

    def first_missing(self) -> str | None:
        return next((k for k, s in self.steps if s == "missing"), None)


@dataclass(frozen=True)
class SampleArea:
    """The area showing one step (as ``tablekeeper.tablesetup.area.AreaView``)."""

    games: tuple[SampleGame, ...]
    chosen: int
    step: str | None = None
    step_view: Any = None

    @property
    def game(self) -> SampleGame:
        return self.games[self.chosen]


GAMES = {
    "zones": SampleGame("the-game", "致命遊戲", "The Game",
                        (("cards", "done"), ("zones", "missing"), ("buttons", "optional"))),
    "markers": SampleGame("wink", "眨眨眼", "Wink",
                          (("cards", "done"), ("zones", "done"), ("markers", "optional"),
                           ("buttons", "optional"))),
    "buttons": SampleGame("wink", "眨眨眼", "Wink",
                          (("cards", "done"), ("zones", "done"), ("markers", "done"),
                           ("buttons", "optional"))),
}


def area_samples(lang: str = "zh-TW") -> list[tuple[str, Snapshot]]:
    """(name, snapshot) for each state of the three steps' screens."""
    from display.tablesetup import buttons, markers, zones

    out: list[tuple[str, Snapshot]] = []
    for key, samples in (("zones", zones.samples), ("markers", markers.samples),
                         ("buttons", buttons.samples)):
        for name, view in samples():
            area = SampleArea((GAMES[key],), 0, key, view)
            out.append((f"setup-{name}", Snapshot(state=None, now_ms=T0, lang=lang,
                                                  tablesetup=area)))
    return out
