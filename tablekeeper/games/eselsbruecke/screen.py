"""驢橋's part of the kiosk screen: the host's choices in play, and what the snapshot shows.

The generic :class:`tablekeeper.screen.PygameScreen` handles what every game shares (language,
undo, the setup form, the three-button highlight, the banner, headless PNGs) and asks this part
for the rest. The tiles' names and pictures come from the deck the screen holds
(``screen.cards``): the display part learns them here (:func:`display.games.eselsbruecke.view.
learn_tiles`), so it can show the story's tiles large and the recap at the end.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from display.model import PlayerInfo
from engine.core import Event, Rejection
from engine.eselsbruecke import Phase, State
from tablekeeper.games.eselsbruecke import host

if TYPE_CHECKING:
    from tablekeeper.app import Loop
    from tablekeeper.screen import PygameScreen


class EselsbrueckeScreen:
    """The screen's 驢橋 side (see :class:`tablekeeper.games.ScreenPart`)."""

    def __init__(self) -> None:
        self._learnt: int | None = None

    def host_action(self, screen: PygameScreen, loop: Loop, name: str, arg: Any,
                    now_ns: int) -> bool:
        referee = loop.referee
        state: State = referee.state
        at_ms = referee.at_ms(now_ns)
        event = host.event_for(state, name, arg, at_ms)
        if event is None:
            return False
        if (name in ("right", "wrong") and state.phase is Phase.GUESS and not state.answered
                and state.to_act is not None):
            # Judged before the guesser's button: they have answered, so the clock stops
            # first. An undo of the judgement then finds the clock stopped, not run out.
            answered = host.event_for(state, "answered", None, at_ms)
            assert answered is not None
            first = referee.submit(answered)
            if isinstance(first, Rejection):
                screen.show_result(first, now_ns)
                return True
        result = referee.submit(event)
        screen.show_result(result, now_ns)
        screen.focus = 0
        if name == "withdraw" and not isinstance(result, Rejection):
            # A misread withdrawn: the camera offers what it sees again (and is read for a
            # moment), so the tile that really lies there is read anew.
            referee.reoffer()
        return True

    def seat_pressed(self, screen: PygameScreen, loop: Loop, seat: int, t_ns: int) -> None:
        """(A seat press in play goes to the arbiter, armed for the guesser: see the table.)"""

    def start(self, screen: PygameScreen, loop: Loop, form: Any, now_ns: int,
              rng: random.Random) -> Event:
        players = form.players_for(screen.lang)
        return host.new_game([p.name for p in players], [p.colour for p in players],
                             form.variant, start_seat=form.start,
                             at_ms=loop.referee.at_ms(now_ns))

    def moment(self, screen: PygameScreen, loop: Loop) -> tuple[Any, ...]:
        """A message's moment: the story or the recall, and whose guess it is."""
        state: State = loop.referee.state
        return (state.phase, state.round, state.turn, state.recall_slot, state.to_act)

    def snapshot_parts(self, screen: PygameScreen, loop: Loop) -> dict[str, Any]:
        from display.games.eselsbruecke.view import learn_tiles

        if self._learnt != id(screen.cards):
            learn_tiles(screen.cards)
            self._learnt = id(screen.cards)
        state: State = loop.referee.state
        last_card = None
        if state.phase is Phase.STORY and state.laid:
            last_card = screen.card_view(state.laid[-1])
        return {"players": tuple(PlayerInfo(s.name, s.colour) for s in state.seats),
                "last_card": last_card}

    def shot_key(self, state: State, screen_name: str) -> tuple[Any, ...]:
        """A headless PNG per screen, per storyteller's turn, per tile laid and per guess."""
        return (state.round, state.turn, len(state.laid), len(state.guesses), state.answered,
                len(state.recalls))
