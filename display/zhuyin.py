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
from collections.abc import Callable
from functools import cache
from typing import Any

from ground.files import read_text

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


def _split(syllable: str) -> tuple[str, str]:
    """A syllable's sound and its tone ("" while it has none)."""
    if syllable and syllable[-1] in TONES:
        return syllable[:-1], syllable[-1]
    return syllable, ""


@cache
def common_characters() -> frozenset[str]:
    """Big5's level 1, 常用字 (5,401 characters, 0xA440-0xC67E, from Python's ``big5``
    codec): Big5 drew it up from the Ministry of Education's list of the characters in
    everyday use (the bundled font carries the same set: ``display/fonts/make_subset.py``)."""
    out: set[str] = set()
    for lead in range(0xA4, 0xC7):
        for trail in (*range(0x40, 0x7F), *range(0xA1, 0xFF)):
            if (lead << 8 | trail) > 0xC67E:
                break
            try:
                out.add(bytes((lead, trail)).decode("big5"))
            except UnicodeDecodeError:
                continue
    return frozenset(out)


@cache
def weights() -> dict[str, int]:
    """Every syllable Mandarin has (its symbols, then its tone; those libchewing has
    characters for), with its weight, which the name keyboard orders its choices by: how
    often it is said in libchewing's phrases (:func:`phrase_counts`, each phrase's frequency
    counted once per syllable it has), or, where libchewing's dictionary is of another
    format, how many of its characters are in everyday use (:func:`common_characters`).
    Asked of libchewing once (about 6,000 syllables tried, half a second; empty without
    it)."""
    if _engine() is None:
        return {}
    common = common_characters()
    said = phrase_counts()
    out: dict[str, int] = {}
    for initial in ("", *INITIALS):
        for medial in ("", *MEDIALS):
            for final in ("", *FINALS):
                sound = initial + medial + final
                if not sound:
                    continue
                for tone in (FIRST_TONE, "ˊ", "ˇ", "ˋ", "˙"):
                    chars = candidates(sound + tone)
                    if chars:
                        out[sound + tone] = (said.get(sound + tone, 0) if said
                                             else sum(c in common for c in chars))
    return _with_names(out)


def _with_names(said: dict[str, int]) -> dict[str, int]:
    """``said`` (each syllable's weight in Mandarin at large) blended half and half with how
    often names say it: each character of :func:`name_weights` adds its count to its reading
    (the syllable libchewing lists it earliest under: 柏 is ㄅㄛˊ). Both are made shares of
    their totals first, so neither scale wins; a syllable no name says keeps its half."""
    names = name_weights()
    read: dict[str, tuple[str, int]] = {}
    for syllable in said:
        for place, char in enumerate(candidates(syllable)):
            if char in names and (char not in read or place < read[char][1]):
                read[char] = (syllable, place)
    in_names: dict[str, int] = {}
    for char, (syllable, _) in read.items():
        in_names[syllable] = in_names.get(syllable, 0) + names[char]
    total, named = sum(said.values()), sum(in_names.values())
    if not total or not named:
        return said
    return {s: round(1e9 * (n / total + in_names.get(s, 0) / named)) for s, n in said.items()}


#: libchewing's tones in its phone codes (0: the first, which has no mark)
_TONE_CODES = (FIRST_TONE, "˙", "ˊ", "ˇ", "ˋ")


