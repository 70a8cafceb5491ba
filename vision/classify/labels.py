"""The classifier's 38 labels: 34 faces, the three red fives, and a tile's back.

Label ``k`` for ``k`` in 0..33 is the tile kind ``k`` (1m..9m, 1p..9p, 1s..9s, 1z..7z);
34, 35, 36 are the red 5m, 5p, 5s; 37 is a face-down tile. The order is fixed: the ONNX
model's outputs and its metadata file use it.
"""

from __future__ import annotations

from typing import Final

from table_app.domain.tile import KIND_COUNT, UNKNOWN, Tile, tile_of_kind

LABEL_COUNT: Final = 38
BACK_LABEL: Final = 37
WHITE_DRAGON_LABEL: Final = 31  # 5z (haku): a blank face, or a bare frame in some sets
FIVE_KINDS: Final = (4, 13, 22)  # 5m, 5p, 5s: the kinds of the red labels 34, 35, 36

_SUITS: Final = ("Man", "Pin", "Sou")
_HONOUR_ART: Final = ("Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun")


def label_of(tile: Tile) -> int:
    """The label of a face; the unknown tile stands for a face-down tile."""
    if tile.is_unknown:
        return BACK_LABEL
    if tile.red:
        return KIND_COUNT + FIVE_KINDS.index(tile.kind)
    return tile.kind


def tile_of_label(label: int) -> Tile:
    """The tile a label shows; the back is the unknown tile."""
    _check(label)
    if label == BACK_LABEL:
        return UNKNOWN
    if label >= KIND_COUNT:
        return tile_of_kind(FIVE_KINDS[label - KIND_COUNT], red=True)
    return tile_of_kind(label)


def label_name(label: int) -> str:
    """ "1m".."9s", "1z".."7z" for faces (a red five is "5m" etc. with ``red``), "back"."""
    tile = tile_of_label(label)
    if tile.is_unknown:
        return "back"
    return f"{tile.number}{tile.suit.value}"


def is_red_label(label: int) -> bool:
    _check(label)
    return KIND_COUNT <= label < BACK_LABEL


def kind_of_label(label: int) -> int:
    """The 34-kind index (red fives fold onto their kind); 34 for the back."""
    return tile_of_label(label).kind


def art_name(label: int) -> str:
    """The FluffyStuff file stem for a label ("Man1", "Pin5-Dora", "Chun", "Back")."""
    _check(label)
    if label == BACK_LABEL:
        return "Back"
    if label >= KIND_COUNT:
        return f"{_SUITS[label - KIND_COUNT]}5-Dora"
    if label >= 27:
        return _HONOUR_ART[label - 27]
    return f"{_SUITS[label // 9]}{label % 9 + 1}"


def all_labels() -> tuple[int, ...]:
    return tuple(range(LABEL_COUNT))


def _check(label: int) -> None:
    if not 0 <= label < LABEL_COUNT:
        raise ValueError(f"tile label {label} is outside 0..{LABEL_COUNT - 1}")
