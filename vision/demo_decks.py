"""Synthetic demo decks for the four games, drawn by code (deterministic, no committed images).

These are **demo content**, not the published games' artwork: white cards with a printed
border, big numbers or labels, corner indices and icons built from drawn shapes, so the whole
pipeline (simulated table -> finding -> matching -> engine) can run without the real cards.
A real table enrols its own cards instead.

=========================  =====================================================  =========
name                       what                                                   cards
=========================  =====================================================  =========
``the-game``               致命遊戲 The Game: number cards 2-99, row cards          98 + 2
                           (``row-up`` 1, ``row-down`` 100; two copies of each)
``wink``                   眨眨眼 Wink: faces 1-36 (the black-back and white-back  36
                           sets show the same faces, so one face each, copies=2)
``something-missing-items``  什麼不見啦 item cards: 1980s Taiwan everyday objects   66
``something-missing-scenes`` 什麼不見啦 scene cards: collages of item icons; each   15
                           card's ``contains`` lists the items drawn in it
``eselsbruecke``           驢橋 Eselsbrücke keyword tiles and the stop tile         180 + 1
=========================  =====================================================  =========

cv2.putText cannot draw CJK, so faces carry English text and digits; the zh-TW names are in the
manifest for the screen. The Game's and Wink's numbers are underlined and repeated as
rotation-symmetric corner indices like real cards, so 68 and 89 (68 upside down) differ.

:func:`demo_deck` generates a deck on first use into a cache folder and reuses it while the
generator version is unchanged; ``tablekeeper vision make-demo-decks OUT`` writes them all.
"""

from __future__ import annotations

import contextlib
import math
import os
import random
import shutil
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

import cv2
import numpy as np

from ground.files import read_text
from vision.deck import CardSpec, Deck, Image, atomic_write, save_deck

#: Bump when any drawing changes: cached decks of an older version are regenerated.
GENERATOR_VERSION = 1
STAMP = ".generator"

CARD_SIZE = (200, 300)
TILE_SIZE = (200, 200)

BGR = tuple[int, int, int]
PALETTE: tuple[BGR, ...] = (
    (50, 50, 215),    # red
    (40, 140, 245),   # orange
    (40, 205, 240),   # yellow
    (70, 165, 60),    # green
    (150, 155, 30),   # teal
    (200, 120, 40),   # blue
    (160, 60, 130),   # purple
    (40, 80, 140),    # brown
    (170, 130, 245),  # pink
    (135, 135, 135),  # grey
    (45, 45, 45),     # black
)
INK: BGR = (35, 35, 35)
PAPER: BGR = (244, 247, 249)

# 66 demo items: everyday objects of 1980s Taiwan (zh-TW, English). Demo content only.
ITEMS: tuple[tuple[str, str], ...] = (
    ("鐵鉛筆盒", "pencil box"), ("大同電鍋", "rice cooker"), ("轉盤電話", "rotary phone"),
    ("藍白拖", "flip-flops"), ("竹蜻蜓", "bamboo copter"), ("彈珠汽水", "marble soda"),
    ("乳酸飲料", "yogurt drink"), ("收音機", "radio"), ("黑白電視", "b/w television"),
    ("斗笠", "bamboo hat"), ("竹掃把", "bamboo broom"), ("熱水瓶", "thermos flask"),
    ("搪瓷臉盆", "enamel basin"), ("熱水袋", "hot-water bag"), ("蚊帳", "mosquito net"),
    ("蚊香", "mosquito coil"), ("電風扇", "electric fan"), ("紅龜粿", "turtle cake"),
    ("竹椅", "bamboo chair"), ("陀螺", "spinning top"), ("橡皮筋", "rubber bands"),
    ("尪仔標", "picture discs"), ("彈珠", "marbles"), ("紙飛機", "paper plane"),
    ("跳繩", "skipping rope"), ("毽子", "shuttlecock"), ("布袋戲偶", "glove puppet"),
    ("錄音帶", "cassette tape"), ("隨身聽", "walkman"), ("算盤", "abacus"),
    ("三角板", "set square"), ("墊板", "pencil board"), ("鐵便當盒", "lunch box"),
    ("水壺", "canteen"), ("書包", "school bag"), ("學生帽", "school cap"),
    ("板擦", "board eraser"), ("粉筆", "chalk"), ("腳踏車", "bicycle"),
    ("三輪車", "tricycle"), ("公共電話", "payphone"), ("郵筒", "postbox"),
    ("日曆", "tear-off calendar"), ("掛鐘", "wall clock"), ("鬧鐘", "alarm clock"),
    ("手電筒", "torch"), ("煤油燈", "oil lamp"), ("扇子", "hand fan"),
    ("痱子粉", "talcum powder"), ("肥皂", "soap"), ("洗衣板", "washboard"),
    ("曬衣夾", "clothes peg"), ("竹蒸籠", "bamboo steamer"), ("公雞碗", "rooster bowl"),
    ("醬油瓶", "soy sauce"), ("糖果罐", "sweet jar"), ("麥芽糖", "malt candy"),
    ("枝仔冰", "ice lolly"), ("刨冰機", "ice shaver"), ("縫紉機", "sewing machine"),
    ("毛線球", "ball of yarn"), ("針線盒", "sewing kit"), ("撲滿", "piggy bank"),
    ("存摺", "passbook"), ("郵票", "stamp"), ("火柴盒", "matchbox"),
)


