"""什麼不見啦's rules in short, for the host menu (from the rule text the box was built to)."""

RULES: dict[str, tuple[str, ...]] = {
    "zh-TW": (
        "開始：每人一種顏色；物品卡平分成各自的牌堆。",
        "每人看每張場景 5 秒，然後場景蓋在中間。",
        "輪流把自己牌堆的頂牌翻到中間。",
        "記得哪張場景有這個物品？最快按鈕的人拿沙漏。",
        "從拿沙漏的人起，每人可押一張場景（他必須押）。",
        "翻開場景找物品：押對得分，越早押分越高；押錯扣 2 分。",
        "找的人 30 秒內找不到也扣 2 分。",
        "結束：有人到 35 分（3–4 人：20 分），",
        "或 3 人（3–4 人：2 人）沒牌了。最高分贏。",
    ),
    "en": (
        "Each player takes a colour; the item cards are dealt into face-down piles.",
        "Everyone looks at each scene for 5 s; then the scenes lie face down.",
        "In turn, players flip the top card of their pile onto the middle.",
        "Remember that item in a scene? The first to press takes the hourglass.",
        "From the hourglass taker on, each may bet on one scene (the taker must).",
        "Scenes are turned up: a right bet scores, earlier bets more; wrong: -2.",
        "A bettor who cannot find the item within 30 s also loses 2.",
        "The end: someone reaches 35 points (3-4 players: 20),",
        "or 3 players (3-4 players: 2) are out of cards. Highest score wins.",
    ),
}
