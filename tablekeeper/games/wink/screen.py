"""眨眨眼's part of the kiosk screen: the host's choices in play, and what the snapshot
carries of the table (the accusation race's winner)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from display.model import BuzzView, PlayerInfo
from engine.core import Event
from engine.wink import State
from tablekeeper.games.wink import host

if TYPE_CHECKING:
    from tablekeeper.app import Loop
    from tablekeeper.screen import PygameScreen


class WinkScreen:
    """The screen's 眨眨眼 side (see :class:`tablekeeper.games.ScreenPart`)."""

    def host_action(self, screen: PygameScreen, loop: Loop, name: str, arg: Any,
                    now_ns: int) -> bool:
        referee = loop.referee
        state: State = referee.state
        event = host.event_for(state, name, arg, referee.at_ms(now_ns))
        if event is None:
            return False
        screen.show_result(referee.submit(event), now_ns)
        screen.focus = 0
        return True

    def seat_pressed(self, screen: PygameScreen, loop: Loop, seat: int, t_ns: int) -> None:
        loop.referee.note_press(seat, t_ns)

    def start(self, screen: PygameScreen, loop: Loop, form: Any, now_ns: int,
              rng: random.Random) -> Event:
        players = form.players_for(screen.lang)
        return host.new_game([p.name for p in players], [p.colour for p in players],
                             form.variant or "basic_deal", start_seat=form.start,
                             at_ms=loop.referee.at_ms(now_ns), rng=rng)

    def snapshot_parts(self, screen: PygameScreen, loop: Loop) -> dict[str, Any]:
        referee = loop.referee
        state: State = referee.state
        buzz = None
        if referee.last_buzz is not None and state.pending is not None \
                and not state.pending.by_hand:
            info = referee.last_buzz
            d = info.decision
            buzz = BuzzView(winner=d.winner - 1, at_ms=info.at_ms, margin_us=info.margin_us,
                            tie=d.tie, tied=tuple(s - 1 for s in d.tied))
        return {"players": tuple(PlayerInfo(p.name, p.colour) for p in state.players),
                "buzz": buzz}

    def shot_key(self, state: State, screen_name: str) -> tuple[Any, ...]:
        """A headless PNG per turn and step (and per accusation)."""
        return (state.turn, state.phase.value, len(state.accusations))
