"""The layers stay apart (docs/architecture.md): the pure core does no I/O, starts no threads
and imports no adapter, nor anything of the layers above it; vision, an adapter below the
runtime, imports nothing of the runtime, web, journal or CLI."""

from pathlib import Path

import pytest

from tests.source_imports import imports_and_calls, is_within

ROOT = Path(__file__).resolve().parent.parent
PURE_PACKAGES = ["table_app/domain", "table_app/rules", "table_app/view", "table_app/interpret", "table_app/announce"]
PURE_MODULES = ["table_app/observations.py"]
FORBIDDEN_MODULES = {
    "cv2",
    "serial",
    "gpiozero",
    "picamera2",
    "onnxruntime",
    "socket",
    "threading",
    "asyncio",
    "subprocess",
    "sqlite3",
    "http",
    "urllib",
    "multiprocessing",
    "starlette",
    "fastapi",
    "aiohttp",
    "websockets",
    "uvicorn",
    "firmware_bridge",
    "vision",
    "hardware",
    "table_app.cli",
    # The layers above the core: they use it, never the reverse.
    "table_app.runtime",
    "table_app.web",
    "table_app.journal",
    "table_app.logs",
}
FORBIDDEN_CALLS = {"open", "print", "input"}


def pure_files() -> list[Path]:
    packages = [p for package in PURE_PACKAGES for p in (ROOT / package).rglob("*.py")]
    return sorted([*packages, *(ROOT / module for module in PURE_MODULES)])


def test_there_are_pure_modules_to_check():
    assert len(pure_files()) >= 10


def banned_imports(path: Path, forbidden: set[str]) -> list[str]:
    """Each import in ``path`` of a module within one of ``forbidden``, as ``path:line imports module``."""
    return [
        f"{path}:{line} imports {module}"
        for line, module, _call in imports_and_calls(path)
        if module is not None and any(is_within(module, m) for m in forbidden)
    ]


@pytest.mark.parametrize("path", pure_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_module_imports_and_calls(path):
    assert banned_imports(path, FORBIDDEN_MODULES) == []
    for line, _module, call in imports_and_calls(path):
        assert call not in FORBIDDEN_CALLS, f"{path}:{line} calls {call}()"


#: What vision (camera, tile reading, rendering, training) may not import: it reports
#: observations to the runtime through a port and knows nothing of what is done with them.
VISION_FORBIDDEN = {"table_app.runtime", "table_app.web", "table_app.journal", "table_app.cli"}


def vision_files() -> list[Path]:
    return sorted((ROOT / "vision").rglob("*.py"))


def test_there_are_vision_modules_to_check():
    assert len(vision_files()) >= 10


@pytest.mark.parametrize("path", vision_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_vision_imports_nothing_of_the_runtime_web_journal_or_cli(path):
    assert banned_imports(path, VISION_FORBIDDEN) == []
