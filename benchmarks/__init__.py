"""Benchmarks: speed, strength and memory figures, kept outside the installed package.

Convention: ``benchmarks/bench_<topic>.py`` has a ``main()`` that prints its figures (medians,
ratios measured in one run); ``make bench`` (``python -m benchmarks``) runs every one of them,
``python -m benchmarks bench_perft`` the named ones.  ``baseline.py`` is the frozen move
generator they compare against; ``click_latency.py`` is the browser benchmark of
``make bench-browser``.  Run them from the repository's root.
"""
