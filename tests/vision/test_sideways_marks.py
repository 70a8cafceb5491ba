"""Sideways tiles marked by eye on real photographs (``vision.training.sideways_marks``): the
marks give a built source's tiles their sideways flag, and ``vision eval`` counts them."""

import json

import cv2
import numpy as np
import pytest

from vision.eval.label_eval import report_json, report_lines, score_labelled_images
from vision.eval.label_file import load_labels
from vision.training import sideways_marks
from vision.training.real_photos import SOURCES, build
from vision.training.sideways_marks import MarksError, apply_marks, load_marks, write_sheets

# One row of three tiles (the middle one lying across it, as a riichi discard) and a loose tile.
ROW = [[10, 10, 30, 38], [30, 14, 58, 34], [58, 10, 78, 38]]
LOOSE = [100, 60, 120, 88]


def _images():
    return {
        "images/a.jpg": [{"box": box, "tile": "3p"} for box in ROW] + [{"box": LOOSE, "tile": "7z"}],
        "images/b.jpg": [{"box": [5, 5, 25, 33], "tile": "1m"}],
    }


def _label_file(tmp_path, images):
    (tmp_path / "images").mkdir(exist_ok=True)
    for name in images:
        cv2.imwrite(str(tmp_path / name), np.full((100, 140, 3), 120, np.uint8))
    document = {"format": "jantaku-labels", "version": 1, "source": {"name": "src"}, "images": images}
    (tmp_path / "labels.json").write_text(json.dumps(document), encoding="utf-8")
    return tmp_path / "labels.json"


def test_marks_make_a_row_upright_but_its_turned_tile_and_leave_a_loose_tile_unknown():
    images = _images()
    marks = {"src": {"images/a.jpg": {"sideways": [1], "loose": [3]}}}
    assert apply_marks("src", images, marks) == (1, 2)
    assert [t.get("sideways") for t in images["images/a.jpg"]] == [False, True, False, None]
    assert "sideways" not in images["images/b.jpg"][0]  # not looked at: unknown
    assert apply_marks("other", images := _images(), marks) == (0, 0)
    assert images == _images()


def test_a_whole_image_can_be_loose():
    images = _images()
    images["images/a.jpg"][0]["sideways"] = True  # a flag from before is taken away
    assert apply_marks("src", images, {"src": {"images/a.jpg": {"loose": "all"}}}) == (0, 0)
    assert all("sideways" not in t for t in images["images/a.jpg"])


@pytest.mark.parametrize(
    ("mark", "complaint"),
    [
        ({"images/a.jpg": {"sideways": [4]}}, r"images/a\.jpg tile 4 is not a box of the image \(it has 4\)"),
        ({"images/a.jpg": {"sideways": [-1]}}, r"images/a\.jpg tile -1 is not a box"),
        ({"images/a.jpg": {"loose": [1.5]}}, r"images/a\.jpg: marks must be a list of tile indices"),
        ({"images/a.jpg": {"sideways": 1}}, r"images/a\.jpg: marks must be a list of tile indices"),
        ({"images/a.jpg": {"sideways": [True]}}, r"images/a\.jpg: marks must be a list of tile indices"),
        ({"images/a.jpg": {"sideways": [1], "loose": [1]}}, r"images/a\.jpg tile 1 is marked both sideways and loose"),
        ({"images/a.jpg": {"turned": [1]}}, r"images/a\.jpg: expected"),
        ({"images/zz.jpg": {"sideways": [0]}}, r"images/zz\.jpg is not an image of the source"),
    ],
)
def test_a_mark_that_points_at_no_tile_is_refused_naming_the_file_and_the_image(tmp_path, mark, complaint):
    path = tmp_path / "sideways.json"
    with pytest.raises(MarksError, match=complaint) as error:
        apply_marks("src", _images(), {"src": mark}, path)
    assert str(error.value).startswith(f"sideways marks {path} for src: ")


def test_a_marks_file_of_another_kind_is_refused(tmp_path):
    path = tmp_path / "marks.json"
    path.write_text(json.dumps({"format": "jantaku-red-five-marks", "version": 1, "sources": {}}))
    with pytest.raises(MarksError, match=r"marks\.json: not a jantaku-sideways-marks file"):
        load_marks(path)
    path.write_text("{")
    with pytest.raises(MarksError, match=r"marks file .*marks\.json: not JSON \(line 1 column 2"):
        load_marks(path)


