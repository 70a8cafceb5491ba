"""Real-photo sources (vision/training/real_photos.py): a Roboflow YOLO export becomes a jantaku
label file with ignore boxes, photograph groups and a split that never separates copies."""

import json

import cv2
import numpy as np
import pytest

from vision.eval.label_file import label_of_name, load_ignored, load_labels
from vision.training.photo_crops import photo_crops
from vision.training.real_photos import (
    OTHER,
    SOURCES,
    PhotoSource,
    RealPhotoError,
    build,
    chinese_set_tile,
    class_names,
    group_of,
    held_out_group,
    japanese_set_tile,
    subset,
    tile_free_pictures,
    yolo_boxes,
)

SPLITS = ("train", "held-out")
CHINESE_NAMES = [
    "bs1", "sc1", "sd1", "sb1", "hwe", "bs2", "sc2", "sd2", "sb2", "hws", "bs3", "sc3", "sd3", "sb3", "hww",
    "bs4", "sc4", "sd4", "sb4", "hwn", "bf1", "sc5", "sd5", "sb5", "hdw", "bf2", "sc6", "sd6", "sb6", "hdg",
    "bf3", "sc7", "sd7", "sb7", "hdr", "bf4", "sc8", "sd8", "sb8", "sc9", "sd9", "sb9",
]  # fmt: skip
JAPANESE_NAMES = ["0"] + [f"{n}_{s}" for n in range(1, 10) for s in ("man", "pin", "sou")] + [
    "chun", "haku", "hatsu", "nan", "pe-", "sya-", "ton",
]  # fmt: skip


def test_every_class_of_both_sources_maps_to_one_kind_or_other():
    chinese = [chinese_set_tile(n) for n in CHINESE_NAMES]
    japanese = [japanese_set_tile(n) for n in JAPANESE_NAMES]
    assert None not in chinese
    assert None not in japanese
    kinds = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
    assert sorted(t for t in chinese if t != OTHER) == sorted(kinds)
    assert chinese.count(OTHER) == 8  # four seasons, four flowers
    assert sorted(t for t in japanese if t != OTHER) == sorted(kinds)
    assert japanese_set_tile("0") == OTHER  # a red five of no named suit
    assert chinese_set_tile("hdw") == "5z"
    assert japanese_set_tile("sya-") == "3z"
    assert chinese_set_tile("xx1") is None
    assert japanese_set_tile("10_man") is None


def test_yolo_lines_become_pixel_boxes_and_polygons_their_bounding_box():
    text = "3 0.5 0.25 0.1 0.2\n\n7 0.1 0.1 0.3 0.1 0.3 0.4 0.1 0.4\n"
    assert yolo_boxes(text, 640, 480, "x.txt") == [
        (3, [288.0, 72.0, 352.0, 168.0]),
        (7, [64.0, 48.0, 192.0, 192.0]),
    ]


@pytest.mark.parametrize(
    ("line", "detail"),
    [
        ("3 0.5 0.5 0.1", "got 3 numbers"),
        ("x 0.5 0.5 0.1 0.1", "not a YOLO line"),
        ("1 0.5 0.5 1.5 0.2", "outside"),
        ("1 0.5 0.5 0 0.2", "no area"),
    ],
)
def test_a_bad_yolo_line_names_the_file_and_line(line, detail):
    with pytest.raises(RealPhotoError, match=rf"labels/a.txt:2: .*{detail}"):
        yolo_boxes("0 0.5 0.5 0.1 0.1\n" + line, 640, 640, "labels/a.txt")


def test_roboflow_copies_of_one_photo_share_a_group():
    assert group_of("IMG_1234_jpg.rf.0123abcd") == "IMG_1234"
    assert group_of("Screenshot-2025_png.rf.ffee00") == "Screenshot-2025"
    assert group_of("plain-name") == "plain-name"


def _export(root, names):
    """A tiny Roboflow export: train (augmented copies) and valid (originals)."""
    root.mkdir(parents=True)
    (root / "data.yaml").write_text(f"nc: {len(names)}\nnames: {names!r}\n", encoding="utf-8")
    image = np.full((64, 64, 3), 90, np.uint8)
    files = {
        ("train", "photoA_jpg.rf.aa01"): "1 0.5 0.5 0.2 0.3\n0 0.2 0.2 0.1 0.1\n",
        ("train", "photoA_jpg.rf.aa02"): "1 0.5 0.5 0.3 0.2\n",
        ("valid", "photoA_jpg.rf.aa03"): "2 0.5 0.5 0.2 0.3\n",
        ("valid", "photoB_jpg.rf.bb01"): "3 0.4 0.4 0.2 0.3\n",
        ("valid", "photoC_jpg.rf.cc01"): "3 0.4 0.4 0.2 0.3\n",
    }
    for (split, stem), text in files.items():
        (root / split / "images").mkdir(parents=True, exist_ok=True)
        (root / split / "labels").mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(root / split / "images" / f"{stem}.jpg"), image)
        (root / split / "labels" / f"{stem}.txt").write_text(text, encoding="utf-8")


