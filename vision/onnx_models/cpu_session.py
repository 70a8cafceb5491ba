"""How every shipped model runs: an onnxruntime session on the CPU with a given number of
threads, fed N×3×H×W float32 from uint8 BGR images normalised as its metadata says."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from vision.onnx_models.onnx_runtime import onnxruntime


def cpu_session(model_path: Path, threads: int = 1) -> Any:
    """An inference session of ``model_path`` on the CPU, ``threads`` threads within an
    operator and one between them (a Pi's cores are shared with the rest of the table)."""
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    return onnxruntime.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])


def nchw_input(pixels: np.ndarray, mean: float, std: float) -> np.ndarray:
    """N×H×W×3 uint8 BGR → contiguous N×3×H×W float32 ``(pixel / 255 - mean) / std``."""
    # The same float32 steps as ``(pixels / 255 - mean) / std``, done in place on one
    # contiguous copy (the strided steps on a transposed view cost more than the network's input layer).
    batch = np.ascontiguousarray(pixels.transpose(0, 3, 1, 2)).astype(np.float32)
    batch /= np.float32(255.0)
    batch -= np.float32(mean)
    batch /= np.float32(std)
    return batch
