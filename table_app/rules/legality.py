"""``judge(hand, event, profile)``: is this act legal here, and if not, what does it cost?

The referee asks before folding an event in. Checks that need a concealed hand (tenpai,
tiles for a call, a complete win, a closed kan after riichi) run only when the referee
knows the hand (laid open, or every tile seen); otherwise they wait until it is shown.
Wins and draws are judged in :mod:`table_app.rules.legality_endings`.
"""

from __future__ import annotations

from table_app.domain.hand import Hand, HandError
from table_app.domain.meld import MeldKind
from table_app.domain.seat import Seat
from table_app.domain.tile import Tile
from table_app.rules.events import Ankan, Chi, Dahai, Daiminkan, GameEvent, Hora, Kakan, Pon, Reach, Ryukyoku
from table_app.rules.hand.riichi_kan import check_riichi_closed_kan
from table_app.rules.hand.waits import is_tenpai
from table_app.rules.legality_endings import judge_draw, judge_win
from table_app.rules.profiles import MultipleRon, RuleProfile
from table_app.rules.state import KyokuState, PlayerState, RiichiStage
from table_app.rules.verdicts import ACCEPTED, Reason, Verdict, reject


def judge(hand: KyokuState, event: GameEvent, profile: RuleProfile) -> Verdict:
    match event:
        case Chi() | Pon() | Daiminkan():
            return _judge_call(hand, event, profile)
        case Dahai():
            return _judge_discard(hand, event, profile)
        case Reach():
            return _judge_riichi(hand, event.actor, profile)
        case Ankan():
            return _judge_closed_kan(hand, event, profile)
        case Kakan():
            return (
                reject(Reason.NO_KANS, event.actor, "this rule set has no kans", profile)
                if not profile.kans
                else ACCEPTED
            )
        case Hora():
            return judge_win(hand, event, profile)
        case Ryukyoku():
            return judge_draw(hand, event, profile)
    return ACCEPTED


def _holds(player: PlayerState, tiles: tuple[Tile, ...]) -> bool:
    if not player.hand_known:
        return True  # cannot tell yet
    pool = list(player.concealed)
    for tile in tiles:
        if tile in pool:
            pool.remove(tile)
        else:
            return False
    return True


def _judge_call(hand: KyokuState, event: Chi | Pon | Daiminkan, profile: RuleProfile) -> Verdict:
    actor, target, name = event.actor, event.target, type(event).__name__.lower()
    if actor == target:
        return reject(Reason.CALL_ON_OWN_DISCARD, actor, f"a {name} on one's own discard", profile)
    if isinstance(event, Daiminkan) and not profile.kans:
        return reject(Reason.NO_KANS, actor, "this rule set has no kans", profile)
    if hand.last_discard != target or hand.last_discard_tile is None or hand.last_discard_tile.kind != event.pai.kind:
        pond = hand.player(target).pond
        if pond and pond[-1].tile.kind == event.pai.kind and not pond[-1].called and hand.turn is not None:
            return reject(Reason.CALL_AFTER_NEXT_DRAW, actor, f"{event.pai} was called after the next draw", profile)
        return reject(Reason.CALL_NOT_LAST_DISCARD, actor, f"{event.pai} is not the last discard", profile)
    if isinstance(event, Chi) and target != actor.left:
        return reject(Reason.CHI_NOT_FROM_LEFT, actor, "chi only from the player on the left", profile)
    if hand.player(actor).in_riichi:
        return reject(Reason.CALL_IN_RIICHI, actor, "no calls after riichi", profile)
    if hand.player(actor).lost_call_rights:
        return reject(Reason.RIGHTS_LOST, actor, "this player lost the right to call for this hand", profile)
    if not _holds(hand.player(actor), event.consumed):
        return reject(Reason.CALL_TILES_NOT_HELD, actor, f"the {name} needs tiles the hand does not hold", profile)
    return ACCEPTED


def _kuikae(player: PlayerState, tile: Tile) -> bool:
    """Swap-calling: discarding the called kind, or (after a chi) the kind at the other end."""
    meld = player.just_called
    if meld is None or meld.called is None:
        return False
    called = meld.called.kind
    if tile.kind == called:
        return True
    if meld.kind is not MeldKind.CHI:
        return False
    low = meld.kind34
    suit_base = low - low % 9
    if called == low and low + 3 < suit_base + 9:  # 4 called with 56: 7 is the swap
        return tile.kind == low + 3
    if called == low + 2 and low - 1 >= suit_base:  # 6 called with 45: 3 is the swap
        return tile.kind == low - 1
    return False


