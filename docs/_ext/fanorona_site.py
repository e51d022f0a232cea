"""Sphinx extension of the course website: every notebook picture gets the alt text build_site.py
chose.

myst-nb names a notebook's image file after the SHA-256 of its bytes but takes its alt text from
nothing; build_site.py stores the words in the output's metadata (``metadata["image/png"]["alt"]``,
IPython's own place for them), and this extension hands them to the image node with the same hash.
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import nbformat
from docutils import nodes
from sphinx.util import logging

LOGGER = logging.getLogger(__name__)

IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif")


def alt_by_hash(path: Path) -> dict[str, str]:
    """The alt text of each picture of a notebook, by the SHA-256 of its bytes."""
    found = {}
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            for mime in IMAGE_TYPES:
                alt = output.get("metadata", {}).get(mime, {}).get("alt")
                if mime in output.get("data", {}) and alt:
                    found[hashlib.sha256(base64.b64decode(output["data"][mime])).hexdigest()] = alt
    return found


def set_alt_text(app, doctree) -> None:
    """On each notebook's doctree: alt text from the notebook, a warning for a picture without
    any."""
    path = Path(app.env.doc2path(app.env.docname))
    if path.suffix != ".ipynb":
        return
    alts = alt_by_hash(path)
    for image in doctree.findall(nodes.image):
        digest = Path(image["uri"]).stem
        if digest in alts:
            image["alt"] = alts[digest]
        elif not image.get("alt"):
            LOGGER.warning("picture without alt text: %s", image["uri"], location=image)


def setup(app):
    app.connect("doctree-read", set_alt_text)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
