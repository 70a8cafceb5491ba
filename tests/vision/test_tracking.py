"""The tracker's rules, each on hand-built reading sequences (what a reader would give frame by frame)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from table_app.domain.notation import parse_tiles
from table_app.domain.seat import Seat
from table_app.domain.tile import UNKNOWN, Tile, tile_of_kind
from table_app.observations import (
    DoraRevealed,
    HandLaidOpen,
    HandStarted,
    MeldAppeared,
    MeldExtended,
    PondTileAdded,
    PondTileRemoved,
    UraIndicatorsRevealed,
)
from tests.vision.perfect_table import called_meld, seen
from vision.live.reading import SeatReading, SeenMeld, SeenTile, TableReading, Zone
from vision.live.tracking import Tracker, TrackerSettings


def tiles(text: str) -> tuple[Tile, ...]:
    return parse_tiles(text)


def one(text: str) -> Tile:
    (tile,) = parse_tiles(text)
    return tile


def pond(text: str, sideways_at: int | None = None) -> tuple[SeenTile, ...]:
    return tuple(seen(t, i == sideways_at) for i, t in enumerate(tiles(text)))


class Camera:
    """Feeds a tracker readings, one per ``frame``, and collects what it posts."""

    def __init__(self, settings: TrackerSettings | None = None, *, resume: bool = False) -> None:
        self.tracker = Tracker(settings or TrackerSettings(), resume=resume)
        self.seats = [SeatReading() for _ in range(4)]
        self.dora: tuple[SeenTile, ...] = (seen(one("1m")),)
        self.ura: tuple[SeenTile, ...] = ()
        self.dora_occluded = False
        self.clock = 0.0
        self.posted: list = []

    def set(self, seat: int, **changes) -> Camera:
        self.seats[seat] = replace(self.seats[seat], **changes)
        return self

    def frame(self, count: int = 1, **seat_overrides) -> list:
        """``count`` frames of the table as set; returns what they made the tracker post."""
        posted = []
        for _ in range(count):
            self.clock += 0.1
            seats = tuple(seat_overrides.get(f"seat{i}", s) for i, s in enumerate(self.seats))
            reading = TableReading(self.clock, seats, self.dora, self.ura, self.dora_occluded)  # type: ignore[arg-type]
            posted.extend(self.tracker.update(reading))
        self.posted.extend(posted)
        return posted


@pytest.fixture
def camera() -> Camera:
    cam = Camera()
    assert cam.frame(2) == [DoraRevealed(pytest.approx(0.2), one("1m"))]
    return cam


def kinds(observations) -> list[str]:
    return [type(o).__name__ for o in observations]


def test_a_discard_is_reported_once_it_held_for_two_frames(camera):
    camera.set(0, pond=pond("1m2m"))
    assert camera.frame() == []
    posted = camera.frame()
    assert posted == [
        PondTileAdded(pytest.approx(0.4), Seat.S0, one("1m")),
        PondTileAdded(pytest.approx(0.4), Seat.S0, one("2m")),
    ]
    assert camera.frame(5) == []


def test_observations_are_stamped_with_the_reading_time(camera):
    camera.set(1, pond=pond("5z"))
    (added,) = camera.frame(2)
    assert added.at == pytest.approx(camera.clock)


def test_frames_to_confirm_is_a_setting():
    cam = Camera(TrackerSettings(frames_to_confirm=3))
    cam.frame(3)
    cam.set(0, pond=pond("9s"))
    assert cam.frame(2) == []
    assert kinds(cam.frame()) == ["PondTileAdded"]
    with pytest.raises(ValueError, match="frames_to_confirm"):
        TrackerSettings(frames_to_confirm=0)


def test_one_frame_missing_or_misreading_a_tile_makes_nothing(camera):
    camera.set(2, pond=pond("1p2p3p"))
    camera.frame(2)
    assert camera.frame(seat2=SeatReading(pond=pond("1p2p"))) == []  # the last tile missed once
    assert camera.frame(seat2=SeatReading(pond=pond("1p2p3p4p"))) == []  # a tile too many once
    assert camera.frame(seat2=SeatReading(pond=pond("1p2p9p"))) == []  # misread once
    assert camera.frame(3) == []


def test_a_reported_tile_read_differently_later_is_not_reported_again(camera):
    camera.set(0, pond=pond("3s"))
    camera.frame(2)
    camera.set(0, pond=pond("8s"))
    assert camera.frame(4) == []


def test_a_new_tile_is_voted_over_the_confirming_frames_with_its_confidence():
    cam = Camera(TrackerSettings(frames_to_confirm=3))
    cam.frame(3)
    cam.frame(seat0=SeatReading(pond=(SeenTile(one("3m"), 0.9),)))
    cam.frame(seat0=SeatReading(pond=(SeenTile(one("8m"), 0.5, uncertain=True),)))
    (added,) = cam.frame(seat0=SeatReading(pond=(SeenTile(one("3m"), 0.7),)))
    assert added.tile == one("3m")
    assert added.confidence == pytest.approx(2 / 3 * 0.8)


def test_a_sideways_discard_is_a_riichi_tile(camera):
    camera.set(3, pond=pond("1z2z", sideways_at=1))
    posted = camera.frame(2)
    assert [o.sideways for o in posted] == [False, True]


def test_an_arm_over_a_pond_removes_nothing_and_what_it_hid_comes_after(camera):
    camera.set(1, pond=pond("1s2s3s"))
    camera.frame(2)
    camera.set(1, pond=pond("1s"), occluded=frozenset({Zone.POND}))  # the arm hides two tiles
    assert camera.frame(5) == []
    camera.set(1, pond=pond("1s2s3s4s"), occluded=frozenset())
    assert camera.frame(2) == [PondTileAdded(pytest.approx(camera.clock), Seat.S1, one("4s"))]


def test_the_pond_losing_its_last_tile_with_no_call_is_a_removal_after_the_wait(camera):
    camera.set(0, pond=pond("1m7p"))
    camera.frame(2)
    camera.set(0, pond=pond("1m"))
    assert camera.frame(10) == []  # waiting for a meld that would have taken it
    posted = camera.frame(25)
    assert posted == [PondTileRemoved(pytest.approx(posted[0].at), Seat.S0, one("7p"))]
    assert posted[0].at >= 3.0 + 0.4  # removal_wait_s after it was first settled without the tile


def test_a_last_tile_missed_for_a_run_of_frames_then_back_posts_nothing(camera):
    camera.set(0, pond=pond("1m7p"))
    camera.frame(2)
    camera.frame(2, seat0=SeatReading(pond=pond("1m")))  # a run of two frames missing it
    assert camera.frame(40) == []
    camera.set(0, pond=pond("1m7p3s"))
    assert camera.frame(2) == [PondTileAdded(pytest.approx(camera.clock), Seat.S0, one("3s"))]


def test_a_meld_settling_after_the_pond_shrank_still_comes_first(camera):
    camera.set(0, pond=pond("1m4p"))
    camera.frame(2)
    camera.set(0, pond=pond("1m"))
    assert camera.frame(3) == []  # the tile is in the caller's hand, the meld not laid yet
    camera.set(1, melds=(called_meld(Seat.S1, Seat.S0, one("4p"), tiles("5p6p")),))
    posted = camera.frame(2)
    assert kinds(posted) == ["MeldAppeared", "PondTileRemoved"]
    assert posted[1].tile == one("4p")


def test_a_call_is_posted_before_the_tile_leaves_the_discarders_pond(camera):
    camera.set(0, pond=pond("1m4p"))
    camera.frame(2)
    # Seat 1 chis 4p from seat 0 (its kamicha: turned on the left); the same frame shows both.
    camera.set(0, pond=pond("1m"))
    camera.set(1, melds=(called_meld(Seat.S1, Seat.S0, one("4p"), tiles("5p6p")),))
    posted = camera.frame(2)
    at = pytest.approx(camera.clock)
    assert posted == [
        MeldAppeared(at, Seat.S1, tiles("4p5p6p"), one("4p"), Seat.S0),
        PondTileRemoved(at, Seat.S0, one("4p")),
    ]


@pytest.mark.parametrize(
    ("turned_at", "size", "source"),
    [
        (0, 3, Seat.S1),
        (1, 3, Seat.S0),
        (2, 3, Seat.S3),
        (0, 4, Seat.S1),
        (1, 4, Seat.S0),
        (2, 4, Seat.S0),
        (3, 4, Seat.S3),
    ],
)
def test_the_turned_tile_says_who_the_call_was_from(camera, turned_at, size, source):
    """Seat 2's left is seat 1 (plays before it), across seat 0, right seat 3."""
    meld = SeenMeld(tuple(seen(one("7z"), i == turned_at) for i in range(size)), turned_at)
    camera.set(source, pond=pond("7z"))
    camera.frame(2)
    camera.set(2, melds=(meld,))
    (appeared, *_) = camera.frame(2)
    assert appeared.turned_from == source
    assert appeared.called == one("7z")
    assert appeared.tiles == (one("7z"),) * size


