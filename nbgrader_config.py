"""nbgrader settings for the Fanorona course; `make course` copies this file into build/course/.

One assignment a week (fanorona/exercises/__main__.py, WEEKS): week1 to week4, and the optional
`search` and `tournament`.  ``nbgrader autograde`` does not run the notebooks in a kernel: the
sandboxed grader (fanorona.grading) runs the student's cells in a sandbox and the checks in its
own process, so nothing a student's code does reaches a grade.  Its limits are the checkers' own:
10 s a call of the student's code and 120 s a check (fanorona/exercises/guard.py), which a correct
solution five times slower than the reference meets with a wide margin
(benchmarks/checker_time_limits.py).  TIMEOUT, nbgrader's cell timeout for what it still runs in a
kernel (``nbgrader validate``), stays above the check limit, so a slow check gets the checker's
sentence rather than nbgrader's timeout.
"""

from fanorona.exercises import CHECK_LIMIT
from fanorona.grading.preprocessor import AUTOGRADE_PREPROCESSORS, SANITIZE_PREPROCESSORS

c = get_config()  # noqa: F821  (nbgrader's config loader provides it)

TIMEOUT = int(CHECK_LIMIT) + 60

c.CourseDirectory.course_id = "fanorona"
c.Autograde.autograde_preprocessors = AUTOGRADE_PREPROCESSORS
# a cell whose nbgrader metadata cannot be used (a pasted copy of a locked check cell) is graded as
# an ordinary cell and named in the log, rather than stopping the whole run
c.Autograde.sanitize_preprocessors = SANITIZE_PREPROCESSORS
c.Execute.timeout = TIMEOUT
c.Execute.interrupt_on_timeout = True
