# Brag Event — developer tasks (GNU make).

VENV=.venv
PY=$(VENV)/bin/python
PYTHON3?=python3

.DEFAULT_GOAL := help

.PHONY: help install run test lint typecheck security format bench bench-api bench-standings bench-event clean

help:
	@echo "make run        install, migrate, load demo data (if available), serve on 127.0.0.1:8000"
	@echo "make test       lint + typecheck + pytest"
	@echo "make lint       ruff check and ruff format --check"
	@echo "make typecheck  mypy"
	@echo "make security   bandit and pip-audit"
	@echo "make format     ruff format and ruff check --fix"
	@echo "make bench      run the engine benchmark (python -m bench.engine)"
	@echo "make bench-standings  standings page and API latency on 100,000 hands (PostgreSQL)"
	@echo "make bench-event  an event day under load (Locust; ARGS=--capacity for x1, x2, ...)"
	@echo "make clean      remove the venv, caches and db.sqlite3"

# Re-install whenever pyproject.toml changes.
$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON3) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install -e '.[dev,bench]'
	touch $@

install: $(VENV)/.installed

# DEBUG is off unless asked for; the development server asks (error pages, static files).
run: install
	$(PY) manage.py migrate
	$(PY) manage.py load_demo
	DJANGO_DEBUG=true $(PY) manage.py runserver 127.0.0.1:8000

test: install lint typecheck security
	$(PY) -m pytest

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

typecheck: install
	$(PY) -m mypy

# bandit over the code (asserts are invariants, see [tool.bandit]); pip-audit over the installed
# packages against PyPI's advisories (packages PyPI does not list are reported, not audited).
security: install
	$(PY) -m bandit -q -c pyproject.toml -r brag_event
	$(PY) -m pip_audit --progress-spinner off

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

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis *.egg-info db.sqlite3
	find . -path ./.git -prune -o -type d -name __pycache__ -prune -exec rm -rf {} +