@cache
def phrase_counts() -> dict[str, int]:
    """How often each syllable is said in libchewing's phrase dictionary (0.5's
    ``index_tree.dat``: a tree of phone codes whose leaves give a phrase and its frequency,
    from libchewing's corpus): each phrase of two or more characters adds its frequency to
    each of its syllables. Empty where the dictionary is missing or of another format
    (libchewing 0.6 and later)."""
    import numpy as np

    data = next((d for d in DATA_DIRS if os.path.exists(os.path.join(d, "index_tree.dat"))),
                None)
    if data is None:
        return {}
    try:
        raw = np.fromfile(os.path.join(data, "index_tree.dat"), dtype=np.uint8)
    except OSError as exc:
        _log.info("注音 input: libchewing's phrase tree unreadable (%s)", exc)
        return {}
    if raw.size == 0 or raw.size % 8 or raw.size > 64 * 1024 * 1024:
        return {}
    nodes = raw.reshape(-1, 8).astype(np.int64)
    key = nodes[:, 0] | nodes[:, 1] << 8
    first = nodes[:, 2] | nodes[:, 3] << 8 | nodes[:, 4] << 16
    second = nodes[:, 5] | nodes[:, 6] << 8 | nodes[:, 7] << 16
    counts: dict[int, int] = {}
    # level by level from the root (node 0): each level's nodes, with the phones above them
    level = np.array([0])
    paths = np.zeros((1, 0), dtype=np.int64)
    while level.size:
        begin, end = first[level], second[level]
        if np.any(begin > end) or np.any(end > len(key)):
            _log.info("注音 input: libchewing's phrase tree is not 0.5's format")
            return {}
        sizes = end - begin
        parent = np.repeat(np.arange(level.size), sizes)
        child = np.repeat(begin - np.cumsum(sizes) + sizes, sizes) + np.arange(sizes.sum())
        leaf = key[child] == 0
        depth = paths.shape[1]
        if depth >= 2 and leaf.any():
            freq = second[child[leaf]]
            for col in range(depth):
                phones = paths[parent[leaf], col]
                for phone, total in zip(*_sums(phones, freq), strict=True):
                    counts[phone] = counts.get(phone, 0) + total
        inner = ~leaf
        level = child[inner]
        paths = np.concatenate([paths[parent[inner]], key[child[inner]][:, None]], axis=1)
        if paths.shape[1] > 16:
            return {}
    return {_syllable(phone): n for phone, n in counts.items()}


def _sums(phones: Any, freq: Any) -> tuple[list[int], list[int]]:
    import numpy as np

    found, where = np.unique(phones, return_inverse=True)
    return [int(p) for p in found], [int(n) for n in np.bincount(where, weights=freq)]


def _syllable(phone: int) -> str:
    """libchewing's phone code as 注音: initial, medial, final, tone (bits 9, 7, 3, 0)."""
    initial, medial, final, tone = phone >> 9 & 31, phone >> 7 & 3, phone >> 3 & 15, phone & 7
    return ((INITIALS[initial - 1] if initial else "") + (MEDIALS[medial - 1] if medial else "")
            + (FINALS[final - 1] if final else "")
            + (_TONE_CODES[tone] if tone < len(_TONE_CODES) else "?"))


@cache
def _sounds() -> dict[str, int]:
    """Each sound (a syllable without its tone) and its weight over the tones."""
    out: dict[str, int] = {}
    for syllable, n in weights().items():
        sound, _ = _split(syllable)
        out[sound] = out.get(sound, 0) + n
    return out


@cache
def rests(partial: str) -> tuple[str, ...]:
    """What can complete the sound ``partial`` (no tone yet) into a syllable Mandarin has,
    heaviest first: the symbols still to come ("" where ``partial`` is a sound already, as ㄓ
    or ㄧ). After ㄇ: ㄧ, ㄚ, ㄠ … (never ㄩ or ㄨㄥ, which no syllable has after ㄇ)."""
    if not partial or complete(partial):
        return ()
    found = {sound[len(partial):]: n for sound, n in _sounds().items()
             if sound.startswith(partial)}
    return tuple(sorted(found, key=lambda rest: (-found[rest], len(rest), rest)))


@cache
def nexts(partial: str) -> tuple[str, ...]:
    """The symbols that can come next after the sound ``partial`` (no tone yet), heaviest
    first, and "" where ``partial`` is a whole sound already (its tones next): after ㄊ,
    ㄧ, ㄢ, ㄨ … (never ㄩ); after ㄊㄧ, ㄥ, ㄢ, ㄠ … One short list per symbol, rather than
    every way to finish the syllable in one long one."""
    found: dict[str, int] = {}
    for rest in rests(partial):
        found[rest[:1]] = found.get(rest[:1], 0) + _sounds()[partial + rest]
    return tuple(sorted(found, key=lambda sym: (-found[sym], sym)))


