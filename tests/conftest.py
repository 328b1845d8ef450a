"""Shared pytest set-up (pytest-django provides ``client``, ``db``, ``settings`` ...)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

# In CI the property tests run the same examples every time (a failure there is reproducible and
# never a coin toss); locally they explore new examples on every run.
hypothesis_settings.register_profile("ci", derandomize=True)
# `make test-fast` (--hypothesis-profile fast): a few examples of every property, for a quick
# loop; `make test` and CI run them all.
hypothesis_settings.register_profile("fast", max_examples=10)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")


PRODUCTION_DIR = Path(__file__).parent / "production"
BROWSER_FIXTURES = {"browser", "chromium"}  # tests/tablet/conftest.py, the standings' browser


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tiers of ``make test-fast`` by where a test lives and what it uses: everything under
    tests/production is ``production``; every test that needs a browser fixture is ``browser``
    (``slow`` is marked by the tests themselves)."""
    for item in items:
        if PRODUCTION_DIR in Path(item.path).parents:
            item.add_marker(pytest.mark.production)
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    """Real password hashing costs seconds per user; tests do not need its strength."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One browser for a module, closed before other modules start their own (Playwright's sync
    API allows one running instance per thread)."""
    from tests.browser import launched_chromium

    with launched_chromium() as launched:
        yield launched
