"""Still photographs end to end: find the tiles, judge which lie sideways, settle each tile's
lie, read it (``still_photo.detect_tiles``, behind ``jantaku vision detect`` and ``eval``)."""
