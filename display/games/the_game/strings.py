"""Every UI string of 致命遊戲 The Game's screens, in zh-TW and en (registered with
:func:`display.i18n.add_strings` when the display part is imported). The verdicts are the
engine's own words (``engine.the_game.VERDICT_TEXT``)."""

from __future__ import annotations

from collections.abc import Mapping

from engine import the_game as tg


def _pair(zh: str, en: str) -> dict[str, str]:
    return {"zh-TW": zh, "en": en}


STRINGS: Mapping[str, Mapping[str, str]] = {
    "variant.normal": _pair("標準：每回合至少 2 張", "Standard: 2 cards a turn"),
    "variant.expert": _pair("專家：每回合至少 3 張", "Expert: 3 cards a turn"),
    "tg.title": _pair("致命遊戲", "The Game"),
    "tg.turn_no": _pair("第 {n} 回合", "Turn {n}"),
    "tg.expert": _pair("專家規則", "Expert rule"),
    "tg.turn_of": _pair("輪到 {name}", "{name}'s turn"),
    "tg.played": _pair("本回合已出 {n} / {min} 張", "Played {n} of {min}"),
    "tg.played_more": _pair("本回合已出 {n} 張（至少 {min}）", "Played {n} (at least {min})"),
    "tg.may_end": _pair("短按自己的 ◎：結束回合", "Press your ◎: turn done"),
    "tg.hold_hint": _pair("長按自己的 ◎ 2 秒：無法出牌", "Hold your ◎ 2 s: I cannot play"),
    "tg.pile": _pair("牌堆 {n} 張", "Draw pile {n}"),
    "tg.pile_empty": _pair("牌堆空了", "Draw pile empty"),
    "tg.left": {**_pair("還剩 {n} 張", "{n} cards left"), "en:one": "{n} card left"},
    "tg.hand": {**_pair("{n} 張", "{n} cards"), "en:one": "{n} card"},
    "tg.hand_empty": _pair("出完了", "no cards"),
    "tg.row_up": _pair("上升 1→99", "up 1→99"),
    "tg.row_down": _pair("下降 100→2", "down 100→2"),
    "tg.back10": _pair("退 10！", "10 back!"),
    "tg.house": _pair("家規", "house rule"),
    "tg.refused": _pair("{card} 不能放在 {row}", "{card} cannot go on {row}"),
    "tg.refused.not_in_hand": _pair("{card} 不在 {name} 的手牌裡",
                                    "{card} is not in {name}'s hand"),
    "tg.refused.played": _pair("{card} 已經出過了", "{card} has already been played"),
    "tg.refused.other": _pair("{card} 不能放在 {row}", "{card} cannot go on {row}"),
    "tg.refused.take_back": _pair("請把牌收回，或按「照打」", "Take it back, or keep it"),
    "tg.btn.house_rule": _pair("照打（家規）", "Keep (house rule)"),
    "tg.btn.taken_back": _pair("已收回", "Taken back"),
    "tg.btn.enter": _pair("手動輸入", "Enter by hand"),
    "tg.btn.end_turn": _pair("結束回合", "End turn"),
    "tg.btn.cannot": _pair("無法出牌", "Cannot play"),
    "tg.btn.confirm_end": _pair("確認，結束遊戲", "Yes, end the game"),
    "tg.btn.cancel": _pair("取消", "Cancel"),
    "tg.btn.del": _pair("刪除", "Delete"),
    "tg.btn.ok": _pair("確定", "OK"),
    "tg.claim.q": _pair("{name} 說：無法出牌", "{name} says: I cannot play"),
    "tg.claim.hint": _pair("確認後遊戲結束，計算剩下的牌", "Confirm to end the game and count "
                                                   "the cards left"),
    "tg.said.below_minimum": _pair("{name}：至少出 {min} 張才能結束回合",
                                   "{name}: play {min} cards before ending the turn"),
    "tg.said.not_your_turn": _pair("現在輪到 {name}", "It is {name}'s turn"),
    "tg.said.minimum_played": _pair("{name}：已出夠了，短按結束回合",
                                    "{name}: enough played, press to end the turn"),
    "tg.said.can_play": _pair("{name} 還有牌可以出", "{name} can still play a card"),
    "tg.said.other": _pair("{name}：不能這樣做", "{name}: not allowed"),
    "tg.entry.title": _pair("手動輸入一張牌", "Enter a play by hand"),
    "tg.entry.row": _pair("哪一列？", "Which row?"),
    "tg.entry.cards_on": _pair("{row} 上的牌", "The card on {row}"),
    "tg.entry.back10": _pair("退 10", "10 back"),
    "tg.entry.pick_hint": _pair("▶ 往後　◀ 往回\n● 選這張，或打開這一段",
                                "▶ next  ◀ the other way\n● take the card, or open the range"),
    "tg.entry.rows": _pair("換一列", "Other row"),
    "tg.entry.up": _pair("回上一層", "Back out"),
    "tg.entry.none": _pair("這一列沒有能出的牌", "No card can go on this row"),
    "tg.entry.type": _pair("或直接輸入牌號", "Or type the number"),
    "tg.over.title": _pair("遊戲結束", "Game over"),
    "tg.over.left": {**_pair("剩下 {n} 張牌", "{n} cards left"), "en:one": "{n} card left"},
    "tg.over.pile_hands": _pair("牌堆 {pile} 張＋手牌 {hands} 張",
                                "Draw pile {pile} + hands {hands}"),
    "tg.over.reason.cannot_play": _pair("有玩家無法出牌", "A player could not play"),
    "tg.over.reason.all_played": _pair("98 張全部出完", "All 98 cards played"),
    "tg.over.reason.host_ended": _pair("主持人結束了遊戲", "Ended by the host"),
    "tg.over.chart": _pair("四列的變化", "The rows over the game"),
    "tg.over.plays": {**_pair("出了 {n} 張", "{n} cards played"), "en:one": "{n} card played"},
    "tg.over.house": {**_pair("家規 {n} 次", "{n} house-rule plays"),
                      "en:one": "{n} house-rule play"},
    "tg.over.suggest": _pair("下次試試專家規則！", "Next time: the expert rule!"),
    **{f"tg.verdict.{v.value}": _pair(zh, en) for v, (zh, en) in tg.VERDICT_TEXT.items()},
}
