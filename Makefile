# Task runner: `make help` lists the verbs. Every verb sets up what it needs.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
BASE := $(VENV)/.installed-base
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed

.DEFAULT_GOAL := help
.PHONY: help demo setup generate check test lint bench lock clean

help: ## list the verbs
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-9s %s\n", $$1, $$2}'

# The toolkit alone (demo, generate, check), then its test tools on top (test, lint, bench).
$(BASE): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
		|| { echo "bernstein-signals needs Python >= 3.11 as $(PYTHON)" >&2; exit 2; }
	$(PYTHON) -m venv $(VENV) || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& apt-get update -qq && apt-get install -y -qq python3-venv && $(PYTHON) -m venv $(VENV); }
	$(BIN)/python -m pip install --quiet -c constraints.txt -e .
	@touch $@

$(STAMP): $(BASE)
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[test]'
	@touch $@

# The TypeScript binding's test tools (typescript, fast-check, ajv), from the lockfile.
$(NODE_STAMP): $(wildcard package.json package-lock.json)
	@command -v npm >/dev/null || { echo "the TypeScript tests need Node.js >= 18 with npm" >&2; exit 2; }
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

setup: $(STAMP) $(NODE_STAMP) ## create .venv and node_modules with the test tools (pinned)

demo: $(BASE) ## the main job: regenerate, show the vocabulary, run the example wrapper through conform
	$(BIN)/bernstein-signals generate
	$(BIN)/bernstein-signals generate --check
	@sed -n '/^## Kinds/,/^## [A-Z]/p' generated/docs/vocabulary.md | sed '$$d'
	@echo '== bernstein-signals conform --answer-id q-plan=yes --transcript -- examples/wrapper.sh'
	@cd "$$(mktemp -d)" && PATH="$(CURDIR)/$(BIN):$$PATH" \
		bernstein-signals conform --answer-id q-plan=yes --timeout 60 --transcript -- "$(CURDIR)/examples/wrapper.sh"
	@echo '== bernstein-signals is in $(BIN)/: run `source $(BIN)/activate` to have it on PATH'

generate: $(BASE) ## regenerate generated/ (also the update command for golden files)
	$(BIN)/bernstein-signals generate

check: $(BASE) ## fail if generated/ is stale, missing files or has orphans
	$(BIN)/bernstein-signals generate --check

test: $(STAMP) $(NODE_STAMP) ## run the whole test suite
	@scripts/ensure-test-shells
	@scripts/ensure-test-data $(BIN)/python
	$(BIN)/python -m pytest -n auto

lint: $(STAMP) ## ruff (lint + format check) and mypy --strict
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: $(STAMP) $(NODE_STAMP) ## run the benchmarks and print throughput and ratios
	@scripts/ensure-test-shells jq
	$(BIN)/python -m benchmarks

lock: $(STAMP) ## refresh constraints.txt from the current .venv
	{ sed -n '1,3p' constraints.txt; $(BIN)/python -m pip freeze --exclude-editable | grep -v '^-e'; } > constraints.txt.new
	mv constraints.txt.new constraints.txt

clean: ## remove .venv, node_modules and caches
	rm -rf $(VENV) node_modules .mypy_cache .pytest_cache .ruff_cache .hypothesis
