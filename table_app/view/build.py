"""Build a :class:`TableView` from the game state and what the runtime adds (a pure function)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from table_app.domain.meld import Meld
from table_app.domain.seat import Seat, Wind
from table_app.domain.seat_names import SeatNaming, seat_number
from table_app.domain.tile import Tile, display_order
from table_app.rules.state import GameState, KyokuState, PlayerState, PondTile, RiichiStage
from table_app.view.model import (
    AnnouncementText,
    DeviceStatus,
    MeldView,
    PondTileView,
    RiichiView,
    RoundLabel,
    SeatLabel,
    SeatView,
    TableView,
    TrayView,
)

WIND_NAMES: Final = ("East", "South", "West", "North")
WIND_LETTERS: Final = ("E", "S", "W", "N")
WIND_KANJI: Final = ("東", "南", "西", "北")
_RIICHI: Final = {
    RiichiStage.NONE: RiichiView.NONE,
    RiichiStage.DECLARED: RiichiView.DECLARED,
    RiichiStage.ACCEPTED: RiichiView.ACCEPTED,
}


@dataclass(frozen=True, slots=True)
class RuntimeExtras:
    """What the runtime knows beyond the game state: the view shows it as given."""

    sequence: int = 0
    announcement: AnnouncementText | None = None
    question: AnnouncementText | None = None
    link: DeviceStatus = DeviceStatus.ABSENT
    camera: DeviceStatus = DeviceStatus.ABSENT
    trays: tuple[int | None, ...] | None = None  # points per seat as the sensor board reads them


def round_label(bakaze: Wind, kyoku: int) -> RoundLabel:
    wind = WIND_NAMES[bakaze]
    return RoundLabel(wind=wind, number=kyoku, en=f"{wind} {kyoku}", ja=f"{WIND_KANJI[bakaze]}{kyoku}局")


def build_view(state: GameState, extras: RuntimeExtras = RuntimeExtras()) -> TableView:
    hand = state.hand
    if hand is not None:
        return _view_in_hand(state, hand, extras)
    return _view_between_hands(state, extras)


def _view_in_hand(state: GameState, hand: KyokuState, extras: RuntimeExtras) -> TableView:
    shown = _laid_open(hand)
    over = bool(hand.wins) or hand.result is not None  # won or drawn: waiting for end_kyoku
    seats = tuple(
        _seat_view(
            Seat(index),
            state,
            hand.scores[index],
            dealer=hand.oya,
            player=player,
            open_hand=shown.get(index),
            on_turn=hand.turn == index and not over,
            extras=extras,
        )
        for index, player in enumerate(hand.players)
    )
    return TableView(
        sequence=extras.sequence,
        profile=state.profile.name,
        in_hand=not over,
        round=round_label(hand.bakaze, hand.kyoku),
        honba=hand.honba,
        riichi_sticks=hand.kyotaku,
        dealer=int(hand.oya),
        dora_indicators=tuple(str(tile) for tile in hand.dora_markers),
        live_wall=hand.live_wall,
        seats=seats,
        announcement=extras.announcement,
        question=extras.question,
        link=extras.link,
        camera=extras.camera,
        finished=state.finished,
        final_points=state.final_points,
    )


def _view_between_hands(state: GameState, extras: RuntimeExtras) -> TableView:
    """Before the first hand, between hands (showing the hand to come) and after the game."""
    coming = state.next_hand if state.next_hand is not None and not state.next_hand.game_over else None
    dealer = coming.oya if coming is not None else None
    seats = tuple(
        _seat_view(
            Seat(index),
            state,
            score,
            dealer=dealer,
            player=None,
            open_hand=None,
            on_turn=False,
            extras=extras,
        )
        for index, score in enumerate(state.scores)
    )
    return TableView(
        sequence=extras.sequence,
        profile=state.profile.name,
        in_hand=False,
        round=None if coming is None else round_label(coming.bakaze, coming.kyoku),
        honba=0 if coming is None else coming.honba,
        riichi_sticks=0 if coming is None else coming.kyotaku,
        dealer=None if dealer is None else int(dealer),
        dora_indicators=(),
        live_wall=None,
        seats=seats,
        announcement=extras.announcement,
        question=extras.question,
        link=extras.link,
        camera=extras.camera,
        finished=state.finished,
        final_points=state.final_points,
    )


def _seat_view(
    seat: Seat,
    state: GameState,
    score: int,
    *,
    dealer: Seat | None,
    player: PlayerState | None,
    open_hand: tuple[str, ...] | None,
    on_turn: bool,
    extras: RuntimeExtras,
) -> SeatView:
    wind = None if dealer is None else seat.wind(dealer)
    tray_points = None if extras.trays is None or seat >= len(extras.trays) else extras.trays[seat]
    naming = SeatNaming(state.names, dealer)
    return SeatView(
        seat=int(seat),
        label=SeatLabel(seat_number(seat), naming.en(seat), naming.ja(seat), naming.person(seat)),
        wind="" if wind is None else WIND_LETTERS[wind],
        wind_ja="" if wind is None else WIND_KANJI[wind],
        name=state.names[seat] if seat < len(state.names) else "",
        score=score,
        dealer=dealer == seat,
        riichi=RiichiView.NONE if player is None else _RIICHI[player.riichi],
        pond=() if player is None else tuple(_pond_tile(tile) for tile in player.pond),
        melds=() if player is None else tuple(_meld_view(seat, meld) for meld in player.melds),
        open_hand=open_hand,
        tray=None if tray_points is None else TrayView(points=tray_points, difference=tray_points - score),
        on_turn=on_turn,
    )


def _pond_tile(tile: PondTile) -> PondTileView:
    return PondTileView(tile=str(tile.tile), riichi=tile.riichi, called=tile.called, tsumogiri=tile.tsumogiri)


def _meld_view(owner: Seat, meld: Meld) -> MeldView:
    source = meld.from_seat(owner)
    return MeldView(
        kind=meld.kind.value,
        tiles=tuple(str(tile) for tile in meld.tiles),
        called=None if meld.called is None else str(meld.called),
        called_from=None if source is None else int(source),
        relation=None if meld.called_from is None else meld.called_from.name.lower(),
    )


def _laid_open(hand: KyokuState) -> dict[int, tuple[str, ...]]:
    """Hands laid open at the end of the hand: each winner's, and the tenpai hands of a draw.

    Only these concealed tiles are public; everything else stays hidden even when the state
    knows it (a replayed log knows every hand).
    """
    seats: list[Seat] = [win.winner for win in hand.wins]
    if hand.result is not None and not hand.wins:
        seats.extend(hand.result.tenpai)
    shown: dict[int, tuple[str, ...]] = {}
    for seat in seats:
        player = hand.players[seat]
        if not player.hand_known:
            continue
        tiles: list[Tile] = sorted(player.concealed, key=display_order)
        ronned = hand.last_discard_tile if hand.wins and hand.turn != seat else None
        if ronned is not None and len(tiles) % 3 == 1:
            tiles.append(ronned)  # the ronned tile is shown last, apart from the hand
        shown[int(seat)] = tuple(str(tile) for tile in tiles)
    return shown
