"""``python -m fanorona course DEST``, run as a course author runs it: the course copied out with
the repository's layout, an author's changed file kept unless ``--force``, and each file written
named."""

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
COURSE = sorted(
    [p for p in (ROOT / "notebooks").iterdir() if p.suffix in (".ipynb", ".json")]
    + [ROOT / "nbgrader_config.py"]
)


def course(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "fanorona", "course", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_the_course_is_copied_with_the_repositorys_layout_and_each_file_named(tmp_path):
    dest = tmp_path / "my course"
    done = course(dest)
    assert done.returncode == 0, done.stderr
    for source in COURSE:
        copy = dest / relative(source)
        assert copy.read_bytes() == source.read_bytes()
        assert f"wrote {copy}\n" in done.stdout
    assert len(list(dest.rglob("*.*"))) == len(COURSE)
    assert done.stdout.splitlines()[-1].startswith(f"{len(COURSE)} file(s) written, 0 already")


def test_a_second_copy_writes_nothing_and_says_so(tmp_path):
    assert course(tmp_path).returncode == 0
    again = course(tmp_path)
    assert again.returncode == 0 and "wrote" not in again.stdout
    assert again.stdout.startswith(f"0 file(s) written, {len(COURSE)} already the same")


def test_a_changed_file_is_kept_and_nothing_is_written_without_force(tmp_path):
    assert course(tmp_path).returncode == 0
    changed = tmp_path / "notebooks" / "00_start_here.ipynb"
    changed.write_text("my own version")
    missing = tmp_path / "nbgrader_config.py"
    missing.unlink()
    own = tmp_path / "notebooks" / "my_notes.ipynb"
    own.write_text("an author's own notebook")
    refused = course(tmp_path)
    assert refused.returncode == 1 and refused.stdout == ""
    assert len(refused.stderr.strip().splitlines()) == 1
    assert str(changed) in refused.stderr and "--force" in refused.stderr
    assert changed.read_text() == "my own version" and not missing.exists(), "nothing written"
    forced = course(tmp_path, "--force")
    assert forced.returncode == 0
    assert f"overwrote {changed}" in forced.stdout and f"wrote {missing}" in forced.stdout
    assert changed.read_bytes() == (ROOT / "notebooks" / changed.name).read_bytes()
    assert own.read_text() == "an author's own notebook", "a file the kit has not is left alone"


def test_a_file_where_the_folder_should_be_is_one_sentence(tmp_path):
    target = tmp_path / "course"
    target.write_text("not a folder")
    done = course(target)
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert "is a file, not a folder" in done.stderr and "Traceback" not in done.stderr
    assert target.read_text() == "not a folder"


def test_without_a_folder_the_command_says_how_it_is_used():
    done = course()
    assert done.returncode == 2 and "DEST" in done.stderr and "Traceback" not in done.stderr


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    changes=st.dictionaries(
        st.sampled_from([relative(p) for p in COURSE]),
        st.sampled_from(["change", "delete", "same"]),
        max_size=4,
    ),
    force=st.booleans(),
)
def test_a_copy_over_any_edits_either_refuses_whole_or_leaves_the_kits_course(
    tmp_path_factory, changes, force
):
    from fanorona.course import CourseError, copy_course

    dest = tmp_path_factory.mktemp("dest")
    copy_course(dest)
    for name, change in changes.items():
        if change == "change":
            (dest / name).write_text("edited")
        elif change == "delete":
            (dest / name).unlink()
    before = {p: p.read_bytes() for p in dest.rglob("*") if p.is_file()}
    edited = "change" in changes.values()
    if edited and not force:
        with pytest.raises(CourseError, match="--force"):
            copy_course(dest, force=force)
        assert {p: p.read_bytes() for p in dest.rglob("*") if p.is_file()} == before
        return
    done = copy_course(dest, force=force)
    assert {relative(ROOT / p.relative_to(dest)) for p in done.replaced} == {
        n for n, c in changes.items() if c == "change"
    }
    for source in COURSE:
        assert (dest / relative(source)).read_bytes() == source.read_bytes()
