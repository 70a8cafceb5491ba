"""Scoring detections against labelled photographs: label files, matching, the reports."""
