"""The faces a scene is drawn with: one of the vendored art styles, the regular art in a
palette (:mod:`vision.render.tile_palette`), or a tile set's enrolled faces
(:mod:`vision.render.enrolled_faces`); and, whichever it is, its strokes as drawn or thicker or
thinner (:mod:`vision.render.face_strokes`). Tables, seat views and enrollment photos all
resolve their art here.
"""

from __future__ import annotations

from typing import TypeAlias

from vision.render.enrolled_faces import EnrolledFaces, enrolled_art
from vision.render.face_strokes import stroke_varied
from vision.render.tile_art import ArtStyle, TileArt, load_tile_art
from vision.render.tile_palette import Palette, palette_art

#: What a scene's faces are drawn from.
Art: TypeAlias = ArtStyle | Palette | EnrolledFaces


def tile_art_of(art: Art, strokes: float = 0.0) -> TileArt:
    """The images of ``art``, with every ink stroke ``strokes`` art pixels thicker on each side
    (negative: thinner; 0: as drawn)."""
    if isinstance(art, EnrolledFaces):
        images = enrolled_art(art)
    elif isinstance(art, Palette):
        images = palette_art(art)
    else:
        images = load_tile_art(art)
    return stroke_varied(images, strokes) if strokes else images
