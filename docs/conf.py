"""Sphinx configuration of the course website (``make site``; sources prepared by
docs/build_site.py).

Plain Sphinx with myst-nb and sphinx-book-theme, the engine of Jupyter Book 1 without its command
line: the notebooks are executed beforehand (build_site.py, through jupyter-cache), so myst-nb only
renders them.  Everything the pages load is in the site itself.
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE / "_ext"), str(HERE)]
from build_site import repository  # noqa: E402  (the address of the Binder buttons)

project = "Fanorona course kit"
author = "the Fanorona course kit's authors"
copyright = "MIT licence"
extensions = ["myst_nb", "sphinx.ext.autodoc", "fanorona_site"]
exclude_patterns = ["_build", "**.ipynb_checkpoints"]

# -- notebooks: already executed; render what a static page can show ----------------------------
nb_execution_mode = "off"
nb_ipywidgets_js = {}  # no require.js or widget manager from a CDN: no page carries widget state
nb_mime_priority_overrides = [
    # a live widget cannot run on a static page: show the picture that comes with it instead
    ("html", "application/vnd.jupyter.widget-view+json", None),
    (
        "html",
        "image/png",
        5,
    ),  # before text/html: ipympl's canvas carries both, the PNG gets alt text
]
myst_enable_extensions = ["colon_fence"]  # no dollarmath: MathJax would come from a CDN
myst_heading_anchors = 3

# -- API reference ------------------------------------------------------------------------------
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"exclude-members": "__init__, __new__"}


# -- the theme, with a Binder button on each notebook page ---------------------------------------
html_theme = "sphinx_book_theme"
html_title = "Fanorona course"
html_favicon = "favicon.png"  # a browser asks for one: without it, each page logs a 404
html_static_path = []
html_last_updated_fmt = None
html_domain_indices = False  # no module index page: the API page lists the modules
html_theme_options = {
    "repository_url": repository()[0],
    "repository_branch": repository()[1],
    "path_to_docs": "",  # the pages' sources sit where they are in the repository: notebooks/...
    "use_repository_button": True,
    "use_download_button": True,
    "launch_buttons": {"binderhub_url": "https://mybinder.org", "notebook_interface": "jupyterlab"},
    "navigation_with_keys": False,
    "navbar_persistent": [],  # the search field stays in the sidebar, not a second one on top
    "show_toc_level": 2,
}
# a first visit has no stored light/dark choice: without a default the theme logs a console error
html_context = {"default_mode": "auto"}
