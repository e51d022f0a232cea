"""The real class's pieces that need no accounts: the class list read strictly, nbgrader's settings
for each mode, and the trial hub saying first that students are not separated there."""

import subprocess
import sys

import pytest

from hub.accounts import read_class_list
from hub.course import ROOT, Layout, nbgrader_settings


def class_list(tmp_path, text: str):
    path = tmp_path / "students.csv"
    path.write_text(text)
    return path


def test_a_class_list_gives_its_ids_in_order(tmp_path):
    path = class_list(tmp_path, "id,first_name\nana,Ana\nbo_2,Bo\n")
    assert read_class_list(path) == ["ana", "bo_2"]


@pytest.mark.parametrize(
    "text, said",
    [
        ("name\nana\n", "students.csv: the first line must name the columns, one of them 'id'"),
        ("id\nana\nAna Smith\n", "students.csv, line 3: 'Ana Smith' is not a Unix user name"),
        ("id\nana\n-rf\n", "students.csv, line 3: '-rf' is not a Unix user name"),
        ("id\nana\nbo\nana\n", "students.csv, line 4: ana is in the list twice"),
        ("id\n" + "a" * 33 + "\n", "line 2: '" + "a" * 33 + "' is not a Unix user name"),
    ],
)
def test_a_bad_class_list_is_one_sentence_naming_the_line(tmp_path, text, said):
    with pytest.raises(ValueError, match="^.*$") as error:
        read_class_list(class_list(tmp_path, text))
    assert said in str(error.value) and "\n" not in str(error.value)


def test_a_real_class_names_students_by_their_accounts_and_collects_only_their_own(tmp_path):
    real = Layout(tmp_path, accounts=True)
    student, grader = nbgrader_settings(real), nbgrader_settings(real, tmp_path / "course")
    assert "student_id" not in student and "OwnedCollect" not in student
    assert 'c.ExchangeFactory.collect = "hub.exchange.OwnedCollect"' in grader
    trial = nbgrader_settings(Layout(tmp_path))
    assert "JUPYTERHUB_USER" in trial  # one Unix user: the hub's name is the student's


def test_the_trial_hub_says_first_that_students_are_not_separated():
    run = subprocess.run(
        [sys.executable, "-m", "hub", "--students", "500"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1
    assert run.stdout.startswith("THE TRIAL HUB: every student's server runs as this one Unix user")
    assert "--students must be 0 to 100" in run.stderr
