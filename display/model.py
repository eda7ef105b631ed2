"""What the screens draw: the :class:`Snapshot` the app fills each tick, and the small values in
it (players, the card just seen, the buzz, notices).

The app builds a ``Snapshot`` every tick (cheap: it only points at the engine state and a few
small values) and hands it to :meth:`display.renderer.Renderer.render`. ``Snapshot`` equality
ignores ``now_ms`` and images, so the renderer can tell "nothing changed" in microseconds.

Each game reads its engine's state into a view of its own (什麼不見啦:
:class:`display.games.something_missing.view.GameView`), through its
:class:`display.games.GameDisplay`; tests and the benchmark may also put a view straight into
``Snapshot.state``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from display.i18n import DEFAULT_LANG


@dataclass(frozen=True)
class PlayerInfo:
    """A seat's name and colour key (``"red"`` … see :mod:`display.colours`)."""

    name: str
    colour: str

    def shown(self, lang: str) -> PlayerInfo:
        """This player as a screen in ``lang`` names them: a default name (the seat's colour,
        "黃色" / "Yellow", given when nobody typed one) follows the screen's language, live;
        a typed name stays as it is."""
        from display.i18n import LANGS, tr

        key = f"colour.{self.colour}"
        for other in LANGS:
            if self.name == tr("player.by_colour", other, colour=tr(key, other)):
                name = tr("player.by_colour", lang, colour=tr(key, lang))
                return self if name == self.name else PlayerInfo(name, self.colour)
        return self


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
class Snapshot:
    """Everything one frame shows. The app fills it each tick.

    ``state`` is the engine's state of the game being played (or a prepared view of it), or
    None before a game starts (then ``setup`` is the player-setup form, if the host is on that
    screen, and ``home`` the game picker, if the host is on that one).
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
    #: the home screen's game picker (:class:`display.home.HomeMenu`) while it is shown
    home: Any = None
    #: the display part of the game shown (:class:`display.games.GameDisplay`; None: the
    #: renderer's own, or no game)
    game: Any = None
    #: the game's transient table state its screens show (a frozen value its kit's screen
    #: part fills: The Game's refused play, a pending "I cannot play", the by-hand entry)
    table: Any = None
    #: the host menu while it is open (:class:`display.hostmenu.MenuView`), over any screen
    menu: Any = None
    #: the one focus of the three host buttons: an index into
    #: :func:`display.input.focus_order` of the screen's buttons (None: not drawn)
    focus: int | None = None
    #: the box's sound: "" (fine), "silent" (no audio device) or "muted" (the host muted it);
    #: a small sign in the header says so
    sound: str = ""
    #: seats that pressed too early in this race and are locked out (0-based), and until
    #: when (game ms); the race screens show "too early"
    early: tuple[tuple[int, int], ...] = ()
    #: a question about a card the camera could not name (:class:`display.ask.AskView`),
    #: over the game's screen while it is open (issue 37)
    ask: Any = None
    #: the set-up area while it is shown (:class:`tablekeeper.tablesetup.area.AreaView`: the
    #: hub, or a step's view; None: not shown)
    tablesetup: Any = None
