"""What a player's name may hold, checked at every entry (config, the café's messages; the
setup screen keeps only printable characters): no control character and no bidirectional
override or other invisible format character (a name that reorders or hides the text shown
after it on a terminal, a spreadsheet or the board). Pure, no imports."""

from __future__ import annotations

import unicodedata


def bad_character(text: str) -> str | None:
    """The first character ``text`` must not hold, as ``U+XXXX NAME``; None if all are fine.
    Refused: Unicode's "other" categories (Cc control, Cf format: the bidi overrides and
    isolates, zero-width joiners; Cs, Co, Cn) and line/paragraph separators (Zl, Zp)."""
    for ch in text:
        if unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}:
            return f"U+{ord(ch):04X} {unicodedata.name(ch, 'a control character')}"
    return None
