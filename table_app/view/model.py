"""The table view: public information only, as frozen values with an explicit JSON form.

Concealed tiles never appear here, except hands laid open at the end of a hand (the winner's,
or the tenpai hands of an exhaustive draw): the display and the overlay are seen by everyone.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class DeviceStatus(StrEnum):
    """How an input the referee relies on is doing (serial link, camera)."""

    OK = "ok"
    LOST = "lost"
    CONNECTING = "connecting"
    ABSENT = "absent"  # not configured (a replay, or a table without a sensor board)


class RiichiView(StrEnum):
    NONE = "none"
    DECLARED = "declared"  # said riichi; the stick is not down yet
    ACCEPTED = "accepted"  # the stick is on the table


@dataclass(frozen=True, slots=True)
class AnnouncementText:
    """An announcement as the runtime rendered it: the web only shows it."""

    kind: str  # e.g. "riichi", "win", "draw", "illegal_call", "tray_mismatch"
    seat: int | None
    ja: str
    en: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "ja": self.ja, "en": self.en}


@dataclass(frozen=True, slots=True)
class RoundLabel:
    wind: str  # "East", "South", ...
    number: int  # 1-4 within the wind round
    en: str  # "East 2"
    ja: str  # "東2局"

    def to_json(self) -> dict[str, Any]:
        return {"wind": self.wind, "number": self.number, "en": self.en, "ja": self.ja}


@dataclass(frozen=True, slots=True)
class PondTileView:
    tile: str  # compact code: "1m".."9s", "0m" for a red five, "1z".."7z"
    riichi: bool  # laid sideways: the riichi tile
    called: bool  # taken by a call (shown greyed: it now sits in a meld)
    tsumogiri: bool

    def to_json(self) -> dict[str, Any]:
        return {"tile": self.tile, "riichi": self.riichi, "called": self.called, "tsumogiri": self.tsumogiri}


@dataclass(frozen=True, slots=True)
class MeldView:
    kind: str  # chi, pon, daiminkan, kakan, ankan
    tiles: tuple[str, ...]  # display order, the called tile included
    called: str | None  # the tile turned sideways
    called_from: int | None  # the seat it came from
    relation: str | None  # where that seat sits: "left", "across", "right"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "tiles": list(self.tiles),
            "called": self.called,
            "called_from": self.called_from,
            "relation": self.relation,
        }


@dataclass(frozen=True, slots=True)
class TrayView:
    """A seat's point-stick tray as the sensor board reads it, and how far it is off the score."""

    points: int
    difference: int | None  # points - score; None while the score is not known

    def to_json(self) -> dict[str, Any]:
        return {"points": self.points, "difference": self.difference}


@dataclass(frozen=True, slots=True)
class SeatLabel:
    """How people are shown this seat (``table_app.domain.seat_names``): never the index."""

    number: int  # 1-4, where a plain number is needed
    en: str  # "East (Aoki)", "East", "Aoki" or "Seat 1"
    ja: str  # "東家（Aoki）", "東家", "Aoki" or "1番席"
    person: str  # the name, else "Seat 1": beside a wind shown on its own

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "en": self.en, "ja": self.ja, "person": self.person}


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int  # the machine's index 0-3 (JSON, mjai, tenhou.net/6); people see ``label``
    label: SeatLabel
    wind: str  # "E", "S", "W", "N" this hand
    wind_ja: str  # 東 南 西 北
    name: str
    score: int
    dealer: bool
    riichi: RiichiView
    pond: tuple[PondTileView, ...]
    melds: tuple[MeldView, ...]
    open_hand: tuple[str, ...] | None  # laid open at the end of the hand, else None
    tray: TrayView | None
    on_turn: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "label": self.label.to_json(),
            "wind": self.wind,
            "wind_ja": self.wind_ja,
            "name": self.name,
            "score": self.score,
            "dealer": self.dealer,
            "riichi": self.riichi.value,
            "pond": [tile.to_json() for tile in self.pond],
            "melds": [meld.to_json() for meld in self.melds],
            "open_hand": None if self.open_hand is None else list(self.open_hand),
            "tray": None if self.tray is None else self.tray.to_json(),
            "on_turn": self.on_turn,
        }


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything the display, overlay and console draw, at one moment of the game."""

    sequence: int  # grows by one with every new view: clients drop stale ones
    profile: str
    in_hand: bool  # false between hands and after the game
    round: RoundLabel | None
    honba: int
    riichi_sticks: int  # on the table (供託)
    dealer: int | None
    dora_indicators: tuple[str, ...]
    live_wall: int | None
    seats: tuple[SeatView, ...]
    announcement: AnnouncementText | None
    question: AnnouncementText | None  # what the referee is asked to confirm, if anything
    link: DeviceStatus
    camera: DeviceStatus
    finished: bool
    final_points: tuple[float, ...] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "sequence": self.sequence,
            "profile": self.profile,
            "in_hand": self.in_hand,
            "round": None if self.round is None else self.round.to_json(),
            "honba": self.honba,
            "riichi_sticks": self.riichi_sticks,
            "dealer": self.dealer,
            "dora_indicators": list(self.dora_indicators),
            "live_wall": self.live_wall,
            "seats": [seat.to_json() for seat in self.seats],
            "announcement": None if self.announcement is None else self.announcement.to_json(),
            "question": None if self.question is None else self.question.to_json(),
            "link": self.link.value,
            "camera": self.camera.value,
            "finished": self.finished,
            "final_points": None if self.final_points is None else list(self.final_points),
        }
