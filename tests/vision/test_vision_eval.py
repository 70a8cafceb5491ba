import json

import numpy as np
import pytest

from table_app.cli import main
from tests.terminal import jantaku_with_stderr_on_a_terminal
from vision.classify.labels import is_red_label, label_name
from vision.eval.label_eval import DEFAULT_OVERLAP, OverlapRule, report_json, report_lines, score_labelled_images
from vision.eval.label_file import LabelFileError, LabelledTile, load_ignored, load_labels, source_name
from vision.eval.matching import DetectionScore, match_quads
from vision.render.labelled_set import write_rendered_set
from vision.render.renderer import RenderOptions
from vision.render.tile_art import ArtStyle


@pytest.fixture(scope="module")
def rendered_set(tmp_path_factory):
    folder = tmp_path_factory.mktemp("labelled")
    options = RenderOptions(size=(960, 540), style=ArtStyle.BLACK, px_per_mm=(0.9, 1.0))
    return write_rendered_set(folder, range(4_000_000, 4_000_002), options)


class _Perfect:
    """A detector that returns the labels themselves (the scoring must then be perfect)."""

    def __init__(self, tile: LabelledTile, label: int | None = None):
        self.corners = tile.corners
        self.sideways = bool(tile.sideways)
        self.label = tile.label if label is None else label
        self.angle = tile.angle
        self.uncertain = False


def test_the_renderer_writes_images_and_a_label_file_of_its_truth(rendered_set):
    labels = load_labels(rendered_set)
    assert sorted(labels) == ["table-4000000.jpg", "table-4000001.jpg"]
    assert all((rendered_set.parent / name).is_file() for name in labels)
    tiles = [t for ts in labels.values() for t in ts]
    assert len(tiles) > 40
    assert any(t.sideways for t in tiles)
    assert all(t.corners.shape == (4, 2) and not t.from_box for t in tiles)


def test_scoring_the_labels_against_themselves_is_perfect_and_one_misread_counts_once(rendered_set):
    labels = load_labels(rendered_set)
    for name, tiles in labels.items():
        score, _ = score_labelled_images(
            {name: tiles}, rendered_set.parent, lambda _image, t=tiles: [_Perfect(x) for x in t], 0.5
        )
        assert score.recall == score.precision == score.kind_accuracy == 1.0
        assert score.orientation_accuracy == 1.0
        first = tiles[0]
        wrong = (first.label + 1) % 34
        misread = [_Perfect(x, wrong if i == 0 else None) for i, x in enumerate(tiles)]
        score, _ = score_labelled_images({name: tiles}, rendered_set.parent, lambda _image, m=misread: m, 0.5)
        assert score.kind_correct == len(tiles) - 1
        assert score.matrix[label_name(first.label)][label_name(wrong)] == 1


