"""The event's money record as the apps that write on it see it: its entries' hashing, the
kinds of rows registered on it and the locked record row, below every domain app.

The record (``ledger.record``: what it is, its entries, its audit) is kept by the ledger, whose
``MoneyRecord`` row holds each event's head; the players, the tables, the floor and the close
write their own rows onto it. So that the players and the tables, below the ledger, import
nothing of it, what they write with is here: :func:`record_append` and :func:`record_extend`
chain entries onto a record row, :func:`register_record_source` says where a kind of row is
stored for the audit, and :func:`record_for_change` gives the event's record row locked, through
a port the ledger fills when its app is ready (``ledger.apps``), as ``tables.floor_rules``
(docs/architecture.md, "The domain's order"). The stored rows stay where they are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from django.db import connection

from brag_event.core import sql
from brag_event.engine import chain

from .models import Event

_record_row: list[Callable[[int], Any]] = []


def record_row_register(row_for_change: Callable[[int], Any]) -> None:
    """The ledger's answer to :func:`record_for_change` (once, when the ledger app is ready)."""
    _record_row[:] = [row_for_change]


def record_for_change(event_id: int) -> Any:
    """The event's record row (a ``ledger.models.MoneyRecord``), created if it has none yet,
    locked for the transaction."""
    assert _record_row, "the ledger app registers its record row when it is ready (ledger.apps)"
    return _record_row[0](event_id)


def record_append(record: Any, kind: str, fields: dict[str, Any]) -> tuple[int, str]:
    """Chain an entry onto the locked ``record`` (saved here): returns its ``(seq, hash)`` for
    the row to store in the same transaction."""
    (entry,) = record_extend(record, kind, [fields])
    return entry


def record_extend(record: Any, kind: str, entries: list[dict[str, Any]]) -> list[tuple[int, str]]:
    """Chain several entries of one ``kind`` onto the locked ``record`` in order, saving it once
    (an import posts two thousand transfers): each entry's ``(seq, hash)``."""
    out: list[tuple[int, str]] = []
    for fields in entries:
        seq = record.next_seq
        record.head = chain.link(record.head, chain.entry_content(kind, seq, fields))
        record.next_seq = seq + 1
        out.append((seq, record.head))
    record.save(update_fields=["head", "next_seq"])
    return out


def record_of(model: Any, event_id: int, uid: str) -> Any:
    """For a data migration that puts existing rows on the record: the event's record row
    (``model`` is ``MoneyRecord`` as the migration sees it), created at its genesis when the
    event has none. ``record_extend`` then chains onto it."""
    found = model.objects.filter(event_id=event_id).first()
    if found is None:
        found = model.objects.create(event_id=event_id, head=chain.money_record_genesis(uid))
    return found


def record_stamp(model: Any, columns: tuple[str, str], stamps: list[tuple[int, int, str]]) -> None:
    """Store many rows' entries at once — ``(id, seq, hash)`` into ``columns`` (the seq's and the
    hash's) of ``model``'s table — a few statements for an import of thousands."""
    seq_name, hash_name = columns
    if len(stamps) == 1:
        ((pk, seq, digest),) = stamps
        model.objects.filter(pk=pk).update(**{seq_name: seq, hash_name: digest})
        return
    table = sql.table(model)
    seq_col, hash_col = sql.qn(seq_name), sql.qn(hash_name)
    with connection.cursor() as cur:
        for i in range(0, len(stamps), 300):
            part = stamps[i : i + 300]
            # Identifiers from the model's _meta only; every value is a parameter.
            values = ", ".join(["(%s, %s, %s)"] * len(part))
            statement = (
                f"WITH v (i, s, h) AS (VALUES {values}) UPDATE {table} "  # nosec B608
                f"SET {seq_col} = v.s, {hash_col} = v.h FROM v WHERE {table}.id = v.i"
            )
            cur.execute(statement, [x for row in part for x in row])


@dataclass(frozen=True)
class RecordRow:
    """A row's entry on the record, rebuilt from its columns: the ``seq`` it stores (``None``:
    on no record), the entry's canonical content, the stored hash, the row in words ("transfer
    41 (issue 5000, issuer → player)") and what a changed row may have had changed."""

    seq: int | None
    content: dict[str, Any]
    digest: str
    what: str
    changed: str = "its columns"
    # What is said of the row when it has no seq (else "… is on no record").
    unrecorded: str = ""
    # When its content does not match its hash: contents it may have had, each with what is
    # said if the stored hash is that one's (a player's person before a forged merge).
    alternatives: tuple[tuple[dict[str, Any], str], ...] = ()


# A kind of row on the record: every row of that kind of ``event`` (chained or not), and, in
# ``problems``, what its rows say that contradicts their entries (a penalty lifted with no lift
# on the record, a large pot confirmed with no confirmation).
RecordRows = Callable[[Event, list[str]], Iterator[RecordRow]]


@dataclass(frozen=True)
class RecordSource:
    name: str
    rows: RecordRows


RECORD_SOURCES: list[RecordSource] = []


def register_record_source(source: RecordSource) -> None:
    """Put another kind of row on the event's money record, for the audit to recompute: the
    app that writes it registers where its rows are when it is ready (``tables`` its dealers'
    shifts, ``floor`` its lifts and large pots, ``closing`` the count, ``players`` who each
    player is), so that the ledger imports none of them. Registering a name again does
    nothing."""
    if all(s.name != source.name for s in RECORD_SOURCES):
        RECORD_SOURCES.append(source)


def entry(kind: str, seq: int | None, fields: dict[str, Any]) -> dict[str, Any]:
    """An entry's content as the audit rebuilds it (an unnumbered row hashes as seq 0)."""
    return chain.entry_content(kind, seq or 0, fields)


def at_text(value: Any) -> str | None:
    """A time as chained: ISO 8601, or ``None``."""
    return value.isoformat() if value is not None else None
