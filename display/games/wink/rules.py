"""眨眨眼 Wink's rules in short, for the host menu (from the rule text)."""

RULES: dict[str, tuple[str, ...]] = {
    "zh-TW": (
        "一副 1–36 排成 6×6 方陣；另一副發成手牌；每人 4 張指控卡。",
        "輪到你：把標記放在一張你沒有的號碼上，喊「X號夥伴，我在找你！」",
        "有那個號碼的人是你的夥伴，要偷偷對你眨眼。",
        "下一輪先指出夥伴：對了，你們各拿一張牌得分；",
        "錯了，那張方陣牌蓋起來。",
        "看到別人眨眼？按鈕喊「我要抓！」，指出那位夥伴。",
        "抓對了拿走那張牌；不論對錯，指控卡都用掉。",
        "結束：有人手牌出完（6 人以上：兩人），或方陣拿完。",
        "計分：每張得分牌與剩下的指控卡各 1 分。",
    ),
    "en": (
        "One set 1-36 lies as a 6x6 grid; the other is dealt; 4 accusation cards each.",
        "Your turn: put your marker on a number you do not hold and call for partner X.",
        "Whoever holds that number is your partner and must wink at you unseen.",
        "Next turn, point at your partner: right, you both score a card;",
        "wrong, that grid card is turned face down.",
        "Saw a wink? Press your button (\"I accuse!\") and point at the partner.",
        "A right accusation takes that card; the accusation card is used either way.",
        "The end: one hand is empty (over 6 players: two), or the grid is used up.",
        "Score: 1 point per card won and per unused accusation card.",
    ),
}
