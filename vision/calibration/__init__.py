"""Calibration: where the table lies in the camera's image, the top-down view, and each seat's zones."""
