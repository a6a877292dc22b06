# The README's two commands: `make demo` runs the simulated table, `make test` runs every check.
# Both create the virtualenv on first use, so a fresh clone needs nothing else.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test lint bench

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

demo: $(BIN)/.installed
	$(BIN)/companion demo

lint: $(BIN)/.installed
	$(BIN)/ruff check .

test: lint
	$(BIN)/python -m pytest

bench: $(BIN)/.installed
	for b in benchmarks/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done
