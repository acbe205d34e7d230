# multas: every set-up step lives here, so a fresh machine needs only `make run` / `make test`.
# (The full test suite also wants PostgreSQL and Chromium: `.ci/run` installs and starts them
# through scripts/servicos_teste.sh; without them those tests are skipped, except under CI.)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.instalado

.PHONY: install run test lint bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m compileall -q src
	touch $(STAMP)

# the page and the API at http://127.0.0.1:8000 (loopback only), saved cases in dados/multas.db
run: install
	$(BIN)/multas servir --host 127.0.0.1 --porta 8000

test: install lint
	$(BIN)/python -m pytest

lint: install
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/ruff format --check src tests bench scripts
	$(BIN)/mypy

bench: install
	$(BIN)/python bench/inicio_cli.py
	$(BIN)/python bench/servidor.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
