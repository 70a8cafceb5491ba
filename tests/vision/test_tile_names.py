"""Class names of other people's label exports read as tiles (vision/eval/tile_names.py)."""

import json

import pytest

from vision.eval.tile_names import BACK, OTHER, NamedTile, TileNameError, name_table, names_from_json, tile_of_name

KINDS = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]


@pytest.mark.parametrize(
    ("scheme", "names"),
    [
        ("tenhou", KINDS),
        ("suit first", [f"{s}{n}" for s in "mps" for n in range(1, 10)] + [f"z{n}" for n in range(1, 8)]),
        (
            "words",
            [f"{n}_{s}" for s in ("man", "pin", "sou") for n in range(1, 10)]
            + ["ton", "nan", "sya-", "pe-", "haku", "hatsu", "chun"],
        ),
        (
            "english",
            [f"{s}{n}" for s in ("Character", "Dot", "Bamboo") for n in range(1, 10)]
            + ["East", "South", "West", "North", "White Dragon", "Green Dragon", "Red Dragon"],
        ),
        (
            "letters BCD",
            [f"{n}{s}" for s in "CDB" for n in range(1, 10)] + ["EW", "SW", "WW", "NW", "WD", "GD", "RD"],
        ),
        (
            "kanji",
            [f"{k}{s}" for s in "萬筒索" for k in "一二三四五六七八九"] + ["東", "南", "西", "北", "白", "發", "中"],
        ),
        (
            "alanchoi",
            [f"{s}{n}" for s in ("sc", "sd", "sb") for n in range(1, 10)]
            + ["hwe", "hws", "hww", "hwn", "hdw", "hdg", "hdr"],
        ),
        (
            "mjai",
            [f"{n}{s}" for s in "mps" for n in range(1, 10)] + ["E", "S", "W", "N", "P", "F", "C"],
        ),
        (
            "chinese pinyin",
            [f"{n}{s}" for s in ("wan", "tong", "tiao") for n in range(1, 10)]
            + ["dong", "nan", "xi", "bei", "bai", "fa", "zhong"],
        ),
    ],
)
def test_each_scheme_names_the_34_kinds_once_each(scheme, names):
    tiles = [tile_of_name(n) for n in names]
    assert None not in tiles, dict(zip(names, tiles, strict=True))
    assert [t.tile for t in tiles] == KINDS
    assert not any(t.red for t in tiles)


@pytest.mark.parametrize(
    ("name", "tile"),
    [
        ("0m", NamedTile("5m", red=True)),
        ("0p", NamedTile("5p", red=True)),
        ("5sr", NamedTile("5s", red=True)),
        ("5mr", NamedTile("5m", red=True)),
        ("r5p", NamedTile("5p", red=True)),
        ("aka_5_man", NamedTile("5m", red=True)),
        ("5-pin-red", NamedTile("5p", red=True)),
        ("Red5s", NamedTile("5s", red=True)),
        ("赤五萬", NamedTile("5m", red=True)),
        ("red_dragon", NamedTile("7z")),
        ("Red", NamedTile("7z")),
        ("east_wind", NamedTile("1z")),
        ("東风", NamedTile("1z")),
        ("红中", NamedTile("7z")),
        ("白板", NamedTile("5z")),
        ("伍萬", NamedTile("5m")),
        ("１ｍ", NamedTile("1m")),  # full-width
        ("tile_7p", NamedTile("7p")),
        ("back", NamedTile(BACK)),
        ("flower_1", NamedTile(OTHER)),
        ("Spring", NamedTile(OTHER)),
        ("bs3", NamedTile(OTHER)),
        ("f4", NamedTile(OTHER)),
        ("joker", NamedTile(OTHER)),
    ],
)
def test_red_fives_honours_backs_and_flowers(name, tile):
    assert tile_of_name(name) == tile


@pytest.mark.parametrize(
    "name",
    ["", "0", "10m", "5", "m", "tile", "1m2p", "red_3m", "mp5", "east_north", "8z", "dragon", "x", "5_man_extra"],
)
def test_a_name_read_no_way_or_two_ways_is_none(name):
    assert tile_of_name(name) is None


def test_a_names_file_places_what_the_schemes_do_not(tmp_path):
    path = tmp_path / "names.json"
    path.write_text(json.dumps({"0": "other", "kita": "4z", "redfive-m": "0m", "blank": "back"}), encoding="utf-8")
    given = names_from_json(path)
    assert given["redfive-m"] == NamedTile("5m", red=True)
    table, unknown = name_table(["0", "kita", "1m", "blank", "mystery"], given)
    assert table == {"0": NamedTile(OTHER), "kita": NamedTile("4z"), "1m": NamedTile("1m"), "blank": NamedTile(BACK)}
    assert unknown == ["mystery"]


@pytest.mark.parametrize("value", ["5M", "8z", "5mr", "red", 5, None])
def test_a_names_file_entry_that_is_no_tile_names_the_file_and_the_entry(tmp_path, value):
    path = tmp_path / "names.json"
    path.write_text(json.dumps({"weird": value}), encoding="utf-8")
    with pytest.raises(TileNameError, match=r"names file .*names.json: 'weird' → .* is not a tile"):
        names_from_json(path)


def test_a_names_file_that_is_not_json_says_so(tmp_path):
    path = tmp_path / "names.json"
    path.write_text("{1m: 2m}", encoding="utf-8")
    with pytest.raises(TileNameError, match=r"names file .*names.json: not JSON"):
        names_from_json(path)
