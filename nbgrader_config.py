"""nbgrader settings for the Fanorona course; `make course` copies this file into build/course/.

One assignment a week (fanorona/exercises/__main__.py, WEEKS): week1 to week4, and the optional
`search`. A cell may run for TIMEOUT seconds: the reference solutions' slowest graded cell (the
check of `turns` in 09) takes about 3 s on a busy 2-core machine (make grade-demo), so a correct
solution five times slower than the reference still passes.
"""
c = get_config()  # noqa: F821  (nbgrader's config loader provides it)

TIMEOUT = 60

c.CourseDirectory.course_id = "fanorona"
c.Execute.timeout = TIMEOUT
c.Execute.interrupt_on_timeout = True
