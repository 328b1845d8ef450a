"""Which dealers run a table (a dealer's tablet sees only the tables assigned to them)."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.transactions import service_transaction

from . import versions
from .models import Table

DEALER_GROUP = "dealer"


@service_transaction
def table_assign_dealers(*, table: Table, dealers: Sequence[User], by: Actor | None) -> Table:
    """Set the table's dealers to exactly ``dealers``, every one in the "dealer" group."""
    table = (
        Table.objects.select_for_update(no_key=True, of=("self",))
        .select_related("day")
        .get(pk=table.pk)
    )
    wanted = {user.pk: user for user in dealers}
    in_group = set(
        get_user_model()
        .objects.filter(pk__in=wanted, groups__name=DEALER_GROUP)
        .values_list("pk", flat=True)
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
