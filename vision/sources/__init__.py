"""Frame sources: where camera frames come from (Pi camera, OpenCV capture, recorded frames, the renderer)."""