def _pairs(text: str) -> tuple[tuple[str, str], ...]:
    """``"貓:cat 狗:dog"`` -> (("貓", "cat"), ("狗", "dog")); ``_`` in English is a space."""
    out = []
    for pair in text.split():
        zh, en = pair.split(":")
        out.append((zh, en.replace("_", " ")))
    return tuple(out)


# 180 demo keywords for Eselsbrücke (zh-TW, English). Demo content only.
KEYWORDS: tuple[tuple[str, str], ...] = _pairs(
    # animals
    "貓:cat 狗:dog 兔子:rabbit 烏龜:turtle 蝸牛:snail 大象:elephant 長頸鹿:giraffe "
    "獅子:lion 老虎:tiger 熊:bear 猴子:monkey 企鵝:penguin 鯨魚:whale 鯊魚:shark "
    "章魚:octopus 螃蟹:crab 青蛙:frog 蛇:snake 鱷魚:crocodile 驢子:donkey 馬:horse "
    "牛:cow 豬:pig 羊:sheep 雞:chicken 鴨子:duck 貓頭鷹:owl 蝴蝶:butterfly 蜜蜂:bee "
    "蜘蛛:spider "
    # food
    "蘋果:apple 香蕉:banana 西瓜:watermelon 鳳梨:pineapple 葡萄:grapes 草莓:strawberry "
    "檸檬:lemon 胡蘿蔔:carrot 洋蔥:onion 蘑菇:mushroom 麵包:bread 起司:cheese 蛋糕:cake "
    "冰淇淋:ice_cream 披薩:pizza 湯:soup 麵:noodles 飯糰:rice_ball 餃子:dumpling 雞蛋:egg "
    "牛奶:milk 咖啡:coffee 茶:tea 蜂蜜:honey 巧克力:chocolate 餅乾:biscuit 爆米花:popcorn "
    "香腸:sausage 辣椒:chili 玉米:corn "
    # objects
    "雨傘:umbrella 帽子:hat 眼鏡:glasses 手錶:watch 鑰匙:key 鎖:lock 梯子:ladder 椅子:chair "
    "桌子:table 床:bed 燈泡:light_bulb 蠟燭:candle 鏡子:mirror 剪刀:scissors 鐵鎚:hammer "
    "釘子:nail 繩子:rope 籃子:basket 箱子:box 瓶子:bottle 杯子:cup 叉子:fork 湯匙:spoon "
    "刀:knife 鍋子:pot 書:book 筆:pen 信封:envelope 地圖:map 指南針:compass 望遠鏡:telescope "
    "相機:camera 電話:telephone 收音機:radio 吉他:guitar 鼓:drum 喇叭:trumpet 鈴鐺:bell "
    "氣球:balloon 風箏:kite "
    # places and nature
    "山:mountain 河:river 海:sea 島:island 沙漠:desert 森林:forest 洞穴:cave 火山:volcano "
    "瀑布:waterfall 湖:lake 橋:bridge 城堡:castle 塔:tower 教堂:church 學校:school "
    "醫院:hospital 市場:market 車站:station 機場:airport 港口:harbour 農場:farm 花園:garden "
    "公園:park 廚房:kitchen 地下室:cellar 屋頂:roof 太陽:sun 月亮:moon 星星:star 彩虹:rainbow "
    # weather and transport
    "雲:cloud 雨:rain 雪:snow 閃電:lightning 風:wind 霧:fog 汽車:car 公車:bus 火車:train "
    "飛機:aeroplane 船:ship 潛水艇:submarine 腳踏車:bicycle 火箭:rocket 直升機:helicopter "
    "熱氣球:hot-air_balloon 拖拉機:tractor 消防車:fire_engine 計程車:taxi 滑板:skateboard "
    # people and fantasy
    "國王:king 皇后:queen 公主:princess 騎士:knight 海盜:pirate 巫師:wizard 女巫:witch "
    "巨人:giant 小矮人:dwarf 鬼:ghost 龍:dragon 獨角獸:unicorn 美人魚:mermaid 機器人:robot "
    "外星人:alien 小丑:clown 廚師:chef 醫生:doctor 警察:police_officer 消防員:firefighter "
    "老師:teacher 農夫:farmer 漁夫:fisherman 太空人:astronaut 偵探:detective 魔術師:magician "
    "奶奶:grandma 嬰兒:baby 雪人:snowman 稻草人:scarecrow"
)

