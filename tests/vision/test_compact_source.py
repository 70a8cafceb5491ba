"""A compact copy of a photo source (vision/training/compact_source.py): the train split only,
each image scaled down to a median tile length with its boxes, and a few augmented copies."""

import json

import cv2
import numpy as np
import pytest

from vision.eval.label_file import load_ignored, load_labels
from vision.training.compact_source import compact
from vision.training.photo_frames import build_photo_frames


def _built_source(root):
    """A built source: photo A (original + three copies, train), photo B (held out)."""
    (root / "images").mkdir(parents=True)
    image = np.full((200, 300, 3), 120, np.uint8)
    cv2.rectangle(image, (100, 60), (160, 140), (240, 240, 240), -1)
    tile = {"box": [100.0, 60.0, 160.0, 140.0], "tile": "3p"}
    names = ["images/a.jpg", "images/a-copy1.jpg", "images/a-copy2.jpg", "images/a-copy3.jpg", "images/b.jpg"]
    for name in names:
        cv2.imwrite(str(root / name), image)
    document = {
        "format": "jantaku-labels",
        "version": 1,
        "source": {"name": "tiny", "licence": "CC0"},
        "images": {name: [tile, {**tile, "box": [20.0, 20.0, 80.0, 100.0]}] for name in names},
        "ignore": {"images/a.jpg": [[200.0, 100.0, 260.0, 180.0]]},
        "groups": {name: ("b" if name == "images/b.jpg" else "a") for name in names},
        "augmented": names[1:4],
        "split": {"a": "train", "b": "held-out"},
    }
    (root / "labels.json").write_text(json.dumps(document), encoding="utf-8")


def test_the_compact_copy_keeps_the_train_split_scaled_with_its_boxes_and_few_copies(tmp_path):
    _built_source(tmp_path / "full")
    counts = compact(tmp_path / "full" / "labels.json", tmp_path / "small", median_long=40.0, copies=1)
    document = json.loads((tmp_path / "small" / "labels.json").read_text(encoding="utf-8"))
    labels = load_labels(tmp_path / "small" / "labels.json")
    assert counts["images"] == len(labels) == 2  # the original and one of its three copies; no held-out photo
    assert "images/a.jpg" in labels
    assert "images/b.jpg" not in labels
    assert len(document["augmented"]) == 1
    assert set(document["split"].values()) == {"train"}
    image = cv2.imread(str(tmp_path / "small" / "images" / "a.jpg"))
    assert image.shape[:2] == (100, 150)  # tiles 80 long → 40: scaled by half
    assert document["images"]["images/a.jpg"][0]["box"] == [50.0, 30.0, 80.0, 70.0]
    assert load_ignored(tmp_path / "small" / "labels.json")["images/a.jpg"] == ((100.0, 50.0, 130.0, 90.0),)
    # The drawn tile is still where its scaled box says.
    assert image[50, 65].mean() > 200
    assert image[20, 20].mean() < 150
    frames = build_photo_frames(tmp_path / "small" / "labels.json", seed=1, crops=3, augmented_crops=2)
    assert len(frames.inputs) >= 5


def test_the_copies_kept_do_not_depend_on_the_listing_order(tmp_path):
    _built_source(tmp_path / "full")
    compact(tmp_path / "full" / "labels.json", tmp_path / "one", copies=2)
    document = json.loads((tmp_path / "full" / "labels.json").read_text(encoding="utf-8"))
    document["images"] = dict(reversed(document["images"].items()))
    document["augmented"] = list(reversed(document["augmented"]))
    (tmp_path / "full" / "labels.json").write_text(json.dumps(document), encoding="utf-8")
    compact(tmp_path / "full" / "labels.json", tmp_path / "two", copies=2)
    kept = [json.loads((tmp_path / f / "labels.json").read_text(encoding="utf-8"))["augmented"] for f in ("one", "two")]
    assert kept[0] == kept[1]
    assert len(kept[0]) == 2


def test_an_image_too_small_already_is_never_scaled_up(tmp_path):
    _built_source(tmp_path / "full")
    compact(tmp_path / "full" / "labels.json", tmp_path / "small", median_long=200.0)
    assert cv2.imread(str(tmp_path / "small" / "images" / "a.jpg")).shape[:2] == (200, 300)


def test_an_unreadable_image_is_named(tmp_path):
    _built_source(tmp_path / "full")
    (tmp_path / "full" / "images" / "a.jpg").write_bytes(b"not a jpeg")
    with pytest.raises(ValueError, match=r"full/images/a\.jpg: not a readable image"):
        compact(tmp_path / "full" / "labels.json", tmp_path / "small")
