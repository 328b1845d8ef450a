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
