"""The end-of-day count (bag and tag, issue 31; docs/day-flow.md, "The count").

Once a day is asked to close it is out of play (``closing.services.day_close_request``) and, if
its event counts at the close (``Event.count_at_close``), its close waits (``DayClose`` status
``counting``): each table with players seated is counted seat by seat (``table_count_enter``),
every difference from the recorded stack is ruled (``count_difference_rule``) — the records
stand, or the stack is corrected to the count by a ledger transfer on the event's money record
— and only then does the close run. The organiser may instead waive the day's count with a
reason (``day_count_waive``).

Money is never made up: a stack lowered to its count puts the difference into the event's
count-differences account (``Account.Kind.COUNT``: chips set aside); a stack raised to its count
takes it from that account (as far as it holds) or from the house, as the ruling says. The
ledger audit's equation therefore reads balances + stacks + pots + carried + house + count
differences = issued (``ledger.audit.check_conservation``).

Lock order, as the close's request: the day, then its close, then the seat, then (last, by
``transfer_post`` and ``closing.record``) the event's money record, of which each count, ruling
and waiver is an entry. Whether the count is required is what the day's first close request
recorded (``closing.record.count_required``): the event's setting cannot change mid-close."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from brag_event.access.rules import can
from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import Forbidden, ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.core.words import at_most
from brag_event.engine import MONEY_MAX
from brag_event.events.models import Day, DayClose
from brag_event.events.states import day_for_change
from brag_event.ledger.models import Transfer
from brag_event.ledger.services import (
    account_balance,
    account_count,
    account_house,
    account_stack,
    transfer_post,
)
from brag_event.players.selectors import event_names_shown
from brag_event.tables import versions
from brag_event.tables.models import Seat, Table

from .models import CountWaiver, SeatCount, TableCount
from .record import count_record, count_required, ruling_record, waiver_record

REASON_MAX = 200


# ------------------------------------------------------------------------------ what is left


@dataclass
class TableCountState:
    table: Table
    count: TableCount | None
    seats: list[SeatCount] = field(default_factory=list)
    seated: int = 0  # players seated now (what a count must name)

    @property
    def open(self) -> list[SeatCount]:
        return [s for s in self.seats if s.open]

    @property
    def differences(self) -> list[SeatCount]:
        return [s for s in self.seats if s.difference]


@dataclass
class CountState:
    """A day's count as it stands: required or not, waived or not, table by table."""

    day: Day
    required: bool
    waiver: CountWaiver | None
    tables: list[TableCountState] = field(default_factory=list)

    @property
    def uncounted(self) -> list[int]:
        return [t.table.number for t in self.tables if t.count is None and t.seated]

    @property
    def unruled(self) -> list[int]:
        return [t.table.number for t in self.tables if t.open]

    @property
    def done(self) -> bool:
        """Nothing holds the close back."""
        if not self.required or self.waiver is not None:
            return True
        return not self.uncounted and not self.unruled


def count_state(day: Day) -> CountState:
    """The day's count, table by table: every table with a player seated or a count entered."""
    waiver = CountWaiver.objects.filter(day=day).select_related("waived_by").first()
    state = CountState(day=day, required=count_required(day), waiver=waiver)
    counts = {
        c.table_id: c for c in TableCount.objects.filter(day=day).select_related("counted_by")
    }
    seat_counts: dict[int, list[SeatCount]] = {}
    for sc in (
        SeatCount.objects.filter(table_count__day=day)
        .select_related("player", "seat", "ruled_by", "table_count")
        .order_by("seat__number")
    ):
        seat_counts.setdefault(sc.table_count.table_id, []).append(sc)
    seated: dict[int, int] = {}
    for table_id in Seat.objects.filter(table__day=day, left_at__isnull=True).values_list(
        "table_id", flat=True
    ):
        seated[table_id] = seated.get(table_id, 0) + 1
    for table in Table.objects.filter(day=day).order_by("number"):
        if table.pk in counts or seated.get(table.pk):
            state.tables.append(
                TableCountState(
                    table=table,
                    count=counts.get(table.pk),
                    seats=seat_counts.get(table.pk, []),
                    seated=seated.get(table.pk, 0),
                )
            )
    return state