def test_a_discard_and_the_call_on_it_seen_together_are_posted_in_turn_order(camera):
    camera.set(3, pond=pond("1z"))
    camera.frame(2)
    # Seat 0 discards 5z, seat 2 pons it and discards 9m: all settle in the same frames.
    camera.set(0, pond=pond("5z6z"))
    camera.frame(2)
    camera.set(0, pond=pond("5z"))
    camera.set(2, pond=pond("9m"), melds=(called_meld(Seat.S2, Seat.S0, one("6z"), tiles("6z6z")),))
    camera.set(3, pond=pond("1z2z"))  # and seat 3 after it
    posted = camera.frame(2)
    assert kinds(posted) == ["MeldAppeared", "PondTileRemoved", "PondTileAdded", "PondTileAdded"]
    assert [o.seat for o in posted] == [Seat.S2, Seat.S0, Seat.S2, Seat.S3]


def test_discards_of_several_seats_settling_together_follow_the_turn(camera):
    camera.set(2, pond=pond("1z"))
    camera.frame(2)
    for seat in (0, 1, 3):
        camera.set(seat, pond=pond("2z"))
    posted = camera.frame(2)
    assert [o.seat for o in posted] == [Seat.S3, Seat.S0, Seat.S1]


def test_a_discard_called_out_of_view_is_inferred_from_the_call(camera):
    camera.set(0, pond=pond("1m"))
    camera.frame(2)
    camera.tracker.interrupted()  # the camera was lost: seat 0 discarded 3z, seat 1 ponned it
    camera.set(1, melds=(called_meld(Seat.S1, Seat.S0, one("3z"), tiles("3z3z")),))
    posted = camera.frame(2)
    at = pytest.approx(camera.clock)
    assert posted == [
        PondTileAdded(at, Seat.S0, one("3z")),
        MeldAppeared(at, Seat.S1, tiles("3z3z3z"), one("3z"), Seat.S0),
        PondTileRemoved(at, Seat.S0, one("3z")),
    ]


