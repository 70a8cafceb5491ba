"""The game as a pure fold: ``state = apply(state, event)`` for every event, in order.

Nothing here reads or writes anything; replaying a journal of events rebuilds the state
exactly, which is both crash recovery and the main test (``jantaku replay``). It is the one
fold: a logged game, the journal's effective events (a rule profile changed between hands
included, as a :class:`~table_app.rules.events.ProfileChange`) and the live referee's game
all go through :func:`apply`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from table_app.rules.chombo import on_chombo
from table_app.rules.endings import hand_result, on_hora, on_ryukyoku
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
    ProfileChange,
    Reach,
    ReachAccepted,
    Ryukyoku,
    StartGame,
    StartKyoku,
    Tsumo,
)
from table_app.rules.furiten_tracking import mark_passed, wait_kinds
from table_app.rules.game_flow import final_points, final_scores, first_dealer_of, next_hand
from table_app.rules.profiles import TENHOU, ChomboPenalty, RuleProfile, profile_named
from table_app.rules.state import GameState, KyokuState, PlayerState
from table_app.rules.turns import (
    ImpossibleEventError,
    on_ankan,
    on_chi,
    on_dahai,
    on_daiminkan,
    on_dora,
    on_kakan,
    on_pon,
    on_reach,
    on_reach_accepted,
    on_tsumo,
)


def new_game(profile: RuleProfile = TENHOU) -> GameState:
    return GameState(profile=profile, scores=(profile.start_points,) * 4)


def start_hand(event: StartKyoku, profile: RuleProfile = TENHOU) -> KyokuState:
    return KyokuState(
        bakaze=event.bakaze,
        kyoku=event.kyoku,
        honba=event.honba,
        kyotaku=event.kyotaku,
        oya=event.oya,
        scores=event.scores,
        dora_markers=(event.dora_marker,),
        players=tuple(PlayerState(concealed=tiles, waits_mask=wait_kinds(tiles, ())) for tiles in event.tehais),
        live_wall=profile.live_wall_at_start,
    )


def apply(state: GameState, event: GameEvent) -> GameState:
    match event:
        case StartGame():
            return replace(new_game(state.profile), names=event.names)
        case StartKyoku():
            first = (
                first_dealer_of(event.bakaze, event.kyoku, event.oya) if state.hands_played == 0 else state.first_dealer
            )
            return replace(
                state, hand=start_hand(event, state.profile), scores=event.scores, next_hand=None, first_dealer=first
            )
        case EndGame():
            return _end_game(state)
        case ProfileChange() if state.hand is None:
            return replace(state, profile=profile_named(event.profile))
        case ProfileChange():
            raise ImpossibleEventError("a rule profile change inside a hand (it changes between hands only)")
    hand = state.hand
    if hand is None:
        raise ImpossibleEventError(f"{type(event).__name__} outside a hand")
    if isinstance(event, EndKyoku):
        result = hand_result(hand)
        hand = replace(hand, scores=tuple(s + d for s, d in zip(hand.scores, result.deltas, strict=True)))
        deductions = state.tally_deductions
        if result.offender is not None and state.profile.chombo is ChomboPenalty.FINAL_TALLY:
            points = state.profile.chombo_tally_points
            deductions = tuple(d + (points if seat == result.offender else 0) for seat, d in enumerate(deductions))
        return replace(
            state,
            scores=hand.scores,
            tally_deductions=deductions,
            results=(*state.results, result),
            hands_played=state.hands_played + 1,
            next_hand=next_hand(hand, result, state.profile),
            hand=None,
        )
    if hand.could_ron and not isinstance(event, Hora):
        hand = mark_passed(hand)  # nobody ronned the last discard: whoever it completed is furiten
    return replace(state, hand=_apply_in_hand(hand, event, state.profile))


def _apply_in_hand(hand: KyokuState, event: GameEvent, profile: RuleProfile) -> KyokuState:
    match event:
        case Tsumo():
            return on_tsumo(hand, event)
        case Dahai():
            return on_dahai(hand, event)
        case Chi():
            return on_chi(hand, event)
        case Pon():
            return on_pon(hand, event)
        case Daiminkan():
            return on_daiminkan(hand, event)
        case Kakan():
            return on_kakan(hand, event)
        case Ankan():
            return on_ankan(hand, event)
        case Dora():
            return on_dora(hand, event)
        case Reach():
            return on_reach(hand, event)
        case ReachAccepted():
            return on_reach_accepted(hand, event, profile.riichi_deposit)
        case Hora():
            return on_hora(hand, event, profile)
        case Ryukyoku():
            return on_ryukyoku(hand, event, profile)
        case Chombo():
            return on_chombo(hand, event, profile)
    raise ImpossibleEventError(f"unexpected event {event!r} inside a hand")


def _end_game(state: GameState) -> GameState:
    kyotaku = state.next_hand.kyotaku if state.next_hand is not None else 0
    scores = final_scores(state.scores, kyotaku, state.first_dealer, state.profile)
    points = final_points(scores, state.first_dealer, state.profile)
    points = tuple(round(p - d, 1) for p, d in zip(points, state.tally_deductions, strict=True))
    return replace(state, scores=scores, finished=True, final_points=points)


def replay(events: Iterable[GameEvent], profile: RuleProfile = TENHOU) -> GameState:
    state = new_game(profile)
    for event in events:
        state = apply(state, event)
    return state
