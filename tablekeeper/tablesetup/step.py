"""The step protocol: what every set-up step is to the screen, the loop and the simulated table.

A **step** (:class:`Step`) is one thing the host does to make a game work at this table: teach
the box the game's cards (``"cards"``), show it where the game's zones are (``"zones"``), Wink's
marker colours (``"markers"``), the seat buttons and lamps (``"buttons"``). The screen
(:class:`tablekeeper.screen.PygameScreen`) owns the step while it is shown and feeds it:

- :meth:`Step.act` — a host action: a touch on one of the step's buttons, or the three host
  buttons through the one focus (*next* walks the step's buttons, *confirm* takes the focused
  one and arrives here as that button's action, *back* arrives as ``HostAction("back")``: the
  step goes one stage back or, at its first stage, leaves: ``left`` becomes True);
- :meth:`Step.seat` — a seat button's edge (1-based seat, the kernel's timestamp);
- :meth:`Step.frame` — a camera frame (BGR numpy array), or None when the camera gave none (it
  is unplugged: the step says so and resumes where it was when frames come back);
- :meth:`Step.tick` — the clock moved (countdowns; called at least at :meth:`Step.next_time`).

It draws :meth:`Step.view` (a frozen value, one class per step) with the function registered for
the step's ``key`` in :data:`display.tablesetup.STEP_SCREENS`; the screen puts the shared header,
banner and footer around it. :meth:`Step.wants` says what the step waits for *at the table*, as
data (:class:`Want`), so the simulated host and table of ``tablekeeper demo --from-scratch``, and
the tests, can do it without knowing the step.

A step module (``tablekeeper.tablesetup.<key>``, registered by name in
:data:`tablekeeper.tablesetup.readiness.STEPS`) provides::

    def make(ctx: StepContext) -> Step: ...          # the controller, resuming saved progress
    def status(ctx: StepContext) -> StepStatus: ...  # done already? needed to play?

A step never writes the config or a deck half: it writes through
:func:`tablekeeper.atomic.write_atomic` (or :func:`vision.deck.save_deck`), and the config with
tomlkit (keeping the host's comments and other keys). A problem the host must see goes to
``ctx.tell(key, **params)`` (an i18n key of :mod:`display.i18n`, shown on the banner in both
languages); the builder's account goes to the log.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from display.input import HostAction
from display.tablesetup import Box, Picture, Quad

__all__ = ["NOTHING", "STEP_KEYS", "Box", "Image", "MakeStep", "Picture", "Quad", "Step",
           "StepContext", "StepStatus", "StepStatusOf", "Tell", "Want", "hint_params"]

if TYPE_CHECKING:
    from tablekeeper.config import Config
    from tablekeeper.games import Kit

#: a camera frame: a BGR ``numpy`` array (H, W, 3), uint8
Image = Any

#: the step keys, in the order the set-up area offers them
STEP_KEYS: tuple[str, ...] = ("cards", "zones", "markers", "buttons")

#: ``tell(key, **params)``: a problem for the banner (an i18n key, its placeholders)
Tell = Callable[..., None]

WantKind = Literal["card_alone", "cards_in_zones", "marker", "seat", "seats_together",
                   "confirm", "nothing"]


@dataclass(frozen=True)
class StepContext:
    """What a step knows of the box: the game, its config, where it writes, how it tells."""

    #: the game's kit name (``"the-game"``) and its kit
    game: str
    kit: Kit
    #: the config as parsed (read-only: edits go to ``config_path``, then the box re-reads it)
    config: Config
    #: the config file the step's edits are written to (None: nowhere, kept until the kiosk
    #: stops; the step says so)
    config_path: Path | None
    #: the folder this game's deck is written to (cards step)
    deck_dir: Path
    #: the screen's language ("zh-TW" or "en") when the step began (the view is bilingual
    #: through i18n keys; this is for names the step composes itself)
    lang: str = "zh-TW"
    #: a problem for the banner: ``tell("setup.cards.blurred")``
    tell: Tell = field(default=lambda key, **params: None, compare=False)
    #: the camera is the simulated table's (the demo, the tests): the game's demo deck may stand
    #: in for an enrolled one; with a real camera it never does silently
    simulated: bool = False
    #: where a step keeps its progress between visits and restarts (a folder per game and step
    #: under it; None: ``deck_dir``'s parent ``.progress``)
    state_dir: Path | None = None
    #: the box's firmware (:class:`firmware.Firmware`: lamps, sounds, the arbiter's tie
    #: window) for the buttons step; None where there is none (a test of another step)
    firmware: Any = field(default=None, compare=False)

    def progress_dir(self, key: str) -> Path:
        """The folder step ``key`` keeps its resumable progress in for this game."""
        base = self.state_dir if self.state_dir is not None else self.deck_dir.parent
        return base / "setup-progress" / self.game / key


@dataclass(frozen=True)
class Want:
    """What a step waits for at the table (the simulated table and host act on it).

    ``kind``:

    - ``"card_alone"`` — lay ``card_id`` alone in view (None: take every card away);
      ``shot`` counts the shots of that card so far: between shots the hand moves the card a
      little and the light changes a little;
    - ``"cards_in_zones"`` — lay a card on each of the game's zones (``zones``: their names
      where the step knows them; ``where``: the box the cards go in, if it says);
    - ``"marker"`` — lay the marker of colour ``colour`` at ``where`` (a normalised box);
    - ``"seat"`` — press seat button ``seat`` (1-based);
    - ``"seats_together"`` — press ``seats`` at once (the tie window);
    - ``"confirm"`` — the host takes the step's button whose action is named ``action`` (with
      only the host buttons: *next* until the focus is on it, then *confirm*);
    - ``"nothing"`` — nothing to do at the table (the step is working, or finished).

    ``hint`` is the i18n key of what the screen tells the host (``hint_params`` fill it).
    """

    kind: WantKind
    card_id: str | None = None
    shot: int = 0
    zones: tuple[str, ...] = ()
    colour: str | None = None
    where: Box | None = None
    seat: int | None = None
    seats: tuple[int, ...] = ()
    action: str = "confirm"
    hint: str = ""
    hint_params: tuple[tuple[str, str | int], ...] = ()


NOTHING = Want("nothing")


class StepStatus(enum.Enum):
    """Whether a game's step is done, as the set-up area and the home screen see it."""

    #: set up (a deck saved, zones in the config ...)
    DONE = "done"
    #: not set up, and the game cannot be played at a real table without it
    MISSING = "missing"
    #: not set up (or not checked lately) but the game works without it (the buttons test)
    OPTIONAL = "optional"
    #: this box has no such step yet (its module is not installed)
    UNAVAILABLE = "unavailable"


