"""A labelling tool's export (YOLO, COCO, Pascal VOC) as a jantaku label file
(vision/eval/label_import.py, `jantaku vision import-labels`)."""

import json
import shutil
import struct

import cv2
import numpy as np
import pytest

from table_app.cli import main
from vision.classify.labels import is_red_label, label_name
from vision.eval.label_file import load_ignored, load_labels
from vision.eval.label_import import LabelImportError, labels_from, read_export
from vision.eval.tile_names import NamedTile
from vision.render.labelled_set import write_rendered_set
from vision.render.renderer import RenderOptions
from vision.render.tile_art import ArtStyle


def _image(path, width=200, height=100):
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), np.full((height, width, 3), 90, np.uint8))
    return path


def _turned_jpeg(path, width, height, orientation=6):
    """A JPEG of ``width`` x ``height`` pixels whose EXIF orientation tag turns it (6: a quarter
    clockwise), as a phone writes it: OpenCV reads it ``height`` x ``width``. The APP1 segment is
    written by hand: a big-endian TIFF header and one IFD entry, Orientation (0x0112, a SHORT)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    ok, jpeg = cv2.imencode(".jpg", np.full((height, width, 3), 90, np.uint8))
    assert ok
    tiff = b"MM\x00*" + struct.pack(">IHHHIHHI", 8, 1, 0x0112, 3, 1, orientation, 0, 0)
    app1 = b"\xff\xe1" + struct.pack(">H", 2 + 6 + len(tiff)) + b"Exif\x00\x00" + tiff
    data = jpeg.tobytes()
    path.write_bytes(data[:2] + app1 + data[2:])
    return path


def _roboflow_yolo(root):
    root.mkdir(parents=True)
    (root / "data.yaml").write_text(
        "train: ../train/images\nval: ../valid/images\nnc: 4\nnames: ['1m', '0p', 'flower', 'E']\n", encoding="utf-8"
    )
    _image(root / "train" / "images" / "a.jpg")
    (root / "train" / "labels").mkdir(parents=True)
    (root / "train" / "labels" / "a.txt").write_text(
        "0 0.5 0.5 0.1 0.2\n1 0.25 0.5 0.1 0.2\n\n2 0.8 0.5 0.1 0.2\n3 0.1 0.1 0.1 0.2 0.2 0.2 0.2 0.4 0.1 0.4\n"
        "0 0.9 0.9 0 0\n",
        encoding="utf-8",
    )
    _image(root / "valid" / "images" / "b.png")
    (root / "valid" / "labels").mkdir(parents=True)
    (root / "valid" / "labels" / "b.txt").write_text("", encoding="utf-8")  # a photograph with no tile
    _image(root / "test" / "images" / "c.jpg")  # no label file
    return root


def test_a_roboflow_yolo_export_becomes_boxes_in_pixels_relative_to_the_label_file(tmp_path):
    export = read_export(_roboflow_yolo(tmp_path / "export"))
    assert export.format == "yolo"
    assert export.declared == ["1m", "0p", "flower", "E"]
    assert [p.name for p in export.without_labels] == ["c.jpg"]
    assert len(export.no_area) == 1
    assert export.no_area[0].endswith("a.txt:6")
    out = tmp_path / "labels" / "mine.json"
    imported = labels_from([export], out, {})
    out.parent.mkdir()
    out.write_text(json.dumps(imported.document), encoding="utf-8")
    labels = load_labels(out)
    assert sorted(labels) == ["../export/train/images/a.jpg", "../export/valid/images/b.png"]
    tiles = labels["../export/train/images/a.jpg"]
    assert [(label_name(t.label), is_red_label(t.label)) for t in tiles] == [("1m", False), ("5p", True), ("1z", False)]
    assert np.allclose(tiles[0].corners.min(axis=0), [90.0, 40.0])
    assert np.allclose(tiles[0].corners.max(axis=0), [110, 60])
    assert np.allclose(tiles[2].corners.min(axis=0), [20.0, 10.0])  # the polygon's bounding box
    assert all(t.from_box and t.sideways is None for t in tiles)
    assert load_ignored(out) == {"../export/train/images/a.jpg": ((150.0, 40.0, 170.0, 60.0),)}
    assert labels["../export/valid/images/b.png"] == ()
    assert (imported.tiles, imported.red_fives, imported.ignored) == (3, 1, 1)
    assert imported.document["red_fives_marked"] is True  # the scheme has a red five: its other fives are plain
    assert imported.table == {"1m": NamedTile("1m"), "0p": NamedTile("5p", red=True), "flower": NamedTile("other"),
                              "E": NamedTile("1z")}  # fmt: skip


def test_ultralytics_names_as_a_mapping_and_darknet_names_beside_the_images(tmp_path):
    ultra = tmp_path / "ultra"
    (ultra).mkdir()
    (ultra / "mahjong.yaml").write_text("path: .\nnames:\n  0: man1\n  1: haku\n", encoding="utf-8")
    _image(ultra / "images" / "val" / "x.jpg")
    (ultra / "labels" / "val").mkdir(parents=True)
    (ultra / "labels" / "val" / "x.txt").write_text("1 0.5 0.5 0.2 0.4\n", encoding="utf-8")
    export = read_export(ultra)
    assert export.declared == ["man1", "haku"]
    assert [b.name for b in export.images[ultra / "images" / "val" / "x.jpg"]] == ["haku"]
    darknet = tmp_path / "darknet"
    (darknet).mkdir()
    (darknet / "classes.txt").write_text("5s\nNorth\n", encoding="utf-8")
    _image(darknet / "y.jpg", 100, 100)
    (darknet / "y.txt").write_text("0 0.5 0.5 0.2 0.3\n", encoding="utf-8")
    export = read_export(darknet)
    assert [(b.name, b.box) for b in export.images[darknet / "y.jpg"]] == [("5s", (40.0, 35.0, 60.0, 65.0))]


def test_a_coco_export_and_a_voc_export(tmp_path):
    coco = tmp_path / "coco"
    _image(coco / "p1.jpg", 300, 200)
    (coco / "_annotations.coco.json").write_text(
        json.dumps(
            {
                "images": [{"id": 7, "file_name": "p1.jpg", "width": 300, "height": 200}],
                "categories": [
                    {"id": 0, "name": "tiles-Mahjong"},
                    {"id": 1, "name": "5-sou"},
                    {"id": 2, "name": "aka5m"},
                ],
                "annotations": [
                    {"id": 1, "image_id": 7, "category_id": 1, "bbox": [10, 20, 30, 40]},
                    {"id": 2, "image_id": 7, "category_id": 2, "bbox": [50.5, 20, 30, 40]},
                ],
            }
        ),
        encoding="utf-8",
    )
    export = read_export(coco)
    assert export.format == "coco"
    imported = labels_from([export], tmp_path / "coco.json", {})  # the supercategory names no tile but boxes none
    boxes = imported.document["images"]["coco/p1.jpg"]
    assert boxes == [
        {"box": [10.0, 20.0, 40.0, 60.0], "tile": "5s"},
        {"box": [50.5, 20.0, 80.5, 60.0], "tile": "5m", "red": True},
    ]
    voc = tmp_path / "voc"
    _image(voc / "JPEGImages" / "q.jpg")
    (voc / "Annotations").mkdir(parents=True)
    (voc / "Annotations" / "q.xml").write_text(
        "<annotation><filename>q.jpg</filename><object><name>3-pin</name><bndbox><xmin>5</xmin><ymin>6</ymin>"
        "<xmax>25</xmax><ymax>36</ymax></bndbox></object><object><name>west</name><bndbox><xmin>30</xmin>"
        "<ymin>6</ymin><xmax>50</xmax><ymax>36</ymax></bndbox></object></annotation>",
        encoding="utf-8",
    )
    export = read_export(voc)
    assert export.format == "voc"
    imported = labels_from([export], tmp_path / "voc.json", {})
    assert imported.document["images"] == {
        "voc/JPEGImages/q.jpg": [
            {"box": [5.0, 6.0, 25.0, 36.0], "tile": "3p"},
            {"box": [30.0, 6.0, 50.0, 36.0], "tile": "3z"},
        ]
    }


def test_names_that_name_no_tile_are_refused_with_where_and_how_to_name_them(tmp_path):
    root = _roboflow_yolo(tmp_path / "export")
    (root / "data.yaml").write_text("names: ['1m', 'zero', 'flower', 'E']\n", encoding="utf-8")
    export = read_export(root)
    with pytest.raises(LabelImportError, match=r"'zero' \(1 boxes, first .*a.txt:2\).*--names FILE"):
        labels_from([export], tmp_path / "l.json", {})
    imported = labels_from([export], tmp_path / "l.json", {"zero": NamedTile("5m", red=True)})
    assert imported.red_fives == 1


@pytest.mark.parametrize(
    ("label_text", "message"),
    [
        ("9 0.5 0.5 0.1 0.1\n", r"a.txt:1: class 9 is not one of the export's 4 names"),
        ("0 0.5 0.5 0.1\n", r"a.txt:1: expected class cx cy w h \(or a polygon\), got 3 numbers"),
        ("0 half 0.5 0.1 0.1\n", r"a.txt:1: not a YOLO line"),
        ("0 0.5 0.5 0.1 0.1\n0 250 40 20 30\n", r"a.txt:2: box outside the image"),
    ],
)
def test_a_broken_yolo_line_names_the_file_and_line(tmp_path, label_text, message):
    root = _roboflow_yolo(tmp_path / "export")
    (root / "train" / "labels" / "a.txt").write_text(label_text, encoding="utf-8")
    with pytest.raises(LabelImportError, match=message):
        read_export(root)


def test_broken_exports_are_refused_naming_what_and_where(tmp_path):
    with pytest.raises(LabelImportError, match="does not exist"):
        read_export(tmp_path / "absent")
    (tmp_path / "empty").mkdir()
    with pytest.raises(LabelImportError, match="no export found"):
        read_export(tmp_path / "empty")
    coco = tmp_path / "coco.json"
    coco.write_text(json.dumps({"images": [{"id": 1, "file_name": "gone.jpg"}], "annotations": [], "categories": []}))
    with pytest.raises(LabelImportError, match=r"coco.json: images\[0\]: image 'gone.jpg' not found"):
        read_export(coco)
    _image(tmp_path / "there.jpg")
    coco.write_text(
        json.dumps(
            {
                "images": [{"id": 1, "file_name": "there.jpg"}],
                "categories": [{"id": 3, "name": "1m"}],
                "annotations": [{"image_id": 1, "category_id": 4, "bbox": [1, 1, 5, 5]}],
            }
        )
    )
    with pytest.raises(LabelImportError, match=r"annotations\[0\]: category_id 4 is not in categories"):
        read_export(coco)
    (tmp_path / "data.yaml").write_text("names: [1m\n", encoding="utf-8")
    with pytest.raises(LabelImportError, match=r"data.yaml: not a YAML file that can be read"):
        read_export(tmp_path / "data.yaml")
    xml = tmp_path / "voc" / "v.xml"
    xml.parent.mkdir()
    xml.write_text("<annotation><filename>there.jpg</filename><object><name>1m</name></object></annotation>")
    shutil.copy(tmp_path / "there.jpg", xml.parent / "there.jpg")
    with pytest.raises(LabelImportError, match=r"v.xml: object 1: needs a name and bndbox"):
        read_export(xml.parent)


def _coco_export(folder, image_name, width, height):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "_annotations.coco.json"
    path.write_text(
        json.dumps(
            {
                "images": [{"id": 1, "file_name": image_name, "width": width, "height": height}],
                "categories": [{"id": 0, "name": "1m"}],
                "annotations": [{"id": 1, "image_id": 1, "category_id": 0, "bbox": [200, 10, 30, 40]}],
            }
        ),
        encoding="utf-8",
    )
    return path


def test_a_coco_image_with_an_exif_turn_its_labeller_ignored_is_refused_naming_it(tmp_path):
    image = _turned_jpeg(tmp_path / "coco" / "phone.jpg", 300, 200)  # labelled as 300x200, reads 200x300
    assert cv2.imread(str(image)).shape[:2] == (300, 200)
    coco = _coco_export(tmp_path / "coco", "phone.jpg", 300, 200)
    with pytest.raises(LabelImportError) as refused:
        read_export(coco)
    message = str(refused.value)
    assert message.startswith(f"COCO file {coco}: images[0]: states 300x200 pixels (width x height) for {image}")
    assert "reads as 200x300" in message
    assert "EXIF turn" in message
    assert "drawn on the unturned picture" in message
    _coco_export(tmp_path / "coco", "phone.jpg", 200, 300)  # stated as it reads: imported
    assert [b.box for b in read_export(coco).images[image]] == [(200.0, 10.0, 230.0, 50.0)]


def test_a_refused_import_leaves_the_label_file_it_would_replace(tmp_path, capsys):
    _turned_jpeg(tmp_path / "coco" / "phone.jpg", 300, 200)
    coco = _coco_export(tmp_path / "coco", "phone.jpg", 300, 200)
    out = tmp_path / "labels.json"
    out.write_text("{}\n", encoding="utf-8")
    assert main(["vision", "import-labels", str(coco), "--out", str(out), "--force"]) == 2
    assert "EXIF turn" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "{}\n"


def _voc_export(folder, size):
    _image(folder / "q.jpg", 200, 100)
    xml = folder / "q.xml"
    xml.write_text(
        f"<annotation><filename>q.jpg</filename>{size}<object><name>1m</name><bndbox><xmin>5</xmin><ymin>6</ymin>"
        "<xmax>25</xmax><ymax>36</ymax></bndbox></object></annotation>",
        encoding="utf-8",
    )
    return xml


def test_a_voc_size_that_is_not_the_image_s_is_refused_naming_both(tmp_path):
    xml = _voc_export(tmp_path / "voc", "<size><width>640</width><height>480</height><depth>3</depth></size>")
    with pytest.raises(LabelImportError) as refused:
        read_export(tmp_path / "voc")
    message = str(refused.value)
    assert message.startswith(f"VOC file {xml}: <size>: states 640x480 pixels (width x height) for ")
    assert "q.jpg, which reads as 200x100" in message
    assert "EXIF" not in message  # not the picture turned: another picture
    _voc_export(tmp_path / "voc", "<size><width>100</width><height>200</height></size>")
    with pytest.raises(LabelImportError, match=r"states 100x200 .* reads as 200x100: the picture carries an EXIF"):
        read_export(tmp_path / "voc")
    _voc_export(tmp_path / "voc", "<size><width>big</width><height>200</height></size>")
    with pytest.raises(LabelImportError, match=r"q.xml: <size>: the stated size 'big' x '200' is not a width"):
        read_export(tmp_path / "voc")


@pytest.mark.parametrize(
    "size",
    [
        "<size><width>200</width><height>100</height><depth>3</depth></size>",  # the image's own
        "",  # no <size>: optional
        "<size><width>0</width><height>0</height></size>",  # written by a tool that did not know it
        "<size><depth>3</depth></size>",
    ],
)
def test_a_voc_size_that_is_the_image_s_or_none_imports(tmp_path, size):
    _voc_export(tmp_path / "voc", size)
    export = read_export(tmp_path / "voc")
    assert [(b.name, b.box) for b in export.images[tmp_path / "voc" / "q.jpg"]] == [("1m", (5.0, 6.0, 25.0, 36.0))]


def test_import_then_eval_scores_a_rendered_set_exported_as_yolo_as_its_own_labels(tmp_path, capsys):
    options = RenderOptions(size=(960, 540), style=ArtStyle.BLACK, px_per_mm=(0.9, 1.0))
    rendered = write_rendered_set(tmp_path / "rendered", range(4_100_000, 4_100_002), options)
    truth = load_labels(rendered)
    # The same tiles as a YOLO export in mjai's names (5mr for a red five, E..C for honours).
    mjai = {f"{n}z": c for n, c in zip(range(1, 8), "ESWNPFC", strict=True)}
    names: list[str] = []
    export = tmp_path / "yolo"
    (export / "images").mkdir(parents=True)
    (export / "labels").mkdir()
    for name, tiles in truth.items():
        shutil.copy(rendered.parent / name, export / "images" / name)
        lines = []
        for tile in tiles:
            kind = label_name(tile.label)
            named = mjai.get(kind, kind + ("r" if is_red_label(tile.label) else ""))
            if named not in names:
                names.append(named)
            (x0, y0), (x1, y1) = tile.corners.min(axis=0), tile.corners.max(axis=0)
            centre, size = f"{(x0 + x1) / 1920} {(y0 + y1) / 1080}", f"{(x1 - x0) / 960} {(y1 - y0) / 540}"
            lines.append(f"{names.index(named)} {centre} {size}")
        (export / "labels" / name).with_suffix(".txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (export / "data.yaml").write_text(f"names: {json.dumps(names)}\n", encoding="utf-8")
    out = tmp_path / "imported.json"
    assert main(["vision", "import-labels", str(export), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "  E " in printed
    assert "→ 1z" in printed
    imported = load_labels(out)
    assert sorted(imported) == [f"yolo/images/{n}" for n in sorted(truth)]
    for name, tiles in truth.items():
        got = imported[f"yolo/images/{name}"]
        assert [t.label for t in got] == [t.label for t in tiles]
        for mine, theirs in zip(got, tiles, strict=True):
            assert np.allclose(mine.corners.min(axis=0), theirs.corners.min(axis=0), atol=0.06)
    assert main(["vision", "import-labels", str(export), "--out", str(out)]) == 2
    assert "exists" in capsys.readouterr().err
    assert main(["vision", "eval", "--labels", str(out), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["truths"] == sum(len(t) for t in truth.values())
    assert figures["min_iou"] == {"corners": 0.5, "box": 0.3}
    assert figures["red_fives"] == sum(is_red_label(t.label) for ts in truth.values() for t in ts)
    assert figures["recall"] > 0.95
    assert figures["kind_accuracy"] > 0.95
