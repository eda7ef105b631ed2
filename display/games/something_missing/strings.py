"""什麼不見啦's own screen strings, zh-TW and en (registered by the display part on import)."""

from __future__ import annotations

from collections.abc import Mapping

STRINGS: Mapping[str, Mapping[str, str]] = {
    "sm.ring.bet_hint": {"zh-TW": "放方形代表物下注，按座位鈕放棄（或點選場景）",
                         "en": "Lay your square token to bet, press your seat button to pass "
                               "(or tap a scene)"},
    "sm.ring.turn_hint": {"zh-TW": "翻開這張場景：30 秒開始",
                          "en": "Turn this scene face up: the 30 s start"},
}
