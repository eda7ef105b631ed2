"""A journal told as the table lived it: ``tablekeeper replay --history FILE``.

One line per record, in the order the table lived them: the game clock, then what happened in
plain words -- an accepted event (marked when a later undo took it back), an undo, and the
history records replay never applies (:class:`tablekeeper.journal.Note`: a refused play, an
early press, a camera/host mismatch ...). Any game's journal: events are told from their own
fields (``type`` and the rest), so a new game or a new note kind needs nothing here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ground.files import printable
from tablekeeper.journal import Contents, Record

#: how a note kind is told (a kind not here is told by its name)
NOTE_WORDS = {
    "refused": "refused",
    "early_press": "pressed too early",
    "mismatch": "camera and host disagree",
    "host_decision": "the host decided",
    "pause": "the game clock paused",
    "resume": "the game clock went on",
    "asked": "the host was asked which card the camera saw",
}


def clock(at_ms: int | None) -> str:
    """The game clock as ``mm:ss.s`` (``h:mm:ss.s`` past an hour); blank when unknown."""
    if at_ms is None:
        return " " * 7
    tenths = max(0, at_ms) // 100
    s, t = divmod(tenths, 10)
    m, s = divmod(s, 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}.{t}" if h else f"{m:02d}:{s:02d}.{t}"


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{k} {_value(x)}" for k, x in v.items()) + "}"
    return str(v)


def tell_event(d: Mapping[str, Any]) -> str:
    """An event's dict (``Event.to_dict()``) in words: ``card played: row 2, card 97``."""
    name = str(d.get("type", "?")).replace("_", " ")
    fields = [f"{k.replace('_', ' ')} {_value(v)}" for k, v in d.items()
              if k not in ("type", "v", "at_ms") and v is not None]
    return f"{name}: {', '.join(fields)}" if fields else name


def tell_note(rec: Record) -> str:
    note = rec.note
    assert note is not None
    fields = dict(note.fields)
    words = NOTE_WORDS.get(note.kind, note.kind.replace("_", " "))
    parts: list[str] = []
    event = fields.pop("event", None)
    if isinstance(event, Mapping):
        parts.append(tell_event(event))
    reason = fields.pop("reason", None)
    code = fields.pop("code", None)
    parts.extend(f"{k.replace('_', ' ')} {_value(v)}" for k, v in fields.items())
    text = f"{words}: {'; '.join(parts)}" if parts else words
    if reason:
        text += f" — {reason}"
    if code:
        text += f" [{code}]"
    return text


def history(contents: Contents) -> list[str]:
    """The journal's records as lines of plain words (see the module docstring)."""
    in_force = {rec.seq for rec in contents.active()}
    events = {rec.seq: rec for rec in contents.records if rec.event is not None}
    undone_by: dict[int, int] = {}
    for rec in contents.records:
        if rec.undo is not None:  # the target and every event after it, up to the undo
            for seq in events:
                if rec.undo <= seq < rec.seq:
                    undone_by.setdefault(seq, rec.seq)
    lines = [f"{contents.header.game}: {len(in_force)} events in force, "
             f"{len(contents.notes())} history notes"
             + (f", created {contents.header.created}" if contents.header.created else "")]
    last_ms: int | None = None
    for rec in contents.records:
        if rec.event is not None:
            d = rec.event.to_dict()
            at = d.get("at_ms")
            last_ms = at if isinstance(at, int) else last_ms
            text = tell_event(d)
            if rec.seq in undone_by:
                text += f"  (undone by #{undone_by[rec.seq]})"
        elif rec.undo is not None:
            at = last_ms
            target = events.get(rec.undo)
            what = tell_event(target.event.to_dict()) if target and target.event else "?"
            text = f"undo of #{rec.undo} ({what}) and everything after it"
        else:
            assert rec.note is not None
            at = rec.note.at_ms
            text = tell_note(rec)
        lines.append(f"#{rec.seq:<4} {clock(at if isinstance(at, int) else None)}  {text}")
    if contents.torn_tail is not None:
        lines.append(f"(line {contents.torn_tail.line} was cut short by a power cut before it "
                     "was confirmed; it is not part of the game)")
    # names and notes come from the journal: a control or bidi-override character in one must
    # not move the terminal's cursor or reorder the lines after it
    return [printable(line) for line in lines]
