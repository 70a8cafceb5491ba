"""Plausibility checks on a reading: they flag, they never correct or drop."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge.calibration import RIICHI_STICK_POINTS
from firmware_bridge.observations import Flag, ReadingFlag

LIVE_WALL_MAX = 70  # 136 tiles - 14 dead wall - 52 dealt


@dataclass(frozen=True, slots=True)
class GameLimits:
    game_total: int = 100_000  # four players' starting points
    # How many sticks of each denomination the set has (a common 4-player set).
    set_sticks: tuple[tuple[int, int], ...] = ((10000, 4), (5000, 8), (1000, 36), (500, 8), (100, 40))

    def sticks_in_set(self, denomination: int) -> int:
        for value, count in self.set_sticks:
            if value == denomination:
                return count
        return 0


@dataclass(frozen=True, slots=True)
class WallMark:
    """The last reported wall count and the hand it belonged to."""

    hand: int
    wall: int


def check_trays(
    sticks: tuple[tuple[int, ...], ...], denominations: tuple[int, ...], deposit: int, limits: GameLimits
) -> list[Flag]:
    flags: list[Flag] = []
    for seat, tray in enumerate(sticks):
        for value, count in zip(denominations, tray, strict=True):
            allowed = limits.sticks_in_set(value)
            if count > allowed:
                detail = f"seat {seat}, {value}-point slot holds {count} sticks; the set has {allowed}"
                flags.append(Flag(ReadingFlag.SLOT_OVERFULL, detail))
    riichi_sticks = limits.sticks_in_set(RIICHI_STICK_POINTS)
    if deposit > riichi_sticks:
        flags.append(Flag(ReadingFlag.SLOT_OVERFULL, f"deposit holds {deposit} sticks; the set has {riichi_sticks}"))
    points = [sum(v * n for v, n in zip(denominations, tray, strict=True)) for tray in sticks]
    total = sum(points) + deposit * RIICHI_STICK_POINTS
    if total != limits.game_total:
        detail = (
            f"trays {points} + deposit {deposit}×{RIICHI_STICK_POINTS} = {total}, the game total is {limits.game_total}"
        )
        flags.append(Flag(ReadingFlag.TOTAL_MISMATCH, detail))
    return flags


def check_wall(hand: int, wall: int, previous: WallMark | None) -> list[Flag]:
    flags: list[Flag] = []
    if wall > LIVE_WALL_MAX:
        flags.append(Flag(ReadingFlag.WALL_OUT_OF_RANGE, f"live wall {wall} tiles; it starts at {LIVE_WALL_MAX}"))
    if previous is not None and previous.hand == hand and wall > previous.wall:
        detail = f"live wall went up from {previous.wall} to {wall} within hand {hand}"
        flags.append(Flag(ReadingFlag.WALL_ROSE, detail))
    return flags
