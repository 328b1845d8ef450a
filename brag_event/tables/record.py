"""Dealers' shifts on the event's money record (``ledger.record``): who dealt at which table
when decides whose hands are whose (the integrity monitor's figures, the dealers' hours), so
each shift's start and end is an entry, rebuilt by the audit from the shift's row::

    {"kind": "shift_start", "seq": S, "shift": id, "dealer": user, "table": id, "day": id,
     "at": "2026-11-27T14:02:11.512344+00:00"}
    {"kind": "shift_end", "seq": S, "shift": id, "at": "…", "how": "relieved"}

A shift's row stores each entry's seq and hash (``start_seq``/``start_hash``,
``end_seq``/``end_hash``), written in the transaction that starts or ends it, the record's row
locked last (after the table's)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from brag_event.events.models import Event
from brag_event.events.record import (
    RecordRow,
    RecordSource,
    at_text,
    entry,
    record_append,
    record_for_change,
)

from .models import DealerShift, Seat

START = "shift_start"
END = "shift_end"

COLUMNS = ("id", "dealer_id", "table_id", "day_id", "started_at", "ended_at", "ended_how")


def start_fields(row: dict[str, Any]) -> dict[str, Any]:
    """A shift's start as chained, from its row's columns (``COLUMNS``)."""
    return {
        "shift": row["id"],
        "dealer": row["dealer_id"],
        "table": row["table_id"],
        "day": row["day_id"],
        "at": at_text(row["started_at"]),
    }


def end_fields(row: dict[str, Any]) -> dict[str, Any]:
    """A shift's end as chained: when, and how (signed out, relieved, moved, the day closed)."""
    return {"shift": row["id"], "at": at_text(row["ended_at"]), "how": row["ended_how"]}


def _row(shift_id: int) -> dict[str, Any]:
    return DealerShift.objects.filter(pk=shift_id).values(*COLUMNS).get()


def shift_record_start(shift: DealerShift, event_id: int) -> None:
    """A shift just started, on the record (in its transaction, the table locked)."""
    seq, digest = record_append(record_for_change(event_id), START, start_fields(_row(shift.pk)))
    DealerShift.objects.filter(pk=shift.pk).update(start_seq=seq, start_hash=digest)
    shift.start_seq, shift.start_hash = seq, digest


def shift_record_end(shift: DealerShift, event_id: int) -> None:
    """A shift just ended (its end saved), on the record."""
    seq, digest = record_append(record_for_change(event_id), END, end_fields(_row(shift.pk)))
    DealerShift.objects.filter(pk=shift.pk).update(end_seq=seq, end_hash=digest)
    shift.end_seq, shift.end_hash = seq, digest


def _shifts(event: Event, problems: list[str]) -> Iterator[RecordRow]:
    rows = (
        DealerShift.objects.filter(day__event=event)
        .order_by("pk")
        .values(
            *COLUMNS,
            "dealer__username",
            "table__number",
            "day__number",
            "start_seq",
            "start_hash",
            "end_seq",
            "end_hash",
        )
    )
    changed = "its dealer, table, day or times"
    for row in rows.iterator(2000):
        what = (
            f"the shift of {row['dealer__username']} at table {row['table__number']}, day "
            f"{row['day__number']} (shift {row['id']})"
        )
        seq = row["start_seq"]
        yield RecordRow(
            seq,
            entry(START, seq, start_fields(row)),
            row["start_hash"],
            f"{what}: its start",
            changed,
        )
        if row["ended_at"] is None and row["end_seq"] is not None:
            problems.append(f"{what}: ended on the record (entry {row['end_seq']}) but open again")
        elif row["ended_at"] is not None:
            seq = row["end_seq"]
            yield RecordRow(
                seq,
                entry(END, seq, end_fields(row)),
                row["end_hash"],
                f"{what}: its end",
                changed,
            )


def shifts_source() -> RecordSource:
    """Every dealer's shift of an event, started and ended."""
    return RecordSource("dealers' shifts", _shifts)


# The seats taken and left, on the record (the ledger's audit reads them back: ledger.record).


def sit_fields(seat: Seat) -> dict[str, Any]:
    return {
        "seat": seat.pk,
        "table": seat.table_id,
        "number": seat.number,
        "player": seat.player_id,
        "buy_in": seat.buy_in,
    }


def leave_fields(seat: Seat) -> dict[str, Any]:
    return {"seat": seat.pk, "player": seat.player_id}


def seat_record_sit(seat: Seat, event_id: int) -> None:
    """A seat just taken, on the record (in the transaction that created it)."""
    seq, digest = record_append(record_for_change(event_id), "sit", sit_fields(seat))
    Seat.objects.filter(pk=seat.pk).update(sit_seq=seq, sit_hash=digest)
    seat.sit_seq, seat.sit_hash = seq, digest


def seat_record_leave(seat: Seat, event_id: int) -> None:
    """A seat being left, on the record: sets ``leave_seq`` and ``leave_hash`` on ``seat`` (the
    caller saves them with ``left_at``)."""
    seat.leave_seq, seat.leave_hash = record_append(
        record_for_change(event_id), "leave", leave_fields(seat)
    )