def test_after_the_camera_is_restored_only_what_changed_is_posted_in_turn_order(camera):
    camera.set(1, pond=pond("1m")).set(2, pond=pond("3m"))
    camera.frame(2)
    camera.frame(seat3=SeatReading(pond=pond("4m")))  # one frame, then the camera is lost
    camera.tracker.interrupted()
    camera.set(3, pond=pond("4m")).set(0, pond=pond("5m"))  # seat 3, then seat 0, discarded meanwhile
    assert camera.frame() == []  # one frame after the gap is not yet a run
    posted = camera.frame()
    assert [(o.seat, o.tile) for o in posted] == [(Seat.S3, one("4m")), (Seat.S0, one("5m"))]


def test_a_closed_kan_gets_its_hidden_faces_and_no_source(camera):
    kan = SeenMeld((seen(UNKNOWN), seen(one("7s")), seen(one("7s")), seen(UNKNOWN)), None)
    camera.set(0, melds=(kan,))
    assert camera.frame(2) == [MeldAppeared(pytest.approx(camera.clock), Seat.S0, tiles("7s7s7s7s"), None, None)]


@pytest.mark.parametrize(
    ("shown", "red_fives", "expected"),
    [("5p5p", True, "05p5p5p"), ("05p", True, "505p5p"), ("5p5p", False, "5p5p5p5p")],
)
def test_a_closed_kan_of_fives_holds_the_red_one_the_profile_has(camera, shown, red_fives, expected):
    cam = Camera(TrackerSettings(red_fives=red_fives))
    cam.frame(2)
    faces = tiles(shown)
    cam.set(3, melds=(SeenMeld((seen(UNKNOWN), seen(faces[0]), seen(faces[1]), seen(UNKNOWN)), None),))
    (appeared,) = cam.frame(2)
    assert sorted(appeared.tiles) == sorted(tiles(expected))


def test_a_tile_added_to_a_pon_is_an_added_kan_posted_after_the_pon(camera):
    pon = called_meld(Seat.S1, Seat.S3, one("2z"), tiles("2z2z"))
    camera.set(3, pond=pond("2z"))
    camera.frame(2)
    camera.set(3, pond=()).set(1, melds=(pon,))
    camera.frame(2)
    camera.set(1, melds=(replace(pon, added=seen(one("2z"), True)),))
    assert camera.frame(2) == [MeldExtended(pytest.approx(camera.clock), Seat.S1, one("2z"))]


