"""``python -m fanorona.exercises SRC_DIR OUT_DIR``: student copies of the notebooks, made by nbgrader."""
import argparse

from .student import ReleaseError, make_student_copies


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m fanorona.exercises",
                                     description="Write student copies of the notebooks (nbgrader generate_assignment).")
    parser.add_argument("src_dir", help="folder with the teacher's notebooks")
    parser.add_argument("out_dir", help="folder for the student copies (created if missing)")
    args = parser.parse_args(argv)
    try:
        written = make_student_copies(args.src_dir, args.out_dir)
    except (ReleaseError, FileNotFoundError) as e:
        parser.exit(1, f"error: {e}\n")
    print(f"Wrote {len(written)} student notebooks to {args.out_dir}")


if __name__ == "__main__":
    main()
