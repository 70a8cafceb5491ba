import numpy as np
import pytest

from table_app.domain.notation import parse_tiles
from vision.classify.labels import BACK_LABEL
from vision.geometry import angle_difference
from vision.render.layout import MeldLayout, PondLayout, SeatLayout, TableLayout
from vision.render.renderer import RenderOptions, render_table
from vision.render.tile_art import ArtStyle

SMALL = RenderOptions(size=(800, 450), px_per_mm=(0.55, 0.6))


def test_same_seed_same_pixels_and_truth():
    first, second = render_table(11, SMALL), render_table(11, SMALL)
    assert np.array_equal(first.image, second.image)
    assert [t.label for t in first.truths] == [t.label for t in second.truths]
    assert all(np.array_equal(a.corners, b.corners) for a, b in zip(first.truths, second.truths, strict=True))


def test_another_seed_another_table():
    assert not np.array_equal(render_table(11, SMALL).image, render_table(12, SMALL).image)


def test_image_shape_and_truths_inside_the_frame():
    table = render_table(3, SMALL)
    assert table.image.shape == (450, 800, 3)
    assert table.image.dtype == np.uint8
    assert table.truths
    for truth in table.truths:
        assert truth.corners.shape == (4, 2)
        assert np.all(truth.corners >= 0)
        assert np.all(truth.corners[:, 0] < 800)
        assert np.all(truth.corners[:, 1] < 450)


def _layout() -> TableLayout:
    pond = PondLayout(parse_tiles("123m456p789s1234z"), riichi_at=8)
    meld = MeldLayout(parse_tiles("777z"), turned_at=0)
    closed_kan = MeldLayout(parse_tiles("1111s"), turned_at=None, face_down_at=(0, 3))
    seats = (
        SeatLayout(pond, (meld, closed_kan), open_hand=parse_tiles("2345m")),
        SeatLayout(PondLayout(parse_tiles("5p0p")), wall_stacks=3),
        SeatLayout(PondLayout(())),
        SeatLayout(PondLayout(parse_tiles("9s"))),
    )
    return TableLayout(seats, dora_indicators=parse_tiles("3z"), dead_wall_seat=2)


@pytest.fixture(scope="module")
def flat_table():
    # No camera effects and the whole table in view: every tile is in the truth.
    options = RenderOptions(size=(1280, 1280), px_per_mm=(1.3, 1.3), effects=False)
    return render_table(5, options, _layout())


def test_every_tile_of_the_layout_is_in_the_truth(flat_table):
    seat0 = 13 + 3 + 4 + 4  # pond, pon, closed kan, open hand
    seat1 = 2 + 3  # pond, wall stacks
    seat3 = 1
    dead_wall = 7
    assert len(flat_table.truths) == seat0 + seat1 + seat3 + dead_wall
    backs = sum(t.label == BACK_LABEL for t in flat_table.truths)
    assert backs == 2 + 3 + 6  # closed kan ends, seat 1 wall, dead wall less its indicator
    assert sum(t.tile.red for t in flat_table.truths) == 1


def test_sideways_tiles_are_the_riichi_discard_and_the_called_tile(flat_table):
    sideways = [t for t in flat_table.truths if t.sideways]
    assert len(sideways) == 2
    upright_seat0 = [t for t in flat_table.truths if not t.sideways and t.label in (0, 1, 2)]
    reference = upright_seat0[0].angle
    for tile in sideways:
        assert angle_difference(tile.angle, reference) == pytest.approx(90, abs=6)


def test_truth_quads_have_a_tiles_proportions(flat_table):
    for truth in flat_table.truths:
        width = np.linalg.norm(truth.corners[1] - truth.corners[0])
        height = np.linalg.norm(truth.corners[3] - truth.corners[0])
        assert height / width == pytest.approx(27 / 20, rel=0.12)
    assert flat_table.tile_height_px == pytest.approx(27 * 1.3, rel=0.2)


def test_truth_covers_the_drawn_tile(flat_table):
    image = flat_table.image.astype(int)
    felt = np.median(image.reshape(-1, 3), axis=0)
    for truth in flat_table.truths:
        x, y = truth.centre.astype(int)
        assert np.abs(image[y, x] - felt).max() > 25, f"{truth.tile} at {x},{y} looks like felt"


def test_black_style_renders_dark_faces():
    options = RenderOptions(size=(1280, 1280), px_per_mm=(1.3, 1.3), effects=False, style=ArtStyle.BLACK)
    table = render_table(5, options, _layout())
    east = next(t for t in table.truths if t.tile.kind == 27)
    x, y = east.corners[0] + (east.corners[2] - east.corners[0]) * 0.1
    assert table.image[int(y), int(x)].mean() < 90
