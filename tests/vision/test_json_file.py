"""The one reader of JSON-object files (vision/json_file.py): the object back, or the caller's
error in one line naming the file and the problem."""

import re

import pytest

from vision.json_file import read_json_object


class RecipeError(ValueError):
    """A caller's own error class, as each file reader has one."""


def read(path):
    return read_json_object(path, "recipe file", RecipeError)


def refusal(path) -> str:
    with pytest.raises(RecipeError) as caught:
        read(path)
    return str(caught.value)


def test_an_object_is_returned_as_it_is(tmp_path):
    path = tmp_path / "r.json"
    path.write_text('{"name": "東", "steps": [1, 2.5, null], "ok": true}', encoding="utf-8")
    assert read(path) == {"name": "東", "steps": [1, 2.5, None], "ok": True}


def test_a_missing_file(tmp_path):
    path = tmp_path / "none.json"
    assert refusal(path) == f"recipe file {path}: does not exist"


def test_a_folder(tmp_path):
    assert refusal(tmp_path) == f"recipe file {tmp_path}: is a folder, not a file"


def test_bytes_that_are_not_utf8(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes('{"name": "café"}'.encode("latin-1"))
    assert refusal(path) == f"recipe file {path}: not UTF-8 text (byte 0xe9 at offset 13)"


def test_invalid_json_is_named_with_its_line_and_column(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{\n  "a": 1,\n  "b": 2,\n}\n', encoding="utf-8")
    message = refusal(path)
    assert message.startswith(f"recipe file {path}: not JSON (line 4 column 1: ")
    assert "\n" not in message


def test_an_empty_file_is_not_json(tmp_path):
    path = tmp_path / "empty.json"
    path.write_text("", encoding="utf-8")
    assert refusal(path) == f"recipe file {path}: not JSON (line 1 column 1: Expecting value)"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("[1, 2]", "an array"),
        ('"x"', "a string"),
        ("3", "a number"),
        ("2.5", "a number"),
        ("true", "true or false"),
        ("null", "null"),
    ],
)
def test_another_json_value_where_an_object_is_wanted(tmp_path, text, kind):
    path = tmp_path / "other.json"
    path.write_text(text, encoding="utf-8")
    assert refusal(path) == f"recipe file {path}: must hold a JSON object {{...}}, not {kind}"


def test_json_nested_past_what_python_reads_is_refused_in_one_line(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 200_000, encoding="utf-8")
    assert refusal(path) == f"recipe file {path}: not JSON that can be read (nested too deeply)"


def test_any_callable_that_makes_an_exception_will_do(tmp_path):
    """A reader whose error carries more than a message (the calibration file's) passes a factory."""
    path = tmp_path / "none.json"
    with pytest.raises(LookupError, match=re.escape(f"recipe file {path}: does not exist")):
        read_json_object(path, "recipe file", LookupError)
