"""What PostgreSQL says about its standby, its WAL archive and its last base backup (issue 46),
for ``/readyz`` and the organisers' dashboard: the figures, and alerts in words when one falls
behind or is down.

Everything comes from PostgreSQL's own views on the primary: ``pg_stat_replication`` (the
standby connected, its state, its lag), ``synchronous_standby_names`` (whether commits wait for
it), ``pg_stat_archiver`` (the last archived WAL segment, the last failure) and the table
``brag_ops.base_backup`` that ``deploy/base-backup.sh`` writes a row into after each nightly
base backup. The lag columns and the standby's address need the ``pg_monitor`` role for a user
that is not a superuser (``GRANT pg_monitor TO brag``); without it the standby still shows as
connected or not. On SQLite nothing applies and nothing is said."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

_STANDBYS = """
SELECT application_name, state, sync_state,
       EXTRACT(EPOCH FROM replay_lag)::float8,
       pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::bigint
FROM pg_stat_replication ORDER BY application_name
"""
_ARCHIVER = """
SELECT current_setting('archive_mode'), archived_count, last_archived_wal, last_archived_time,
       failed_count, last_failed_wal, last_failed_time,
       pg_walfile_name(pg_current_wal_lsn())
FROM pg_stat_archiver
"""
_BASE_BACKUP = """
SELECT finished_at, label FROM brag_ops.base_backup ORDER BY finished_at DESC LIMIT 1
"""


@dataclass
class Standby:
    name: str
    state: str | None  # streaming, catchup, backup, startup; None: hidden (no pg_monitor)
    sync: str  # sync, quorum, potential, async
    lag_seconds: float | None
    lag_bytes: int | None


@dataclass
class Replication:
    applies: bool = False  # PostgreSQL, and the primary (not in recovery)
    standbys: list[Standby] = field(default_factory=list)
    synchronous: str = ""  # synchronous_standby_names
    archive_mode: str = "off"
    last_archived_wal: str = ""
    last_archived_at: dt.datetime | None = None
    archive_failed_at: dt.datetime | None = None
    archive_behind: int = 0  # whole WAL segments written but not archived yet
    base_backup_at: dt.datetime | None = None
    alerts: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        def when(t: dt.datetime | None) -> str | None:
            return t.isoformat() if t else None

        return {
            "ok": not self.alerts,
            "standbys": [
                {
                    "name": s.name,
                    "state": s.state,
                    "sync": s.sync,
                    "lag_seconds": s.lag_seconds,
                    "lag_bytes": s.lag_bytes,
                }
                for s in self.standbys
            ],
            "synchronous_standby_names": self.synchronous,
            "archive": {
                "mode": self.archive_mode,
                "last_archived_wal": self.last_archived_wal or None,
                "last_archived_at": when(self.last_archived_at),
                "failed_at": when(self.archive_failed_at),
                "segments_waiting": self.archive_behind,
            },
            "last_base_backup_at": when(self.base_backup_at),
            "alerts": self.alerts,
        }


def _segment(name: str) -> int:
    """A WAL file name's position (log and segment; 16 MB segments), the timeline left out."""
    return int(name[8:16], 16) * 0x100 + int(name[16:24], 16)


def _clock(t: dt.datetime, tz: dt.tzinfo | None) -> str:
    local = timezone.localtime(t, tz) if tz is not None else timezone.localtime(t)
    if local.date() == timezone.localtime(timezone.now(), local.tzinfo).date():
        return f"{local:%H:%M %Z}"
    return f"{local:%-d %b %H:%M %Z}"


def replication_status(*, tz: dt.tzinfo | None = None) -> Replication:
    """The figures and the alerts; times in the alerts' words in ``tz`` (the event's zone)."""
    out = Replication()
    if connection.vendor != "postgresql":
        return out
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_is_in_recovery(), current_setting('synchronous_standby_names')")
        row = cursor.fetchone()
        if row is None or row[0]:
            return out  # a standby being read: its primary speaks for both
        out.applies = True
        out.synchronous = row[1] or ""
        cursor.execute(_STANDBYS)
        out.standbys = [Standby(*r) for r in cursor.fetchall()]
        cursor.execute(_ARCHIVER)
        a = cursor.fetchone()
        assert a is not None
        out.archive_mode = a[0]
        out.last_archived_wal = a[2] or ""
        out.last_archived_at, out.archive_failed_at = a[3], a[6]
        if out.archive_mode != "off" and out.last_archived_wal[:24].isalnum():
            behind = _segment(a[7]) - _segment(out.last_archived_wal[:24]) - 1
            out.archive_behind = max(behind, 0)
        try:
            # In a savepoint: the table missing must not spoil a transaction around this.
            with transaction.atomic(), connection.cursor() as c2:
                c2.execute(_BASE_BACKUP)
                b = c2.fetchone()
            out.base_backup_at = b[0] if b else None
        except DatabaseError:
            out.base_backup_at = None  # no base backup was ever recorded here
    _alerts(out, tz)
    return out


def _alerts(r: Replication, tz: dt.tzinfo | None) -> None:
    # A user without pg_monitor sees its standbys' rows with the state hidden (NULL): present.
    streaming = [s for s in r.standbys if s.state in ("streaming", None)]
    expected = settings.BRAG_EXPECT_STANDBY or bool(r.synchronous)
    if expected and not streaming:
        if r.synchronous:
            r.alerts.append(
                "The standby database is not connected, and the primary waits for it before it "
                "confirms a write: entries are held until the standby is back or the sync guard "
                "lets the primary go on alone (within seconds)."
            )
        else:
            r.alerts.append(
                "The standby database is not connected: the primary goes on alone, and what is "
                "entered now is on one machine only until the standby is back."
            )
    elif expected and not r.synchronous:
        r.alerts.append(
            "The standby is back but not yet waited for: writes are on one machine only until "
            "it has caught up and the sync guard turns synchronous commit back on."
        )
    for s in streaming:
        if s.lag_seconds is not None and s.lag_seconds >= settings.BRAG_STANDBY_LAG_ALERT:
            r.alerts.append(f"The standby is {s.lag_seconds:.0f} seconds behind the primary.")
    if r.archive_mode != "off":
        if r.archive_failed_at and (
            r.last_archived_at is None or r.archive_failed_at > r.last_archived_at
        ):
            since = (
                f"the last success was at {_clock(r.last_archived_at, tz)}"
                if r.last_archived_at
                else "nothing has been archived yet"
            )
            r.alerts.append(
                "Archiving the database's changes is failing: "
                f"{since}, and a restore can only rewind to then."
            )
        elif r.archive_behind >= settings.BRAG_ARCHIVE_BEHIND_ALERT:
            r.alerts.append(f"Archiving the database's changes is {r.archive_behind} files behind.")
        hours = settings.BRAG_BASE_BACKUP_ALERT_HOURS
        if r.base_backup_at is None:
            r.alerts.append("No full backup of the database has been taken yet.")
        elif timezone.now() - r.base_backup_at > dt.timedelta(hours=hours):
            r.alerts.append(
                f"The last full backup of the database is from {_clock(r.base_backup_at, tz)}, "
                f"more than {hours:g} hours ago."
            )
