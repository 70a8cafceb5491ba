"""What a Python source file imports and which bare functions it calls, read from its syntax
tree: the architecture tests (pure core, pure tracker, runtime vision without torch) check these."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path


def imports_and_calls(path: Path) -> Iterator[tuple[int, str | None, str | None]]:
    """``(line, imported module, None)`` for each import and ``(line, None, name)`` for each call
    of a bare name (``open(...)``, ``print(...)``) in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, None
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.lineno, node.module, None
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            yield node.lineno, None, node.func.id


def is_within(module: str, package: str) -> bool:
    """``module`` is ``package`` or one of its submodules."""
    return module == package or module.startswith(package + ".")
