"""Loading a shipped ONNX model: onnxruntime imported cleanly, the model checked against its
metadata."""
