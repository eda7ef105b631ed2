"""Derive ``display/name_chars.txt``: the characters of Taiwanese given names, commonest
first, which the 注音 name keyboard offers before libchewing's everyday order (issue 41).

Source: the Ministry of the Interior's (內政部戶政司) 全國姓名統計分析, 2023 edition
(民國 112 年, https://www.ris.gov.tw/documents/data/5/2/112namestat.pdf): its hundred
commonest given names of men and of women, as relayed by the public repository
ozdemirburak/full-name-generator (``src/names/tw.ts``; its data is under the source's own
licence, its code MIT). Licence of the data: Taiwan's Open Government Data License, version
1.0 (政府資料開放授權條款第1版, https://data.gov.tw/license: free use, commercial too, with
this attribution; compatible with CC BY 4.0).

A character's weight is the number of those names it is in. The names that
``tests/app/test_entry_presses.py`` measures (``NAMES`` and ``MORE_NAMES``, read from that
file) are left out of the derivation, so the press counts are measured on names the list was
not made from. Run from the repository's root after changing either::

    .venv/bin/python tools/name_chars.py
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "display" / "name_chars.txt"
MEASURED_IN = ROOT / "tests" / "app" / "test_entry_presses.py"

def _names(text: str) -> list[str]:
    return text.split()


#: 全國姓名統計分析 (2023): the hundred commonest given names of men, then of women, in order
MEN = _names("""
家豪 志明 建宏 俊傑 俊宏 志豪 志偉 承翰 冠宇 志強 宗翰 志宏 冠廷 志成 文雄 承恩 金龍 文彬 正雄 明輝
柏翰 彥廷 明德 文龍 俊賢 志忠 國華 信宏 家銘 俊雄 宇翔 建成 冠霖 志銘 志雄 進財 明哲 榮華 柏宇 志鴻
志賢 俊良 建華 家瑋 家榮 文祥 建志 文正 文忠 凱翔 家宏 國雄 明宏 文賢 世昌 哲瑋 文傑 正義 武雄 建興
志文 嘉宏 文章 明宗 宇軒 進興 俊豪 俊廷 冠宏 仁傑 威廷 哲維 宗霖 文欽 博文 俊男 宗憲 子豪 俊宇 勝雄
柏諺 建良 俊明 俊銘 世明 義雄 建銘 永昌 文華 子翔 柏宏 政宏 進發 柏霖 建中 國榮 志誠 聰明 俊佑 志遠
""")
WOMEN = _names("""
淑芬 淑惠 美玲 麗華 美惠 淑貞 雅婷 秀英 淑娟 秀琴 秀美 美華 怡君 淑華 美玉 雅惠 秀蘭 淑美 秀鳳 美珠
麗珠 麗娟 淑玲 美雲 雅雯 雅玲 美麗 玉蘭 月娥 麗卿 惠美 麗美 秀珠 淑珍 欣怡 素貞 秀珍 素珍 惠玲 玉梅
玉英 淑慧 秀玲 明珠 秋香 秀玉 麗雲 秀梅 麗玉 寶珠 怡婷 麗玲 宜蓁 月英 淑芳 玉玲 秀雲 慧玲 春美 碧霞
麗香 美鳳 美珍 美英 碧珠 碧雲 佳蓉 美蘭 秀娟 美娟 淑敏 玉珍 淑卿 美慧 靜宜 素珠 雅慧 靜怡 玉美 雅萍
素卿 素琴 秀枝 金蓮 秋月 麗雪 惠珍 心怡 佳玲 鈺婷 詩涵 秀霞 秀華 麗琴 金鳳 麗珍 玉鳳 玉琴 秀蓮 素蘭
""")


def measured() -> frozenset[str]:
    """The names the press test measures (its ``NAMES`` and ``MORE_NAMES``)."""
    tree = ast.parse(MEASURED_IN.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                and node.target.id in ("NAMES", "MORE_NAMES") and node.value is not None:
            out.update(name for name, _ in ast.literal_eval(node.value))
    return frozenset(out)


def derive(names: list[str], leave_out: frozenset[str]) -> list[tuple[str, int]]:
    """Each character of ``names`` (but those in ``leave_out``) with the number of names it
    is in, most first (ties: the order they first appear in, the commoner name first)."""
    counts: Counter[str] = Counter()
    for name in names:
        if name not in leave_out:
            counts.update(set(name))
    first = {c: i for i, c in reversed(list(enumerate("".join(names))))}
    return sorted(counts.items(), key=lambda kv: (-kv[1], first[kv[0]]))


def render(leave_out: frozenset[str]) -> str:
    # men's and women's names interleaved by rank, so neither list's characters come first
    names = [n for pair in zip(MEN, WOMEN, strict=True) for n in pair]
    lines = [
        "# Characters of Taiwanese given names, commonest first: the character and the number",
        "# of names it is in. Made by tools/name_chars.py (do not edit): from the Ministry of the",
        "# Interior's 全國姓名統計分析 2023 (內政部戶政司, 112namestat.pdf), its 100 commonest",
        "# given names of men and of women; Open Government Data License 1.0",
        "# (https://data.gov.tw/license). Left out: the names tests/app/test_entry_presses.py",
        f"# measures ({len(leave_out & set(names))} of the 200): measured on names not used here.",
    ]
    lines += [f"{c} {n}" for c, n in derive(names, leave_out)]
    return "\n".join(lines) + "\n"


def main() -> int:
    OUT.write_text(render(measured()), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
