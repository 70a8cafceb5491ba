"""Reading and writing tiles in the notations jantaku meets.

- compact hands: ``"123m406p789s11z"`` (digits then a suit letter; ``0`` or ``r5`` is a red
  five; spaces between groups are allowed, so ``"4555m 223344p 678s"`` reads too);
- mjai strings: ``"5m"``, ``"5mr"`` (red), ``"E" "S" "W" "N" "P" "F" "C"``, ``"?"``;
- Tenhou mjlog ids 0-135 (kind = id // 4; ids 16, 52, 88 are the red fives when the
  game has them);
- tenhou.net/6 codes: 11-19 man, 21-29 pin, 31-39 sou, 41-47 honours, 51-53 red fives.

Every error is a :class:`TileNotationError` naming the offending token and where it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from table_app.domain.errors import InputError
from table_app.domain.tile import KIND_COUNT, RED_FIVE_KINDS, UNKNOWN, Tile, display_order, tile_of_kind


class TileNotationError(InputError):
    """A tile or hand string that cannot be read."""


_SUIT_OFFSET: Final = {"m": 0, "p": 9, "s": 18, "z": 27}
_SUIT_MAX: Final = {"m": 9, "p": 9, "s": 9, "z": 7}


def parse_tile(text: str) -> Tile:
    """One tile in compact ("5m", "0p", "7z") or mjai ("5sr", "E", "?") form."""
    token = text.strip()
    if token in _MJAI_HONOURS or token == "?" or (len(token) == 3 and token.endswith("r")):
        return parse_mjai(token)
    tiles = parse_tiles(token)
    if len(tiles) != 1:
        raise TileNotationError("expected exactly one tile", token=text)
    return tiles[0]


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """A compact hand string, in the order written."""
    tiles: list[Tile] = []
    pending: list[tuple[str, int]] = []  # (digit or "r5", position) waiting for a suit letter
    i = 0
    while i < len(text):
        char = text[i]
        if char.isspace():
            if pending:
                raise TileNotationError("digits without a suit letter", token=_token(pending), position=pending[0][1])
        elif char == "?":
            if pending:
                raise TileNotationError("digits without a suit letter", token=_token(pending), position=pending[0][1])
            tiles.append(UNKNOWN)
        elif char.isdigit():
            pending.append((char, i))
        elif char == "r":
            if i + 1 >= len(text) or text[i + 1] != "5":
                raise TileNotationError("'r' must come right before a 5", token=text[i : i + 2], position=i)
            pending.append(("r5", i))
            i += 1
        elif char in _SUIT_OFFSET:
            if not pending:
                raise TileNotationError("suit letter without digits", token=char, position=i)
            tiles.extend(_suited(digit, char, position) for digit, position in pending)
            pending.clear()
        else:
            raise TileNotationError("unknown character in tile string", token=char, position=i)
        i += 1
    if pending:
        raise TileNotationError("digits without a suit letter", token=_token(pending), position=pending[0][1])
    return tuple(tiles)


def _token(pending: list[tuple[str, int]]) -> str:
    return "".join(digit for digit, _ in pending)


def _suited(digit: str, suit: str, position: int) -> Tile:
    red = digit in ("0", "r5")
    number = 5 if red else int(digit)
    if red and suit == "z":
        raise TileNotationError("honours have no red five", token=f"{digit}{suit}", position=position)
    if not 1 <= number <= _SUIT_MAX[suit]:
        raise TileNotationError("no such tile", token=f"{digit}{suit}", position=position)
    return tile_of_kind(_SUIT_OFFSET[suit] + number - 1, red=red)


def format_tiles(tiles: Iterable[Tile], *, sort: bool = False) -> str:
    """Compact form grouped by suit run: ``[1m,2m,0p]`` → ``"12m0p"``.

    With ``sort`` the tiles are ordered by kind first (a red five sorts as a five).
    """
    ordered = sorted(tiles, key=display_order) if sort else list(tiles)
    out: list[str] = []
    run_suit = ""
    for tile in ordered:
        if tile.is_unknown:
            if run_suit:
                out.append(run_suit)
                run_suit = ""
            out.append("?")
            continue
        suit = tile.suit.value
        if run_suit and suit != run_suit:
            out.append(run_suit)
        out.append("0" if tile.red else str(tile.number))
        run_suit = suit
    if run_suit:
        out.append(run_suit)
    return "".join(out)


# --- mjai ---------------------------------------------------------------------------

_MJAI_HONOURS: Final = ("E", "S", "W", "N", "P", "F", "C")


def parse_mjai(text: str) -> Tile:
    if text == "?":
        return UNKNOWN
    if text in _MJAI_HONOURS:
        return tile_of_kind(27 + _MJAI_HONOURS.index(text))
    if len(text) in (2, 3) and text[0] in "123456789" and text[1] in "mps":
        red = len(text) == 3
        if red and (text[2] != "r" or text[0] != "5"):
            raise TileNotationError("not an mjai tile", token=text)
        return tile_of_kind(_SUIT_OFFSET[text[1]] + int(text[0]) - 1, red=red)
    raise TileNotationError("not an mjai tile", token=text)


def to_mjai(tile: Tile) -> str:
    if tile.is_unknown:
        return "?"
    if tile.is_honour:
        return _MJAI_HONOURS[tile.kind - 27]
    return f"{tile.number}{tile.suit.value}{'r' if tile.red else ''}"


# --- Tenhou mjlog ids ---------------------------------------------------------------

_TENHOU_RED_IDS: Final = frozenset({16, 52, 88})


def from_tenhou136(tile_id: int, *, red_fives: bool = True) -> Tile:
    """A Tenhou mjlog tile id; ids 16/52/88 are red only in games played with red fives."""
    if not 0 <= tile_id < 4 * KIND_COUNT:
        raise TileNotationError("Tenhou tile id outside 0..135", token=str(tile_id))
    return tile_of_kind(tile_id // 4, red=red_fives and tile_id in _TENHOU_RED_IDS)


def to_tenhou136(tile: Tile, copy: int = 0) -> int:
    """An id for ``tile``; a red five is always its red id, a plain five avoids it."""
    if tile.is_unknown:
        raise TileNotationError("the unknown tile has no Tenhou id", token="?")
    if tile.red:
        return tile.kind * 4
    if not 0 <= copy < 4:
        raise ValueError(f"copy {copy} outside 0..3")
    if tile.kind in RED_FIVE_KINDS:
        return tile.kind * 4 + 1 + copy % 3
    return tile.kind * 4 + copy


# --- tenhou.net/6 codes -------------------------------------------------------------

_TENHOU6_RED: Final = {51: 4, 52: 13, 53: 22}


def from_tenhou6(code: int) -> Tile:
    if code in _TENHOU6_RED:
        return tile_of_kind(_TENHOU6_RED[code], red=True)
    suit, number = divmod(code, 10)
    if suit in (1, 2, 3) and 1 <= number <= 9:
        return tile_of_kind((suit - 1) * 9 + number - 1)
    if suit == 4 and 1 <= number <= 7:
        return tile_of_kind(27 + number - 1)
    raise TileNotationError("not a tenhou.net/6 tile code", token=str(code))


def to_tenhou6(tile: Tile) -> int:
    if tile.is_unknown:
        raise TileNotationError("the unknown tile has no tenhou.net/6 code", token="?")
    if tile.red:
        return 51 + (tile.kind - 4) // 9
    return (tile.kind // 9 + 1) * 10 + tile.kind % 9 + 1
