# multas: every set-up step lives here, so a fresh machine needs only `make run` / `make test`.
# (The full test suite also wants PostgreSQL and Chromium: `.ci/run` installs and starts them
# through scripts/servicos_teste.sh; without them those tests are skipped, except under CI.)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.instalado
# the install follows uv.lock (exact versions, hashes): uv itself, pinned, comes from PyPI through
# pip (so the machine's pip configuration applies) into its own small environment
UV_VERSAO := 0.13.9
UV_VENV   := .venv-uv
UV        := $(UV_VENV)/bin/uv
# the OpenFisca reference of bench/kernel_vs_openfisca.py lives in its own environment
BENCH_VENV  := .venv-bench
BENCH_STAMP := $(BENCH_VENV)/.instalado

.PHONY: install run test teste-rapido lint docs bench carga regulador clean lock mutacao imagens

install: $(STAMP)

$(UV):
	$(PYTHON) -m venv $(UV_VENV)
	$(UV_VENV)/bin/python -m pip install --quiet 'uv==$(UV_VERSAO)'

# `--locked`: stops if uv.lock no longer matches pyproject.toml (run `make lock` after editing
# the dependencies); the project itself is installed editable, as `pip install -e` did
$(STAMP): pyproject.toml uv.lock | $(UV)
	UV_PROJECT_ENVIRONMENT=$(VENV) UV_PYTHON_DOWNLOADS=never \
		$(UV) sync --locked --extra dev --python $(PYTHON) --compile-bytecode --quiet
	$(BIN)/python -m compileall -q src
	touch $(STAMP)

# after changing the dependencies in pyproject.toml: re-resolve uv.lock (and commit it)
lock: | $(UV)
	$(UV) lock

# the page and the API at http://127.0.0.1:8000 (loopback only), saved cases in the user's data
# folder (~/.local/share/multas/multas.db on Linux), the same wherever it runs
run: install
	$(BIN)/multas servir --host 127.0.0.1 --porta 8000

# the documentation site (docs/, pt-BR) into site/; --strict: a broken link, anchor or page, or a
# generated page that no longer fits the code (scripts/paginas_docs.py), fails the build
MKDOCS := NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs
docs: install
	$(MKDOCS) build --strict --quiet

# the lint, the documentation, the whole suite on both cores (pytest-xdist, a test file per
# worker), then the suite again on two faked dates far from today: no test may depend on the
# clock. Those two runs take what the clock can move (the core and the services on SQLite,
# and the PostgreSQL files about time); docs/desenvolvimento.md explains the markers
PROCESSOS ?= 2
PYTEST    := $(BIN)/python -m pytest -n $(PROCESSOS) --dist loadfile
test: install lint docs
	$(PYTEST)
	$(PYTEST) -q -p no:cacheprovider --hoje 2031-07-15
	$(PYTEST) -q -p no:cacheprovider --hoje 2028-02-29

# the edit loop: the pure core alone (tests/nucleo/: no database, server, browser nor other
# process), in under a minute
teste-rapido: install
	$(PYTEST) -p no:cacheprovider -m "not (postgresql or navegador or servidor or subprocesso or schemathesis or lento)" tests/nucleo

# the page guide's screenshots (docs/guia.md) taken again into docs/imagens/ by its browser test;
# commit them, so that `make docs` never needs a browser
imagens: install
	MULTAS_IMAGENS_DOCS=1 $(BIN)/python -m pytest -q -p no:cacheprovider tests/navegador/test_guia.py

lint: install
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/ruff format --check src tests bench scripts
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

# mutation testing of the core rules (regimes/, datas.py, dinheiro.py, calendario.py and the
# § 6 deadlines; [tool.mutmut] in pyproject.toml): slow (about 75 minutes on 2 cores), so not
# part of `make test`. It starts
# afresh, then prints the score per file (scripts/mutacao.py; docs/mutacao.md explains the
# survivors); mutmut's own output goes to mutants/execucao.log. MUTACAO_PROCESSOS=1 leaves a
# core free on a shared machine.
MUTACAO_PROCESSOS ?= 2
mutacao: install
	rm -rf mutants && mkdir mutants
	$(BIN)/mutmut run --max-children $(MUTACAO_PROCESSOS) > mutants/execucao.log 2>&1 \
		|| { tail -n 40 mutants/execucao.log; exit 1; }
	$(BIN)/python scripts/mutacao.py

$(BENCH_STAMP): Makefile
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(BENCH_VENV)/bin/python -m pip install --quiet 'openfisca-core==46.0.1'
	touch $(BENCH_STAMP)

bench: install $(BENCH_STAMP)
	$(BIN)/python bench/inicio_cli.py
	PYTHON_OPENFISCA=$(BENCH_VENV)/bin/python $(BIN)/python bench/kernel_vs_openfisca.py
	PYTHON_OPENFISCA=$(BENCH_VENV)/bin/python $(BIN)/python bench/motor_escalar.py
	$(BIN)/python bench/lote_vs_io.py
	$(BIN)/python bench/ano.py
	$(BIN)/python bench/inicio_ciclo.py
	$(BIN)/python bench/dask_escala.py
	$(BIN)/python bench/escala.py
	$(BIN)/python bench/servidor.py

# loopback load (computing, saving, lifecycle events, ledger imports), 20 s a phase, with 1 and
# 2 uvicorn workers, on SQLite and (with MULTAS_TEST_POSTGRES_URL) PostgreSQL: one table
carga: install
	$(BIN)/python bench/carga.py --matriz

# the regulator's database (issue 36): N processos imported, then the queue, the export,
# reavaliar, verificar and the server's phases, on SQLite and (with MULTAS_TEST_POSTGRES_URL)
# PostgreSQL, with their ratios (docs/desempenho.md#regulador). CI runs it at 10,000 after the
# suite: it fails when a command fails, and prints the figures
REGULADOR ?= 10000
regulador: install
	$(BIN)/python bench/regulador.py $(REGULADOR)

clean:
	rm -rf $(VENV) $(UV_VENV) $(BENCH_VENV) site build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis mutants
