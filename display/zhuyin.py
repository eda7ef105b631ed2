"""注音 (Bopomofo) input for names on the touchscreen, through libchewing (酷音).

Taiwanese users type Chinese by sound: the Bopomofo symbols of one syllable, its tone, then the
character from a list of those that sound so. Choosing and ordering the candidates is an input
method's job, so this asks the real one: libchewing, the library behind ibus-chewing and
fcitx-chewing (Debian/Pi OS: ``apt-get install libchewing3 libchewing3-data``). It is called
through ``ctypes`` as libchewing's own Python example (``contrib/python/chewing.py``) does; no
binding is needed on PyPI.

The screen keeps the symbols typed (a plain string in the setup form); :func:`candidates`
replays them into a libchewing context and reads its candidate list. Nothing is committed to
libchewing, so it learns nothing and the list for a syllable is always the same.

Without the library, :func:`available` is False with the reason in :func:`why_unavailable`;
the name screen then offers the Latin keyboard and says that Chinese input needs libchewing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import tempfile
import threading
from functools import cache

_log = logging.getLogger(__name__)

#: The 37 symbols and the tones, as the standard (大千) keyboard places them: the layout on
#: every Taiwanese keyboard's keycaps, and the key libchewing's default layout expects for each.
DACHEN_ROWS: tuple[tuple[tuple[str, str], ...], ...] = (
    (("ㄅ", "1"), ("ㄉ", "2"), ("ˇ", "3"), ("ˋ", "4"), ("ㄓ", "5"), ("ˊ", "6"), ("˙", "7"),
     ("ㄚ", "8"), ("ㄞ", "9"), ("ㄢ", "0"), ("ㄦ", "-")),
    (("ㄆ", "q"), ("ㄊ", "w"), ("ㄍ", "e"), ("ㄐ", "r"), ("ㄔ", "t"), ("ㄗ", "y"), ("ㄧ", "u"),
     ("ㄛ", "i"), ("ㄟ", "o"), ("ㄣ", "p")),
    (("ㄇ", "a"), ("ㄋ", "s"), ("ㄎ", "d"), ("ㄑ", "f"), ("ㄕ", "g"), ("ㄘ", "h"), ("ㄨ", "j"),
     ("ㄜ", "k"), ("ㄠ", "l"), ("ㄤ", ";")),
    (("ㄈ", "z"), ("ㄌ", "x"), ("ㄏ", "c"), ("ㄒ", "v"), ("ㄖ", "b"), ("ㄙ", "n"), ("ㄩ", "m"),
     ("ㄝ", ","), ("ㄡ", "."), ("ㄥ", "/")),
)
KEY_OF: dict[str, str] = {sym: key for row in DACHEN_ROWS for sym, key in row}
#: The on-screen keyboard: the symbols in the order every Taiwanese child learns them
#: (ㄅㄆㄇㄈ …), then the tones. On a touchscreen this order is easier to find than the
#: keycaps' layout, and with the three host buttons *next* walks the keys in this order, so the
#: highlight can be put where the next symbol of a syllable must be (initial → medial →
#: final → tone) and never has far to go.
SCREEN_ROWS: tuple[str, ...] = (
    "ㄅㄆㄇㄈㄉㄊㄋㄌㄍㄎㄏ", "ㄐㄑㄒㄓㄔㄕㄖㄗㄘㄙ", "ㄧㄨㄩㄚㄛㄜㄝㄞㄟㄠㄡ", "ㄢㄣㄤㄥㄦˉˊˇˋ˙")
#: the first tone has no mark; the 注音 keyboard's space bar gives it (shown as ˉ)
FIRST_TONE = "ˉ"
TONES = frozenset({FIRST_TONE, "ˊ", "ˇ", "ˋ", "˙"})
SYMBOLS = frozenset(KEY_OF) | {FIRST_TONE}

#: where Debian, Pi OS and libchewing's own install put the dictionary
DATA_DIRS = ("/usr/share/libchewing", "/usr/share/chewing", "/usr/local/share/libchewing")


INITIALS = "ㄅㄆㄇㄈㄉㄊㄋㄌㄍㄎㄏㄐㄑㄒㄓㄔㄕㄖㄗㄘㄙ"
MEDIALS = "ㄧㄨㄩ"
FINALS = "ㄚㄛㄜㄝㄞㄟㄠㄡㄢㄣㄤㄥㄦ"


#: The keys in groups, for the three host buttons: *next* walks the groups, *confirm* opens
#: one and then walks its keys (a symbol costs the group's place plus its place in the group,
#: never the 42 keys one by one). The groups are the spans of :data:`SCREEN_ROWS` every
#: child learns together: the initials by where they are said (ㄅㄆㄇㄈ, ㄉㄊㄋㄌ, ...), the
#: medials, the finals, the tones.
GROUPS: tuple[str, ...] = ("ㄅㄆㄇㄈ", "ㄉㄊㄋㄌ", "ㄍㄎㄏ", "ㄐㄑㄒ", "ㄓㄔㄕㄖ", "ㄗㄘㄙ",
                           "ㄧㄨㄩ", "ㄚㄛㄜㄝ", "ㄞㄟㄠㄡ", "ㄢㄣㄤㄥㄦ", "ˉˊˇˋ˙")
TONE_GROUP = len(GROUPS) - 1


def group_of(sym: str) -> int:
    """The index in :data:`GROUPS` of the group ``sym`` is in (-1: none)."""
    return next((i for i, g in enumerate(GROUPS) if sym in g), -1)


def _slot(sym: str) -> int:
    return (0 if sym in INITIALS else 1 if sym in MEDIALS else 2 if sym in FINALS else 3)


def add(syllable: str, sym: str) -> str:
    """``syllable`` with ``sym`` typed: each of initial, medial, final and tone has one place,
    and a symbol typed again in a taken place replaces it (as 注音 keyboards do); a tone
    completes the syllable (a symbol after it starts a new one)."""
    if sym not in SYMBOLS:
        return syllable
    if complete(syllable):
        syllable = ""
    if sym in TONES and not syllable:
        return ""
    parts = {_slot(s): s for s in syllable}
    parts[_slot(sym)] = sym
    return "".join(parts[k] for k in sorted(parts))


def next_place(sym: str) -> str:
    """The key where the next symbol of a syllable is likeliest to be found after ``sym`` was
    typed: after an initial the medials (ㄧ), after a medial the finals (ㄚ), after a final the
    tones (ˉ), after a tone the initials (ㄅ)."""
    return {0: "ㄧ", 1: "ㄚ", 2: FIRST_TONE}.get(_slot(sym), "ㄅ")


def complete(syllable: str) -> bool:
    """A syllable is complete once it has its tone (the last symbol)."""
    return bool(syllable) and syllable[-1] in TONES


class _Chewing:
    """One libchewing context, used from one thread at a time."""

    def __init__(self, lib: ctypes.CDLL, data_dir: str) -> None:
        self.lib = lib
        lib.chewing_new2.restype = ctypes.c_void_p
        lib.chewing_new2.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p,
                                     ctypes.c_void_p]
        for name in ("chewing_cand_String_static", "chewing_buffer_String_static"):
            getattr(lib, name).restype = ctypes.c_char_p
            getattr(lib, name).argtypes = [ctypes.c_void_p]
        for name in ("chewing_handle_Default", "chewing_set_ChiEngMode",
                     "chewing_set_candPerPage", "chewing_set_escCleanAllBuf",
                     "chewing_cand_choose_by_index"):
            getattr(lib, name).argtypes = [ctypes.c_void_p, ctypes.c_int]
        for name in ("chewing_handle_Space", "chewing_handle_Esc", "chewing_cand_open",
                     "chewing_cand_Enumerate", "chewing_cand_hasNext", "chewing_delete",
                     "chewing_cand_TotalChoice"):
            getattr(lib, name).argtypes = [ctypes.c_void_p]
        # a throwaway user dictionary: we never commit, so nothing is learnt into it
        self._user_dir = tempfile.TemporaryDirectory(prefix="tablekeeper-chewing-")
        user = os.path.join(self._user_dir.name, "chewing.dat").encode()
        ctx = lib.chewing_new2(data_dir.encode(), user, None, None)
        if not ctx:
            raise OSError(f"libchewing could not open its dictionary in {data_dir}")
        self.ctx = ctypes.c_void_p(ctx)
        lib.chewing_set_ChiEngMode(self.ctx, 1)
        lib.chewing_set_candPerPage(self.ctx, 10)
        lib.chewing_set_escCleanAllBuf(self.ctx, 1)  # Esc empties the pre-edit buffer too
        self.lock = threading.Lock()

    def candidates(self, syllable: str) -> tuple[str, ...]:
        lib, ctx = self.lib, self.ctx
        with self.lock:
            lib.chewing_handle_Esc(ctx)
            try:
                for sym in syllable:
                    if sym == FIRST_TONE:
                        lib.chewing_handle_Space(ctx)
                    elif sym in KEY_OF:
                        lib.chewing_handle_Default(ctx, ord(KEY_OF[sym]))
                if not lib.chewing_buffer_String_static(ctx):
                    return ()  # not a syllable of Mandarin
                if lib.chewing_cand_open(ctx) != 0:
                    return ()
                lib.chewing_cand_Enumerate(ctx)
                out: list[str] = []
                while lib.chewing_cand_hasNext(ctx):
                    raw = lib.chewing_cand_String_static(ctx)
                    text = raw.decode("utf-8", "replace") if raw else ""
                    if len(text) == 1 and text not in out:
                        out.append(text)
                return tuple(out)
            finally:
                lib.chewing_handle_Esc(ctx)
                lib.chewing_handle_Esc(ctx)


_why = ""


@cache
def _engine() -> _Chewing | None:
    global _why
    if os.environ.get("TABLEKEEPER_NO_CHEWING"):
        _why = "TABLEKEEPER_NO_CHEWING is set"
        return None
    name = ctypes.util.find_library("chewing") or "libchewing.so.3"
    try:
        lib = ctypes.CDLL(name)
    except OSError as exc:
        _why = f"libchewing is not installed ({exc}); apt-get install libchewing3"
        _log.info("注音 input: %s", _why)
        return None
    data = next((d for d in DATA_DIRS if os.path.exists(os.path.join(d, "dictionary.dat"))
                 or os.path.exists(os.path.join(d, "word.dat"))), None)
    if data is None:
        _why = ("libchewing's dictionary is missing (looked in " + ", ".join(DATA_DIRS)
                + "); apt-get install libchewing3-data")
        _log.info("注音 input: %s", _why)
        return None
    try:
        return _Chewing(lib, data)
    except (OSError, AttributeError) as exc:
        _why = f"libchewing cannot be used: {exc}"
        _log.warning("注音 input: %s", _why)
        return None


def available() -> bool:
    """True if libchewing and its dictionary are installed."""
    return _engine() is not None


def why_unavailable() -> str:
    """Why :func:`available` is False (for the log and the builder; "" when it is True)."""
    _engine()
    return _why


@cache
def candidates(syllable: str) -> tuple[str, ...]:
    """The characters that sound like ``syllable`` (symbols then a tone), most likely first;
    empty without libchewing or for a syllable Mandarin does not have."""
    engine = _engine()
    if engine is None or not complete(syllable):
        return ()
    return engine.candidates(syllable)
