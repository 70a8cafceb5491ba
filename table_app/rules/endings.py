"""The fold over a hand's ending: wins (scored and paid), draws (named and paid)."""

from __future__ import annotations

from dataclasses import replace

from table_app.domain.hand import Hand, HandError
from table_app.domain.seat import Seat
from table_app.domain.tile import TERMINAL_HONOUR_KINDS, Tile
from table_app.rules.events import DrawKind, Hora, Ryukyoku
from table_app.rules.hand.waits import is_tenpai
from table_app.rules.payments import nagashi_deltas, noten_deltas, win_deltas
from table_app.rules.profiles import MultipleRon, RuleProfile
from table_app.rules.record import HandEnding
from table_app.rules.results import HandResult, WinResult
from table_app.rules.scoring import WinSituation, WinValue, score_win
from table_app.rules.state import KyokuState, PlayerState, RiichiStage
from table_app.rules.turns import ImpossibleEventError, remove_tiles

#: The yakuman whose last set, called from someone, makes them liable (包 / pao).
_YAKUMAN_WITH_PAO = frozenset({"Daisangen", "Dai Suushii"})


def _situation(hand: KyokuState, player: PlayerState, actor: Seat, tsumo: bool) -> WinSituation:
    riichi = player.riichi is RiichiStage.ACCEPTED
    first_draw = tsumo and player.discards == 0 and hand.calls_made == 0
    return WinSituation(
        tsumo=tsumo,
        dealer=actor == hand.oya,
        seat_wind=actor.wind(hand.oya),
        round_wind=hand.bakaze,
        riichi=riichi,
        double_riichi=riichi and player.double_riichi,
        ippatsu=riichi and player.ippatsu,
        rinshan=tsumo and player.rinshan,
        chankan=not tsumo and hand.kakan_pending is not None,
        haitei=tsumo and hand.live_wall == 0 and not player.rinshan,
        houtei=not tsumo and hand.live_wall == 0 and hand.kakan_pending is None,
        tenhou=first_draw and actor == hand.oya,
        chiihou=first_draw and actor != hand.oya,
    )


def _winning_tiles(player: PlayerState, event: Hora, tsumo: bool) -> tuple[Tile, ...]:
    if event.hand is not None:
        return event.hand
    if tsumo:
        return remove_tiles(player.concealed, (event.pai,), event.actor)
    return player.concealed


def winning_hand(hand: KyokuState, event: Hora) -> tuple[Tile, ...] | None:
    """The winner's concealed tiles without the winning tile; ``None`` if not known."""
    player = hand.player(event.actor)
    try:
        concealed = _winning_tiles(player, event, event.actor == event.target)
    except ImpossibleEventError:
        return None
    return None if any(t.is_unknown for t in concealed) else concealed


def win_value(hand: KyokuState, event: Hora, concealed: tuple[Tile, ...], profile: RuleProfile) -> WinValue:
    player = hand.player(event.actor)
    return score_win(
        concealed,
        win=event.pai,
        melds=player.melds,
        situation=_situation(hand, player, event.actor, event.actor == event.target),
        dora_markers=hand.dora_markers,
        ura_markers=event.ura_markers,
        profile=profile,
    )


def on_hora(hand: KyokuState, event: Hora, profile: RuleProfile) -> KyokuState:
    player = hand.player(event.actor)
    concealed = winning_hand(hand, event)
    if concealed is None:
        raise ImpossibleEventError(f"the win of seat {int(event.actor)} needs the hand laid open")
    value = win_value(hand, event, concealed, profile)
    pao = player.pao if profile.pao and _YAKUMAN_WITH_PAO.intersection(value.yaku) else None
    win = WinResult(event.actor, event.target, value, (0, 0, 0, 0), pao)
    # Several rons on one discard: the first in turn order after the discarder takes honba and
    # sticks, whatever order the calls were announced in; head bump lets only that one win.
    wins = tuple(sorted((*hand.wins, win), key=lambda w: (w.winner - w.target) % 4))
    if profile.multiple_ron is MultipleRon.HEAD_BUMP:
        wins = wins[:1]
    if profile.triple_ron_aborts and len(wins) == 3:
        return replace(hand, wins=(), result=HandResult(hand.label(), HandEnding.TRIPLE_RON, (0, 0, 0, 0)))
    paid = tuple(
        replace(
            w,
            deltas=win_deltas(
                w.value,
                w.winner,
                w.target,
                hand.oya,
                honba=hand.honba if first else 0,
                sticks=hand.kyotaku if first else 0,
                pao=w.pao,
                profile=profile,
            ),
        )
        for first, w in ((i == 0, w) for i, w in enumerate(wins))
    )
    return replace(hand, wins=paid)


