"""Dealers on the clock: a dealer signing in on a table's tablet starts a shift there
(``DealerShift``); signing out ends it, and so does another dealer signing in at that table
(relieved) or the same dealer signing in at another (moved). A hand's dealer is whoever
started it (``Hand.started_by``); the shifts say who sat at each table when, between hands too.
Each start and end is in the audit log and an entry of the event's money record
(``tables.record``), the record's row locked last, after the table's and the shifts'."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from brag_event.access.rules import can
from brag_event.access.selectors import dealers_of
from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.events.models import Day
from brag_event.events.states import refuse_unless_open
from brag_event.events.zones import zone

from .models import DealerShift, Table
from .record import shift_record_end, shift_record_start
from .rota import Change, day_rota, rota_change_due, rota_now


def _end(shift: DealerShift, how: str, at: datetime, by: Actor | None, **data: Any) -> None:
    shift.ended_at = at
    shift.ended_how = how
    shift.save(update_fields=["ended_at", "ended_how"])
    shift_record_end(shift, shift.day.event_id)
    audit_record(
        by=by,
        verb=Verb.DEALER_SHIFT_END,
        subject=shift.table,
        target=f"{shift.dealer.get_username()} at table {shift.table.number}",
        data={
            "dealer": shift.dealer.get_username(),
            "how": how,
            "minutes": round((at - shift.started_at).total_seconds() / 60, 1),
            **data,
        },
        event_id=shift.day.event_id,
    )


@service_transaction
def shift_sign_in(*, table: Table, by: Actor, leave: bool = False) -> DealerShift:
    """``by`` (a dealer of the table's event) starts dealing at ``table`` on an open day: the
    dealer signed in there before is relieved. A dealer signed in at another table stays there
    until relieved or signed out — opening another table's page moves nobody: refused
    (``dealing_elsewhere``, naming the table) unless ``leave`` says to leave it for this one.
    Signing in again where one deals already changes nothing."""
    table = (
        Table.objects.select_for_update(no_key=True, of=("self",))
        .select_related("day")
        .get(pk=table.pk)
    )
    user = by.user
    if user is None or not dealers_of(table.day.event_id).filter(pk=user.pk).exists():
        raise ServiceError(
            "not_a_dealer", "Only a dealer of this event signs in to deal at a table."
        )
    refuse_unless_open(table.day, "dealing")
    now = timezone.now()
    open_here = (
        DealerShift.objects.select_for_update()
        .select_related("dealer", "table", "day")
        .filter(table=table, ended_at__isnull=True)
        .first()
    )
    if open_here is not None and open_here.dealer_id == user.pk:
        return open_here
    # Both shifts locked before either ends: an end takes the money record's row, which is
    # locked last.
    elsewhere = (
        DealerShift.objects.select_for_update()
        .select_related("dealer", "table", "day")
        .filter(dealer=user, ended_at__isnull=True)
        .first()
    )
    if elsewhere is not None and not leave:
        where = f"table {elsewhere.table.number}"
        if elsewhere.day_id != table.day_id:
            where += f" (day {elsewhere.day.number})"
        raise ServiceError(
            "dealing_elsewhere",
            f"You are signed in to deal at {where}: you stay there until the next dealer "
            f"takes over or you leave it. Leave {where} to deal here.",
            details={"table": elsewhere.table_id, "number": elsewhere.table.number},
            status=409,
        )
    if open_here is not None:
        _end(open_here, DealerShift.End.RELIEVED, now, by, next=user.get_username())
    if elsewhere is not None:
        _end(elsewhere, DealerShift.End.MOVED, now, by, to_table=table.number)
    shift = DealerShift.objects.create(dealer=user, table=table, day=table.day, started_at=now)
    shift_record_start(shift, table.day.event_id)
    audit_record(
        by=by,
        verb=Verb.DEALER_SHIFT_START,
        subject=table,
        target=f"{user.get_username()} at table {table.number}",
        data={
            "dealer": user.get_username(),
            "relieved": open_here.dealer.get_username() if open_here else None,
        },
        event_id=table.day.event_id,
    )
    return shift


@service_transaction
def shift_sign_out(*, by: Actor, table: Table | None = None) -> int:
    """End ``by``'s open shift (at ``table`` only, when given): signing out of the tablet. At a
    ``table`` where ``by`` does not deal, a supervisor or organiser of its event ends whoever's
    shift is open there (a dealer who left without signing out). How many ended (0 or 1)."""
    if by.user is None:
        return 0
    found = DealerShift.objects.select_for_update().select_related("dealer", "table", "day")
    found = found.filter(ended_at__isnull=True)
    if table is not None:
        table = Table.objects.select_related("day").get(pk=table.pk)
        found = found.filter(table_id=table.pk)
        mine = found.filter(dealer_id=by.user.pk)
        if not mine.exists() and can(by, "floor.rule", table.day.event_id):
            mine = found
        found = mine
    else:
        found = found.filter(dealer_id=by.user.pk)
    ended = 0
    for shift in found:
        _end(shift, DealerShift.End.SIGNED_OUT, timezone.now(), by)
        ended += 1
    return ended


def shifts_end_at_close(*, day_id: int, by: Actor | None) -> int:
    """End every shift still open on day ``day_id`` as its close takes it out of play (inside the
    close's transaction): a dealer who never signed out deals no longer, and the per-dealer
    figures count hours up to the close. How many ended."""
    found = (
        DealerShift.objects.select_for_update()
        .select_related("dealer", "table", "day")
        .filter(day_id=day_id, ended_at__isnull=True)
    )
    at = timezone.now()
    ended = 0
    for shift in found:
        _end(shift, DealerShift.End.DAY_CLOSED, at, by)
        ended += 1
    return ended


def table_shift(table: Table) -> DealerShift | None:
    """Who deals at ``table`` now (their open shift)."""
    return (
        DealerShift.objects.select_related("dealer")
        .filter(table_id=table.pk, ended_at__isnull=True)
        .first()
    )


def dealer_name(user: User) -> str:
    return user.get_full_name() or user.get_username()


def table_change_due(table: Table, now: datetime | None = None) -> Change[User] | None:
    """The change of dealer the day's rota has due at ``table`` (``rota_change_due``)."""
    rota = day_rota(table.day_id)
    if rota is None:
        return None
    shift = table_shift(table)
    users = {u.pk: u for u in User.objects.filter(pk__in=rota.dealers)}
    dealers = [users[pk] for pk in rota.dealers if pk in users]
    if len(dealers) < len(rota.tables):
        return None  # a dealer's account was deleted since: the rota no longer stands
    due = rota_change_due(
        tables=list(rota.tables),
        dealers=[u.pk for u in dealers],
        starts_at=rota.starts_at,
        minutes=rota.minutes,
        changes=rota.changes,
        table=table.pk,
        dealing=shift.dealer_id if shift else None,
        now=now or timezone.now(),
    )
    if due is None:
        return None
    return Change(dealer=users[due.dealer], at=due.at, overdue=due.overdue)


def shift_view(table: Table, now: datetime | None = None) -> dict[str, Any]:
    """What the tablet shows of the table's dealer: who deals, since when, and the change of
    dealer due (in words: "Change of dealer due: Maria Lopez takes this table at 14:30")."""
    table = Table.objects.select_related("day__event").get(pk=table.pk)
    shift = table_shift(table)
    change = table_change_due(table, now)
    out: dict[str, Any] = {
        "dealer": dealer_name(shift.dealer) if shift else None,
        "dealer_username": shift.dealer.get_username() if shift else None,
        "started_at": shift.started_at if shift else None,
        "change": None,
    }
    if change is not None:
        at_text = change.at.astimezone(zone(table.day.event.time_zone)).strftime("%H:%M")
        name = dealer_name(change.dealer)
        out["change"] = {
            "dealer": name,
            "at": change.at,
            "at_text": at_text,
            "overdue": change.overdue,
            "message": f"Change of dealer due: {name} takes this table at {at_text}"
            + (" (now)." if change.overdue else "."),
        }
    return out


def my_shift_view(user: Any, table_id: int | None = None) -> dict[str, Any]:
    """What a dealer's tablet says of its dealer: the table they are signed in to deal at (if
    any), and — asked about ``table_id`` — whether they deal there, or were relieved there and
    by whom ("Maria Lopez took over this table at 16:30: you no longer deal here.")."""
    current = (
        DealerShift.objects.select_related("table", "day__event")
        .filter(dealer_id=user.pk, ended_at__isnull=True)
        .first()
    )
    out: dict[str, Any] = {
        "table": current.table_id if current else None,
        "table_number": current.table.number if current else None,
        "dealing_here": bool(current and table_id is not None and current.table_id == table_id),
        "relieved": None,
    }
    if table_id is None or out["dealing_here"]:
        return out
    last = (
        DealerShift.objects.select_related("day__event")
        .filter(dealer_id=user.pk, table_id=table_id)
        .order_by("-started_at", "-id")
        .first()
    )
    if last is None or last.ended_how != DealerShift.End.RELIEVED or last.ended_at is None:
        return out
    after = (
        DealerShift.objects.select_related("dealer")
        .filter(table_id=table_id, started_at__gte=last.ended_at)
        .exclude(dealer_id=user.pk)
        .order_by("started_at", "id")
        .first()
    )
    name = dealer_name(after.dealer) if after else "The next dealer"
    at_text = last.ended_at.astimezone(zone(last.day.event.time_zone)).strftime("%H:%M")
    out["relieved"] = {
        "by": name,
        "at": last.ended_at,
        "at_text": at_text,
        "message": f"{name} took over this table at {at_text}: you no longer deal here.",
    }
    return out


def shift_refuse_relieved(*, table_id: int, event_id: int, by: Actor | None) -> None:
    """A dealer relieved at a table (the next dealer signed in there) deals there no more until
    they sign in to it again: a hand started or an entry made by them there is refused
    (``relieved_here``, in the words their tablet shows), even while the Dealers page still
    ticks them for it. Supervisors and organisers of the event are not dealers on the clock:
    they may. One indexed read when the caller was not relieved (the hot path of entries)."""
    if by is None or by.user_id is None:
        return
    user_id = by.user_id
    last = (
        DealerShift.objects.filter(dealer_id=user_id, table_id=table_id)
        .order_by("-started_at", "-id")
        .values_list("ended_how", flat=True)
        .first()
    )
    if last != DealerShift.End.RELIEVED or can(by, "hand.correct", event_id):
        return
    relieved = my_shift_view(by.user, table_id)["relieved"]
    message = relieved["message"] if relieved else "The next dealer took over this table."
    raise ServiceError(
        "relieved_here",
        f"{message} The dealer signed in here now enters its hands.",
        status=403,
    )


@dataclass(frozen=True)
class TableDealing:
    """One table of an open day, as the floor reads it: who is signed in to deal there (and
    since when), and whom the rota has there now (``None``: no rota, or not this table)."""

    number: int
    dealer: str | None
    since: datetime | None
    rota: str | None
    change: str | None  # the change of dealer due there, in words

    @property
    def off_rota(self) -> bool:
        """Someone other than the rota's dealer deals here (or nobody does)."""
        return self.rota is not None and self.rota != self.dealer


@dataclass(frozen=True)
class DayDealing:
    day: Day
    tables: list[TableDealing]
    breaks: list[str]  # the rota's dealers on a break now


def dealing_tables(event_id: int, dealer_ids: set[int]) -> dict[int, int]:
    """dealer id → the number of the table of ``event_id`` each of ``dealer_ids`` is signed in
    to deal at now (those dealing nowhere are left out)."""
    return dict(
        DealerShift.objects.filter(
            dealer_id__in=dealer_ids, ended_at__isnull=True, day__event_id=event_id
        ).values_list("dealer_id", "table__number")
    )


def dealing_where(event_id: int, now: datetime | None = None) -> list[DayDealing]:
    """Who is signed in to deal where, for each open day of the event: its tables — the dealer
    signed in at each, and the rota's dealer there now — and the rota's dealers on a break.
    Only dealers with a table: a session with no table is nobody's business here."""
    now = now or timezone.now()
    out = []
    for day in Day.objects.filter(event_id=event_id, status=Day.Status.OPEN).order_by("number"):
        shifts = {
            s.table_id: s
            for s in DealerShift.objects.filter(
                table__day=day, ended_at__isnull=True
            ).select_related("dealer")
        }
        planned = rota_now(day, now)
        rows = []
        for table in Table.objects.filter(day=day).order_by("number"):
            shift = shifts.get(table.pk)
            on_rota = planned.tables.get(table.number) if planned else None
            due = shift_view(table, now)["change"]
            rows.append(
                TableDealing(
                    number=table.number,
                    dealer=dealer_name(shift.dealer) if shift else None,
                    since=shift.started_at if shift else None,
                    rota=dealer_name(on_rota) if on_rota else None,
                    change=due["message"] if due else None,
                )
            )
        out.append(
            DayDealing(
                day=day,
                tables=rows,
                breaks=[dealer_name(u) for u in planned.breaks] if planned else [],
            )
        )
    return out
