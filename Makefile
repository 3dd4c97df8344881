# cardtable — the two commands for a fresh machine:
#   make play   set up (first time) and play Lost Cities against the AI in the terminal
#   make test   set up (first time) and run the whole test suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: play test typecheck bench traces clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-app: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed-app

play: $(VENV)/.installed-app
	$(BIN)/cardtable play lost-cities --ai heuristic $(ARGS)

test: $(VENV)/.installed-test
	bash scripts/system-deps.sh
	$(BIN)/python -m pytest $(PYTEST_ARGS)
	$(BIN)/python -m mypy

typecheck: $(VENV)/.installed-test
	$(BIN)/python -m mypy

bench: $(VENV)/.installed-test
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/playouts.py

traces: $(VENV)/.installed-test
	$(BIN)/python tests/golden/traces.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .hypothesis
