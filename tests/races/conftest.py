from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from celery._state import _set_task_join_will_block, task_join_will_block
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


@pytest.fixture(autouse=True)
def _celery_join_flag() -> Iterator[None]:
    """Celery's eager ``apply()`` sets a process-wide flag around each task and then puts back the
    value it found; two day closes run eagerly at once, in two threads of a race, can leave it set
    — and a later test's ``result.get()`` refused as if it ran inside a task. Put it back."""
    before = task_join_will_block()
    yield
    _set_task_join_will_block(before)
