"""The player-setup form: how many players, their names and colours, and the variant.

The form is the same for every game; the game's setup spec gives its player range, variants
and colours (:meth:`SetupForm.for_spec`; the defaults are 什麼不見啦's).

A pure value: :meth:`SetupForm.apply` takes a host action (a touch on the setup screen, a key,
typed text) and returns the next form; the app keeps the current form in ``Snapshot.setup`` and,
on ``confirm`` with :attr:`SetupForm.ready`, starts the game with :meth:`SetupForm.players_for`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from display import zhuyin
from display.colours import COLOUR_KEYS
from display.i18n import tr
from display.input import HostAction, TextInput
from display.model import PlayerInfo

MIN_PLAYERS = 3
MAX_PLAYERS = 7
MAX_NAME = 12
#: ``SetupForm.group`` when the regulars are open to the host buttons (a choice of its own on
#: the name screen, like a group of keys)
ROSTER_GROUP = -1
VARIANTS: tuple[str, ...] = ("easy", "standard", "advanced")
SCENES = {"easy": 4, "standard": 5, "advanced": 6}


def _default_players(n: int, colours: tuple[str, ...] = COLOUR_KEYS) -> tuple[PlayerInfo, ...]:
    return tuple(PlayerInfo("", colours[i]) for i in range(n))


def _table_players(table: tuple[PlayerInfo, ...], spec: FormSpec) -> tuple[PlayerInfo, ...]:
    """The table's players as this game can seat them: the first ``max_players`` (the rest
    wait for a game that seats more), filled up to ``min_players`` with unnamed seats; each
    keeps their colour where this game has it and nobody before them took it, else takes the
    game's next free colour."""
    seated = list(table[:spec.max_players])
    while len(seated) < spec.min_players:
        seated.append(PlayerInfo("", ""))
    used: set[str] = set()
    keep = []
    for p in seated:
        ok = p.colour in spec.colours and p.colour not in used
        keep.append(ok)
        if ok:
            used.add(p.colour)
    out = []
    for p, ok in zip(seated, keep, strict=True):
        colour = p.colour if ok else next(c for c in spec.colours if c not in used)
        used.add(colour)
        out.append(PlayerInfo(p.name[:MAX_NAME], colour))
    return tuple(out)


class FormSpec(Protocol):
    """What the form needs of a game's setup spec (:class:`tablekeeper.games.SetupSpec`)."""

    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def variants(self) -> tuple[str, ...]: ...
    @property
    def default_variant(self) -> str: ...
    @property
    def colours(self) -> tuple[str, ...]: ...
    @property
    def default_players(self) -> int: ...


