"""The large data beside the checkout (``../shared``: the real-game log corpus), which a plain
clone does not have.

A test that needs it asks through here: without it the test skips, saying so, so that the README's
test command passes on a plain clone. CI (``.ci/run``) sets ``JANTAKU_REQUIRE_SHARED=1``, which
turns that skip into a failure: CI has the data, and a test that silently stopped running there
would hide whatever it guards.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NoReturn

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED = REPO_ROOT.parent / "shared"
#: Set to 1 (by ``.ci/run``): a missing piece of ``../shared`` fails the test instead of skipping it.
REQUIRE_VARIABLE = "JANTAKU_REQUIRE_SHARED"
#: Every skip for missing shared data starts so (the clone test looks for it).
SKIP_PREFIX = "needs ../shared:"


def shared_path(*parts: str) -> Path:
    """``../shared/<parts>``; skips (or fails, see the module doc) when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        missing_shared(path)
    return path


def missing_shared(path: Path) -> NoReturn:
    if os.environ.get(REQUIRE_VARIABLE) == "1":
        pytest.fail(f"{REQUIRE_VARIABLE}=1 and {path} is absent: the shared data must be beside the checkout")
    pytest.skip(f"{SKIP_PREFIX} {path} is absent (a plain clone has no ../shared; CI has it)")