def test_a_kan_dora_comes_right_after_the_kan(camera):
    kan = SeenMeld((seen(UNKNOWN), seen(one("1z")), seen(one("1z")), seen(UNKNOWN)), None)
    camera.set(2, melds=(kan,), pond=pond("9p"))
    camera.dora = (seen(one("1m")), seen(one("4s")))
    posted = camera.frame(2)
    assert kinds(posted) == ["MeldAppeared", "DoraRevealed", "PondTileAdded"]
    assert posted[1].indicator == one("4s")


def test_dora_row_occluded_holds(camera):
    camera.dora_occluded = True
    camera.dora = ()
    assert camera.frame(3) == []
    camera.dora_occluded = False
    camera.dora = (seen(one("1m")), seen(one("6p")))
    assert camera.frame(2) == [DoraRevealed(pytest.approx(camera.clock), one("6p"))]


def test_a_win_is_the_open_hand_with_the_tile_set_apart(camera):
    hand = tuple(seen(t) for t in tiles("123m456p789s1122z"))
    camera.set(0, pond=pond("3z"))
    camera.frame(2)
    camera.set(1, open_hand=hand, winning=seen(one("2z")))
    posted = camera.frame(2)
    assert posted == [
        HandLaidOpen(pytest.approx(camera.clock), Seat.S1, tiles("123m456p789s1122z2z"), one("2z")),
    ]
    assert camera.frame(3) == []


def test_a_riichi_win_waits_for_the_ura_indicators_and_posts_them_first(camera):
    camera.set(2, pond=pond("4z", sideways_at=0))
    camera.frame(2)
    camera.set(2, open_hand=tuple(seen(t) for t in tiles("123m456p789s1122z")), winning=seen(one("1z")))
    assert camera.frame(4) == []  # the hand is down, the ura indicators not yet
    camera.ura = (seen(one("9m")),)
    posted = camera.frame(2)
    assert kinds(posted) == ["UraIndicatorsRevealed", "HandLaidOpen"]
    assert posted[0] == UraIndicatorsRevealed(pytest.approx(camera.clock), (one("9m"),))


def test_a_riichi_win_with_no_ura_turned_over_is_posted_after_the_wait():
    cam = Camera(TrackerSettings(ura_wait_s=1.0))
    cam.frame(2)
    cam.set(2, pond=pond("4z", sideways_at=0))
    cam.frame(2)
    cam.set(2, open_hand=tuple(seen(t) for t in tiles("123m456p789s1122z")), winning=seen(one("1z")))
    assert cam.frame(5) == []
    assert kinds(cam.frame(10)) == ["HandLaidOpen"]


def test_hands_shown_at_a_draw_have_no_winning_tile(camera):
    camera.set(3, open_hand=tuple(seen(t) for t in tiles("123m456p789s1122z")))
    (shown,) = camera.frame(2)
    assert shown.winning is None
    assert len(shown.tiles) == 13


def test_the_table_cleared_after_a_hand_starts_the_next_and_its_dora_follows(camera):
    camera.set(0, pond=pond("1m2m")).set(1, melds=(called_meld(Seat.S1, Seat.S2, one("3z"), tiles("3z3z")),))
    camera.frame(2)
    camera.set(0, pond=()).set(1, melds=())
    camera.dora = ()
    assert camera.frame(2) == [HandStarted(pytest.approx(camera.clock))]
    assert camera.frame(3) == []
    camera.dora = (seen(one("8p")),)
    assert camera.frame(2) == [DoraRevealed(pytest.approx(camera.clock), one("8p"))]
    camera.set(0, pond=pond("1m"))  # the new hand's first discard
    assert kinds(camera.frame(2)) == ["PondTileAdded"]


def test_the_hand_befores_indicator_still_lying_there_is_not_the_new_ones(camera):
    camera.set(2, pond=pond("1m"))
    camera.frame(2)
    camera.set(2, pond=())
    assert camera.frame(2) == [HandStarted(pytest.approx(camera.clock))]
    assert camera.frame(3) == []  # 1m still lies on the dead wall
    camera.dora = (seen(one("5s")),)
    assert camera.frame(2) == [DoraRevealed(pytest.approx(camera.clock), one("5s"))]


def test_the_same_indicator_again_is_taken_once_the_first_discard_shows_the_hand_is_on(camera):
    camera.set(2, pond=pond("1m"))
    camera.frame(2)
    camera.set(2, pond=())
    camera.frame(2)
    camera.set(0, pond=pond("7z"))
    posted = camera.frame(2)
    assert posted[0] == DoraRevealed(pytest.approx(camera.clock), one("1m"))
    assert kinds(posted) == ["DoraRevealed", "PondTileAdded"]


