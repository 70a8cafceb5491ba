"""Other people's names for tiles, as jantaku's: the class names of a labelling tool's export.

A data set labelled in Roboflow, CVAT, LabelImg or Label Studio names its classes as its
author chose: ``5m``, ``m5``, ``5man``, ``man_5``, ``5_character``, ``5C``, ``五萬``, ``0m`` or
``5mr`` for a red five, ``E``, ``ton``, ``east_wind``, ``EW``, ``haku``, ``white_dragon``,
``WD``, ``P`` (mjai's haku), ``flower_1``... :func:`tile_of_name` knows the common schemes
and answers ``None`` for a name it cannot place (then the importer asks for a names file:
:func:`names_from_json`), never a guess between two readings.

What a name means, by its parts (case, width, separators and order do not matter):

- a **number** 1-9 with a **suit**: m / man / manzu / wan / character(s) / crak / c / 萬 万;
  p / pin / pinzu / dot(s) / circle(s) / coin / tong / bing / d / 筒 饼 餅; s / sou / sozu / so /
  bamboo / bam / tiao / suo / b / 索 条 條. The number may be a Chinese numeral (五萬).
  ``0`` with a suit is a red five (Tenhou's ``0m``); so is a 5 with red / aka / r.
- a **wind**: east / ton / dong / 東 东, south / nan / 南, west / sha / shaa / sya / xi / 西,
  north / pei / pe / bei / 北 (``wind`` / ``kaze`` may stand by it); ``EW``, ``WE``, ``E``.
- a **dragon**: white / haku / bai / 白, green / hatsu / fa / 發 发, red / chun / zhong / 中
  (``dragon`` may stand by it); ``WD``, ``DW``, mjai's ``P`` ``F`` ``C``; ``1z``..``7z``.
- a **back**: back / ura / 裏 / hidden / facedown.
- **not a riichi tile** (ignored by evaluation): flowers, seasons, jokers and the plants and
  seasons they are named after.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from vision.json_file import read_json_object

OTHER: Final = "other"  # a tile that is not one of the 34 kinds (a flower) or whose face is not named
BACK: Final = "back"


class TileNameError(ValueError):
    """A names file that cannot be read, or a tile in it that is not one; the message names both."""


@dataclass(frozen=True, slots=True)
class NamedTile:
    """What a class name stands for: ``tile`` is "1m".."9s", "1z".."7z", :data:`BACK` or
    :data:`OTHER`; ``red`` marks a red five."""

    tile: str
    red: bool = False

    def __str__(self) -> str:
        return f"{self.tile} (red)" if self.red else self.tile


_SUIT_WORDS: Final = {
    "m": ("m", "man", "mans", "manzu", "wan", "wanzu", "character", "characters", "char", "chars", "crak", "craks",
          "crack", "cracks", "c", "萬", "万", "wanzi"),
    "p": ("p", "pin", "pins", "pinzu", "dot", "dots", "circle", "circles", "coin", "coins", "tong", "tongzi", "bing",
          "ping", "d", "筒", "饼", "餅", "circ"),
    "s": ("s", "sou", "sous", "souzu", "sozu", "so", "bamboo", "bamboos", "bam", "bams", "tiao", "tiaozi", "suo", "b",
          "索", "条", "條", "stick", "sticks"),
}  # fmt: skip
_SUIT_OF_WORD: Final = {word: suit for suit, words in _SUIT_WORDS.items() for word in words}
_HONOUR_WORDS: Final = {
    "1z": ("east", "ton", "dong", "東", "东"),
    "2z": ("south", "nan", "南"),
    "3z": ("west", "sha", "shaa", "sya", "xi", "西"),
    "4z": ("north", "pei", "pe", "pee", "bei", "北"),
    "5z": ("white", "haku", "bai", "白", "blank", "baiban", "白板"),
    "6z": ("green", "hatsu", "hatu", "fa", "發", "发", "facai", "發財", "发财"),
    "7z": ("red", "chun", "zhong", "中", "hongzhong", "紅中", "红中"),
}
_HONOUR_OF_WORD: Final = {word: tile for tile, words in _HONOUR_WORDS.items() for word in words}
#: Words that only say what kind of honour the name is (east *wind*, red *dragon*).
_HONOUR_KIND_WORDS: Final = frozenset({"wind", "winds", "kaze", "dragon", "dragons", "sangen", "feng", "風", "风"})
_RED_WORDS: Final = frozenset({"red", "aka", "r", "赤", "红", "紅"})
_TILE_WORDS: Final = frozenset({"tile", "tiles", "pai", "牌"})
_BACK_WORDS: Final = frozenset({"back", "backs", "ura", "裏", "hidden", "facedown", "unknown_face"})
_OTHER_WORDS: Final = frozenset(
    {"flower", "flowers", "season", "seasons", "joker", "jokers", "spring", "summer", "autumn", "fall", "winter",
     "plum", "orchid", "chrysanthemum", "花", "春", "夏", "秋", "冬", "梅", "蘭", "兰", "菊", "竹", "bonus"}
)  # fmt: skip
_CHINESE_NUMERALS: Final = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "伍": 5, "六": 6, "七": 7, "八": 8, "九": 9}
#: mjai's and other one-letter honours: E S W N, P(ai, haku) F(a) C(hun).
_ONE_LETTER: Final = {"e": "1z", "s": "2z", "w": "3z", "n": "4z", "p": "5z", "f": "6z", "c": "7z"}
_WIND_LETTER: Final = {"e": "1z", "s": "2z", "w": "3z", "n": "4z"}
_DRAGON_LETTER: Final = {"w": "5z", "g": "6z", "r": "7z"}
_SUIT_LETTERS: Final = ("m", "p", "s")
_SUIT_CODES: Final = {"sc": "m", "sd": "p", "sb": "s"}  # alanchoi's scheme: sc5 = 5 characters
_SEPARATORS: Final = re.compile(r"[\s\-_.,:/()\[\]+]+")
_TOKEN: Final = re.compile(r"[a-z]+|[0-9]+|[^a-z0-9]")


def tile_of_name(name: str) -> NamedTile | None:
    """The tile a class name stands for, or ``None`` when the name is none of the schemes
    this module knows (or could be read two ways)."""
    text = unicodedata.normalize("NFKC", name).strip().lower()
    squashed = _SEPARATORS.sub("", text)
    if not squashed:
        return None
    if squashed in _ONE_LETTER:
        return NamedTile(_ONE_LETTER[squashed])
    if squashed.isalpha() and len(squashed) in (2, 3):
        code = _letter_code_honour(squashed)
        if code is not None:
            return NamedTile(code)
    tokens = [t for part in _SEPARATORS.split(text) if part for t in _split_word(part)]
    return _tile_of_tokens(tokens)


def _letter_code_honour(code: str) -> str | None:
    """``EW``/``WE`` (east wind), ``WD``/``DW`` (white dragon) and the like (``WW`` is west
    wind); three letters ``HW``+wind, ``HD``+dragon (honour wind east: ``HWE``)."""
    if len(code) == 3:
        if code[:2] == "hw" and code[2] in _WIND_LETTER:
            return _WIND_LETTER[code[2]]
        if code[:2] == "hd" and code[2] in _DRAGON_LETTER:
            return _DRAGON_LETTER[code[2]]
        return None
    if code[1] == "w" and code[0] in _WIND_LETTER:
        return _WIND_LETTER[code[0]]
    if code[0] == "w" and code[1] in _WIND_LETTER:
        return _WIND_LETTER[code[1]]
    if code[1] == "d" and code[0] in _DRAGON_LETTER:
        return _DRAGON_LETTER[code[0]]
    if code[0] == "d" and code[1] in _DRAGON_LETTER:
        return _DRAGON_LETTER[code[1]]
    return None


def _split_word(part: str) -> list[str]:
    """One separator-free part in tokens: runs of letters, runs of digits, single other
    characters (a kanji each), with a known many-character kanji word kept whole."""
    for word in ("白板", "發財", "发财", "紅中", "红中"):
        if word in part:
            before, after = part.split(word, 1)
            return [*_split_word(before), word, *_split_word(after)] if before or after else [word]
    return [piece for token in _TOKEN.findall(part) for piece in _unfused(token)]


def _unfused(token: str) -> list[str]:
    """A run of letters that fuses a suit letter with red ("5mr", "5mred", "rm5") in two tokens;
    alanchoi's suit codes ("sc5": 5 characters) as their suit; any other token as it is."""
    if not token.isalpha() or len(token) < 2 or token in _SUIT_OF_WORD or token in _HONOUR_OF_WORD:
        return [token]
    head, tail = token[:1], token[1:]
    if (head in _SUIT_LETTERS and tail in _RED_WORDS) or (tail in _SUIT_LETTERS and head in _RED_WORDS):
        return [head, tail]
    return [_SUIT_CODES.get(token, token)]


