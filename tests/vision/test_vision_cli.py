import json
from pathlib import Path

import cv2
import pytest

from table_app.cli import main
from vision.render.renderer import RenderOptions, render_table
from vision.render.seat_view import render_seat_view


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    table = render_table(7, RenderOptions(size=(960, 540), px_per_mm=(0.9, 1.0)))
    path = tmp_path_factory.mktemp("photos") / "table.jpg"
    cv2.imwrite(str(path), table.image)
    return path, table


def test_detect_json_lists_tiles_with_every_field(photo, capsys):
    path, table = photo
    assert main(["vision", "detect", str(path), "--json"]) == 0
    tiles = json.loads(capsys.readouterr().out)
    assert len(tiles) >= len(table.truths) // 2
    for tile in tiles:
        assert set(tile) >= {"box", "corners", "tile", "red", "angle", "confidence"}
        x0, y0, x1, y1 = tile["box"]
        assert 0 <= x0 < x1 <= 960
        assert 0 <= y0 < y1 <= 540
        assert len(tile["corners"]) == 4
        assert all(x0 - 1 <= x <= x1 + 1 and y0 - 1 <= y <= y1 + 1 for x, y in tile["corners"])
        assert tile["tile"] == "back" or (len(tile["tile"]) == 2 and tile["tile"][1] in "mpsz")
        assert isinstance(tile["red"], bool)
        assert tile["red"] is False or tile["tile"] in ("5m", "5p", "5s")
        assert 0 <= tile["angle"] <= 359
        assert 0.0 <= tile["confidence"] <= 1.0


def test_detect_text_names_the_image(photo, capsys):
    path, _ = photo
    assert main(["vision", "detect", str(path)]) == 0
    assert str(path) in capsys.readouterr().out


def test_a_corrupt_image_exits_2_naming_the_file(tmp_path, capsys):
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8\xff\xe0 this is not really a jpeg")
    assert main(["vision", "detect", str(broken), "--json"]) == 2
    assert "broken.jpg" in capsys.readouterr().err


def test_a_missing_image_exits_2_naming_the_file(tmp_path, capsys):
    assert main(["vision", "detect", str(tmp_path / "absent.png")]) == 2
    assert "absent.png" in capsys.readouterr().err


def test_a_silly_tile_height_is_refused(photo, capsys):
    path, _ = photo
    assert main(["vision", "detect", str(path), "--tile-height", "0"]) == 2
    assert "--tile-height" in capsys.readouterr().err


@pytest.mark.parametrize("aspect", ["wide", "0", "16:0"])
def test_a_bad_pixel_aspect_is_refused_naming_the_option(photo, capsys, aspect):
    path, _ = photo
    assert main(["vision", "detect", str(path), "--pixel-aspect", aspect]) == 2
    err = capsys.readouterr().err
    assert "--pixel-aspect" in err
    assert repr(aspect) in err


def test_a_photo_squeezed_to_a_square_is_read_at_its_shape_and_says_so(photo, tmp_path, capsys):
    path, table = photo
    squeezed = tmp_path / "squeezed.png"
    cv2.imwrite(str(squeezed), cv2.resize(table.image, (540, 540), interpolation=cv2.INTER_AREA))
    assert main(["vision", "detect", str(squeezed)]) == 0
    assert "(pixel aspect 16:9)" in capsys.readouterr().out
    assert main(["vision", "detect", str(path)]) == 0
    assert "pixel aspect" not in capsys.readouterr().out  # a camera's frame: square pixels, nothing to say
    assert main(["vision", "detect", str(squeezed), "--json", "--pixel-aspect", "16:9"]) == 0
    at_16_9 = json.loads(capsys.readouterr().out)
    assert main(["vision", "detect", str(squeezed), "--json", "--pixel-aspect", "1"]) == 0
    at_1 = json.loads(capsys.readouterr().out)
    assert len(at_16_9) >= 0.8 * len(table.truths)
    assert sum(t["confidence"] for t in at_16_9) / len(at_16_9) > sum(t["confidence"] for t in at_1) / len(at_1)
    # corners stay the squeezed photo's: none lies beyond its 540 px width
    assert max(x for t in at_16_9 for x, _ in t["corners"]) < 540


