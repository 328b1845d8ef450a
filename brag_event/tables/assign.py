"""Which dealers run a table (a dealer's tablet sees only the tables assigned to them): one
table, or every table of a day at once; and the previous day's dealers proposed for a day that
has none yet."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.contrib.auth.models import User

from brag_event.access.selectors import dealers_of
from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.events.models import Day

from . import versions
from .models import Table

DEALER_GROUP = "dealer"


@service_transaction
def table_assign_dealers(*, table: Table, dealers: Sequence[User], by: Actor | None) -> Table:
    """Set the table's dealers to exactly ``dealers``, every one a dealer of the table's event
    (its own, or a dealer for every event: the "dealer" group) whose account is on."""
    table = (
        Table.objects.select_for_update(no_key=True, of=("self",))
        .select_related("day")
        .get(pk=table.pk)
    )
    wanted = {user.pk: user for user in dealers}
    in_group = set(
        dealers_of(table.day.event_id).filter(pk__in=wanted).values_list("pk", flat=True)
    )
    strangers = sorted(pk for pk in wanted if pk not in in_group)
    if strangers:
        names = ", ".join(str(wanted[pk].get_username()) for pk in strangers)
        raise ServiceError(
            "not_a_dealer",
            f"Only dealers can be assigned to a table; not a dealer: {names}.",
            details={"users": strangers},
        )
    before = sorted(table.dealers.values_list("pk", flat=True))
    table.dealers.set(list(wanted.values()))
    versions.table_changed(table.pk)  # the dashboard names the dealers
    audit_record(
        by=by,
        verb=Verb.TABLE_DEALERS,
        subject=table,
        data={
            "before": before,
            "after": sorted(wanted),
            "names": sorted(str(u.get_username()) for u in wanted.values()),
        },
        event_id=table.day.event_id,
    )
    return table


@service_transaction
def day_assign_dealers(
    *, day: Day, dealers: Mapping[int, Sequence[User]], by: Actor | None
) -> list[Table]:
    """Set the dealers of every table of ``day`` at once: ``dealers`` maps each table's id to
    its dealers (a table left out keeps its own). One transaction: every table, or none; the
    tables whose dealers changed are each in the audit log (the others are not touched)."""
    tables = {
        t.pk: t for t in Table.objects.filter(day=day).order_by("pk").prefetch_related("dealers")
    }
    strangers = sorted(pk for pk in dealers if pk not in tables)
    if strangers:
        raise ServiceError(
            "unknown_table",
            "A table chosen is not a table of this day.",
            details={"tables": strangers},
        )
    changed = [
        pk
        for pk in sorted(dealers)
        if sorted(u.pk for u in tables[pk].dealers.all()) != sorted(u.pk for u in dealers[pk])
    ]
    return [table_assign_dealers(table=tables[pk], dealers=dealers[pk], by=by) for pk in changed]


def day_dealers_proposed(day: Day) -> tuple[dict[int, list[int]], Day | None]:
    """The dealers to show for each table of ``day`` (table id → user ids): the day's own when
    it has any; else the previous day's at the tables with the same numbers — only those who
    may still deal (``dealers_of``) — and that day (``None``: the day's own were shown)."""
    tables = list(day.tables.order_by("number").prefetch_related("dealers"))
    own = {t.pk: sorted(u.pk for u in t.dealers.all()) for t in tables}
    if any(own.values()):
        return own, None
    before = (
        Day.objects.filter(event_id=day.event_id, number__lt=day.number).order_by("-number").first()
    )
    if before is None:
        return own, None
    allowed = set(dealers_of(day.event_id).values_list("pk", flat=True))
    by_number: dict[int, list[int]] = {}
    for table in before.tables.prefetch_related("dealers"):
        by_number[table.number] = sorted(u.pk for u in table.dealers.all() if u.pk in allowed)
    proposed = {t.pk: by_number.get(t.number, []) for t in tables}
    return (proposed, before) if any(proposed.values()) else (own, None)
