"""What a perfect camera reads after each public event of a logged game: ``TableReading`` values.

Every visible change (a discard, a call, a kan, a new indicator, a hand laid open, the table
cleared) is shown for ``frames`` identical readings; the referee's CONFIRM after an exhaustive
draw's hands are shown is a ``ButtonPress`` in the stream (the camera cannot see it).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from table_app.domain.seat import Relation, Seat
from table_app.domain.tile import UNKNOWN, Tile

# What a draw shows and what the board reads: the log feed's own rules, not copies.
from table_app.interpret.event_observations import draw_observations, trays_read
from table_app.observations import ButtonPress, HandLaidOpen, LinkChanged, LinkHealth, Observation, RefereeButton
from table_app.rules.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    EndKyoku,
    GameEvent,
    Hora,
    Kakan,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    StartKyoku,
    Tsumo,
)
from table_app.rules.fold import apply, new_game
from table_app.rules.profiles import TENHOU, RuleProfile
from table_app.rules.state import GameState
from vision.live.reading import SeatReading, SeenMeld, SeenTile, TableReading

_TURNED_AT = {
    3: {Relation.LEFT: 0, Relation.ACROSS: 1, Relation.RIGHT: 2},
    4: {Relation.LEFT: 0, Relation.ACROSS: 1, Relation.RIGHT: 3},
}


def seen(tile: Tile, sideways: bool = False) -> SeenTile:
    return SeenTile(tile, 1.0, sideways)


def called_meld(owner: Seat, source: Seat, called: Tile, consumed: tuple[Tile, ...]) -> SeenMeld:
    """The meld as its owner lays it: the called tile turned on the side it came from."""
    size = len(consumed) + 1
    at = _TURNED_AT[size][owner.relation_to(source)]
    tiles = [seen(t) for t in consumed]
    tiles.insert(at, seen(called, sideways=True))
    return SeenMeld(tuple(tiles), at)


@dataclass
class _Table:
    ponds: list[list[SeenTile]] = field(default_factory=lambda: [[] for _ in range(4)])
    melds: list[list[SeenMeld]] = field(default_factory=lambda: [[] for _ in range(4)])
    hands: dict[Seat, tuple[tuple[SeenTile, ...], SeenTile | None]] = field(default_factory=dict)
    dora: list[SeenTile] = field(default_factory=list)
    ura: tuple[SeenTile, ...] = ()

    @property
    def empty(self) -> bool:
        return not any(self.ponds) and not any(self.melds) and not self.hands and not self.dora

    def reading(self, at: float) -> TableReading:
        seats = tuple(
            SeatReading(
                tuple(self.ponds[s]),
                tuple(self.melds[s]),
                self.hands.get(Seat(s), ((), None))[0],
                self.hands.get(Seat(s), ((), None))[1],
            )
            for s in range(4)
        )
        return TableReading(at, seats, tuple(self.dora), self.ura)  # type: ignore[arg-type]


def perfect_readings(
    events: tuple[GameEvent, ...],
    profile: RuleProfile = TENHOU,
    frames: int = 2,
    clear_at_end: bool = True,
    board: bool = False,
) -> Iterator[TableReading | Observation]:
    """Readings, the referee's CONFIRM at a draw and, with ``board``, the sensor board's readings
    where the log feed posts them (after each draw, accepted riichi, hand end and deal)."""
    state = new_game(profile)
    table = _Table()
    riichi_next: set[Seat] = set()
    clock = 0.0

    def show() -> Iterator[TableReading]:
        nonlocal clock
        for _ in range(frames):
            clock += 0.1
            yield table.reading(clock)

    if board:
        yield LinkChanged(clock, LinkHealth.CONNECTED, "perfect table")
    for event in events:
        before = state
        state = apply(state, event)
        hand = before.hand
        yield from _board_after(event, state, clock) if board else ()
        match event:
            case StartKyoku():
                if not table.empty:
                    table = _Table()
                    yield from show()
                table.dora.append(seen(event.dora_marker))
            case Reach():
                riichi_next.add(event.actor)
                continue
            case Dahai():
                table.ponds[event.actor].append(seen(event.pai, sideways=event.actor in riichi_next))
                riichi_next.discard(event.actor)
            case Chi() | Pon() | Daiminkan():
                table.ponds[event.target].pop()
                table.melds[event.actor].append(called_meld(event.actor, event.target, event.pai, event.consumed))
            case Ankan():
                faces = sorted(event.consumed, key=lambda t: t.red, reverse=True)  # a red five shown face up
                shown = (seen(UNKNOWN), seen(faces[0]), seen(faces[1]), seen(UNKNOWN))
                table.melds[event.actor].append(SeenMeld(shown, None))
            case Kakan():
                melds = table.melds[event.actor]
                index = next(
                    i for i, m in enumerate(melds) if len(m.tiles) == 3 and m.tiles[0].tile.kind == event.pai.kind
                )
                melds[index] = replace(melds[index], added=seen(event.pai, sideways=True))
            case Dora():
                table.dora.append(seen(event.dora_marker))
            case Hora() if hand is not None:
                concealed = (
                    event.hand
                    if event.hand is not None
                    else _without_winning(hand.player(event.actor).concealed, event)
                )
                table.hands[event.actor] = (tuple(seen(t) for t in concealed), seen(event.pai))
                if event.ura_markers:
                    table.ura = tuple(seen(t) for t in event.ura_markers)
            case Ryukyoku() if hand is not None:
                # The hands shown at a draw are the log feed's (the rules' tenpai hands, nine
                # terminals, the three hands of a triple ron); then the referee's CONFIRM.
                for shown in draw_observations(before, event, clock):
                    if isinstance(shown, HandLaidOpen):
                        table.hands[shown.seat] = _laid_open(shown)
                yield from show()
                yield ButtonPress(clock, RefereeButton.CONFIRM)
                continue
            case _:
                continue
        yield from show()
        if board and isinstance(event, StartKyoku):
            yield trays_read(state, clock)
    if clear_at_end and not table.empty:
        table = _Table()
        yield from show()


def _without_winning(concealed: tuple[Tile, ...], win: Hora) -> tuple[Tile, ...]:
    """A tsumo winner's concealed tiles hold the drawn tile: it is the one set apart."""
    rest = list(concealed)
    if win.actor == win.target:
        rest.remove(win.pai if win.pai in rest else UNKNOWN)
    return tuple(rest)


def _laid_open(shown: HandLaidOpen) -> tuple[tuple[SeenTile, ...], SeenTile | None]:
    rest = list(shown.tiles)
    if shown.winning is not None:
        del rest[len(rest) - 1 - rest[::-1].index(shown.winning)]  # the last copy: the one set apart
    return tuple(seen(t) for t in rest), None if shown.winning is None else seen(shown.winning)


def _board_after(event: GameEvent, state: GameState, clock: float) -> Iterator[Observation]:
    """The board's reading after a draw, an accepted riichi or a hand's end (before the table
    shows anything of it). The one after a deal comes with the deal's indicator (below)."""
    if isinstance(event, (Tsumo, ReachAccepted, EndKyoku)):
        yield trays_read(state, clock)
