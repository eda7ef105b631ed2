"""什麼不見啦's rules in short, for the host menu (from the rule text the box was built to).
Lines short enough for half of the small screen."""

RULES: dict[str, tuple[str, ...]] = {
    "zh-TW": (
        "每人一種顏色；物品卡分成各自的牌堆。",
        "每人看每張場景 5 秒，然後蓋在中間。",
        "輪流把自己牌堆的頂牌翻到中間。",
        "記得哪張場景有這個物品？",
        "最快按鈕的人拿沙漏，而且一定要押。",
        "其他人可各押一張場景。",
        "押對得分，越早押分越高；押錯扣 2 分。",
        "30 秒內找不到物品也扣 2 分。",
        "有人到 35 分（3–4 人：20 分）或",
        "3 人（3–4 人：2 人）沒牌就結束。",
    ),
    "en": (
        "Each takes a colour; items are dealt in piles.",
        "Look at each scene 5 s; they lie face down.",
        "In turn, flip your pile's top card.",
        "Remember that item in a scene?",
        "First to press takes the hourglass and bets.",
        "The others may each bet on one scene.",
        "Right bets score (earlier more); wrong: -2.",
        "Not found within 30 s: also -2.",
        "Ends at 35 points (3-4 players: 20) or when",
        "3 players (3-4 players: 2) have no cards.",
    ),
}