def _tables(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def count_refusal(state: CountState) -> ServiceError | None:
    """Why the close still waits for the count, in words (``None``: it need not)."""
    if state.done:
        return None
    parts = []
    if state.uncounted:
        parts.append(f"table {_tables(state.uncounted)} not counted yet")
    if state.unruled:
        parts.append(f"a difference to rule at table {_tables(state.unruled)}")
    return ServiceError(
        "count_outstanding",
        f"Day {state.day.number} waits for its count: " + "; ".join(parts) + ". Count every "
        "table and rule every difference, or waive the count with a reason, then close again.",
        details={
            "tables": sorted(set(state.uncounted) | set(state.unruled)),
            "uncounted": state.uncounted,
            "unruled": state.unruled,
        },
        status=409,
    )


def count_report(day: Day) -> dict[str, Any]:
    """The count as the close's report keeps it: every table's counts, differences and
    rulings, or the waiver."""
    state = count_state(day)
    waiver = state.waiver
    names = event_names_shown(day.event_id)
    return {
        "required": state.required,
        "waived": (
            {
                "reason": waiver.reason,
                "by": waiver.waived_by.get_username() if waiver.waived_by else "",
            }
            if waiver is not None
            else None
        ),
        "tables": [
            {
                "table": t.table.number,
                "by": t.count.counted_by.get_username() if t.count and t.count.counted_by else "",
                "seats": len(t.seats),
                "differences": [
                    {
                        "seat": s.seat.number,
                        "player": names.get(s.player_id, s.player.name),
                        "recorded": s.recorded,
                        "counted": s.counted,
                        "difference": s.difference,
                        "ruling": s.ruling,
                        "source": s.source,
                        "reason": s.reason,
                        "by": s.ruled_by.get_username() if s.ruled_by else "",
                    }
                    for s in t.differences
                ],
            }
            for t in state.tables
            if t.count is not None
        ],
    }


# -------------------------------------------------------------------------------- services


def _may(by: Actor | None, permission: str, day: Day, what: str) -> None:
    """``by`` holds ``permission`` in the day's event (the system, with no user, always may)."""
    if by is None or by.user is None:
        return
    if not can(by, permission, day.event_id):
        raise Forbidden("forbidden", f"Only {what} of this event may do that.")


def _user(by: Actor | None) -> Any:
    return by.user if by is not None and by.user_id else None


def _counting(day: Day, what: str) -> DayClose:
    """The day's close, locked, if it waits for the count; else a refusal in words."""
    close = DayClose.objects.select_for_update(no_key=True).filter(day=day).first()
    if close is None or close.status != DayClose.Status.COUNTING:
        if close is not None and close.status in (
            DayClose.Status.QUEUED,
            DayClose.Status.RUNNING,
            DayClose.Status.DONE,
        ):
            when = "the close has already started"
        elif day.status == Day.Status.OPEN:
            when = f"day {day.number} is still in play: ask for the close first"
        else:
            when = f"day {day.number} is not waiting for its count"
        raise ServiceError(
            "count_not_now",
            f"Chips are {what} only between asking for the close and the close itself: {when}.",
            details={"day": day.number, "status": close.status if close else day.status},
            status=409,
        )
    return close


def _reason(value: Any) -> str:
    text = " ".join(str(value or "").split())
    if not text:
        raise ServiceError(
            "count_reason_missing",
            "Say why, in a few words: the reason is kept on the record.",
            details={"field": "reason"},
        )
    if len(text) > REASON_MAX:
        raise ServiceError(
            "count_reason_too_long",
            at_most("The reason", REASON_MAX),
            details={"field": "reason", "max": REASON_MAX},
        )
    return text


@service_transaction
def table_count_enter(*, table: Table, counts: dict[int, int], by: Actor | None) -> TableCount:
    """Enter a table's physical count: ``counts`` gives every seated player's chips by seat
    number. Compared with the recorded stacks; each difference waits for a ruling."""
    day = day_for_change(table.day_id)
    _may(by, "count.enter", day, "the floor supervisors and organisers")
    _counting(day, "counted")
    if TableCount.objects.filter(table=table).exists():
        raise ServiceError(
            "count_already_entered",
            f"Table {table.number} is already counted. A count that was wrong is ruled on its "
            "differences: the records stand.",
            details={"table": table.number},
            status=409,
        )
    seats = list(
        Seat.objects.select_for_update(no_key=True)
        .filter(table=table, left_at__isnull=True)
        .select_related("player")
        .order_by("number")
    )
    wanted = {s.number for s in seats}
    given = set(counts) if isinstance(counts, dict) else set()
    if not seats:
        raise ServiceError(
            "count_nobody_seated",
            f"Nobody is seated at table {table.number}: there is nothing to count.",
            details={"table": table.number},
        )
    if given != wanted:
        raise ServiceError(
            "count_seats_mismatch",
            f"Table {table.number}'s count names every seated player once: seats "
            f"{_tables(sorted(wanted))}.",
            details={"table": table.number, "seats": sorted(wanted)},
        )
    for number in sorted(wanted):
        value = counts[number]
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MONEY_MAX:
            raise ServiceError(
                "count_invalid",
                f"Seat {number}'s count is a whole number of chips, from 0 to {MONEY_MAX:,}.",
                details={"seat": number, "field": f"seat_{number}"},
            )
    row = TableCount.objects.create(day=day, table=table, counted_by=_user(by))
    SeatCount.objects.bulk_create(
        [
            SeatCount(
                table_count=row,
                seat=s,
                player=s.player,
                recorded=s.stack,
                counted=counts[s.number],
            )
            for s in seats
        ]
    )
    count_record(row, day.event_id)
    differences = {
        s.number: counts[s.number] - s.stack for s in seats if counts[s.number] != s.stack
    }
    audit_record(
        by=by,
        verb=Verb.DAY_COUNT,
        subject=day,
        table=table,
        data={
            "table": table.number,
            "counts": {str(s.number): counts[s.number] for s in seats},
            "differences": {str(k): v for k, v in differences.items()},
        },
        event_id=day.event_id,
    )
    versions.event_changed(day.event_id)
    return row


@service_transaction
def count_difference_rule(
    *,
    seat_count: SeatCount,
    ruling: str,
    reason: str,
    source: str = "",
    by: Actor | None,
) -> SeatCount:
    """Rule a seat's difference: ``accept`` (the records stand: the count was wrong) or
    ``correct`` (the stack becomes the count, by a transfer on the money record; a raised
    stack's chips come from ``source``: ``count`` — the chips the count set aside — or
    ``house``). Once ruled, a difference stays ruled."""
    table = Table.objects.get(
        pk=TableCount.objects.values_list("table_id", flat=True).get(pk=seat_count.table_count_id)
    )
    day = day_for_change(table.day_id)
    _may(by, "count.rule", day, "the organisers")
    _counting(day, "ruled on")
    row = (
        SeatCount.objects.select_for_update(no_key=True)
        .select_related("player")
        .get(pk=seat_count.pk)
    )
    where = f"seat {SeatCount.objects.values_list('seat__number', flat=True).get(pk=row.pk)}"
    if row.difference == 0:
        raise ServiceError(
            "count_no_difference",
            f"The count at table {table.number}, {where} matches the records: nothing to rule.",
            details={"table": table.number},
        )
    if row.ruling:
        raise ServiceError(
            "count_already_ruled",
            f"The difference at table {table.number}, {where} is already ruled: "
            f"{row.get_ruling_display().lower()}.",
            details={"table": table.number, "ruling": row.ruling},
            status=409,
        )
    if ruling not in (SeatCount.Ruling.ACCEPT, SeatCount.Ruling.CORRECT):
        raise ServiceError(
            "count_bad_ruling",
            "Choose a ruling: the records stand, or the stack is corrected to the count.",
            details={"field": "ruling"},
        )
    text = _reason(reason)
    row.ruling, row.reason = ruling, text
    row.ruled_by, row.ruled_at = _user(by), timezone.now()
    if ruling == SeatCount.Ruling.CORRECT:
        row.source = _correct(row, table, day, text, source, where, by)
    row.save(update_fields=["ruling", "reason", "ruled_by", "ruled_at", "source", "transfer"])
    ruling_record(row, day.event_id)
    audit_record(
        by=by,
        verb=Verb.DAY_COUNT_RULING,
        subject=day,
        table=table,
        player=row.player,
        data={
            "table": table.number,
            "seat": row.seat_id,
            "recorded": row.recorded,
            "counted": row.counted,
            "ruling": row.ruling,
            "source": row.source,
            "reason": text,
            "transfer": row.transfer_id,
        },
        event_id=day.event_id,
    )
    versions.event_changed(day.event_id, tables=True)
    return row


def _correct(
    row: SeatCount, table: Table, day: Day, reason: str, source: str, where: str, by: Actor | None
) -> str:
    """Post the correction's transfer (``row.transfer``); the source named on the row."""
    seat = (
        Seat.objects.select_for_update(no_key=True).select_related("table__day").get(pk=row.seat_id)
    )
    if seat.left_at is not None or seat.stack != row.recorded:
        raise ServiceError(
            "count_stale",
            f"The stack at table {table.number}, {where} changed since the count "
            f"(now {seat.stack}, counted against {row.recorded}): the records stand unless it "
            "is counted again.",
            details={"table": table.number, "stack": seat.stack},
            status=409,
        )
    stack = account_stack(seat)
    amount = abs(row.difference)
    memo = f"count at the close of day {day.number}, table {table.number} {where}: {reason}"
    if row.difference < 0:  # chips missing: set aside in the count's account
        transfer = transfer_post(
            kind=Transfer.Kind.COUNT,
            source=stack,
            target=account_count(day.event),
            amount=amount,
            by=by,
            memo=memo,
        )
        row.transfer = transfer
        return SeatCount.Source.COUNT.value
    if source not in (SeatCount.Source.COUNT, SeatCount.Source.HOUSE):
        raise ServiceError(
            "count_source_missing",
            "Raising a stack needs chips from somewhere: the chips the count set aside, or "
            "the house.",
            details={"field": "source"},
        )
    account = (
        account_count(day.event) if source == SeatCount.Source.COUNT else account_house(day.event)
    )
    held = account_balance(account)
    if held < amount:
        named = "the chips the count set aside" if source == SeatCount.Source.COUNT else "the house"
        raise ServiceError(
            "count_source_short",
            f"{named.capitalize()} hold{'s' if source == 'house' else ''} only {held}: not "
            f"enough to raise the stack by {amount}. Rule the stacks found short first, or "
            "take the chips from elsewhere.",
            details={"field": "source", "held": held, "amount": amount},
            status=409,
        )
    row.transfer = transfer_post(
        kind=Transfer.Kind.COUNT, source=account, target=stack, amount=amount, by=by, memo=memo
    )
    return source


@service_transaction
def day_count_waive(*, day: Day, reason: str, by: Actor | None) -> CountWaiver:
    """The organiser closes the day without its count (or without the rest of it): with a
    reason, on the record and in the audit log. Before the close has started only."""
    day = day_for_change(day.pk)
    _may(by, "count.waive", day, "the organisers")
    text = _reason(reason)
    if day.status not in (Day.Status.OPEN, Day.Status.CLOSING):
        raise ServiceError(
            "count_not_now",
            f"Day {day.number} is {day.get_status_display().lower()}: its count cannot be "
            "waived now.",
            details={"day": day.number, "status": day.status},
            status=409,
        )
    close = DayClose.objects.select_for_update(no_key=True).filter(day=day).first()
    if close is not None and close.status != DayClose.Status.COUNTING:
        raise ServiceError(
            "count_not_now",
            f"Day {day.number}'s close has already started: its count cannot be waived now.",
            details={"day": day.number, "status": close.status},
            status=409,
        )
    if CountWaiver.objects.filter(day=day).exists():
        raise ServiceError(
            "count_already_waived",
            f"Day {day.number}'s count is already waived.",
            details={"day": day.number},
            status=409,
        )
    waiver = CountWaiver.objects.create(day=day, reason=text, waived_by=_user(by))
    waiver_record(waiver, day.event_id)
    audit_record(
        by=by,
        verb=Verb.DAY_COUNT_WAIVED,
        subject=day,
        data={"reason": text},
        event_id=day.event_id,
    )
    versions.event_changed(day.event_id)
    return waiver
