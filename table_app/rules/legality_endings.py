"""Judging wins and draws: false wins, furiten, noten riichi, draws the profile lacks."""

from __future__ import annotations

from collections.abc import Callable

from table_app.domain.hand import Hand, HandError
from table_app.domain.meld import MeldKind
from table_app.domain.seat import Seat
from table_app.domain.tile import TERMINAL_HONOUR_KINDS, Tile, tile_of_kind
from table_app.rules.draw_conditions import (
    four_kans_unmet,
    four_riichi_unmet,
    four_winds_unmet,
    noten_riichi_seat,
    triple_ron_unmet,
)
from table_app.rules.endings import win_value, winning_hand
from table_app.rules.events import DrawKind, Hora, Ryukyoku
from table_app.rules.furiten_tracking import furiten_reason, passed_while_hidden, wait_kinds
from table_app.rules.hand.riichi_kan import check_riichi_closed_kan
from table_app.rules.profiles import MultipleRon, RuleProfile
from table_app.rules.state import KyokuState, PlayerState, RiichiStage
from table_app.rules.verdicts import ACCEPTED, Reason, Verdict, reject


def judge_win(hand: KyokuState, event: Hora, profile: RuleProfile) -> Verdict:
    seat = event.actor
    player = hand.player(seat)
    if player.lost_win_right:
        return reject(Reason.RIGHTS_LOST, seat, "this player lost the right to win for this hand", profile)
    if hand.result is not None:
        return reject(Reason.HAND_ENDED, seat, "the hand has already ended", profile)
    if hand.wins:
        refused = _another_ron(hand, event, profile)
        if refused is not None:
            return refused
    if event.actor == event.target:
        return _judge_shown_win(hand, event, profile)
    on_discard = hand.last_discard == event.target and hand.last_discard_tile is not None
    on_kan = hand.kakan_pending == event.target
    concealed = event.hand if event.hand is not None else player.concealed
    on_closed_kan = (
        hand.ankan_robbable == event.target
        and profile.kokushi_robs_closed_kan
        and (any(t.is_unknown for t in concealed) or _kokushi_wait(concealed, player))
    )
    tile = hand.last_discard_tile
    if not (on_discard or on_kan or on_closed_kan) or tile is None or tile.kind != event.pai.kind:
        return reject(Reason.FALSE_WIN, seat, f"ron on {event.pai}, which is not the tile just played", profile)
    mask = wait_kinds(concealed, player.melds)
    if mask is None:
        return ACCEPTED  # the hand is not known yet
    if not mask >> event.pai.kind & 1:
        return reject(Reason.FALSE_WIN, seat, f"{event.pai} does not complete the hand", profile)
    why = furiten_reason(player, mask) or passed_while_hidden(hand, seat, mask)
    if not why and profile.kokushi_furiten_on_any_terminal and _kokushi_wait(concealed, player):
        terminals = [t.tile for t in player.pond if t.tile.kind in TERMINAL_HONOUR_KINDS]
        why = f"thirteen orphans after discarding {terminals[0].plain}" if terminals else ""
    if why:
        return reject(Reason.FURITEN_RON, seat, f"furiten: {why}", profile)
    return _judge_shown_win(hand, event, profile)


def _another_ron(hand: KyokuState, event: Hora, profile: RuleProfile) -> Verdict | None:
    """A win after a win: only another ron on the same discard (double ron), and under head
    bump only by a player nearer the discarder than the one who already won (001 第18条(2))."""
    seat = event.actor
    if event.actor == event.target:
        return reject(Reason.HAND_ENDED, seat, "a ron has already ended the hand", profile)
    if any(w.winner == seat for w in hand.wins):
        return reject(Reason.HAND_ENDED, seat, "this player has already won this hand", profile)
    if profile.multiple_ron is MultipleRon.HEAD_BUMP:
        nearest = min((w.winner - w.target) % 4 for w in hand.wins)
        if (seat - event.target) % 4 > nearest:
            return reject(Reason.CALL_PRIORITY, seat, "head bump: a nearer ron takes the tile", profile)
    return None


def _kokushi_wait(concealed: tuple[Tile, ...], player: PlayerState) -> bool:
    """A thirteen-orphans shape: no melds, only terminals and honours, twelve kinds or more."""
    kinds = {t.kind for t in concealed}
    return not player.melds and kinds <= TERMINAL_HONOUR_KINDS and len(kinds) >= 12


def _judge_shown_win(hand: KyokuState, event: Hora, profile: RuleProfile) -> Verdict:
    """What only the hand laid open tells: a complete hand with a yaku, and any closed kan
    made after riichi (an illegal one is chombo when discovered, 000)."""
    concealed = winning_hand(hand, event)
    if concealed is None:
        return ACCEPTED
    player = hand.player(event.actor)
    mask = wait_kinds(concealed, player.melds)
    if mask is not None and not mask >> event.pai.kind & 1:
        return reject(Reason.FALSE_WIN, event.actor, f"{event.pai} does not complete the hand", profile)
    value = win_value(hand, event, concealed, profile)
    if value.error is not None:
        return reject(Reason.FALSE_WIN, event.actor, f"not a valid win ({value.error})", profile)
    return _judge_riichi_kans(player, concealed, event.actor, profile)


