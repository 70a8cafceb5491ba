"""Between hands: who deals next, honba and sticks, whether the game is over, the final tally."""

from __future__ import annotations

from table_app.domain.seat import Seat, Wind
from table_app.rules.profiles import GameLength, LeftoverSticks, RuleProfile
from table_app.rules.record import HandEnding
from table_app.rules.results import HandResult, NextHand
from table_app.rules.state import KyokuState

_LAST_SCHEDULED_ROUND = {GameLength.EAST_ONLY: 3, GameLength.HANCHAN: 7, GameLength.FOUR_WINDS: 15}
_EXTENSION_ROUNDS = 4  # sudden death plays at most one more wind round


def dealer_repeats(hand: KyokuState, result: HandResult, profile: RuleProfile) -> bool:
    if result.ending is HandEnding.CHOMBO:
        return True  # the void hand is replayed
    if result.ending is HandEnding.WIN:
        return profile.dealer_repeats_on_win and any(w.winner == hand.oya for w in result.wins)
    if result.ending in (HandEnding.EXHAUSTIVE, HandEnding.NAGASHI_MANGAN):
        return profile.dealer_repeats_on_tenpai and hand.oya in result.tenpai
    return profile.dealer_repeats_on_abort


def _next_honba(hand: KyokuState, result: HandResult, repeat: bool, profile: RuleProfile) -> int:
    if not profile.has_honba or result.ending is HandEnding.CHOMBO:
        return hand.honba if profile.has_honba else 0
    if result.ending is HandEnding.WIN:
        return hand.honba + 1 if repeat else 0
    if result.ending in (HandEnding.EXHAUSTIVE, HandEnding.NAGASHI_MANGAN):
        return hand.honba + 1
    return hand.honba + 1 if profile.honba_on_abort else hand.honba


def ranking(scores: tuple[int, ...], first_dealer: Seat = Seat.S0) -> tuple[Seat, ...]:
    """Seats from first to last; ties go to the seat nearer the first dealer (Tenhou, most rules)."""
    return tuple(sorted(Seat, key=lambda seat: (-scores[seat], (seat - first_dealer) % 4)))


def first_dealer_of(bakaze: Wind, kyoku: int, oya: Seat) -> Seat:
    """Who dealt the game's first hand, from any hand (ties in the ranking go to them)."""
    return Seat((oya - (int(bakaze) * 4 + kyoku - 1)) % 4)


def next_hand(hand: KyokuState, result: HandResult, profile: RuleProfile) -> NextHand:
    repeat = dealer_repeats(hand, result, profile)
    honba = _next_honba(hand, result, repeat, profile)
    kyotaku = 0 if result.ending is HandEnding.WIN else hand.kyotaku
    index = hand.round_index if repeat else hand.round_index + 1
    oya = hand.oya if repeat else hand.oya.next
    first_dealer = first_dealer_of(hand.bakaze, hand.kyoku, hand.oya)
    over = result.ending is not HandEnding.CHOMBO and _game_over(hand, repeat, result.ending, first_dealer, profile)
    return NextHand(Wind(index // 4 % 4), index % 4 + 1, honba, kyotaku, oya, hand.scores, over)


def _game_over(hand: KyokuState, repeat: bool, ending: HandEnding, first_dealer: Seat, profile: RuleProfile) -> bool:
    won = ending is HandEnding.WIN
    tenpai = ending in (HandEnding.EXHAUSTIVE, HandEnding.NAGASHI_MANGAN)
    scores = hand.scores
    if profile.busting and min(scores) < 0:
        return True
    last = _LAST_SCHEDULED_ROUND[profile.length]
    if hand.round_index < last:
        return False
    if repeat:
        # アガリ止め/テンパイ止め: a top dealer's win or tenpai stops the game (not an abort).
        if not ((profile.last_dealer_may_stop and won) or (profile.last_dealer_may_stop_on_tenpai and tenpai)):
            return False
        top = ranking(scores, first_dealer)[0]
        return top == hand.oya and scores[top] >= profile.return_points
    if not profile.sudden_death:
        return True
    return max(scores) >= profile.return_points or hand.round_index >= last + _EXTENSION_ROUNDS


def final_scores(scores: tuple[int, ...], kyotaku: int, first_dealer: Seat, profile: RuleProfile) -> tuple[int, ...]:
    """Scores at the end with the sticks left on the table dealt with."""
    if kyotaku == 0 or profile.leftover_sticks is not LeftoverSticks.TO_TOP:
        return scores
    top = ranking(scores, first_dealer)[0]
    return tuple(s + profile.riichi_deposit * kyotaku if seat == top else s for seat, s in enumerate(scores))


def final_points(scores: tuple[int, ...], first_dealer: Seat, profile: RuleProfile) -> tuple[float, ...]:
    """Game points: (score - return) / 1000 plus uma; the top also takes the oka, so the
    points sum to zero. Tenhou first rounds each non-top score to whole thousands, halves away
    from zero (21500 → 22, -2500 → -3), as its logged tallies show."""
    order = ranking(scores, first_dealer)
    points = [0.0, 0.0, 0.0, 0.0]
    for rank, seat in enumerate(order[1:], start=1):
        score = scores[seat]
        if profile.tally_in_whole_thousands:
            sign = -1 if score < 0 else 1
            thousands = float(sign * ((abs(score) + 500) // 1000) - profile.return_points // 1000)
        else:
            thousands = (score - profile.return_points) / 1000
        points[seat] = thousands + profile.uma[rank]
    points[order[0]] = -sum(points)
    return tuple(round(p, 1) for p in points)
