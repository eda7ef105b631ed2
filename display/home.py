"""The home screen's game picker: every game the box referees, and the one the host points at.

A pure value like :class:`display.setup.SetupForm`: :meth:`HomeMenu.apply` takes a host action
and returns the next menu. The composition root fills it from the registry of game kits
(:mod:`tablekeeper.games`) and, when the host picks a game, sets the table up for it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from display.input import HostAction


@dataclass(frozen=True)
class GameChoice:
    """One game on the home screen: its registry name, its titles and its player range."""

    name: str
    title_zh: str
    title_en: str
    min_players: int
    max_players: int
    #: the set-up steps this game lacks at this table (issue 28: "cards", "zones" ...; the
    #: home screen marks it, and choosing it leads to the first)
    missing: tuple[str, ...] = ()

    def title(self, lang: str) -> str:
        return self.title_en if lang == "en" else self.title_zh

    def other_title(self, lang: str) -> str:
        return self.title_zh if lang == "en" else self.title_en


@dataclass(frozen=True)
class HomeMenu:
    """The games, and the one highlighted (``chosen``, an index)."""

    games: tuple[GameChoice, ...]
    chosen: int = 0
    #: the box has a set-up area (the home screen offers its button)
    can_set_up: bool = False

    @property
    def choice(self) -> GameChoice | None:
        if not self.games:
            return None
        return self.games[self.chosen % len(self.games)]

    def apply(self, action: HostAction) -> HomeMenu:
        """``home.point`` (an index) highlights a game; ``next`` the next one."""
        if not self.games:
            return self
        if action.name == "home.point" and isinstance(action.arg, int) \
                and 0 <= action.arg < len(self.games):
            return replace(self, chosen=action.arg)
        if action.name == "next":
            return replace(self, chosen=(self.chosen + 1) % len(self.games))
        return self
