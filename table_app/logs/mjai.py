"""mjai JSON lines → games.

Each line is decoded by the same codec the journal writes with
(:mod:`table_app.rules.mjai_codec`); this reader only adds what a log needs beyond events.
mjai's own ``hora`` and ``ryukyoku`` carry the payments (``deltas``): they become the log's
record. Logs in the wild are lenient where the codec is exact: a ``hora`` without ``pai``
wins on the last tile drawn, discarded or added to a kan; ``uradora_markers`` is read as
``ura_markers``; a ``dahai`` without ``tsumogiri`` was not one. A ``ryukyoku`` does not say
which draw it was (the rules core infers it); jantaku's own exports do, and keep what mjai
has no form for (a hand voided by a chombo, a ruling, the hand still in play) in
``start_game``'s ``jantaku`` field, which this reader puts back in place.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from table_app.domain.notation import to_mjai
from table_app.domain.seat import Seat
from table_app.domain.tile import Tile
from table_app.logs.errors import LogReadError
from table_app.rules.events import Chombo, Dahai, EndGame, EndKyoku, GameEvent, Hora, Kakan, Ryukyoku, Tsumo
from table_app.rules.mjai_codec import EVENT_TYPES, event_from_mjai
from table_app.rules.record import FinalRecord, GameLog, HandEnding, HandRecord, LogRules, WinRecord


def _deltas(values: Sequence[int] | None) -> tuple[int, ...] | None:
    return None if values is None else tuple(int(v) for v in values)


class _MjaiGame:
    """Folds decoded events and the lines they came from into the log's record."""

    def __init__(self) -> None:
        self.events: list[GameEvent] = []
        self.hands: list[HandRecord] = []
        self.wins: list[WinRecord] = []
        self.draw: HandRecord | None = None
        self.final: FinalRecord | None = None
        self.complete = False
        self.last_tile: Tile | None = None

    def lenient(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """The line in the codec's exact form."""
        line = dict(raw)
        if line["type"] == "hora":
            if "pai" not in line:
                if self.last_tile is None:
                    raise ValueError("hora before any tile was played")
                line["pai"] = to_mjai(self.last_tile)
            if "uradora_markers" in line and "ura_markers" not in line:
                line["ura_markers"] = line["uradora_markers"]
        elif line["type"] == "dahai":
            line.setdefault("tsumogiri", False)
        return line

    def add(self, event: GameEvent, raw: Mapping[str, Any]) -> None:
        self.events.append(event)
        match event:
            case Tsumo() | Dahai() | Kakan():
                self.last_tile = event.pai
            case Hora():
                self.wins.append(
                    WinRecord(
                        Seat(event.actor),
                        Seat(event.target),
                        raw.get("hora_points"),
                        raw.get("fan"),
                        raw.get("fu"),
                        _deltas(raw.get("deltas")),
                    )
                )
            case Ryukyoku():
                self.draw = HandRecord(HandEnding.of_draw(event.kind), _deltas(raw.get("deltas")))
            case Chombo():
                self.draw = HandRecord(HandEnding.CHOMBO, _deltas(raw.get("deltas")))
            case EndKyoku():
                self._end_hand()
            case EndGame():
                self.complete = True
                if "scores" in raw:
                    self.final = FinalRecord(tuple(int(s) for s in raw["scores"]))
            case _:
                pass

    def _end_hand(self) -> None:
        if self.wins:
            parts = [w.deltas for w in self.wins]
            total = None if any(p is None for p in parts) else tuple(sum(v) for v in zip(*parts, strict=True))
            self.hands.append(HandRecord(HandEnding.WIN, total, tuple(self.wins)))
        elif self.draw is not None:
            self.hands.append(self.draw)
        self.wins, self.draw = [], None


def _header(raw: Mapping[str, Any]) -> dict[str, Any]:
    """What jantaku's own export keeps in ``start_game`` for itself (see
    :mod:`table_app.journal.export`): voided hands, rulings, the hand still in play."""
    header = raw.get("jantaku")
    return dict(header) if raw.get("type") == "start_game" and isinstance(header, Mapping) else {}


def read_mjai_text(text: str, source: str) -> tuple[GameLog, ...]:
    game = _MjaiGame()
    header: dict[str, Any] = {}
    hands_read = 0

    def take(raw: Mapping[str, Any], where: str) -> None:
        try:
            event = event_from_mjai(game.lenient(raw))
        except (KeyError, TypeError, ValueError) as error:
            raise LogReadError(source, where, f"bad mjai event ({error})") from error
        game.add(event, raw)

    def splice_voided() -> None:
        for hand in header.get("voided_hands", ()):
            if hand.get("after_hands") == hands_read:
                for kept in hand.get("events", ()):
                    take(kept, f"start_game's voided hand after hand {hands_read}")

    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            kind = raw["type"]
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            raise LogReadError(source, f"line {number}", f"bad mjai event ({error})") from error
        if kind not in EVENT_TYPES:
            continue  # none, hello and other protocol messages
        header = header or _header(raw)
        if kind in ("start_kyoku", "end_game"):
            splice_voided()
        for ruling in header.get("rulings", ()):
            if ruling.get("before_line") == number:
                take(ruling["event"], f"start_game's ruling before line {number}")
        take(raw, f"line {number}")
        if kind == "end_kyoku":
            hands_read += 1
    if not game.complete:
        splice_voided()
        for kept in header.get("hand_in_play", ()):
            take(kept, "start_game's hand in play")
    if not game.events:
        raise LogReadError(source, "end", "no mjai events")
    rules = _rules_of(str(header.get("profile", "")))
    return (GameLog(source, 4, tuple(game.events), tuple(game.hands), game.final, game.complete, rules),)


def _rules_of(profile: str) -> LogRules:
    """What a jantaku export's profile name (``tenhou+east+early``) says of the game's rules,
    as a Tenhou log would say it, so the game is checked under the rules it was played by."""
    changes = set(profile.split("+")[1:])
    return LogRules(
        east_only="east" in changes or None,
        red_fives=False if "no_red" in changes else None,
        kiriage_mangan="kiriage" in changes or None,
        early_tenhou="early" in changes,
    )
