"""A logged game's public events as the observations a table would have posted (pure).

The inverse of the referee's reading: each discard becomes a tile in a pond, each call a meld
with its turned tile, each win a hand laid open with the winning tile set apart, each draw the
tenpai hands shown and the referee's CONFIRM; with ``trays``, the sensor board's readings after
each act. The referee core then has to rebuild the game from these alone. The runtime's log
feed plays them as the camera (``jantaku demo --camera log``, :mod:`table_app.runtime.log_feed`),
the demo's rendered world shows each at its moment (``vision.render.game_scene``), and the tests
drive the live referee with them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from table_app.domain.seat import Seat
from table_app.domain.tile import UNKNOWN, Tile
from table_app.interpret.board_wall import board_wall_shown
from table_app.interpret.tray_debts import trays_for_scores
from table_app.observations import (
    ButtonPress,
    DoraRevealed,
    HandLaidOpen,
    HandStarted,
    LinkChanged,
    LinkHealth,
    MeldAppeared,
    MeldExtended,
    Observation,
    PondTileAdded,
    PondTileRemoved,
    ProfileChosen,
    RefereeButton,
    TraysRead,
    UraIndicatorsRevealed,
)
from table_app.rules.events import (
    Ankan,
    Chi,
    Chombo,
    Dahai,
    Daiminkan,
    Dora,
    DrawKind,
    EndKyoku,
    GameEvent,
    Hora,
    Kakan,
    Pon,
    ProfileChange,
    Reach,
    ReachAccepted,
    Ryukyoku,
    StartKyoku,
    Tsumo,
)
from table_app.rules.fold import apply, new_game
from table_app.rules.profiles import TENHOU, RuleProfile
from table_app.rules.state import GameState, KyokuState


@dataclass(frozen=True, slots=True)
class FeedOptions:
    trays: bool = False  # also play the sensor board: wall, deposit and trays after each act
    step_s: float = 0.0  # the feed's clock step between observations


def log_observations(
    events: tuple[GameEvent, ...], profile: RuleProfile = TENHOU, options: FeedOptions = FeedOptions()
) -> Iterator[Observation]:
    """The observations a camera (and board) would have posted while ``events`` were played."""
    state = new_game(profile)
    clock = 0.0
    riichi_next: set[Seat] = set()
    if options.trays:
        yield LinkChanged(clock, LinkHealth.CONNECTED, "log feed")
    for event in events:
        before = state
        state = apply(state, event)
        for observation in event_observations(before, event, riichi_next, clock):
            clock += options.step_s
            yield observation
        if options.trays and isinstance(event, (Tsumo, ReachAccepted, EndKyoku, StartKyoku)):
            yield trays_read(state, clock)


def observation_counts(events: list[GameEvent], profile: RuleProfile = TENHOU) -> list[int]:
    """How many observations the feed (without trays) posts for each event: the feed's clock."""
    state = new_game(profile)
    riichi_next: set[Seat] = set()
    counts = []
    for event in events:
        before = state
        state = apply(state, event)
        counts.append(len(event_observations(before, event, riichi_next, 0.0)))
    return counts


def trays_read(state: GameState, at: float) -> TraysRead:
    """What the sensor board reads with the game at ``state``: trays, deposit, wall, kans."""
    hand = state.hand
    if hand is None:
        kyotaku = state.next_hand.kyotaku if state.next_hand is not None else 0
        return TraysRead(at, tuple(trays_for_scores(state.scores)), kyotaku, 0)
    wall = board_wall_shown(hand.live_wall, state.profile)
    return TraysRead(at, tuple(trays_for_scores(hand.scores)), hand.kyotaku, wall, len(hand.kans))


