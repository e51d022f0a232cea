"""The canvas's PNG encoder (fanorona/ui/png.py): every picture it makes decodes to the pixels
given, whichever of its bands were reused from the picture before."""

import io
import zlib

import numpy as np
import pytest
from PIL import Image

from fanorona.ui.png import PngBands, _adler32_combine, png_bytes


def decoded(data: bytes) -> np.ndarray:
    """The pixels of a PNG, its zlib stream checked whole (Pillow stops once it has the rows)."""
    start = data.index(b"IDAT") + 4
    length = int.from_bytes(data[start - 8 : start - 4], "big")
    zlib.decompress(data[start : start + length])  # raises on a wrong checksum or a cut stream
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGBA"))


def picture(height: int, width: int, seed: int) -> np.ndarray:
    """An opaque picture of few colours in blocks, as a board's is (compressible, not uniform)."""
    rng = np.random.default_rng(seed)
    small = rng.integers(0, 4, (height // 5 + 1, width // 5 + 1, 4), dtype=np.uint8) * 60
    rgba = np.repeat(np.repeat(small, 5, axis=0), 5, axis=1)[:height, :width].copy()
    rgba[:, :, 3] = 255
    return rgba


def test_each_picture_decodes_to_its_pixels_through_reused_and_changed_bands():
    encoder = PngBands(band_rows=16)
    first = picture(101, 67, seed=1)  # the last band short
    assert (decoded(encoder.encode(first)) == first).all()
    assert encoder.deflated == 7  # nothing kept: every band deflated

    same = encoder.encode(first.copy())
    assert encoder.deflated == 0 and (decoded(same) == first).all()

    moved = first.copy()
    moved[40, 3, :3] = (1, 2, 3)  # one pixel of the third band
    moved[100, 66, :3] = (9, 9, 9)  # and the last one of the short last band
    assert (decoded(encoder.encode(moved)) == moved).all()
    assert encoder.deflated == 2

    back = encoder.encode(first)  # the bands changed, changed back
    assert encoder.deflated == 2 and (decoded(back) == first).all()

    other = picture(80, 90, seed=2)  # a new size: nothing reused
    assert (decoded(encoder.encode(other)) == other).all()
    assert encoder.deflated == 5


def test_it_decodes_as_the_whole_picture_deflated_at_once_does():
    rgba = picture(64, 48, seed=3)
    assert (decoded(PngBands().encode(rgba)) == decoded(png_bytes(rgba))).all()


@pytest.mark.parametrize("split", [0, 1, 5000, 70000, 139999])
def test_adler32_combined_equals_the_joined_bytes_checksum(split):
    data = np.random.default_rng(split).integers(0, 256, 140000, dtype=np.uint8).tobytes()
    first, second = data[:split], data[split:]
    combined = _adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(data)
