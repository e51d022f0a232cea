# Two commands do all the set-up: `make lab` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: lab test test-release test-quick test-fast play student course grade-demo bench bench-browser bench-hub lint coverage tournament-demo lobby lobby-demo site screenshot rules-sheet hub clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# One stamp a role: a target installs the kit with its role's extra and no other (pyproject.toml's
# optional-dependencies; tests/test_packaging.py checks each target's line).
$(VENV)/.installed-course $(VENV)/.installed-lobby $(VENV)/.installed-hub $(VENV)/.installed-tournament \
$(VENV)/.installed-test: $(VENV)/.installed-%: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[$*]'
	touch $@

# The course hub's proxy, configurable-http-proxy from npm, into hub/node_modules (npm needed).
hub/node_modules/.installed: hub/package.json hub/package-lock.json
	npm ci --prefix hub --no-audit --no-fund --loglevel=error
	touch $@

# The serving settings live in jupyter/: jupyter_server_config.json (runs as root too, no browser
# opened), voila.json (idle kernels culled, the offline page template in jupyter/voila/templates).
SERVE := JUPYTER_CONFIG_PATH="$(CURDIR)/jupyter" JUPYTER_PATH="$(CURDIR)/jupyter"

# lab and play install the fast extra (numba, wheels only) where it installs: the computer then
# searches compiled, levels 4 and 5 much stronger (the tournament and lobby extras too, for notebooks
# 11 and 12).  Where numba does not install, one line says so and everything runs in pure Python.
# The search is compiled here, once (about 45 s, a line counting the seconds), into numba's cache:
# no kernel compiles it, which costs the first game that long and its kernel about 100 MB more for
# as long as it runs.  numba's cache of the compiled search goes stale when these change
# (compiled.py by numba's own check, the other two by compiled's): `make lab` then compiles it
# again, not the first kernel.  Level 5's 5-stone endgame table (a minute or two) is built in the
# background each time `make lab` finds it missing, so JupyterLab's address does not wait for it.
COMPILED_SOURCES := fanorona/engine/compiled.py fanorona/engine/scoring.py fanorona/geometry.py

$(VENV)/.installed-play: pyproject.toml $(COMPILED_SOURCES) | $(BIN)/python
	@echo "make lab: 1/3 installing the kit and the notebooks' packages into $(VENV) (a minute or two the first time; pip lists each package)"
	@$(BIN)/pip install --progress-bar on -e '.[play,fast,tournament,lobby]' || { \
	    echo "numba does not install here: the computer uses the pure-Python search (weaker levels 4 and 5)"; \
	    $(BIN)/pip install --progress-bar on -e '.[play,tournament,lobby]'; }
	@echo "make lab: 2/3 compiling the fast search once where numba installed"
	$(BIN)/python -m fanorona.engine.prepare compile
	@echo "make lab: 3/3 done"
	touch $@

# Students' answers and tournament players run in bubblewrap's namespaces; without it they do not
# run at all (unless FANORONA_ALLOW_WEAK_ISOLATION=1): say so before anything starts.
BUBBLEWRAP_CHECK := if command -v bwrap >/dev/null 2>&1; then \
	    echo "bubblewrap: $$(command -v bwrap) (graded answers and tournament players run isolated)"; \
	else \
	    echo "bubblewrap (bwrap) is not on PATH: graded answers and tournament players will not run until it is installed (Debian, Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap)"; \
	fi

lab: $(VENV)/.installed-play     ## JupyterLab on the notebooks: open the address it prints
	@$(BUBBLEWRAP_CHECK)
	@$(BIN)/python -m fanorona.engine.prepare table --log $(VENV)/endgame-table.log
	$(SERVE) $(BIN)/jupyter lab notebooks/