def _tenpai_seats(hand: KyokuState, event: Ryukyoku) -> tuple[Seat, ...]:
    """Seats whose laid-open hand, or whose hand the referee already knows, is tenpai."""
    shown = {s.seat: s.tiles for s in event.shown}
    seats = []
    for seat in Seat:
        player = hand.player(seat)
        tiles = shown.get(seat)
        if tiles is None and player.hand_known:
            tiles = player.concealed
        if tiles is None:
            continue
        try:
            if is_tenpai(Hand(tiles, player.melds)):
                seats.append(seat)
        except HandError:
            continue
    return tuple(seats)


def nagashi_seats(hand: KyokuState) -> tuple[Seat, ...]:
    return tuple(
        seat
        for seat in Seat
        if (p := hand.player(seat)).pond and all(t.tile.kind in TERMINAL_HONOUR_KINDS and not t.called for t in p.pond)
    )


def _infer_kind(hand: KyokuState, profile: RuleProfile) -> DrawKind:
    """Name a draw the source did not name (mjai) from what the table shows."""
    if hand.live_wall <= 0:
        return DrawKind.NAGASHI_MANGAN if profile.nagashi_mangan and nagashi_seats(hand) else DrawKind.EXHAUSTIVE
    if all(p.riichi is RiichiStage.ACCEPTED for p in hand.players):
        return DrawKind.FOUR_RIICHI
    if len(hand.kans) >= 4:
        return DrawKind.FOUR_KANS
    firsts = [p.pond[0].tile.kind for p in hand.players if len(p.pond) == 1]
    if len(firsts) == 4 and len(set(firsts)) == 1 and firsts[0] in (27, 28, 29, 30):
        return DrawKind.FOUR_WINDS
    return DrawKind.NINE_TERMINALS


def on_ryukyoku(hand: KyokuState, event: Ryukyoku, profile: RuleProfile) -> KyokuState:
    kind = event.kind if event.kind is not DrawKind.UNSPECIFIED else _infer_kind(hand, profile)
    tenpai: tuple[Seat, ...] = ()
    nagashi: tuple[Seat, ...] = ()
    deltas: tuple[int, ...] = (0, 0, 0, 0)
    if kind in (DrawKind.EXHAUSTIVE, DrawKind.NAGASHI_MANGAN):
        tenpai = _tenpai_seats(hand, event)
        nagashi = nagashi_seats(hand) if profile.nagashi_mangan else ()
        if nagashi:
            kind = DrawKind.NAGASHI_MANGAN
            deltas = nagashi_deltas(nagashi, hand.oya)
        else:
            kind = DrawKind.EXHAUSTIVE
            deltas = noten_deltas(tenpai, profile.noten_pool)
    return replace(hand, result=HandResult(hand.label(), HandEnding(kind.value), deltas, (), tenpai, nagashi=nagashi))


def hand_result(hand: KyokuState) -> HandResult:
    """The result of a finished hand (at ``end_kyoku``)."""
    if hand.result is not None:
        return hand.result
    if not hand.wins:
        raise ImpossibleEventError("end_kyoku before the hand ended (no hora or ryukyoku)")
    deltas = tuple(sum(parts) for parts in zip(*(w.deltas for w in hand.wins), strict=True))
    return HandResult(hand.label(), HandEnding.WIN, deltas, hand.wins)
