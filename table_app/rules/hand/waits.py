"""Waits (待ち) of a 13-shaped hand, and tenpai.

The fast path works on a 34-count list and returns a bitmask of tile kinds (bit k: kind k
completes the hand). A wait on a kind the hand already holds all four of is a wait *in form
only*: that tile cannot come (純カラ). :func:`waits` keeps such waits but marks them
``exhausted``; :func:`is_tenpai` needs at least one wait that can still come, as the
exhaustive-draw payments do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from table_app.domain.hand import WAITING_SIZE, Hand
from table_app.domain.tile import (
    COPIES_PER_KIND,
    KIND_COUNT,
    TERMINAL_HONOUR_KINDS,
    Tile,
    display_order,
    tile_of_kind,
)
from table_app.rules.hand.groups import HandForm
from table_app.rules.hand.suit_tables import SUIT_BASES, SUIT_LENGTHS, pack, suit_info

_ORPHANS: Final = tuple(sorted(TERMINAL_HONOUR_KINDS))
_ORPHAN_MASK: Final = sum(1 << k for k in _ORPHANS)
_SUITS: Final = tuple(zip(SUIT_BASES, SUIT_LENGTHS, (False, False, False, True), strict=True))


def regular_wait_mask(counts: list[int]) -> int:
    """Kinds that complete four-sets-and-a-pair for these concealed counts (any meld count)."""
    infos = [suit_info(pack(counts, base, length), honours) for base, length, honours in _SUITS]
    bad = [index for index, info in enumerate(infos) if not info.sets_only]
    mask = 0
    for index, info in enumerate(infos):
        others_bad = [r for r in bad if r != index]
        if not others_bad:
            mask |= info.waits_sets_and_pair << SUIT_BASES[index]
        elif len(others_bad) == 1 and infos[others_bad[0]].sets_and_pair:
            mask |= info.waits_sets_only << SUIT_BASES[index]
    return mask


def seven_pairs_wait_mask(counts: list[int]) -> int:
    """The single of a six-pairs-and-a-single hand (four of a kind is not two pairs)."""
    pairs = 0
    single = -1
    for kind, count in enumerate(counts):
        if count == 2:
            pairs += 1
        elif count == 1:
            if single >= 0:
                return 0
            single = kind
        elif count:
            return 0
    return 1 << single if pairs == 6 and single >= 0 else 0


def thirteen_orphans_wait_mask(counts: list[int]) -> int:
    present = 0
    doubled = False
    for kind in _ORPHANS:
        count = counts[kind]
        if count:
            present |= 1 << kind
            if count == 2:
                if doubled:
                    return 0
                doubled = True
            elif count > 2:
                return 0
    if sum(counts) != sum(counts[k] for k in _ORPHANS):
        return 0
    if present == _ORPHAN_MASK and not doubled:
        return _ORPHAN_MASK  # thirteen-sided wait
    if doubled and (present ^ _ORPHAN_MASK).bit_count() == 1:
        return present ^ _ORPHAN_MASK
    return 0


def wait_mask(counts: list[int], *, closed_full: bool) -> int:
    """All form waits. ``closed_full``: no melds, so seven pairs and orphans may apply."""
    mask = regular_wait_mask(counts)
    if closed_full:
        mask |= seven_pairs_wait_mask(counts) | thirteen_orphans_wait_mask(counts)
    return mask


def mask_kinds(mask: int) -> list[int]:
    return [kind for kind in range(KIND_COUNT) if mask >> kind & 1]


@dataclass(frozen=True, slots=True)
class Wait:
    tile: Tile
    forms: tuple[HandForm, ...]
    exhausted: bool  # the hand holds all four: it waits on this tile in form only

    def __str__(self) -> str:
        return f"{self.tile}(exhausted)" if self.exhausted else str(self.tile)


def waits(hand: Hand) -> tuple[Wait, ...]:
    """Every wait of a 13-shaped hand, in kind order."""
    hand.require_size(WAITING_SIZE)
    counts = hand.counts()
    closed_full = not hand.melds
    regular = regular_wait_mask(counts)
    pairs = seven_pairs_wait_mask(counts) if closed_full else 0
    orphans = thirteen_orphans_wait_mask(counts) if closed_full else 0
    result = []
    for kind in mask_kinds(regular | pairs | orphans):
        forms = tuple(
            form
            for form, mask in (
                (HandForm.REGULAR, regular),
                (HandForm.SEVEN_PAIRS, pairs),
                (HandForm.THIRTEEN_ORPHANS, orphans),
            )
            if mask >> kind & 1
        )
        result.append(Wait(tile_of_kind(kind), forms, exhausted=hand.held(kind) >= COPIES_PER_KIND))
    return tuple(result)


def tenpai_discards(hand: Hand) -> tuple[tuple[Tile, tuple[Wait, ...]], ...]:
    """For a 14-shaped hand: each discard (one per tile face held) that leaves it tenpai, with
    the waits it leaves. What a riichi declaration needs, and what a player asks."""
    hand.require_size(WAITING_SIZE + 1)
    found = []
    for tile in sorted(set(hand.concealed), key=display_order):
        rest = list(hand.concealed)
        rest.remove(tile)
        left = waits(Hand(tuple(rest), hand.melds))
        if any(not wait.exhausted for wait in left):
            found.append((tile, left))
    return tuple(found)


def live_waits(hand: Hand) -> tuple[Wait, ...]:
    return tuple(wait for wait in waits(hand) if not wait.exhausted)


def is_tenpai(hand: Hand) -> bool:
    """Tenpai: at least one wait that can still come."""
    return bool(live_waits(hand))