@runtime_checkable
class Step(Protocol):
    """One set-up step's controller (see the module docstring)."""

    #: "cards", "zones", "markers" or "buttons"
    key: str
    #: finished and saved (the screen goes back to the set-up area's hub)
    done: bool
    #: the host left it (resumable: progress kept; the screen goes back to the hub)
    left: bool

    def act(self, action: HostAction, now_ns: int) -> None:
        """A host action (a button of the step's screen, or ``back``)."""

    def seat(self, seat: int, pressed: bool, t_ns: int) -> None:
        """A seat button went down (``pressed``) or up; ``seat`` is 1-based."""

    def frame(self, image: Image | None, t_ns: int) -> None:
        """A camera frame, or None: the camera gave none (unplugged)."""

    def tick(self, now_ns: int) -> None:
        """The clock moved (countdowns, time-outs)."""

    def view(self) -> Any:
        """A frozen value the step's screen draws (each step its own class)."""

    def wants(self) -> Want:
        """What the step waits for at the table now."""

    def next_time(self) -> int | None:
        """When the step next needs a :meth:`tick` (ns; None: only on input)."""


#: A step module's ``make`` and ``status`` (see the module docstring).
MakeStep = Callable[[StepContext], Step]
StepStatusOf = Callable[[StepContext], StepStatus]


def hint_params(params: Mapping[str, str | int]) -> tuple[tuple[str, str | int], ...]:
    """``Want.hint_params`` from a mapping (sorted: the value is compared and hashed)."""
    return tuple(sorted(params.items()))
