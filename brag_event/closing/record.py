"""The end-of-day count on the record (``ledger.record``, ``hands.chain``; docs/integrity.md).

Each table's count, each ruling on a difference and each waiver of a day's count is an entry of
the event's money record, rebuilt by the audit from its rows::

    {"kind": "count", "seq": S, "count": id, "day": id, "table": id, "by": user, "at": "…",
     "seats": [[seat id, player id, recorded, counted], …]}
    {"kind": "count_ruling", "seq": S, "seat_count": id, "seat": id, "ruling": "correct",
     "source": "house", "reason": "…", "by": user, "at": "…", "transfer": id or null}
    {"kind": "count_waiver", "seq": S, "day": id, "reason": "…", "by": user, "at": "…"}

and each request that moved a day's close on is an entry of that day's own chain (so of its
published root)::

    {"kind": "close_request", "seq": S, "count": true, "queued": false, "tables": [1, 3],
     "by": user, "at": "…"}

The audit's check ``closes kept their count`` reads them back: a close that went ahead
while the count was required (as the first request recorded it) had every table seated then
counted and every difference ruled, or a waiver on the record. A correction's transfer is
checked against its ruling: the count's transfer, of the difference, to or from that seat."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.db.models import F, Q, QuerySet

from brag_event.core.actors import Actor
from brag_event.engine import chain as engine_chain
from brag_event.events import day_chain
from brag_event.events.models import Day, Event
from brag_event.events.record import RecordRow, RecordSource, at_text, entry, record_append
from brag_event.ledger.audit import AuditRun, Found
from brag_event.ledger.models import Transfer
from brag_event.ledger.record import record_for_change
from brag_event.tables.models import Seat

from .models import CloseRequest, CountWaiver, SeatCount, TableCount

COUNT = "count"
RULING = "count_ruling"
WAIVER = "count_waiver"
CLOSE_REQUEST = "close_request"

COUNT_COLUMNS = ("id", "day_id", "table_id", "counted_by_id", "counted_at")
SEAT_COLUMNS = ("table_count_id", "seat_id", "player_id", "recorded", "counted")
RULING_COLUMNS = (
    "id",
    "seat_id",
    "ruling",
    "source",
    "reason",
    "ruled_by_id",
    "ruled_at",
    "transfer_id",
)
WAIVER_COLUMNS = ("day_id", "reason", "waived_by_id", "waived_at")
REQUEST_COLUMNS = ("count", "queued", "tables", "requested_by_id", "requested_at")


def count_fields(row: dict[str, Any], seats: list[list[Any]]) -> dict[str, Any]:
    """A table's count as chained: the count's row and its seats' rows
    (``[seat, player, recorded, counted]``, by seat id)."""
    return {
        "count": row["id"],
        "day": row["day_id"],
        "table": row["table_id"],
        "by": row["counted_by_id"],
        "at": at_text(row["counted_at"]),
        "seats": sorted(seats),
    }


def ruling_fields(row: dict[str, Any]) -> dict[str, Any]:
    """A ruling on a seat's difference as chained (``RULING_COLUMNS``)."""
    return {
        "seat_count": row["id"],
        "seat": row["seat_id"],
        "ruling": row["ruling"],
        "source": row["source"],
        "reason": row["reason"],
        "by": row["ruled_by_id"],
        "at": at_text(row["ruled_at"]),
        "transfer": row["transfer_id"],
    }


def waiver_fields(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "day": row["day_id"],
        "reason": row["reason"],
        "by": row["waived_by_id"],
        "at": at_text(row["waived_at"]),
    }


def request_fields(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "count": row["count"],
        "queued": row["queued"],
        "tables": row["tables"],
        "by": row["requested_by_id"],
        "at": at_text(row["requested_at"]),
    }


def _seats_of(count_ids: list[int]) -> dict[int, list[list[Any]]]:
    out: dict[int, list[list[Any]]] = {pk: [] for pk in count_ids}
    rows = SeatCount.objects.filter(table_count_id__in=count_ids).values_list(*SEAT_COLUMNS)
    for count_id, *seat in rows:
        out[count_id].append(list(seat))
    return out


# ------------------------------------------------------------------------------ the writers


def count_record(count: TableCount, event_id: int) -> None:
    """A table's count just entered (its seats' rows written), on the record."""
    row = TableCount.objects.filter(pk=count.pk).values(*COUNT_COLUMNS).get()
    fields = count_fields(row, _seats_of([count.pk])[count.pk])
    seq, digest = record_append(record_for_change(event_id), COUNT, fields)
    TableCount.objects.filter(pk=count.pk).update(record_seq=seq, record_hash=digest)
    count.record_seq, count.record_hash = seq, digest


def ruling_record(seat_count: SeatCount, event_id: int) -> None:
    """A ruling just saved (with its correction's transfer, already on the record)."""
    row = SeatCount.objects.filter(pk=seat_count.pk).values(*RULING_COLUMNS).get()
    seq, digest = record_append(record_for_change(event_id), RULING, ruling_fields(row))
    SeatCount.objects.filter(pk=seat_count.pk).update(rule_seq=seq, rule_hash=digest)
    seat_count.rule_seq, seat_count.rule_hash = seq, digest


