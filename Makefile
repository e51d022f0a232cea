# Two commands do all the set-up: `make lab` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: lab test test-fast play student bench bench-browser clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(VENV)/.installed $@

# The serving settings live in jupyter/: jupyter_server_config.json (runs as root too, no browser
# opened), voila.json (idle kernels culled, the offline page template in jupyter/voila/templates).
SERVE := JUPYTER_CONFIG_PATH="$(CURDIR)/jupyter" JUPYTER_PATH="$(CURDIR)/jupyter"

lab: $(VENV)/.installed          ## JupyterLab on the notebooks: open the address it prints
	$(SERVE) $(BIN)/jupyter lab notebooks/

test: $(VENV)/.installed-test    ## the whole suite: package, notebooks, browser
	$(BIN)/python -m pytest tests
	$(BIN)/python -m pytest --doctest-modules fanorona
	$(BIN)/python -m pytest -n 2 --dist loadfile --nbval --nbval-current-env notebooks

$(VENV)/.installed-fast: pyproject.toml $(VENV)/.installed-test
	$(BIN)/pip install --quiet -e '.[test,fast]'
	touch $@

test-fast: $(VENV)/.installed-fast   ## the compiled search (numba) against the pure-Python one, and the players on it
	$(BIN)/python -m pytest tests/test_compiled.py tests/test_ai.py tests/test_arena.py tests/test_computer.py tests/test_endgame.py

play: $(VENV)/.installed         ## the board alone, as a page served by Voila on localhost
	$(SERVE) $(BIN)/voila notebooks/play.ipynb

student: $(VENV)/.installed-test ## student copies of the notebooks, released by nbgrader, in build/student/
	$(BIN)/python -m fanorona.exercises notebooks build/student

bench: $(VENV)/.installed-test   ## speed and strength figures
	$(BIN)/python -m fanorona.bench
	$(BIN)/python benchmarks/widget_clicks.py

bench-browser: $(VENV)/.installed-test   ## click-to-picture latency in Chromium (Voila and JupyterLab)
	$(BIN)/python benchmarks/click_latency.py

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
