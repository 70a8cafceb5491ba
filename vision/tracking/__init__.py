"""Tracking: per-frame ``TableReading`` values → the referee's observations, smoothed over frames.

``Tracker`` is pure (no clock, no I/O): see ``vision.tracking.tracker`` for its rules.
"""

from vision.tracking.settings import TrackerSettings
from vision.tracking.tracker import Tracker

__all__ = ["Tracker", "TrackerSettings"]
