"""The state of a game, as values: what the referee knows after each event.

Concealed tiles the referee has not seen are ``UNKNOWN``; everything public (ponds with the
riichi tile, melds, dora indicators, the live-wall count, riichi and ippatsu, sticks and
scores) is always known. The fold that moves from one state to the next is in
:mod:`table_app.rules.fold`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from table_app.domain.meld import Meld
from table_app.domain.seat import Seat, Wind
from table_app.domain.seat_names import SeatNaming
from table_app.domain.tile import Tile
from table_app.rules.profiles import TENHOU, RuleProfile
from table_app.rules.results import HandResult, NextHand, WinResult


class RiichiStage(IntEnum):
    NONE = 0
    DECLARED = 1  # said "riichi"; the declaration tile has not passed yet
    ACCEPTED = 2  # the declaration tile passed: the stick is on the table


@dataclass(frozen=True, slots=True)
class PondTile:
    tile: Tile
    tsumogiri: bool
    riichi: bool = False  # laid sideways: the riichi marker
    called: bool = False  # taken by another player's call
    order: int = 0  # the hand's discard count when it was made (1 = the first discard)


@dataclass(frozen=True, slots=True)
class PlayerState:
    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    pond: tuple[PondTile, ...] = ()
    riichi: RiichiStage = RiichiStage.NONE
    double_riichi: bool = False
    ippatsu: bool = False
    marker_pending: bool = False  # the next discard is turned sideways (riichi tile was called)
    rinshan: bool = False  # the tile just drawn is a replacement after a kan
    pao: Seat | None = None  # who pays for a big-three-dragons / big-four-winds win (責任払い)
    discards: int = 0  # discards made, called ones included
    just_called: Meld | None = None  # a chi or pon made this turn (for kuikae)
    waits_mask: int | None = None  # kinds completing the hand since their last discard, if known
    furiten_pass: bool = False  # passed a winning tile since their own last discard (同巡内フリテン)
    riichi_furiten: bool = False  # passed a winning tile after riichi: furiten for the hand
    riichi_order: int | None = None  # ``order`` of the riichi declaration discard
    kans_after_riichi: tuple[int, ...] = ()  # kinds of closed kans made after riichi
    lost_call_rights: bool = False  # 純麻雀 penalty: no more chi, pon or riichi this hand
    lost_win_right: bool = False  # 純麻雀 penalty after a false win (錯和): no win this hand

    @property
    def is_closed(self) -> bool:
        return not any(meld.is_open for meld in self.melds)

    @property
    def in_riichi(self) -> bool:
        return self.riichi is not RiichiStage.NONE

    @property
    def hand_known(self) -> bool:
        return not any(tile.is_unknown for tile in self.concealed)


@dataclass(frozen=True, slots=True)
class KyokuState:
    """One hand in progress. ``scores`` and ``kyotaku`` move as riichi sticks are paid."""

    bakaze: Wind
    kyoku: int
    honba: int
    kyotaku: int
    oya: Seat
    scores: tuple[int, ...]
    dora_markers: tuple[Tile, ...]
    players: tuple[PlayerState, ...]
    live_wall: int = TENHOU.live_wall_at_start  # set from the game's profile at the deal
    turn: Seat | None = None  # who holds 14 tiles and must discard
    last_discard: Seat | None = None  # whose discard may be called or ronned right now
    last_discard_tile: Tile | None = None
    kakan_pending: Seat | None = None  # an added kan that may still be robbed (chankan)
    ankan_robbable: Seat | None = None  # a closed kan that thirteen orphans may still rob
    calls_made: int = 0  # chi/pon/kan of any kind: ends the first go-around
    kans: tuple[Seat, ...] = ()  # who made each kan, in order
    could_ron: tuple[Seat, ...] = ()  # known hands the last discard (or added kan) completes
    discards_made: int = 0  # every discard of the hand, in order
    wins: tuple[WinResult, ...] = ()
    result: HandResult | None = None

    @property
    def round_index(self) -> int:
        """0 = East 1, 4 = South 1, 8 = West 1, ..."""
        return int(self.bakaze) * 4 + self.kyoku - 1

    def label(self) -> str:
        return f"{'ESWN'[self.bakaze]}{self.kyoku}-{self.honba}"

    def player(self, seat: Seat) -> PlayerState:
        return self.players[seat]

    def with_player(self, seat: Seat, player: PlayerState) -> tuple[PlayerState, ...]:
        return (*self.players[:seat], player, *self.players[seat + 1 :])


@dataclass(frozen=True, slots=True)
class GameState:
    profile: RuleProfile = TENHOU
    names: tuple[str, ...] = ("", "", "", "")
    scores: tuple[int, ...] = ()
    hand: KyokuState | None = None
    hands_played: int = 0
    first_dealer: Seat = Seat.S0  # East of the first hand: ties in the ranking go their way
    results: tuple[HandResult, ...] = field(default=())
    next_hand: NextHand | None = None  # what the rules say the next hand starts with
    finished: bool = False
    final_points: tuple[float, ...] | None = None
    tally_deductions: tuple[int, ...] = (0, 0, 0, 0)  # game points lost to chombo (JPML)

    def seat_naming(self) -> SeatNaming:
        """How announcements name seats now: by the winds of the hand in play; between hands and
        after the game, of the hand just played (its draw and payments are announced then);
        before the first hand, by name or number (``table_app.domain.seat_names``)."""
        if self.hand is not None:
            return SeatNaming(self.names, self.hand.oya)
        if self.results:
            return self.hand_naming(self.results[-1].label)
        return SeatNaming(self.names)

    def hand_naming(self, label: str) -> SeatNaming:
        """How seats are named in the hand labelled ``label`` (``E3-1``), after the fact (a
        replay's report); anything but a hand's label (``game``) names seats by name or number."""
        round_wind, kyoku = label[:1], label[1:].partition("-")[0]
        if round_wind not in ("E", "S", "W", "N") or not kyoku.isdigit():
            return SeatNaming(self.names)
        # Kyoku N of any round is dealt by the seat N-1 after the first dealer.
        return SeatNaming(self.names, Seat((self.first_dealer + int(kyoku) - 1) % 4))
