# Brag Event — developer tasks (GNU make).

VENV=.venv
PY=$(VENV)/bin/python
PYTHON3?=python3

# Installs come from uv.lock, through uv (see docs/installs.md). uv is bootstrapped once per
# user, pinned, from PyPI with pip, into the user's cache (a fresh clone reuses it); uv's own
# package cache then makes an install from the lock take seconds.
UV_VERSION=0.13.9
UV_HOME?=$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/brag-event/uv-$(UV_VERSION)
UV=$(UV_HOME)/bin/uv
# uv reads no pip.conf: it asks PyPI alone (what the lock records). It trusts the system's CA
# store (this machine's egress proxy re-signs TLS), uses $(PYTHON3), never downloads a Python.
export UV_SYSTEM_CERTS?=1
export UV_PYTHON_DOWNLOADS=never
export UV_PROJECT_ENVIRONMENT=$(VENV)
# --locked: refuse a uv.lock that no longer matches pyproject.toml (run `make lock`).
SYNC=$(UV) sync --locked --python $(PYTHON3)
# Python keeps its compiled bytecode (__pycache__, in .venv and the project; .gitignore'd), as
# it does by default: an environment that sets PYTHONDONTWRITEBYTECODE=1 (this machine's does)
# makes every process compile Django, DRF and the project from source again — 3–4 s a start,
# paid by each pytest worker, each `make run` process and every server a test starts — and
# makes pytest rewrite every test module's asserts again on each run.
export PYTHONDONTWRITEBYTECODE=
FAST_WORKERS?=2
# `make test`'s pytest processes (pytest-xdist); the suite is written to run on any number. Three
# on this 2-core machine: two leave a tenth of the cores idle while tests wait on browsers,
# servers and the network they emulate; four were no faster (docs/testing.md).
TEST_WORKERS?=3
# Each test file goes whole to one worker (a fixture built once for a module — a world, Pyodide
# booted once, the production run's services — is built once), in the order tests/conftest.py
# gives: the slow files first (hence no reordering by size). (--dist loadgroup with the
# xdist_group marks tests/conftest.py sets would balance better, but pytest-xdist 3.8 under
# pytest 9.2 ignored the marks here.) See docs/testing.md.
XDIST=--dist loadfile --no-loadscope-reorder
RUN_ADDR?=127.0.0.1:8000

.DEFAULT_GOAL := help

.PHONY: help install install-runtime lock lock-check run test test-fast lint typecheck security \
	schema format bench bench-api bench-standings bench-audit bench-event bench-pieces bench-import \
	clean vendor

help:
	@echo "make run        install the runtime set, migrate, load demo data, serve on RUN_ADDR"
	@echo "                (default 127.0.0.1:8000; DEBUG=1 for Django's debug pages)"
	@echo "make test       the whole suite, as CI: lock check, lint, typecheck, security, pytest on 3 processes"
	@echo "make test-fast  engine, services and API tests (no browser, production run or slow)"
	@echo "make install    the venv with every extra (dev, bench) from uv.lock, and the vendored Pyodide"
	@echo "make lock       regenerate uv.lock after editing pyproject.toml's dependencies"
	@echo "make lint       ruff check, ruff format --check, the layers (lint-imports), radon (no block worse than D)"
	@echo "make typecheck  mypy"
	@echo "make security   bandit, and pip-audit over uv.lock (names what it could not audit)"
	@echo "make schema     write the API's OpenAPI schema to docs/openapi.yaml, and the results"
	@echo "                file's JSON Schema to docs/results-exchange.schema.json"
	@echo "make format     ruff format and ruff check --fix"
	@echo "make bench      run the engine benchmark (python -m bench.engine)"
	@echo "make bench-standings  standings page and API latency on 100,000 hands (PostgreSQL)"
	@echo "make bench-event  an event day under load (Locust; ARGS=--capacity for x1, x2, ...;"
	@echo "                 --standby with and without a synchronous standby; --audience N followers)"
	@echo "make bench-audit      ledger audit vs a bare replay on 100,000 hands (PostgreSQL)"
	@echo "make bench-pieces     an action's instructions against earlier versions and TPC-B (callgrind)"
	@echo "make bench-import     a 2,000-row players file: ms/row against a bare insert (PostgreSQL)"
	@echo "make clean      remove the venv, caches and db.sqlite3"

$(UV):
	rm -rf $(UV_HOME).part.$$$$ \
	&& $(PYTHON3) -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
		--target $(UV_HOME).part.$$$$ uv==$(UV_VERSION) \
	&& { mv -T $(UV_HOME).part.$$$$ $(UV_HOME) 2>/dev/null || rm -rf $(UV_HOME).part.$$$$; }
	@test -x $(UV)

# The tablet's Pyodide (static/vendor/pyodide.lock.json: npm's tarball, pinned by its integrity,
# fetched once into the user's cache; only the listed files, each checked by its sha256).
vendor:
	@$(PYTHON3) -m brag_event.tablet.vendor