SCENES = 15
ITEMS_PER_SCENE = 9
SCENE_NAMES: tuple[tuple[str, str], ...] = (
    ("柑仔店", "corner shop"), ("教室", "classroom"), ("廚房", "kitchen"),
    ("客廳", "living room"), ("廟口", "temple square"), ("菜市場", "market"),
    ("三合院", "courtyard house"), ("巷口", "lane corner"), ("臥室", "bedroom"),
    ("操場", "playground"), ("浴室", "bathroom"), ("騎樓", "arcade"),
    ("夜市", "night market"), ("頂樓", "rooftop"), ("火車站", "railway station"),
)


# --------------------------------------------------------------------------- drawing


def _blank(size: tuple[int, int], colour: BGR = PAPER) -> Image:
    w, h = size
    img = np.empty((h, w, 3), np.uint8)
    img[:] = colour
    return img


def _rounded_rect(img: Image, p0: tuple[int, int], p1: tuple[int, int], r: int,
                  colour: BGR, thickness: int) -> None:
    (x0, y0), (x1, y1) = p0, p1
    if thickness < 0:
        cv2.rectangle(img, (x0 + r, y0), (x1 - r, y1), colour, -1)
        cv2.rectangle(img, (x0, y0 + r), (x1, y1 - r), colour, -1)
        for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
            cv2.circle(img, (cx, cy), r, colour, -1, cv2.LINE_AA)
        return
    lt = cv2.LINE_AA
    cv2.line(img, (x0 + r, y0), (x1 - r, y0), colour, thickness, lt)
    cv2.line(img, (x0 + r, y1), (x1 - r, y1), colour, thickness, lt)
    cv2.line(img, (x0, y0 + r), (x0, y1 - r), colour, thickness, lt)
    cv2.line(img, (x1, y0 + r), (x1, y1 - r), colour, thickness, lt)
    cv2.ellipse(img, (x0 + r, y0 + r), (r, r), 180, 0, 90, colour, thickness, lt)
    cv2.ellipse(img, (x1 - r, y0 + r), (r, r), 270, 0, 90, colour, thickness, lt)
    cv2.ellipse(img, (x1 - r, y1 - r), (r, r), 0, 0, 90, colour, thickness, lt)
    cv2.ellipse(img, (x0 + r, y1 - r), (r, r), 90, 0, 90, colour, thickness, lt)


def _frame(img: Image, colour: BGR, inset: int = 7, thickness: int = 3) -> None:
    h, w = img.shape[:2]
    _rounded_rect(img, (inset, inset), (w - 1 - inset, h - 1 - inset), 10, colour, thickness)
    _rounded_rect(img, (inset + 5, inset + 5), (w - 6 - inset, h - 6 - inset), 7, colour, 1)


def _text(img: Image, text: str, centre: tuple[float, float], box: tuple[float, float],
          colour: BGR, font: int = cv2.FONT_HERSHEY_DUPLEX, weight: float = 0.1,
          max_scale: float = 8.0) -> tuple[int, int, int, int]:
    """Draw ``text`` as large as fits ``box`` (w, h) centred at ``centre``; return its bbox."""
    scale = max_scale
    while scale > 0.2:
        thick = max(1, round(scale * 10 * weight))
        (tw, th), base = cv2.getTextSize(text, font, scale, thick)
        if tw <= box[0] and th + base * 0.5 <= box[1]:
            break
        scale *= 0.92
    x = round(centre[0] - tw / 2)
    y = round(centre[1] + th / 2)
    cv2.putText(img, text, (x, y), font, scale, colour, thick, cv2.LINE_AA)
    return x, y - th, tw, th


