"""The conditions of each abortive draw, as the table shows them (spec §5; 002; 000 補足).

Pure predicates over the hand in play, shared by the judge (a claimed draw is refused when its
condition is not met) and by the live referee (which proposes a draw it sees on the table).
Each returns "" when the condition holds, else why not, in words for the verdict's message.
"""

from __future__ import annotations

from table_app.domain.hand import Hand, HandError
from table_app.domain.seat import Seat
from table_app.domain.seat_names import mention
from table_app.domain.tile import Tile
from table_app.rules.events import ShownHand
from table_app.rules.furiten_tracking import wait_kinds
from table_app.rules.hand.waits import is_tenpai
from table_app.rules.state import KyokuState, RiichiStage

_WINDS = range(27, 31)


def four_winds_unmet(hand: KyokuState) -> str:
    """四風子連打: the four first discards are one and the same wind, with no call of any kind
    (a closed kan included) before the fourth."""
    if hand.calls_made:
        return "a call came before the fourth discard"
    if hand.discards_made != 4 or any(len(p.pond) != 1 for p in hand.players):
        return "four winds is established at the fourth discard of the hand"
    firsts = [p.pond[0].tile.kind for p in hand.players]
    if firsts[0] not in _WINDS:
        return "the first discards are not winds"
    if len(set(firsts)) != 1:
        return "the four first discards are not the same wind"
    return ""


def four_winds_on_table(hand: KyokuState | None) -> bool:
    return hand is not None and not four_winds_unmet(hand)


def four_kans_unmet(hand: KyokuState) -> str:
    """四槓散了: four kans by two or more players (one player's four is suukantsu, no abort)."""
    if len(hand.kans) < 4:
        return f"{len(hand.kans)} kans made, four are needed"
    if len(set(hand.kans)) < 2:
        return "all four kans are one player's (suukantsu plays on)"
    return ""


def four_riichi_unmet(hand: KyokuState) -> str:
    """四家立直: every player's riichi stands (the fourth declaration tile was not ronned)."""
    if not all(p.riichi is RiichiStage.ACCEPTED for p in hand.players):
        return "four riichi needs all four sticks down"
    return ""


def triple_ron_unmet(hand: KyokuState, shown: tuple[ShownHand, ...]) -> str:
    """三家和: three other players ron the tile just played. Each hand laid open must win on it;
    a hand the referee neither sees nor knows is taken on trust."""
    tile = hand.last_discard_tile
    discarder = hand.last_discard if hand.last_discard is not None else hand.kakan_pending
    if tile is None or discarder is None:
        return "there is no discard to ron"
    seats = {s.seat for s in shown}
    if shown and (len(seats) != 3 or discarder in seats):
        return "three players other than the discarder must show their hands"
    for claim in shown:
        if not _completes(claim.tiles, hand, claim.seat, tile):
            # Named at the edge (a verdict is judged before anyone knows who sits where).
            return f"the hand of {mention(claim.seat)} does not win on {tile.plain}"
    return ""


def _completes(tiles: tuple[Tile, ...], hand: KyokuState, seat: Seat, tile: Tile) -> bool:
    melds = hand.player(seat).melds
    concealed = list(tiles)
    if len(concealed) + 3 * len(melds) == 14 and tile in concealed:
        concealed.remove(tile)  # laid open with the winning tile among them
    mask = wait_kinds(tuple(concealed), melds)
    return mask is None or bool(mask >> tile.kind & 1)


def noten_riichi_seat(hand: KyokuState, shown: tuple[ShownHand, ...]) -> Seat | None:
    """The first riichi player whose hand, laid open (or already known), is not tenpai."""
    laid = {s.seat: s.tiles for s in shown}
    for seat in Seat:
        player = hand.player(seat)
        if player.riichi is not RiichiStage.ACCEPTED:
            continue
        tiles = laid.get(seat, player.concealed if player.hand_known else None)
        if tiles is None:
            continue
        try:
            if not is_tenpai(Hand(tiles, player.melds)):
                return seat
        except HandError:
            continue
    return None
