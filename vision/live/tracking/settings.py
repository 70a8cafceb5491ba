"""How the tracker smooths: frames a change must hold, the red fives, how long a win waits for its
ura indicators and a pond's lost tile for the meld that took it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TrackerSettings:
    frames_to_confirm: int = 2  # consecutive agreeing readings of a zone before its change is reported
    red_fives: bool = True  # the rule profile's: a closed kan of fives then holds the suit's red one
    ura_wait_s: float = 5.0  # a riichi winner's hand waits this long for the ura indicators (0: never)
    removal_wait_s: float = 3.0  # a pond's lost last tile waits this long for the meld that took it

    def __post_init__(self) -> None:
        if self.frames_to_confirm < 1:
            raise ValueError(f"frames_to_confirm must be at least 1, got {self.frames_to_confirm}")
        if self.ura_wait_s < 0 or self.removal_wait_s < 0:
            raise ValueError(f"waits must not be negative, got {self.ura_wait_s}, {self.removal_wait_s}")


DEFAULT_SETTINGS = TrackerSettings()
