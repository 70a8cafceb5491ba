"""Filling the tiles a camera never saw, for formats that need every tile (tenhou.net/6).

Only for export, only when asked (``jantaku export --format tenhou --fill-hidden``): the
referee itself never guesses. Each hidden tile of a hand (a starting tile or a draw) is
bound to the first known tile it must have been, as the tiles leave the hand (discards,
calls, kans, the hand laid open at the end); the hidden tiles that never leave are filled
from the tiles nobody saw. Every public event stays as it was, so the game replays to the
same results.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from itertools import count

from table_app.domain.seat import Seat
from table_app.domain.tile import COPIES_PER_KIND, KIND_COUNT, RED_FIVE_KINDS, UNKNOWN, Tile, tile_of_kind
from table_app.rules.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    DrawKind,
    EndKyoku,
    GameEvent,
    Hora,
    Kakan,
    Pon,
    Reach,
    Ryukyoku,
    StartKyoku,
    Tsumo,
)
from table_app.rules.fold import apply, new_game
from table_app.rules.legality import judge
from table_app.rules.profiles import RuleProfile


class FillError(ValueError):
    pass


@dataclass
class _Slot:
    """A hidden tile: where it came from, and what it turned out to be."""

    id: int
    drawn: bool
    tile: Tile | None = None


@dataclass
class _HandFill:
    red_fives: bool
    hands: list[list[_Slot | Tile]] = field(default_factory=lambda: [[], [], [], []])
    slots: dict[int, _Slot] = field(default_factory=dict)
    seen: list[Tile] = field(default_factory=list)
    ids: count[int] = field(default_factory=count)
    start_index: int = 0  # where the hand's start_kyoku is in the output
    haipai: list[_Slot | Tile] = field(default_factory=list)  # the four starting hands, in seat order
    draws: list[tuple[int, _Slot | Tile]] = field(default_factory=list)  # each tsumo: output index, tile
    riichi: set[Seat] = field(default_factory=set)
    noten: set[Seat] = field(default_factory=set)  # not shown at an exhaustive draw: must stay noten

    def token(self, tile: Tile, *, drawn: bool) -> _Slot | Tile:
        if not tile.is_unknown:
            self.seen.append(tile)
            return tile
        slot = _Slot(next(self.ids), drawn)
        self.slots[slot.id] = slot
        return slot

    def leave(self, seat: Seat, tile: Tile, *, tsumogiri: bool = False) -> None:
        """``tile`` left ``seat``'s hand: a known copy, else a hidden one becomes it."""
        hand = self.hands[seat]
        if tile in hand:
            hand.remove(tile)
            return
        hidden = [t for t in hand if isinstance(t, _Slot)]
        if not hidden:
            raise FillError(f"seat {int(seat)} gives up {tile} it cannot hold")
        # A tsumogiri is the tile just drawn; otherwise an older hidden tile.
        slot = hidden[-1] if tsumogiri else next((s for s in hidden if not s.drawn), hidden[0])
        slot.tile = tile
        self.seen.append(tile)
        hand.remove(slot)

    def fill_rest(self) -> None:
        pool = Counter[Tile]()
        for number in range(KIND_COUNT):
            if self.red_fives and number in RED_FIVE_KINDS:
                pool[tile_of_kind(number, red=True)] += 1
                pool[tile_of_kind(number)] += COPIES_PER_KIND - 1
            else:
                pool[tile_of_kind(number)] += COPIES_PER_KIND
        pool.subtract(Counter(self.seen))
        # A riichi hand never shown must still be tenpai: sets from the unseen tiles and a
        # single tile (a tanki wait).
        for seat in sorted(self.riichi):
            hidden = [t for t in self.hands[seat] if isinstance(t, _Slot) and t.tile is None]
            held = [self.bound(t) for t in self.hands[seat] if isinstance(t, Tile) or t.tile is not None]
            for start in range(0, len(hidden) - 1, 3):
                # Sets away from what the hand holds, so the hand reads one way only (its waits
                # stay the same across a closed kan after riichi).
                group = _a_set(pool, held)
                if group is None:
                    break
                held += group
                for slot, tile in zip(hidden[start : start + 3], group, strict=True):
                    slot.tile = tile
                pool.subtract(Counter(group))
        for seat in sorted(self.riichi | self.noten):
            self._fill_isolated(seat, pool)  # a riichi hand's single tile; a noten hand's every tile
        spare = sorted((t for t, n in pool.items() if n > 0 for _ in range(n)), key=lambda t: (t.kind, t.red))
        for slot in self.slots.values():
            if slot.tile is None:
                if not spare:
                    raise FillError("more hidden tiles than unseen tiles")
                slot.tile = spare.pop()

    def _fill_isolated(self, seat: Seat, pool: Counter[Tile]) -> None:
        """Tiles far from each other (no pairs, no neighbours where it can be helped), checked noten."""
        hidden = [t for t in self.hands[seat] if isinstance(t, _Slot) and t.tile is None]
        known = [t for t in self.hands[seat] if isinstance(t, Tile)] + [
            t.tile for t in self.hands[seat] if isinstance(t, _Slot) and t.tile is not None
        ]
        chosen: list[Tile] = []
        for _ in hidden:
            taken = [*known, *chosen]
            candidates = [t for t, n in pool.items() if n > 0]
            if not candidates:
                raise FillError("more hidden tiles than unseen tiles")
            best = min(candidates, key=lambda t: (_closeness(t, taken), t.kind, t.red))
            chosen.append(best)
            pool[best] -= 1
        for slot, tile in zip(hidden, chosen, strict=True):
            slot.tile = tile

    def bound(self, token: _Slot | Tile) -> Tile:
        if isinstance(token, Tile):
            return token
        assert token.tile is not None
        return token.tile


