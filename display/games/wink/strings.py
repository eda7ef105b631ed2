"""眨眨眼's own screen strings, zh-TW and en (registered by the display part on import)."""

from __future__ import annotations

from collections.abc import Mapping

STRINGS: Mapping[str, Mapping[str, str]] = {
    "wink.title": {"zh-TW": "眨眨眼", "en": "Wink"},
    "wink.turn_no": {"zh-TW": "第 {n} 輪", "en": "Turn {n}"},
    "wink.layout": {"zh-TW": "把 36 張牌正面朝上排成 6×6", "en": "Lay the 36 cards face up, 6×6"},
    "wink.layout_hint": {"zh-TW": "鏡頭讀到整個牌陣就開始", "en": "Play starts once the camera reads the whole grid"},
    "wink.place": {"zh-TW": "{name}：放指示物並喊號碼", "en": "{name}: place your marker, call the number"},
    "wink.name": {"zh-TW": "{name}：指出你的夥伴", "en": "{name}: point at your partner"},
    "wink.call": {"zh-TW": "{n}號夥伴，我在找你！", "en": "Partner {n}, I'm looking for you!"},
    "wink.seeking": {"zh-TW": "尋找 {n} 號", "en": "Looking for {n}"},
    "wink.named_right": {"zh-TW": "找到了", "en": "Found"},
    "wink.named_wrong": {"zh-TW": "不是", "en": "Wrong"},
    "wink.no_place": {"zh-TW": "全都在手上", "en": "Holds all free"},
    "wink.tap_cell": {"zh-TW": "鏡頭沒看到？點牌陣的格子", "en": "Camera missed it? Tap the cell"},
    "wink.accuse": {"zh-TW": "我要抓！", "en": "Accusation!"},
    "wink.accuser": {"zh-TW": "{name} 要抓！", "en": "{name} accuses!"},
    "wink.accuse_hint": {"zh-TW": "被指的玩家和號碼，答案是？", "en": "Who was accused, which number, the answer?"},
    "wink.caught": {"zh-TW": "{seat}對", "en": "{seat} yes"},
    "wink.missed": {"zh-TW": "{seat}錯", "en": "{seat} no"},
    "wink.withdraw": {"zh-TW": "撤回", "en": "Withdraw"},
    "wink.number_of": {"zh-TW": "{n}號 ({name})", "en": "{n} ({name})"},
    "wink.hand": {"zh-TW": "手牌 {n}", "en": "Hand {n}"},
    "wink.acc_cards": {"zh-TW": "指控 {n}", "en": "Accuse {n}"},
    "wink.mismatch": {"zh-TW": "鏡頭看到的有 {n} 格不一樣", "en": "The camera sees {n} cells differently"},
    "wink.margin": {"zh-TW": "領先 {ms} 毫秒", "en": "by {ms} ms"},
    "wink.tie": {"zh-TW": "同時按下，抽籤決定", "en": "Tie, drawn by lot"},
    "wink.last_right": {"zh-TW": "{name} 抓到了 {n} 號", "en": "{name} caught {n}"},
    "wink.last_wrong": {"zh-TW": "{name} 抓錯了", "en": "{name} accused wrongly"},
    "wink.over.hands": {"zh-TW": "有玩家手牌用完", "en": "A hand ran out"},
    "wink.over.grid": {"zh-TW": "牌陣沒有正面的牌了", "en": "No face-up grid card left"},
    "wink.over.host": {"zh-TW": "主持人結束", "en": "The host ended it"},
    "wink.decided.score": {"zh-TW": "分數最高", "en": "Highest score"},
    "wink.decided.accusation_cards": {"zh-TW": "同分：指控卡較少者勝", "en": "Tie: fewer accusation cards wins"},
    "wink.decided.hand_cards": {"zh-TW": "仍同分：手牌較少者勝", "en": "Still tied: fewer hand cards wins"},
    "wink.decided.shared": {"zh-TW": "完全同分：共享勝利", "en": "Fully tied: the win is shared"},
    "wink.score_row": {"zh-TW": "{pts} 分　指控 {acc}　手牌 {hand}", "en": "{pts} pts  accuse {acc}  hand {hand}"},
}
