"""onnxruntime, imported so that it leaves nothing behind.

onnxruntime (1.32) writes a telemetry session file, ``.ses``, into ``$TMPDIR`` as it is imported
and never removes it: every ``jantaku demo`` left one in /tmp. It is imported here with
``TMPDIR`` pointed at a private temporary folder, removed straight after. Every module that runs
a model imports onnxruntime from here.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from types import ModuleType

_TMPDIR = "TMPDIR"


def _import_without_leftovers() -> ModuleType:
    scratch = tempfile.mkdtemp(prefix="jantaku-onnxruntime-")
    previous = os.environ.get(_TMPDIR)
    os.environ[_TMPDIR] = scratch
    try:
        import onnxruntime  # noqa: PLC0415 (imported here, and only here, on purpose)

        module: ModuleType = onnxruntime
    finally:
        if previous is None:
            del os.environ[_TMPDIR]
        else:
            os.environ[_TMPDIR] = previous
        shutil.rmtree(scratch, ignore_errors=True)
    return module


onnxruntime = _import_without_leftovers()
