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
SHARED_SCOPES = {"module", "package", "class"}


def shares_a_fixture(item: pytest.Item) -> bool:
    """Whether the test uses one of our fixtures built once for its module (or class or
    package): a browser, a world rolled back after each test, a generated client... (Plugins'
    fixtures, such as pytest-django's class-scoped one for every test, do not count.)"""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(
        defs and defs[-1].scope in SHARED_SCOPES and defs[-1].baseid
        for defs in info.name2fixturedefs.values()
    )


def module_of(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> Iterator[None]:
    """The tiers of ``make test-fast`` by where a test lives and what it uses: everything under
    tests/production is ``production``; every test that needs a browser fixture is ``browser``
    (``slow`` is marked by the tests themselves).

    Under pytest-xdist (``make test``: ``-n 2 --dist loadfile``, each file to one worker) the
    tests of a module that shares one of our fixtures across its tests are also marked one
    ``xdist_group`` (for ``--dist loadgroup``, which would spread every other test one by one;
    pytest-xdist 3.8 under pytest 9.2 ignored the marks when tried). The
    slow and production tests are handed out first, then the browser tests, then the rest (each
    in the order pytest-django gives), so that the run does not end with one worker alone on a
    test of minutes (``tier_rank``; see docs/testing.md)."""
    # Before the plugins' own: pytest-xdist reads the groups from the marks.
    for item in items:
        if PRODUCTION_DIR in Path(item.path).parents:
            item.add_marker(pytest.mark.production)
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
    parallel = bool(os.environ.get("PYTEST_XDIST_WORKER"))
    grouped = {module_of(item) for item in items if shares_a_fixture(item)} if parallel else set()
    for item in items:
        if module_of(item) in grouped:
            item.add_marker(pytest.mark.xdist_group(module_of(item)))
    yield
    if not parallel:
        return  # one process: the order of the files (as pytest-django sorts them)

    # After them: pytest-django has put the tests in Django's order, kept within each rank.
    def unit(item: pytest.Item) -> str:
        return module_of(item) if module_of(item) in grouped else item.nodeid

    rank: dict[str, int] = {}  # a grouped module goes out whole, at its most urgent test's rank
    for item in items:
        rank[unit(item)] = min(rank.get(unit(item), 4), tier_rank(item))
    first: dict[str, int] = {}  # a grouped module stays in one piece, where its first test was
    for n, item in enumerate(items):
        first.setdefault(unit(item), n)
    order = {id(item): n for n, item in enumerate(items)}
    items.sort(key=lambda item: (rank[unit(item)], first[unit(item)], order[id(item)]))


def tier_rank(item: pytest.Item) -> int:
    """How early the test is handed out: the longest kinds first (the production run takes
    minutes; Pyodide's tests tens of seconds to minutes; the other slow tests seconds each),
    then the browser tests, then the rest."""
    marks = {mark.name for mark in item.iter_markers()}
    if "production" in marks:
        return 0
    if "slow" in marks:
        return 1 if "browser" in marks else 2
    return 3 if "browser" in marks else 4


@pytest.fixture(scope="session")
def django_db_modify_db_settings(request: pytest.FixtureRequest) -> None:
    """With ``--reuse-db`` on SQLite (``make test-fast``), each process's test database is a file
    kept between runs (``.pytest_cache/sqlite/test.sqlite3_gwN``), as pytest-django keeps
    PostgreSQL's: the next run applies only new migrations instead of building the database
    from all of them (10-11 s a process here); ``--create-db`` builds it afresh. Without
    ``--reuse-db`` the test database stays in memory, as Django makes it."""
    from django.conf import settings

    default = settings.DATABASES["default"]
    if request.config.getoption("reuse_db") and default["ENGINE"].endswith("sqlite3"):
        folder = Path(str(request.config.rootpath)) / ".pytest_cache" / "sqlite"
        folder.mkdir(parents=True, exist_ok=True)
        default.setdefault("TEST", {})["NAME"] = str(folder / "test.sqlite3")
        # A cache of the tests, not data to keep: no waiting for the disk on each commit.
        default.setdefault("OPTIONS", {})["init_command"] = "PRAGMA synchronous=OFF"
    # pytest-django's own: a name per pytest-xdist process (test.sqlite3_gw0, ...).
    request.getfixturevalue("django_db_modify_db_settings_parallel_suffix")


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


@pytest.fixture(autouse=True)
def _rota_reach_forgotten() -> None:
    """The rota's reach kept in this process's memory (``tables.rota.rota_reach``) is one
    test's: ids of a database rolled back come again in the next test."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    from brag_event.tables.rota import REACH_CACHE

    cache = caches[REACH_CACHE]
    if isinstance(cache, LocMemCache):
        cache.clear()


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


@pytest.fixture(autouse=True)
def csp_violations(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every browser test fails on anything the Content-Security-Policy refused in its pages
    (``tests.browser.Watched``): since the previous browser test's check, so what a fixture
    shared by a module's tests did (booting the offline engine) is checked too."""
    if not BROWSER_FIXTURES & set(request.fixturenames):
        yield
        return
    browser = request.getfixturevalue("chromium")
    yield
    refused = browser.take_refused()
    assert not refused, "The Content-Security-Policy refused:\n" + "\n".join(refused)


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """One headless Chromium for the whole run of this process, shared by every browser test
    (the tablets' ``browser`` is this one too): Playwright's sync API allows one running
    instance per thread, and under pytest-xdist a worker's modules come in any order. Each test
    opens contexts of its own."""
    from tests.browser import launched_chromium

    with launched_chromium() as launched:
        yield launched
