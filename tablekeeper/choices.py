"""The choices a screen offers the host, as the three host buttons walk them.

With only three buttons, ``next`` moves the one focus over the choices the screen offers and
``confirm`` takes the focused one; ``back`` undoes the last host action (on the setup screen
it goes home; in the host menu it closes a page), and a long press of ``back`` opens the host
menu. The order the focus walks is :func:`display.input.focus_order`'s: the screen's main
choice first, risky choices last, the host menu's button at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from display.input import NOT_FOCUSABLE, Button, HostAction, focus_order

__all__ = ["NOT_FOCUSABLE", "Choice", "focusable"]


@dataclass(frozen=True)
class Choice:
    """A button the screen offers: its action name and argument."""

    name: str
    arg: Any = None


def focusable(buttons: Sequence[Button]) -> list[Choice]:
    """The choices the focus walks, in its order."""
    return [Choice(b.action.name, b.action.arg) for b in focus_order(buttons)]


def as_action(choice: Choice) -> HostAction:
    return HostAction(choice.name, choice.arg)