def test_an_occluded_pond_keeps_the_table_from_being_taken_as_cleared(camera):
    camera.set(0, pond=pond("1m"))
    camera.frame(2)
    camera.set(0, pond=(), occluded=frozenset({Zone.POND}))
    assert camera.frame(4) == []


def test_a_tracker_started_on_an_empty_table_waits_for_the_first_indicator():
    cam = Camera()
    cam.dora = ()
    assert cam.frame(4) == []
    cam.dora = (seen(one("2p")),)
    assert cam.frame(2) == [DoraRevealed(pytest.approx(cam.clock), one("2p"))]


def test_confidence_of_a_meld_is_its_weakest_tile(camera):
    meld = called_meld(Seat.S0, Seat.S3, one("4m"), tiles("5m6m"))
    weak = SeenMeld((meld.tiles[0], replace(meld.tiles[1], confidence=0.4), meld.tiles[2]), meld.turned_at)
    camera.set(0, melds=(weak,))
    (appeared, *_) = camera.frame(2)
    assert appeared.confidence == pytest.approx(0.4)
    assert tile_of_kind(3) in appeared.tiles


def test_tiles_read_face_down_are_not_posted_until_their_faces_are_read(camera):
    """The referee takes no unknown tile in a discard, a meld, a hand or an indicator."""
    back = seen(UNKNOWN)
    camera.set(0, pond=(*pond("1m"), back))
    camera.set(1, melds=(SeenMeld((seen(one("3z"), True), back, seen(one("3z"))), 0),))
    camera.set(2, open_hand=(*(seen(t) for t in tiles("123m456p789s1122z")[:-1]), back), winning=seen(one("2z")))
    camera.dora = (seen(one("1m")), back)
    camera.ura = (back,)
    posted = camera.frame(3)
    assert posted == [PondTileAdded(pytest.approx(posted[0].at), Seat.S0, one("1m"))]
    camera.set(0, pond=pond("1m4m"))
    camera.set(1, melds=(called_meld(Seat.S1, Seat.S0, one("3z"), tiles("3z3z")),))
    camera.set(2, open_hand=tuple(seen(t) for t in tiles("123m456p789s1122z")))
    camera.dora = (seen(one("1m")), seen(one("8s")))
    camera.ura = (seen(one("9p")),)
    assert sorted(kinds(camera.frame(2))) == [
        "DoraRevealed",
        "HandLaidOpen",
        "MeldAppeared",
        "PondTileAdded",
        "UraIndicatorsRevealed",
    ]


def test_a_closed_kan_whose_faces_read_as_backs_waits(camera):
    back = seen(UNKNOWN)
    camera.set(0, melds=(SeenMeld((back, back, back, back), None),))
    assert camera.frame(3) == []
    camera.set(0, melds=(SeenMeld((back, seen(one("9m")), seen(one("9m")), back), None),))
    (kan,) = camera.frame(2)
    assert kan.tiles == tiles("9m9m9m9m")


def test_a_resumed_tracker_takes_the_table_as_the_referee_knows_it_and_posts_what_changes():
    cam = Camera(resume=True)
    pon = called_meld(Seat.S2, Seat.S1, one("5z"), tiles("5z5z"))
    cam.set(0, pond=pond("1m2m3m", sideways_at=2)).set(1, pond=pond("4p")).set(2, melds=(pon,))
    assert cam.frame(4) == []  # all of it was journaled before the restart
    cam.set(2, pond=pond("9s"), melds=(replace(pon, added=seen(one("5z"), True)),))
    cam.dora = (seen(one("1m")), seen(one("6m")))
    posted = cam.frame(2)
    assert kinds(posted) == ["MeldExtended", "DoraRevealed", "PondTileAdded"]
    cam.set(0, pond=()).set(1, pond=()).set(2, pond=(), melds=())
    assert kinds(cam.frame(2)) == ["HandStarted"]


def test_a_resumed_tracker_knows_a_riichi_player_from_the_pond_it_adopted():
    cam = Camera(TrackerSettings(ura_wait_s=60), resume=True)
    cam.set(3, pond=pond("1z2z", sideways_at=1))
    cam.frame(2)
    cam.set(3, open_hand=tuple(seen(t) for t in tiles("123m456p789s1122z")), winning=seen(one("2z")))
    assert cam.frame(5) == []  # a riichi win: waiting for the ura indicators
