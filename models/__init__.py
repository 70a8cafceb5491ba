"""Data only: the shipped ONNX models, their metadata and model cards.

This file exists so the folder installs as package data; ``MODELS_DIR`` is where it landed.
"""

from pathlib import Path

MODELS_DIR = Path(__file__).resolve().parent
