"""Grades computed where the student's code cannot reach them.

The student's notebook code runs in the sandbox (``fanorona.sandbox``) in a worker process
(``worker``) that answers questions with plain data (``plain``); the checkers of
``fanorona.exercises`` run in the grading process on stand-ins for the student's functions and
classes (``remote``), so their cases, references, comparisons and points are out of the
student's reach (``grade``).  nbgrader runs it as a preprocessor in place of executing the
notebook (``preprocessor``, set up by the course's ``nbgrader_config.py``), after checking the
installed package against its recorded hashes (``package``).
"""
