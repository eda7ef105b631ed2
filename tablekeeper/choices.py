"""The choices a screen offers the host, as the three host buttons walk them.

With only three buttons, ``next`` moves a highlight over the choices the screen offers and
``confirm`` takes the highlighted one; ``back`` undoes the last host action (the same as
Ctrl+Z / U on the keyboard and the undo button on the screen). Every game's screen offers its
choices as buttons; this is what the highlight may land on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: HostActions the three-button highlight never lands on: they have buttons of their own
#: (*back* undoes; on the setup screen it goes home, so *confirm* there still starts the game).
NOT_FOCUSABLE = frozenset({"undo", "lang", "home"})
#: the setup form's actions the highlight does land on: everything on the name screen (its
#: keys, the 注音 candidates, done)
NAME_ENTRY = frozenset({"setup.key", "setup.zhuyin", "setup.cand", "setup.page",
                        "setup.keyboard", "setup.done", "setup.roster",
                        "setup.roster_edit", "setup.roster_pick", "setup.roster_add",
                        "setup.roster_rename", "setup.roster_remove"})


@dataclass(frozen=True)
class Choice:
    """A button the screen offers: its action name and argument."""

    name: str
    arg: Any = None


def focusable(choices: Sequence[Choice]) -> list[Choice]:
    return [c for c in choices if c.name not in NOT_FOCUSABLE
            and (not c.name.startswith("setup.") or c.name in NAME_ENTRY)]
