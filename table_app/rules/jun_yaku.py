"""純麻雀's own yaku and han (seed 001 第26条), for its fixed points table (第25条).

▽ marks a yaku for closed hands only; ▼ one that loses a han when open ("食い下がり").
No dora of any kind, no ippatsu, haitei, rinshan or chankan. 役満貫 (big three dragons,
four concealed triplets, little four winds, all green) is worth the 10-han row (27000);
大役満 (all honours, big four winds, all terminals, nine gates, thirteen orphans) 30000.
A complete hand with no yaku still wins, on the 0-han row (600).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from table_app.domain.hand import Hand
from table_app.domain.meld import MeldKind
from table_app.domain.seat import Wind
from table_app.domain.tile import Tile
from table_app.rules.hand.decompose import decompositions
from table_app.rules.hand.groups import Decomposition, GroupKind, HandForm

_DRAGONS = (31, 32, 33)
_WINDS = (27, 28, 29, 30)
_GREEN = frozenset({19, 20, 21, 23, 25, 32})  # 2 3 4 6 8 sou and the green dragon
_TERMINALS = frozenset({0, 8, 9, 17, 18, 26})


@dataclass(frozen=True, slots=True)
class JunValue:
    han: int
    yaku: tuple[str, ...]
    limit: int  # 0, 1 = 役満貫, 2 = 大役満


@dataclass(frozen=True, slots=True)
class _Set:
    kind: str  # "sequence", "triplet" (kans too) or "pair"
    first: int
    concealed: bool


def _honour(kind: int) -> bool:
    return kind >= 27


def _terminal_or_honour(kind: int) -> bool:
    return kind >= 27 or kind in _TERMINALS


def _sets(reading: Decomposition, win: Tile, tsumo: bool) -> list[_Set]:
    sets = []
    ron_triplet_opened = False
    win_in_other_group = any(g.kind is not GroupKind.TRIPLET and win.kind in g.kinds for g in reading.groups)
    for group in reading.groups:
        concealed = True
        if group.kind is GroupKind.TRIPLET and group.first == win.kind and not tsumo and not win_in_other_group:
            concealed = ron_triplet_opened  # a triplet completed by ron counts as open, once
            ron_triplet_opened = True
        kind = "sequence" if group.kind is GroupKind.SEQUENCE else "pair" if group.kind is GroupKind.PAIR else "triplet"
        sets.append(_Set(kind, group.first, concealed))
    for meld in reading.melds:
        kind = "sequence" if meld.kind is MeldKind.CHI else "triplet"
        sets.append(_Set(kind, meld.kind34, meld.kind is MeldKind.CLOSED_KAN))
    return sets


def jun_value(hand: Hand, win: Tile, *, tsumo: bool, riichi: bool, seat_wind: Wind, round_wind: Wind) -> JunValue:
    """The best reading of ``hand`` (13-shaped) completed by ``win``; han 0 if complete without yaku."""
    full = hand.with_tile(win)
    readings = decompositions(full)
    if not readings:
        raise ValueError(f"{win} does not complete {hand}")
    closed = hand.is_closed
    best = JunValue(-1, (), 0)
    for reading in readings:
        value = _value(reading, full, win, closed=closed, tsumo=tsumo, riichi=riichi, seat=seat_wind, round_=round_wind)
        if (value.limit, value.han) > (best.limit, best.han):
            best = value
    return best


def _value(
    reading: Decomposition, full: Hand, win: Tile, *, closed: bool, tsumo: bool, riichi: bool, seat: Wind, round_: Wind
) -> JunValue:
    kinds = [t.kind for t in full.concealed] + [t.kind for m in full.melds for t in m.tiles]
    if reading.form is HandForm.THIRTEEN_ORPHANS:
        return JunValue(0, ("国士無双",), 2)
    grand = _grand_limits(full, kinds, closed)
    if grand:
        return JunValue(0, grand, 2)
    found: list[tuple[str, int]] = []
    if closed and tsumo:
        found.append(("自摸和", 1))
    if riichi:
        found.append(("立直", 1))
    if all(not _terminal_or_honour(k) for k in kinds):
        found.append(("断幺九", 1))
    _flush(found, kinds, closed)
    if reading.form is HandForm.SEVEN_PAIRS:
        found.append(("七対子", 1))
        return _total(found)
    sets = _sets(reading, win, tsumo)
    limits = _limits(sets, kinds)
    if limits:
        return JunValue(0, limits, 1)
    _sequences(found, sets, closed)
    _triplets(found, sets, seat, round_)
    _outside(found, sets, kinds, closed)
    return _total(found)


def _total(found: list[tuple[str, int]]) -> JunValue:
    return JunValue(sum(h for _, h in found), tuple(name for name, _ in found), 0)


def _flush(found: list[tuple[str, int]], kinds: list[int], closed: bool) -> None:
    suits = {k // 9 for k in kinds if not _honour(k)}
    if len(suits) == 1 and any(_honour(k) for k in kinds):
        found.append(("混一色", 3 if closed else 2))
    elif len(suits) == 1:
        found.append(("清一色", 6 if closed else 5))


def _grand_limits(full: Hand, kinds: list[int], closed: bool) -> tuple[str, ...]:
    names = []
    if all(_honour(k) for k in kinds):
        names.append("字一色")
    if all(k in _TERMINALS for k in kinds):
        names.append("清老頭")
    wind_triplets = sum(1 for k in _WINDS if kinds.count(k) >= 3)
    if wind_triplets == 4:
        names.append("大四喜")
    counts = Counter(kinds)
    if closed and not full.melds and len({k // 9 for k in kinds}) == 1 and not _honour(kinds[0]):
        base = kinds[0] // 9 * 9
        need = [3, 1, 1, 1, 1, 1, 1, 1, 3]
        if all(counts[base + i] >= need[i] for i in range(9)):
            names.append("九蓮宝灯")
    return tuple(names)


def _limits(sets: list[_Set], kinds: list[int]) -> tuple[str, ...]:
    names = []
    triplets = [s for s in sets if s.kind == "triplet"]
    pairs = [s for s in sets if s.kind == "pair"]
    if all(any(t.first == d for t in triplets) for d in _DRAGONS):
        names.append("大三元")
    if sum(1 for t in triplets if t.concealed) == 4:
        names.append("四暗刻")
    winds = sum(1 for t in triplets if t.first in _WINDS)
    if winds == 3 and pairs and pairs[0].first in _WINDS:
        names.append("小四喜")
    if all(k in _GREEN for k in kinds):
        names.append("緑一色")
    return tuple(names)


def _sequences(found: list[tuple[str, int]], sets: list[_Set], closed: bool) -> None:
    runs = Counter(s.first for s in sets if s.kind == "sequence")
    pairs = [s for s in sets if s.kind == "pair"]
    if closed and len(runs) and sum(runs.values()) == 4 and pairs and not _honour(pairs[0].first):
        found.append(("平和", 1))
    doubled = sum(n // 2 for n in runs.values())
    if any(n >= 3 for n in runs.values()):
        found.append(("同三順", 2))
    elif closed and doubled == 2:
        found.append(("両平行", 3))
    elif closed and doubled == 1:
        found.append(("一平行", 1))
    starts = set(runs)
    for suit in range(3):
        if {suit * 9, suit * 9 + 3, suit * 9 + 6} <= starts:
            found.append(("一通", 2 if closed else 1))
    for offset in range(7):
        if {offset, 9 + offset, 18 + offset} <= starts:
            found.append(("三色同順", 2 if closed else 1))


def _triplets(found: list[tuple[str, int]], sets: list[_Set], seat: Wind, round_: Wind) -> None:
    triplets = [s for s in sets if s.kind == "triplet"]
    firsts = {t.first for t in triplets}
    if len(triplets) == 4:
        found.append(("対々和", 2))
    if sum(1 for t in triplets if t.concealed) == 3:
        found.append(("三暗刻", 2))
    if sum(1 for k in _WINDS if k in firsts) == 3:
        found.append(("三風刻", 2))
    if any({n, 9 + n, 18 + n} <= firsts for n in range(9)):
        found.append(("三同刻", 2))
    if any(k < 27 and k % 9 <= 6 and {k, k + 1, k + 2} <= firsts for k in firsts):
        found.append(("三連刻", 1))
    pairs = [s for s in sets if s.kind == "pair"]
    if sum(1 for d in _DRAGONS if d in firsts) == 2 and pairs and pairs[0].first in _DRAGONS:
        found.append(("小三元", 2))
    for kind in sorted(firsts):
        if kind in _DRAGONS:
            found.append(("翻牌", 1))
        elif kind == 27 + seat and kind == 27 + round_:
            found.append(("連風牌", 2))
        elif kind in (27 + seat, 27 + round_):
            found.append(("翻牌", 1))


def _outside(found: list[tuple[str, int]], sets: list[_Set], kinds: list[int], closed: bool) -> None:
    def touches(s: _Set) -> bool:
        span = (s.first, s.first + 2) if s.kind == "sequence" else (s.first,)
        return any(_terminal_or_honour(k) for k in span)

    if not all(touches(s) for s in sets):
        return
    has_sequence = any(s.kind == "sequence" for s in sets)
    has_honour = any(_honour(k) for k in kinds)
    if not has_sequence:
        found.append(("混老頭", 3))
    elif has_honour:
        found.append(("全帯幺九", 2 if closed else 1))
    else:
        found.append(("純全帯", 3 if closed else 2))
