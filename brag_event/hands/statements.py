"""The statements of the action path, written out once (see ``core.sql`` for why).

Each function is one statement; the services decide when to call them, inside their own
transaction."""

from __future__ import annotations

import json
from functools import cache
from typing import Any, Protocol

from django.db import connection
from django.utils import timezone

from brag_event.core import sql
from brag_event.events.models import Day
from brag_event.tables.models import Table

from .models import ENTRY_FIELDS, ActionVoid, Hand, HandAction
from .money import LogRow


class Access(Protocol):
    """Which tables a caller may operate, as SQL over a table and a day alias."""

    def sql(self, table: str, day: str) -> tuple[str, list[Any]]: ...


@cache
def _lock_hand_sql(one_statement: bool) -> str:
    extra = ""
    if one_statement:
        # The hand's row as this statement's snapshot saw it, and the log in that snapshot.
        extra = (
            f", (SELECT s.{sql.qn('next_seq')} FROM {sql.table(Hand)} s "  # nosec B608
            f"WHERE s.{sql.qn('id')} = h.{sql.qn('id')}), "
            f"(SELECT json_agg(json_build_array(a.{sql.qn('seq')}, a.{sql.qn('seat')}, "
            f"a.{sql.qn('action')}, a.{sql.qn('amount')}, a.{sql.qn('hand_choice')}, "
            f"a.{sql.qn('cards')}) ORDER BY a.{sql.qn('seq')}) "
            f"FROM ({_live_log_sql().replace('= %s', '= h.' + sql.qn('id'))}) a)"
        )
    return (
        f"SELECT {sql.columns(Hand, 'h')}, {sql.columns(Table, 't')}, {sql.columns(Day, 'd')}"  # nosec B608
        f"{extra} "
        f"FROM {sql.table(Hand)} h "
        f"JOIN {sql.table(Table)} t ON t.{sql.qn('id')} = h.{sql.qn('table_id')} "
        f"JOIN {sql.table(Day)} d ON d.{sql.qn('id')} = t.{sql.qn('day_id')} "
        f"WHERE h.{sql.qn('id')} = %s AND ({{access}})" + sql.for_update_of("h")
    )


def lock_hand(pk: int, access: Access | None) -> tuple[Hand, list[LogRow]] | None:
    """The hand with its table and day, its row locked to the end of the transaction, and its
    live log — or ``None`` if there is no such hand or ``access`` does not reach its table.

    The log must include every action committed before the lock was granted. On PostgreSQL
    one statement reads both: it also returns the hand's ``next_seq`` as its snapshot saw it.
    Every change to a hand's log also changes that sequence, under this same row lock; so if
    the locked row's sequence is the snapshot's, nothing was committed after the snapshot and
    its log is complete. If not — the statement waited for another device's action — the log
    is read again, by a statement whose snapshot starts after the lock. Elsewhere (SQLite,
    where a writer holds the whole database) the two reads simply follow each other."""
    if not sql.possible_id(pk):
        return None
    where, params = access.sql("t", "d") if access is not None else ("1 = 1", [])
    one = connection.features.has_select_for_update_of and connection.vendor == "postgresql"
    if one:
        (found,) = sql.run_batch([(_lock_hand_sql(True).format(access=where), [pk, *params])])
        log = None
    else:
        found, log = sql.run_batch(
            [(_lock_hand_sql(False).format(access=where), [pk, *params]), (_live_log_sql(), [pk])]
        )
    if not found:
        return None
    row = found[0]
    hand, at = sql.hydrate(Hand, row)
    table, at = sql.hydrate(Table, row, at)
    day, at = sql.hydrate(Day, row, at)
    table.day = day
    hand.table = table
    if one:
        seen_seq, entries = row[at], row[at + 1]
        if seen_seq == hand.next_seq:
            entries = json.loads(entries) if isinstance(entries, str) else entries
            return hand, [tuple(e) for e in entries or []]  # type: ignore[misc]
        (log,) = sql.run_batch([(_live_log_sql(), [pk])])
    return hand, [tuple(r) for r in log or []]  # type: ignore[misc]


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


@cache
def _live_log_sql() -> str:
    return (
        f"SELECT {', '.join(f'a.{sql.qn(n)}' for n in ENTRY_FIELDS)} "  # nosec B608
        f"FROM {sql.table(HandAction)} a WHERE a.{sql.qn('hand_id')} = %s AND NOT EXISTS "
        f"(SELECT 1 FROM {sql.table(ActionVoid)} v "
        f"WHERE v.{sql.qn('action_id')} = a.{sql.qn('id')}) ORDER BY a.{sql.qn('seq')}"
    )


_ACTION_COLUMNS = ("hand_id", *ENTRY_FIELDS, "entered_by_id", "device", "entered_at", "hash")


@cache
def _insert_action_sql() -> str:
    return (
        f"INSERT INTO {sql.table(HandAction)} ({', '.join(sql.qn(n) for n in _ACTION_COLUMNS)}) "  # nosec B608
        f"VALUES ({', '.join(['%s'] * len(_ACTION_COLUMNS))}) RETURNING {sql.qn('id')}"
    )


def insert_action(
    *,
    hand_id: int,
    seq: int,
    seat: int | None,
    action: str,
    amount: int | None,
    hand_choice: str,
    cards: str,
    entered_by_id: int | None,
    device: str,
    digest: str,
) -> tuple[sql.Statement, HandAction]:
    """The INSERT of one action (returning its id), and the row as it will be stored. A
    second action with the same ``seq`` fails the (hand, seq) constraint (``IntegrityError``)."""
    now = timezone.now()
    values = [hand_id, seq, seat, action, amount, hand_choice, cards, entered_by_id, device]
    values.append(connection.ops.adapt_datetimefield_value(now))
    values.append(digest)
    row = HandAction(
        hand_id=hand_id,
        seq=seq,
        seat=seat,
        action=action,
        amount=amount,
        hand_choice=hand_choice,
        cards=cards,
        entered_by_id=entered_by_id,
        device=device,
        entered_at=now,
        hash=digest,
    )
    return (_insert_action_sql(), values), row


def action_id(hand_id: int, seq: int) -> sql.Statement:
    """SQL for the id of the hand's action ``seq`` (usable in the batch that inserts it)."""
    return (
        f"(SELECT {sql.qn('id')} FROM {sql.table(HandAction)} "  # nosec B608
        f"WHERE {sql.qn('hand_id')} = %s AND {sql.qn('seq')} = %s)",
        [hand_id, seq],
    )


def update_hand(hand: Hand, fields: list[str]) -> sql.Statement:
    """The UPDATE of ``fields`` of ``hand`` (what ``save(update_fields=…)`` would write)."""
    return _update(hand, fields)


def update_table(table: Table, fields: list[str]) -> sql.Statement:
    """The UPDATE of ``fields`` of ``table`` (what ``save(update_fields=…)`` would write)."""
    return _update(table, fields)


def _update(instance: Hand | Table, fields: list[str]) -> sql.Statement:
    meta = instance._meta
    sets, values = [], []
    for name in fields:
        field = meta.get_field(name)
        sets.append(f"{sql.qn(field.column)} = %s")  # type: ignore[union-attr]
        values.append(
            field.get_db_prep_save(getattr(instance, field.attname), connection)  # type: ignore[union-attr]
        )
    query = f"UPDATE {sql.table(type(instance))} SET {', '.join(sets)} WHERE {sql.qn('id')} = %s"  # nosec B608
    return query, [*values, instance.pk]
