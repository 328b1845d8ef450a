from __future__ import annotations

import os

import pytest
from django.db import connection


@pytest.fixture(autouse=True)
def _postgresql_only() -> None:
    """Row locks, deadlocks and snapshots are PostgreSQL's: the races run there (CI does)."""
    if connection.vendor != "postgresql":
        if os.environ.get("CI"):
            pytest.fail("the race suite must run on PostgreSQL in CI")
        pytest.skip("races are run on PostgreSQL (set DATABASE_URL)")


@pytest.fixture(scope="session", autouse=True)
def _commits_without_waiting_for_the_disk(
    django_db_setup: None, django_db_blocker: pytest.FixtureRequest
) -> None:
    """The races commit after every service (each thread's transaction is real), and waiting
    for the disk on every commit makes a run several times slower on a busy machine. The test
    database does not need to survive a power cut: its new sessions commit without waiting
    (``synchronous_commit``: what is committed is visible at once all the same)."""
    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock():  # type: ignore[attr-defined]
        name = connection.settings_dict["NAME"]
        with connection.cursor() as cursor:
            cursor.execute(f'ALTER DATABASE "{name}" SET synchronous_commit TO off')
        connection.close()
