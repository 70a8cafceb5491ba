"""jantaku's eyes: camera frames and photographs in, tiles out.

The subpackages follow the pipeline (``docs/vision.md`` has the picture):

- ``sources``: frames from a camera, a folder, a video or the renderer;
- ``calibration``: where the table and each seat's zones lie in the frame;
- ``find``: where tiles lie in an image (the learnt detector, the classic finder);
- ``classify``: what a tile's face is (the ONNX classifier, crops, the 38 labels);
- ``detect``: still photographs end to end (find, judge sideways, settle each lie, read);
- ``live``: the table at play (table reader, tracker, the thread that posts observations);
- ``enrollment``: adapting the classifier to a user's own tile set;
- ``eval``: scoring against labelled photographs (label files, matching, reports);
- ``render``: drawing tables and tiles from the vendored art (``art/``), for training and tests;
- ``training``: the recipes that make the shipped models (the ``train`` extra);
- ``onnx_models``: loading a shipped ONNX model and its metadata.
"""
