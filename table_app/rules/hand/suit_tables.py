"""Per-suit tables that make hand analysis fast in pure Python.

A regular hand is complete when every suit splits into sets on its own and exactly one
suit also holds the pair; suits never interact. So each suit (9 positions; the honours are
a "suit" of 7 positions without sequences) is packed into one integer key, three bits per
position, and everything about a suit is looked up by that key:

- whether it splits into sets only, or into sets plus one pair;
- which single tile added to it makes it split either way (a 9-bit mask each);
- every way it splits (for decompositions).

Whether a key splits is worked out the first time that key is asked about, and remembered:
at most four sets and one pair per suit, at most five of a position (the fifth copy appears
when asking about waits on a tile the hand already holds four of). Nothing is enumerated up
front, so the first ``jantaku hand`` answers at once.
"""

from __future__ import annotations

from functools import cache
from typing import Final, NamedTuple

from table_app.rules.hand.groups import Group, GroupKind

BITS: Final = 3
MAX_COUNT: Final = 5
SUIT_BASES: Final = (0, 9, 18, 27)
SUIT_LENGTHS: Final = (9, 9, 9, 7)


class SuitInfo(NamedTuple):
    sets_only: bool
    sets_and_pair: bool
    waits_sets_only: int  # bit i: adding position i leaves sets only
    waits_sets_and_pair: int  # bit i: adding position i leaves sets and one pair


def pack(counts: list[int] | tuple[int, ...], base: int, length: int) -> int:
    key = 0
    for offset in range(length - 1, -1, -1):
        key = (key << BITS) | counts[base + offset]
    return key


def unpack(key: int, length: int) -> tuple[int, ...]:
    return tuple((key >> (BITS * i)) & 0b111 for i in range(length))


_MAX_SETS: Final = 4


def _counts_fit(key: int, length: int) -> bool:
    return all((key >> (BITS * position)) & 0b111 <= MAX_COUNT for position in range(length))


def _tiles(key: int, length: int) -> int:
    return sum((key >> (BITS * position)) & 0b111 for position in range(length))


@cache
def _splits_into_sets(key: int, honours: bool) -> bool:
    """The suit's tiles split into triplets and (not for honours) sequences, nothing left over.

    The lowest position holding tiles must start a set (a triplet of it, or a sequence from it)."""
    if key == 0:
        return True
    lowest = (key & -key).bit_length() - 1
    position = lowest // BITS
    shift = BITS * position
    if (key >> shift) & 0b111 >= 3 and _splits_into_sets(key - (3 << shift), honours):
        return True
    sequence = (1 << shift) | (1 << (shift + BITS)) | (1 << (shift + 2 * BITS))
    return (
        not honours
        and position <= 6
        and (key >> (shift + BITS)) & 0b111 > 0
        and (key >> (shift + 2 * BITS)) & 0b111 > 0
        and _splits_into_sets(key - sequence, honours)
    )


def _is_sets_only(key: int, honours: bool) -> bool:
    length = 7 if honours else 9
    return (
        _counts_fit(key, length)
        and _tiles(key, length) <= 3 * _MAX_SETS
        and _tiles(key, length) % 3 == 0
        and _splits_into_sets(key, honours)
    )


def _is_sets_and_pair(key: int, honours: bool) -> bool:
    length = 7 if honours else 9
    if not _counts_fit(key, length) or _tiles(key, length) > 3 * _MAX_SETS + 2 or _tiles(key, length) % 3 != 2:
        return False
    return any(
        (key >> (BITS * pair)) & 0b111 >= 2 and _splits_into_sets(key - (2 << (BITS * pair)), honours)
        for pair in range(length)
    )


_INFO_CACHE: dict[tuple[int, bool], SuitInfo] = {}


def suit_info(key: int, honours: bool) -> SuitInfo:
    cached = _INFO_CACHE.get((key, honours))
    if cached is not None:
        return cached
    waits_sets_only = 0
    waits_pair = 0
    for position in range(7 if honours else 9):
        grown = key + (1 << (BITS * position))
        if (key >> (BITS * position)) & 0b111 >= MAX_COUNT:
            continue
        if _is_sets_only(grown, honours):
            waits_sets_only |= 1 << position
        if _is_sets_and_pair(grown, honours):
            waits_pair |= 1 << position
    info = SuitInfo(_is_sets_only(key, honours), _is_sets_and_pair(key, honours), waits_sets_only, waits_pair)
    _INFO_CACHE[(key, honours)] = info
    return info


@cache
def suit_splits(key: int, base: int) -> tuple[tuple[bool, tuple[Group, ...]], ...]:
    """Every way the suit at ``base`` splits into sets with at most one pair.

    Each entry is (holds the pair, groups with absolute tile kinds, sorted).
    """
    honours = base == SUIT_BASES[3]
    length = 7 if honours else 9
    found: set[tuple[bool, tuple[Group, ...]]] = set()

    def walk(counts: list[int], start: int, groups: list[Group], pair_used: bool) -> None:
        position = start
        while position < length and counts[position] == 0:
            position += 1
        if position == length:
            found.add((pair_used, tuple(sorted(groups))))
            return
        kind = base + position
        if counts[position] >= 3:
            counts[position] -= 3
            groups.append(Group(kind, GroupKind.TRIPLET))
            walk(counts, position, groups, pair_used)
            groups.pop()
            counts[position] += 3
        if not honours and position <= length - 3 and counts[position + 1] and counts[position + 2]:
            for step in range(3):
                counts[position + step] -= 1
            groups.append(Group(kind, GroupKind.SEQUENCE))
            walk(counts, position, groups, pair_used)
            groups.pop()
            for step in range(3):
                counts[position + step] += 1
        if not pair_used and counts[position] >= 2:
            counts[position] -= 2
            groups.append(Group(kind, GroupKind.PAIR))
            walk(counts, position, groups, True)
            groups.pop()
            counts[position] += 2

    walk(list(unpack(key, length)), 0, [], False)
    return tuple(sorted(found))