def _closeness(tile: Tile, others: list[Tile]) -> int:
    """How much ``tile`` would help a hand holding ``others``: pairs and near neighbours count."""
    score = 0
    for other in others:
        if other.kind == tile.kind:
            score += 10
        elif tile.kind < 27 and other.kind // 9 == tile.kind // 9 and abs(other.kind - tile.kind) <= 2:
            score += 3
    return score


def _a_set(pool: Counter[Tile], near: list[Tile]) -> tuple[Tile, Tile, Tile] | None:
    """Three unseen tiles that make a set (a triplet or a run), the one least connected with
    the tiles ``near`` (pairs and neighbours)."""
    plain = sorted((t for t, n in pool.items() if n > 0), key=lambda t: (t.kind, t.red))
    kinds = {t.kind: t for t in plain}
    sets = [(t, t, t) for t in plain if pool[t] >= 3]
    sets += [
        (t, kinds[t.kind + 1], kinds[t.kind + 2])
        for t in plain
        if t.kind < 27 and t.kind % 9 <= 6 and t.kind + 1 in kinds and t.kind + 2 in kinds
    ]
    if not sets:
        return None
    return min(sets, key=lambda group: sum(_closeness(t, near) for t in group))


def fill_hidden(events: list[GameEvent], red_fives: bool = True) -> list[GameEvent]:
    out: list[GameEvent] = []
    fill: _HandFill | None = None
    for event in events:
        if isinstance(event, StartKyoku):
            fill = _HandFill(red_fives, start_index=len(out))
            fill.seen.append(event.dora_marker)
            hands = [[fill.token(t, drawn=False) for t in tiles] for tiles in event.tehais]
            fill.hands = [list(h) for h in hands]
            fill.haipai = [t for h in hands for t in h]
        elif fill is not None:
            _follow(fill, event, len(out))
        out.append(event)
        if fill is not None and isinstance(event, EndKyoku):
            fill.fill_rest()
            _rewrite(out, fill)
            fill = None
    if fill is not None:  # the hand still in play
        fill.fill_rest()
        _rewrite(out, fill)
    return out


def _follow(fill: _HandFill, event: GameEvent, index: int) -> None:
    match event:
        case Tsumo():
            token = fill.token(event.pai, drawn=True)
            fill.hands[event.actor].append(token)
            fill.draws.append((index, token))
        case Dahai():
            fill.leave(event.actor, event.pai, tsumogiri=event.tsumogiri)
        case Chi() | Pon() | Daiminkan():
            # The called tile was counted as seen when it was discarded.
            for tile in event.consumed:
                fill.leave(event.actor, tile)
        case Kakan():
            fill.leave(event.actor, event.pai, tsumogiri=True)
        case Ankan():
            # One of the four is taken to be the tile just drawn (after riichi it has to be).
            for number, tile in enumerate(event.consumed):
                fill.leave(event.actor, tile, tsumogiri=number == 0)
        case Dora():
            fill.seen.append(event.dora_marker)
        case Reach():
            fill.riichi.add(event.actor)
        case Hora():
            fill.seen.extend(event.ura_markers)
            if event.actor == event.target:
                fill.leave(event.actor, event.pai, tsumogiri=True)  # a tsumo wins on the tile just drawn
            for tile in event.hand or ():
                fill.leave(event.actor, tile)
        case Ryukyoku():
            if event.kind in (DrawKind.EXHAUSTIVE, DrawKind.UNSPECIFIED, DrawKind.NAGASHI_MANGAN):
                fill.noten |= set(Seat) - {s.seat for s in event.shown}
            for shown in event.shown:
                for tile in shown.tiles:
                    fill.leave(shown.seat, tile)


def _rewrite(out: list[GameEvent], fill: _HandFill) -> None:
    start = out[fill.start_index]
    assert isinstance(start, StartKyoku)
    tiles = [fill.bound(t) for t in fill.haipai]
    out[fill.start_index] = replace(start, tehais=tuple(tuple(tiles[13 * s : 13 * s + 13]) for s in range(4)))
    for index, token in fill.draws:
        event = out[index]
        if isinstance(event, Tsumo) and event.pai == UNKNOWN:
            out[index] = replace(event, pai=fill.bound(token))


def check_filled(original: list[GameEvent], filled: list[GameEvent], profile: RuleProfile) -> None:
    """Raise :class:`FillError` if an act the rules accepted with the tiles hidden is not legal
    with them filled (a riichi hand filled so that a later closed kan changes its waits, say):
    a filled game must be one the rules, and so other readers, accept."""
    before, after = new_game(profile), new_game(profile)
    for number, (old, new) in enumerate(zip(original, filled, strict=True), start=1):
        if before.hand is not None and after.hand is not None and judge(before.hand, old, profile).accepted:
            verdict = judge(after.hand, new, profile)
            if not verdict.accepted:
                raise FillError(
                    f"event {number} ({type(new).__name__}) would not be legal with them filled ({verdict.message})"
                )
        before, after = apply(before, old), apply(after, new)
