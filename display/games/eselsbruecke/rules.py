"""驢橋 Eselsbrücke's rules in short, for the host menu (from the rule text)."""

RULES: dict[str, tuple[str, ...]] = {
    "zh-TW": (
        "說故事的人抽圖塊，唸出關鍵字，用全部關鍵字編一個故事。",
        "故事的圖塊蓋起來，放在自己板子的下一格。",
        "從第 3 回合起：把兩回合前那格的圖塊發給其他人。",
        "從說故事者左邊起，每人說出故事裡別人手上的一個關鍵字。",
        "說對：拿走那塊，得 1 分。說錯或 15 秒沒回答：這個故事出局。",
        "出局的人要從得分堆丟掉圖塊（停止牌擋住）。",
        "沒人出局：說故事的人得一張停止牌。",
        "最後一回合後：得分堆每塊 1 分，停止牌多者勝。",
    ),
    "en": (
        "The storyteller draws tiles, reads their keywords and tells one story with all.",
        "The story's tiles go face down on the next slot of their board.",
        "From round 3: the tiles of the slot two rounds back are dealt to the others.",
        "From the storyteller's left, each names a keyword of that story held by another.",
        "Right: take that tile, 1 point. Wrong or no answer in 15 s: out for this story.",
        "A player who failed discards from their score pile (a stop tile stops it).",
        "Nobody failed: the storyteller takes a stop tile.",
        "After the last round: 1 point per tile; more stop tiles wins a tie.",
    ),
}