def _judge_discard(hand: KyokuState, event: Dahai, profile: RuleProfile) -> Verdict:
    player = hand.player(event.actor)
    if profile.kuikae_banned and _kuikae(player, event.pai):
        return reject(Reason.KUIKAE, event.actor, f"discarding {event.pai} right after calling it (kuikae)", profile)
    if player.riichi is RiichiStage.ACCEPTED and not event.tsumogiri and not player.rinshan:
        return reject(Reason.RIICHI_DISCARD_CHOICE, event.actor, "after riichi the drawn tile is discarded", profile)
    if player.riichi is RiichiStage.DECLARED and profile.riichi_requires_tenpai and player.hand_known:
        rest = list(player.concealed)
        if event.pai in rest:
            rest.remove(event.pai)
            try:
                if not is_tenpai(Hand(tuple(rest), player.melds)):
                    return reject(Reason.RIICHI_NOT_TENPAI, event.actor, "riichi on a hand that is not tenpai", profile)
            except HandError:
                return ACCEPTED
    return ACCEPTED


def _judge_riichi(hand: KyokuState, seat: Seat, profile: RuleProfile) -> Verdict:
    player = hand.player(seat)
    if player.in_riichi:
        return reject(Reason.RIICHI_TWICE, seat, "already in riichi", profile)
    if player.lost_call_rights:
        return reject(Reason.RIGHTS_LOST, seat, "this player lost the right to riichi for this hand", profile)
    if not player.is_closed:
        return reject(Reason.RIICHI_OPEN_HAND, seat, "riichi needs a closed hand", profile)
    if hand.scores[seat] < profile.riichi_min_points:
        return reject(Reason.RIICHI_TOO_FEW_POINTS, seat, f"riichi needs {profile.riichi_min_points} points", profile)
    if hand.live_wall < profile.riichi_min_live_tiles:
        return reject(
            Reason.RIICHI_TOO_FEW_TILES,
            seat,
            f"riichi needs {profile.riichi_min_live_tiles} tiles in the wall",
            profile,
        )
    return ACCEPTED


def _judge_closed_kan(hand: KyokuState, event: Ankan, profile: RuleProfile) -> Verdict:
    if not profile.kans:
        return reject(Reason.NO_KANS, event.actor, "this rule set has no kans", profile)
    player = hand.player(event.actor)
    if player.riichi is not RiichiStage.ACCEPTED or not player.hand_known or not player.concealed:
        return ACCEPTED
    drawn = player.concealed[-1]  # the tile just drawn is the last one in
    try:
        before = Hand(player.concealed[:-1], player.melds)
        verdict = check_riichi_closed_kan(before, drawn, event.consumed[0], profile.riichi_kan)
    except HandError:
        return ACCEPTED
    if verdict.legal:
        return ACCEPTED
    return reject(Reason.RIICHI_KAN, event.actor, f"closed kan after riichi: {verdict.reason}", profile)


def _rank(claim: GameEvent) -> int:
    """Ron outranks pon and open kan, which outrank chi, whoever spoke first (001 第18条)."""
    if isinstance(claim, Hora):
        return 0
    return 1 if isinstance(claim, (Pon, Daiminkan)) else 2


def judge_claims(
    hand: KyokuState, claims: tuple[Hora | Pon | Daiminkan | Chi, ...], profile: RuleProfile
) -> tuple[Verdict, ...]:
    """Simultaneous claims on the last discard, one verdict each (in the order given).

    Each claim is first judged on its own; of the legal ones only the highest rank stands.
    Under head bump only the ron nearest after the discarder stands (a later ron is void)."""
    verdicts = [judge(hand, claim, profile) for claim in claims]
    legal = [i for i, v in enumerate(verdicts) if v.accepted]
    if not legal:
        return tuple(verdicts)
    best = min(_rank(claims[i]) for i in legal)
    nearest = min(((claims[i].actor - claims[i].target) % 4 for i in legal if _rank(claims[i]) == 0), default=None)
    for i in legal:
        claim = claims[i]
        if _rank(claim) > best:
            verdicts[i] = reject(Reason.CALL_PRIORITY, claim.actor, "a call of higher rank takes the tile", profile)
        elif (
            best == 0 and profile.multiple_ron is MultipleRon.HEAD_BUMP and (claim.actor - claim.target) % 4 != nearest
        ):
            verdicts[i] = reject(Reason.CALL_PRIORITY, claim.actor, "head bump: a nearer ron takes the tile", profile)
    return tuple(verdicts)
