"""致命遊戲 The Game's rules in short, for the host menu (from the rule text)."""

RULES: dict[str, tuple[str, ...]] = {
    "zh-TW": (
        "合作遊戲：大家一起把 98 張數字牌打到四排上。",
        "兩排由 1 往上（越打越大），兩排由 100 往下（越打越小）。",
        "輪到你：至少打 2 張（專家：3 張），再補回手牌。",
        "倒退 10：剛好小 10（往下排：大 10）的牌可以打回去。",
        "可以聊天，但不能說出或暗示確切數字。",
        "牌庫空了：每回合至少打 1 張。",
        "輪到的人打不出規定張數，遊戲結束。",
        "剩不到 10 張：大家都贏；0 張：超級贏家。",
    ),
    "en": (
        "Cooperative: together, play all 98 number cards onto four rows.",
        "Two rows go up from 1, two go down from 100.",
        "Your turn: play at least 2 cards (expert: 3), then draw back up.",
        "Backward trick: exactly 10 lower (10 higher on a down row) may go back.",
        "Talk freely, but never name or hint at exact numbers.",
        "Once the draw pile is empty, play at least 1 card a turn.",
        "The game ends when the player to act cannot play enough cards.",
        "Fewer than 10 cards left: everyone wins; 0: super winners.",
    ),
}
