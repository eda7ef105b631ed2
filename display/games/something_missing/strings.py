"""什麼不見啦's own screen strings, zh-TW and en (registered by the display part on import)."""

from __future__ import annotations

from collections.abc import Mapping

STRINGS: Mapping[str, Mapping[str, str]] = {
    "sm.ring.bet_hint": {"zh-TW": "放方形代表物下注，按座位鈕放棄（或點選場景）",
                         "en": "Lay your square token to bet, press your seat button to pass "
                               "(or tap a scene)"},
    "sm.ring.turn_hint": {"zh-TW": "翻開這張場景：30 秒開始",
                          "en": "Turn this scene face up: the 30 s start"},
    # issue 41: why the referee refused a step (the kiosk's banner)
    "reject.viewing_running": {"zh-TW": "觀看時間已經開始了",
                              "en": "The viewing has already started"},
    "reject.viewing_not_started": {"zh-TW": "請先等主持人開始觀看",
                                  "en": "Wait for the host to start the viewing"},
    "reject.card_already_revealed": {"zh-TW": "這張物品牌已經翻過了",
                                    "en": "That item card is already on the pile"},
    "reject.must_bet": {"zh-TW": "拿沙漏的人一定要下注",
                       "en": "The hourglass taker must bet"},
    "reject.bad_position": {"zh-TW": "這個位置沒有場景",
                           "en": "There is no scene at that place"},
    "reject.memory_card_full": {"zh-TW": "這張記憶卡已經滿了：請選別的場景",
                               "en": "That memory card is full: pick another scene"},
    "reject.out_of_order": {"zh-TW": "場景要照順序翻開",
                           "en": "Turn the scenes up in order"},
    "reject.hourglass_running": {"zh-TW": "沙漏已經在跑了",
                                "en": "The hourglass is already running"},
    "reject.no_hourglass": {"zh-TW": "沒有翻沙漏：這次搜尋不計時",
                           "en": "The hourglass was not turned: no time limit"},
    "reject.not_current_check": {"zh-TW": "現在檢查的是另一個場景",
                                "en": "Another scene is being checked now"},
    "reject.bad_swap": {"zh-TW": "只能交換這回合翻開的兩個不同場景",
                       "en": "Swap only two different scenes turned up"},
    "reject.bad_scene": {"zh-TW": "沒有這張場景牌",
                        "en": "There is no such scene card"},
    "reject.scene_used": {"zh-TW": "這張場景牌這局已經用過了",
                         "en": "That scene card was already used this game"},
    "reject.waits_for_reveal": {"zh-TW": "這張牌要等下次翻牌時才算",
                               "en": "That card counts at the next reveal"},
    "reject.unknown_card": {"zh-TW": "這不是這個遊戲的物品牌",
                           "en": "That is not an item card of this game"},
    "reject.held_for_host": {"zh-TW": "這可能是手動翻開的那張：請主持人判定",
                            "en": "Maybe the card turned by hand: host, decide"},
    "reject.waits_for_replacement": {"zh-TW": "請先決定要不要換場景",
                                    "en": "Decide the scene replacement first"},
    "reject.nothing_held": {"zh-TW": "沒有等主持人判定的牌",
                           "en": "No card waits for the host"},
}
