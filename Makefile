# The README's two commands: `make demo` runs the simulated table, `make test` runs every check.
# Both create the virtualenv on first use, so a fresh clone needs nothing else.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
CONFIG ?= companion.toml

.PHONY: demo test lint bench

# The `pi` extra's packages carry platform markers: on anything but a Raspberry Pi they install nothing.
$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[pi]'
	touch $@

$(BIN)/.installed-dev: $(BIN)/.installed
	$(BIN)/pip install --quiet -e '.[pi,dev]'
	touch $@

demo: $(BIN)/.installed
	$(BIN)/companion --config $(CONFIG) demo

lint: $(BIN)/.installed-dev
	$(BIN)/ruff check .

test: lint
	bash .ci/install-browser
	bash .ci/install-render-tools
	$(BIN)/python -m pytest -n auto --dist worksteal

bench: $(BIN)/.installed-dev
	for b in benchmarks/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done