def _source(held_out=False, mislabelled=()):
    return PhotoSource(
        name="tiny",
        repo="someone/tiny",
        commit="0" * 12,
        licence="CC0",
        folder="export",
        tile_of_class=chinese_set_tile,
        held_out=held_out,
        augmented_splits=("train",),
        mislabelled=mislabelled,
    )


def test_a_built_source_is_a_label_file_with_ignore_boxes_groups_and_a_split_by_photo(tmp_path):
    _export(tmp_path / "repo" / "export", ["bs1", "sc1", "sd1", "sb1"])
    counts = build(_source(), tmp_path / "repo", tmp_path / "out")
    document = json.loads((tmp_path / "out" / "labels.json").read_text(encoding="utf-8"))
    labels = load_labels(tmp_path / "out" / "labels.json")
    assert all((tmp_path / "out" / name).is_file() for name in labels)
    assert labels["images/valid-photoB_jpg.rf.bb01.jpg"][0].label == 18  # sb1 → 1s
    assert labels["images/valid-photoB_jpg.rf.bb01.jpg"][0].from_box
    ignored = load_ignored(tmp_path / "out" / "labels.json")
    assert ignored == {"images/train-photoA_jpg.rf.aa01.jpg": ((9.6, 9.6, 16.0, 16.0),)}  # the season tile
    groups = document["groups"]
    assert {groups[n] for n in labels} == {"photoA", "photoB", "photoC"}
    assert set(document["augmented"]) <= {n for n in labels if n.startswith("images/train-")}
    # Copies of one photograph are on one side only, and held-out photographs keep no augmented copy.
    for name in labels:
        assert document["split"][groups[name]] in ("train", "held-out")
        if document["split"][groups[name]] == "held-out":
            assert name not in document["augmented"]
    expected_held_out = {g for g in ("photoA", "photoB", "photoC") if held_out_group(g)}
    assert {g for g, s in document["split"].items() if s == "held-out"} == expected_held_out
    assert counts["images"] == len(labels)
    assert counts["ignored_boxes"] == sum(len(b) for b in ignored.values())
    train = subset(tmp_path / "out" / "labels.json", "train", tmp_path / "train.json")
    held = subset(tmp_path / "out" / "labels.json", "held-out", tmp_path / "held.json")
    assert train + held == len(labels)
    assert not set(load_labels(tmp_path / "train.json")) & set(load_labels(tmp_path / "held.json"))


def test_a_photograph_listed_as_mislabelled_is_left_out_with_all_its_copies(tmp_path):
    _export(tmp_path / "repo" / "export", ["bs1", "sc1", "sd1", "sb1"])
    counts = build(_source(mislabelled=("photoA",)), tmp_path / "repo", tmp_path / "out")
    document = json.loads((tmp_path / "out" / "labels.json").read_text(encoding="utf-8"))
    assert set(document["groups"].values()) == {"photoB", "photoC"}
    assert set(document["split"]) == {"photoB", "photoC"}
    assert not any("photoA" in name for name in document["images"])
    assert not any("photoA" in path.name for path in (tmp_path / "out" / "images").iterdir())
    assert counts["mislabelled_left_out"] == 1
    assert counts["images"] == 2


def test_a_mislabelled_photograph_the_export_does_not_hold_is_named(tmp_path):
    _export(tmp_path / "repo" / "export", ["bs1", "sc1", "sd1", "sb1"])
    with pytest.raises(RealPhotoError, match=r"photoZ.*mislabelled"):
        build(_source(mislabelled=("photoZ",)), tmp_path / "repo", tmp_path / "out")


def test_the_alanchoi_photographs_labelled_all_1p_are_listed():
    assert len(SOURCES["alanchoi"].mislabelled) == 7
    assert not SOURCES["leo-miura"].mislabelled


def test_a_source_held_out_whole_has_no_training_image(tmp_path):
    _export(tmp_path / "repo" / "export", ["bs1", "sc1", "sd1", "sb1"])
    build(_source(held_out=True), tmp_path / "repo", tmp_path / "out")
    assert subset(tmp_path / "out" / "labels.json", "train", tmp_path / "train.json") == 0


def test_an_unknown_class_name_or_a_missing_checkout_is_named(tmp_path):
    _export(tmp_path / "repo" / "export", ["bs1", "sc1", "zz9", "sb1"])
    with pytest.raises(RealPhotoError, match=r"aa03.txt: class name 'zz9' has no tile in tiny's table"):
        build(_source(), tmp_path / "repo", tmp_path / "out")
    with pytest.raises(RealPhotoError, match=r"is not a folder: is .* a checkout of someone/tiny"):
        build(_source(), tmp_path / "nothing", tmp_path / "out")


