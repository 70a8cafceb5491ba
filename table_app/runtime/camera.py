"""The camera's ``ObservationSource`` for ``build_runtime(config, vision=camera_pipeline)``.

``[camera] source`` names the frames (``picamera2``, ``opencv:0``, a folder, a video);
``[camera] calibration`` the file ``jantaku vision calibrate`` wrote. The pipeline (reader →
tracker, ``vision.live.pipeline``) is imported only when a camera is configured, so a table run
from a log or without a camera never loads OpenCV or onnxruntime.
"""

from __future__ import annotations

from table_app.runtime.config import CameraConfig, ConfigError, TableConfig
from table_app.runtime.ports import ObservationSource


def camera_pipeline(camera: CameraConfig, table: TableConfig) -> ObservationSource:
    from vision.calibration.calibration_file import load_calibration  # noqa: PLC0415
    from vision.live import pipeline  # noqa: PLC0415
    from vision.live.tracking import TrackerSettings  # noqa: PLC0415

    if camera.calibration is None:
        raise ConfigError("camera.calibration", "a camera needs its calibration file (jantaku vision calibrate)")
    calibration = load_calibration(camera.calibration)
    try:
        read = pipeline.table_reader(calibration, enrollment=camera.enrollment)
    except ImportError as error:
        raise ConfigError("camera.source", f"the table reader is not installed in this build ({error})") from error
    except ValueError as error:  # a missing, damaged or other model's enrollment (EnrollmentError)
        raise ConfigError("camera.enrollment", str(error)) from error
    try:
        return pipeline.open_camera_pipeline(camera.source, read, TrackerSettings(red_fives=table.profile.red_fives))
    except OSError as error:
        raise ConfigError("camera.source", str(error)) from error
