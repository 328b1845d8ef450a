"""What the organisers' dashboard shows: a few grouped queries, no ledger sums per table."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max, Q, Sum
from django.utils import timezone

from brag_event.core.replication import replication_status
from brag_event.core.words import counted
from brag_event.events.models import Day, DayClose, Event
from brag_event.events.setup import RULE_LABELS
from brag_event.events.zones import zone
from brag_event.floor.selectors import awards_of
from brag_event.hands.models import Hand
from brag_event.ledger.checks import ledger_check_latest
from brag_event.ledger.models import Account, Transfer
from brag_event.players.models import Player
from brag_event.players.selectors import current_day
from brag_event.tables.models import DealerShift, Seat, Table
from brag_event.tables.rota import rota_now
from brag_event.tables.shifts import dealer_name

IDLE_AFTER = dt.timedelta(minutes=15)


@dataclass
class TableRow:
    table: Table
    seated: int
    hands: int
    live_hand: int | None
    money: int  # stacks plus any carried pot
    last_activity: dt.datetime | None
    idle: bool
    dealers: list[str]


@dataclass
class Dashboard:
    event: Event
    day: Day | None
    days: list[tuple[Day, DayClose | None]]
    tables: list[TableRow]
    players: int
    seated: int
    house: int
    now: dt.datetime  # the figures' "now": idle tables and "… ago" are measured from it
    alerts: list[str] = field(default_factory=list)
    audit: Any = None


def house_takings(event: Event) -> int:
    """Money in the house account (fees and rake), from its transfers."""
    house = Account.objects.filter(event=event, kind=Account.Kind.HOUSE).first()
    if house is None:
        return 0
    inflow = Transfer.objects.filter(target=house).aggregate(s=Sum("amount"))["s"] or 0
    outflow = Transfer.objects.filter(source=house).aggregate(s=Sum("amount"))["s"] or 0
    return int(inflow - outflow)


def _integrity_flags(event: Event) -> int:
    """How many flags the integrity monitor's latest run raised (``docs/integrity.md``)."""
    from brag_event.integrity.selectors import latest_run

    run = latest_run(event)
    return run.flags.count() if run is not None else 0


def event_dashboard(event: Event, *, now: dt.datetime | None = None) -> Dashboard:
    now = now or timezone.now()
    day = current_day(event)
    closes = {c.day_id: c for c in DayClose.objects.filter(day__event=event)}
    days = [(d, closes.get(d.pk)) for d in event.days.order_by("number")]
    rows: list[TableRow] = []
    if day is not None:
        tables = (
            Table.objects.filter(day=day)
            .annotate(
                seated=Count("seats", filter=Q(seats__left_at__isnull=True), distinct=True),
                stacks=Sum("seats__stack", filter=Q(seats__left_at__isnull=True)),
            )
            .prefetch_related("dealers")
            .order_by("number")
        )
        hands = {
            r["table_id"]: r
            for r in Hand.objects.filter(table__day=day)
            .values("table_id")
            .annotate(n=Count("id"), started=Max("started_at"), settled=Max("settled_at"))
        }
        live = dict(
            Hand.objects.filter(table__day=day, status=Hand.Status.IN_PROGRESS).values_list(
                "table_id", "number"
            )
        )
        # Who deals: the dealer signed in at the table, else the rota's dealer there now, else
        # those ticked for it (the Dealers page).
        signed = {
            s.table_id: dealer_name(s.dealer)
            for s in DealerShift.objects.filter(
                table__day=day, ended_at__isnull=True
            ).select_related("dealer")
        }
        planned = rota_now(day, now)
        for t in tables:
            h = hands.get(t.pk, {})
            last = max(
                (x for x in (h.get("started"), h.get("settled"), t.created_at) if x), default=None
            )
            seated = int(getattr(t, "seated", 0) or 0)
            idle = bool(seated >= 2 and last is not None and now - last >= IDLE_AFTER)
            rows.append(
                TableRow(
                    table=t,
                    seated=seated,
                    hands=int(h.get("n", 0)),
                    live_hand=live.get(t.pk),
                    money=int(getattr(t, "stacks", 0) or 0) + t.carried_pot,
                    last_activity=last,
                    idle=idle,
                    dealers=[signed[t.pk]]
                    if t.pk in signed
                    else [f"{dealer_name(planned.tables[t.number])} (rota, not signed in)"]
                    if planned is not None and t.number in planned.tables
                    else [u.get_username() for u in t.dealers.all()],
                )
            )
    board = Dashboard(
        event=event,
        day=day,
        days=days,
        tables=rows,
        players=Player.objects.filter(event=event, removed_at__isnull=True).count(),
        seated=Seat.objects.filter(player__event=event, left_at__isnull=True).count(),
        house=house_takings(event),
        now=now,
    )
    check = ledger_check_latest(event)
    board.audit = check
    if check is not None and not check.ok:
        at = timezone.localtime(check.at, zone(event.time_zone))  # the event's time, and zone
        board.alerts.append(f"The ledger audit of {at:%H:%M %Z} FAILED: see the details below.")
    flags = _integrity_flags(event)
    if flags:
        board.alerts.append(
            f"The integrity monitor raised {flags} flag{'s' if flags != 1 else ''}: see Integrity."
        )
    # The standby, the WAL archive, the last base backup (issue 46): said here as on /readyz.
    board.alerts.extend(replication_status(tz=zone(event.time_zone)).alerts)
    waiting, _confirmed = awards_of(event)
    for award in waiting:
        at = timezone.localtime(award.asked_at, zone(event.time_zone))
        board.alerts.append(
            f"Table {award.table.number}: a pot of {award.amount:,} has waited for a "
            f"supervisor's confirmation since {at:%H:%M} (hand {award.hand.number}); no next "
            "hand there until then. Confirm it on the floor board."
        )
    for row in rows:
        if row.idle and row.last_activity is not None:
            minutes = int((now - row.last_activity).total_seconds() // 60)
            quiet = counted(minutes, "minute")
            board.alerts.append(f"Table {row.table.number}: no hand for {quiet}.")
    return board


def days_openable(event: Event) -> list[Day]:
    """The scheduled days that may open now: the first day, or one whose day before has closed
    (``events.states``; ``day_open`` decides again under lock)."""
    out, before = [], None
    for day in event.days.order_by("number"):
        if day.status == Day.Status.SCHEDULED and (before is None or before == Day.Status.CLOSED):
            out.append(day)
        before = day.status
    return out


def day_rules_shown(day: Day) -> list[tuple[str, str]]:
    """The day's rules in words, in the order the set-up page shows them: (label, value)."""
    out = []
    for name, value in day.settings_dict().items():
        if value is None:
            shown = "—"
        elif isinstance(value, bool):
            shown = "yes" if value else "no"
        elif isinstance(value, int):
            shown = f"{value:,}"
        else:
            shown = str(value)
        out.append((RULE_LABELS.get(name, name.replace("_", " ")), shown))
    return out
