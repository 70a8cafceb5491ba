"""Reading a tile's face: the crop cut from its corners, the ONNX classifier, the 38 labels."""
