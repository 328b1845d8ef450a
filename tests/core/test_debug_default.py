"""DEBUG is off unless asked for: a debug page shows settings and code to whoever causes an error.
Only ``make run`` (the development server) asks for it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.processes import python_code

ROOT = Path(__file__).resolve().parents[2]


def debug_with(**env_changes: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_DEBUG"}
    env.update(DJANGO_SETTINGS_MODULE="brag_event.settings", **env_changes)
    done = python_code("from django.conf import settings; print(settings.DEBUG)", env, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_debug_is_off_when_nobody_asks() -> None:
    assert debug_with() == "False"
    assert debug_with(DJANGO_DEBUG="") == "False"


@pytest.mark.parametrize(("value", "debug"), [("true", "True"), ("1", "True"), ("false", "False")])
def test_debug_follows_what_is_asked(value: str, debug: str) -> None:
    assert debug_with(DJANGO_DEBUG=value) == debug


def test_make_run_asks_for_debug_and_only_it() -> None:
    makefile = (ROOT / "Makefile").read_text()
    run = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "DJANGO_DEBUG=true BRAG_DASHBOARD_AUDIT=true $(PY) manage.py runserver" in run
    assert makefile.count("DJANGO_DEBUG=true") == 1
