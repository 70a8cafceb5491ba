"""The referee core's state between observations, as values: the game plus what the sensors said.

``RefereeSession`` holds the folded game (the journal's truth) and the interpretation's own
memory: the last tray reading, the health of the link and camera, a discard waiting for its
wall step, a riichi waiting to be accepted, hands laid open at a draw, the sensor
disagreements still settling, and the question put to the referee, if any. It is rebuilt
after a crash from the journal alone: everything here beyond ``game`` is sensor memory that
the next readings restore.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from table_app.announce.announcement import Announcement
from table_app.domain.seat import Seat
from table_app.domain.tile import Tile
from table_app.interpret.ruling import DONE, Ruling
from table_app.observations import LinkHealth, PondTileAdded, TileCorrected, TraysRead
from table_app.rules.events import GameEvent, ShownHand
from table_app.rules.fold import new_game
from table_app.rules.profiles import TENHOU, RuleProfile
from table_app.rules.state import GameState

#: Seconds a sensor reading must stand unchanged, still disagreeing with the game, before the
#: disagreement is announced (a stick half placed, a tile being drawn, a board a moment behind).
#: A player who declares riichi may take a second or more to put the stick down.
SETTLE_S = 2.0
CONFIDENCE_FLOOR = 0.6  # below it a camera reading is put to the referee to confirm or correct


@dataclass(frozen=True, slots=True)
class TableSetup:
    """What the config says before the first tile: the rule profile, names, the first dealer,
    and how long a sensor disagreement must stand before it is announced."""

    profile: RuleProfile = TENHOU
    names: tuple[str, ...] = ("", "", "", "")
    first_dealer: Seat = Seat.S0
    confidence_floor: float = CONFIDENCE_FLOOR  # a camera reading below it is taken, then put to the referee
    settle_s: float = SETTLE_S


class Check(StrEnum):
    """What the sensor board is checked for against the game."""

    WALL = "wall"
    DEPOSIT = "deposit"
    TRAY = "tray"


@dataclass(frozen=True, slots=True)
class Suspect:
    """A reading that disagrees with the game and has not settled yet (or has, and was said).

    ``since`` is the first tick that saw it (``None`` until one has); it is announced once a
    tick comes ``settle_s`` after that with the reading unchanged and still disagreeing."""

    check: Check
    seat: Seat | None  # the tray's seat; None for the wall and the deposit
    expected: int
    read: int
    since: float | None = None
    announced: bool = False


@dataclass(frozen=True, slots=True)
class Question:
    """Something the sensors cannot settle, put to the referee. Each option carries the events
    it leads to (an empty tuple: nothing happened, a misread). CONFIRM picks option 0."""

    id: int
    seat: Seat | None
    topic: str
    options: tuple[str, ...]
    outcomes: tuple[tuple[GameEvent, ...], ...]
    refused: tuple[GameEvent, ...] = ()  # a penalty question: the act the judge refused (a tile
    # corrected later may make it stand)
    taken_as_read: bool = False
    """A check on a reading already in the game (an uncertain tile): it only asks the referee to
    look. CONFIRM acknowledges it, and does what it would have done without it (ends a hand that
    can end): a check must not swallow the press that ends the hand."""


@dataclass(frozen=True, slots=True)
class RefereeSession:
    setup: TableSetup = TableSetup()
    game: GameState = field(default_factory=lambda: new_game(TENHOU))
    started: bool = False  # start_game was journaled
    awaiting_deal: bool = True  # between hands: the next dora indicator starts a hand
    link: LinkHealth = LinkHealth.CONNECTING
    link_lost: bool = False  # a loss was announced: the next connection is announced as restored
    camera_ok: bool = True
    trays: TraysRead | None = None
    pending_discard: PondTileAdded | None = None  # seen by the camera, waiting for the wall step
    riichi_waiting: Seat | None = None  # declared; reach_accepted is due before the next act
    ura: tuple[Tile, ...] = ()  # ura-dora indicators turned over for a riichi win
    shown: tuple[ShownHand, ...] = ()  # hands laid open as tenpai at an exhaustive draw
    question: Question | None = None
    next_question: int = 1
    payments_due: bool = False  # a hand ended: the trays should come to the new scores
    suspects: tuple[Suspect, ...] = ()  # sensor readings that disagree with the game
    now: float | None = None  # the last tick's time (the core's clock)

    @property
    def link_up(self) -> bool:
        return self.link is LinkHealth.CONNECTED and self.trays is not None


@dataclass(frozen=True, slots=True)
class Decision:
    """What one observation led to: the session after it, the events accepted (to journal, in
    order, before anything is shown), what to announce, and whether the referee asked to undo
    the last event or to correct a discard (the core finds it in the journal and replays the
    hand from there: :mod:`table_app.interpret.correction`); and the ruling on what was asked
    (a refused correction or profile change says why). A rule profile changed between hands
    is one of the events (``ProfileChange``)."""

    session: RefereeSession
    events: tuple[GameEvent, ...] = ()
    announcements: tuple[Announcement, ...] = ()
    undo: bool = False
    correction: TileCorrected | None = None
    ruling: Ruling = DONE


def new_session(setup: TableSetup) -> RefereeSession:
    """A session before the first tile, playing under ``setup``'s rule profile."""
    return RefereeSession(setup=setup, game=new_game(setup.profile))
