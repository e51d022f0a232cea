"""nbgrader settings for the Fanorona course; `make course` copies this file into build/course/.

One assignment a week (fanorona/exercises/__main__.py, WEEKS): week1 to week4, and the optional
`search`. A cell may run for TIMEOUT seconds. The reference solutions' slowest graded cell is the
check of `turns` in 09: 2.3 CPU seconds (6 to 10 s of wall time on a 2-core machine at load 8 to
10; `make grade-demo` prints it). A correct solution five times slower needs about 12 CPU seconds,
so 60 s lets it pass on a machine five times busier than idle; an endless loop costs a minute.
"""

c = get_config()  # noqa: F821  (nbgrader's config loader provides it)

TIMEOUT = 60

c.CourseDirectory.course_id = "fanorona"
c.Execute.timeout = TIMEOUT
c.Execute.interrupt_on_timeout = True
