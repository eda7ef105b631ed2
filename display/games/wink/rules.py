"""眨眨眼 Wink's rules in short, for the host menu (from the rule text). Lines short enough
for half of the small screen."""

RULES: dict[str, tuple[str, ...]] = {
    "zh-TW": (
        "一副 1–36 排成 6×6 方陣，另一副發手牌。",
        "每人 4 張指控卡。",
        "輪到你：標記放在你沒有的號碼上，",
        "喊「X號夥伴，我在找你！」",
        "有那張號碼的人要偷偷對你眨眼。",
        "下一輪指出夥伴：對了兩人各得一張；",
        "錯了，那張方陣牌蓋起來。",
        "看到眨眼？按鈕喊「我要抓！」",
        "有人手牌出完或方陣用完：結束。",
        "每張得分牌、每張剩下的指控卡 1 分。",
    ),
    "en": (
        "One set 1-36 is a 6x6 grid; one is dealt.",
        "Everyone has 4 accusation cards.",
        "Your turn: mark a number you do not hold",
        "and call for partner X.",
        "Whoever holds X must wink at you unseen.",
        "Next turn name your partner: right, both",
        "score a card; wrong, the card turns over.",
        "Saw a wink? Press your button: I accuse!",
        "Ends when a hand or the grid is used up.",
        "1 point per card won and accusation left.",
    ),
}
