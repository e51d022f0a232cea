# Two commands do all the set-up: `make lab` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: lab test test-fast play student course grade-demo bench bench-browser lint coverage tournament-demo site rules-sheet clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test,tournament]'
	touch $(VENV)/.installed $@

# The serving settings live in jupyter/: jupyter_server_config.json (runs as root too, no browser
# opened), voila.json (idle kernels culled, the offline page template in jupyter/voila/templates).
SERVE := JUPYTER_CONFIG_PATH="$(CURDIR)/jupyter" JUPYTER_PATH="$(CURDIR)/jupyter"

# lab and play install the fast extra (numba, wheels only) where it installs: the computer then
# searches compiled, levels 4 and 5 much stronger (the tournament extra too, for notebook 11).
# Where numba does not install, one line says so and everything runs in pure Python.  The search is
# compiled here, once (about 45 s, with a progress bar), into numba's cache: no kernel compiles it,
# which costs the first game that long and its kernel about 100 MB more for as long as it runs.
$(VENV)/.installed-play: pyproject.toml | $(BIN)/python
	@$(BIN)/pip install --quiet -e '.[fast,tournament]' >/dev/null 2>&1 || { \
	    echo "numba does not install here: the computer uses the pure-Python search (weaker levels 4 and 5)"; \
	    $(BIN)/pip install --quiet -e '.[tournament]'; }
	$(BIN)/python -c "from fanorona.engine import compiled; compiled.warm_up()"
	touch $(VENV)/.installed $@

lab: $(VENV)/.installed-play     ## JupyterLab on the notebooks: open the address it prints
	$(SERVE) $(BIN)/jupyter lab notebooks/

# In CI (CI=true) the suite also reads the website as a reader would (tests/test_site.py): build it first.
test: $(VENV)/.installed-test $(if $(filter true,$(CI)),site)   ## the whole suite: package, notebooks, browser
	$(BIN)/python -m pytest tests
	$(BIN)/python -m pytest --doctest-modules fanorona
	$(BIN)/python -m pytest -n 2 --dist loadfile --nbval --nbval-current-env notebooks

$(VENV)/.installed-fast: pyproject.toml $(VENV)/.installed-test
	$(BIN)/pip install --quiet -e '.[test,fast]'
	touch $@

test-fast: $(VENV)/.installed-fast   ## the compiled search (numba) against the pure-Python one, and the players on it
	$(BIN)/python -m pytest tests/test_compiled.py tests/test_ai.py tests/test_arena.py tests/test_computer.py \
	    tests/test_endgame.py tests/test_tournament_isolation.py

play: $(VENV)/.installed-play    ## the board alone, as a page served by Voila on localhost
	$(SERVE) $(BIN)/voila notebooks/play.ipynb

student: $(VENV)/.installed-test ## student copies of the notebooks and the files they read, released by nbgrader, in build/student/
	$(BIN)/python -m fanorona.exercises notebooks build/student

course: $(VENV)/.installed-test  ## an nbgrader course folder in build/course/: one assignment a week, nbgrader_config.py
	$(BIN)/python -m fanorona.exercises notebooks build/course --course --config nbgrader_config.py

grade-demo: $(VENV)/.installed-test   ## autograde a generated class of 10 with nbgrader; prints scores and minutes per student
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python benchmarks/grade_class.py --students 10

bench: $(VENV)/.installed-test   ## speed, strength and memory figures: every benchmarks/bench_*.py
	$(BIN)/python -m benchmarks
	$(BIN)/python benchmarks/widget_clicks.py

$(VENV)/.installed-lint: pyproject.toml $(VENV)/.installed-test
	$(BIN)/pip install --quiet -e '.[test,lint]'
	touch $@

lint: $(VENV)/.installed-lint    ## the quality gate: ruff's rules and format (pyproject.toml), mypy on fanorona/
	$(BIN)/ruff check fanorona tests benchmarks docs
	$(BIN)/ruff format --check fanorona tests benchmarks docs
	$(BIN)/mypy

coverage: $(VENV)/.installed-lint   ## the package's tests with coverage; fails under the floor in pyproject.toml
	$(BIN)/python -m pytest tests --cov --cov-report=term

bench-browser: $(VENV)/.installed-test   ## click-to-picture latency in Chromium (Voila and JupyterLab)
	$(BIN)/python benchmarks/click_latency.py

tournament-demo: $(VENV)/.installed-test   ## a small tournament of the built-in levels on a local Dask cluster; prints the table
	rm -f build/tournament-demo.sqlite && mkdir -p build
	$(BIN)/python -m fanorona.tournament run build/tournament-demo.sqlite --levels 1,2,3 --player alphabeta:depth=1 \
		--size 5x5 --max-turns 40 --time 1 --seed 1 --workers 2 --no-dashboard --samples 100 \
		--csv build/tournament-demo.csv --plot build/tournament-demo.png

$(VENV)/.installed-site: pyproject.toml $(VENV)/.installed-test
	$(BIN)/pip install --quiet -e '.[test,site]'
	touch $@

site: $(VENV)/.installed-site   ## the course as a static website in build/site/ (notebooks executed, cached)
	$(BIN)/python docs/build_site.py

rules-sheet: $(VENV)/.installed-test   ## the one-page rules sheet in four languages, diagrams drawn by the kit: build/rules-sheet.pdf
	$(BIN)/python docs/rules_sheet.py

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
