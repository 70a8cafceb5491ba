"""A table's game at a glance (the hall page's card, the retained ``state``), from its state.

Built from the same public view the table display shows (:func:`table_app.view.build.build_view`),
so the hall shows nothing a player at the table could not see.
"""

from __future__ import annotations

from table_app.hall.protocol import Seats, TableState
from table_app.rules.events import (
    Ankan,
    Chi,
    Chombo,
    Dahai,
    Daiminkan,
    Dora,
    EndGame,
    EndKyoku,
    GameEvent,
    Hora,
    Kakan,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    StartGame,
    StartKyoku,
    Tsumo,
)
from table_app.rules.state import GameState
from table_app.view.build import build_view
from table_app.view.model import RiichiView


def glance(table: str, state: GameState, last: GameEvent | None, *, game: int, seq: int, at: float) -> TableState:
    view = build_view(state)
    round_en, round_ja = ("", "") if view.round is None else (view.round.en, view.round.ja)
    if view.finished:
        round_en, round_ja = "Game over", "対局終了"
    seats = Seats(
        tuple(seat.name for seat in view.seats),
        tuple(seat.score for seat in view.seats),
        tuple(seat.riichi is not RiichiView.NONE for seat in view.seats),
    )
    return TableState(
        table=table,
        game=game,
        seq=seq,
        at=at,
        round_en=round_en,
        round_ja=round_ja,
        honba=view.honba,
        riichi_sticks=view.riichi_sticks,
        dealer=view.dealer,
        seats=seats,
        last_act=last_act(state, last),
        hands=len(state.results),
        finished=state.finished,
    )


def last_act(state: GameState, event: GameEvent | None) -> str:
    """The event in a few English words, the seat named as announcements name it."""
    naming = state.seat_naming()
    match event:
        case None:
            return ""
        case Dahai(actor=seat, pai=tile, tsumogiri=tsumogiri):
            return f"{naming.en(seat)} discards {tile}" + (" (tsumogiri)" if tsumogiri else "")
        case Tsumo(actor=seat):
            return f"{naming.en(seat)} draws"
        case Chi(actor=seat, pai=tile) | Pon(actor=seat, pai=tile) | Daiminkan(actor=seat, pai=tile):
            return f"{naming.en(seat)} calls {type(event).__name__.lower()} on {tile}"
        case Kakan(actor=seat, pai=tile):
            return f"{naming.en(seat)} adds {tile} to a pon"
        case Ankan(actor=seat, consumed=tiles):
            return f"{naming.en(seat)} closed kan {tiles[0] if tiles else ''}".rstrip()
        case Reach(actor=seat):
            return f"{naming.en(seat)} riichi"
        case ReachAccepted(actor=seat):
            return f"{naming.en(seat)} riichi stick down"
        case Hora(actor=seat, target=target, pai=tile):
            return f"{naming.en(seat)} {'tsumo' if seat == target else 'ron'} on {tile}"
        case Ryukyoku(kind=kind):
            return f"draw ({kind.value})" if kind.value else "draw"
        case Dora(dora_marker=tile):
            return f"dora indicator {tile}"
        case StartKyoku():
            return "deal"
        case EndKyoku():
            return "hand over"
        case EndGame():
            return "game over"
        case StartGame():
            return "game start"
        case Chombo(actor=seat):
            return f"{naming.en(seat)} chombo"
    return type(event).__name__.lower()