def waiver_record(waiver: CountWaiver, event_id: int) -> None:
    row = CountWaiver.objects.filter(pk=waiver.pk).values(*WAIVER_COLUMNS).get()
    seq, digest = record_append(record_for_change(event_id), WAIVER, waiver_fields(row))
    CountWaiver.objects.filter(pk=waiver.pk).update(record_seq=seq, record_hash=digest)
    waiver.record_seq, waiver.record_hash = seq, digest


def seated_tables(day: Day) -> list[int]:
    """The day's tables with a player seated now, by number."""
    return sorted(
        set(
            Seat.objects.filter(table__day=day, left_at__isnull=True).values_list(
                "table__number", flat=True
            )
        )
    )


def close_request_record(*, day: Day, count: bool, queued: bool, by: Actor | None) -> CloseRequest:
    """A request that moved ``day``'s close on, on the day's own chain: the caller holds the
    day's row lock (``day_for_change``); the day's row is saved here with its chain."""
    request = CloseRequest.objects.create(
        day=day,
        count=count,
        queued=queued,
        tables=seated_tables(day),
        requested_by=by.user if by is not None and by.user_id else None,
    )
    row = CloseRequest.objects.filter(pk=request.pk).values(*REQUEST_COLUMNS).get()
    request.seq, request.hash = day_chain.day_chain_append(
        day=day, kind=CLOSE_REQUEST, fields=request_fields(row)
    )
    request.save(update_fields=["seq", "hash"])
    day.save(update_fields=["record_seq", "record_head"])
    return request


def count_required(day: Day) -> bool:
    """Whether the day's close waits for the count: as its first request recorded it (the
    event's setting cannot change while a close is under way), else the event's setting."""
    first = CloseRequest.objects.filter(day=day).order_by("seq", "pk").first()
    return first.count if first is not None else day.event.count_at_close


# ---------------------------------------------------------------------------------- the audit


def _counts(event: Event, problems: list[str]) -> Iterator[RecordRow]:
    counts = list(
        TableCount.objects.filter(day__event=event)
        .order_by("pk")
        .values(*COUNT_COLUMNS, "record_seq", "record_hash", "table__number", "day__number")
    )
    seats = _seats_of([c["id"] for c in counts])
    for row in counts:
        seq = row["record_seq"]
        yield RecordRow(
            seq,
            entry(COUNT, seq, count_fields(row, seats[row["id"]])),
            row["record_hash"],
            f"the count of table {row['table__number']}, day {row['day__number']} "
            f"(count {row['id']})",
            "a seat's recorded or counted figure, its seats, the table or who counted",
        )


def _where(row: dict[str, Any]) -> str:
    return (
        f"the count of {row['player__name']} at seat {row['seat__number']} of table "
        f"{row['table_count__table__number']}, day {row['table_count__day__number']} "
        f"(recorded {row['recorded']}, counted {row['counted']})"
    )


_WHERE_COLUMNS = (
    "player__name",
    "seat__number",
    "table_count__table__number",
    "table_count__day__number",
    "recorded",
    "counted",
)


def _rulings(event: Event, problems: list[str]) -> Iterator[RecordRow]:
    qs = (
        SeatCount.objects.filter(table_count__day__event=event)
        .filter(~Q(ruling="") | Q(rule_seq__isnull=False) | ~Q(rule_hash=""))
        .order_by("pk")
        .values(*RULING_COLUMNS, "rule_seq", "rule_hash", *_WHERE_COLUMNS)
    )
    for row in qs.iterator(chunk_size=2000):
        seq = row["rule_seq"]
        what = _where(row)
        if not row["ruling"]:
            problems.append(f"{what} was ruled on the record (entry {seq}) but is unruled again")
        yield RecordRow(
            seq,
            entry(RULING, seq, ruling_fields(row)),
            row["rule_hash"],
            f"the ruling on {what}",
            "its ruling, source, reason, who ruled, when, or its correction's transfer",
            unrecorded=f"the ruling on {what} is on no record: written behind the services",
        )
    problems += corrections_checked(event)