def test_eval_runs_the_detector_and_its_figures_are_the_matchers(rendered_set, capsys):
    assert main(["vision", "eval", "--labels", str(rendered_set), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    labels = load_labels(rendered_set)
    assert report["images"] == 2
    assert report["truths"] == sum(len(t) for t in labels.values())
    assert report["recall"] == pytest.approx(report["matched"] / report["truths"], abs=1e-4)
    assert report["precision"] == pytest.approx(report["matched"] / report["detections"], abs=1e-4)
    assert 0.3 < report["recall"] <= 1.0
    assert 0.5 < report["kind_accuracy"] <= 1.0
    assert sum(c["matched"] for c in report["per_class"].values()) == report["matched"]
    assert sum(c["correct"] for c in report["per_class"].values()) == round(report["kind_accuracy"] * report["matched"])
    assert [p["image"] for p in report["per_image"]] == sorted(labels)
    assert report["pixel_aspects"] == {"1": 2}  # rendered frames: square pixels chosen


def test_a_stricter_iou_matches_fewer_tiles(rendered_set, capsys):
    assert main(["vision", "eval", "--labels", str(rendered_set), "--json", "--iou", "0"]) == 0
    loose = json.loads(capsys.readouterr().out)
    assert main(["vision", "eval", "--labels", str(rendered_set), "--json", "--iou", "0.9"]) == 0
    strict = json.loads(capsys.readouterr().out)
    assert strict["matched"] < loose["matched"]


def test_eval_shows_a_bar_over_the_photos_on_a_terminal_and_none_with_json(rendered_set):
    status, stdout, terminal_output = jantaku_with_stderr_on_a_terminal("vision", "eval", "--labels", str(rendered_set))
    assert status == 0
    assert "eval [" in terminal_output
    assert "2/2" in terminal_output
    assert "eval [" not in stdout
    status, _, terminal_output = jantaku_with_stderr_on_a_terminal(
        "vision", "eval", "--labels", str(rendered_set), "--json"
    )
    assert status == 0
    assert "eval [" not in terminal_output


def test_eval_text_names_the_figures(rendered_set, capsys):
    assert main(["vision", "eval", "--labels", str(rendered_set)]) == 0
    out = capsys.readouterr().out
    for words in ("recall", "precision", "kind accuracy", "red-five recall", "table-4000000.jpg", "pixel aspect"):
        assert words in out


def test_a_corrected_detect_output_is_a_label_entry(rendered_set, tmp_path, capsys):
    image = rendered_set.parent / "table-4000000.jpg"
    assert main(["vision", "detect", str(image), "--json"]) == 0
    detected = json.loads(capsys.readouterr().out)
    (tmp_path / "labels.json").write_text(json.dumps({"images": {str(image): detected}}))
    assert main(["vision", "eval", "--labels", str(tmp_path / "labels.json"), "--images", "/", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["recall"] == report["precision"] == report["kind_accuracy"] == 1.0


@pytest.mark.parametrize(
    ("entry", "complaint"),
    [
        ({"tile": "10m", "corners": [[0, 0], [10, 0], [10, 14], [0, 14]]}, "tile '10m'"),
        ({"tile": "4m", "red": True, "box": [0, 0, 10, 14]}, "only 5m, 5p and 5s can be red"),
        ({"tile": "4m", "corners": [[0, 0], [10, 0], [10, 14]]}, "corners: must be 4 points"),
        ({"tile": "4m", "box": [10, 0, 0, 14]}, "x1 > x0"),
        ({"tile": "4m"}, "needs corners or box"),
        ({"tile": "4m", "box": [0, 0, 10, 14], "sideways": "yes"}, "sideways must be true or false"),
    ],
)
def test_a_bad_entry_is_named_with_its_file_and_place(tmp_path, capsys, entry, complaint):
    path = tmp_path / "bad.json"
    good = {"tile": "1m", "box": [0, 0, 10, 14]}
    path.write_text(json.dumps({"images": {"a.jpg": [good, entry]}}))
    with pytest.raises(LabelFileError, match=r"bad\.json") as error:
        load_labels(path)
    assert "images['a.jpg'][1]" in str(error.value)
    assert complaint in str(error.value)
    assert main(["vision", "eval", "--labels", str(path)]) == 2
    assert "images['a.jpg'][1]" in capsys.readouterr().err


def test_a_missing_image_is_named(tmp_path, capsys):
    path = tmp_path / "labels.json"
    path.write_text(json.dumps({"images": {"absent.jpg": [{"tile": "1m", "box": [0, 0, 10, 14]}]}}))
    assert main(["vision", "eval", "--labels", str(path)]) == 2
    assert "absent.jpg" in capsys.readouterr().err


def test_box_labels_load_without_an_orientation():
    tile = LabelledTile(3, np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 14.0], [0.0, 14.0]]), None, from_box=True)
    assert tile.angle is None
    assert tile.as_json() == {"box": [0.0, 0.0, 10.0, 14.0], "tile": "4m", "red": False}


def test_the_overlap_rule_only_removes_matches():
    square = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]])
    shifted = square + np.array([3.0, 0.0])  # centre 3 px away, box IoU 7/13
    assert len(match_quads([square], [shifted], tile_width=10.0)) == 1
    assert len(match_quads([square], [shifted], tile_width=10.0, min_iou=0.5)) == 1
    assert match_quads([square], [shifted], tile_width=10.0, min_iou=0.6) == []
    score = DetectionScore()
    score.add([_Perfect(LabelledTile(0, square, None))], [_Perfect(LabelledTile(0, shifted, True))], 10.0, 0.6)
    assert (score.matched, score.truths, score.detections) == (0, 1, 1)


def _quad(x0, y0, x1, y1):
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)


