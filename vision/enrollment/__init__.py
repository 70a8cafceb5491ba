"""Tile-set enrollment: the grid sheet, cutting the enrolled tiles out, and the head fitted on them."""