def test_the_shipped_marks_name_known_sources_and_look_at_every_leo_miura_image():
    marks = load_marks()
    assert set(marks) <= set(SOURCES)
    assert len(marks["leo-miura"]) == 67  # the whole source, held out
    for images in marks.values():
        for entry in images.values():
            assert set(entry) <= {"sideways", "loose"}


def test_eval_counts_sideways_and_upright_tiles_from_marked_labels(tmp_path):
    images = _images()
    apply_marks("src", images, {"src": {"images/a.jpg": {"sideways": [1], "loose": [3]}}})
    labels = load_labels(_label_file(tmp_path, images))
    assert [t.sideways for t in labels["images/a.jpg"]] == [False, True, False, None]

    class Found:
        def __init__(self, truth, sideways):
            self.corners, self.label, self.angle, self.uncertain = truth.corners, truth.label, None, False
            self.sideways = sideways

    # The finder calls the turned tile right, one upright tile and the loose tile sideways.
    calls = {"images/a.jpg": [False, True, True, True], "images/b.jpg": [True]}
    order = iter(labels)  # score_labelled_images reads the images in the label file's order

    def finder(_image):
        name = next(order)
        return [Found(truth, call) for truth, call in zip(labels[name], calls[name], strict=True)]

    score, _ = score_labelled_images(labels, tmp_path, finder, 0.3)
    assert (score.sideways_truths, score.sideways_found) == (1, 1)
    assert (score.upright_truths, score.upright_called_sideways) == (
        2,
        1,
    )  # the loose and unlooked-at tiles: not counted
    assert report_json(score, [], 0.3)["upright_labelled"] == 2
    assert any(
        line.startswith("sideways recall") and "1 of 2 upright called sideways" in line
        for line in report_lines(score, [], 0.3)
    )


def test_eval_reports_upright_called_sideways_where_no_tile_lies_sideways():
    from vision.eval.matching import DetectionScore

    score = DetectionScore(upright_truths=40, upright_called_sideways=3)
    line = next(line for line in report_lines(score, [], 0.3) if line.startswith("sideways recall"))
    assert "none lies sideways; 3 of 40 upright called sideways" in line


def test_a_built_source_carries_its_sideways_marks(tmp_path, monkeypatch):
    from tests.vision.test_real_photos import _export, _source

    _export(tmp_path / "repo" / "export", ["bs1", "sc1", "sd1", "sb1"])
    name = "images/valid-photoB_jpg.rf.bb01.jpg"
    monkeypatch.setattr(sideways_marks, "load_marks", lambda: {"tiny": {name: {}}})
    counts = build(_source(), tmp_path / "repo", tmp_path / "out")
    document = json.loads((tmp_path / "out" / "labels.json").read_text(encoding="utf-8"))
    assert document["sideways_marked"] is True
    assert [t["sideways"] for t in document["images"][name]] == [False]
    assert all("sideways" not in t for n, ts in document["images"].items() if n != name for t in ts)
    assert (counts["sideways"], counts["upright"]) == (0, 1)


def test_the_sheets_number_every_box_and_colour_it_by_its_mark(tmp_path):
    labels = _label_file(tmp_path, _images())
    marks = tmp_path / "sideways.json"
    marks.write_text(
        json.dumps(
            {
                "format": "jantaku-sideways-marks",
                "version": 1,
                "sources": {"src": {"images/a.jpg": {"sideways": [1], "loose": [3]}}},
            }
        )
    )
    index = write_sheets(labels, tmp_path / "sheets", pixel_aspect=16 / 9, width=560, marks_path=marks)
    assert index == [
        {"sheet": "000.png", "image": "images/a.jpg", "tiles": 4},
        {"sheet": "001.png", "image": "images/b.jpg", "tiles": 1},
    ]
    assert json.loads((tmp_path / "sheets" / "index.json").read_text()) == index
    sheet = cv2.imread(str(tmp_path / "sheets" / "000.png"))
    # 140×100 at 16:9 pixels is 249 px wide for 100 tall: at 560 wide, 225 tall (and the title band).
    assert sheet.shape == (24 + 225, 560, 3)
    scale = (560 / 140, 225 / 100)
    red = sheet[24:, :, 2].astype(int) - sheet[24:, :, 1].astype(int) > 120

    def outline(box):
        x0, y0, _x1, y1 = (round(v * scale[i % 2]) for i, v in enumerate(box))
        return red[y0 + 3 : y1 - 3, x0].any()

    assert outline(ROW[1])  # the sideways tile is drawn red
    assert not outline(ROW[0])
    unmarked = cv2.imread(str(tmp_path / "sheets" / "001.png"))
    assert (unmarked[24:, :, 2] > 150).any()
