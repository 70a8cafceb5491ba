"""A logged game as the tables a camera over it would see, one scene per visible change.

Pure: the game's events are folded with the rules core (``table_app.rules.fold``) and what
becomes visible when is what a logged game is observed as (``table_app.interpret.event_observations``): a discard
lands at the end of its pond (sideways for the riichi tile, or the discard after a riichi tile
that was called away, as the rules say), a call takes the tile out of the discarder's pond and
lays the meld with the called tile turned towards whom it came from, a closed kan shows its
ends face down, an added kan its fourth tile beside the turned one, a kan turns the next dora
indicator, a win lays the winner's hand open with the winning tile set apart (and the ura
indicators after a riichi win), an exhaustive draw the tenpai hands. Between hands the table
is cleared; the walls rise with the next hand's first indicator.

Each scene also names the board's moment that goes with it (``board_at``, on the log feed's
clock: one unit per observation the feed would post), so a simulated sensor board playing the
log's table script (``table_app.runtime.log_table_script`` with ``step_s = 1``) stays in step
with the camera, and says when the referee's CONFIRM at a hand's end is due.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from table_app.domain.seat import Relation, Seat
from table_app.domain.tile import Tile, display_order
from table_app.interpret.event_observations import event_observations
from table_app.observations import HandLaidOpen, UraIndicatorsRevealed
from table_app.rules.events import (
    Ankan,
    Chi,
    Daiminkan,
    Dora,
    EndKyoku,
    GameEvent,
    Hora,
    Kakan,
    Pon,
    Ryukyoku,
    StartKyoku,
)
from table_app.rules.fold import apply, new_game
from table_app.rules.profiles import TENHOU, RuleProfile
from table_app.rules.state import GameState
from vision.render.layout import MeldLayout, PondLayout, SeatLayout, TableLayout

#: The live wall's stacks, filled from the last drawn: the dead wall's own side keeps the
#: stacks beside the dead wall, the others a whole wall each.
_STACKS_BESIDE_DEAD_WALL = 9
_STACKS_PER_WALL = 17

_EMPTY_SEAT = SeatLayout(PondLayout(()))
EMPTY_TABLE = TableLayout((_EMPTY_SEAT, _EMPTY_SEAT, _EMPTY_SEAT, _EMPTY_SEAT))


@dataclass(frozen=True, slots=True)
class Scene:
    layout: TableLayout
    hand: int  # the game's hand number from 0 (tiles are placed per hand)
    board_at: float  # the board script's steps at or before this clock have happened
    after_event: int  # index of the last event this scene shows (-1: before the first)
    confirm: bool = False  # the referee presses CONFIRM as the table comes to this scene
    cleared: bool = False  # the table between hands (walls down, nothing on it)


@dataclass
class _Table:
    """The hand's visible things, as the scenes are built (seat order as the game's)."""

    dead_wall_seat: int
    dora: list[Tile]
    melds: list[list[MeldLayout]] = field(default_factory=lambda: [[], [], [], []])
    open_hands: dict[int, tuple[tuple[Tile, ...], Tile | None]] = field(default_factory=dict)
    ura: tuple[Tile, ...] = ()

    def layout(self, state: GameState) -> TableLayout:
        hand = state.hand
        seats = []
        stacks = _wall_stacks(hand.live_wall if hand is not None else 0, self.dead_wall_seat)
        for seat in range(4):
            pond = _pond(state, seat)
            shown, winning = self.open_hands.get(seat, ((), None))
            seats.append(SeatLayout(pond, tuple(self.melds[seat]), shown, stacks[seat], winning))
        return TableLayout((seats[0], seats[1], seats[2], seats[3]), tuple(self.dora), self.dead_wall_seat, self.ura)


def game_scenes(events: Iterable[GameEvent], profile: RuleProfile = TENHOU) -> tuple[Scene, ...]:
    """Every table a camera sees while ``events`` are played, in order; the first and last are
    cleared tables (the last one is where the final hand's CONFIRM comes)."""
    state = new_game(profile)
    riichi_next: set[Seat] = set()
    clock = 0  # the log feed's clock: observations posted before this event
    hand = -1
    table: _Table | None = None
    scenes: list[Scene] = []
    confirm_due = False
    index = -1
    for index, event in enumerate(events):
        before = state
        state = apply(state, event)
        seen = event_observations(before, event, riichi_next, 0.0)
        after = clock + len(seen) - 0.5  # everything the board does up to the next event
        match event:
            case StartKyoku():
                hand += 1
                # The walls rise while the table is clear; the dealer's wall is broken for the dead wall.
                scenes.append(Scene(EMPTY_TABLE, hand, clock + 0.5, index - 1, confirm_due, cleared=True))
                confirm_due = False
                table = _Table(int(event.oya), [event.dora_marker])
            case EndKyoku() if table is not None and scenes:
                # The payments are made on the board; the CONFIRM comes once they are.
                scenes.append(replace(scenes[-1], board_at=clock + 0.5, after_event=index, confirm=False))
                confirm_due = True
            case _ if table is not None and seen:
                _show(table, event, seen)
            case _:
                pass
        if table is not None and seen and not isinstance(event, EndKyoku):
            scenes.append(Scene(table.layout(state), hand, after, index))
        clock += len(seen)
    if scenes:
        scenes.append(Scene(EMPTY_TABLE, hand + 1, clock + 0.5, index, confirm_due, cleared=True))
    return tuple(scenes)


def _show(table: _Table, event: GameEvent, seen: tuple[object, ...]) -> None:
    """What ``event`` adds to the table beyond the ponds (which come from the fold)."""
    match event:
        case Chi() | Pon() | Daiminkan():
            relation = event.actor.relation_to(event.target)
            table.melds[event.actor].append(called_meld(event.pai, event.consumed, relation))
        case Ankan():
            table.melds[event.actor].append(closed_kan(event.consumed))
        case Kakan():
            melds = table.melds[event.actor]
            # The pon it extends: three tiles of the kind, one turned, nothing added yet.
            kind = event.pai.kind
            at = next(
                i
                for i, m in enumerate(melds)
                if m.added is None and m.turned_at is not None and len(m.tiles) == 3 and m.tiles[0].kind == kind
            )
            melds[at] = replace(melds[at], added=event.pai)
        case Dora():
            table.dora.append(event.dora_marker)
        case Hora() | Ryukyoku():
            if isinstance(event, Hora) and event.target != event.actor:
                _robbed(table.melds[event.target], event.pai)
            for observation in seen:
                if isinstance(observation, HandLaidOpen):
                    table.open_hands[int(observation.seat)] = _laid_open(observation)
                elif isinstance(observation, UraIndicatorsRevealed):
                    table.ura = observation.indicators


def _robbed(melds: list[MeldLayout], won_on: Tile) -> None:
    """A ron on the tile an added kan lays (robbing the kan, chankan): the winner takes it, so
    the meld stays the pon it was. A discard of that kind cannot be won on otherwise: the kan
    holds all four."""
    for at, meld in enumerate(melds):
        if meld.added is not None and meld.added.kind == won_on.kind:
            melds[at] = replace(meld, added=None)


def called_meld(called: Tile, consumed: tuple[Tile, ...], relation: Relation) -> MeldLayout:
    """A chi, pon or open kan as its owner lays it: the called tile turned on the side it came
    from (the left player's: leftmost; across: the middle, the second of a kan; right: rightmost)."""
    size = len(consumed) + 1
    turned_at = {Relation.LEFT: 0, Relation.ACROSS: 1, Relation.RIGHT: size - 1}.get(relation)
    if turned_at is None:
        raise ValueError(f"a called tile comes from another seat, not {relation.name}")
    tiles = sorted(consumed, key=display_order)
    tiles.insert(turned_at, called)
    return MeldLayout(tuple(tiles), turned_at)


def closed_kan(tiles: tuple[Tile, ...]) -> MeldLayout:
    """Four tiles, the two ends face down; a red five is shown in the middle."""
    ordered = sorted(tiles, key=lambda t: (not t.red, display_order(t)))
    ordered.insert(1, ordered.pop(0))
    return MeldLayout(tuple(ordered), None, (0, 3))


def _laid_open(observation: HandLaidOpen) -> tuple[tuple[Tile, ...], Tile | None]:
    tiles = list(observation.tiles)
    if observation.winning is not None:
        tiles.remove(observation.winning)
    return tuple(sorted(tiles, key=display_order)), observation.winning


def _pond(state: GameState, seat: int) -> PondLayout:
    hand = state.hand
    if hand is None:
        return PondLayout(())
    # A called tile leaves the pond; the sideways tile is the riichi one (or the discard after a
    # riichi tile that was called away: the fold marks it so).
    kept = [p for p in hand.player(Seat(seat)).pond if not p.called]
    riichi_at = next((i for i, p in enumerate(kept) if p.riichi), None)
    return PondLayout(tuple(p.tile for p in kept), riichi_at)


def _wall_stacks(live_wall: int, dead_wall_seat: int) -> tuple[int, int, int, int]:
    """Stacks left in front of each seat: the last drawn are beside the dead wall, the walls
    before it (counter-clockwise from the dead wall's) are drawn first."""
    left = math.ceil(max(live_wall, 0) / 2)
    stacks = [0, 0, 0, 0]
    for offset, room in ((0, _STACKS_BESIDE_DEAD_WALL), (3, _STACKS_PER_WALL), (2, _STACKS_PER_WALL), (1, 0)):
        seat = (dead_wall_seat + offset) % 4
        stacks[seat] = min(left, room)
        left -= stacks[seat]
    return (stacks[0], stacks[1], stacks[2], stacks[3])