@pytest.mark.parametrize("finder", ["learnt", "classic"])
def test_either_finder_gives_the_documented_fields(photo, capsys, finder):
    path, table = photo
    assert main(["vision", "detect", str(path), "--json", "--finder", finder]) == 0
    tiles = json.loads(capsys.readouterr().out)
    assert len(tiles) >= len(table.truths) // 2
    fields = {"box", "corners", "tile", "red", "angle", "confidence", "uncertain", "sideways"}
    assert all(set(tile) == fields for tile in tiles)
    assert all(isinstance(tile["sideways"], bool) and isinstance(tile["uncertain"], bool) for tile in tiles)


def test_an_unknown_finder_is_refused(photo, capsys):
    path, _ = photo
    with pytest.raises(SystemExit):
        main(["vision", "detect", str(path), "--finder", "magic"])
    assert "--finder" in capsys.readouterr().err


def test_draw_writes_the_photo_with_each_tile_outlined(photo, tmp_path, capsys):
    path, _ = photo
    drawn = tmp_path / "found.png"
    assert main(["vision", "detect", str(path), "--json", "--draw", str(drawn)]) == 0
    tiles = json.loads(capsys.readouterr().out)
    assert tiles
    original, picture = cv2.imread(str(path)), cv2.imread(str(drawn))
    assert picture.shape == original.shape
    changed = (cv2.absdiff(picture, original).max(axis=2) > 40).astype("uint8")
    # Every tile's outline is drawn: pixels on each box's edge changed, and little else did.
    for tile in tiles:
        x0, y0, x1, y1 = tile["box"]
        edge = changed[max(y0 - 3, 0) : y1 + 4, max(x0 - 3, 0) : x1 + 4]
        assert edge.sum() > (x1 - x0), tile
    assert changed.mean() < 0.25


def test_draw_into_a_missing_folder_exits_2_naming_it(photo, tmp_path, capsys):
    path, _ = photo
    assert main(["vision", "detect", str(path), "--draw", str(tmp_path / "nowhere" / "x.png")]) == 2
    assert "nowhere" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--detector", "--model", "--verifier", "--aspect-judge"])
def test_a_missing_model_file_exits_2_naming_it(photo, tmp_path, capsys, option):
    path, _ = photo
    assert main(["vision", "detect", str(path), option, str(tmp_path / "absent.onnx")]) == 2
    assert "absent.onnx" in capsys.readouterr().err


def test_without_the_aspect_judge_a_squeezed_photo_is_still_read_at_its_shape(photo, tmp_path, capsys):
    _, table = photo
    squeezed = tmp_path / "squeezed.png"
    cv2.imwrite(str(squeezed), cv2.resize(table.image, (540, 540), interpolation=cv2.INTER_AREA))
    assert main(["vision", "detect", str(squeezed), "--aspect-judge", "none"]) == 0
    assert "(pixel aspect 16:9)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("seed", "why"),
    [(2_400_032, "blank faces alone (a white box or paper"), (2_400_005, "read unsurely where most finds are")],
)
def test_a_tile_free_picture_reads_no_tile_and_says_what_was_set_aside(tmp_path, capsys, seed, why):
    # Rendered seat views with no tile in them: a die and a sheet of paper read as white
    # dragons (2 400 032); letters on book spines read unsurely (2 400 005).
    path = tmp_path / "no-tiles.png"
    cv2.imwrite(str(path), render_seat_view(seed, tiles=False).image)
    assert main(["vision", "detect", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path}: 0 tiles" in out
    assert "set aside: " in out
    assert why in out
    assert main(["vision", "detect", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


@pytest.mark.parametrize(("change", "what"), [("cool", "the light set right"), ("defocus", "sharpened")])
def test_a_photograph_read_again_says_how(tmp_path, capsys, change, what):
    # A real fixture photograph under a cool light, or a little out of focus: read once, then
    # again set right or sharpened, and that reading kept.
    from vision.eval.label_file import load_labels
    from vision.eval.photo_changes import PHOTO_CHANGES

    fixture = Path(__file__).resolve().parent / "data" / "real-photos"
    name = "images/leo-miura-Screenshot-2025-09-20-02-48-09.jpg"
    tiles = load_labels(fixture / "labels.json")[name]
    path = tmp_path / f"{change}.png"
    cv2.imwrite(str(path), PHOTO_CHANGES[change].apply(cv2.imread(str(fixture / name)), tiles, ()).image)
    assert main(["vision", "detect", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path}: 9 tiles" in out
    assert f"read again: {what}" in out
    assert main(["vision", "detect", str(fixture / name)]) == 0
    assert "read again" not in capsys.readouterr().out
