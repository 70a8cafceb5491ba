"""Game events: what happened at the table, in mjai's vocabulary.

One frozen dataclass per mjai event type, with mjai's field names where they fit. A tile the
referee did not see (another player's draw, a concealed hand) is the domain's ``UNKNOWN``.
Events say *what* happened; whether it was legal and what it costs is for the rules core.

Two additions to mjai, both things a referee at a real table does see:
- :class:`Hora` may carry the hand laid open (``hand``) and the hora itself names no points;
  points are computed by the rules core (the log's own figures live in the log record);
- :class:`Ryukyoku` carries the kind of draw when the source knows it (mjai does not) and
  the hands laid open at the draw.
And two events of the referee's own, which mjai has no line for: :class:`Chombo` (a penalty
confirmed) and :class:`ProfileChange` (the rule set changed between hands).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from table_app.domain.seat import Seat, Wind
from table_app.domain.tile import Tile


class DrawKind(StrEnum):
    """How a hand ended without a win."""

    EXHAUSTIVE = "exhaustive"  # 荒牌平局: the live wall is empty
    NINE_TERMINALS = "nine_terminals"  # 九種九牌
    FOUR_WINDS = "four_winds"  # 四風子連打
    FOUR_KANS = "four_kans"  # 四槓散了
    FOUR_RIICHI = "four_riichi"  # 四家立直
    TRIPLE_RON = "triple_ron"  # 三家和
    NAGASHI_MANGAN = "nagashi_mangan"  # 流し満貫 (an exhaustive draw with a mangan payment)
    UNSPECIFIED = "unspecified"  # the source does not say (mjai): the rules core infers it


@dataclass(frozen=True, slots=True)
class StartGame:
    names: tuple[str, ...] = ("", "", "", "")


@dataclass(frozen=True, slots=True)
class StartKyoku:
    bakaze: Wind
    kyoku: int  # 1-4 within the wind round
    honba: int
    kyotaku: int  # riichi sticks on the table
    oya: Seat
    scores: tuple[int, ...]
    dora_marker: Tile
    tehais: tuple[tuple[Tile, ...], ...]  # 13 tiles each, UNKNOWN where not seen


@dataclass(frozen=True, slots=True)
class Tsumo:
    actor: Seat
    pai: Tile


@dataclass(frozen=True, slots=True)
class Dahai:
    actor: Seat
    pai: Tile
    tsumogiri: bool


@dataclass(frozen=True, slots=True)
class Chi:
    actor: Seat
    target: Seat
    pai: Tile
    consumed: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Pon:
    actor: Seat
    target: Seat
    pai: Tile
    consumed: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Daiminkan:
    actor: Seat
    target: Seat
    pai: Tile
    consumed: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Kakan:
    actor: Seat
    pai: Tile
    consumed: tuple[Tile, ...]  # the three tiles of the pon it extends


@dataclass(frozen=True, slots=True)
class Ankan:
    actor: Seat
    consumed: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Dora:
    dora_marker: Tile


@dataclass(frozen=True, slots=True)
class Reach:
    actor: Seat


@dataclass(frozen=True, slots=True)
class ReachAccepted:
    actor: Seat


@dataclass(frozen=True, slots=True)
class Hora:
    actor: Seat
    target: Seat  # the discarder, or ``actor`` for tsumo
    pai: Tile
    ura_markers: tuple[Tile, ...] = ()
    hand: tuple[Tile, ...] | None = None  # concealed tiles laid open, without ``pai``


@dataclass(frozen=True, slots=True)
class ShownHand:
    seat: Seat
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Ryukyoku:
    kind: DrawKind = DrawKind.UNSPECIFIED
    shown: tuple[ShownHand, ...] = ()  # hands laid open (tenpai at an exhaustive draw)
    actor: Seat | None = None  # who declared it (nine terminals)


@dataclass(frozen=True, slots=True)
class Chombo:
    """The referee's ruling after a verdict of chombo (not an mjai event: mjai logs have none).

    ``reason`` is the verdict's reason code. What follows is the profile's business: a
    mangan payment and the hand replayed, a deduction on the final tally and the hand
    replayed, or (純麻雀) the offender loses rights and the hand goes on."""

    actor: Seat
    reason: str = ""


@dataclass(frozen=True, slots=True)
class ProfileChange:
    """The rule profile in force from here on (the referee chose it between hands; not an mjai
    event). ``profile`` is its name, as :func:`table_app.rules.profiles.profile_named` reads it."""

    profile: str


@dataclass(frozen=True, slots=True)
class EndKyoku:
    pass


@dataclass(frozen=True, slots=True)
class EndGame:
    pass


GameEvent = (
    StartGame
    | StartKyoku
    | Tsumo
    | Dahai
    | Chi
    | Pon
    | Daiminkan
    | Kakan
    | Ankan
    | Dora
    | Reach
    | ReachAccepted
    | Hora
    | Ryukyoku
    | Chombo
    | ProfileChange
    | EndKyoku
    | EndGame
)