@dataclass(frozen=True)
class SetupForm:
    """Players (an empty name shows as "玩家 n" / "Player n"), variant, and the name field
    that has the keyboard focus (None: none)."""

    players: tuple[PlayerInfo, ...] = _default_players(4)
    variant: str = "standard"
    focus: int | None = None
    #: the start player of round 1: the youngest (the rules); a seat index
    start: int = 0
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    variants: tuple[str, ...] = VARIANTS
    #: the game's colours, in the box's order
    colours: tuple[str, ...] = COLOUR_KEYS
    #: the game's title (zh-TW, en) for the header ("": none shown)
    titles: tuple[str, str] = ("", "")
    #: the host came here from the home screen and may go back to pick another game
    can_go_home: bool = False
    #: the table's known names (the config's roster: typed once, picked with a touch, since
    #: Chinese names cannot be typed on the Pi's console)
    roster: tuple[str, ...] = ()
    #: the name keyboard: "zhuyin" (注音, through libchewing) or "latin"
    keyboard: str = "zhuyin"
    #: the 注音 symbols typed of the syllable being spelt ("" none; complete with its tone,
    #: its characters are offered: :func:`display.zhuyin.candidates`)
    syllable: str = ""
    #: which page of the candidates is shown
    cand_page: int = 0
    #: the group of 注音 keys opened by the host buttons (an index into
    #: :data:`display.zhuyin.GROUPS`; :data:`ROSTER_GROUP`: the regulars; None: the groups
    #: are walked)
    group: int | None = None
    #: the seat whose button was pressed last on this screen (it marks who starts; shown
    #: until the host does something else). A seat with no player is shown too.
    pressed: int | None = None
    #: the roster is being edited (on the name screen): its names are picked to rename or
    #: remove, and the typed name can be added
    roster_edit: bool = False
    #: the regular picked while editing (an index into ``roster``)
    roster_pick: int | None = None

    def _spelt(self, syllable: str, *, tones_now: bool = False) -> SetupForm:
        """``syllable`` spelt so far. Where only a tone can follow (after a final, a sound
        nothing else completes, or a sound picked whole: ``tones_now``) the tones open by
        themselves; where the sound has one tone only, it is typed too (its characters are
        offered at once)."""
        if syllable and not zhuyin.complete(syllable):
            after_final = zhuyin.next_place(syllable[-1]) == zhuyin.FIRST_TONE
            if tones_now or after_final or zhuyin.rests(syllable) == ("",):
                only = zhuyin.tones(syllable)
                if len(only) == 1:
                    return replace(self, syllable=syllable + only[0], cand_page=0, group=None)
                return replace(self, syllable=syllable, cand_page=0, group=zhuyin.TONE_GROUP)
        return replace(self, syllable=syllable, cand_page=0, group=None)

    def title(self, lang: str) -> str:
        return self.titles[1] if lang == "en" else self.titles[0]

    @classmethod
    def for_spec(cls, spec: FormSpec, *, titles: tuple[str, str] = ("", ""),
                 can_go_home: bool = False, roster: tuple[str, ...] = (),
                 table: tuple[PlayerInfo, ...] = ()) -> SetupForm:
        """A form for a game: the table's current players (``table``: who played last, names
        and colours) within the game's player range and colours; without them, its default
        number of players in its first colours."""
        players = (_table_players(table, spec) if table
                   else _default_players(spec.default_players, spec.colours))
        return cls(players=players,
                   variant=spec.default_variant, min_players=spec.min_players,
                   max_players=spec.max_players, variants=spec.variants,
                   colours=spec.colours, titles=titles, can_go_home=can_go_home,
                   roster=roster)

    @property
    def problems(self) -> tuple[str, ...]:
        """i18n keys of what stops the game from starting (empty: ready)."""
        out: list[str] = []
        if not self.min_players <= len(self.players) <= self.max_players:
            out.append("setup.need_players")
        colours = [p.colour for p in self.players]
        if len(set(colours)) != len(colours):
            out.append("setup.colour_taken")
        return tuple(out)

    @property
    def ready(self) -> bool:
        return not self.problems

    @property
    def scenes(self) -> int:
        return SCENES.get(self.variant, 0)

    def display_name(self, seat: int, lang: str) -> str:
        name = self.players[seat].name.strip()
        if name:
            return name
        return tr("player.by_colour", lang, colour=tr(f"colour.{self.players[seat].colour}",
                                                      lang))

    def players_for(self, lang: str) -> tuple[PlayerInfo, ...]:
        """The players with default names filled in, for starting the game."""
        return tuple(
            PlayerInfo(self.display_name(i, lang), p.colour) for i, p in enumerate(self.players)
        )

    def apply(self, action: HostAction | TextInput) -> SetupForm:
        """The form after ``action``; an action that does not apply leaves it unchanged."""
        if isinstance(action, TextInput):
            return self._type(action.text)
        name, arg = action.name, action.arg
        if name == "setup.seat_button" and isinstance(arg, int) and arg >= 0:
            # A seat's own button: the youngest presses theirs to say they start (the rules:
            # the youngest starts); it also shows the host which button is which seat.
            if arg < len(self.players):
                return replace(self, start=arg, pressed=arg)
            return replace(self, pressed=arg)
        if self.pressed is not None:
            return replace(self, pressed=None).apply(action)
        if name == "setup.add" and len(self.players) < self.max_players:
            used = {p.colour for p in self.players}
            colour = next(c for c in self.colours if c not in used)
            return replace(self, players=(*self.players, PlayerInfo("", colour)), focus=None)
        if (name == "setup.remove" and isinstance(arg, int) and len(self.players) > self.min_players
                and 0 <= arg < len(self.players)):
            players = self.players[:arg] + self.players[arg + 1:]
            start = self.start - 1 if arg < self.start else (0 if arg == self.start
                                                             else self.start)
            return replace(self, players=players, focus=None, start=start)
        if name == "setup.start" and isinstance(arg, int) and 0 <= arg < len(self.players):
            return replace(self, start=arg, focus=None)
        if name == "setup.colour" and isinstance(arg, int) and 0 <= arg < len(self.players):
            return replace(self, players=self._next_colour(arg), focus=None)
        if name == "setup.focus":
            if arg is None:
                return replace(self, focus=None, syllable="", cand_page=0, roster_edit=False,
                               roster_pick=None, group=None)
            if isinstance(arg, int) and 0 <= arg < len(self.players):
                return replace(self, focus=None if arg == self.focus else arg, syllable="",
                               cand_page=0, roster_edit=False, roster_pick=None, group=None)
        if self.focus is not None:
            if name == "setup.zhuyin" and isinstance(arg, str):
                return self._spelt(zhuyin.add(self.syllable, arg))
            if name == "setup.next" and isinstance(arg, str) and self.syllable \
                    and arg in zhuyin.nexts(self.syllable):
                return self._spelt(self.syllable + arg, tones_now=not arg)
            if name == "setup.group":
                ok = isinstance(arg, int) and (0 <= arg < len(zhuyin.GROUPS)
                                               or arg == ROSTER_GROUP)
                return replace(self, group=arg if ok and isinstance(arg, int) else None)
            if name == "setup.cand" and isinstance(arg, str) and arg:
                return replace(self._type_raw(arg), syllable="", cand_page=0, group=None)
            if name == "setup.page" and isinstance(arg, int):
                return replace(self, cand_page=max(0, arg))
            if name.startswith("setup.roster_"):
                return self._edit_roster(name, arg)
            if name == "setup.keyboard":
                kind = "latin" if self.keyboard == "zhuyin" else "zhuyin"
                return replace(self, keyboard=kind, syllable="", cand_page=0, group=None)
        if name == "setup.variant" and arg in self.variants:
            return replace(self, variant=str(arg), focus=None)
        if name == "setup.key" and isinstance(arg, str):
            return self._type(arg)
        if name == "setup.roster" and isinstance(arg, int) and 0 <= arg < len(self.roster) \
                and self.focus is not None:
            return replace(self._set_name(self.focus, self.roster[arg][:MAX_NAME]), focus=None,
                           group=None)
        if name == "setup.done":
            return replace(self, focus=None, syllable="", cand_page=0, roster_edit=False,
                           roster_pick=None, group=None)
        if name == "erase" and self.focus is not None:
            if self.syllable:
                return replace(self, syllable=self.syllable[:-1], cand_page=0, group=None)
            return self._set_name(self.focus, self.players[self.focus].name[:-1])
        return self

    @property
    def typed(self) -> str:
        """The name typed in the focused seat (stripped; "" none)."""
        return self.players[self.focus].name.strip() if self.focus is not None else ""

    def can_add_regular(self) -> bool:
        return bool(self.typed) and self.typed not in self.roster

    def can_rename_regular(self) -> bool:
        return self.roster_pick is not None and self.can_add_regular()

    def _edit_roster(self, name: str, arg: object) -> SetupForm:
        """The roster's editing on the name screen: add the typed name, rename or remove the
        regular picked."""
        pick = self.roster_pick
        if name == "setup.roster_edit":
            return replace(self, roster_edit=not self.roster_edit, roster_pick=None)
        if not self.roster_edit:
            return self
        if name == "setup.roster_pick" and isinstance(arg, int) and 0 <= arg < len(self.roster):
            return replace(self, roster_pick=None if arg == pick else arg)
        if name == "setup.roster_add" and self.can_add_regular():
            return replace(self, roster=(*self.roster, self.typed), roster_pick=None)
        if name == "setup.roster_rename" and pick is not None and self.can_rename_regular():
            roster = list(self.roster)
            roster[pick] = self.typed
            return replace(self, roster=tuple(roster))
        if name == "setup.roster_remove" and pick is not None and pick < len(self.roster):
            return replace(self, roster=self.roster[:pick] + self.roster[pick + 1:],
                           roster_pick=None)
        return self

    def _type(self, text: str) -> SetupForm:
        if self.focus is None:
            return self
        return replace(self._type_raw(text), syllable="", cand_page=0)

    def _type_raw(self, text: str) -> SetupForm:
        if self.focus is None:
            return self
        printable = "".join(ch for ch in text if ch.isprintable())
        name = (self.players[self.focus].name + printable)[:MAX_NAME]
        return self._set_name(self.focus, name)

    def _set_name(self, seat: int, name: str) -> SetupForm:
        players = list(self.players)
        players[seat] = replace(players[seat], name=name)
        return replace(self, players=tuple(players))

    def _next_colour(self, seat: int) -> tuple[PlayerInfo, ...]:
        """Cycle the seat's colour to the next one nobody else has."""
        used = {p.colour for i, p in enumerate(self.players) if i != seat}
        current = self.players[seat].colour
        keys = self.colours
        start = keys.index(current) if current in keys else -1
        for step in range(1, len(keys) + 1):
            colour = keys[(start + step) % len(keys)]
            if colour not in used:
                players = list(self.players)
                players[seat] = replace(players[seat], colour=colour)
                return tuple(players)
        return self.players