# In CI (CI=true) the suite also reads the website as a reader would (tests/test_site.py): build it first.
# Two workers (the machine's two cores); the tests of a shared server run on one (--dist loadgroup,
# pyproject.toml).  Every part runs even if one fails; the time at the end leaves the installs out.
test: $(VENV)/.installed-test hub/node_modules/.installed $(if $(filter true,$(CI)),site)   ## the whole suite: package, notebooks, browser
	@start=$$(date +%s); status=0; \
	$(BIN)/python -m pytest -n 2 tests || status=1; \
	$(BIN)/python -m pytest --doctest-modules fanorona || status=1; \
	$(BIN)/python -m pytest --doctest-glob=README.md README.md || status=1; \
	$(BIN)/python -m pytest -n 2 --dist loadfile --nbval --nbval-current-env notebooks || status=1; \
	echo "make test: $$(( $$(date +%s) - start )) s, installs not counted (load average $$(cut -d' ' -f1-3 /proc/loadavg))"; \
	exit $$status

# The release as a course author installs it (tests/test_release.py): the wheel and the sdist built
# and checked, then installed into fresh virtual environments (JupyterLab only; JupyterLab 4.0 with
# the oldest versions declared, on the oldest Python) and the course run there.  Minutes of pip.  Its
# own --basetemp: pytest runs elsewhere on the machine clean up /tmp/pytest-of-USER's old folders.
TMPDIR_RELEASE ?= /tmp/fanorona-test-release
test-release: $(VENV)/.installed-test   ## the built wheel in fresh JupyterLab environments, the course run there
	@start=$$(date +%s); status=0; \
	FANORONA_TEST_RELEASE=1 $(BIN)/python -m pytest -p no:cacheprovider -ra --basetemp=$(TMPDIR_RELEASE) \
	    tests/test_release.py || status=1; \
	echo "make test-release: $$(( $$(date +%s) - start )) s (load average $$(cut -d' ' -f1-3 /proc/loadavg))"; \
	exit $$status

# The rules, the engine and the board's controller, without the slow tests: a couple of minutes.
QUICK := tests/test_geometry.py tests/test_rules.py tests/test_notation.py tests/test_movegen.py \
	tests/test_board.py tests/test_game.py tests/test_positions.py tests/test_properties.py \
	tests/test_differential.py tests/test_robustness.py tests/test_ai.py tests/test_arena.py \
	tests/test_endgame.py tests/test_solve.py tests/test_compiled.py tests/test_computer.py \
	tests/test_controller.py tests/test_controller_fuzz.py tests/test_imports.py tests/test_class_sizes.py

test-quick: $(VENV)/.installed-test   ## the rules, engine and controller tests, the slow ones left out
	@start=$$(date +%s); status=0; \
	$(BIN)/python -m pytest -n 2 -m "not (slow or browser or notebook or nbgrader)" $(QUICK) || status=1; \
	echo "make test-quick: $$(( $$(date +%s) - start )) s (load average $$(cut -d' ' -f1-3 /proc/loadavg))"; \
	exit $$status

$(VENV)/.installed-fast: pyproject.toml $(VENV)/.installed-test
	$(BIN)/pip install --quiet -e '.[test,fast]'
	touch $@

test-fast: $(VENV)/.installed-fast   ## the compiled search (numba) against the pure-Python one, and the players on it
	$(BIN)/python -m pytest tests/test_compiled.py tests/test_ai.py tests/test_arena.py tests/test_computer.py \
	    tests/test_endgame.py tests/test_indexed.py tests/test_tournament_isolation.py

play: $(VENV)/.installed-play    ## the board alone, as a page served by Voila on localhost
	@$(BIN)/python -m fanorona.engine.prepare table --log $(VENV)/endgame-table.log
	$(SERVE) $(BIN)/voila notebooks/play.ipynb

student: $(VENV)/.installed-course ## student copies of the notebooks and the files they read, released by nbgrader, in build/student/
	$(BIN)/python -m fanorona.exercises notebooks build/student

