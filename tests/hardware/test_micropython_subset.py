"""The firmware must stay inside what MicroPython runs: checked on the source, since CPython
(which runs the other firmware tests) accepts more than the board does."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "hardware" / "firmware"
SOURCES = sorted(FIRMWARE.glob("*.py"))
# Not on the board (or not in a plain MicroPython build).
MISSING_ON_BOARD = {"dataclasses", "enum", "pathlib", "contextlib", "abc", "functools", "itertools", "logging"}


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.name)
def test_no_underscores_in_numbers(source: Path) -> None:
    tokens = tokenize.generate_tokens(io.StringIO(source.read_text(encoding="utf-8")).readline)
    assert [t.string for t in tokens if t.type == tokenize.NUMBER and "_" in t.string] == []


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.name)
def test_only_board_modules_are_imported(source: Path) -> None:
    tree = ast.parse(source.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert not imported & MISSING_ON_BOARD
    assert "firmware_bridge" not in imported  # the board has its own encoder


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.name)
def test_signature_and_module_annotations_are_plain_names_or_strings(source: Path) -> None:
    # Generic annotations like list[int] would fail on an interpreter that evaluates them and
    # lacks subscriptable builtins; only plain names (int, bytes, a class) or strings are used
    # where CPython evaluates annotations: signatures and module-level names.
    tree = ast.parse(source.read_text(encoding="utf-8"))
    annotations = [n.annotation for n in ast.walk(tree) if isinstance(n, ast.arg) and n.annotation]
    annotations += [n.returns for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.returns]
    annotations += [n.annotation for n in tree.body if isinstance(n, ast.AnnAssign)]
    for annotation in annotations:
        assert isinstance(annotation, ast.Name | ast.Constant), ast.unparse(annotation)
