"""The one build step pyproject.toml cannot say: the course copied into the wheel.

The notebooks, the files they read and the course's nbgrader settings live at the top of the
repository (``notebooks/``, ``nbgrader_config.py``), where authors edit them and the Makefile, the
site and the hub read them.  setuptools can map a package onto a folder but not a single file at
the top, so ``build_py`` copies all of it into ``fanorona/course_files/`` of the build, from the
checkout or the sdist (MANIFEST.in puts them there); nothing is copied in git.  An editable
install reads them where they are (``fanorona.course``).
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
#: What the course is, as globs from the top of the repository (the same as MANIFEST.in's).
COURSE = ("notebooks/*.ipynb", "notebooks/*.json", "nbgrader_config.py")


class BuildPyWithCourse(build_py):
    """setuptools' build_py, then the course copied in."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib, "fanorona", "course_files")
        found = sorted(path for pattern in COURSE for path in HERE.glob(pattern))
        if not any(path.suffix == ".ipynb" for path in found):
            raise SystemExit(f"no notebooks in {HERE / 'notebooks'}: the course cannot be built")
        for path in found:
            out = target / path.relative_to(HERE)
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, out)


setup(cmdclass={"build_py": BuildPyWithCourse})
