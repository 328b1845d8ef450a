"""Shared pytest set-up (pytest-django provides ``client``, ``db``, ``settings`` ...)."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.signals import request_finished, request_started
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


FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    """Real password hashing costs seconds per user; tests do not need its strength."""
    settings.PASSWORD_HASHERS = FAST_HASHERS


@pytest.fixture(autouse=True)
def _writes_unthrottled(monkeypatch: pytest.MonkeyPatch) -> None:
    """No write throttle: a test enters faster than any dealer (tests/api/test_throttles.py
    turns it on)."""
    from brag_event.api.throttles import WriteThrottle

    monkeypatch.setattr(WriteThrottle, "THROTTLE_RATES", {})


class InFlight:
    """The live test server's requests in flight, from Django's request signals (the server
    answers each request in a thread of this process)."""

    def __init__(self) -> None:
        self.count = 0
        self.changed = threading.Condition()

    def started(self, **_: Any) -> None:
        with self.changed:
            self.count += 1

    def finished(self, **_: Any) -> None:
        with self.changed:
            self.count -= 1
            self.changed.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.count <= 0, timeout)


@pytest.fixture(autouse=True)
def _live_requests_drained(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test on the live server ends only once the server has answered every request it had
    begun — a page's poll still being answered held its tables' locks when the test database
    was flushed, and the flush deadlocked against it (seen once in CI).

    The database fixture is set up here, first, so that it is torn down (flushed) after this
    fixture's wait; the fixtures that close the browser's pages are set up later, so they are
    torn down before it, and no new poll starts while it waits."""
    if "live_server" not in request.fixturenames or "transactional_db" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("transactional_db")
    flight = InFlight()
    request_started.connect(flight.started, weak=False)
    request_finished.connect(flight.finished, weak=False)
    try:
        yield
        assert flight.wait_idle(timeout=30), "the live server was still answering after 30 s"
    finally:
        request_started.disconnect(flight.started)
        request_finished.disconnect(flight.finished)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One browser for a module, closed before other modules start their own (Playwright's sync
    API allows one running instance per thread)."""
    from tests.browser import launched_chromium

    with launched_chromium() as launched:
        yield launched
