"""A set holds four tiles of each kind (``vision.live.table_reader.tile_copies``): more sure
faces of a kind in view is a misreading, and every face of that kind is called uncertain."""

from __future__ import annotations

import cv2
import numpy as np

from table_app.domain.notation import parse_tile
from tests.vision.test_table_reader import FRAME, hand_made_layout
from vision.classify.classifier import OnnxTileClassifier, TileReading
from vision.classify.labels import BACK_LABEL, WHITE_DRAGON_LABEL, kind_of_label, label_of
from vision.live.reading import SeenTile, TableReading
from vision.live.table_reader import TableReader
from vision.live.table_reader.checking import bench_table, picked_calibration
from vision.live.table_reader.tile_copies import COPIES, doubted, over_counted
from vision.render.camera import overhead_camera
from vision.render.renderer import RenderOptions, render_table
from vision.render.tile_art import ArtStyle


def _label(text: str) -> int:
    return label_of(parse_tile(text))


def _read(label: int, *, uncertain: bool = False, confidence: float = 0.9) -> TileReading:
    return TileReading(label=label, confidence=confidence, upside_down=False, uncertain=uncertain)


def test_a_kind_read_surely_more_than_four_times_is_over_counted():
    five_1p = [_read(_label("1p"))] * (COPIES + 1)
    assert over_counted(five_1p) == {kind_of_label(_label("1p"))}
    assert over_counted(five_1p[:COPIES]) == frozenset()
    # a red five is a five; uncertain readings and backs are not counted
    fives = [_read(_label("5p"))] * 3 + [_read(_label("0p")), _read(_label("5p"), uncertain=True)]
    assert over_counted(fives) == frozenset()
    assert over_counted([*fives, _read(_label("5p"))]) == {kind_of_label(_label("5p"))}
    assert over_counted([_read(BACK_LABEL)] * 30) == frozenset()


def test_only_faces_of_an_over_counted_kind_are_doubted():
    kinds = frozenset({kind_of_label(WHITE_DRAGON_LABEL)})
    assert doubted(_read(WHITE_DRAGON_LABEL), kinds).uncertain
    assert doubted(_read(WHITE_DRAGON_LABEL), kinds).label == WHITE_DRAGON_LABEL  # the reading kept, doubted
    assert not doubted(_read(_label("1m")), kinds).uncertain
    assert not doubted(_read(BACK_LABEL), kinds).uncertain


class WashedOut(OnnxTileClassifier):
    """The shipped classifier, but every face it reads surely reads as the white dragon (as a
    lamp's glare washes faces out)."""

    def classify(self, crops):
        return tuple(
            r if r.face_down or r.uncertain else TileReading(WHITE_DRAGON_LABEL, r.confidence, r.upside_down, False)
            for r in super().classify(crops)
        )


def hand_made_table_read_by(classifier: OnnxTileClassifier) -> tuple[list[SeenTile], TableReading]:
    """The hand-made layout, rendered clean from straight above and read with ``classifier``:
    the tiles seen in ponds, open hands and melds, and the whole reading."""
    camera = overhead_camera(FRAME, height_mm=900, px_per_mm=1.4, yaw_deg=0)
    rendered = render_table(3, RenderOptions(camera=camera, effects=False), hand_made_layout())
    reading = TableReader(picked_calibration(camera), classifier).read_image(rendered.image)
    seen = [
        t for seat in reading.seats for t in (*seat.pond, *seat.open_hand, *(x for m in seat.melds for x in m.tiles))
    ]
    return seen, reading


def test_a_table_whose_faces_all_read_as_one_kind_reports_them_uncertain():
    seen, reading = hand_made_table_read_by(WashedOut())
    seen += list(reading.dora)
    faces = [t for t in seen if not t.face_down]
    assert len(faces) > COPIES
    assert all(t.uncertain for t in faces)


def test_white_dragons_the_walls_set_aside_still_count_as_copies_read():
    """Bench table 3 000 003 (``bench_table_reader``, regular art, camera effects): a lamp's glare
    washes a hand and a wall out, and the classifier reads seven sure white dragons there. Two of
    the wall's are set aside as backs (``dora_run``) and two beside the indicators doubted;
    counted after that, the hand's sure ones were four or fewer and two of them, a 2m and a 3p,
    were reported sure. Counted as the classifier read them, every white dragon is doubted."""
    table = bench_table(3_000_003, RenderOptions(style=ArtStyle.REGULAR, effects=True))
    placed = TableReader(picked_calibration(table.camera), OnnxTileClassifier()).placed_tiles(table.rendered.image)
    truths = [(t.label, t.corners.astype(np.float32).reshape(-1, 1, 2)) for t in table.rendered.truths]
    sure_blanks = [p for p in placed if p.reading.label == WHITE_DRAGON_LABEL and not p.reading.uncertain]
    wrong = []
    for blank in sure_blanks:
        centre = blank.quad.mean(axis=0)
        under = [
            label for label, outline in truths if cv2.pointPolygonTest(outline, tuple(map(float, centre)), False) >= 0
        ]
        if under != [WHITE_DRAGON_LABEL]:
            wrong.append(under)
    assert not wrong
