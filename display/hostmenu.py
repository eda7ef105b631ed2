"""The host menu as the screen shows it: a pure value the app fills (:class:`MenuView`).

The menu is opened over any screen (a long press of *back*, or the menu button in the footer)
and lists its entries as large buttons; the app (:mod:`tablekeeper.hostmenu`) decides which
entries there are and what each does, so another feature adds an entry without touching the
drawing. Pages: ``main`` (the entries), ``confirm`` (a yes/no question before something that
cannot be taken back, "no" first) and ``rules`` (the game's rules in both languages).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MenuItem:
    """One entry: its id (the action's argument), its label (an i18n key and its
    parameters), and whether it is risky (ends the game, discards data: never the default)."""

    key: str
    label: str
    params: tuple[tuple[str, str | int], ...] = ()
    risky: bool = False


@dataclass(frozen=True)
class MenuView:
    """What the menu screen draws."""

    page: str = "main"
    items: tuple[MenuItem, ...] = ()
    #: the game the menu is about (zh-TW, en; "": none)
    titles: tuple[str, str] = ("", "")
    #: the confirm page's question (an i18n key) and the entry it confirms
    question: str = ""
    #: the rules page: the game's rules, (zh-TW lines, en lines)
    rules: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    #: the main page's line under the entries (an i18n key; "": none): the game's clocks
    #: wait while the menu is open, or since the box restarted
    note: str = ""

    def title(self, lang: str) -> str:
        return self.titles[1] if lang == "en" else self.titles[0]
