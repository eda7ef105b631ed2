"""致命遊戲 The Game's rules in short, for the host menu (from the rule text). Lines short
enough for half of the small screen."""

RULES: dict[str, tuple[str, ...]] = {
    "zh-TW": (
        "合作：大家一起把 98 張牌打到四排上。",
        "兩排從 1 往上，兩排從 100 往下。",
        "輪到你：至少打 2 張（專家：3 張），",
        "然後補回手牌。",
        "倒退 10：剛好小 10（往下排：大 10）",
        "的牌可以打回去。",
        "可以聊天，但不能說出確切數字。",
        "牌庫空了：每回合至少打 1 張。",
        "打不出規定張數：遊戲結束。",
        "剩不到 10 張：大家都贏。",
    ),
    "en": (
        "Together, play all 98 cards onto 4 rows.",
        "Two rows go up from 1, two down from 100.",
        "Your turn: play at least 2 (expert: 3),",
        "then draw back up.",
        "Backward trick: exactly 10 lower (10 higher",
        "on a down row) may go back.",
        "Talk, but never name exact numbers.",
        "Draw pile empty: at least 1 card a turn.",
        "Cannot play enough: the game ends.",
        "Fewer than 10 cards left: everyone wins.",
    ),
}