# Every extra (dev, bench), exactly what uv.lock says (strays removed).
install: $(UV) vendor
	@$(SYNC) --all-extras || { echo "uv.lock is out of date with pyproject.toml: run make lock"; exit 1; }

# The runtime set only (what `make run` needs); leaves extras that are already installed alone.
install-runtime: $(UV) vendor
	@$(SYNC) --inexact || { echo "uv.lock is out of date with pyproject.toml: run make lock"; exit 1; }

lock: $(UV)
	$(UV) lock --python $(PYTHON3)

lock-check: $(UV)
	@$(UV) lock --check --python $(PYTHON3) || { echo "uv.lock is out of date: run make lock"; exit 1; }

# migrate and load_demo in one process (one Django start-up fewer before the first page).
# DEBUG is off unless asked for (`make run DEBUG=1`): pages then show our own error pages, as in
# production. runserver --insecure serves the static files itself with DEBUG off (staticfiles'
# runserver; production has nginx serve collectstatic's files, and no WhiteNoise).
DEBUG?=
RUN_DEBUG=$(if $(filter 1 true yes on,$(DEBUG)),true,false)
run: install-runtime
	$(PY) manage.py shell --no-imports -c "from django.core.management import call_command as c; \
		c('migrate'); c('load_demo', addr='$(RUN_ADDR)')"
	DJANGO_DEBUG=$(RUN_DEBUG) BRAG_DASHBOARD_AUDIT=true $(PY) manage.py runserver --insecure $(RUN_ADDR)

# The checks (ruff and the layers, mypy, bandit and pip-audit) run side by side — mypy is the
# longest, pip-audit mostly waits on PyPI — each with its own output (-O) and exit status: any
# failure stops make before pytest. The environment is installed once, before them.
CHECKS=lint typecheck security
test: lock-check install
	@$(MAKE) --no-print-directory -j3 -O INSTALLED=1 $(CHECKS)
	$(PY) -m pytest -n $(TEST_WORKERS) $(XDIST) --durations=40

# The quick loop: engine, services, API (see docs/testing.md), on FAST_WORKERS processes. The
# test databases are kept between runs (--reuse-db: Django's keepdb, which still applies any new
# migration; on SQLite as files under .pytest_cache/sqlite, tests/conftest.py), so a second run
# does not build them again.
test-fast: install
	$(PY) -m pytest -q -n $(FAST_WORKERS) --reuse-db -m "not browser and not production and not slow" \
		--hypothesis-profile fast \
		tests/engine tests/ledger tests/hands tests/tables tests/players tests/standings tests/events tests/closing \
		tests/api tests/integrity

# radon: no block of brag_event/ worse than D (radon cc exits 0 whatever it finds: its list must
# be empty; tests/core/test_complexity.py checks the same under pytest).
lint: $(if $(INSTALLED),,install)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	@out="$$($(VENV)/bin/radon cc -s -n E brag_event)"; \
		if [ -n "$$out" ]; then echo "$$out"; echo "blocks worse than radon's D: split them"; exit 1; fi

typecheck: $(if $(INSTALLED),,install)
	$(PY) -m mypy

# bandit over the code (asserts are invariants, see [tool.bandit]); pip-audit over uv.lock's
# pinned, hashed set (every extra) against PyPI's advisories, and every package it could not
# audit named as "not audited" (tools/dependency_audit.py; AUDIT_STRICT=1 makes those fail).
AUDIT_STRICT?=
security: $(if $(INSTALLED),,install)
	$(PY) -m bandit -q -c pyproject.toml -r brag_event
	$(UV) export --frozen --all-extras --no-emit-project --format requirements-txt --quiet \
		-o $(VENV)/locked-requirements.txt
	$(PY) -m tools.dependency_audit $(if $(AUDIT_STRICT),--strict) $(VENV)/locked-requirements.txt

# The published API contract (docs/api.md, "Generating a client"); a test checks it is current.
schema: install
	$(PY) manage.py spectacular --validate --fail-on-warn --file docs/openapi.yaml
	cp brag_event/closing/exchange/results-exchange.schema.json docs/results-exchange.schema.json

format: install
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

bench: install
	$(PY) -m bench.engine

bench-api: install
	$(PY) -m bench.api

bench-standings: install
	$(PY) -m bench.standings

# The event day: 50 tablets, 300 phones, 2 big screens and a dashboard against gunicorn,
# PostgreSQL and Redis as deploy/ runs them; ARGS=--capacity goes x1, x2, ... until a target
# breaks (python -m bench.event --help).
bench-event: install
	$(PY) -m bench.event $(ARGS)

bench-audit: install
	$(PY) -m bench.audit

bench-pieces: install
	$(PY) -m bench.pieces $(ARGS)

# A file of 2,000 players: the preview and the confirmation, ms a row against a bare ORM insert
# of a player row measured in the same run, and the organiser's two requests (python -m
# bench.imports --help).
bench-import: install
	$(PY) -m bench.imports $(ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis *.egg-info db.sqlite3
	find . -path ./.git -prune -o -type d -name __pycache__ -prune -exec rm -rf {} +
