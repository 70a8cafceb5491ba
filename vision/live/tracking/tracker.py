"""``Tracker``: per-frame table readings → the referee's observations, each change once.

Rules (``docs/vision.md``, "Tracking", says the same for readers of the docs):
- a zone's change is reported once its readings agreed for ``frames_to_confirm`` frames in a
  row; each new tile's face is voted over those frames, its confidence the agreeing share
  times the mean classifier confidence (a meld's or hand's: its weakest tile's);
- an occluded zone holds its last state: an arm over a pond removes nothing;
- a pond that grows reports each new tile in order; one that loses its last tile reports its
  removal with the call that took it (after the meld), or alone once ``removal_wait_s`` passed
  with no call; if the tile comes back first, nothing left the pond and nothing is reported; a
  tile already reported and read differently later is not reported again (the referee's
  console corrects tiles); any other shrinking is a misread until the table clears;
- a new meld → ``MeldAppeared`` (see ``melds``), an added tile → ``MeldExtended``;
- new dora indicators → ``DoraRevealed``; the ura row → ``UraIndicatorsRevealed``, before the
  win it belongs to: a riichi player's win with a tile set apart waits up to ``ura_wait_s``
  for the ura indicators to be turned over (the referee scores the win when it sees the hand);
- a hand laid open → ``HandLaidOpen(hand + winning tile, winning tile)``, once per hand;
- the table cleared after a hand (every pond, meld and open hand empty) → ``HandStarted``; the
  next indicator seen → ``DoraRevealed``. An indicator still lying there from the hand before
  is not taken for the new one until the row changed, went empty, or the new hand's first
  discard shows the hand is on;
- changes confirmed together are posted in turn order (``turns``);
- a discard the camera could not see (its pond occluded, or the camera lost) that a call then
  took is inferred from the call: ``PondTileAdded`` then the meld then ``PondTileRemoved``.

Pure: readings in, observations out, no clock but the readings' own.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from table_app.domain.seat import Seat
from table_app.domain.tile import Tile
from table_app.observations import (
    DoraRevealed,
    HandLaidOpen,
    HandStarted,
    MeldAppeared,
    MeldExtended,
    Observation,
    PondTileAdded,
    PondTileRemoved,
    UraIndicatorsRevealed,
)
from vision.live.reading import SeatReading, SeenMeld, SeenTile, TableReading, Zone
from vision.live.tracking.melds import called_meld, closed_kan
from vision.live.tracking.settings import DEFAULT_SETTINGS, TrackerSettings
from vision.live.tracking.turns import Batch, Call, Turn, in_turn_order
from vision.live.tracking.vote import vote
from vision.live.tracking.window import ZoneWindow

log = logging.getLogger(__name__)

OpenHand = tuple[tuple[SeenTile, ...], SeenTile | None]
MeldShape = tuple[tuple[int, int | None, bool], ...]


def _meld_shape(melds: tuple[SeenMeld, ...]) -> MeldShape:
    return tuple((len(m.tiles), m.turned_at, m.added is not None) for m in melds)


def _hand_shape(hand: OpenHand) -> tuple[int, bool]:
    return len(hand[0]), hand[1] is not None


@dataclass(frozen=True, slots=True)
class _Removal:
    tile: Tile
    since: float  # the reading that first settled without it


@dataclass
class _SeatMemory:
    """What has been reported of one seat this hand."""

    pond: list[Tile] = field(default_factory=list)
    melds: list[tuple[int, int | None]] = field(default_factory=list)  # size and turned index of each
    extended: set[int] = field(default_factory=set)  # melds whose added tile was reported
    removed: _Removal | None = None  # the pond's last tile left it: posted with the call that took it
    hand_shown: bool = False
    riichi: bool = False
    pond_unseen: bool = False  # the pond was out of view since its last reported change


class _SeatZones:
    def __init__(self, frames: int) -> None:
        self.pond: ZoneWindow[tuple[SeenTile, ...]] = ZoneWindow(frames, len, ())
        self.melds: ZoneWindow[tuple[SeenMeld, ...]] = ZoneWindow(frames, _meld_shape, ())
        self.hand: ZoneWindow[OpenHand] = ZoneWindow(frames, _hand_shape, ((), None))

    def push(self, seat: SeatReading) -> None:
        if Zone.POND not in seat.occluded:
            self.pond.push(seat.pond)
        if Zone.MELDS not in seat.occluded:
            self.melds.push(seat.melds)
        if Zone.HAND not in seat.occluded:
            self.hand.push((seat.open_hand, seat.winning))

    def interrupt(self) -> None:
        for window in (self.pond, self.melds, self.hand):
            window.interrupt()

    @property
    def cleared(self) -> bool:
        return not self.pond.current and not self.melds.current and not self.hand.current[0]


class Tracker:
    """``resume``: the referee already holds what the table shows (the runtime restarted in the
    middle of a game): each zone's first agreed state is taken as reported, without observations,
    and only what changes after it is posted."""

    def __init__(self, settings: TrackerSettings = DEFAULT_SETTINGS, *, resume: bool = False) -> None:
        self.settings = settings
        frames = settings.frames_to_confirm
        self._zones = tuple(_SeatZones(frames) for _ in Seat)
        self._dora: ZoneWindow[tuple[SeenTile, ...]] = ZoneWindow(frames, len, ())
        self._ura: ZoneWindow[tuple[SeenTile, ...]] = ZoneWindow(frames, len, ())
        self._seats = tuple(_SeatMemory() for _ in Seat)
        self._dora_reported: list[Tile] = []
        self._stale_dora: tuple[Tile, ...] | None = None  # the hand before's indicators, still lying there
        self._ura_reported = False
        self._hand_seen = False  # something of this hand was reported: a cleared table starts the next
        self._win_waiting_since: float | None = None
        self._held: list[HandLaidOpen] = []  # a riichi win waiting for its ura indicators
        self._turn = Turn()
        zones = [f"{zone}{seat}" for seat in Seat for zone in ("pond", "melds", "hand")]
        self._to_adopt: set[str] = {*zones, "dora", "ura"} if resume else set()

    def interrupted(self) -> None:
        """The frames stopped (the camera was lost): no run of readings spans the gap, and a
        discard made meanwhile may never have been seen."""
        for zones, memory in zip(self._zones, self._seats, strict=True):
            zones.interrupt()
            memory.pond_unseen = True
        self._dora.interrupt()
        self._ura.interrupt()

    def update(self, reading: TableReading) -> tuple[Observation, ...]:
        at = reading.at
        for zones, memory, seen in zip(self._zones, self._seats, reading.seats, strict=True):
            zones.push(seen)
            if Zone.POND in seen.occluded:
                memory.pond_unseen = True
        if not reading.dora_occluded:
            self._dora.push(reading.dora)
            self._ura.push(reading.ura)
        if self._to_adopt:
            self._adopt()
        if self._hand_seen and not self._to_adopt and all(z.cleared for z in self._zones):
            return self._new_hand(at)
        batch = Batch()
        for seat in Seat:
            if f"pond{seat}" not in self._to_adopt:
                self._pond(seat, batch, at)
        for seat in Seat:  # after every pond: a call is matched with its discarder's removal
            if f"melds{seat}" not in self._to_adopt:
                self._melds(seat, batch, at)
        for seat in Seat:
            removed = self._seats[seat].removed
            if removed is not None and at - removed.since >= self.settings.removal_wait_s:
                self._post_removal(seat, batch, at)  # no call took it: a misread withdrawn
        if "dora" not in self._to_adopt:
            self._dora_row(batch, at)
        if "ura" not in self._to_adopt and not any(f"hand{seat}" in self._to_adopt for seat in Seat):
            self._hands(batch, at)
        observations, self._turn = in_turn_order(batch, self._turn)
        if observations:
            log.debug("%d observations at %.3f: %r", len(observations), at, observations)
        return observations

    def _adopt(self) -> None:
        """Take each zone that agreed for the first time as already reported (``resume``)."""
        for seat in Seat:
            zones, memory = self._zones[seat], self._seats[seat]
            if f"pond{seat}" in self._to_adopt and zones.pond.ever_settled:
                self._to_adopt.discard(f"pond{seat}")
                pond = zones.pond.settled
                voted = [vote([frame[i] for frame in pond]) for i in range(len(pond[-1]))]
                memory.pond = [v.tile for v in voted]
                memory.riichi = any(v.sideways for v in voted)
            if f"melds{seat}" in self._to_adopt and zones.melds.ever_settled:
                self._to_adopt.discard(f"melds{seat}")
                melds = zones.melds.current
                memory.melds = [(len(m.tiles), m.turned_at) for m in melds]
                memory.extended = {i for i, m in enumerate(melds) if m.added is not None}
            if f"hand{seat}" in self._to_adopt and zones.hand.ever_settled:
                self._to_adopt.discard(f"hand{seat}")
                memory.hand_shown = bool(zones.hand.current[0])
            self._hand_seen |= bool(memory.pond or memory.melds or memory.hand_shown)
        if "dora" in self._to_adopt and self._dora.ever_settled:
            self._to_adopt.discard("dora")
            dora = self._dora.settled
            self._dora_reported = [vote([frame[i] for frame in dora]).tile for i in range(len(dora[-1]))]
        if "ura" in self._to_adopt and self._ura.ever_settled:
            self._to_adopt.discard("ura")
            self._ura_reported = bool(self._ura.current)

    # -- the table between hands ----------------------------------------------------------

    def _new_hand(self, at: float) -> tuple[Observation, ...]:
        # A win still waiting for ura indicators nobody turned over is reported as it was shown.
        held = tuple(self._held)
        self._held = []
        self._stale_dora = tuple(self._dora_reported) or None
        self._seats = tuple(_SeatMemory() for _ in Seat)
        self._dora_reported = []
        self._ura_reported = False
        self._hand_seen = False
        self._win_waiting_since = None
        self._turn = Turn()
        return (*held, HandStarted(at))

    # -- ponds ------------------------------------------------------------------------------

    def _pond(self, seat: Seat, batch: Batch, at: float) -> None:
        memory, window = self._seats[seat], self._zones[seat].pond
        settled = window.settled
        size, reported = len(settled[-1]), len(memory.pond)
        if size > reported:
            for index in range(reported, size):
                voted = vote([frame[index] for frame in settled])
                if voted.tile.is_unknown:
                    break  # read face down: not a discard the referee can take, wait for its face
                memory.pond.append(voted.tile)
                if memory.removed is not None:
                    if index == reported and voted.tile == memory.removed.tile:
                        memory.removed = None  # back again: the frames had missed it, nothing left
                        continue
                    self._post_removal(seat, batch, at)
                memory.riichi |= voted.sideways
                batch.discards.setdefault(seat, []).append(
                    PondTileAdded(at, seat, voted.tile, voted.sideways, voted.confidence)
                )
        elif size == reported - 1:
            if memory.removed is not None:
                self._post_removal(seat, batch, at)
            memory.removed = _Removal(memory.pond.pop(), at)
        else:
            return
        memory.pond_unseen = False
        self._hand_seen = True

    def _post_removal(self, seat: Seat, batch: Batch, at: float) -> None:
        memory = self._seats[seat]
        assert memory.removed is not None
        batch.removals.append(PondTileRemoved(at, seat, memory.removed.tile))
        memory.removed = None

    # -- melds ------------------------------------------------------------------------------

    def _melds(self, seat: Seat, batch: Batch, at: float) -> None:
        memory, settled = self._seats[seat], self._zones[seat].melds.settled
        current = settled[-1]
        if len(current) < len(memory.melds):
            return  # fewer melds than reported: a misread, or the table being cleared
        for index, meld in enumerate(current):
            if index < len(memory.melds):
                if memory.melds[index] != (len(meld.tiles), meld.turned_at):
                    return  # this frame run reads the melds otherwise: nothing new from it
            else:
                appeared = self._new_meld(seat, [frame[index] for frame in settled], at)
                if appeared is None:
                    return
                memory.melds.append((len(meld.tiles), meld.turned_at))
                self._hand_seen = True
                if appeared.turned_from is None:
                    batch.own_kans.setdefault(seat, []).append(appeared)
                else:
                    batch.calls.append(self._call(appeared, batch))
            if meld.added is not None and index not in memory.extended:
                memory.extended.add(index)
                added = vote([a for frame in settled if (a := frame[index].added) is not None])
                batch.own_kans.setdefault(seat, []).append(MeldExtended(at, seat, added.tile, added.confidence))

    def _new_meld(self, seat: Seat, readings: list[SeenMeld], at: float) -> MeldAppeared | None:
        shape = readings[-1]
        if shape.turned_at is not None:
            return called_meld(seat, readings, at)
        if len(shape.tiles) == 4:
            kan = closed_kan(seat, readings, at, self.settings.red_fives)
            if kan is None:
                log.info("seat %d: a closed kan with no face read yet", seat)
            return kan
        # No tile turned and not a kan: the referee is asked what it is.
        voted = [vote([m.tiles[i] for m in readings]) for i in range(len(shape.tiles))]
        if any(v.tile.is_unknown for v in voted):
            return None
        return MeldAppeared(at, seat, tuple(v.tile for v in voted), None, None, min(v.confidence for v in voted))

    def _call(self, meld: MeldAppeared, batch: Batch) -> Call:
        assert meld.turned_from is not None
        assert meld.called is not None
        discarder = meld.turned_from
        memory = self._seats[discarder]
        if memory.removed is not None:
            removal = PondTileRemoved(meld.at, discarder, memory.removed.tile)
            memory.removed = None
            return Call(meld, discarder, removal)
        posted = next((r for r in batch.removals if r.seat == discarder), None)
        if posted is not None:
            batch.removals.remove(posted)
            return Call(meld, discarder, posted)
        pending = batch.discards.get(discarder, [])
        last = pending[-1].tile if pending else (memory.pond[-1] if memory.pond else None)
        if memory.pond_unseen and (last is None or last.kind != meld.called.kind):
            # The discard happened out of view and the call took it before the camera saw it.
            unseen = PondTileAdded(meld.at, discarder, meld.called, False, meld.confidence)
            return Call(meld, discarder, unseen_discard=unseen)
        return Call(meld, discarder)

    # -- dora, ura and hands laid open ----------------------------------------------------

    def _dora_row(self, batch: Batch, at: float) -> None:
        settled = self._dora.settled
        shown = [vote([frame[i] for frame in settled]) for i in range(len(settled[-1]))]
        if self._stale_dora is not None:
            stale = any(tuple(t.tile for t in frame) == self._stale_dora for frame in settled)
            if settled[-1] and stale and not batch.discards:
                return  # the hand before's indicator, not yet cleared away (or only just replaced)
            self._stale_dora = None
        fresh = shown[len(self._dora_reported) :]
        known = next((i for i, v in enumerate(fresh) if v.tile.is_unknown), len(fresh))
        fresh = fresh[:known]  # an indicator read face down is not one yet
        if not fresh:
            return
        observations = [DoraRevealed(at, v.tile, v.confidence) for v in fresh]
        self._dora_reported.extend(v.tile for v in fresh)
        if len(self._dora_reported) == len(fresh):
            batch.first_dora.extend(observations)
        else:
            batch.kan_dora.extend(observations)

    def _hands(self, batch: Batch, at: float) -> None:
        ura = self._ura.settled
        voted = [vote([frame[i] for frame in ura]) for i in range(len(ura[-1]))]
        ura_ready = not self._ura_reported and bool(voted) and not any(v.tile.is_unknown for v in voted)
        if ura_ready:
            batch.ura = UraIndicatorsRevealed(at, tuple(v.tile for v in voted), min(v.confidence for v in voted))
        ready = [s for s in self._turn_order() if self._zones[s].hand.current[0] and not self._seats[s].hand_shown]
        # A hand with a tile read face down waits for its face (the referee needs every tile).
        shown = [h for h in (self._laid_open(seat, at) for seat in ready) if not any(t.is_unknown for t in h.tiles)]
        riichi_win = any(self._seats[h.seat].riichi and h.winning is not None for h in shown)
        if riichi_win and not self._ura_reported and not ura_ready:
            if self._win_waiting_since is None:
                self._win_waiting_since = at
            if at - self._win_waiting_since < self.settings.ura_wait_s:
                self._held = shown  # the ura indicators are about to be turned over
                return
            log.info("no ura indicators after %.1f s: the win is reported without them", at - self._win_waiting_since)
        if ura_ready:
            self._ura_reported = True
        self._held = []
        for hand in shown:
            self._seats[hand.seat].hand_shown = True
            self._hand_seen = True
            batch.hands.append(hand)

    def _laid_open(self, seat: Seat, at: float) -> HandLaidOpen:
        settled = self._zones[seat].hand.settled
        tiles = [vote([frame[0][i] for frame in settled]) for i in range(len(settled[-1][0]))]
        winning = None
        if settled[-1][1] is not None:
            winning = vote([w for frame in settled if (w := frame[1]) is not None])
            tiles.append(winning)
        return HandLaidOpen(
            at,
            seat,
            tuple(v.tile for v in tiles),
            None if winning is None else winning.tile,
            min(v.confidence for v in tiles),
        )

    def _turn_order(self) -> list[Seat]:
        """Seats from the one after the last discarder: the order rons on that discard are made in."""
        first = self._turn.last_discarder.next if self._turn.last_discarder is not None else Seat.S0
        return [first.seat_at(r) for r in range(4)]  # type: ignore[arg-type]