def _tile_of_tokens(tokens: list[str]) -> NamedTile | None:
    words = [t for t in tokens if t not in _TILE_WORDS]
    if any(t in _BACK_WORDS for t in words):
        return NamedTile(BACK) if len(words) == 1 else None
    if any(t in _OTHER_WORDS for t in words) or (
        words and words[0] in ("f", "bf", "bs", "sf", "fl") and len(words) == 2 and words[1].isdigit()
    ):
        return NamedTile(OTHER)
    numbers = [int(t) for t in words if t.isdigit()] + [_CHINESE_NUMERALS[t] for t in words if t in _CHINESE_NUMERALS]
    suits = {_SUIT_OF_WORD[t] for t in words if t in _SUIT_OF_WORD}
    rest = [t for t in words if not t.isdigit() and t not in _CHINESE_NUMERALS and t not in _SUIT_OF_WORD]
    if len(numbers) == 1 and len(suits) == 1:
        number, suit = numbers[0], suits.pop()
        red = any(t in _RED_WORDS for t in rest)
        if any(t not in _RED_WORDS for t in rest):
            return None
        if number == 0:
            return NamedTile(f"5{suit}", red=True)
        if not 1 <= number <= 9 or (red and number != 5):
            return None
        return NamedTile(f"{number}{suit}", red=red)
    if len(numbers) == 1 and not suits and rest in (["z"], ["zi"], ["j"]):
        return NamedTile(f"{numbers[0]}z") if 1 <= numbers[0] <= 7 else None
    honours = {_HONOUR_OF_WORD[t] for t in words if t in _HONOUR_OF_WORD}
    others = [t for t in words if t not in _HONOUR_OF_WORD and t not in _HONOUR_KIND_WORDS]
    if len(honours) == 1 and not others and not numbers:
        return NamedTile(honours.pop())
    return None


