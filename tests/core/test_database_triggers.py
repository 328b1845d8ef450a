"""Every trigger the migrations create is in the migrated database (PostgreSQL or SQLite): on
SQLite, a later migration that adds a column rebuilds the table and loses its triggers (the
identity triggers of events 0009 were lost so, and put back by 0015)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
CREATED = re.compile(r"CREATE TRIGGER (?:IF NOT EXISTS )?([a-z_]+)")


def created_by_migrations() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "brag_event").glob("*/migrations/*.py"):
        names |= set(CREATED.findall(path.read_text(encoding="utf-8")))
    return names


def in_database() -> set[str]:
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        else:
            cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        return {row[0] for row in cursor.fetchall()}


def test_every_trigger_of_the_migrations_is_in_the_database() -> None:
    expected = created_by_migrations()
    assert {"events_day_identity_fixed", "ledger_transfer_append_only"} <= expected
    assert sorted(expected - in_database()) == []