def corrections_checked(event: Event) -> list[str]:
    """Each correction's transfer against its ruling — the count's transfer of the difference,
    out of the seat's stack when it was found short, into it when found over — and every
    transfer of the count named by a ruling. Two statements."""
    out: list[str] = []
    corrected = (
        SeatCount.objects.filter(table_count__day__event=event, ruling=SeatCount.Ruling.CORRECT)
        .order_by("pk")
        .values(
            "seat_id",
            "transfer_id",
            "transfer__kind",
            "transfer__amount",
            "transfer__source__kind",
            "transfer__source__seat_id",
            "transfer__target__kind",
            "transfer__target__seat_id",
            *_WHERE_COLUMNS,
        )
    )
    for row in corrected:
        short = row["counted"] < row["recorded"]
        side = "source" if short else "target"
        fits = (
            row["transfer_id"] is not None
            and row["transfer__kind"] == Transfer.Kind.COUNT
            and row["transfer__amount"] == abs(row["counted"] - row["recorded"])
            and row[f"transfer__{side}__kind"] == "stack"
            and row[f"transfer__{side}__seat_id"] == row["seat_id"]
        )
        if not fits:
            named = (
                f"transfer {row['transfer_id']} ({row['transfer__kind']} {row['transfer__amount']})"
                if row["transfer_id"] is not None
                else "no transfer"
            )
            out.append(
                f"the correction of {_where(row)} names {named}, not the count's transfer of "
                f"{abs(row['counted'] - row['recorded'])} "
                + ("out of" if short else "into")
                + " that seat's stack: its transfer was relinked behind the services"
            )
    linked = SeatCount.objects.filter(transfer_id__isnull=False).values("transfer_id")
    loose = (
        Transfer.objects.filter(event=event, kind=Transfer.Kind.COUNT)
        .exclude(pk__in=linked)
        .order_by("pk")
        .values_list("pk", "amount", "memo")
    )
    for pk, amount, memo in loose:
        out.append(
            f"transfer {pk} (count {amount}: {memo}) corrects no seat's count: its ruling no "
            "longer names it (unlinked behind the services)"
        )
    return out


def _waivers(event: Event, problems: list[str]) -> Iterator[RecordRow]:
    qs = (
        CountWaiver.objects.filter(day__event=event)
        .order_by("pk")
        .values(*WAIVER_COLUMNS, "id", "record_seq", "record_hash", "day__number")
    )
    for row in qs:
        seq = row["record_seq"]
        yield RecordRow(
            seq,
            entry(WAIVER, seq, waiver_fields(row)),
            row["record_hash"],
            f"the waiver of day {row['day__number']}'s count (“{row['reason']}”)",
            "its day, reason, who waived it or when",
        )


def counts_source() -> RecordSource:
    return RecordSource("counts", _counts)


def count_rulings_source() -> RecordSource:
    return RecordSource("count rulings", _rulings)


def waivers_source() -> RecordSource:
    return RecordSource("count waivers", _waivers)


def _requests(days: QuerySet[Day]) -> Iterator[day_chain.DayEntry]:
    qs = (
        CloseRequest.objects.filter(day__in=days.order_by().values("id"))
        .order_by("day_id", "seq")
        .values("day_id", "seq", "hash", *REQUEST_COLUMNS)
    )
    for row in qs.iterator(chunk_size=2000):
        seq = row["seq"] if row["seq"] is not None else 0  # unnumbered: sorts first, and fails
        content = engine_chain.entry_content(CLOSE_REQUEST, seq, request_fields(row))
        yield row["day_id"], seq, content, row["hash"]


def close_requests_source() -> day_chain.DaySource:
    """The requests that moved a day's close on, on its own chain."""
    return day_chain.DaySource("close requests", _requests)


def check_counts_kept(run: AuditRun) -> Found:
    """Every close that went ahead while its day's count was required: each table seated when
    it was queued counted and every difference ruled — or the count waived — on the record.
    A few statements per event, none per table."""
    days = Day.objects.filter(event=run.scope.event)
    if run.scope.day is not None:
        days = days.filter(pk=run.scope.day.pk)
    requests: dict[int, list[CloseRequest]] = {}
    for request in CloseRequest.objects.filter(day__in=days).order_by("day_id", "seq", "pk"):
        requests.setdefault(request.day_id, []).append(request)
    numbers = dict(days.values_list("pk", "number"))
    waived = set(
        CountWaiver.objects.filter(day__in=days, record_seq__isnull=False).values_list(
            "day_id", flat=True
        )
    )
    counted = set(
        TableCount.objects.filter(day__in=days, record_seq__isnull=False).values_list(
            "day_id", "table__number"
        )
    )
    unruled: dict[tuple[int, int], list[int]] = {}
    for day_id, table, seat in (
        SeatCount.objects.filter(table_count__day__in=days, ruling="")
        .exclude(counted=F("recorded"))
        .values_list("table_count__day_id", "table_count__table__number", "seat__number")
    ):
        unruled.setdefault((day_id, table), []).append(seat)
    problems: list[str] = []
    checked = 0
    for day_id, asked in requests.items():
        queued = [r for r in asked if r.queued]
        if not queued or not any(r.count for r in asked):
            continue
        checked += 1
        if day_id in waived:
            continue
        number = numbers[day_id]
        for table in queued[-1].tables:
            if (day_id, table) not in counted:
                problems.append(
                    f"day {number}'s close went ahead without its count: table {table} was "
                    "not counted on the record, and no waiver of the count is on it"
                )
            elif (day_id, table) in unruled:
                seats = ", ".join(str(s) for s in sorted(unruled[(day_id, table)]))
                problems.append(
                    f"day {number}'s close went ahead without its count: at table {table}, "
                    f"the difference at seat {seats} was never ruled, and no waiver is on the "
                    "record"
                )
    return problems, f"{checked} closes that required the count"
