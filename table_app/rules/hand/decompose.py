"""Every reading (decomposition) of a complete 14-shaped hand."""

from __future__ import annotations

from itertools import product
from typing import Final

from table_app.domain.hand import COMPLETE_SIZE, Hand
from table_app.domain.tile import TERMINAL_HONOUR_KINDS
from table_app.rules.hand.groups import Decomposition, Group, GroupKind, HandForm
from table_app.rules.hand.suit_tables import SUIT_BASES, SUIT_LENGTHS, pack, suit_splits

_ORPHANS: Final = tuple(sorted(TERMINAL_HONOUR_KINDS))


def decompositions(hand: Hand) -> tuple[Decomposition, ...]:
    """All readings of a complete hand: four sets and a pair (every split), seven pairs,
    thirteen orphans. An incomplete hand has none."""
    hand.require_size(COMPLETE_SIZE)
    return decompose_counts(hand.counts(), hand)


def decompose_counts(counts: list[int], hand: Hand) -> tuple[Decomposition, ...]:
    """Readings of ``counts`` (the concealed part) with ``hand``'s melds."""
    found = [Decomposition(HandForm.REGULAR, groups, hand.melds) for groups in regular_readings(counts)]
    if not hand.melds:
        pairs = seven_pairs_reading(counts)
        if pairs is not None:
            found.append(Decomposition(HandForm.SEVEN_PAIRS, pairs))
        orphans = thirteen_orphans_reading(counts)
        if orphans is not None:
            found.append(Decomposition(HandForm.THIRTEEN_ORPHANS, orphans))
    return tuple(found)


def regular_readings(counts: list[int]) -> list[tuple[Group, ...]]:
    per_suit = [
        suit_splits(pack(counts, base, length), base) for base, length in zip(SUIT_BASES, SUIT_LENGTHS, strict=True)
    ]
    if any(not splits for splits in per_suit):
        return []
    readings = []
    for choice in product(*per_suit):
        if sum(holds_pair for holds_pair, _ in choice) == 1:
            readings.append(tuple(sorted(group for _, groups in choice for group in groups)))
    return readings


def seven_pairs_reading(counts: list[int]) -> tuple[Group, ...] | None:
    pairs = [kind for kind, count in enumerate(counts) if count]
    if len(pairs) == 7 and all(counts[kind] == 2 for kind in pairs):
        return tuple(Group(kind, GroupKind.PAIR) for kind in pairs)
    return None


def thirteen_orphans_reading(counts: list[int]) -> tuple[Group, ...] | None:
    if sum(counts) != 14 or any(counts[kind] == 0 for kind in _ORPHANS):
        return None
    if sum(counts[kind] for kind in _ORPHANS) != 14:
        return None
    return tuple(Group(kind, GroupKind.PAIR if counts[kind] == 2 else GroupKind.SINGLE) for kind in _ORPHANS)