def test_class_names_are_read_from_data_yaml_and_a_broken_list_is_named(tmp_path):
    path = tmp_path / "data.yaml"
    path.write_text("nc: 2\nnames: ['a', 'b']\n", encoding="utf-8")
    assert class_names(path) == ["a", "b"]
    path.write_text("nc: 2\nnames: ['a', \n", encoding="utf-8")
    with pytest.raises(RealPhotoError, match=r"data.yaml: not a YAML file that can be read"):
        class_names(path)
    path.write_text("nc: 2\nnames:\n  0: a\n  1: b\n", encoding="utf-8")
    assert class_names(path) == ["a", "b"]


def test_the_registered_sources_name_a_commit_and_a_licence_and_one_is_held_out_whole():
    assert {s.name for s in SOURCES.values() if s.held_out} == {"leo-miura"}
    for source in SOURCES.values():
        assert len(source.commit) >= 12
        assert "CC BY 4.0" in source.licence


def test_classifier_crops_come_from_tight_boxes_of_originals_only(tmp_path):
    _export(tmp_path / "repo" / "export", ["bs1", "sc1", "sd1", "sb1"])
    build(_source(), tmp_path / "repo", tmp_path / "out")
    document = json.loads((tmp_path / "out" / "labels.json").read_text(encoding="utf-8"))
    crops = {split: photo_crops(tmp_path / "out" / "labels.json", split, seed=1, copies=3) for split in SPLITS}
    expected = {split: [] for split in SPLITS}
    for name, tiles in document["images"].items():
        if name in document["augmented"]:
            continue  # Roboflow's rotated copies: loose boxes, perhaps mirrored faces
        for tile in tiles:
            expected[document["split"][document["groups"][name]]] += [label_of_name(tile["tile"], False, "t")] * 3
    for split in SPLITS:
        assert sorted(crops[split].labels.tolist()) == sorted(expected[split])
        assert crops[split].images.shape[1:] == (42, 32, 3)
    assert len(crops["train"].labels) + len(crops["held-out"].labels) == 9  # three originals, one tile each


def test_the_tile_free_pictures_of_built_sets_are_their_training_negatives(tmp_path):
    for name, negatives in (("a", ["images/room.jpg"]), ("b", [])):
        document = {
            "format": "jantaku-labels",
            "version": 1,
            "images": {"images/room.jpg": [], "images/hand.jpg": [{"box": [1, 1, 9, 14], "label": 3}]},
            "groups": {"images/room.jpg": "room", "images/hand.jpg": "hand"},
            "split": {"room": "train", "hand": "train"},
            "negatives": negatives,
        }
        (tmp_path / name).mkdir()
        (tmp_path / name / "labels.json").write_text(json.dumps(document), encoding="utf-8")
    found = tile_free_pictures([tmp_path / "a" / "labels.json", tmp_path / "b" / "labels.json"])
    assert found == [tmp_path / "a" / "images" / "room.jpg"]


def test_training_losses_skip_what_a_photo_does_not_say():
    torch = pytest.importorskip("torch")
    from vision.classify.labels import LABEL_COUNT
    from vision.training.train import either_way_up_loss
    from vision.training.train_detector import loss_of

    logits = torch.full((2, 2 * LABEL_COUNT), -5.0)
    logits[0, 3] = 5.0  # label 3 read upright
    logits[1, 3 + LABEL_COUNT] = 5.0  # label 3 read upside down
    sure = either_way_up_loss(logits, torch.tensor([3, 3]))
    wrong = either_way_up_loss(logits, torch.tensor([4, 4]))
    assert float(sure) < 0.01
    assert float(wrong) > 5.0
    output = torch.zeros(1, 8, 4, 4)
    target = torch.zeros(1, 9, 4, 4)
    target[0, 0, 1, 1] = target[0, 8, 1, 1] = 1.0
    unknown = target.clone()
    unknown[0, 3:8, 1, 1] = float("nan")
    target[0, 3, 1, 1] = 3.0  # a known size the output misses
    _, other_known = loss_of(output, target)
    _, other_unknown = loss_of(output, unknown)
    assert torch.isfinite(other_unknown)
    assert float(other_unknown) < float(other_known)
    # Heat unknown (a tile the photograph's edge cuts, beside its mirror image) costs nothing:
    # the same heat taught as no tile costs what the output's confidence there says.
    confident = torch.full((1, 8, 4, 4), -9.0)  # sure there is no tile
    confident[0, 0, 2:4, 2:4] = 4.0  # but for a tile where none is taught
    no_tile = torch.zeros(1, 9, 4, 4)
    heat_unknown = no_tile.clone()
    heat_unknown[0, 0, 2:4, 2:4] = float("nan")
    heat_taught, _ = loss_of(confident, no_tile)
    heat_skipped, other = loss_of(confident, heat_unknown)
    assert torch.isfinite(heat_skipped)
    assert torch.isfinite(other)
    assert float(heat_skipped) < float(heat_taught) / 10