def names_from_json(path: Path) -> dict[str, NamedTile]:
    """A names file: ``{"their class name": "5m", ...}`` in jantaku's notation: "1m".."9s",
    "1z".."7z", "0m"/"0p"/"0s" for a red five, "back", or "other" (not a riichi tile: ignored)."""
    document = read_json_object(path, "names file", TileNameError)
    table: dict[str, NamedTile] = {}
    for name, value in document.items():
        named = _jantaku_tile(value)
        if named is None:
            raise TileNameError(
                f'names file {path}: {name!r} → {value!r} is not a tile: write "1m".."9s", "1z".."7z", '
                '"0m"/"0p"/"0s" (a red five), "back" or "other"'
            )
        table[name] = named
    return table


def _jantaku_tile(value: object) -> NamedTile | None:
    if not isinstance(value, str):
        return None
    if value in (BACK, OTHER):
        return NamedTile(value)
    match = re.fullmatch(r"([0-9])([mps])|([1-7])z", value)
    if match is None:
        return None
    if match.group(3):
        return NamedTile(value)
    number, suit = int(match.group(1)), match.group(2)
    return NamedTile(f"5{suit}", red=True) if number == 0 else NamedTile(value)


def name_table(names: Iterable[str], given: Mapping[str, NamedTile]) -> tuple[dict[str, NamedTile], list[str]]:
    """Each class name's tile: the names file's where it names one, else :func:`tile_of_name`;
    and the names neither places, in order."""
    table: dict[str, NamedTile] = {}
    unknown: list[str] = []
    for name in names:
        named = given.get(name) or tile_of_name(name)
        if named is None:
            unknown.append(name)
        else:
            table[name] = named
    return table, unknown
