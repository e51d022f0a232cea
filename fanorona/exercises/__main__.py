"""Student copies and course folders, made by nbgrader.

``python -m fanorona.exercises SRC_DIR OUT_DIR``: student copies of every notebook in OUT_DIR,
with the
files the notebooks read.  ``python -m fanorona.exercises SRC_DIR OUT_DIR --course``: an
nbgrader course
folder in OUT_DIR, one assignment a week (``source/week1`` ...) and the ``nbgrader_config.py``
given by
``--config``, ready for ``nbgrader generate_assignment week1``.
"""

import argparse
import re
import shutil
from pathlib import Path

from .student import ReleaseError, make_student_copies

#: The course week by week: assignment name -> (title, notebooks). Notebooks without an exercise are
#: reading, outside every assignment (00, 05, 06, 07b, 08, play): nbgrader runs every notebook of an
#: assignment for every student, so they would only cost grading time. The optional assignments
#: give bonus points: nbgrader scores each assignment on its own, so points in one of them never
#: lower the score of a week (its autograder has no extra credit: only the formgrader sets that).
WEEKS = {
    "week1": ("the board and strings", ["01_board_graph.ipynb", "02_strings.ipynb"]),
    "week2": ("steps and captures", ["03_moves_and_captures.ipynb", "04_simple_game.ipynb"]),
    "week3": ("the model of the simplified game", ["09_assignment_model.ipynb"]),
    "week4": ("view and control: your own program", ["10_assignment_view_and_control.ipynb"]),
    "extensions": ("optional: the extensions, bonus points", ["10b_assignment_extensions.ipynb"]),
    "search": ("optional: search", ["07_computer_opponent.ipynb"]),
    "tournament": ("optional: tournament night", ["11_tournament.ipynb"]),
    "puzzles": ("optional: puzzles", ["13_puzzles.ipynb"]),
}


def data_files(src: Path, notebooks) -> list[Path]:
    """The files beside the notebooks that one of ``notebooks`` names in its code (e.g. a JSON it
    loads)."""
    import nbformat

    code = "\n".join(
        cell.source
        for path in notebooks
        for cell in nbformat.read(path, as_version=4).cells
        if cell.cell_type == "code"
    )
    return [
        path
        for path in sorted(src.iterdir())
        if path.is_file()
        and path.suffix != ".ipynb"
        and not path.name.startswith(".")
        and re.search(rf"['\"]{re.escape(path.name)}['\"]", code)
    ]


def release(src_dir, out_dir) -> list[Path]:
    """Student copies of every notebook (nbgrader generate_assignment) and the files they read."""
    src, out = Path(src_dir), Path(out_dir)
    written = make_student_copies(src, out)
    for path in data_files(src, sorted(src.glob("*.ipynb"))):
        shutil.copy(path, out / path.name)
        written.append(out / path.name)
    return written


def course(src_dir, out_dir, config=None) -> list[Path]:
    """An nbgrader course folder: ``source/<week>/`` holding each week's notebooks and the files
    they
    read, and the nbgrader settings file ``config`` copied in; return the assignment folders."""
    src, out = Path(src_dir), Path(out_dir)
    folders = []
    for week, (_title, names) in WEEKS.items():
        folder = out / "source" / week
        folder.mkdir(parents=True, exist_ok=True)
        notebooks = [src / name for name in names]
        for path in notebooks + data_files(src, notebooks):
            shutil.copy(path, folder / path.name)
        folders.append(folder)
    if config is not None:
        shutil.copy(config, out / "nbgrader_config.py")
    return folders


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m fanorona.exercises",
        description=(
            "Write student copies of the notebooks (nbgrader generate_assignment), "
            "or an nbgrader course folder with one assignment a week."
        ),
    )
    parser.add_argument("src_dir", help="folder with the teacher's notebooks")
    parser.add_argument(
        "out_dir", help="folder for the student copies or the course (created if missing)"
    )
    parser.add_argument(
        "--course",
        action="store_true",
        help="write an nbgrader course folder, one assignment a week",
    )
    parser.add_argument(
        "--config",
        default="nbgrader_config.py",
        help="nbgrader settings copied into the course folder",
    )
    args = parser.parse_args(argv)
    try:
        if args.course:
            config = Path(args.config)
            if not config.is_file():
                raise FileNotFoundError(f"no nbgrader settings file {config}")  # noqa: TRY301
            folders = course(args.src_dir, args.out_dir, config)
            print(
                f"Wrote {len(folders)} assignments to {Path(args.out_dir) / 'source'}: "
                + ", ".join(f.name for f in folders)
            )
        else:
            written = release(args.src_dir, args.out_dir)
            data = [p.name for p in written if p.suffix != ".ipynb"]
            print(
                f"Wrote {len(written) - len(data)} student notebooks to {args.out_dir}"
                + (f", and the files they read: {', '.join(data)}" if data else "")
            )
    except (ReleaseError, FileNotFoundError) as e:
        parser.exit(1, f"error: {e}\n")


if __name__ == "__main__":
    main()