def test_the_overlap_asked_of_a_box_label_is_lower_than_of_a_corner_label():
    # A labeller's box takes in the block (face, top and sides); the finder reports the face
    # inside it: IoU 120/252 = 0.48.
    block, face = _quad(0, 0, 14, 18), _quad(2, 3, 12, 15)
    boxed = LabelledTile(3, block, None, from_box=True)
    cornered = LabelledTile(3, block, None)
    found = [_Perfect(LabelledTile(3, face, False))]
    assert DEFAULT_OVERLAP.for_tiles([boxed, cornered]) == [0.3, 0.5]
    by_default = DetectionScore()
    by_default.add([boxed], found, 14.0, DEFAULT_OVERLAP.for_tiles([boxed]))
    assert by_default.matched == 1
    corners = DetectionScore()
    corners.add([cornered], found, 14.0, DEFAULT_OVERLAP.for_tiles([cornered]))
    assert corners.matched == 0
    one_bar = DetectionScore()
    one_bar.add([boxed], found, 14.0, OverlapRule.one(0.5).for_tiles([boxed]))
    assert one_bar.matched == 0
    # One bar per true tile: the box label matches, the corner label beside it does not.
    beside = LabelledTile(3, block + 40.0, None)
    pairs = match_quads([block, block + 40.0], [face, face + 40.0], 14.0, DEFAULT_OVERLAP.for_tiles([boxed, beside]))
    assert [(m.truth, m.found) for m in pairs] == [(0, 0)]


def test_the_report_says_which_overlap_it_asked():
    score = DetectionScore()
    assert (
        "box IoU ≥ 0.5 (tiles labelled by corners), ≥ 0.3 (labelled by a box)"
        in report_lines(score, [], DEFAULT_OVERLAP)[0]
    )
    assert "box IoU ≥ 0.4)" in report_lines(score, [], 0.4)[0]
    assert report_json(score, [], DEFAULT_OVERLAP)["min_iou"] == {"corners": 0.5, "box": 0.3}
    assert report_json(score, [], 0.4)["min_iou"] == 0.4


def test_a_red_five_the_detector_missed_still_counts_as_labelled_and_not_found(rendered_set):
    labels = load_labels(rendered_set)
    name, tiles = next((n, t) for n, t in labels.items() if any(is_red_label(x.label) for x in t))
    reds = [x for x in tiles if is_red_label(x.label)]
    others = [x for x in tiles if not is_red_label(x.label)]
    score, _ = score_labelled_images({name: tiles}, rendered_set.parent, lambda _i: [_Perfect(x) for x in others], 0.5)
    assert score.red_truths == len(reds)
    assert score.red_recall == 0.0
    score, _ = score_labelled_images({name: tiles}, rendered_set.parent, lambda _i: [_Perfect(x) for x in tiles], 0.5)
    assert score.red_recall == 1.0


def test_detections_on_ignored_boxes_count_neither_as_found_nor_as_false(rendered_set, tmp_path):
    labels = load_labels(rendered_set)
    name, tiles = next(iter(labels.items()))
    kept, dropped = tiles[1:], tiles[0]
    x0, y0 = dropped.corners.min(axis=0)
    x1, y1 = dropped.corners.max(axis=0)
    document = json.loads(rendered_set.read_text(encoding="utf-8"))
    document["images"] = {name: [t.as_json() for t in kept]}
    document["ignore"] = {name: [[float(x0), float(y0), float(x1), float(y1)]]}
    path = tmp_path / "labels.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    ignored = load_ignored(path)
    assert ignored == {name: ((float(x0), float(y0), float(x1), float(y1)),)}
    detect = lambda _image: [_Perfect(x) for x in tiles]  # noqa: E731 - finds the ignored tile too
    score, _ = score_labelled_images(load_labels(path), rendered_set.parent, detect, 0.5, ignored)
    assert score.truths == score.detections == score.matched == len(kept)
    score, _ = score_labelled_images(load_labels(path), rendered_set.parent, detect, 0.5)
    assert score.detections == len(tiles)
    assert score.precision < 1.0


def test_a_malformed_ignore_entry_names_the_file_and_image(tmp_path):
    path = tmp_path / "labels.json"
    path.write_text(json.dumps({"images": {}, "ignore": {"a.jpg": [[5, 5, 1, 1]]}}), encoding="utf-8")
    with pytest.raises(LabelFileError, match=r"labels.json: ignore\['a.jpg'\]\[0\]: box .* x1 > x0"):
        load_ignored(path)


def test_a_label_files_source_is_named_as_either_builder_writes_it():
    assert source_name({"source": {"name": "leo-miura", "repo": "r"}}) == "leo-miura"
    assert source_name({"source": "vision.render.seat_view seeds 1-2"}, "folder") == "vision.render.seat_view seeds 1-2"
    assert source_name({}, "folder") == "folder"
    assert source_name({"source": {"repo": "r"}}, "folder") == "folder"
    assert source_name({"source": None}) == ""
