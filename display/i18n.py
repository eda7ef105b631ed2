"""Every string a player sees, in Traditional Chinese (``zh-TW``) and English (``en``).

One table, :data:`STRINGS`, maps a key to its two translations. Screens never hold literal UI
text: they call :func:`tr` with a key. The language is a field of the display snapshot, so it
switches at run time (the host's ``lang`` key flips it with :func:`next_lang`).

A key may have a singular form for ``n`` = 1 (``"en:one": "{n} pt"`` beside
``"en": "{n} pts"``); Chinese has no plural, so only English needs one.

Placeholders use :meth:`str.format` syntax (``{name}``); both translations of a key must use the
same placeholders (``tests/display/test_i18n.py`` checks that, and that every key a screen uses
exists). A key missing at run time never crashes the kiosk: :func:`tr` returns ``〈key〉`` and logs
the key once.
"""

from __future__ import annotations

import logging
import string
from collections.abc import Mapping

LANGS: tuple[str, ...] = ("zh-TW", "en")
DEFAULT_LANG = "zh-TW"

_log = logging.getLogger(__name__)
_missing_logged: set[str] = set()

#: key -> {lang: text}
STRINGS: dict[str, Mapping[str, str]] = {
    # --- general -------------------------------------------------------------------------
    "game.title": {"zh-TW": "什麼不見啦", "en": "Something Is Missing"},
    "lang.name": {"zh-TW": "中文", "en": "English"},
    "app.title": {"zh-TW": "桌邊裁判", "en": "tablekeeper"},
    "app.tagline": {"zh-TW": "tablekeeper：看牌、計時、計分",
                    "en": "桌邊裁判: cards, timers, scores"},
    "home.title": {"zh-TW": "選擇遊戲", "en": "Choose a game"},
    "home.count": {"zh-TW": "{n} 款遊戲", "en": "{n} games"},
    "home.players": {"zh-TW": "{lo}–{hi} 位玩家", "en": "{lo}–{hi} players"},
    "btn.setup_players": {"zh-TW": "設定玩家", "en": "Set up players"},
    "btn.other_game": {"zh-TW": "換遊戲", "en": "Other game"},
    "round": {"zh-TW": "第 {n} 回合", "en": "Round {n}"},
    "seat": {"zh-TW": "{n} 號座位", "en": "Seat {n}"},
    "player.default": {"zh-TW": "玩家 {n}", "en": "Player {n}"},
    "player.by_colour": {"zh-TW": "{colour}色", "en": "{colour}"},
    "points": {"zh-TW": "{n} 分", "en": "{n} pts", "en:one": "{n} pt"},
    "cards_left": {"zh-TW": "剩 {n} 張", "en": "{n} cards", "en:one": "{n} card"},
    "no_cards": {"zh-TW": "沒牌了", "en": "no cards"},
    "seconds": {"zh-TW": "{n} 秒", "en": "{n} s"},
    "scene.label": {"zh-TW": "場景 {s}", "en": "Scene {s}"},
    # --- host buttons ----------------------------------------------------------------------
    "btn.confirm": {"zh-TW": "確定", "en": "OK"},
    "btn.back": {"zh-TW": "返回", "en": "Back"},
    "btn.next": {"zh-TW": "下一步", "en": "Next"},
    "btn.undo": {"zh-TW": "復原", "en": "Undo"},
    "btn.lang": {"zh-TW": "English", "en": "中文"},
    "btn.start": {"zh-TW": "開始遊戲", "en": "Start game"},
    "btn.start_timer": {"zh-TW": "開始計時", "en": "Start timer"},
    "btn.nobody": {"zh-TW": "沒人搶答", "en": "Nobody buzzed"},
    "btn.by_hand": {"zh-TW": "卡已翻開（手動）", "en": "Card is up (by hand)"},
    "btn.held_new": {"zh-TW": "是新翻開的", "en": "A new card"},
    "btn.held_same": {"zh-TW": "是手動翻開的那張", "en": "The one turned by hand"},
    "held.title": {"zh-TW": "攝影機看到這張牌", "en": "The camera sees this card"},
    "held.question": {"zh-TW": "是剛翻開的新牌，還是先前手動翻開的那張？",
                      "en": "Is it a new card, or the one turned over by hand?"},
    "btn.pass": {"zh-TW": "不投注", "en": "Pass"},
    "btn.found": {"zh-TW": "找到了", "en": "Found"},
    "btn.not_found": {"zh-TW": "找不到", "en": "Not found"},
    "btn.hourglass": {"zh-TW": "翻沙漏", "en": "Run hourglass"},
    "btn.next_round": {"zh-TW": "下一回合", "en": "Next round"},
    "btn.swap": {"zh-TW": "交換 {a} ↔ {b}", "en": "Swap {a} ↔ {b}"},
    "btn.keep": {"zh-TW": "不交換", "en": "Keep"},
    "btn.swap_done": {"zh-TW": "交換完成", "en": "Done"},
    "btn.new_game": {"zh-TW": "新遊戲", "en": "New game"},
    "btn.add_player": {"zh-TW": "＋ 加入玩家", "en": "+ Add player"},
    "btn.remove": {"zh-TW": "移除", "en": "Remove"},
    "btn.replace": {"zh-TW": "換場景", "en": "Replace a scene"},
    "btn.no_replace": {"zh-TW": "不換", "en": "No change"},
    # --- setup ---------------------------------------------------------------------------
    "setup.title": {"zh-TW": "新遊戲：玩家設定", "en": "New game: players"},
    "setup.title_of": {"zh-TW": "{game}：玩家設定", "en": "{game}: players"},
    "setup.players": {"zh-TW": "{n} 位玩家", "en": "{n} players"},
    "setup.need_players": {"zh-TW": "需要 {lo} 到 {hi} 位玩家",
                           "en": "{lo} to {hi} players needed"},
    "setup.colour_taken": {"zh-TW": "每人要不同顏色", "en": "Each player needs a different colour"},
    "setup.variant": {"zh-TW": "玩法", "en": "Variant"},
    "setup.typing": {"zh-TW": "輸入名字，按 Enter 完成", "en": "Type a name, Enter when done"},
    "setup.name_of": {"zh-TW": "{n} 號座位的名字", "en": "Name of seat {n}"},
    "setup.roster": {"zh-TW": "常來的人", "en": "Regulars"},
    "setup.roster_editing": {"zh-TW": "選一位編輯", "en": "Pick one"},
    "setup.roster_empty": {"zh-TW": "還沒有常來的人：打好名字，按「編輯」加入",
                           "en": "No regulars yet: type a name, then Edit to add it"},
    "setup.roster_edit": {"zh-TW": "編輯", "en": "Edit"},
    "setup.roster_done": {"zh-TW": "編好了", "en": "Close"},
    "setup.roster_add": {"zh-TW": "加入「{name}」", "en": "Add \u201c{name}\u201d"},
    "setup.roster_rename": {"zh-TW": "改成「{name}」", "en": "Rename to \u201c{name}\u201d"},
    "setup.roster_remove": {"zh-TW": "移除這位", "en": "Remove"},
    "status.roster_not_saved": {"zh-TW": "常來的人沒有存起來（詳見記錄）",
                                "en": "The regulars were not saved (see the log)"},
    "status.roster_merged": {"zh-TW": "設定檔裡也改過常來的人：兩邊的名字都留下了",
                             "en": "The regulars were also edited in the config file: "
                                   "both kept"},
    "key.space": {"zh-TW": "空格", "en": "Space"},
    "key.done": {"zh-TW": "完成", "en": "Done"},
    "key.erase": {"zh-TW": "刪除", "en": "Delete"},
    "key.first_tone": {"zh-TW": "一聲", "en": "ˉ"},
    "key.latin": {"zh-TW": "英文 ABC", "en": "ABC"},
    "key.zhuyin": {"zh-TW": "注音", "en": "注音"},
    "zhuyin.hint": {"zh-TW": "打注音，再按聲調，然後選字",
                    "en": "Spell in 注音, press the tone, then pick the character"},
    "zhuyin.none": {"zh-TW": "沒有「{syllable}」這個音",
                    "en": "No character sounds \u201c{syllable}\u201d"},
    "zhuyin.more": {"zh-TW": "更多 {page}/{pages}", "en": "More {page}/{pages}"},
    "zhuyin.unavailable": {"zh-TW": "這台機器沒有注音輸入，只能打英文字母",
                           "en": "No 注音 input on this box: Latin letters only"},
    "font.missing": {"zh-TW": "螢幕字型缺字：{chars}", "en": "Not in the screen's font: {chars}"},
    "setup.start_mark": {"zh-TW": "先", "en": "1st"},
    "setup.start_hint": {"zh-TW": "「先」：最年輕的先開始", "en": "1st: the youngest starts"},
    "setup.start_hint2": {"zh-TW": "（按自己座位的按鈕）", "en": "(press your seat button)"},
    "setup.pressed": {"zh-TW": "{n} 號按了按鈕：{name} 先",
                      "en": "Seat {n} pressed: {name} starts"},
    "setup.pressed_empty": {"zh-TW": "{n} 號座位沒有玩家", "en": "Nobody at seat {n}"},
    # the shared setup's neutral names of variants; a game names its own through its
    # display's ``phrases`` (什麼不見啦's scenes below, the others' in their strings.py)
    "variant.easy": {"zh-TW": "簡單", "en": "Easy"},
    "variant.standard": {"zh-TW": "標準", "en": "Standard"},
    "variant.advanced": {"zh-TW": "進階", "en": "Advanced"},
    "sm.variant.easy": {"zh-TW": "簡單：4 張場景", "en": "Easy: 4 scenes"},
    "sm.variant.standard": {"zh-TW": "標準：5 張場景", "en": "Standard: 5 scenes"},
    "sm.variant.advanced": {"zh-TW": "進階：6 張場景", "en": "Advanced: 6 scenes"},
    "colour.red": {"zh-TW": "紅", "en": "Red"},
    "colour.yellow": {"zh-TW": "黃", "en": "Yellow"},
    "colour.blue": {"zh-TW": "藍", "en": "Blue"},
    "colour.green": {"zh-TW": "綠", "en": "Green"},
    "colour.orange": {"zh-TW": "橘", "en": "Orange"},
    "colour.brown": {"zh-TW": "棕", "en": "Brown"},
    "colour.purple": {"zh-TW": "紫", "en": "Purple"},
    # --- scene viewing -------------------------------------------------------------------
    "viewing.title": {"zh-TW": "記住場景", "en": "Memorise the scenes"},
    "viewing.pass": {"zh-TW": "第 {k} / {n} 輪", "en": "Pass {k} of {n}"},
    "viewing.hint": {"zh-TW": "每人看 5 秒，然後傳給左邊的玩家",
                     "en": "Look for 5 seconds, then pass to the left"},
    "viewing.ready": {"zh-TW": "準備好就開始計時", "en": "Start the timer when ready"},
    "viewing.done": {"zh-TW": "傳給左邊！", "en": "Pass left!"},
    "replace.title": {"zh-TW": "新場景", "en": "New scene"},
    "replace.hint": {"zh-TW": "大家有 20 秒看新場景", "en": "Everyone has 20 seconds to look"},
    "replace.which": {"zh-TW": "新場景卡換下場景 {s}", "en": "A new card replaces scene {s}"},
    "replace.choose": {"zh-TW": "{name} 可以換一張場景",
                       "en": "{name} may replace a scene"},
    # --- reveal --------------------------------------------------------------------------
    "reveal.turn": {"zh-TW": "輪到 {name}", "en": "{name}'s turn"},
    "reveal.flip": {"zh-TW": "翻開一張物品卡", "en": "Turn over an item card"},
    "reveal.revealed": {"zh-TW": "{name} 翻開了", "en": "{name} turned a card"},
    "reveal.next": {"zh-TW": "沒人搶答就換 {name}", "en": "Nobody? Then {name} turns next"},
    "reveal.waiting": {"zh-TW": "等待卡牌…", "en": "Waiting for a card…"},
    "card.unnamed": {"zh-TW": "手動翻開的卡", "en": "Card turned by hand"},
    "reveal.seen": {"zh-TW": "看到了", "en": "On the table"},
    "reveal.buzz_hint": {"zh-TW": "記得在哪裡？快按鈕！", "en": "Remember where? Hit your button!"},
    # --- buzz ----------------------------------------------------------------------------
    # the race's neutral words; a game says its own through its display's ``phrases``
    "buzz.shout": {"zh-TW": "搶到了！", "en": "First!"},
    "buzz.first": {"zh-TW": "{name} 最快", "en": "{name} was first"},
    "sm.buzz.shout": {"zh-TW": "什麼不見啦！", "en": "Something is missing!"},
    "sm.buzz.first": {"zh-TW": "{name} 搶到沙漏", "en": "{name} got the hourglass"},
    "early.locked": {"zh-TW": "太早按：{names} 這輪不能按",
                     "en": "Too early: {names} locked out this race"},
    "early.one": {"zh-TW": "{name} 太早按！", "en": "{name}: too early!"},
    # --- the host menu ------------------------------------------------------------------
    "btn.menu": {"zh-TW": "選單", "en": "Menu"},
    "menu.title": {"zh-TW": "主持選單", "en": "Host menu"},
    "ask.title": {"zh-TW": "這張卡是？", "en": "Which card is this?"},
    "ask.question": {"zh-TW": "攝影機看到一張卡，但不確定是哪一張：請選一張",
                     "en": "The camera sees a card but is not sure which: please pick one"},
    "ask.seen": {"zh-TW": "攝影機看到的", "en": "What the camera sees"},
    "ask.confirm": {"zh-TW": "按確認：", "en": "Confirm:"},
    "ask.more": {"zh-TW": "再 3 張候選（返回鍵）", "en": "3 more cards (back)"},
    "ask.best": {"zh-TW": "回到前 3 張（返回鍵）", "en": "The best 3 (back)"},
    "ask.none": {"zh-TW": "都不是：手動輸入", "en": "None of these: enter by hand"},
    "ask.later": {"zh-TW": "等一下再說（{n} 張待確認）", "en": "Later ({n} waiting)",
                  "en:one": "Later ({n} waiting)"},
    "status.ask_waiting": {"zh-TW": "{why} 張卡待確認：選單 → 確認卡片",
                           "en": "{why} card(s) waiting to be named: Menu → Name the cards"},
    "menu.ask": {"zh-TW": "確認卡片（{n} 張）", "en": "Name the cards ({n})",
                 "en:one": "Name the card ({n})"},
    "learnt.question": {"zh-TW": "今晚在這張桌上學會了一些卡：留在牌組裡，下次也用嗎？",
                        "en": "Cards were learnt at this table tonight: keep them in the deck "
                              "for next time?"},
    "learnt.keep": {"zh-TW": "保留（{n} 張圖）", "en": "Keep them ({n} pictures)",
                    "en:one": "Keep it ({n} picture)"},
    "learnt.drop": {"zh-TW": "不要保留（{n} 張圖）", "en": "Drop them ({n} pictures)",
                    "en:one": "Drop it ({n} picture)"},
    "status.learnt_not_kept": {"zh-TW": "學會的卡未能存入牌組：{why}",
                               "en": "The learnt cards could not be saved to the deck: {why}"},
    "menu.resume": {"zh-TW": "回到遊戲", "en": "Back to the game"},
    "menu.close": {"zh-TW": "關閉選單", "en": "Close the menu"},
    "menu.rules": {"zh-TW": "遊戲規則", "en": "Rules"},
    "menu.rules_of": {"zh-TW": "{game} 規則", "en": "{game}: rules"},
    "menu.back": {"zh-TW": "返回", "en": "Back"},
    "menu.end": {"zh-TW": "結束這局", "en": "End this game"},
    "menu.home": {"zh-TW": "回到主畫面", "en": "Go home"},
    "menu.volume_down": {"zh-TW": "音量 -（{n}）", "en": "Volume - ({n})"},
    "menu.volume_up": {"zh-TW": "音量 +（{n}）", "en": "Volume + ({n})"},
    "menu.mute": {"zh-TW": "靜音", "en": "Mute"},
    "menu.unmute": {"zh-TW": "取消靜音", "en": "Sound on"},
    "menu.end_q": {"zh-TW": "結束這局？顯示目前的結果。",
                   "en": "End this game? The result so far is shown."},
    "menu.home_q": {"zh-TW": "結束這局並回到主畫面？",
                    "en": "End this game and go home?"},
    "menu.yes_end": {"zh-TW": "是，結束", "en": "Yes, end it"},
    "menu.no_keep": {"zh-TW": "不，繼續玩", "en": "No, keep playing"},
    "status.choose_first": {"zh-TW": "請先按 ▶ 選擇，再按 ● 確認",
                            "en": "Press ▶ to choose, then ● to confirm"},
    "menu.paused": {"zh-TW": "遊戲暫停中：計時停止，回到遊戲後繼續",
                    "en": "The game is paused: its clocks wait until you go back to it"},
    "menu.paused_restart": {"zh-TW": "機器重新啟動過：遊戲暫停中，選「回到遊戲」繼續",
                            "en": "The box restarted: the game waits until you go back to it"},
    "sound.silent": {"zh-TW": "沒有聲音", "en": "No sound"},
    "sound.muted": {"zh-TW": "已靜音", "en": "Muted"},
    "buzz.margin": {"zh-TW": "領先 {ms} 毫秒", "en": "by {ms} ms"},
    "buzz.alone": {"zh-TW": "唯一按下", "en": "the only press"},
    "buzz.tie": {"zh-TW": "平手抽籤", "en": "Tie — drawn by lot"},
    "buzz.tied_with": {"zh-TW": "同時按下：", "en": "Pressed together:"},
    # --- betting -------------------------------------------------------------------------
    "bet.title": {"zh-TW": "投注場景", "en": "Place your bets"},
    "bet.decide": {"zh-TW": "{name}：投注或不投注？", "en": "{name}: bet or pass?"},
    "bet.must": {"zh-TW": "{name} 必須投注", "en": "{name} must bet"},
    "bet.passed": {"zh-TW": "不投注", "en": "passed"},
    "bet.waiting": {"zh-TW": "等待", "en": "waiting"},
    "bet.on": {"zh-TW": "投 {s}", "en": "on {s}"},
    "bet.tap": {"zh-TW": "點選場景下注", "en": "Tap a scene to bet"},
    # --- checking ------------------------------------------------------------------------
    "check.title": {"zh-TW": "檢視 {s}", "en": "Checking {s}"},
    "check.bettors": {"zh-TW": "投注者", "en": "Bettors"},
    "check.point": {"zh-TW": "翻開場景，指出物品", "en": "Turn the scene up and point at the item"},
    "check.point_who": {"zh-TW": "{names}：翻開場景，指出物品",
                        "en": "{names}: turn the scene up, point at the item"},
    "list.sep": {"zh-TW": "、", "en": " & "},
    "check.timeup": {"zh-TW": "時間到！", "en": "Time's up!"},
    "check.no_timer": {"zh-TW": "沒投這張的人可以翻沙漏",
                       "en": "Players who did not bet here may run the hourglass"},
    "check.found": {"zh-TW": "找到了", "en": "found"},
    "check.not_found": {"zh-TW": "找不到", "en": "not found"},
    "check.pending": {"zh-TW": "待檢視", "en": "to check"},
    # --- scoring -------------------------------------------------------------------------
    "score.title": {"zh-TW": "計分", "en": "Scores"},
    "score.target": {"zh-TW": "目標 {n} 分", "en": "First to {n}"},
    # --- swap ----------------------------------------------------------------------------
    "swap.title": {"zh-TW": "交換場景？", "en": "Swap scenes?"},
    "swap.who": {"zh-TW": "最低分的 {name} 決定", "en": "{name} (lowest score) decides"},
    # --- game over -----------------------------------------------------------------------
    "over.title": {"zh-TW": "遊戲結束", "en": "Game over"},
    "over.winner": {"zh-TW": "{name} 獲勝！", "en": "{name} wins!"},
    "over.winners": {"zh-TW": "共同獲勝！", "en": "Shared win!"},
    "over.chart": {"zh-TW": "每回合分數", "en": "Scores by round"},
    "over.reason.score": {"zh-TW": "有人達到 {n} 分", "en": "Someone reached {n} points"},
    "over.reason.cards": {"zh-TW": "{n} 位玩家沒牌了", "en": "{n} players ran out of cards",
                          "en:one": "{n} player ran out of cards"},
    "over.reason.host": {"zh-TW": "主持人結束了遊戲", "en": "Ended by the host"},
    # issue 28: cards and area (the set-up area, its hub, teaching the cards; 28a)
    "tablesetup.no_picture": {"zh-TW": "沒有畫面", "en": "No picture"},
    "tablesetup.title": {"zh-TW": "設定這台機器", "en": "Set up this box"},
    "tablesetup.step.cards": {"zh-TW": "教機器認牌", "en": "Teach the box the cards"},
    "tablesetup.step.zones": {"zh-TW": "告訴機器桌面位置", "en": "Show the box the table"},
    "tablesetup.step.markers": {"zh-TW": "標記顏色", "en": "Marker colours"},
    "tablesetup.step.buttons": {"zh-TW": "按鈕和燈", "en": "Buttons and lamps"},
    "tablesetup.status.done": {"zh-TW": "完成", "en": "Done"},
    "tablesetup.status.missing": {"zh-TW": "還沒設定", "en": "Not set up"},
    "tablesetup.status.optional": {"zh-TW": "可以檢查", "en": "Optional"},
    "tablesetup.status.unavailable": {"zh-TW": "尚未提供", "en": "Not available yet"},
    "tablesetup.next_step": {"zh-TW": "下一步", "en": "Next step"},
    "tablesetup.back_home": {"zh-TW": "回到選擇遊戲", "en": "Back to the games"},
    "tablesetup.hub_hint": {"zh-TW": "選一個步驟；確認會從還缺的開始",
        "en": "Pick a step; confirm starts with what is missing"},
    "tablesetup.ready": {"zh-TW": "可以玩了", "en": "Ready to play"},
    "tablesetup.not_ready": {"zh-TW": "還不能玩：先完成標示的步驟",
        "en": "Not ready: finish the marked steps first"},
    "tablesetup.ready_simulated": {"zh-TW": "可以玩：模擬桌面用示範牌",
        "en": "Ready: the simulated table plays with the demo cards"},
    "tablesetup.camera_gone": {"zh-TW": "攝影機沒有畫面：請接回，會接著繼續",
                                "en": "No camera picture: plug it in, it resumes"},
    "tablesetup.unavailable": {"zh-TW": "這一步在這台機器上尚未提供",
        "en": "This step is not available on this box yet"},
    "home.needs_setup": {"zh-TW": "需要設定", "en": "Needs set-up"},
    "btn.setup_area": {"zh-TW": "設定", "en": "Set up"},
    "menu.setup": {"zh-TW": "設定這台機器", "en": "Set up this box"},
    "tablesetup.cards.lay": {"zh-TW": "請放上：{name}", "en": "Lay: {name}"},
    "tablesetup.cards.taken": {"zh-TW": "拍好了：{name}", "en": "Taken: {name}"},
    "tablesetup.cards.state.clear_next": {"zh-TW": "拿開卡片，再放下一張：{next}",
                                          "en": "Take it away, then lay: {next}"},
    "tablesetup.cards.progress": {"zh-TW": "{n} / {total} 張", "en": "{n} of {total}"},
    "tablesetup.cards.shot": {"zh-TW": "照片 {n} / {of}", "en": "Shot {n} of {of}"},
    "tablesetup.cards.state.lay": {"zh-TW": "把這張牌單獨放在鏡頭下",
        "en": "Lay this card alone under the camera"},
    "tablesetup.cards.state.clear": {"zh-TW": "拿開卡片，再放一次（換個位置）",
        "en": "Lift the card, lay it again a little elsewhere"},
    "tablesetup.cards.state.steady": {"zh-TW": "保持不動……", "en": "Hold still ..."},
    "tablesetup.cards.state.blurry": {"zh-TW": "太模糊，請保持不動", "en": "Blurred: hold still"},
    "tablesetup.cards.state.glare": {"zh-TW": "有反光：移動卡片或燈",
        "en": "A reflection: move the card or the lamp"},
    "tablesetup.cards.state.several": {"zh-TW": "鏡頭下只能有一張牌",
        "en": "Only one card under the camera"},
    "tablesetup.cards.state.other": {"zh-TW": "這張像是「{name}」，不是要的那張",
        "en": "That looks like {name}, not the card asked for"},
    "tablesetup.cards.state.captured": {"zh-TW": "拍好了", "en": "Taken"},
    "tablesetup.cards.state.done": {"zh-TW": "全部拍好了", "en": "All taken"},
    "tablesetup.cards.sharp": {"zh-TW": "清晰度 {n}", "en": "Sharpness {n}"},
    "tablesetup.cards.glare": {"zh-TW": "反光 {n}%", "en": "Glare {n}%"},
    "tablesetup.btn.stop": {"zh-TW": "先停，之後繼續", "en": "Stop, go on later"},
    "tablesetup.btn.retake": {"zh-TW": "重拍", "en": "Retake"},
    "tablesetup.btn.skip": {"zh-TW": "跳過", "en": "Skip"},
    "tablesetup.btn.unskip": {"zh-TW": "拍跳過的牌", "en": "Teach the skipped"},
    "tablesetup.btn.save": {"zh-TW": "再存一次", "en": "Save again"},
    "tablesetup.btn.finish": {"zh-TW": "完成", "en": "Done"},
    "tablesetup.btn.retake_card": {"zh-TW": "重拍 {name}", "en": "Retake {name}"},
    "tablesetup.cards.skipped": {"zh-TW": "跳過了 {n} 張：拍完才能存",
        "en": "{n} skipped: teach them to save the deck"},
    "tablesetup.cards.disk_full": {"zh-TW": "儲存空間滿了：照片暫存記憶體",
        "en": "Disk full: shots kept in memory"},
    "tablesetup.cards.store_failed": {"zh-TW": "照片存不進去（見記錄）",
        "en": "Shots not kept on disk (see log)"},
    "tablesetup.cards.disk_full_deck": {"zh-TW": "空間滿了：牌組沒存，舊的還在",
        "en": "Disk full: not saved, old deck kept"},
    "tablesetup.cards.not_saved": {"zh-TW": "牌組沒存成，舊的還在",
        "en": "Not saved: the old deck is kept"},
    "tablesetup.cards.config_not_saved": {"zh-TW": "牌組已存，設定檔寫不進去",
        "en": "Deck saved; config not written"},
    "tablesetup.cards.check": {"zh-TW": "檢查：放幾張牌，機器會說出是哪張",
        "en": "Check: lay a few cards; the box names them"},
    "tablesetup.cards.check_hint": {"zh-TW": "例如：{name}", "en": "For example: {name}"},
    "tablesetup.cards.named": {"zh-TW": "{name}（把握 {pct}%）", "en": "{name} ({pct}% sure)"},
    "tablesetup.cards.unknown": {"zh-TW": "不認得（像 {name}）", "en": "Not known (like {name})"},
    "tablesetup.cards.confused": {"zh-TW": "不確定的牌：", "en": "Cards it was unsure of:"},
    "tablesetup.cards.hint_take": {"zh-TW": "拿開卡片", "en": "Take the cards away"},
    "tablesetup.cards.hint_lay": {"zh-TW": "放上要的牌", "en": "Lay the card asked for"},
    "tablesetup.cards.check_done": {"zh-TW": "檢查好了就按完成", "en": "Checked: press Done"},
    "tablesetup.cards.state.unknown": {"zh-TW": "這張不是要的那張",
                                       "en": "That is not the card asked for"},
    # (end of issue 28: cards and area; 28b's block "# issue 28: zones" goes at the end)
    # --- status banner -------------------------------------------------------------------
    "status.camera_disconnected": {"zh-TW": "攝影機已斷線，正在重試",
                                   "en": "Camera disconnected, retrying now"},
    "status.camera_retrying": {"zh-TW": "攝影機已斷線，{n} 秒後重試",
                               "en": "Camera disconnected, retrying in {n} s"},
    "status.camera_starting": {"zh-TW": "攝影機啟動中…", "en": "Camera starting…"},
    "status.camera_blocked": {"zh-TW": "攝影機被遮住了", "en": "Camera view blocked"},
    "status.camera_ended": {"zh-TW": "攝影機畫面停止了", "en": "The camera stopped sending"},
    "status.camera_closed": {"zh-TW": "攝影機已關閉", "en": "Camera closed"},
    "status.vision_error": {"zh-TW": "辨識卡牌出錯（詳見記錄）",
                            "en": "Card recognition failed (see the log)"},
    "status.button_stuck": {"zh-TW": "{name} 的按鈕卡住了", "en": "{name}'s button is stuck"},
    "status.early_press": {"zh-TW": "{name} 太早按，暫停一下",
                           "en": "{name} pressed too early: locked out"},
    # problems of the box, for the players (the builder's account: the log, the self-test)
    "problem.config": {"zh-TW": "有設定無效，已用預設值（見自我檢查）",
                       "en": "A setting is invalid; its default is used (see the self-test)"},
    "problem.deck": {"zh-TW": "卡牌資料讀不到，暫用示範卡",
                     "en": "The card deck cannot be read; the demo deck is used"},
    "problem.camera": {"zh-TW": "攝影機設定有問題（見自我檢查）",
                       "en": "A camera setting has a problem (see the self-test)"},
    "status.refused": {"zh-TW": "這一步不行，沒有記錄", "en": "Not allowed; nothing recorded"},
    "status.rejected": {"zh-TW": "不能這樣做：{why}", "en": "Not allowed: {why}"},
    # issue 28: zones (28b: "Show the box the table", markers, buttons and lamps)
    "setup.btn.save": {"zh-TW": "儲存", "en": "Save"},
    "setup.btn.back": {"zh-TW": "返回", "en": "Back"},
    "setup.config.broken": {"zh-TW": "設定檔有錯誤，沒有儲存（詳見記錄）",
                            "en": "The config file has an error: not saved (see the log)"},
    "setup.config.unwritable": {"zh-TW": "無法寫入檔案，沒有儲存（詳見記錄）",
                                "en": "The file cannot be written: not saved (see the log)"},
    "setup.config.clash": {"zh-TW": "設定檔同一項剛被手動改過：已存這裡的值，原值記在記錄裡",
                           "en": "That setting was also edited in the config file: the value "
                                 "set here is saved, the file's is in the log"},
    "setup.config.clash.zones": {"zh-TW": "設定檔裡的區域剛被手動改過："
                                           "已存這裡找到的區域，原本的記在記錄裡",
                                 "en": "The zones were also edited in the config file: the "
                                       "zones found here are saved, the file's are in the log"},
    "setup.config.none": {"zh-TW": "這台機器沒有設定檔，無法儲存",
                          "en": "This box runs without a config file: cannot save"},
    "setup.zones.lay.pile": {"zh-TW": "把一張牌放在牌堆的位置",
                             "en": "Lay one card where the pile goes"},
    "setup.zones.lay.rows": {"zh-TW": "在 {n} 排的位置各放一張牌",
                             "en": "Lay one card on each of the {n} rows"},
    "setup.zones.lay.grid": {"zh-TW": "在方格的四個角各放一張牌",
                             "en": "Lay a card on each corner of the grid"},
    "setup.zones.lay.area": {"zh-TW": "在放圖片那一排的兩端各放一張",
                             "en": "Lay a tile at each end of where the stories lie"},
    "setup.zones.lay.ring": {"zh-TW": "排好場景牌和回憶卡",
                             "en": "Lay the scenes and memory cards"},
    "setup.zones.lay.pile+ring": {"zh-TW": "牌堆放一張牌，周圍排好場景牌和回憶卡",
                                  "en": "A card where the pile goes, the scenes and memory "
                                        "cards round it"},
    "setup.zones.lay.cards": {"zh-TW": "把牌放在遊戲區的位置",
                              "en": "Lay cards where the game's places are"},
    "setup.zones.take": {"zh-TW": "找到了：按「用這些區域」", "en": "Found: take these zones"},
    "setup.zones.steady": {"zh-TW": "看到 {found} 張牌，請不要移動",
                           "en": "{found} cards seen: hold still"},
    "setup.zones.save": {"zh-TW": "需要時調整，再按「儲存」", "en": "Adjust if needed, then Save"},
    "setup.zones.saved": {"zh-TW": "區域已儲存", "en": "Zones saved"},
    "setup.zones.none": {"zh-TW": "畫面裡沒有牌（要 {want} 張）",
                         "en": "No card in view ({want} wanted)"},
    "setup.zones.empty": {"zh-TW": "畫面裡還沒有牌", "en": "No card in view yet"},
    "setup.zones.few": {"zh-TW": "看到 {found} 張牌，要 {want} 張",
                        "en": "{found} cards seen, {want} wanted"},
    "setup.zones.many": {"zh-TW": "看到 {found} 張牌，太多了：要 {want} 張",
                         "en": "{found} cards seen: too many, {want} wanted"},
    "setup.zones.layout": {"zh-TW": "牌的排法不對，請照說明重新排",
                           "en": "The cards do not lie as asked: lay them again"},
    "setup.zones.no_camera": {"zh-TW": "攝影機沒有畫面：請檢查連線",
                              "en": "No picture from the camera: check its cable"},
    "setup.zones.all": {"zh-TW": "全部", "en": "all"},
    "setup.zones.name.row": {"zh-TW": "第 {n} 排", "en": "row {n}"},
    "setup.zones.name.cell": {"zh-TW": "第 {r} 排第 {c} 張", "en": "row {r}, card {c}"},
    "setup.zones.name.scene": {"zh-TW": "場景牌 {n}", "en": "scene {n}"},
    "setup.zones.name.memory": {"zh-TW": "回憶卡 {n}", "en": "memory card {n}"},
    "setup.zones.name.pile": {"zh-TW": "牌堆", "en": "the pile"},
    "setup.zones.name.centre": {"zh-TW": "遊戲區", "en": "the play area"},
    "setup.zones.name.area": {"zh-TW": "遊戲區", "en": "the play area"},
    "setup.zones.btn.take": {"zh-TW": "用這些區域", "en": "Use these zones"},
    "setup.zones.btn.again": {"zh-TW": "重新尋找", "en": "Find again"},
    "setup.zones.btn.pick": {"zh-TW": "調整：{name}", "en": "Adjust: {name}"},
    "setup.zones.btn.grow": {"zh-TW": "放大", "en": "Bigger"},
    "setup.zones.btn.shrink": {"zh-TW": "縮小", "en": "Smaller"},
    "setup.zones.btn.left": {"zh-TW": "左移", "en": "Left"},
    "setup.zones.btn.right": {"zh-TW": "右移", "en": "Right"},
    "setup.zones.btn.up": {"zh-TW": "上移", "en": "Up"},
    "setup.zones.btn.down": {"zh-TW": "下移", "en": "Down"},
    "setup.marker.red": {"zh-TW": "紅", "en": "red"},
    "setup.marker.yellow": {"zh-TW": "黃", "en": "yellow"},
    "setup.marker.blue": {"zh-TW": "藍", "en": "blue"},
    "setup.marker.green": {"zh-TW": "綠", "en": "green"},
    "setup.marker.orange": {"zh-TW": "橘", "en": "orange"},
    "setup.marker.brown": {"zh-TW": "棕", "en": "brown"},
    "setup.marker.purple": {"zh-TW": "紫", "en": "purple"},
    "setup.marker.black": {"zh-TW": "黑", "en": "black"},
    "setup.marker.white": {"zh-TW": "白", "en": "white"},
    "setup.markers.lay_grid": {"zh-TW": "把 36 張牌正面朝上排成方格，先不放指示物",
                               "en": "Lay the 36 cards face up in the grid, no markers yet"},
    "setup.markers.lay_ring": {"zh-TW": "排好場景牌和回憶卡，先不放代表物",
                               "en": "Lay the scenes and memory cards, no tokens yet"},
    "setup.markers.put_all": {"zh-TW": "把每個顏色放在它的格子上",
                              "en": "Lay each colour on its numbered place"},
    "setup.markers.put": {"zh-TW": "把{colour}色放在 {cell}", "en": "Lay {colour} on {cell}"},
    "setup.markers.turn": {"zh-TW": "把 {cell} 的牌翻成背面",
                           "en": "Turn the card on {cell} face down"},
    "setup.markers.back": {"zh-TW": "翻面", "en": "back"},
    "setup.markers.measure": {"zh-TW": "都放好了：按「量顏色」", "en": "All laid: Measure"},
    "setup.markers.save": {"zh-TW": "顏色量好了：按「儲存」", "en": "Colours measured: Save"},
    "setup.markers.saved": {"zh-TW": "顏色已儲存", "en": "Colours saved"},
    "setup.markers.missing": {"zh-TW": "{count} 個沒找到（黃框）：放好再量一次",
                              "en": "{count} not found (yellow boxes): lay them, try again"},
    "setup.markers.too_close": {"zh-TW": "{a}和{b}看起來太像：同色放了兩次，或光線不足？",
                                "en": "{a} and {b} look alike: one colour twice, or too dim?"},
    "setup.markers.no_grid": {"zh-TW": "方格還沒有區域：請先讓機器看桌面",
                              "en": "The grid has no zones yet: show the box the table first"},
    "setup.markers.no_ring": {"zh-TW": "場景環還沒有區域：請先讓機器看桌面",
                              "en": "The ring has no zones yet: show the box the table first"},
    "setup.markers.no_camera": {"zh-TW": "攝影機沒有畫面：請檢查連線",
                                "en": "No picture from the camera: check its cable"},
    "setup.markers.failed": {"zh-TW": "量不到顏色，請再試一次（詳見記錄）",
                             "en": "Could not measure: try again (see the log)"},
    "setup.markers.near": {"zh-TW": "和{other}相差 {d}", "en": "{d} from {other}"},
    "setup.markers.btn.laid": {"zh-TW": "排好了", "en": "Laid"},
    "setup.markers.btn.measure": {"zh-TW": "量顏色", "en": "Measure"},
    "setup.markers.btn.again": {"zh-TW": "重來", "en": "Start over"},
    "setup.buttons.press": {"zh-TW": "請每位玩家按一下自己的按鈕",
                            "en": "Each player: press your button once"},
    "setup.buttons.all": {"zh-TW": "所有按鈕都有反應", "en": "Every button answered"},
    "setup.buttons.silent": {"zh-TW": "座位 {seats} 沒有反應：請檢查接線",
                             "en": "Seat {seats}: no answer, check the wiring"},
    "setup.buttons.seat": {"zh-TW": "座位 {n}", "en": "Seat {n}"},
    "setup.buttons.tie_ready": {"zh-TW": "平手時間：接上測試跳線（GPIO 7 接座位 1、2）再按「測量」",
                                "en": "Tie window: fit the test jumper (GPIO 7 to seats 1, 2), "
                                      "then Measure"},
    "setup.buttons.tie_measuring": {"zh-TW": "測量中… {done}/{total}",
                                    "en": "Measuring… {done}/{total}"},
    "setup.buttons.tie_result": {"zh-TW": "建議平手時間：{us} 微秒（目前 {now}）",
                                 "en": "Suggested tie window: {us} µs (now {now})"},
    "setup.buttons.figures": {"zh-TW": "測 {n} 次：最大差 {max} 微秒，99.9% 在 {p} 微秒內",
                              "en": "{n} edges: largest gap {max} µs, 99.9% within {p} µs"},
    "setup.buttons.no_edges": {"zh-TW": "沒有測到訊號：跳線接好了嗎？",
                               "en": "No signal: is the jumper fitted?"},
    "setup.buttons.no_output": {"zh-TW": "這台機器沒有測試輸出：不用測平手時間",
                                "en": "This box has no test output: no tie window to measure"},
    "setup.buttons.done": {"zh-TW": "按鈕和燈都檢查好了", "en": "Buttons and lamps checked"},
    "setup.buttons.btn.done": {"zh-TW": "完成", "en": "Done"},
    "setup.buttons.btn.wait": {"zh-TW": "等他們", "en": "Wait for them"},
    "setup.buttons.btn.without": {"zh-TW": "不用他們，繼續", "en": "Go on without"},
    "setup.buttons.btn.measure": {"zh-TW": "測量", "en": "Measure"},
    "setup.buttons.btn.skip": {"zh-TW": "略過", "en": "Skip"},
    "setup.buttons.btn.again": {"zh-TW": "再量一次", "en": "Measure again"},
    "setup.buttons.jumpers": {"zh-TW": "請拔掉測試跳線（GPIO 7 接座位 1、2 的線），再按「拔掉了」",
                              "en": "Remove the test jumpers (GPIO 7 to seats 1 and 2), then "
                                    "press Removed"},
    "setup.buttons.jumpers_why": {"zh-TW": "留著的話，按座位 1 也會按到座位 2：每次搶答都變平手",
                                  "en": "Left on, a press of seat 1 also presses seat 2: "
                                        "every buzz becomes a tie"},
    "setup.buttons.jumper_check": {"zh-TW": "檢查跳線…", "en": "Checking the jumpers…"},
    "setup.buttons.jumpers_on": {"zh-TW": "跳線還在：座位 {seats} 跟著 GPIO 7 動，請拔掉",
                                 "en": "The jumpers are still on: GPIO 7 pulls seat {seats} "
                                       "with it. Remove them"},
    "setup.buttons.held": {"zh-TW": "座位 {seats} 沒人按卻是按下的：開關卡住、接到 NC，或短路",
                           "en": "Seat {seats} reads pressed with nobody pressing: a stuck "
                                 "switch, NC instead of NO, or a short"},
    "setup.buttons.btn.removed": {"zh-TW": "拔掉了", "en": "Removed"},
    # (end of issue 28: zones)
}


