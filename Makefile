# cardtable — the two commands for a fresh machine:
#   make play   set up (first time) and start the game server: open the printed address to play
#   make test   set up (first time) and run the test suite (all but the slow strength tests) and mypy
# Also: make test-slow (the statistical strength tests, marked slow; CI runs them too),
# make play-terminal (Lost Cities in the terminal), make bench, make traces.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# pytest-xdist workers for `make test`: one a core, at most four (each may start a
# server or a browser); TEST_WORKERS=0 runs the suite in one process.
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); [ "$$n" -gt 4 ] && n=4; echo $$n)

.PHONY: play play-terminal test test-slow typecheck bench traces clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-app: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[web]'
	@echo "Compiling the AI's play-out kernels (numba, once: a minute or two) ..."
	$(BIN)/pip install --quiet -e '.[fast]' && $(BIN)/cardtable kernels \
		|| echo "note: the compiled kernels are not available here; the AI searches in pure Python (fewer play-outs)"
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed-app

play: $(VENV)/.installed-app
	$(BIN)/cardtable serve $(ARGS)

play-terminal: $(VENV)/.installed-app
	$(BIN)/cardtable play lost-cities --ai heuristic $(ARGS)

test: $(VENV)/.installed-test
	bash scripts/system-deps.sh
	$(BIN)/cardtable kernels --quiet  # compiled once, in parallel, before the workers load them
	CARDTABLE_TEST_PG="$${CARDTABLE_TEST_PG:-$$(bash scripts/ci-postgres.sh 2>/dev/null || true)}" \
		$(BIN)/python -m pytest -m "not slow" -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)
	$(BIN)/python -m mypy

test-slow: $(VENV)/.installed-test
	$(BIN)/python -m pytest -m slow $(PYTEST_ARGS)

typecheck: $(VENV)/.installed-test
	$(BIN)/python -m mypy

bench: $(VENV)/.installed-test
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/playouts.py

traces: $(VENV)/.installed-test
	$(BIN)/python tests/golden/traces.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .hypothesis
