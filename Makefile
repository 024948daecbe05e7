# Two commands for a newcomer (see README):  make tables   |   make test
# Both set up .venv from uv.lock first. Offline: export MWZREPRO_MIRROR=<mirror dir>.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(CURDIR)/$(VENV)/bin
JOBS ?= 8
export PATH := $(BIN):$(PATH)
export UV_PYTHON_DOWNLOADS := never

.PHONY: setup tables test test-fast bench mutation generate dvc.yaml clean-results

$(VENV)/.installed: pyproject.toml uv.lock
	@command -v uv >/dev/null 2>&1 || $(PYTHON) -m pip install --quiet --user uv || $(PYTHON) -m pip install --quiet uv
	@UV=$$(command -v uv || echo "$(PYTHON) -m uv"); \
	  $$UV sync --frozen --extra workflow --extra test --compile-bytecode --python $(PYTHON) --quiet
	@$(BIN)/python -m compileall -q src >/dev/null
	@touch $@

setup: $(VENV)/.installed  ## create .venv with the locked dependencies

tables: setup  ## regenerate every table (snakemake -j$(JOBS)), then record the run in DVC
	snakemake -j$(JOBS)
	$(BIN)/python workflow/scripts/make_dvc_yaml.py
	mwzrepro record

dvc.yaml: setup  ## regenerate dvc.yaml from the Snakemake workflow (after editing a rule or a structural key)
	$(BIN)/python workflow/scripts/make_dvc_yaml.py

generate: setup  ## regenerate every generated file: CLI command table, params schema and table, dvc.yaml
	$(BIN)/python workflow/scripts/make_cli_registry.py
	$(BIN)/python workflow/scripts/make_params_schema.py
	$(BIN)/python workflow/scripts/make_params_table.py
	$(BIN)/python workflow/scripts/make_dvc_yaml.py

# -n auto: one pytest-xdist worker per core; pyproject.toml adds --dist loadscope (each test
# module runs on one worker, the longest first; see tests/conftest.py).
test: setup  ## the whole suite on every core (real-data tests need MWZREPRO_MIRROR or the mirror)
	pytest -n auto

# The edit loop: unit tests and doctests, nothing that reads the data mirror or runs the
# pipeline (the `mirror`, `slow` and `services` marks); under a minute on two cores.
test-fast: setup  ## unit tests and doctests only (no mirror, no pipeline runs, no servers)
	pytest -n auto -m "not mirror and not slow and not services" tests/unit src

# Mutation testing of the scoring modules ([tool.mutmut] in pyproject.toml; docs/benchmarks.md):
# hours on two cores, so never part of `make test`. MUTANTS narrows it to a module group, e.g.
# make mutation MUTANTS='mwzrepro.stats.significance.*'; the run resumes where it stopped.
MUTANTS ?=
mutation: setup  ## mutation testing (mutmut) of the scoring modules; MUTANTS='mwzrepro.stats.*'
	@UV=$$(command -v uv || echo "$(PYTHON) -m uv"); \
	  $$UV sync --frozen --extra workflow --extra test --extra dev --python $(PYTHON) --quiet
	nice -n 19 mutmut run --max-children 2 $(MUTANTS)
	$(BIN)/python benchmarks/mutation_report.py $(MUTANTS)

bench: setup  ## benchmarks: the pipeline loop's figures (loop.py), pipeline runs, scoring speed
	$(BIN)/python benchmarks/loop.py
	$(BIN)/python benchmarks/pipeline.py
	$(BIN)/python benchmarks/score_all.py
	$(BIN)/python benchmarks/score_public.py
	$(BIN)/python benchmarks/score_cli.py
	$(BIN)/python benchmarks/score_lexicalized.py
	$(BIN)/python benchmarks/score_extended_line.py
	$(BIN)/python benchmarks/score_many.py
	$(BIN)/python benchmarks/bootstrap.py
