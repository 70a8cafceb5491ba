"""The host's picture of the board's sensors, rebuilt from snapshots and patched by change events.

A change event only patches a picture that is known to be complete: after a lost frame (a gap
in the sequence numbers) the picture is stale until the next STATE replaces it, so a missed
change can never leave a wrong slot behind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from firmware_bridge.calibration import TableCalibration
from firmware_bridge.messages import DEPOSIT_SEAT, BoardFlag, SlotChanged, SlotSample, State, WallChanged
from firmware_bridge.observations import Flag, ReadingFlag
from firmware_bridge.plausibility import GameLimits, check_trays


@dataclass(frozen=True, slots=True)
class Candidate:
    """A reading before debouncing and before the wall check (which needs the reading history)."""

    points: tuple[int, int, int, int]
    sticks: tuple[tuple[int, ...], ...]
    deposit: int
    wall: int
    kans: int
    hand: int
    flags: tuple[Flag, ...]
    raw: tuple[tuple[int, ...], ...]
    deposit_raw: int


class SensorPicture:
    """The board's trays, deposit and wall as last known (see the module's docstring)."""

    def __init__(self, calibration: TableCalibration, limits: GameLimits) -> None:
        self._calibration = calibration
        self._limits = limits
        self._denominations = tuple(slot.denomination for slot in calibration.trays[0])
        self._trays: list[list[SlotSample]] = []
        self._deposit = SlotSample(0, 0)
        self._wall = self._kans = self._hand = 0
        self._board_flags = BoardFlag(0)
        self._counted: dict[tuple[int, int, int, int], tuple[int, tuple[Flag, ...]]] = {}
        self._checked: dict[tuple[tuple[tuple[int, ...], ...], int], tuple[Flag, ...]] = {}
        self.complete = False

    @property
    def denominations(self) -> tuple[int, ...]:
        return self._denominations

    def invalidate(self) -> None:
        self.complete = False

    def apply_state(self, state: State) -> None:
        self._trays = [list(tray) for tray in state.trays]
        self._deposit = state.deposit
        self._wall, self._kans, self._hand = state.wall, state.kans, state.hand
        self._board_flags = state.board_flags
        self.complete = True

    def apply_slot(self, change: SlotChanged) -> bool:
        """Patch one slot; False when the picture is stale or the slot does not exist."""
        if not self.complete:
            return False
        if change.seat == DEPOSIT_SEAT:
            self._deposit = change.sample
            return True
        if change.seat >= len(self._trays) or change.slot >= len(self._trays[change.seat]):
            return False
        self._trays[change.seat][change.slot] = change.sample
        return True

    def apply_wall(self, change: WallChanged) -> bool:
        if not self.complete:
            return False
        self._wall, self._kans, self._hand = change.wall, change.kans, change.hand
        return True

    def candidate(self) -> Candidate:
        flags: list[Flag] = []
        sticks: list[tuple[int, ...]] = []
        for seat, tray in enumerate(self._trays):
            counts = []
            for slot, sample in enumerate(tray):
                count, slot_flags = self._count(seat, slot, sample)
                flags.extend(slot_flags)
                counts.append(count)
            sticks.append(tuple(counts))
        deposit, deposit_flags = self._count(DEPOSIT_SEAT, 0, self._deposit)
        flags.extend(deposit_flags)
        sticks_tuple = tuple(sticks)
        flags.extend(self._check_trays(sticks_tuple, deposit))
        if self._board_flags:
            flags.append(Flag(ReadingFlag.BOARD_ERROR, f"board reports {self._board_flags!r}"))
        points = tuple(sum(v * n for v, n in zip(self._denominations, tray, strict=True)) for tray in sticks_tuple)
        return Candidate(
            (points[0], points[1], points[2], points[3]),
            sticks_tuple,
            deposit,
            self._wall,
            self._kans,
            self._hand,
            tuple(flags),
            tuple(tuple(sample.raw for sample in tray) for tray in self._trays),
            self._deposit.raw,
        )

    # A snapshot comes ten times a second and a slot's reading mostly repeats: what a reading
    # means is remembered (bounded) rather than recomputed for all 21 slots every time.
    def _count(self, seat: int, slot: int, sample: SlotSample) -> tuple[int, tuple[Flag, ...]]:
        key = (seat, slot, sample.raw, sample.count)
        known = self._counted.get(key)
        if known is None:
            calibration = self._calibration
            slot_calibration = calibration.deposit if seat == DEPOSIT_SEAT else calibration.slot(seat, slot)
            counted = slot_calibration.count(sample.raw, calibration.tolerance)
            where = "deposit" if seat == DEPOSIT_SEAT else f"seat {seat}, {slot_calibration.denomination}-point slot"
            known = (counted.count, tuple(_slot_flags(where, sample, counted.count, counted.estimate, counted.exact)))
            _remember(self._counted, key, known)
        return known

    def _check_trays(self, sticks: tuple[tuple[int, ...], ...], deposit: int) -> tuple[Flag, ...]:
        key = (sticks, deposit)
        known = self._checked.get(key)
        if known is None:
            known = tuple(check_trays(sticks, self._denominations, deposit, self._limits))
            _remember(self._checked, key, known)
        return known


_MEMO_MAX = 8192


K = TypeVar("K")
V = TypeVar("V")


def _remember(memo: dict[K, V], key: K, value: V) -> None:
    if len(memo) >= _MEMO_MAX:
        memo.clear()
    memo[key] = value


def _slot_flags(where: str, sample: SlotSample, count: int, estimate: float, exact: bool) -> list[Flag]:
    flags = []
    if not exact:
        detail = f"{where}: raw {sample.raw} reads {estimate:.2f} sticks, between two counts"
        flags.append(Flag(ReadingFlag.INEXACT_SLOT, detail))
    if sample.count != count:
        detail = f"{where}: raw {sample.raw} is {count} sticks by our calibration, {sample.count} by the board's"
        flags.append(Flag(ReadingFlag.BOARD_DISAGREES, detail))
    return flags
