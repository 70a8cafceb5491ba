"""Finding tiles in an image: oriented boxes, face-up or face-down, without calibration."""