def add_strings(table: Mapping[str, Mapping[str, str]]) -> None:
    """Add a game's own strings (its display part calls this when imported), so a new game
    brings its words in its own folder. Every entry needs both languages with the same
    placeholders; a key already there must mean the same (``ValueError`` otherwise)."""
    for key, entry in table.items():
        missing = [lang for lang in LANGS if not entry.get(lang)]
        if missing:
            raise ValueError(f"string {key!r}: no text in {', '.join(missing)}")
        if len({frozenset(placeholders(entry[lang])) for lang in LANGS}) != 1:
            raise ValueError(f"string {key!r}: the languages differ in placeholders")
        known = STRINGS.get(key)
        if known is not None and dict(known) != dict(entry):
            raise ValueError(f"string {key!r} is already there with another meaning")
        STRINGS[key] = dict(entry)


def tr(key: str, lang: str, /, **params: object) -> str:
    """The text of ``key`` in ``lang`` with ``params`` filled in.

    An unknown language falls back to :data:`DEFAULT_LANG`; an unknown key gives ``〈key〉``
    (logged once) so a missing translation shows up on screen instead of crashing the kiosk.
    """
    entry = STRINGS.get(key)
    if entry is None:
        if key not in _missing_logged:
            _missing_logged.add(key)
            _log.error("display: no translation for key %r", key)
        return f"〈{key}〉"
    text = entry.get(lang) or entry[DEFAULT_LANG]
    if params.get("n") == 1:
        text = entry.get(f"{lang}:one", text)  # "1 pt", not "1 pts"
    if not params:
        return text
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        _log.error("display: bad parameters %r for key %r", sorted(params), key)
        return text


def next_lang(lang: str) -> str:
    """The language after ``lang`` in :data:`LANGS` (the host's one-key switch)."""
    try:
        return LANGS[(LANGS.index(lang) + 1) % len(LANGS)]
    except ValueError:
        return DEFAULT_LANG


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders of a format string."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def all_text() -> str:
    """Every character of every translation (what the bundled font subset must cover)."""
    return "".join(text for entry in STRINGS.values() for text in entry.values())
