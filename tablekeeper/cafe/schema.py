"""The one schema of the café's messages (pydantic), used by the publisher before it sends, by
the board before it stores and by the tests: every field typed strictly (no "1" for 1),
bounded (sizes, times, scores) and no unknown field. What passes can always be shown on the
board and exported: a result has its ``duration_ms`` and a timeline of well-formed points,
``created`` is an ISO time or null, ``written_ms`` a time before the year 2200, names hold no
control or bidi-override character (:func:`tablekeeper.names.bad_character`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)

from tablekeeper.cafe.topics import GAME_ID_RE, SCHEMA, TABLE_RE, VERSION
from tablekeeper.names import bad_character

__all__ = ["Message", "Player", "ResultMessage", "StateMessage", "ValidationError",
           "validate_json"]

#: 2200-01-01 in ms since the epoch: a later time is a broken clock or a forged message
MAX_MS = 7_258_118_400_000
MAX_PLAYERS = 16
MAX_SCORE = 1_000_000_000
MAX_POINTS = 20_000


def _clean(text: str) -> str:
    bad = bad_character(text)
    if bad is not None:
        raise ValueError(f"holds {bad}")
    return text


def _iso(text: str) -> str:
    datetime.fromisoformat(text)  # ValueError: not an ISO 8601 time
    return text


Name = Annotated[str, StringConstraints(min_length=1, max_length=64), AfterValidator(_clean)]
Text = Annotated[str, StringConstraints(max_length=200), AfterValidator(_clean)]
Score = Annotated[int, Field(ge=-MAX_SCORE, le=MAX_SCORE)]
Ms = Annotated[int, Field(ge=0, le=MAX_MS)]
Seq = Annotated[int, Field(ge=0, le=MAX_SCORE)]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class Player(_Strict):
    seat: Annotated[int, Field(ge=0, lt=64)]
    name: Name
    score: Score | None


#: ``[seq, at_ms, [score by seat]]``: a score changed (the chart)
TimelinePoint = tuple[Seq, Ms, Annotated[list[Score | None], Field(max_length=MAX_PLAYERS)]]


class _Base(_Strict):
    schema_: Literal["tablekeeper.cafe"] = Field(alias="schema")
    v: Annotated[int, Field(ge=1, le=VERSION)]
    id: Annotated[str, StringConstraints(max_length=80)]
    table: Annotated[str, StringConstraints(pattern=TABLE_RE.pattern)]
    game_id: Annotated[str, StringConstraints(pattern=GAME_ID_RE.pattern)]
    seq: Seq
    game: Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]{1,40}$")]
    created: Annotated[str, StringConstraints(max_length=40), AfterValidator(_iso)] | None
    written_ms: Ms
    players: Annotated[list[Player], Field(max_length=MAX_PLAYERS)]

    def _expected_id(self, suffix: str) -> None:
        if self.id != f"{self.game_id}:{suffix}":
            raise ValueError(f"id {self.id!r:.60}, expected {self.game_id}:{suffix}")


class StateMessage(_Base):
    kind: Literal["state"]
    phase: Text
    to_act: Name | None
    over: bool

    @model_validator(mode="after")
    def _ids(self) -> StateMessage:
        self._expected_id(str(self.seq))
        return self


class ResultMessage(_Base):
    kind: Literal["result"]
    winners: Annotated[list[Name], Field(max_length=MAX_PLAYERS)]
    reason: Text | None
    cooperative: bool
    #: from the first event to the last (7 days at most)
    duration_ms: Annotated[int, Field(ge=0, le=7 * 86_400_000)]
    timeline: Annotated[list[TimelinePoint], Field(max_length=MAX_POINTS)]

    @model_validator(mode="after")
    def _consistent(self) -> ResultMessage:
        self._expected_id("result")
        names = {p.name for p in self.players}
        for w in self.winners:
            if w not in names:
                raise ValueError(f"winner {w!r:.40} is not one of the players")
        for point in self.timeline:
            if len(point[2]) > len(self.players):
                raise ValueError(f"timeline point {list(point)!r:.60}: more scores than players")
        return self


Message = StateMessage | ResultMessage
_MODELS: dict[str, type[StateMessage] | type[ResultMessage]] = {
    "state": StateMessage, "result": ResultMessage}
assert SCHEMA == "tablekeeper.cafe"


def validate_json(kind: str, payload: bytes | str) -> Message:
    """The message of ``kind`` in ``payload`` (JSON), checked; ``ValidationError`` says why
    not."""
    return _MODELS[kind].model_validate_json(payload)


def reason_of(exc: ValidationError) -> str:
    """One line: the first problems, each with the field's place."""
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(x) for x in err["loc"]) or "message"
        parts.append(f"{where}: {err['msg']}")
    more = exc.error_count() - 3
    return "; ".join(parts) + (f" (+{more} more)" if more > 0 else "")