def _rot180(img: Image) -> Image:
    return np.ascontiguousarray(img[::-1, ::-1])


def _corner_indices(img: Image, text: str, colour: BGR, underline: bool) -> Image:
    """Index at top-left and, rotated by 180 degrees, at bottom-right (like real cards)."""
    for _ in range(2):
        x, y, tw, th = _text(img, text, (34, 36), (40, 24), colour, weight=0.12, max_scale=1.0)
        if underline:
            cv2.line(img, (x, y + th + 5), (x + tw, y + th + 5), colour, 2, cv2.LINE_AA)
        img = _rot180(img)
    return img


def _poly(cx: float, cy: float, r: float, n: int, rot: float) -> np.ndarray:
    a = rot + np.arange(n) * 2 * math.pi / n
    return np.stack([cx + r * np.cos(a), cy + r * np.sin(a)], 1).round().astype(np.int32)


def _star(cx: float, cy: float, r: float, n: int, rot: float) -> np.ndarray:
    a = rot + np.arange(2 * n) * math.pi / n
    rr = np.where(np.arange(2 * n) % 2 == 0, r, r * 0.45)
    return np.stack([cx + rr * np.cos(a), cy + rr * np.sin(a)], 1).round().astype(np.int32)


def _shape(img: Image, kind: str, cx: float, cy: float, r: float, rot: float, colour: BGR,
           outline: int) -> None:
    lt = cv2.LINE_AA
    c = (round(cx), round(cy))
    if kind == "circle":
        cv2.circle(img, c, max(1, round(r)), colour, -1, lt)
        cv2.circle(img, c, max(1, round(r)), INK, outline, lt)
    elif kind == "ring":
        cv2.circle(img, c, max(1, round(r * 0.8)), colour, max(2, round(r * 0.35)), lt)
    elif kind == "ellipse":
        axes = (max(1, round(r)), max(1, round(r * 0.55)))
        cv2.ellipse(img, c, axes, math.degrees(rot), 0, 360, colour, -1, lt)
        cv2.ellipse(img, c, axes, math.degrees(rot), 0, 360, INK, outline, lt)
    elif kind == "bar":
        dx, dy = math.cos(rot) * r, math.sin(rot) * r
        p0 = (round(cx - dx), round(cy - dy))
        p1 = (round(cx + dx), round(cy + dy))
        cv2.line(img, p0, p1, INK, max(2, round(r * 0.3)) + 2 * outline, lt)
        cv2.line(img, p0, p1, colour, max(2, round(r * 0.3)), lt)
    else:
        if kind == "star":
            pts = _star(cx, cy, r, 5, rot)
        else:
            n = {"triangle": 3, "square": 4, "pentagon": 5, "hexagon": 6}[kind]
            pts = _poly(cx, cy, r, n, rot)
        cv2.fillPoly(img, [pts], colour, lt)
        cv2.polylines(img, [pts], True, INK, outline, lt)


_BODY = ("circle", "square", "triangle", "ellipse", "pentagon", "hexagon", "star")
_DETAIL = ("circle", "square", "triangle", "ellipse", "ring", "bar", "star", "hexagon")


def draw_icon(img: Image, cx: float, cy: float, r: float, seed: str,
              palette: tuple[BGR, ...] = PALETTE) -> None:
    """Draw the icon named by ``seed`` (a composition of shapes) in a circle of radius r.

    Coordinates scale with ``r``, so an item's icon on its card and in a scene collage is the
    same drawing at two sizes.
    """
    rng = random.Random(seed)
    outline = max(1, round(r / 28))
    body_colour = rng.choice(palette[:9])
    kind = rng.choice(_BODY)
    bx, by = cx + r * rng.uniform(-0.2, 0.2), cy + r * rng.uniform(-0.2, 0.2)
    _shape(img, kind, bx, by, r * rng.uniform(0.5, 0.8), rng.uniform(0, math.pi), body_colour,
           outline)
    a = rng.uniform(0, 2 * math.pi)
    _shape(img, rng.choice(_BODY), cx + 0.5 * r * math.cos(a), cy + 0.5 * r * math.sin(a),
           r * rng.uniform(0.3, 0.45), rng.uniform(0, math.pi),
           rng.choice([p for p in palette if p != body_colour]), outline)
    for _ in range(rng.randint(1, 3)):
        colour = rng.choice([p for p in palette if p != body_colour])
        a = rng.uniform(0, 2 * math.pi)
        d = r * rng.uniform(0.0, 0.55)
        _shape(img, rng.choice(_DETAIL), cx + d * math.cos(a), cy + d * math.sin(a),
               r * rng.uniform(0.16, 0.36), rng.uniform(0, math.pi), colour, outline)


