"""One tile's face decided over the frames that confirmed it: the commonest reading wins."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from table_app.domain.tile import Tile
from vision.live.reading import SeenTile


@dataclass(frozen=True, slots=True)
class VotedTile:
    tile: Tile
    confidence: float  # the agreeing share × the agreeing readings' mean classifier confidence
    sideways: bool


def vote(readings: Sequence[SeenTile]) -> VotedTile:
    """The face most frames read (a tie goes to the larger summed confidence, then the latest).

    ``readings`` are one position's tile in consecutive frames, oldest first."""
    if not readings:
        raise ValueError("a vote needs at least one reading")
    groups: dict[Tile, list[SeenTile]] = {}
    for seen in readings:
        groups.setdefault(seen.tile, []).append(seen)
    latest = {seen.tile: index for index, seen in enumerate(readings)}
    winner = max(groups, key=lambda t: (len(groups[t]), sum(s.confidence for s in groups[t]), latest[t]))
    agreeing = groups[winner]
    share = len(agreeing) / len(readings)
    mean = sum(s.confidence for s in agreeing) / len(agreeing)
    sideways_votes = sum(s.sideways for s in readings)
    sideways = readings[-1].sideways if 2 * sideways_votes == len(readings) else 2 * sideways_votes > len(readings)
    return VotedTile(winner, share * mean, sideways)