course: $(VENV)/.installed-course  ## an nbgrader course folder in build/course/: one assignment a week, nbgrader_config.py
	$(BIN)/python -m fanorona.exercises notebooks build/course --course --config nbgrader_config.py

grade-demo: $(VENV)/.installed-course   ## autograde a generated class of 10 with nbgrader; prints scores and minutes per student
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python benchmarks/grade_class.py --students 10

bench: $(VENV)/.installed-test   ## speed, strength and memory figures: every benchmarks/bench_*.py
	$(BIN)/python -m benchmarks
	$(BIN)/python benchmarks/widget_clicks.py

$(VENV)/.installed-lint: pyproject.toml $(VENV)/.installed-test
	$(BIN)/pip install --quiet -e '.[test,lint]'
	touch $@

lint: $(VENV)/.installed-lint    ## the quality gate: ruff's rules and format (pyproject.toml), mypy on fanorona/, deptry
	$(BIN)/ruff check fanorona tests benchmarks docs hub
	$(BIN)/ruff format --check fanorona tests benchmarks docs hub
	$(BIN)/mypy
	$(BIN)/deptry fanorona hub

coverage: $(VENV)/.installed-lint   ## the package's tests with coverage; fails under the floor in pyproject.toml
	$(BIN)/python -m pytest tests --cov --cov-report=term

hub: $(VENV)/.installed-hub hub/node_modules/.installed   ## the trial course hub at 127.0.0.1:8000, three demo students (not separated); prints how to log in
	@$(BUBBLEWRAP_CHECK)
	$(BIN)/python -m hub

bench-hub: $(VENV)/.installed-hub hub/node_modules/.installed   ## the course hub: 10 and 30 students started, memory a student, autograde minutes
	$(BIN)/python benchmarks/bench_hub.py

bench-browser: $(VENV)/.installed-test   ## click-to-picture latency in Chromium (Voila and JupyterLab)
	$(BIN)/python benchmarks/click_latency.py

tournament-demo: $(VENV)/.installed-tournament   ## a small tournament of the built-in levels on a local Dask cluster; prints the table
	rm -f build/tournament-demo.sqlite && mkdir -p build
	$(BIN)/python -m fanorona.tournament run build/tournament-demo.sqlite --levels 1,2,3 --player alphabeta:depth=1 \
		--size 5x5 --max-turns 40 --time 1 --seed 1 --workers 2 --no-dashboard --samples 100 \
		--csv build/tournament-demo.csv --plot build/tournament-demo.png

# The class lobby on 127.0.0.1:$(PORT) (LOBBY_DB, made with `.venv/bin/python -m fanorona.lobby tokens`).
LOBBY_DB ?= build/lobby.sqlite
PORT ?= 8765
lobby: $(VENV)/.installed-lobby   ## the class lobby on 127.0.0.1:8765 (make lobby PORT=9000; tokens: .venv/bin/python -m fanorona.lobby tokens)
	$(BIN)/python -m fanorona.lobby serve $(LOBBY_DB) --port $(PORT)

lobby-demo: $(VENV)/.installed-lobby   ## a lobby and two computer clients playing ranked games; prints the ladder
	$(BIN)/python -m fanorona.lobby demo

$(VENV)/.installed-site: pyproject.toml $(VENV)/.installed-test
	$(BIN)/pip install --quiet -e '.[test,site]'
	touch $@

site: $(VENV)/.installed-site   ## the course as a static website in build/site/ (notebooks executed, cached)
	$(BIN)/python docs/build_site.py

screenshot: $(VENV)/.installed-test   ## docs/board.png, the README's picture, taken again from today's board in Voila and headless Chromium
	$(BIN)/python docs/screenshot.py

rules-sheet: $(VENV)/.installed-test   ## the one-page rules sheet in four languages, diagrams drawn by the kit: build/rules-sheet.pdf
	$(BIN)/python docs/rules_sheet.py

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis hub/node_modules
