"""Host input: pygame events in, neutral input events out.

The display translates; the app routes. Three kinds of event come out of :func:`translate`:

- :class:`SeatInput` ``(seat, pressed)`` — keys ``1``–``8`` stand in for the seat buttons
  (key ``1`` is seat 0). The app hands these to the firmware's keyboard backend, which stamps
  and arbitrates them like real buttons. Both key-down and key-up are reported.
- :class:`HostAction` ``(name, arg)`` — the host's commands, from a touch/click on an on-screen
  button or from the keyboard:

  ========================  ===========================================================
  ``confirm``               Enter (also: start game, OK, new game)
  ``back``                  Escape, Backspace
  ``next``                  → (Right), Tab ("nobody buzzed", "next round")
  ``undo``                  Ctrl+Z or U, from any screen: undo the last host action
  ``lang``                  L: switch 中文 / English
  ``bet``, scene            A–F on the betting screen (arg: 0-based scene index)
  ``pass``                  P on the betting screen (the bettor does not bet)
  ``found`` / ``not_found``  F / N while a scene is checked
  ``start_timer``           T: start the pass countdown / the hourglass
  ``swap``, (a, b)          S: swap two turned-up scenes; ``keep``: K
  ``replace``, scene        advanced variant: replace that scene; ``no_replace``
  ``setup.*``               the setup form's own actions (see :mod:`display.setup`)
  ``erase``                 Backspace while typing a name
  ========================  ===========================================================

- :class:`TextInput` — typed text while a name field on the setup screen has the focus.

Every screen draws its buttons (:class:`Button`) and the renderer keeps the list of the frame
on screen; :func:`hit_test` maps a touch or click to the button's action, and a button's
``key`` is its keyboard shortcut (shown on it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame


@dataclass(frozen=True)
class SeatInput:
    """A seat button stand-in (keyboard) went down (``pressed``) or up."""

    seat: int
    pressed: bool


@dataclass(frozen=True)
class HostAction:
    """A host command; ``arg`` is a scene index, a seat, a pair of scenes or a variant name."""

    name: str
    arg: int | str | tuple[int, int] | None = None


@dataclass(frozen=True)
class TextInput:
    """Text typed into the focused name field of the setup form."""

    text: str


InputEvent = SeatInput | HostAction | TextInput


@dataclass(frozen=True)
class Button:
    """An on-screen touch target. ``rect`` is (x, y, w, h) in surface pixels."""

    rect: tuple[int, int, int, int]
    action: HostAction
    label: str = ""
    enabled: bool = True
    key: int | None = None  # keyboard shortcut (pygame key code)
    #: breaks a rule, ends the game or discards data: never the default of the focus
    #: (:func:`focus_order` puts it last)
    risky: bool = False
    #: a judgment about a player (right, wrong, held it, found, caught ...): never the
    #: default of the focus (:func:`focus_order` puts it after the screen's other choices;
    #: the renderer marks the game display's ``judgments``)
    judgment: bool = False
    #: looks disabled until it can act (the screen says why: ``why``); it still takes a
    #: press, which says why again. The focus never starts on it (:func:`focus_order` puts it
    #: after the choices that can act)
    waiting: bool = False
    why: str = ""
    #: *next* walks it although its action is one the walk leaves out (:data:`NOT_FOCUSABLE`):
    #: the language on the home screen, the one place the host reaches it before a game
    walk: bool = False
    #: the host buttons' *next* walks it (False: a touch target only, e.g. a cell of a grid
    #: whose row is not picked yet: the three buttons pick the row first, then the cell)
    focus: bool = True

    def contains(self, pos: tuple[float, float]) -> bool:
        x, y, w, h = self.rect
        return x <= pos[0] < x + w and y <= pos[1] < y + h


SEAT_KEYS: dict[int, int] = {
    **{pygame.K_1 + i: i for i in range(8)},
    **{pygame.K_KP1 + i: i for i in range(8)},
}

#: Keys that mean the same on every screen. Buttons never take these as shortcuts.
GLOBAL_KEYS: dict[int, HostAction] = {
    pygame.K_RETURN: HostAction("confirm"),
    pygame.K_KP_ENTER: HostAction("confirm"),
    pygame.K_ESCAPE: HostAction("back"),
    pygame.K_BACKSPACE: HostAction("back"),
    pygame.K_RIGHT: HostAction("next"),
    pygame.K_TAB: HostAction("next"),
    pygame.K_u: HostAction("undo"),
    pygame.K_l: HostAction("lang"),
}


#: Actions the three-button focus never lands on: *back* is undo (and, on the setup screen,
#: the way home), and the language is in the host menu (on the home screen it is walked too:
#: ``Button.walk``); touch and keys still reach them.
NOT_FOCUSABLE = frozenset({"undo", "lang", "home"})


#: The focus's resting place on a screen whose first choice would be a judgment: no button is
#: highlighted, *confirm* there does nothing but say "press next to choose" (the screen
#: asks the host to choose, never assumes a verdict), *next* goes to the first choice.
REST = "focus.rest"


def focus_order(buttons: Sequence[Button]) -> list[Button]:
    """The buttons the host buttons' *next* walks, in the order it walks them: the screen's
    main choice (``confirm``) first, then the others as drawn, the judgments about a player
    after them, a choice that cannot act yet (``waiting``) after those, the risky ones (a
    rule broken, the game ended, data discarded) last, and the host menu's button at the
    very end. The focus starts on the first, so the default is never a risky choice nor one
    that cannot act; where the first would be a judgment, the walk starts on
    :data:`REST` (a button with no area: nothing highlighted) instead."""
    usable = [b for b in buttons
              if b.enabled and b.focus and (b.action.name not in NOT_FOCUSABLE or b.walk)]
    if all(b.action.name == "menu" for b in usable):
        # nothing to choose: no focus (never on the menu: a reflex *confirm* takes the
        # screen's own main action, as on a screen with no buttons)
        return []

    def rank(b: Button) -> int:
        if b.action.name == "menu":
            return 5
        if b.risky:
            return 4
        if b.waiting:
            return 3
        if b.judgment:
            return 2
        return 0 if b.action.name == "confirm" else 1

    order = sorted(usable, key=rank)
    if order and order[0].judgment:
        order.insert(0, Button((0, 0, 0, 0), HostAction(REST)))
    return order


def hit_test(buttons: Sequence[Button], pos: tuple[float, float]) -> HostAction | None:
    """The action of the enabled button under ``pos`` (the topmost: the last drawn), or None."""
    for button in reversed(buttons):
        if button.enabled and button.contains(pos):
            return button.action
    return None


def translate(
    event: pygame.event.Event,
    buttons: Sequence[Button] = (),
    *,
    text_focus: bool = False,
    size: tuple[int, int] | None = None,
) -> InputEvent | None:
    """The input event a pygame event means, or None if it means nothing here.

    ``buttons`` are the buttons on screen (``Renderer.buttons``); ``text_focus`` is true while a
    name field takes typing (``Renderer.text_focus``); ``size`` is the surface size, needed to
    place finger (touch) events, whose coordinates pygame gives as fractions.
    """
    etype = event.type
    if etype in (pygame.KEYDOWN, pygame.KEYUP):
        return _key(event, buttons, text_focus)
    if etype == pygame.TEXTINPUT:
        return TextInput(event.text) if text_focus and event.text else None
    if etype == pygame.MOUSEBUTTONDOWN:
        # SDL turns each touch into a finger event *and* a synthetic mouse event; the finger
        # event is the one we use, so a touch is not counted twice.
        if event.button != 1 or getattr(event, "touch", False):
            return None
        return hit_test(buttons, event.pos)
    if etype == pygame.FINGERDOWN:
        if size is None:
            surface = pygame.display.get_surface()
            if surface is None:
                return None
            size = surface.get_size()
        return hit_test(buttons, (event.x * size[0], event.y * size[1]))
    return None


def _key(
    event: pygame.event.Event, buttons: Sequence[Button], text_focus: bool
) -> InputEvent | None:
    key = event.key
    down = event.type == pygame.KEYDOWN
    ctrl = bool(event.mod & pygame.KMOD_CTRL)
    if text_focus:
        # Typing a name: characters arrive as TEXTINPUT; only editing keys count here.
        if not down:
            return None
        if ctrl and key == pygame.K_z:
            return HostAction("undo")
        if key == pygame.K_BACKSPACE:
            return HostAction("erase")
        if key == pygame.K_ESCAPE:
            return HostAction("setup.focus", None)
        # the host buttons' stand-ins walk the on-screen keyboard: Tab / → move the highlight,
        # Enter presses the highlighted key (it starts on "done": typing then Enter finishes)
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            return HostAction("confirm")
        if key in (pygame.K_TAB, pygame.K_RIGHT):
            return HostAction("next")
        return None
    if key in SEAT_KEYS and not ctrl:
        return SeatInput(SEAT_KEYS[key], down)
    if not down:
        return None
    if ctrl and key == pygame.K_z:
        return HostAction("undo")
    if ctrl:
        return None
    if key in GLOBAL_KEYS:
        return GLOBAL_KEYS[key]
    for button in buttons:
        if button.key == key and button.enabled:
            return button.action
    return None