def _number_colour(value: int) -> BGR:
    """The Game's numbers shade from blue (2) through violet to red (99)."""
    t = (value - 2) / 97
    return (round(190 * (1 - t) + 40 * t), round(60 * (1 - t) + 30 * t),
            round(40 * (1 - t) + 200 * t))


def _skull(img: Image, cx: int, cy: int, r: int, colour: BGR) -> None:
    lt = cv2.LINE_AA
    cv2.circle(img, (cx, cy), r, colour, -1, lt)
    cv2.rectangle(img, (cx - r // 2, cy + r // 2), (cx + r // 2, cy + r + r // 3), colour, -1)
    for dx in (-r // 2 + 1, r // 2 - 1):
        cv2.circle(img, (cx + dx, cy), max(2, r // 3), PAPER, -1, lt)
    for dx in (-r // 4, 0, r // 4):
        cv2.line(img, (cx + dx, cy + r // 2 + 2), (cx + dx, cy + r + r // 3), PAPER, 1, lt)


def the_game_number(value: int) -> Image:
    img = _blank(CARD_SIZE)
    frame = (50, 60, 150)
    _frame(img, frame)
    colour = _number_colour(value)
    _skull(img, 100, 62, 16, (185, 190, 215))
    x, y, tw, th = _text(img, str(value), (100, 160), (140, 96), colour, weight=0.14)
    cv2.line(img, (x, y + th + 12), (x + tw, y + th + 12), colour, 5, cv2.LINE_AA)
    for i in range(5):  # flames along the bottom
        _shape(img, "triangle", 52 + 24 * i, 232, 9, -math.pi / 2, (90, 150, 235), 1)
    return _corner_indices(img, str(value), colour, underline=True)


def the_game_row(up: bool) -> Image:
    img = _blank(CARD_SIZE)
    frame = (30, 150, 200) if up else (140, 70, 30)
    _frame(img, frame)
    _rounded_rect(img, (26, 26), (173, 273), 8, frame, -1)
    label = "1" if up else "100"
    _text(img, label, (100, 85), (120, 70), PAPER, weight=0.14)
    _text(img, "1 -> 99" if up else "100 -> 2", (100, 140), (110, 20), PAPER, weight=0.1)
    tip, tail = (165, 245) if up else (245, 165)
    cv2.arrowedLine(img, (100, tail), (100, tip), PAPER, 9, cv2.LINE_AA, tipLength=0.35)
    return _corner_indices(img, label, INK, underline=False)


def wink_face(value: int) -> Image:
    rng = random.Random(f"wink-{value}")
    img = _blank(CARD_SIZE)
    panel = PALETTE[(value - 1) % 9]
    pastel = tuple(round(0.35 * c + 0.65 * 255) for c in panel)
    _rounded_rect(img, (14, 14), (185, 285), 12, pastel, -1)  # type: ignore[arg-type]
    _frame(img, panel)
    x, y, tw, th = _text(img, str(value), (100, 70), (110, 60), INK, weight=0.14)
    cv2.line(img, (x, y + th + 8), (x + tw, y + th + 8), INK, 4, cv2.LINE_AA)
    # a winking face and an icon of its own
    cx, cy = 100, 200
    skin = rng.choice([(150, 190, 240), (120, 160, 220), (90, 130, 190), (170, 210, 250)])
    cv2.circle(img, (cx, cy), 48, skin, -1, cv2.LINE_AA)
    cv2.circle(img, (cx, cy), 48, INK, 2, cv2.LINE_AA)
    wink_left = value % 2 == 0
    for side in (-1, 1):
        ex, ey = cx + side * 18, cy - 10
        if (side < 0) == wink_left:
            cv2.line(img, (ex - 8, ey), (ex + 8, ey + 2 * side), INK, 3, cv2.LINE_AA)
        else:
            cv2.circle(img, (ex, ey), 6, INK, -1, cv2.LINE_AA)
    mouth = rng.randint(0, 2)
    if mouth == 0:
        cv2.ellipse(img, (cx, cy + 16), (16, 9), 0, 0, 180, INK, 3, cv2.LINE_AA)
    elif mouth == 1:
        cv2.ellipse(img, (cx, cy + 18), (10, 6), 0, 0, 360, (60, 60, 180), -1, cv2.LINE_AA)
    else:
        cv2.line(img, (cx - 14, cy + 18), (cx + 14, cy + 14), INK, 3, cv2.LINE_AA)
    hat = rng.choice(PALETTE)
    hat_kind = rng.choice(("triangle", "square", "circle", "star"))
    _shape(img, hat_kind, cx + rng.randint(-12, 12), cy - 54, 20, -math.pi / 2, hat, 2)
    draw_icon(img, 42, 250, 22, f"wink-icon-{value}")
    return _corner_indices(img, str(value), INK, underline=True)


def item_card(index: int) -> Image:
    _, en = ITEMS[index - 1]
    img = _blank(CARD_SIZE)
    frame = (110, 160, 190)
    _frame(img, frame, thickness=2)
    draw_icon(img, 100, 140, 82, f"item-{index}")
    _text(img, en.upper(), (100, 256), (150, 22), (50, 80, 110), font=cv2.FONT_HERSHEY_SIMPLEX,
          weight=0.16, max_scale=1.0)
    _text(img, f"{index:02d}", (38, 36), (34, 20), frame, weight=0.12, max_scale=0.8)
    return img


def scene_contents(scene: int) -> tuple[int, ...]:
    """The item numbers (1-66) drawn in scene ``scene`` (1-15): fixed by the generator."""
    rng = random.Random(f"scene-contents-{scene}")
    return tuple(sorted(rng.sample(range(1, len(ITEMS) + 1), ITEMS_PER_SCENE)))


def scene_card(scene: int) -> Image:
    rng = random.Random(f"scene-{scene}")
    img = _blank(CARD_SIZE)
    wall = rng.choice([(200, 225, 235), (215, 230, 210), (230, 215, 200), (205, 210, 235)])
    floor = rng.choice([(95, 140, 185), (120, 120, 125), (80, 110, 150), (140, 160, 170)])
    cv2.rectangle(img, (14, 14), (185, 170), wall, -1)
    cv2.rectangle(img, (14, 170), (185, 285), floor, -1)
    for x in range(14, 186, 22):  # floor boards / tiles
        cv2.line(img, (x, 170), (x + rng.randint(-6, 6), 285), (60, 70, 80), 1, cv2.LINE_AA)
    wx = rng.randint(30, 120)
    cv2.rectangle(img, (wx, 52), (wx + 50, 100), (235, 215, 170), -1)
    cv2.rectangle(img, (wx, 52), (wx + 50, 100), INK, 2)
    cv2.line(img, (wx + 25, 52), (wx + 25, 100), INK, 1)
    _frame(img, (70, 70, 70))
    _, en = SCENE_NAMES[scene - 1]
    cv2.rectangle(img, (20, 20), (179, 44), (70, 70, 70), -1)
    _text(img, f"{scene:02d} {en.upper()}", (100, 32), (150, 16), PAPER,
          font=cv2.FONT_HERSHEY_SIMPLEX, weight=0.16, max_scale=0.7)
    slots = [(x, y) for y in (82, 150, 222) for x in (48, 100, 152)]
    rng.shuffle(slots)
    for item, (x, y) in zip(scene_contents(scene), slots, strict=True):
        draw_icon(img, x + rng.randint(-5, 5), y + rng.randint(-6, 6), 27, f"item-{item}")
    return img


def keyword_tile(index: int) -> Image:
    _, en = KEYWORDS[index - 1]
    rng = random.Random(f"keyword-{index}")
    img = _blank(TILE_SIZE, (226, 240, 246))
    frame = rng.choice(PALETTE[:8])
    _frame(img, frame, inset=6, thickness=2)
    draw_icon(img, 100, 82, 64, f"keyword-icon-{index}")
    _text(img, en.upper(), (100, 166), (160, 22), INK, font=cv2.FONT_HERSHEY_SIMPLEX,
          weight=0.16, max_scale=0.9)
    return img


def stop_tile() -> Image:
    img = _blank(TILE_SIZE, (226, 240, 246))
    _frame(img, (40, 40, 190), inset=6, thickness=4)
    pts = _poly(100, 100, 74, 8, math.pi / 8)
    cv2.fillPoly(img, [pts], (40, 40, 200), cv2.LINE_AA)
    cv2.polylines(img, [_poly(100, 100, 66, 8, math.pi / 8)], True, PAPER, 3, cv2.LINE_AA)
    _text(img, "STOP", (100, 100), (100, 40), PAPER, weight=0.14)
    return img


def random_card(seed: int | str, size: tuple[int, int] = CARD_SIZE) -> Image:
    """A card face that belongs to no demo deck (for false-accept tests)."""
    rng = random.Random(f"random-card-{seed}")
    img = _blank(size, rng.choice([PAPER, (225, 238, 245), (240, 232, 222)]))
    _frame(img, rng.choice(PALETTE))
    w, h = size
    draw_icon(img, w / 2, h * 0.45, min(w, h) * 0.33, f"random-{seed}")
    label = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(rng.randint(2, 6)))
    _text(img, label, (w / 2, h * 0.82), (w * 0.75, h * 0.1), INK, weight=0.14)
    return img


def card_back(size: tuple[int, int] = CARD_SIZE, style: int = 0) -> Image:
    """A card's back (a face-down card): white edge, a coloured field with a diamond lattice
    and a central emblem, symmetric like most printed backs."""
    colours: tuple[BGR, ...] = ((120, 50, 30), (40, 40, 150), (50, 110, 40), (90, 40, 110))
    field_colour = colours[style % len(colours)]
    light = tuple(min(255, round(c + 0.45 * (255 - c))) for c in field_colour)
    img = _blank(size)
    w, h = size
    m = max(6, round(0.06 * w))
    _rounded_rect(img, (m, m), (w - 1 - m, h - 1 - m), max(2, m // 2), field_colour, -1)
    step = max(8, round(w / 9))
    for k in range(-h, w + h, step):
        cv2.line(img, (k, m), (k + h, m + h), light, 1, cv2.LINE_AA)
        cv2.line(img, (k, m), (k - h, m + h), light, 1, cv2.LINE_AA)
    img[:m], img[h - m:], img[:, :m], img[:, w - m:] = PAPER, PAPER, PAPER, PAPER
    _rounded_rect(img, (m, m), (w - 1 - m, h - 1 - m), max(2, m // 2), light, 2)  # type: ignore[arg-type]
    r = round(0.22 * min(w, h))
    cv2.ellipse(img, (w // 2, h // 2), (r, round(r * 1.3)), 0, 0, 360, PAPER, -1, cv2.LINE_AA)
    cv2.ellipse(img, (w // 2, h // 2), (r - 6, round(r * 1.3) - 6), 0, 0, 360, field_colour, 3,
                cv2.LINE_AA)
    star = _star(w / 2, h / 2, r * 0.75, 4, 0.0)
    cv2.fillPoly(img, [star], field_colour, cv2.LINE_AA)
    return img


# --------------------------------------------------------------------------- decks


def _number_name(n: int | str) -> tuple[str, str]:
    return str(n), str(n)


def _the_game(root: Path) -> Deck:
    cards: list[tuple[CardSpec, Image]] = [
        (CardSpec("row-up", "上升列 1", "ascending row 1", "row-up", "row-up.png", value=1,
                  copies=2), the_game_row(True)),
        (CardSpec("row-down", "下降列 100", "descending row 100", "row-down", "row-down.png",
                  value=100, copies=2), the_game_row(False)),
    ]
    for n in range(2, 100):
        zh, en = _number_name(n)
        cards.append((CardSpec(f"n{n:02d}", zh, en, "number", f"n{n:02d}.png", value=n),
                      the_game_number(n)))
    return _deck(root, "demo-the-game", "the-game", "致命遊戲（示範牌）",
                 "The Game (demo cards)", CARD_SIZE, False, "card", cards)


def _wink(root: Path) -> Deck:
    cards = [(CardSpec(f"w{n:02d}", str(n), str(n), "face", f"w{n:02d}.png", value=n,
                       copies=2), wink_face(n)) for n in range(1, 37)]
    return _deck(root, "demo-wink", "wink", "眨眨眼（示範牌）", "Wink (demo cards)",
                 CARD_SIZE, True, "card", cards)


def _items(root: Path) -> Deck:
    cards = [(CardSpec(f"i{i:02d}", zh, en, "item", f"i{i:02d}.png"), item_card(i))
             for i, (zh, en) in enumerate(ITEMS, 1)]
    return _deck(root, "demo-something-missing-items", "something-missing",
                 "什麼不見啦 物品卡（示範）", "Something Is Missing item cards (demo)",
                 CARD_SIZE, True, "card", cards)


def _scenes(root: Path) -> Deck:
    cards = []
    for s, (zh, en) in enumerate(SCENE_NAMES, 1):
        contains = tuple(f"i{i:02d}" for i in scene_contents(s))
        cards.append((CardSpec(f"s{s:02d}", f"場景：{zh}", f"scene: {en}", "scene",
                               f"s{s:02d}.png", contains=contains), scene_card(s)))
    return _deck(root, "demo-something-missing-scenes", "something-missing",
                 "什麼不見啦 場景卡（示範）", "Something Is Missing scene cards (demo)",
                 CARD_SIZE, True, "card", cards)


def _eselsbruecke(root: Path) -> Deck:
    cards = [(CardSpec(f"k{i:03d}", zh, en, "keyword", f"k{i:03d}.png"), keyword_tile(i))
             for i, (zh, en) in enumerate(KEYWORDS, 1)]
    cards.append((CardSpec("stop", "停止", "stop", "stop", "stop.png", copies=30),
                  stop_tile()))
    return _deck(root, "demo-eselsbruecke", "eselsbruecke", "驢橋（示範圖塊）",
                 "Eselsbrücke (demo tiles)", TILE_SIZE, True, "square", cards)


def _deck(root: Path, deck_id: str, game: str, zh: str, en: str, size: tuple[int, int],
          use_colour: bool, shape: str, cards: list[tuple[CardSpec, Image]]) -> Deck:
    return Deck(root=root, id=deck_id, game=game, title_zh=zh, title_en=en, demo=True,
                shape=shape, size=size, use_colour=use_colour,
                cards=tuple(c for c, _ in cards), templates={c.id: img for c, img in cards})


DEMO_DECKS: Mapping[str, Callable[[Path], Deck]] = {
    "the-game": _the_game,
    "wink": _wink,
    "something-missing-items": _items,
    "something-missing-scenes": _scenes,
    "eselsbruecke": _eselsbruecke,
}


def build_demo_deck(name: str, root: Path | None = None) -> Deck:
    """Draw demo deck ``name`` in memory (``root`` is where it would live)."""
    try:
        make = DEMO_DECKS[name]
    except KeyError:
        raise ValueError(f"unknown demo deck {name!r}; known: {', '.join(DEMO_DECKS)}") from None
    return make(root if root is not None else Path(name))


def write_demo_deck(name: str, out: str | os.PathLike[str]) -> Deck:
    """Draw demo deck ``name`` and save it into folder ``out``; return it loaded back."""
    out = Path(out)
    deck = save_deck(build_demo_deck(name, out), out)
    atomic_write(out / STAMP, _stamp(name).encode())
    return deck


def default_cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_CACHE_HOME/tablekeeper/decks``, else ``~/.cache/tablekeeper/decks``."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CACHE_HOME") or str(Path(env.get("HOME", "~")).expanduser() / ".cache")
    return Path(base) / "tablekeeper" / "decks"


def _stamp(name: str) -> str:
    return f"{name} generator {GENERATOR_VERSION}\n"


def _is_current(path: Path, name: str) -> bool:
    try:
        return read_text(path / STAMP, 4096) == _stamp(name)
    except (OSError, ValueError):
        return False


def deck_folder(name_or_path: str | os.PathLike[str]) -> Path:
    """A deck folder as a command line names it: a folder, or a demo deck's name (``wink``,
    ``the-game`` ..., generated on first use) where no such folder exists."""
    path = Path(name_or_path)
    if str(name_or_path) in DEMO_DECKS and not path.exists():
        return demo_deck(str(name_or_path))
    return path


def demo_deck(name: str, cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """The folder of demo deck ``name``, generated into ``cache_dir`` on first use.

    Reused while its generator version matches; regenerated otherwise. Safe against another
    process generating the same deck at the same time (each builds in a temporary folder and
    renames it into place).
    """
    if name not in DEMO_DECKS:
        raise ValueError(f"unknown demo deck {name!r}; known: {', '.join(DEMO_DECKS)}")
    cache = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    path = cache / name
    if _is_current(path, name):
        return path
    cache.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=cache, prefix=f".{name}.new."))
    try:
        write_demo_deck(name, tmp)
        for _ in range(5):
            if _is_current(path, name):
                return path
            if path.exists():
                old = Path(tempfile.mkdtemp(dir=cache, prefix=f".{name}.old."))
                with contextlib.suppress(FileNotFoundError):
                    os.replace(path, old / "deck")
                shutil.rmtree(old, ignore_errors=True)
            try:
                os.rename(tmp, path)
                return path
            except OSError:
                continue
        raise OSError(f"could not put demo deck {name} in place at {path}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
