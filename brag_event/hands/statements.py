"""The row locks that start a hand's services: the hand with its table, day and live log (an
action, a void, the floor's rulings; through the ORM), and the table with its day (a hand's
start; one hand-written statement with the caller's access, see ``core.sql``). The services
call them inside their own transaction."""

from __future__ import annotations

from functools import cache
from typing import Any, Protocol

from django.db import connection
from django.db.models import QuerySet

from brag_event.core import sql
from brag_event.events.models import Day
from brag_event.tables.models import Table

from .models import Hand
from .money import LogRow
from .selectors import hand_log


class Access(Protocol):
    """Which tables a caller may operate: as a queryset, and as SQL over a table and a day
    alias (``api.roles.TableAccess``; a test checks that the two agree)."""

    def tables(self) -> QuerySet[Table]: ...

    def sql(self, table: str, day: str) -> tuple[str, list[Any]]: ...


def lock_hand(pk: int, access: Access | None) -> tuple[Hand, list[LogRow]] | None:
    """The hand with its table and day, its row locked to the end of the transaction, and its
    live log — or ``None`` if there is no such hand or ``access`` does not reach its table.

    The log is read after the lock was granted, by a statement of its own: in PostgreSQL's
    ``READ COMMITTED`` its snapshot then includes every action committed before (every change
    to a hand's log happens under this lock)."""
    if not sql.possible_id(pk):
        return None
    hands = Hand.objects.select_related("table__day").select_for_update(of=("self",), no_key=True)
    if access is not None:
        hands = hands.filter(table__in=access.tables())
    hand = hands.filter(pk=pk).first()
    if hand is None:
        return None
    return hand, hand_log(hand)


@cache
def _lock_table_sql() -> str:
    return (
        f"SELECT {sql.columns(Table, 't')}, {sql.columns(Day, 'd')} "  # nosec B608
        f"FROM {sql.table(Table)} t "
        f"JOIN {sql.table(Day)} d ON d.{sql.qn('id')} = t.{sql.qn('day_id')} "
        f"WHERE t.{sql.qn('id')} = %s AND ({{access}})" + sql.for_update_of("t")
    )


def _day_play_sql() -> sql.Statement | None:
    """A statement that share-locks the day of the table given as its one parameter, as
    ``events.states.day_for_play`` does, to go out in one batch before the statement that locks
    the table; ``None`` where there are no row locks (SQLite)."""
    if connection.vendor != "postgresql":
        return None
    query = (
        f"SELECT 1 FROM {sql.table(Day)} d WHERE d.{sql.qn('id')} = "  # nosec B608
        f"(SELECT t.{sql.qn('day_id')} FROM {sql.table(Table)} t "
        f"WHERE t.{sql.qn('id')} = %s) FOR SHARE OF d"
    )
    return query, []


def lock_table(pk: int, access: Access | None, *, for_play: bool = False) -> Table | None:
    """The table with its day, its row locked to the end of the transaction, or ``None`` if
    there is no such table or ``access`` does not reach it. With ``for_play``, the day's row is
    share-locked first (``events.states.day_for_play``), in the same round trip: the day's
    state read here holds until the transaction ends."""
    if not sql.possible_id(pk):
        return None
    where, params = access.sql("t", "d") if access is not None else ("1 = 1", [])
    batch: list[sql.Statement] = []
    day_lock = _day_play_sql() if for_play else None
    if day_lock is not None:
        batch.append((day_lock[0], [pk]))
    batch.append((_lock_table_sql().format(access=where), [pk, *params]))
    found = sql.run_batch(batch)[-1]
    if not found:
        return None
    row = found[0]
    table, at = sql.hydrate(Table, row)
    table.day, _ = sql.hydrate(Day, row, at)
    return table
