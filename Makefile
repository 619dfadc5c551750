# MTG Ledger developer tasks. Everything runs from the project's own .venv.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := test

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two installs: `make run` needs only what serving needs (the project's dependencies); test,
# lint, soak and bench also need the `dev` extra (pytest, Hypothesis, ruff, mypy, Playwright,
# schemathesis). Both use the same pins.
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
PYTEST_ARGS ?=

# Type-checked trees (pyproject [tool.mypy] files), less any that has no Python file yet:
# mypy refuses a missing directory or one without .py files.
MYPY_TREES := domain store projections ledger api bench
MYPY_TARGETS := $(foreach d,$(MYPY_TREES),$(if $(shell find $(d) -name '*.py' -print -quit 2>/dev/null),$(d)))

.PHONY: install install-run run test lint lint-js docs bench soak clean browser-deps js-deps ha-deps lb-deps

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall when the project metadata or the pins change, and when a top-level package
# appears: the editable install maps each top-level package it saw when it ran.
INSTALL_INPUTS := pyproject.toml constraints.txt $(wildcard */__init__.py)

$(RUN_STAMP): $(INSTALL_INPUTS) | $(BIN)/python
	$(BIN)/pip install -c constraints.txt -e .
	touch $@

# The dev install holds the runtime one too, so it also satisfies `make run`.
$(DEV_STAMP): $(INSTALL_INPUTS) | $(BIN)/python
	$(BIN)/pip install -c constraints.txt -e '.[dev]'
	touch $@ $(RUN_STAMP)

install: $(DEV_STAMP)

install-run: $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/mtg-ledger serve

test: $(DEV_STAMP)
	$(BIN)/pytest -m "not slow" $(PYTEST_ARGS)

lint: $(DEV_STAMP) lint-js
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy $(MYPY_TARGETS)
	$(BIN)/lint-imports

# The web page's JavaScript (api/static, the unit tests in tests/browser/js): ESLint from the npm
# registry at the versions package-lock.json pins, in ./node_modules (eslint.config.mjs says which
# rules). Only a check: the page itself has no build step and no dependencies (`make run` needs
# no Node). Without npm (Debian: apt-get install npm) it says so and fails.
NODE_STAMP := node_modules/.installed

$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || { echo "lint-js: npm is missing: make js-deps (Debian's nodejs and npm)" >&2; exit 1; }
	npm ci --no-audit --no-fund --ignore-scripts
	touch $@

lint-js: $(NODE_STAMP)
	node_modules/.bin/eslint --max-warnings 0 api/static tests/browser/js

# The generated parts of docs/: the error table of docs/api.md, from domain/errors.py's Code
# (tests/api/test_error_codes.py fails while it is stale).
docs: $(RUN_STAMP)
	$(BIN)/python -m api.error_table

bench: $(DEV_STAMP)
	@if [ -f bench/run_all.py ]; then \
		$(BIN)/python bench/run_all.py; \
	else \
		echo "no bench/run_all.py yet: nothing to run"; \
	fi

soak: $(DEV_STAMP)
	$(BIN)/pytest -m slow $(PYTEST_ARGS)

# Debian's Chromium and ChromeDriver for the browser tests (never a downloaded browser).
# Idempotent: does nothing when both are installed; installs them as root otherwise.
browser-deps:
	@if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then \
		echo "browser-deps: $$(/usr/bin/chromium --version 2>/dev/null || echo chromium) already installed"; \
	elif [ "$$(id -u)" -eq 0 ]; then \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -q; \
		apt-get install -y -q chromium chromium-driver; \
		/usr/bin/chromium --version; \
	else \
		echo "browser-deps: /usr/bin/chromium or /usr/bin/chromedriver is missing; as root run:" >&2; \
		echo "  apt-get install chromium chromium-driver" >&2; \
		exit 1; \
	fi

# Debian's Node.js and npm for the JavaScript lint (make lint-js; the page itself needs no Node).
# Idempotent: does nothing when npm is installed; installs them as root otherwise.
js-deps:
	@if command -v npm >/dev/null; then \
		echo "js-deps: node $$(node --version) and npm $$(npm --version) already installed"; \
	elif [ "$$(id -u)" -eq 0 ]; then \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -q; \
		apt-get install -y -q --no-install-recommends nodejs npm; \
		node --version; \
	else \
		echo "js-deps: npm is missing; as root run:" >&2; \
		echo "  apt-get install nodejs npm" >&2; \
		exit 1; \
	fi

# Debian's Patroni and etcd for the failover test (tests/reliability/test_failover.py, run by
# `make soak`) and the recipe in deploy/patroni/. Idempotent: does nothing when both are
# installed; installs them as root otherwise. The packages' own services are not wanted here
# (the test starts its own cluster on loopback ports): etcd-server's is stopped and disabled.
ha-deps:
	@if command -v patroni >/dev/null && command -v etcd >/dev/null; then \
		echo "ha-deps: patroni $$(patroni --version 2>/dev/null | awk '{print $$NF}') and etcd $$(etcd --version 2>/dev/null | awk 'NR==1 {print $$NF}') already installed"; \
	elif [ "$$(id -u)" -eq 0 ]; then \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -q; \
		apt-get install -y -q --no-install-recommends patroni etcd-server etcd-client; \
		if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then \
			systemctl disable --now etcd >/dev/null 2>&1 || true; \
		fi; \
		patroni --version; etcd --version | head -1; \
	else \
		echo "ha-deps: patroni or etcd is missing; as root run:" >&2; \
		echo "  apt-get install patroni etcd-server etcd-client" >&2; \
		exit 1; \
	fi

# Debian's nginx for the load-balancer test (tests/deploy/test_nginx_balancer.py: the example
# config deploy/nginx/mtg-ledger.conf in front of two ledger workers). Idempotent: does nothing
# when nginx is installed; installs it as root otherwise. The test starts its own nginx on a
# loopback port: the package's own service (port 80) is not wanted and is stopped if it started.
lb-deps:
	@if command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; then \
		echo "lb-deps: $$(/usr/sbin/nginx -v 2>&1) already installed"; \
	elif [ "$$(id -u)" -eq 0 ]; then \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -q; \
		apt-get install -y -q --no-install-recommends nginx; \
		if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then \
			systemctl disable --now nginx >/dev/null 2>&1 || true; \
		elif [ -f /run/nginx.pid ]; then \
			/usr/sbin/nginx -s stop >/dev/null 2>&1 || true; \
		fi; \
		/usr/sbin/nginx -v; \
	else \
		echo "lb-deps: nginx is missing; as root run:" >&2; \
		echo "  apt-get install nginx" >&2; \
		exit 1; \
	fi

# Leaves ./var (the event store) alone.
clean:
	rm -rf $(VENV) node_modules .mypy_cache .ruff_cache .pytest_cache .hypothesis *.egg-info
	find . -path ./var -prune -o -type d -name __pycache__ -prune -exec rm -rf {} +