def event_observations(
    before: GameState, event: GameEvent, riichi_next: set[Seat], at: float
) -> tuple[Observation, ...]:
    """What the camera (and the referee's CONFIRM) shows of ``event`` played on ``before``:
    the feed's clock counts these. ``riichi_next`` carries the seats whose next discard is the
    riichi tile from one call to the next. Also what the demo's rendered world shows when
    (``vision.render.game_scene``)."""
    hand = before.hand
    match event:
        case StartKyoku():
            return (HandStarted(at), DoraRevealed(at, event.dora_marker))
        case Reach():
            riichi_next.add(event.actor)
        case Dahai():
            sideways = event.actor in riichi_next
            riichi_next.discard(event.actor)
            return (PondTileAdded(at, event.actor, event.pai, sideways),)
        case Chi() | Pon() | Daiminkan():
            tiles = (event.pai, *event.consumed)
            return (
                MeldAppeared(at, event.actor, tiles, event.pai, event.target),
                PondTileRemoved(at, event.target, event.pai),
            )
        case Ankan():
            return (MeldAppeared(at, event.actor, event.consumed, None, None),)
        case Kakan():
            return (MeldExtended(at, event.actor, event.pai),)
        case Dora():
            return (DoraRevealed(at, event.dora_marker),)
        case Hora() if hand is not None:
            concealed = event.hand if event.hand is not None else _without_winning(hand, event)
            shown = HandLaidOpen(at, event.actor, (*concealed, event.pai), event.pai)
            return (UraIndicatorsRevealed(at, event.ura_markers), shown) if event.ura_markers else (shown,)
        case Ryukyoku() if hand is not None:
            return draw_observations(before, event, at)
        case EndKyoku():
            return (ButtonPress(at, RefereeButton.CONFIRM),)
        case Chombo():
            return (ButtonPress(at, RefereeButton.CONFIRM),)  # the referee confirms the penalty asked
        case ProfileChange():
            return (ProfileChosen(at, event.profile),)  # on the console, between hands
    return ()


def _without_winning(hand: KyokuState, event: Hora) -> tuple[Tile, ...]:
    """The winner's concealed tiles without the winning tile (a tsumo holds it already)."""
    concealed = list(hand.player(event.actor).concealed)
    if event.actor == event.target:
        concealed.remove(event.pai if event.pai in concealed else UNKNOWN)
    return tuple(concealed)


def draw_observations(before: GameState, event: Ryukyoku, at: float) -> tuple[Observation, ...]:
    """What the table shows of a drawn hand: the hands laid open, and the CONFIRM that declares it."""
    hand = before.hand
    assert hand is not None
    declarer = event.actor if event.actor is not None else hand.turn
    if event.kind is DrawKind.NINE_TERMINALS and declarer is not None:
        # The hand as the log shows it (a transcript does not know another player's tiles).
        declared = next((s.tiles for s in event.shown if s.seat == declarer), hand.player(declarer).concealed)
        return (HandLaidOpen(at, declarer, declared),)
    if event.kind is DrawKind.TRIPLE_RON and hand.last_discard_tile is not None:
        # Three hands laid open on one discard: the third ron makes it the abortive draw.
        won = hand.last_discard_tile
        return tuple(HandLaidOpen(at, seat, (*hand.player(seat).concealed, won), won) for seat in hand.could_ron)
    if event.kind in (DrawKind.FOUR_RIICHI, DrawKind.FOUR_KANS):
        # The hands shown (every riichi hand, 003), then the referee's CONFIRM declares the draw.
        laid_open = tuple(HandLaidOpen(at, s.seat, s.tiles) for s in event.shown)
        return (*laid_open, ButtonPress(at, RefereeButton.CONFIRM))
    if hand.live_wall > 0 or event.kind not in (DrawKind.EXHAUSTIVE, DrawKind.UNSPECIFIED, DrawKind.NAGASHI_MANGAN):
        return ()  # four winds: seen in the ponds
    # The hands the rules find tenpai are laid open: as the log shows them, or as it knows them.
    # If the log knows one of them neither way (a client transcript), only what it shows is shown.
    ended = apply(apply(before, event), EndKyoku())
    shown = {s.seat: s.tiles for s in event.shown}
    laid: list[Observation] = []
    # A riichi hand is shown whether tenpai or not (spec §4): a noten one is for the referee to see.
    riichi = [s for s in Seat if hand.player(s).in_riichi and s in shown]
    for seat in sorted({*ended.results[-1].tenpai, *riichi}):
        tiles = shown.get(seat) or (hand.player(seat).concealed if hand.player(seat).hand_known else None)
        if tiles is None:
            return tuple(HandLaidOpen(at, s.seat, s.tiles) for s in event.shown)
        laid.append(HandLaidOpen(at, seat, tiles))
    return tuple(laid)
