"""驢橋 Eselsbrücke's rules in short, for the host menu (from the rule text). Lines short
enough for half of the small screen."""

RULES: dict[str, tuple[str, ...]] = {
    "zh-TW": (
        "說故事的人抽圖塊，唸出關鍵字，",
        "用全部關鍵字編一個故事。",
        "圖塊蓋起來，放到自己板子的下一格。",
        "第 3 回合起：兩回合前那格的圖塊",
        "發給其他人。",
        "輪流說出故事裡別人手上的關鍵字：",
        "對了拿走那塊；錯了或 15 秒沒答：出局。",
        "出局的人從得分堆丟圖塊。",
        "沒人出局：說故事的人拿停止牌。",
        "最後：每塊 1 分，停止牌多者勝。",
    ),
    "en": (
        "The storyteller draws tiles, reads them",
        "and tells one story with every keyword.",
        "The tiles go face down on the next slot.",
        "From round 3: the tiles of two rounds",
        "back are dealt to the others.",
        "In turn, name a keyword another holds:",
        "right, take it; wrong or 15 s: out.",
        "Out: discard from your score pile.",
        "Nobody out: the teller takes a stop tile.",
        "1 point a tile; more stop tiles wins ties.",
    ),
}
