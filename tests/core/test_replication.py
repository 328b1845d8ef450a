"""The standby, WAL archive and base backup alerts (core.replication) in words, from the figures
PostgreSQL gives; on SQLite nothing applies. The real thing is in tests/production/test_standby.py
(a standby stopped, promoted; the archive replayed)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from brag_event.core.replication import Replication, Standby, _alerts, _segment, replication_status

UTC = dt.UTC


def streaming(lag: float | None = 0.1) -> Standby:
    return Standby("brag_standby", "streaming", "sync", lag, 0)


def alerts(r: Replication) -> list[str]:
    _alerts(r, UTC)
    return r.alerts


def healthy(**kw: Any) -> Replication:
    now = timezone.now()
    base = {
        "applies": True,
        "standbys": [streaming()],
        "synchronous": "brag_standby",
        "archive_mode": "on",
        "last_archived_wal": "000000010000000000000007",
        "last_archived_at": now,
        "base_backup_at": now - dt.timedelta(hours=3),
    }
    return Replication(**{**base, **kw})


def test_all_well_says_nothing() -> None:
    assert alerts(healthy()) == []


def test_the_standby_gone_while_commits_wait_says_the_writes_are_held(settings: Any) -> None:
    settings.BRAG_EXPECT_STANDBY = True
    (alert,) = alerts(healthy(standbys=[]))
    assert "waits for it before it confirms a write" in alert


def test_the_standby_gone_after_the_guard_says_one_machine_only(settings: Any) -> None:
    settings.BRAG_EXPECT_STANDBY = True
    (alert,) = alerts(healthy(standbys=[], synchronous=""))
    assert "the primary goes on alone" in alert and "one machine only" in alert
    # A deploy without a standby says nothing about one.
    settings.BRAG_EXPECT_STANDBY = False
    assert alerts(healthy(standbys=[], synchronous="")) == []


def test_a_standby_seen_without_pg_monitor_counts_as_connected(settings: Any) -> None:
    settings.BRAG_EXPECT_STANDBY = True
    hidden = Standby("brag_standby", None, None, None, None)  # type: ignore[arg-type]
    assert alerts(healthy(standbys=[hidden])) == []


def test_lag_archive_and_base_backup_alerts(settings: Any) -> None:
    settings.BRAG_STANDBY_LAG_ALERT = 10
    (lag,) = alerts(healthy(standbys=[streaming(42.4)]))
    assert lag == "The standby is 42 seconds behind the primary."
    now = timezone.now()
    (failing,) = alerts(
        healthy(last_archived_at=now - dt.timedelta(minutes=5), archive_failed_at=now)
    )
    assert failing.startswith("Archiving the database's changes is failing: the last success")
    (behind,) = alerts(healthy(archive_behind=5))
    assert behind == "Archiving the database's changes is 5 files behind."
    (none,) = alerts(healthy(base_backup_at=None))
    assert none == "No full backup of the database has been taken yet."
    (old,) = alerts(healthy(base_backup_at=now - dt.timedelta(hours=30)))
    assert "more than 26 hours ago" in old


def test_wal_file_names_count_segments() -> None:
    assert _segment("00000001000000020000000A") - _segment("0000000100000001000000FE") == 12


@pytest.mark.django_db
def test_with_no_standby_expected_readyz_stays_ready(client: Client) -> None:
    """On SQLite nothing applies; on a PostgreSQL with no standby named and no archive (the
    test server), the figures apply and raise no alert."""
    from django.db import connection

    status = replication_status()
    body = client.get("/readyz").json()
    assert body["checks"]["replication"]["ok"] is True
    if connection.vendor == "postgresql":
        assert status.applies is True and status.alerts == [] and status.synchronous == ""
    else:
        assert status.applies is False
        assert body["checks"]["replication"] == {"ok": True, "applies": False}
