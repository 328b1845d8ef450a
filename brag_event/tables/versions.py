"""Versions of what the tablets, the hall and the organisers read, so that a read that has not
changed is answered from the cache or with ``304 Not Modified`` (``core.conditional``).

``Table.version`` (a table's tablet read), ``Table.standings_version`` (the table's share of the
standings: a hand settled or reopened, a seat taken or left) and ``Event.version`` (event-wide
changes) are each bumped in the same transaction as the change they stand for. A reader takes the
version first, then reads: an answer stored under a version is never older than it
(docs/architecture.md, "Versions").
"""

from __future__ import annotations

from functools import cache
from typing import Any, Protocol

from django.db.models import F

from brag_event.core import sql
from brag_event.events import versions as event_versions
from brag_event.events.models import Day, Event

from .models import Table


def table_changed(*table_ids: int, standings: bool = False) -> None:
    """What the tables' tablets read changed (and, with ``standings``, the standings too)."""
    bump = {"version": F("version") + 1}
    if standings:
        bump["standings_version"] = F("standings_version") + 1
    Table.objects.filter(pk__in=table_ids).update(**bump)


def table_changed_statement(table_id: int, *, standings: bool = False) -> sql.Statement:
    """``table_changed`` as a statement, for a batch of the action path (``core.sql``)."""
    columns = ["version", *(["standings_version"] if standings else [])]
    sets = ", ".join(f"{sql.qn(c)} = {sql.qn(c)} + 1" for c in columns)
    return (
        f"UPDATE {sql.table(Table)} SET {sets} WHERE {sql.qn('id')} = %s",  # nosec B608
        [table_id],
    )


def event_changed(event_id: int, *, tables: bool = False) -> None:
    """Something event-wide changed (the standings and the dashboard); with ``tables``, also
    something every table of the event shows (a day's status, a player's name, the currency)."""
    event_versions.event_changed(event_id)
    if tables:
        event_tables_changed(event_id)


def event_tables_changed(event_id: int) -> None:
    """Something every table of the event shows changed (``players.versions`` asks it)."""
    Table.objects.filter(day__event_id=event_id).update(version=F("version") + 1)


class Access(Protocol):
    """Which tables a caller may read, as SQL over a table and a day alias
    (``api.roles.TableAccess``)."""

    def sql(self, table: str, day: str) -> tuple[str, list[Any]]: ...


# The versions are read by every poll of every phone, screen and tablet — hundreds a second —
# and the ORM spends more CPU compiling these queries (a sub-query with an aggregate: ~3 ms
# on this project's machine) than PostgreSQL spends running them, so they are written out
# once, portable, from the models' _meta (as core.sql does for the action path). A test
# compares them with the ORM's answers.


@cache
def _event_version_sql(column: str) -> str:
    t, d, e = "t", "d", "e"
    return (
        f"SELECT {e}.{sql.qn('version')}, COALESCE((SELECT SUM({t}.{sql.qn(column)}) "  # nosec B608
        f"FROM {sql.table(Table)} {t} JOIN {sql.table(Day)} {d} "
        f"ON {d}.{sql.qn('id')} = {t}.{sql.qn('day_id')} "
        f"WHERE {d}.{sql.qn('event_id')} = {e}.{sql.qn('id')}), 0) "
        f"FROM {sql.table(Event)} {e} WHERE {e}.{sql.qn('id')} = %s"
    )


def _event_version(event_id: int, column: str) -> tuple[int, int] | None:
    if not sql.possible_id(event_id):
        return None
    (rows,) = sql.run_batch([(_event_version_sql(column), [event_id])])
    return (int(rows[0][0]), int(rows[0][1])) if rows else None


def standings_version(event_id: int) -> tuple[int, int] | None:
    """The version of an event's standings (``None``: no such event)."""
    return _event_version(event_id, "standings_version")


def dashboard_version(event_id: int) -> tuple[int, int] | None:
    """The version of everything an event's dashboard shows but the clock."""
    return _event_version(event_id, "version")


@cache
def _table_version_sql() -> str:
    return (
        f"SELECT t.{sql.qn('version')} FROM {sql.table(Table)} t "  # nosec B608
        f"JOIN {sql.table(Day)} d ON d.{sql.qn('id')} = t.{sql.qn('day_id')} "
        f"WHERE t.{sql.qn('id')} = %s AND ({{access}})"
    )


def table_version(table_id: int, access: Access) -> int | None:
    """The version of what a table's tablet reads, if ``access`` reaches the table (else
    ``None``, as for no such table)."""
    if not sql.possible_id(table_id):
        return None
    where, params = access.sql("t", "d")
    (rows,) = sql.run_batch([(_table_version_sql().format(access=where), [table_id, *params])])
    return int(rows[0][0]) if rows else None