def _judge_riichi_kans(player: PlayerState, concealed: tuple[Tile, ...], seat: Seat, profile: RuleProfile) -> Verdict:
    for kind in player.kans_after_riichi:
        kan = tile_of_kind(kind)
        others = tuple(m for m in player.melds if not (m.kind is MeldKind.CLOSED_KAN and m.kind34 == kind))
        try:
            before = Hand((*concealed, kan, kan, kan), others)
            verdict = check_riichi_closed_kan(before, kan, kan, profile.riichi_kan)
        except HandError:
            continue
        if not verdict.legal:
            return reject(Reason.RIICHI_KAN, seat, f"closed kan after riichi: {verdict.reason}", profile)
    return ACCEPTED


_PROFILE_HAS = {
    DrawKind.NINE_TERMINALS: "nine_terminals",
    DrawKind.FOUR_WINDS: "four_winds",
    DrawKind.FOUR_KANS: "four_kans",
    DrawKind.FOUR_RIICHI: "four_riichi",
    DrawKind.TRIPLE_RON: "triple_ron_aborts",
    DrawKind.NAGASHI_MANGAN: "nagashi_mangan",
}


def judge_draw(hand: KyokuState, event: Ryukyoku, profile: RuleProfile) -> Verdict:
    kind = event.kind
    if hand.wins or hand.result is not None:
        return reject(Reason.HAND_ENDED, event.actor, "the hand has already ended", profile)
    switch = _PROFILE_HAS.get(kind)
    if switch is not None and not getattr(profile, switch):
        return reject(Reason.DRAW_NOT_IN_PROFILE, event.actor, f"this rule set has no {kind.value} draw", profile)
    if kind in (DrawKind.EXHAUSTIVE, DrawKind.NAGASHI_MANGAN):
        if hand.live_wall > 0:
            return reject(Reason.DRAW_CONDITIONS_UNMET, None, f"{hand.live_wall} tiles are left in the wall", profile)
        return _noten_riichi(hand, event, profile, "at the draw")
    if kind is DrawKind.NINE_TERMINALS:
        return _nine_terminals(hand, event, profile)
    unmet = _UNMET.get(kind)
    why = "" if unmet is None else unmet(hand, event)
    if why:
        return reject(Reason.DRAW_CONDITIONS_UNMET, event.actor, why, profile)
    if kind is DrawKind.FOUR_RIICHI:
        return _noten_riichi(hand, event, profile, "at the four-riichi abort")
    return ACCEPTED


_UNMET: dict[DrawKind, Callable[[KyokuState, Ryukyoku], str]] = {
    DrawKind.FOUR_WINDS: lambda hand, _event: four_winds_unmet(hand),
    DrawKind.FOUR_KANS: lambda hand, _event: four_kans_unmet(hand),
    DrawKind.FOUR_RIICHI: lambda hand, _event: four_riichi_unmet(hand),
    DrawKind.TRIPLE_RON: lambda hand, event: triple_ron_unmet(hand, event.shown),
}


def _noten_riichi(hand: KyokuState, event: Ryukyoku, profile: RuleProfile, when: str) -> Verdict:
    """Every riichi hand is shown at an exhaustive draw and at four riichi (spec §2.5, 003):
    one that is not tenpai is a noten riichi, and an illegal closed kan after riichi is found."""
    if not profile.riichi_requires_tenpai:
        return ACCEPTED
    noten = noten_riichi_seat(hand, event.shown)
    if noten is not None:
        return reject(Reason.NOTEN_RIICHI, noten, f"a riichi hand shown noten {when}", profile)
    shown = {s.seat: s.tiles for s in event.shown}
    for seat in Seat:
        player = hand.player(seat)
        tiles = shown.get(seat, player.concealed if player.hand_known else None)
        if player.riichi is not RiichiStage.ACCEPTED or tiles is None:
            continue
        kans = _judge_riichi_kans(player, tiles, seat, profile)
        if not kans.accepted:
            return kans
    return ACCEPTED


def _nine_terminals(hand: KyokuState, event: Ryukyoku, profile: RuleProfile) -> Verdict:
    seat = event.actor if event.actor is not None else hand.turn
    if seat is None:
        return reject(Reason.DRAW_CONDITIONS_UNMET, None, "nine terminals is declared on one's own draw", profile)
    player = hand.player(seat)
    if player.discards or hand.calls_made:
        return reject(
            Reason.DRAW_CONDITIONS_UNMET, seat, "nine terminals only on the first draw, before any call", profile
        )
    shown = next((s.tiles for s in event.shown if s.seat == seat), player.concealed if player.hand_known else None)
    if shown is not None and len({t.kind for t in shown if t.kind in TERMINAL_HONOUR_KINDS}) < 9:
        return reject(Reason.DRAW_CONDITIONS_UNMET, seat, "fewer than nine kinds of terminals and honours", profile)
    return ACCEPTED
