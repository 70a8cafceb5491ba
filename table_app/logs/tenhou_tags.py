"""Tenhou's tags (mjlog XML and the client protocol speak the same ones) → game events.

One :class:`TenhouTagTranslator` per file. Feed it tags in order; it builds the events,
the log's record of every hand and the final tally, and splits a file into games (a client
transcript can hold more than one). With ``seen_from`` set (client transcripts) only that
seat's tiles are known: other draws are ``UNKNOWN``, and lower-case discard tags mark a
tsumogiri. A hand joined mid-way (``REINIT`` after a reconnection) cannot be replayed and
is left out; the game then starts at its next ``INIT`` (what came before, if anything, is
kept as an incomplete game).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Final
from urllib.parse import unquote

from table_app.domain.notation import from_tenhou136
from table_app.domain.seat import Seat, Wind
from table_app.domain.tile import UNKNOWN, Tile
from table_app.logs.errors import LogReadError
from table_app.logs.tenhou_meld import TenhouCall, decode_meld
from table_app.rules.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    DrawKind,
    EndGame,
    EndKyoku,
    GameEvent,
    Hora,
    Kakan,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    ShownHand,
    StartGame,
    StartKyoku,
    Tsumo,
)
from table_app.rules.record import FinalRecord, GameLog, HandEnding, HandRecord, LogRules, WinRecord

_DRAW_TAGS: Final = "TUVW"
_DISCARD_TAGS: Final = "DEFG"
_DRAW_KINDS: Final = {
    "yao9": DrawKind.NINE_TERMINALS,
    "reach4": DrawKind.FOUR_RIICHI,
    "ron3": DrawKind.TRIPLE_RON,
    "kan4": DrawKind.FOUR_KANS,
    "kaze4": DrawKind.FOUR_WINDS,
    "nm": DrawKind.NAGASHI_MANGAN,
}


def _ints(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


class TenhouTagTranslator:
    def __init__(self, source: str, *, seen_from: Seat | None = None) -> None:
        self._source = source
        self._seen_from = seen_from
        self._games: list[GameLog] = []
        self._names: tuple[str, ...] = ("", "", "", "")
        self._red = True
        self._players = 4
        self._rules = LogRules()
        self._reset_game()

    # -- feeding -------------------------------------------------------------------

    def feed(self, tag: str, attrs: Mapping[str, str], position: str) -> None:
        self._position = position
        try:
            self._dispatch(tag, attrs)
        except (KeyError, ValueError, IndexError) as error:
            if isinstance(error, LogReadError):
                raise
            raise LogReadError(self._source, position, f"bad <{tag}> tag ({error!r})") from error

    def finish(self) -> tuple[GameLog, ...]:
        self._close_game(complete=False)
        return tuple(self._games)

    # -- dispatch ------------------------------------------------------------------

    def _dispatch(self, tag: str, attrs: Mapping[str, str]) -> None:
        head, rest = tag[:1], tag[1:]
        if rest.isdigit() or (not rest and head in _DRAW_TAGS):
            if head in _DRAW_TAGS:
                self._draw(Seat(_DRAW_TAGS.index(head)), int(rest) if rest else None)
                return
            if head.upper() in _DISCARD_TAGS and rest:
                self._discard(Seat(_DISCARD_TAGS.index(head.upper())), int(rest), lower=head.islower())
                return
        match tag:
            case "GO":
                self._close_game(complete=False)
                game_type = int(attrs.get("type", "0"))
                self._red = not game_type & 0x02
                self._players = 3 if game_type & 0x10 else 4
                # Bits above 0xFF mark chip, ratio and tournament lobbies (their own uma/points).
                self._rules = LogRules(
                    east_only=not game_type & 0x08,
                    red_fives=self._red,
                    special_lobby=game_type > 0xFF,
                    kiriage_mangan=bool(game_type & 0x200),  # the chip lobbies round 4/30 and 3/60 up
                    # 0x400 lobbies pay honba at their own rate, which the log does not state.
                    unsupported=f"lobby rules not described (GO type {game_type})" if game_type & 0x400 else None,
                    # Tenhou bans kuikae, but its own client enforces it, not the server: a
                    # transcript of another client shows the server taking swap discards.
                    kuikae_unchecked=self._seen_from is not None,
                )
            case "UN":
                names = tuple(unquote(attrs.get(f"n{i}", "")) for i in range(4))
                if any(names):
                    self._names = names
                if "n3" in attrs and not attrs["n3"] and self._players == 4 and "dan" in attrs:
                    self._players = 3
            case "INIT":
                self._init(attrs)
            case "REINIT":
                # A reconnection: the hand joined mid-way is left out, and what came before is
                # closed as a game of its own, so no result is compared across the gap.
                self._close_game(complete=False)
                self._in_hand = False
            case "N":
                self._call(Seat(int(attrs["who"])), int(attrs["m"]))
            case "REACH":
                self._reach(Seat(int(attrs["who"])), int(attrs["step"]))
            case "DORA":
                self._emit(Dora(self._tile(int(attrs["hai"]))))
            case "AGARI":
                self._agari(attrs)
            case "RYUUKYOKU":
                self._ryukyoku(attrs)
            case _:
                pass  # SHUFFLE, TAIKYOKU, BYE, PROF and the rest of the chatter carry no game events

    # -- game and hand boundaries ----------------------------------------------------

    def _reset_game(self) -> None:
        self._events: list[GameEvent] = []
        self._hands: list[HandRecord] = []
        self._wins: list[WinRecord] = []
        self._pending: HandRecord | None = None
        self._final: FinalRecord | None = None
        self._in_hand = False
        self._last_draw: dict[Seat, int | None] = {}
        self._position = "start"

    def _close_game(self, *, complete: bool) -> None:
        self._flush_hand()
        if any(isinstance(event, StartKyoku) for event in self._events):
            if complete:
                self._events.append(EndGame())
            self._games.append(
                GameLog(
                    self._source,
                    self._players,
                    tuple(self._events),
                    tuple(self._hands),
                    self._final,
                    complete,
                    self._rules,
                )
            )
        self._reset_game()

    def _flush_hand(self) -> None:
        if self._wins:
            deltas = tuple(sum(parts) for parts in zip(*(w.deltas or (0,) * 4 for w in self._wins), strict=True))
            self._pending = HandRecord(HandEnding.WIN, deltas, tuple(self._wins))
            self._wins = []
        if self._pending is not None:
            self._events.append(EndKyoku())
            self._hands.append(self._pending)
            self._pending = None

    def _emit(self, event: GameEvent) -> None:
        if self._in_hand:
            self._events.append(event)

    def _tile(self, tile_id: int) -> Tile:
        return from_tenhou136(tile_id, red_fives=self._red)

    def _init(self, attrs: Mapping[str, str]) -> None:
        self._flush_hand()
        if "shuffle" in attrs and not self._rules.early_tenhou:
            self._rules = replace(self._rules, early_tenhou=True)  # only the 2009 format shuffles per hand
        seed = _ints(attrs["seed"])
        if len(seed) < 6:
            raise LogReadError(self._source, self._position, "INIT seed needs six numbers")
        round_index, honba, sticks = seed[0], seed[1], seed[2]
        scores = tuple(100 * s for s in _ints(attrs["ten"]))
        if not self._events:
            self._events.append(StartGame(self._names))
        tehais = []
        for seat in range(4):
            own = attrs.get(f"hai{seat}")
            if own is None and self._seen_from is not None and seat == self._seen_from:
                own = attrs.get("hai")
            if own:
                tehais.append(tuple(self._tile(t) for t in _ints(own)))
            else:
                tehais.append((UNKNOWN,) * 13 if seat < len(scores) and self._players == 4 else ())
        if len(scores) == 3 or self._players == 3:
            self._players = 3
        self._in_hand = True
        self._last_draw = {}
        self._emit(
            StartKyoku(
                bakaze=Wind(round_index // 4 % 4),
                kyoku=round_index % 4 + 1,
                honba=honba,
                kyotaku=sticks,
                oya=Seat(int(attrs["oya"])),
                scores=scores,
                dora_marker=self._tile(seed[5]),
                tehais=tuple(tehais),
            )
        )

    # -- turns ------------------------------------------------------------------------

    def _draw(self, seat: Seat, tile_id: int | None) -> None:
        self._last_draw[seat] = tile_id
        self._emit(Tsumo(seat, UNKNOWN if tile_id is None else self._tile(tile_id)))

    def _discard(self, seat: Seat, tile_id: int, *, lower: bool) -> None:
        drawn = self._last_draw.get(seat)
        tsumogiri = lower if self._seen_from is not None and seat != self._seen_from else drawn == tile_id
        self._last_draw[seat] = None
        self._emit(Dahai(seat, self._tile(tile_id), tsumogiri))

    def _call(self, seat: Seat, m: int) -> None:
        meld = decode_meld(m)
        consumed = tuple(self._tile(t) for t in meld.consumed)
        target = Seat((seat + meld.distance) % 4)
        match meld.call:
            case TenhouCall.CHI:
                assert meld.called is not None
                self._emit(Chi(seat, target, self._tile(meld.called), consumed))
            case TenhouCall.PON:
                assert meld.called is not None
                self._emit(Pon(seat, target, self._tile(meld.called), consumed))
            case TenhouCall.DAIMINKAN:
                assert meld.called is not None
                self._emit(Daiminkan(seat, target, self._tile(meld.called), consumed))
            case TenhouCall.KAKAN:
                assert meld.called is not None
                self._emit(Kakan(seat, self._tile(meld.called), consumed))
            case TenhouCall.ANKAN:
                self._emit(Ankan(seat, consumed))
            case TenhouCall.NUKIDORA:
                self._players = 3

    def _reach(self, seat: Seat, step: int) -> None:
        self._emit(Reach(seat) if step == 1 else ReachAccepted(seat))

    # -- endings ----------------------------------------------------------------------

    def _deltas(self, attrs: Mapping[str, str]) -> tuple[int, ...]:
        sc = _ints(attrs["sc"])[:8]  # chip lobbies append chip counts after the four scores
        return tuple(100 * d for d in sc[1::2])

    def _agari(self, attrs: Mapping[str, str]) -> None:
        who = Seat(int(attrs["who"]))
        target = Seat(int(attrs["fromWho"]))
        win_id = int(attrs["machi"])
        concealed = [t for t in _ints(attrs["hai"]) if t != win_id]
        ura = tuple(self._tile(t) for t in _ints(attrs.get("doraHaiUra", "")))
        self._emit(Hora(who, target, self._tile(win_id), ura, tuple(self._tile(t) for t in concealed)))
        fu, points, _limit = _ints(attrs["ten"])[:3]
        han = sum(_ints(attrs.get("yaku", ""))[1::2]) if "yaku" in attrs else None
        pao = Seat(int(attrs["paoWho"])) if "paoWho" in attrs else None
        if self._in_hand:
            self._wins.append(WinRecord(who, target, points, han, fu, self._deltas(attrs), pao))
        self._owari(attrs)

    def _ryukyoku(self, attrs: Mapping[str, str]) -> None:
        kind = _DRAW_KINDS.get(attrs.get("type", ""), DrawKind.EXHAUSTIVE)
        shown = tuple(
            ShownHand(Seat(seat), tuple(self._tile(t) for t in _ints(attrs[f"hai{seat}"])))
            for seat in range(4)
            if f"hai{seat}" in attrs
        )
        self._emit(Ryukyoku(kind, shown))
        if self._in_hand:
            self._pending = HandRecord(HandEnding.of_draw(kind), self._deltas(attrs))
        self._owari(attrs)

    def _owari(self, attrs: Mapping[str, str]) -> None:
        if "owari" not in attrs:
            return
        values = attrs["owari"].split(",")[:8]
        scores = tuple(round(100 * float(v)) for v in values[0::2])
        points = tuple(float(v) for v in values[1::2])
        self._final = FinalRecord(scores, points)
        self._close_game(complete=True)
