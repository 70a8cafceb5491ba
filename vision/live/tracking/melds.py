"""A meld as the camera shows it → what the referee needs: who it was called from, the called
tile first, and a closed kan's four faces.

The turned tile's place says where it came from, as its owner sees the meld: left is the
player before (kamicha), middle the player across, right the player after (shimocha); in a
called kan's four tiles the first is kamicha, the second or third across, the last shimocha.

A closed kan shows two faces between two backs. The referee needs all four (a ``Meld`` holds
no unknown tile), and a kan holds every copy of its kind, so the backs are the shown kind; of
fives, the suit's red one lies face down when the rule profile has red fives and neither shown
face is red (``TrackerSettings.red_fives``: the referee's profile, passed in when the pipeline
is built, because the referee takes a closed kan's tiles as given).
"""

from __future__ import annotations

from collections.abc import Sequence

from table_app.domain.seat import Relation, Seat
from table_app.domain.tile import RED_FIVE_KINDS, Tile, tile_of_kind
from table_app.observations import MeldAppeared
from vision.live.reading import SeenMeld, SeenTile
from vision.live.tracking.vote import VotedTile, vote

_THREE = (Relation.LEFT, Relation.ACROSS, Relation.RIGHT)
_FOUR = (Relation.LEFT, Relation.ACROSS, Relation.ACROSS, Relation.RIGHT)


def turned_from(owner: Seat, size: int, turned_at: int) -> Seat:
    relations = _FOUR if size == 4 else _THREE
    return owner.seat_at(relations[min(turned_at, len(relations) - 1)])


def _position(readings: Sequence[SeenMeld], index: int) -> VotedTile:
    return vote([m.tiles[index] for m in readings])


def called_meld(owner: Seat, readings: Sequence[SeenMeld], at: float) -> MeldAppeared | None:
    """A meld with a turned tile (``readings``: the confirming frames, all of one shape);
    ``None`` while a tile reads face down (a ``Meld`` holds no unknown tile: the referee would stop)."""
    shape = readings[-1]
    assert shape.turned_at is not None
    voted = [_position(readings, i) for i in range(len(shape.tiles))]
    if any(v.tile.is_unknown for v in voted):
        return None
    called = voted[shape.turned_at]
    others = [v for i, v in enumerate(voted) if i != shape.turned_at]
    return MeldAppeared(
        at,
        owner,
        (called.tile, *(v.tile for v in others)),
        called.tile,
        turned_from(owner, len(voted), shape.turned_at),
        min(v.confidence for v in voted),
    )


def closed_kan(owner: Seat, readings: Sequence[SeenMeld], at: float, red_fives: bool) -> MeldAppeared | None:
    """Four faces from the two shown (``None``: no face could be read yet)."""
    shape = readings[-1]
    shown = [i for i, seen in enumerate(shape.tiles) if not seen.face_down]
    if not shown:
        return None
    faces = {i: f for i in shown if not (f := _position(readings, i)).tile.is_unknown}
    if not faces:
        return None
    kind = vote([SeenTile(f.tile.plain, f.confidence) for f in faces.values()]).tile.kind
    red_left = red_fives and kind in RED_FIVE_KINDS and not any(f.tile.red for f in faces.values())
    tiles: list[Tile] = []
    for i in range(len(shape.tiles)):
        if i in faces:
            tiles.append(faces[i].tile)
        else:
            tiles.append(tile_of_kind(kind, red=red_left))
            red_left = False
    return MeldAppeared(at, owner, tuple(tiles), None, None, min(f.confidence for f in faces.values()))