def tones(sound: str) -> tuple[str, ...]:
    """The tones ``sound`` (a syllable without its tone) has in Mandarin, heaviest first."""
    found = {t: weights()[sound + t] for t in (FIRST_TONE, "ˊ", "ˇ", "ˋ", "˙")
             if sound + t in weights()}
    return tuple(sorted(found, key=lambda t: -found[t]))


def can_follow(partial: str, sym: str) -> bool:
    """``sym`` typed after ``partial`` (a sound, no tone yet) still spells a syllable
    Mandarin has, or its start (without libchewing: every symbol can)."""
    if not weights() or not partial or complete(partial):
        return True
    if sym in TONES:
        return partial + sym in weights()
    return any(rest.startswith(sym) for rest in rests(partial))


def weight_now(syllable: str, sym: str) -> int:
    """How common ``sym`` is as the next symbol after ``syllable`` (the name keyboard walks
    its groups and keys heaviest first): for a tone, its rank among the sound's tones; else
    the weight of the syllables it begins (after nothing or a whole syllable) or continues."""
    spelling = bool(syllable) and not complete(syllable)
    if sym in TONES:
        order = tones(syllable) if spelling else ()
        return len(order) - order.index(sym) if sym in order else 0
    if not spelling:
        return first_weight(sym)
    return sum(n for sound, n in _sounds().items()
               if sound.startswith(syllable) and sound[len(syllable):].startswith(sym))


def group_keys(syllable: str, group: int) -> tuple[str, ...]:
    """The keys of group ``group`` that can be typed after ``syllable``, in the walk's order
    (heaviest first; ties in the keyboard's order)."""
    keys = [k for k in GROUPS[group] if can_follow(syllable, k)]
    return tuple(sorted(keys, key=lambda k: -weight_now(syllable, k)))


@cache
def first_weight(sym: str) -> int:
    """The weight of the syllables that begin with ``sym`` (the name keyboard walks its
    groups and keys heaviest first)."""
    return sum(n for sound, n in _sounds().items() if sound.startswith(sym))


#: the characters of Taiwanese given names, commonest first (made by ``tools/name_chars.py``
#: from the Ministry of the Interior's name statistics; its header gives source and licence)
NAME_CHARS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "name_chars.txt")


@cache
def name_weights(path: str = NAME_CHARS) -> dict[str, int]:
    """How many of Taiwan's commonest given names each character is in (``name_chars.txt``:
    a character and a count a line, ``#`` comments). Read once, at most 64 KB; a line of
    another shape is skipped and logged, a missing or unreadable file leaves the name keyboard
    in libchewing's order (logged)."""
    try:
        text = read_text(path, 64 * 1024)
    except (OSError, UnicodeDecodeError) as exc:
        _log.warning("注音 input: the list of name characters is unreadable (%s)", exc)
        return {}
    out: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 2 or len(parts[0]) != 1 or not parts[1].isdigit():
            _log.warning("注音 input: %s line %d is not 'character count': %r", path, number,
                         line[:40])
            continue
        out[parts[0]] = int(parts[1])
    return out


def offered(syllable: str, drawable: Callable[[str], bool] = lambda c: True) -> tuple[str, ...]:
    """The characters the name screen offers for ``syllable``: those of Taiwan's commonest
    given names first, the commonest in names first (:func:`name_weights`), then those in
    everyday use (:func:`common_characters`), then the rarer, each in libchewing's order
    (the likeliest first); only those the screen can draw (``drawable``)."""
    common = common_characters()
    names = name_weights()
    found = [c for c in candidates(syllable) if drawable(c)]
    return tuple(sorted(found, key=lambda c: (-names.get(c, 0), c not in common)))


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
