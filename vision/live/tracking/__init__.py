"""Tracking: per-frame ``TableReading`` values → the referee's observations, smoothed over frames.

``Tracker`` is pure (no clock, no I/O): see ``vision.live.tracking.tracker`` for its rules.
"""

from vision.live.tracking.settings import TrackerSettings
from vision.live.tracking.tracker import Tracker

__all__ = ["Tracker", "TrackerSettings"]
