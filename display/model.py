"""What the screens draw: the :class:`Snapshot` the app fills each tick, and :class:`GameView`,
the display's reading of the engine's state.

The app builds a ``Snapshot`` every tick (cheap: it only points at the engine state and a few
small values) and hands it to :meth:`display.renderer.Renderer.render`. ``Snapshot`` equality
ignores ``now_ms`` and images, so the renderer can tell "nothing changed" in microseconds.

``GameView`` is a flat, display-shaped summary of one 什麼不見啦 state (phase, whose turn, bets in
slot order, timers, scores and their history). :func:`display.adapt.game_view` derives it from
the engine's state; tests and the benchmark may also put a ``GameView`` straight into
``Snapshot.state``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from display.i18n import DEFAULT_LANG


class Phase(StrEnum):
    """The parts of a game of 什麼不見啦 the screen distinguishes."""

    VIEWING = "viewing"  # setup: everyone studies the scenes, 5 s per pass
    REPLACE = "replace"  # advanced variant: a new scene replaces one, 20 s to look
    REVEAL = "reveal"  # players flip item cards in turn; buzzers are live
    BETTING = "betting"  # from the hourglass holder, each bets on a scene or passes
    CHECKING = "checking"  # bet-on scenes are turned up; 30 s hourglass; found / not found
    SCORING = "scoring"  # the scores of this round are shown
    SWAP = "swap"  # the lowest scorer may swap the turned-up scenes
    OVER = "over"  # game over


@dataclass(frozen=True)
class PlayerInfo:
    """A seat's name and colour key (``"red"`` … see :mod:`display.colours`)."""

    name: str
    colour: str


@dataclass(frozen=True)
class CardView:
    """The item card the camera just recognised (:meth:`unnamed`: one turned over by hand,
    that nobody named).

    ``image`` is the card's template (a ``pygame.Surface``, or an RGB/greyscale ``numpy`` array);
    it is not part of equality: ``card_id`` identifies the card.
    """

    card_id: str
    name_zh: str
    name_en: str
    image: Any = field(default=None, compare=False, repr=False)

    def name(self, lang: str) -> str:
        return self.name_en if lang == "en" else self.name_zh

    @classmethod
    def unnamed(cls) -> CardView:
        """A card the host said is up, which the camera did not recognise."""
        return cls("", "", "")

    @property
    def is_unnamed(self) -> bool:
        return not self.card_id


@dataclass(frozen=True)
class BuzzView:
    """The arbiter's verdict on a buzz: the winner and how close it was.

    ``margin_us`` is the winner's lead over the runner-up in microseconds (None: nobody else
    pressed). ``tie`` means the first presses were within the timestamp resolution and the
    winner was drawn by lot among ``tied``. ``at_ms`` is when it happened (the app's clock, the
    same as ``Snapshot.now_ms``); the buzz screen shows for a while after it.
    """

    winner: int
    at_ms: int
    margin_us: int | None = None
    tie: bool = False
    tied: tuple[int, ...] = ()


@dataclass(frozen=True)
class Notice:
    """A problem for the status banner: an i18n key (``status.*``) with an optional seat, or a
    raw ``text`` shown as is."""

    key: str = ""
    seat: int | None = None
    text: str = ""


@dataclass(frozen=True)
class GameView:
    """A display-shaped summary of one 什麼不見啦 state. Seats are 0-based; scenes are 0-based
    (drawn as A, B, C …). Times are milliseconds on the app's clock (``Snapshot.now_ms``)."""

    phase: Phase
    scores: tuple[int, ...]
    round_no: int = 1
    scene_count: int = 5
    cards_left: tuple[int, ...] = ()
    actor: int | None = None  # whose turn / decision it is
    awaiting_buzz: bool = False  # REVEAL: a new card is up and the buzzers are live
    revealer: int | None = None  # who flipped the card on top
    hourglass: int | None = None  # who holds the hourglass (won the buzz) this round
    bets: tuple[tuple[int, ...], ...] = ()  # per scene: seats in slot order
    passed: tuple[int, ...] = ()  # seats that decided not to bet this round
    checking_scene: int | None = None
    results: tuple[bool | None, ...] = ()  # per scene: found / not found / not checked
    deadline_ms: int | None = None  # the running timer's end
    timer_ms: int = 0  # the running timer's full length
    viewing_pass: int = 0  # 0-based pass of the scene viewing
    viewing_passes: int = 0
    swap_scenes: tuple[int, ...] = ()  # scenes turned up this round (swap decision)
    history: tuple[tuple[int, ...], ...] = ()  # scores after each round, round 1 first
    winners: tuple[int, ...] = ()
    target: int = 35
    end_reason: str = ""  # "score" | "cards" | "host" | ""
    end_count: int = 0  # the threshold that ended it (points or players out of cards)
    names: tuple[PlayerInfo, ...] = ()  # the game's own names/colours (Snapshot.players wins)

    @property
    def players(self) -> int:
        return len(self.scores)


@dataclass(frozen=True)
class Snapshot:
    """Everything one frame shows. The app fills it each tick.

    ``state`` is the engine's 什麼不見啦 state (or a prepared :class:`GameView`), or None before a
    game starts (then ``setup`` is the player-setup form, if the host is on that screen).
    """

    state: Any
    now_ms: int = field(default=0, compare=False)
    lang: str = DEFAULT_LANG
    players: tuple[PlayerInfo, ...] = ()
    last_card: CardView | None = None
    buzz: BuzzView | None = None
    camera_status: str | None = None  # a ``status.*`` key or raw text; None when fine
    notices: tuple[Notice, ...] = ()
    setup: Any = None  # display.setup.SetupForm while the host sets up a game
    #: A card the camera saw after one was turned over by hand: the host says whether it is
    #: the next card or that one (the reveal screen asks).
    held_card: CardView | None = None
