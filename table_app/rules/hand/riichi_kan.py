"""Closed kan after riichi (立直後の暗槓): legal only if it changes nothing.

How much "nothing" means is a rule-profile switch (spec/rules.md §2.4):

- ``WAITS``: the set of waiting tiles stays (lenient local rule, 003). The kan need not use
  the drawn tile unless asked (Tenhou asks: it only offers the kan on the drawn tile).
- ``DECOMPOSITIONS``: every reading of the hand stays and the kan uses the tile just drawn
  (no 送り槓 / okuri-kan). The standard strict rule.
- ``YAKU``: as DECOMPOSITIONS, and no yaku may be lost (JPML, 000).
- ``FORBIDDEN``: no closed kan after riichi at all.

A second switch, ``count_exhausted_waits``, settles the case 000 leaves to the rule set: a
wait on a tile the hand holds all four of (e.g. 3m when the 3m kan is already down). Counted,
losing that wait is a change; not counted, only waits that can still come are compared.

The verdict names what changes: the wait gained or lost, the reading that disappears or
appears (and on which winning tile), or the yaku lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from table_app.domain.hand import WAITING_SIZE, Hand, HandError
from table_app.domain.meld import Meld, MeldKind
from table_app.domain.tile import Tile, display_order, tile_of_kind
from table_app.rules.hand.decompose import decompose_counts
from table_app.rules.hand.waits import Wait, waits
from table_app.rules.hand.yaku_reader import YakuReader


class KanStrictness(StrEnum):
    WAITS = "waits"
    DECOMPOSITIONS = "decompositions"
    YAKU = "yaku"
    FORBIDDEN = "forbidden"

    @property
    def requires_drawn_tile_by_default(self) -> bool:
        return self in (KanStrictness.DECOMPOSITIONS, KanStrictness.YAKU)


class KanReason(StrEnum):
    UNCHANGED = "unchanged"
    FORBIDDEN = "forbidden"
    OKURI_KAN = "okuri_kan"  # the kan does not use the tile just drawn
    WAITS_CHANGE = "waits_change"
    DECOMPOSITION_CHANGE = "decomposition_change"
    YAKU_LOST = "yaku_lost"


@dataclass(frozen=True, slots=True)
class RiichiKanVerdict:
    legal: bool
    code: KanReason
    reason: str
    waits_before: tuple[Wait, ...]
    waits_after: tuple[Wait, ...]


def check_riichi_closed_kan(
    hand: Hand,
    drawn: Tile,
    kan: Tile,
    strictness: KanStrictness,
    *,
    require_drawn_tile: bool | None = None,
    count_exhausted_waits: bool = True,
    yaku_reader: YakuReader | None = None,
) -> RiichiKanVerdict:
    """May a riichi player holding ``hand`` (13-shaped) who drew ``drawn`` make a closed kan
    of ``kan``'s kind? Raises :class:`HandError` when the hand cannot make that kan at all."""
    hand.require_size(WAITING_SIZE)
    drawn_hand = hand.with_tile(drawn)
    quad = [t for t in drawn_hand.concealed if t.kind == kan.kind]
    if len(quad) != 4:
        raise HandError(f"a closed kan of {kan.plain} needs four in hand, there are {len(quad)}", token=str(kan.plain))
    remaining = list(drawn_hand.concealed)
    for tile in quad:
        remaining.remove(tile)
    after = Hand(tuple(remaining), (*hand.melds, Meld(MeldKind.CLOSED_KAN, tuple(sorted(quad, key=display_order)))))
    before_waits = waits(hand)
    after_waits = waits(after)

    def verdict(legal: bool, code: KanReason, reason: str) -> RiichiKanVerdict:
        return RiichiKanVerdict(legal, code, reason, before_waits, after_waits)

    if strictness is KanStrictness.FORBIDDEN:
        return verdict(False, KanReason.FORBIDDEN, "this rule set forbids any closed kan after riichi")
    needs_drawn = strictness.requires_drawn_tile_by_default if require_drawn_tile is None else require_drawn_tile
    if needs_drawn and drawn.kind != kan.kind:
        return verdict(
            False,
            KanReason.OKURI_KAN,
            f"okuri-kan: the kan of {kan.plain} does not use the tile just drawn ({drawn})",
        )

    compared_before = _compared(before_waits, count_exhausted_waits)
    compared_after = _compared(after_waits, count_exhausted_waits)
    if compared_before != compared_after:
        lost = sorted(compared_before - compared_after)
        gained = sorted(compared_after - compared_before)
        parts = [f"{_kinds(lost)} lost" if lost else "", f"{_kinds(gained)} gained" if gained else ""]
        return verdict(
            False,
            KanReason.WAITS_CHANGE,
            f"waits change from {_kinds(sorted(compared_before))} to {_kinds(sorted(compared_after))}: "
            + ", ".join(p for p in parts if p),
        )
    if strictness is KanStrictness.WAITS:
        return verdict(True, KanReason.UNCHANGED, f"waits stay {_kinds(sorted(compared_before))}")

    for kind in sorted(compared_before):
        change = _reading_change(hand, after, kind, kan.kind)
        if change:
            return verdict(False, KanReason.DECOMPOSITION_CHANGE, change)
    if strictness is KanStrictness.DECOMPOSITIONS:
        return verdict(True, KanReason.UNCHANGED, f"waits {_kinds(sorted(compared_before))} and every reading stay")

    reader = yaku_reader or YakuReader()
    for wait in before_waits:
        if wait.exhausted:
            continue  # no win can happen on it, so no yaku can be lost on it
        win = wait.tile
        for tsumo in (False, True):
            lost_yaku = reader.yaku(hand, win, tsumo=tsumo) - reader.yaku(after, win, tsumo=tsumo)
            if lost_yaku:
                how = "tsumo" if tsumo else "ron"
                return verdict(
                    False,
                    KanReason.YAKU_LOST,
                    f"yaku lost when winning on {win} by {how}: {', '.join(sorted(lost_yaku))}",
                )
    return verdict(
        True, KanReason.UNCHANGED, f"waits {_kinds(sorted(compared_before))}, every reading and every yaku stay"
    )


def _compared(found: tuple[Wait, ...], count_exhausted: bool) -> frozenset[int]:
    return frozenset(w.tile.kind for w in found if count_exhausted or not w.exhausted)


def _kinds(kinds: list[int]) -> str:
    return " ".join(str(tile_of_kind(k)) for k in kinds) or "nothing"


def _reading_change(before: Hand, after: Hand, win_kind: int, kan_kind: int) -> str:
    """Compare the readings of the hand completed by ``win_kind`` before and after the kan."""
    before_counts = before.counts()
    before_counts[win_kind] += 1
    after_counts = after.counts()
    after_counts[win_kind] += 1
    before_readings = {d.signature(): d for d in decompose_counts(before_counts, before)}
    after_readings = {d.signature(kan_as_triplet=kan_kind): d for d in decompose_counts(after_counts, after)}
    win = tile_of_kind(win_kind)
    for signature, reading in before_readings.items():
        if signature not in after_readings:
            return f"on {win}, the reading {reading} disappears"
    for signature, reading in after_readings.items():
        if signature not in before_readings:
            return f"on {win}, the reading {reading} appears"
    return ""
